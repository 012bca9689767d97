#!/usr/bin/env python3
"""tests/lib/report_browser.py: the checks of tests/lib/report_browser.sh on one
self-contained HTML report, through a real headless Chromium. Python 3
standard library only.

    report_browser.py CHROMIUM PAGE PNG TMPDIR

PAGE is an HTML file, or the URL of a page served on this machine
(http://127.0.0.1:PORT/..., or [::1]): the check service's page, as a
browser gets it, headers (its Content-Security-Policy) and all. With a
URL, the environment's REPORT_BROWSER_HEADER ("Name: value") is sent
with every request (a token, to see a signed-in page), and a relative
reference counts as the page's own: what leaves is what goes to another
origin.

Talks to the browser over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ended by a NUL, written to the
browser's fd 3 and read from its fd 4), so no websocket, port or
third-party module is needed, and every fact is read from the protocol's
events, never scraped from the browser's log (its stderr is full of
ERROR lines about D-Bus on any headless machine).

Prints one row per check, in a fixed order, each as soon as it is known:
    OK|FAIL <TAB> what <TAB> why
Exit status 0 when every row was printed, 3 when the browser failed on the
way (the rows left are printed as FAIL, the first with the reason), 2 on a
usage error; any other (a traceback's 1, timeout's 124) leaves rows out.
The shell script counts the rows.

What each check reads:
  static    the HTML itself (html.parser): every src, href, xlink:href,
            srcset, data, poster, action, ... attribute, every url(...) in
            an attribute or a <style>, every @import, and a meta refresh
            must be a #fragment, or a relative link to report.txt or to
            STUDENT/report.txt (a student's folder beside the page: a name
            of letters, digits, '.', '_' and '-', not starting with '.');
            a served page's, fetched once more, a #fragment or a path on
            its own origin (no scheme, no '//').
  loads     Page.navigate and Page.loadEventFired.
  console   Runtime.exceptionThrown (uncaught errors), Runtime.consoleAPICalled
            of type error or assert, Log.entryAdded of level error (failed
            loads, blocked requests, security errors), until SETTLE_S after
            the load.
  network   Network.requestWillBeSent and Fetch.requestPaused: any request
            but the file itself (a served page: to another origin) fails
            the check, and is failed by the browser (Fetch.failRequest)
            before it leaves; DNS is mapped to nothing too
            (--host-resolver-rules), so the run is offline.
  svg       getBoundingClientRect() of every <svg>, run in the page through
            Runtime.evaluate (the report itself has no scripts).
  screenshot the page's full height (its root element's) as the viewport,
            then Page.captureScreenshot, WIDTH pixels wide, to PNG.
"""
import base64
import html.parser
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import time
import urllib.parse

WIDTH = 1200          # the screenshot's width, CSS pixels at scale 1
MAX_HEIGHT = 16384    # Chromium's largest capture; taller pages are cut
DEADLINE_S = 50       # the shell's timeout is 60 s: answer before it kills us
SETTLE_S = 0.5        # events still counted after the load event
ALLOWED = re.compile(r'^(#.*|(\./)?([A-Za-z0-9_-][A-Za-z0-9._-]*/)?report\.txt(#.*)?)$')
SAME_ORIGIN = re.compile(r'^(?![A-Za-z][A-Za-z0-9+.-]*:)(?!\s*//)(?!\s*\\)')  # a served page's own paths
SERVED = re.compile(r'^http://(127\.0\.0\.1|\[::1\])(:[0-9]+)?(/.*)?$')

# attributes whose value the browser may fetch, or follow
URL_ATTRS = {'src', 'href', 'xlink:href', 'srcset', 'data', 'poster', 'action',
             'formaction', 'background', 'cite', 'longdesc', 'manifest',
             'ping', 'codebase', 'archive', 'icon', 'lowsrc', 'dynsrc',
             'imagesrcset'}
CSS_URL = re.compile(r'url\(\s*([\'"]?)(.*?)\1\s*\)|@import\s+([\'"])(.*?)\3', re.I)


def row(status, what, why=''):
    why = ' '.join(why.split())  # a console message may have tabs and lines
    print(f'{status}\t{what}\t{why}', flush=True)


