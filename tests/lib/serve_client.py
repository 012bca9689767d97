#!/usr/bin/env python3
"""tests/lib/serve_client.py: the clients of tests/grading/test_serve_http.sh
that curl cannot be: many at once, slow on purpose, or timed.

  serve_client.py submit URL TOKENS UPLOAD N     the first N accounts of TOKENS
                                                 ("name<TAB>token" lines) submit
                                                 UPLOAD as lab 01, one after the
                                                 other: "status<TAB>first line"
  serve_client.py slowloris URL TOKEN N LIMIT_S  N connections trickle a header
                                                 byte a second each while TOKEN's
                                                 client asks GET /api/jobs every
                                                 100 ms; until all N are cut (or
                                                 LIMIT_S)
  serve_client.py flood URL TOKEN_A TOKEN_B S    for S seconds TOKEN_A sends
                                                 requests back to back, and so
                                                 does a client with no token from
                                                 127.0.0.2 (each in a process of
                                                 its own), while TOKEN_B asks
                                                 every 50 ms
  serve_client.py load URL TOKENS UPLOAD SPREAD_S OUT
                                                 every account of TOKENS submits
                                                 once from an address of its own
                                                 (127.0.1.1, 127.0.1.2, ...), at a
                                                 random instant within SPREAD_S,
                                                 polls its job until it ends and
                                                 fetches its report; one TSV line
                                                 per student into OUT
  serve_client.py head URL TOKEN PATH...         each PATH asked with GET, then
                                                 HEAD (TOKEN's, a connection
                                                 each, read to its end): the
                                                 same status and headers (the
                                                 Date aside), no body for HEAD:
                                                 "PATH<TAB>ok" or what differs

Each prints its figures as "key<TAB>value" lines for the test to read and
judge, and exits 0; 1 (the reason on stderr) when a request went wrong in
a way the test does not measure. Python's standard library only.
"""
import http.client
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse


def hostport(url):
    u = urllib.parse.urlsplit(url)
    return u.hostname, u.port


def conn(url, source=None, timeout=10):
    host, port = hostport(url)
    return http.client.HTTPConnection(host, port, timeout=timeout,
                                      source_address=(source, 0) if source else None)


def ask(c, method, path, token=None, body=None):
    """One request on connection c: (status, body text)."""
    headers = {"Authorization": "Bearer " + token} if token else {}
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    return r.status, r.read().decode("utf-8", "replace")


def fields(text):
    return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)


def out(key, value):
    print(f"{key}\t{value}", flush=True)


def ms(seconds):
    return f"{1000 * seconds:.1f}"


def tokens(path):
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if "\t" in line]


def submit(url, tokens_path, upload, n):
    body = open(upload, "rb").read()
    c = conn(url)
    for name, token in tokens(tokens_path)[:int(n)]:
        status, text = ask(c, "POST", "/api/jobs?lab=01", token, body)
        out(status, text.splitlines()[0] if text else "")


def slowloris(url, token, n, limit_s):
    n, limit_s = int(n), float(limit_s)
    host, port = hostport(url)
    t0 = time.monotonic()
    socks = []
    for _ in range(n):
        s = socket.create_connection((host, port))
        s.sendall(b"GET /api/jobs HTTP/1.1\r\nHost: primlab\r\nX-Slow: ")
        s.setblocking(False)
        socks.append(s)
    cut = [None] * n
    lat, c, next_byte = [], conn(url), t0 + 1
    while time.monotonic() - t0 < limit_s and None in cut:
        now = time.monotonic()
        for i, s in enumerate(socks):
            if cut[i] is not None:
                continue
            try:
                if s.recv(4096) == b"":
                    cut[i] = now - t0
            except BlockingIOError:
                if now >= next_byte:
                    try:
                        s.send(b"a")
                    except OSError:
                        cut[i] = now - t0
            except OSError:
                cut[i] = now - t0
        if now >= next_byte:
            next_byte += 1
        t = time.monotonic()
        status, _ = ask(c, "GET", "/api/jobs", token)
        lat.append(time.monotonic() - t)
        if status != 200:
            sys.exit(f"slowloris: the normal client got {status}")
        time.sleep(0.1)
    for s in socks:
        s.close()
    done = [x for x in cut if x is not None]
    out("tricklers", n)
    out("cut", len(done))
    out("cut_min_s", f"{min(done):.2f}" if done else "-")
    out("cut_max_s", f"{max(done):.2f}" if done else "-")
    out("normal_requests", len(lat))
    out("normal_p50_ms", ms(statistics.median(lat)))
    out("normal_max_ms", ms(max(lat)))


def hammer(url, token, seconds, source):
    """Requests back to back for SECONDS, a new connection whenever one is closed."""
    counts, lines_bad, c = {}, 0, None
    t0 = time.monotonic()
    while time.monotonic() - t0 < float(seconds):
        for attempt in range(3):
            try:
                c = c or conn(url, source if source != "-" else None)
                status, text = ask(c, "GET", "/api/jobs", token if token != "-" else None)
                break
            except (http.client.HTTPException, OSError):
                c = None
        else:
            sys.exit("hammer: no answer three times")
        counts[status] = counts.get(status, 0) + 1
        if status != 200 and (text.count("\n") != 1 or not text.endswith("\n")):
            lines_bad += 1
    for status, k in sorted(counts.items()):
        out(status, k)
    out("not_one_line", lines_bad)
    out("seconds", f"{time.monotonic() - t0:.2f}")


