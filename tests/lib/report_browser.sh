#!/usr/bin/env bash
# tests/lib/report_browser.sh: an HTML report (build/primlab-report's
# GRADES/report.html, issue 31), or a page served on this machine (the
# check service's), as a real browser shows it: headless Chromium, as
# root or not, with no display, no GPU and no network.
#
#   tests/lib/report_browser.sh FILE.html OUTDIR [NAME.png]
#   tests/lib/report_browser.sh http://127.0.0.1:PORT/PATH OUTDIR [NAME.png]
#
# Checks, one line each (`OK    what` or `FAIL  what: why`):
#   1. no reference leaves the file: the HTML names nothing to fetch or
#      follow but a #fragment or the relative link report.txt (a served
#      page: nothing on another origin);
#   2. chromium loads the page;
#   3. no console errors (uncaught exceptions, console.error, failed loads,
#      what the page's Content-Security-Policy blocks);
#   4. no request leaves the file, or the page's origin (the browser's
#      network log; any such request is also stopped before it goes out);
#   5. every <svg> has a non-zero rendered width and height;
#   6. a full-page screenshot, OUTDIR/NAME.png (report.png), WIDTH 1200 px
#      and the page's height, kept as the test's artefact.
# A served page gets the header REPORT_BROWSER_HEADER ("Name: value", from
# the environment, never the command line) with every request: a token.
# tests/lib/report_browser.py does them over the DevTools protocol; the browser
# gets 60 s (timeout), a profile, HOME and TMPDIR in a temporary folder
# removed on exit, and is killed with its process group if it outlives us.
# Then `N passed, N failed`; exit 0 when all passed, 1 when any failed, 2 on
# a usage error, 77 with one `SKIP: reason` line when there is no chromium
# (CHROMIUM=path names one; harness/bootstrap.sh --browser installs it) or
# no python3: the caller counts that as skipped, never as passed.
set -u
if [ $# != 2 ] && [ $# != 3 ]; then
    echo "usage: tests/lib/report_browser.sh FILE.html|http://127.0.0.1:PORT/PATH OUTDIR [NAME.png]" >&2
    exit 2
fi
html=$1 out=$2 png=${3:-report.png}
# shell builtins only until the skip: PATH may hold nothing else
browser=${CHROMIUM:-}
for c in chromium chromium-browser google-chrome; do
    [ -n "$browser" ] && break
    browser=$(command -v "$c")
done
if [ -z "$browser" ]; then
    echo "SKIP: report_browser: chromium is not installed (harness/bootstrap.sh --browser installs it); not counted as passed"
    exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: report_browser: python3 is not installed (harness/bootstrap.sh installs it); not counted as passed"
    exit 77
fi
if [ ! -x "$browser" ]; then
    echo "report_browser: CHROMIUM='$browser' is not an executable file" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd) || exit 2
case "$png" in */* | .* | "" | *[!A-Za-z0-9._-]*) echo "report_browser: '$png' is not a file name" >&2; exit 2 ;; esac
case "$html" in
http://127.0.0.1[:/]* | "http://[::1]"[:/]*) ;;
*://*) echo "report_browser: '$html': a served page is on http://127.0.0.1 or http://[::1]" >&2; exit 2 ;;
*)
    if [ ! -f "$html" ] || [ ! -r "$html" ]; then
        echo "report_browser: cannot read '$html'" >&2
        exit 2
    fi ;;
esac
mkdir -p "$out" || exit 2
tmp=$(mktemp -d) || exit 2
# the browser's process group, should the helper have been killed before it
cleanup() {
    local pid
    pid=$(cat "$tmp/chromium.pid" 2>/dev/null) && kill -KILL -- "-$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

timeout -k 5 60 python3 "$here/report_browser.py" "$browser" "$html" "$out/$png" "$tmp" \
    >"$tmp/rows" 2>"$tmp/helper.log"
rc=$?
pass=0 fail=0
while IFS=$'\t' read -r status what why; do
    printf '%-4s  %s%s\n' "$status" "$what" "${why:+: $why}"
    case "$status" in OK) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
done <"$tmp/rows"
case $rc in # 0: every row printed; 3: the browser failed, every row printed
0 | 3) ;;
124 | 137) printf 'FAIL  the browser run: chromium ran past 60 s\n'; fail=$((fail + 1)) ;;
*) printf 'FAIL  the browser run: tests/lib/report_browser.py exited with status %s\n' $rc; fail=$((fail + 1)) ;;
esac
if [ $rc != 0 ]; then # the browser's last words, less its D-Bus complaints
    cat "$tmp/helper.log" "$tmp/chromium.log" 2>/dev/null | grep -v dbus | tail -n 8 | sed 's/^/      /'
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