# ---------------------------------------------------------------- static check
class References(html.parser.HTMLParser):
    """Every reference in the page that is not allowed, with its line."""

    def __init__(self, allowed=ALLOWED):
        super().__init__(convert_charrefs=True)
        self.bad = []
        self.in_style = False
        self.allowed = allowed

    def css(self, text):
        for m in CSS_URL.finditer(text):
            self.ref(m.group(2) if m.group(2) is not None else m.group(4))

    def ref(self, value):
        v = (value or '').strip()
        if not self.allowed.match(v):
            self.bad.append(f'line {self.getpos()[0]}: {v[:80]!r}')

    def handle_starttag(self, tag, attrs):
        self.in_style = tag == 'style'
        for name, value in attrs:
            value = value or ''
            if name in URL_ATTRS:
                self.ref(value)
            elif tag == 'meta' and name == 'content' and re.search(r'url\s*=', value, re.I):
                self.ref(re.split(r'url\s*=', value, flags=re.I)[1])
            elif 'url(' in value.lower() or '@import' in value.lower():
                self.css(value)

    def handle_endtag(self, tag):
        if tag == 'style':
            self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.css(data)


def extra_header():
    """REPORT_BROWSER_HEADER as (name, value), or None."""
    name, sep, value = os.environ.get('REPORT_BROWSER_HEADER', '').partition(':')
    return (name.strip(), value.strip()) if sep and name.strip() else None


def static_check(page):
    if SERVED.match(page):
        import urllib.request
        req = urllib.request.Request(page)
        if extra_header():
            req.add_header(*extra_header())
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                text = r.read().decode('utf-8', 'replace')
        except OSError as e:
            row('FAIL', 'no reference leaves the page (src, href, url() in the HTML)', f'cannot fetch it: {e}')
            return
        p = References(SAME_ORIGIN)
        what = 'no reference leaves the page (src, href, url() in the HTML)'
    else:
        with open(page, encoding='utf-8', errors='replace') as f:
            text = f.read()
        p = References()
        what = 'no reference leaves the file (src, href, url() in the HTML)'
    p.feed(text)
    p.close()
    if p.bad:
        row('FAIL', what, f'{len(p.bad)} found: ' + '; '.join(p.bad[:3]))
    else:
        row('OK', what)


# ---------------------------------------------------------------- the browser
class BrowserError(Exception):
    """The browser died, stopped answering, or refused a command."""


