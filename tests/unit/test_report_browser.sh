#!/usr/bin/env bash
# tests/unit/test_report_browser.sh: tests/lib/report_browser.sh (the headless
# browser's check of an HTML report, issue 31) on pages made here, each
# passing or failing for its own reason:
#   good        two inline SVGs (gnuplot's svg terminal when it is there,
#               else written by hand), a link to report.txt and a #fragment:
#               every check passes, and report.png is a PNG 1200 px wide;
#   js_error    the good page with <script>undefined_fn()</script>;
#   zero_svg    with an <svg width="0" height="0">;
#   external    with <img src="http://example.com/x.png">;
#   other_file  with a stylesheet from a file beside it (style.css);
#   http_good   the other_file page served on 127.0.0.1 (a page of the
#               check service's kind): its own origin's style.css passes;
#   http_external  the external page served: a request to another origin;
# and report_browser.sh with no chromium on PATH: exit 77, one SKIP line.
# Without chromium this says SKIP and exits 77 (not counted as passed).
# The good page's screenshot is kept in build/test-logs/report-browser/.
#
#   tests/unit/test_report_browser.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
trap 'exit 2' INT TERM
keep=build/test-logs/report-browser

. tests/lib/verdict.sh # say, verdict, finish, and the counts

# ---------------------------------------------------------------- the pages
# figure N: an SVG to inline, without the XML declaration a file starts with
figure() {
    if command -v gnuplot >/dev/null 2>&1 &&
        gnuplot -e "set terminal svg size 480,300; set output '$t/fig$1.svg'; plot $2" 2>/dev/null; then
        sed '/^<?xml/d; /^<!DOCTYPE/d' "$t/fig$1.svg"
    else
        printf '<svg width="480" height="300" viewBox="0 0 480 300" xmlns="http://www.w3.org/2000/svg">'
        printf '<rect x="40" y="%d" width="400" height="%d" fill="#4477aa"/></svg>\n' $((100 * $1)) 40
    fi
}
# page NAME [HTML...]: the good page, with HTML added at the end of its body
page() {
    local name=$1
    shift
    {
        printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>%s</title>\n' "$name"
        printf '<style>body { font-family: sans-serif } svg { display: block }</style></head><body>\n'
        printf '<h1>Class report</h1><p><a href="report.txt">report.txt</a>, <a href="#fig2">figure 2</a></p>\n'
        printf '<figure id="fig1">\n%s\n</figure>\n' "$fig1"
        printf '<figure id="fig2">\n%s\n</figure>\n' "$fig2"
        printf '%s\n' "$@"
        printf '</body></html>\n'
    } >"$t/$name.html"
}
fig1=$(figure 1 'sin(x)')
fig2=$(figure 2 '[0:3] x**2 with boxes')
page good
page js_error '<script>undefined_fn()</script>'
page zero_svg '<svg width="0" height="0"></svg>'
page external '<img src="http://example.com/x.png" alt="x">'
page other_file '<link rel="stylesheet" href="style.css">'
echo 'h1 { color: red }' >"$t/style.css"
cp "$t/other_file.html" "$t/http_good.html" && cp "$t/external.html" "$t/http_external.html"
: >"$t/favicon.ico" # (a browser asks a server for it)
# the served pages: Python's file server on a free port of 127.0.0.1
(cd "$t" && exec python3 -u -m http.server --bind 127.0.0.1 0 >"$t/http.log" 2>&1) &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$t"' EXIT
for _ in $(seq 50); do grep -q 'port [0-9]' "$t/http.log" && break; sleep 0.1; done
base=http://127.0.0.1:$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$t/http.log" | head -n 1)