def flood(url, token_a, token_b, seconds):
    me = [sys.executable, __file__, "hammer", url]
    floods = [subprocess.Popen(me + [token_a, seconds, "-"], stdout=subprocess.PIPE, text=True),
              subprocess.Popen(me + ["-", seconds, "127.0.0.2"], stdout=subprocess.PIPE, text=True)]
    time.sleep(0.2)  # the floods under way
    c, lat, bad = conn(url), [], 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < float(seconds) - 0.4:
        t = time.monotonic()
        status, _ = ask(c, "GET", "/api/jobs", token_b)
        lat.append(time.monotonic() - t)
        bad += status != 200
        time.sleep(0.05)
    for who, p in zip(("a", "anon"), floods):
        text, _ = p.communicate()
        if p.returncode:
            sys.exit(f"flood: the {who} flood failed")
        for key, value in fields(text).items():
            out(f"{who}_{key}", value)
    out("b_requests", len(lat))
    out("b_refused", bad)
    out("b_p50_ms", ms(statistics.median(lat)))
    out("b_max_ms", ms(max(lat)))


def load(url, tokens_path, upload, spread, out_path):
    body = open(upload, "rb").read()
    accounts = tokens(tokens_path)
    rng = random.Random(55)
    start = [rng.uniform(0, float(spread)) for _ in accounts]
    rows, errors = [], []
    t0 = time.monotonic()

    def student(i, name, token, at):
        time.sleep(at)
        try:
            c = conn(url, source=f"127.0.{1 + i // 250}.{1 + i % 250}", timeout=30)
            t = time.monotonic()
            status, text = ask(c, "POST", "/api/jobs?lab=01", token, body)
            post = time.monotonic() - t
            if status != 201:
                raise RuntimeError(f"POST: {status} {text.strip()}")
            job = fields(text)["id"]
            state, polls = "queued", 0
            while state in ("queued", "running"):
                time.sleep(0.4)
                polls += 1
                status, text = ask(c, "GET", f"/api/jobs/{job}", token)
                if status == 200:
                    state = fields(text)["state"]
                elif status != 429:
                    raise RuntimeError(f"GET job {job}: {status} {text.strip()}")
                if time.monotonic() - t > 60:
                    raise RuntimeError(f"job {job} still {state} after 60 s")
            seen = time.monotonic() - t
            status, text = ask(c, "GET", f"/api/jobs/{job}/report.txt", token)
            if status != 200 or "lab 01" not in text:
                raise RuntimeError(f"report of job {job}: {status}")
            rows.append((name, job, post, state, seen, polls, t - t0))
        except Exception as e:  # noqa: BLE001 (any failure is the student's line)
            errors.append(f"{name}: {e}")

    threads = [threading.Thread(target=student, args=(i, n, tok, at))
               for i, ((n, tok), at) in enumerate(zip(accounts, start))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    with open(out_path, "w") as f:
        f.write("student\tid\tpost_s\tstate\tseen_done_s\tpolls\tat_s\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    posts = [r[2] for r in rows]
    out("students", len(accounts))
    out("answered", len(rows))
    out("errors", len(errors))
    for e in errors[:5]:
        print("error\t" + e, file=sys.stderr)
    out("submitted_within_s", f"{max(r[6] for r in rows):.1f}" if rows else "-")
    out("post_mean_ms", ms(statistics.mean(posts)) if posts else "-")
    out("post_max_ms", ms(max(posts)) if posts else "-")
    out("wall_s", f"{time.monotonic() - t0:.1f}")


def raw(url, method, path, token):
    """METHOD PATH on a connection of its own, read until the service
    closes it: (status line, header lines but Date sorted, body bytes)."""
    s = socket.create_connection(hostport(url), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    s.sendall(f"{method} {path} HTTP/1.1\r\nHost: primlab\r\n{auth}Connection: close\r\n\r\n".encode())
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    return lines[0], sorted(h for h in lines[1:] if not h.lower().startswith("date:")), body


def head(url, token, *paths):
    for path in paths:
        gs, gh, gb = raw(url, "GET", path, token)
        hs, hh, hb = raw(url, "HEAD", path, token)
        why = []
        if hs != gs:
            why.append(f"HEAD '{hs}', GET '{gs}'")
        if hh != gh:
            why.append("headers of one alone: " + " | ".join(sorted(set(hh) ^ set(gh))))
        if hb:
            why.append(f"HEAD sent a body of {len(hb)} bytes")
        if not gb and " 204 " not in gs:
            why.append("GET sent no body")
        out(path, "; ".join(why) or "ok")


if __name__ == "__main__":
    commands = {"submit": submit, "slowloris": slowloris, "hammer": hammer, "flood": flood, "load": load,
                "head": head}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](*sys.argv[2:])