def become_subreaper():
    """Orphans of the browser (crashpad's handler runs in a session of its
    own; helpers outlive it) become our children, not init's: a PID 1 that
    reaps nothing (a container's) would keep them as zombies."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def children():
    mine = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/stat') as f:
                fields = f.read().rpartition(')')[2].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != 'Z':
            mine.append(int(pid))
    return mine


def reap_orphans():
    """Waits a second for the browser's orphans to go, then kills them;
    gives up on them after three."""
    kill_at = time.monotonic() + 1
    while time.monotonic() < kill_at + 2:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            return
        if time.monotonic() > kill_at:
            for pid in children():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        time.sleep(0.05)


class Browser:
    """One Chromium with the DevTools protocol on a pipe, and one page."""

    def __init__(self, exe, tmp, page_url):
        self.page_url = page_url
        self.origin = origin(page_url)  # None for a file: only the file itself
        self.deadline = time.monotonic() + DEADLINE_S
        self.buf = b''
        self.next_id = 0
        self.sid = None
        self.closed = False
        self.events = []           # every event, in order
        self.blocked = []          # requests failed before they left
        to_browser, self.w = os.pipe()
        self.r, from_browser = os.pipe()
        env = dict(os.environ, HOME=f'{tmp}/home', TMPDIR=tmp,
                   XDG_CONFIG_HOME=f'{tmp}/config', XDG_CACHE_HOME=f'{tmp}/cache')
        args = [exe, '--headless=new', '--no-sandbox', '--disable-gpu',
                '--disable-dev-shm-usage', '--remote-debugging-pipe',
                f'--user-data-dir={tmp}/profile', '--no-first-run',
                '--no-default-browser-check', '--disable-extensions',
                '--disable-background-networking', '--disable-component-update',
                '--disable-sync', '--disable-default-apps', '--disable-breakpad',
                '--disable-crash-reporter', '--mute-audio', '--hide-scrollbars',
                '--host-resolver-rules=MAP * ~NOTFOUND' + (
                    f', EXCLUDE {urllib.parse.urlsplit(page_url).hostname}' if self.origin else ''),
                '--force-device-scale-factor=1',
                f'--window-size={WIDTH},800', 'about:blank']

        def fds():  # the browser's fd 3 reads our messages, its fd 4 writes its own
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)
        self.log = open(f'{tmp}/chromium.log', 'w')
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=fds,
                                     start_new_session=True, env=env,
                                     stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=self.log)
        self.pidfile = f'{tmp}/chromium.pid'
        with open(self.pidfile, 'w') as f:
            f.write(f'{self.proc.pid}\n')
        os.close(to_browser)
        os.close(from_browser)

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.sid:
            msg['sessionId'] = self.sid
        try:
            os.write(self.w, json.dumps(msg).encode() + b'\0')
        except BrokenPipeError:
            raise BrowserError(f'chromium exited (status {self.proc.wait()}) before it answered')
        return self.next_id

    def read(self, until):
        """The next message, or None at time `until`."""
        while b'\0' not in self.buf:
            left = min(until, self.deadline) - time.monotonic()
            if left <= 0:
                if time.monotonic() >= self.deadline:
                    raise BrowserError(f'chromium did not answer within {DEADLINE_S} s')
                return None
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                data = os.read(self.r, 1 << 16)
                if not data:
                    raise BrowserError(f'chromium closed its pipe (exit {self.proc.poll()})')
                self.buf += data
        msg, _, self.buf = self.buf.partition(b'\0')
        msg = json.loads(msg)
        if 'method' in msg:
            self.event(msg)
        return msg

    def event(self, msg):
        self.events.append(msg)
        if msg['method'] == 'Fetch.requestPaused':
            url = msg['params']['request']['url']
            rid = msg['params']['requestId']
            if url.split('#')[0] == self.page_url or (self.origin and origin(url) == self.origin):
                self.send('Fetch.continueRequest', {'requestId': rid})
            else:
                self.blocked.append(url)
                self.send('Fetch.failRequest', {'requestId': rid, 'errorReason': 'BlockedByClient'})

    def call(self, method, params=None, session=True):
        want = self.send(method, params, session)
        while True:
            msg = self.read(self.deadline)
            if msg.get('id') == want:
                if 'error' in msg:
                    raise BrowserError(f'{method}: {msg["error"].get("message")}')
                return msg.get('result', {})

    def wait(self, method, seconds):
        """True once the event `method` came (now or before), within seconds."""
        until = time.monotonic() + seconds
        if any(e['method'] == method for e in self.events):
            return True
        while (msg := self.read(until)) is not None:
            if msg.get('method') == method:
                return True
        return False

    def pump(self, seconds):
        until = time.monotonic() + seconds
        while self.read(until) is not None:
            pass

    def close(self, graceful=True):
        if self.closed:
            return
        self.closed = True
        if graceful:
            try:
                self.send('Browser.close', session=False)
                self.proc.wait(5)
            except (BrowserError, OSError, subprocess.TimeoutExpired):
                pass
        try:  # the renderers and the zygote too, by the browser's process group
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        reap_orphans()
        self.log.close()
        os.unlink(self.pidfile)  # reaped: the shell has nothing left to kill


def console_errors(events):
    found = []
    for e in events:
        m, p = e['method'], e.get('params', {})
        if m == 'Runtime.exceptionThrown':
            d = p['exceptionDetails']
            text = d.get('exception', {}).get('description') or d.get('text', '')
            found.append(f'{text.splitlines()[0] if text else "exception"} (line {d.get("lineNumber", 0) + 1})')
        elif m == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
            args = [str(a.get('value', a.get('description', ''))) for a in p.get('args', [])]
            found.append(f'console.{p["type"]}: {" ".join(args)}')
        elif m == 'Log.entryAdded' and p['entry'].get('level') == 'error':
            en = p['entry']
            found.append(en.get('text', '') + (f' ({en["url"]})' if en.get('url') else ''))
    return found


def origin(url):
    """scheme://host:port of an http(s) URL; None for any other."""
    u = urllib.parse.urlsplit(url)
    return f'{u.scheme}://{u.netloc}' if u.scheme in ('http', 'https') else None


def requests_out(events, page_url, blocked):
    urls = [e['params']['request']['url'] for e in events
            if e['method'] == 'Network.requestWillBeSent']
    out = []
    own = origin(page_url)
    for u in urls + blocked:
        if u.split('#')[0] != page_url and not (own and origin(u) == own) and u not in out:
            out.append(u)
    return out


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    if head[:8] != b'\x89PNG\r\n\x1a\n' or head[12:16] != b'IHDR':
        return None
    return struct.unpack('>II', head[16:24])


SVG_SIZES = '''JSON.stringify(Array.from(document.querySelectorAll('svg'), (s, i) => {
  const r = s.getBoundingClientRect();
  return {i: i + 1, id: s.id, w: r.width, h: r.height};
}))'''
# the root's box holds every margin (a root's margins never collapse), and
# unlike Page.getLayoutMetrics it is not padded to the viewport's height
PAGE_HEIGHT = 'Math.ceil(document.documentElement.getBoundingClientRect().height)'