# ---------------------------------------------------------------- expectations
# page | exit | the counts line | lines its output must have (grep -E, ;-separated)
expect() {
    cat <<'EOF'
good|0|6 passed, 0 failed|^OK +no console errors$;^OK +no request leaves the file \(network log\)$;^OK +every <svg> .*: 2 svgs, 480x300, 480x300$;^OK +a full-page screenshot
js_error|1|5 passed, 1 failed|^FAIL +no console errors: 1: ReferenceError: undefined_fn is not defined
zero_svg|1|5 passed, 1 failed|^FAIL +every <svg> has a non-zero rendered width and height: 1 of 3: svg 3 is 0x0$
external|1|3 passed, 3 failed|^FAIL +no reference leaves the file .*'http://example.com/x.png';^FAIL +no request leaves the file \(network log\): 1 \(blocked\): http://example.com/x.png$;^FAIL +no console errors: 1: Failed to load resource: net::ERR_BLOCKED_BY_CLIENT
other_file|1|3 passed, 3 failed|^FAIL +no reference leaves the file .*'style.css';^FAIL +no request leaves the file \(network log\): 1 \(blocked\): file://.*/style.css$
http_good|0|6 passed, 0 failed|^OK +no reference leaves the page ;^OK +no request leaves the page's origin \(network log\)$
http_external|1|3 passed, 3 failed|^FAIL +no reference leaves the page .*'http://example.com/x.png';^FAIL +no request leaves the page's origin \(network log\): 1 \(blocked\): http://example.com/x.png$
EOF
}

# png_dims FILE: "WIDTHxHEIGHT" from a PNG's header, nothing if it is not one
png_dims() {
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
    od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

# ---------------------------------------------------------------- the runs
first=1
while IFS='|' read -r name want_rc want_counts want_lines; do
    out=$t/out-$name
    [ "$name" = good ] && out=$keep
    rm -f "$out/report.png"
    page=$t/$name.html
    case $name in http_*) page=$base/$name.html ;; esac
    tests/lib/report_browser.sh "$page" "$out" >"$t/$name.log" 2>&1
    rc=$?
    if [ $first = 1 ] && [ $rc = 77 ]; then
        cat "$t/$name.log"
        exit 77
    fi
    first=0
    problems=""
    [ "$rc" = "$want_rc" ] || problems+="; exit $rc, not $want_rc"
    grep -qxF "$want_counts" "$t/$name.log" || problems+="; no '$want_counts' line"
    IFS=';' read -ra lines <<<"$want_lines"
    for l in "${lines[@]}"; do
        grep -qE "$l" "$t/$name.log" || problems+="; no line /$l/"
    done
    verdict "$name: exit $want_rc, $want_counts" "$problems" "$t/$name.log"
done < <(expect)

# the artefact: the good page's full-page screenshot
dims=$(png_dims "$keep/report.png" 2>/dev/null)
bytes=$(stat -c %s "$keep/report.png" 2>/dev/null || echo 0)
problems=""
case "$dims" in 1200x*) [ "${dims#1200x}" -ge 600 ] || problems+="; only ${dims#1200x} px high (two 300 px figures)" ;;
*) problems+="; not a PNG 1200 px wide (${dims:-no PNG})" ;; esac
[ "$bytes" -ge 5000 ] || problems+="; $bytes bytes, a blank page's size"
verdict "the screenshot $keep/report.png: ${dims:-?} px, $bytes bytes" "$problems"

# no chromium on PATH (and no CHROMIUM): a SKIP line and 77, never a pass
mkdir "$t/bin"
env -u CHROMIUM PATH="$t/bin" "$BASH" tests/lib/report_browser.sh "$t/good.html" "$t/out-skip" >"$t/skip.log" 2>&1
rc=$?
problems=""
[ $rc = 77 ] || problems+="; exit $rc, not 77"
[ "$(wc -l <"$t/skip.log")" = 1 ] && grep -q '^SKIP: report_browser: chromium is not installed' "$t/skip.log" ||
    problems+="; not one SKIP line"
verdict "without chromium: exit 77 and one SKIP line" "$problems" "$t/skip.log"

finish