def browser_checks(b, png):
    """The rows after the static one, in order; raises on a browser failure."""
    pending = ['chromium loads the page', 'no console errors',
               'no request leaves the %s (network log)' % ('page\'s origin' if b.origin else 'file'),
               'every <svg> has a non-zero rendered width and height',
               f'a full-page screenshot, {os.path.basename(png)}']

    def done(status, why=''):
        row(status, pending.pop(0), why)

    try:
        b.call('Browser.getVersion', session=False)
        target = b.call('Target.createTarget', {'url': 'about:blank'}, session=False)['targetId']
        b.sid = b.call('Target.attachToTarget', {'targetId': target, 'flatten': True},
                       session=False)['sessionId']
        for domain in ('Page', 'Runtime', 'Log', 'Network'):
            b.call(f'{domain}.enable')
        if b.origin and extra_header():
            name, value = extra_header()
            b.call('Network.setExtraHTTPHeaders', {'headers': {name: value}})
        b.call('Fetch.enable', {'patterns': [{'urlPattern': '*'}]})
        b.call('Emulation.setDeviceMetricsOverride',
               {'width': WIDTH, 'height': 800, 'deviceScaleFactor': 1, 'mobile': False})
        t0 = time.monotonic()
        nav = b.call('Page.navigate', {'url': b.page_url})
        if nav.get('errorText'):
            raise BrowserError(f'navigation failed: {nav["errorText"]}')
        if not b.wait('Page.loadEventFired', DEADLINE_S):
            raise BrowserError('no load event')
        b.pump(SETTLE_S)
        done('OK', f'{(time.monotonic() - t0) * 1000:.0f} ms to the load event')

        errs = console_errors(b.events)
        done('FAIL' if errs else 'OK',
             f'{len(errs)}: ' + '; '.join(errs[:3]) if errs else '')

        out = requests_out(b.events, b.page_url, b.blocked)
        done('FAIL' if out else 'OK',
             f'{len(out)} (blocked): ' + ', '.join(out[:3]) if out else '')

        res = b.call('Runtime.evaluate', {'expression': SVG_SIZES, 'returnByValue': True})
        if 'exceptionDetails' in res:
            raise BrowserError('measuring the svgs failed: ' + res['exceptionDetails'].get('text', ''))
        svgs = json.loads(res['result']['value'])
        zero = [f'svg {s["i"]}{" #" + s["id"] if s["id"] else ""} is {s["w"]:g}x{s["h"]:g}'
                for s in svgs if not (s['w'] > 0 and s['h'] > 0)]
        done('FAIL' if zero else 'OK',
             f'{len(zero)} of {len(svgs)}: ' + '; '.join(zero[:3]) if zero
             else f'{len(svgs)} svgs' + ''.join(f', {s["w"]:g}x{s["h"]:g}' for s in svgs[:4])
             + (' ...' if len(svgs) > 4 else ''))

        full = b.call('Runtime.evaluate', {'expression': PAGE_HEIGHT, 'returnByValue': True})
        full = full['result']['value']
        height = max(1, min(MAX_HEIGHT, full))
        b.call('Emulation.setDeviceMetricsOverride',
               {'width': WIDTH, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})
        b.pump(0.2)
        shot = b.call('Page.captureScreenshot', {'format': 'png', 'fromSurface': True})
        with open(png, 'wb') as f:
            f.write(base64.b64decode(shot['data']))
        got = png_size(png)
        cut = f' (cut from {full})' if height < full else ''
        if got != (WIDTH, height):
            done('FAIL', f'{png}: expected a {WIDTH}x{height} PNG, got {got or "no PNG"}')
        else:
            done('OK', f'{png}, {WIDTH}x{height} px{cut}, {os.path.getsize(png)} bytes')
    except (BrowserError, OSError) as e:
        done('FAIL', str(e))
        while pending:
            done('FAIL', 'not checked: the browser failed above')
        return 3
    return 0


def main():
    if len(sys.argv) != 5:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    exe, page, png, tmp = sys.argv[1:]
    static_check(page)
    url = page if SERVED.match(page) else 'file://' + urllib.parse.quote(os.path.abspath(page))
    become_subreaper()
    b = Browser(exe, tmp, url)
    # timeout(1) sends TERM first: take the browser down with us
    signal.signal(signal.SIGTERM, lambda *_: (b.close(graceful=False), sys.exit(124)))
    try:
        return browser_checks(b, png)
    finally:
        b.close()


if __name__ == '__main__':
    sys.exit(main())
