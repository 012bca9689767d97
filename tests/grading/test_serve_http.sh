#!/usr/bin/env bash
# tests/grading/test_serve_http.sh: build/primlab-serve, the check service
# (issue 55, docs/check-service.md), as students and attackers meet it:
# real HTTP on loopback (an ephemeral port), a real database, and a fake
# runner (tests/lib/serve_fake_runner.sh: 20 to 50 ms, no GPU, no
# sandbox) in place of harness/serve/run-job.sh. The queue's suite
# (test_serve_queue) proves the queue alone; this proves what only the
# running service can get wrong:
#   bad input  no token, a wrong one, a malformed Authorization header
#              (401, 400); another student's job answered as a missing one
#              (404); an upload over the limit refused before its body is
#              read (413), or after, when the client sends it at once (the
#              answer must reach it), one without a length (411), a missing or bad lab
#              (400), a display name with a line break (400), the hourly
#              limit (429); a submission sent twice with its id
#              (X-Primlab-Submission: one job, 200 the second time, not
#              counted; another student's same id, their own; a malformed
#              id, 400); the cookie of the page (HttpOnly, SameSite,
#              good for GETs alone) and a name escaped on it; slow headers
#              (connections trickling a byte a second, cut at the header
#              deadline while a normal client is answered: its latency) and
#              a flood from one client, with a token and without (429s
#              while another client is served: its latency); each refusal
#              one line
#   fault      kill -9 of the service with 50 jobs queued, 2 running and an
#              upload half sent; restarted: the runners it left killed
#              (counted), its 2 jobs run again, the half upload removed,
#              every job done and its upload removed; a GPU whose runner says "machine" leaves the
#              rotation and its job runs on the other
#   runners    what a runner's end makes of its job: its "failed" reason,
#              none (it exited without a status), past SERVE_JOB_TIMEOUT
#              (killed, with its child), each upload removed; a runner's
#              100 kB of output cut at SERVE_LOG_MAX in runner.log;
#              SIGTERM hands a running job back to the queue, not counted
#              as a start, its upload kept; "busy" (a make grade holds the
#              grading kit) hands it back too, pauses each GPU, and the
#              job runs once the kit is free
#   load       200 students (200 tokens from primlab-serve-admin) submit
#              within 3 s, poll their jobs and fetch their reports: every
#              job accounted for, none overtaken, no upload left, the
#              longest wait against the mean, the service's peak memory
#              (VmHWM); then primlab-serve-admin prune of the half made
#              to have ended 8 days ago
#   board      the leaderboard from the fake runner's ratios: ranked by
#              the geometric mean, display names as given and escaped on
#              /board/NN and the page, pseudonyms, board.key 0600, a job
#              that failed its correctness test not counted, each
#              student's own page naming how the board shows them (their
#              pseudonym on nobody else's), an empty board's one line;
#              3,000 done jobs of 300 students made cold and from the
#              cache (timed), by a service listening on the IPv6 loopback
#              (SERVE_ADDR=[::1]:0; SKIP without one)
#   HEAD       the GET routes (the page, the jobs, a report, the boards,
#              the icon, a 404) asked with HEAD: GET's status and headers,
#              no body
# Each section prints its figures as "#" lines. Without libmicrohttpd's,
# SQLite's or OpenSSL's headers (no build/primlab-serve): SKIP.
# SERVE_WRAP="valgrind --leak-check=full --error-exitcode=99" runs every
# service under that command and checks its summary (by hand: minutes).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
if ! make -s --no-print-directory build/primlab-serve build/primlab-serve-admin >/dev/null 2>&1; then
    say SKIP "the check service" "build/primlab-serve is not built here (libmicrohttpd's, SQLite's or OpenSSL's headers missing)"
    finish
fi
t=$(mktemp -d /tmp/primlab-serve-test.XXXXXX)
services=()
stop_all() {
    local p
    for p in "${services[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${services[@]}"; do
        for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    services=()
}
# the fake runners' processes of a service folder, found by the variable
# the service gives them
runner_pids() { grep -lsa "PRIMLAB_SERVE_JOB=$t/$1/jobs/" /proc/[0-9]*/environ 2>/dev/null | cut -d / -f 3; }
cleanup() {
    stop_all
    local d
    for d in "$t"/*/; do runner_pids "$(basename "$d")" | xargs -r kill -9 2>/dev/null; done
    rm -rf "$t"
}
trap cleanup EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# start NAME [VAR=value...]: a service on $t/NAME (dry, fake runner, any
# port); its pid in $pid, its URL in $url
start() {
    local name=$1
    shift
    mkdir -p "$t/$name"
    rm -f "$t/$name/serve.addr"
    env SERVE_DIR="$t/$name" SERVE_ADDR=127.0.0.1:0 SERVE_DRY=1 SERVE_LABS="01 02" \
        SERVE_RUNNER=tests/lib/serve_fake_runner.sh "$@" ${SERVE_WRAP:-} build/primlab-serve >>"$t/$name/log" 2>&1 &
    pid=$!
    services+=("$pid")
    for _ in $(seq 300); do [ -s "$t/$name/serve.addr" ] && break; sleep 0.1; done
    url=$(cat "$t/$name/serve.addr" 2>/dev/null)
}
# tokens NAME ARGS < names: accounts in $t/NAME's database, appended to $t/NAME/tok.tsv
tokens() { mkdir -p "$t/$1" && build/primlab-serve-admin tokens "$t/$1/serve.db" "${@:2}" >>"$t/$1/tok.tsv" 2>/dev/null; }
tok() { awk -F '\t' -v n="$2" '$1 == n { print $2 }' "$t/$1/tok.tsv"; }
# sql NAME QUERY: the answer of the service's database (Python's sqlite3)
sql() { python3 -c 'import sqlite3, sys; [print(*r, sep="\t") for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$t/$1/serve.db" "$2"; }
# fig KEY FILE: a figure of a serve_client.py answer
fig() { awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$2"; }

# gone FILE...: whether the files are gone, or go within 1 s (the claimer
# removes a job's upload just after the job ends)
gone() {
    local f
    for _ in $(seq 20); do
        for f in "$@"; do [ ! -e "$f" ] || break; done
        [ -e "$f" ] || return 0
        sleep 0.05
    done
    return 1
}
# call ARGS...: curl; the status in $code, the body in $t/body
call() { code=$(curl -s -o "$t/body" -w '%{http_code}' "$@"); }
one_line() { [ "$(wc -l <"$1")" = 1 ] && [ "$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')" = 0a ]; }
# expect STATUS NAME CURL-ARGS...: one case; a refusal must be one line
expect() {
    local want=$1 name=$2 p=""
    shift 2
    call "$@"
    [ "$code" = "$want" ] || p="status $code, not $want: $(head -c 200 "$t/body")"
    case $want in 4* | 5*) one_line "$t/body" || p="$p; not one line: $(head -c 200 "$t/body" | od -c | head -n 3)" ;; esac
    verdict "$name ($want)" "$p"
}
bearer() { printf 'Authorization: Bearer %s' "$1"; }

mkdir -p "$t/lab" && echo '// a scan' >"$t/lab/scan.cu" && tar -czf "$t/lab.tgz" -C "$t/lab" scan.cu
head -c 100000 /dev/urandom >"$t/big"

# ------------------------------------------------------------ bad input
t0=$(now)
printf 'ann\nbob\n<b>Eve</b> & "co"\n' | tokens bad
printf 'prof\n' | tokens bad --instructor
ann=$(tok bad ann) bob=$(tok bad bob) prof=$(tok bad prof) eve=$(tok bad '<b>Eve</b> & "co"')
start bad SERVE_PER_HOUR=4 SERVE_MAX_UPLOAD=65536 SERVE_HEADER_S=2
[ -n "$url" ] || { say FAIL "the service starts" "$(tail -n 5 "$t/bad/log")"; finish; }
call -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
job=$(awk -F '\t' '$1 == "id" { print $2 }' "$t/body")
p=""
[ "$code" = 201 ] && [ -n "$job" ] || p="status $code: $(head -c 200 "$t/body")"
for _ in $(seq 100); do
    call -H "$(bearer "$ann")" "$url/api/jobs/$job"
    grep -qx $'state\tdone' "$t/body" && break
    sleep 0.1
done
grep -qx $'state\tdone' "$t/body" || p="$p; job $job never done: $(tr '\n' ' ' <"$t/body")"
call -H "$(bearer "$ann")" "$url/api/jobs/$job/report.txt"
[ "$code" = 200 ] && grep -q 'lab 01' "$t/body" || p="$p; its report: $code"
up=$(sql bad "SELECT upload FROM jobs WHERE id = ${job:-0}")
[ -n "$up" ] && gone "$t/bad/uploads/$up" || p="$p; its upload '$up' is still there"
verdict "a student's job: 201, done, its report, its upload removed" "$p" "$t/bad/log"

expect 401 "no token" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
expect 401 "no token, a body of 100 kB sent at once (no Expect)" -H 'Expect:' --data-binary @"$t/big" "$url/api/jobs?lab=01"
expect 401 "a wrong token" -H "$(bearer "plk_$(printf '0%.0s' $(seq 64))")" "$url/api/jobs"
expect 401 "no token's shape" -H "$(bearer abc)" "$url/api/jobs"
expect 400 "Authorization: Basic" -H "Authorization: Basic YW5uOnBhc3M=" "$url/api/jobs"
expect 400 "Authorization: Bearer, no token" -H "Authorization: Bearer" "$url/api/jobs"
expect 400 "Authorization: two tokens" -H "Authorization: Bearer $ann $bob" "$url/api/jobs"
expect 404 "another student's job" -H "$(bearer "$bob")" "$url/api/jobs/$job"
cp "$t/body" "$t/theirs"
expect 404 "a missing job" -H "$(bearer "$bob")" "$url/api/jobs/999999"
[ "$(sed 's/[0-9]\+/N/' "$t/theirs")" = "$(sed 's/[0-9]\+/N/' "$t/body")" ]
verdict "another's job and a missing one: the same answer" "$([ $? = 0 ] || echo "'$(cat "$t/theirs")' and '$(cat "$t/body")'")"
expect 404 "another student's report" -H "$(bearer "$bob")" "$url/api/jobs/$job/report.txt"
expect 200 "an instructor sees any job" -H "$(bearer "$prof")" "$url/api/jobs/$job"
call -H "$(bearer "$bob")" "$url/api/jobs"
verdict "a student's list holds their jobs alone" "$([ "$code" = 200 ] && [ ! -s "$t/body" ] || echo "$code: $(head -n 2 "$t/body")")"
expect 404 "no figure" -H "$(bearer "$ann")" "$url/api/jobs/$job/figure.svg"
ctype=$(curl -s -o /dev/null -w '%{content_type}' -H "$(bearer "$ann")" "$url/api/jobs/$job/results.json")
verdict "results.json is application/json" "$([ "$ctype" = application/json ] || echo "$ctype")"
uploads=$(ls "$t/bad/uploads" | wc -l)
start_413=$(now)
expect 413 "an upload over the limit" -H "$(bearer "$ann")" --data-binary @"$t/big" "$url/api/jobs?lab=01"
took_413=$(awk -v a="$start_413" -v b="$(now)" 'BEGIN { printf "%.0f", 1000 * (b - a) }')
expect 413 "an upload over the limit, sent without waiting (no Expect)" -H "$(bearer "$ann")" -H 'Expect:' \
    --data-binary @"$t/big" "$url/api/jobs?lab=01"
expect 411 "a chunked upload (no length)" -H "$(bearer "$ann")" -H 'Transfer-Encoding: chunked' \
    --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
expect 400 "no lab" -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs"
expect 400 "lab 99" -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=99"
expect 400 "lab ../01" -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=..%2F01"
expect 400 "a lab with a line break" -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01%0Aroot"
expect 400 "an upload that is no .tar.gz" -H "$(bearer "$ann")" --data-binary 'hello' "$url/api/jobs?lab=01"
verdict "refused uploads leave no file" "$([ "$(ls "$t/bad/uploads" | wc -l)" = "$uploads" ] || ls "$t/bad/uploads")"
expect 400 "a display name with a line break" -H "$(bearer "$ann")" --data-binary $'Ann\nroot' "$url/api/name"
expect 400 "a display name of 41 bytes" -H "$(bearer "$ann")" --data-binary "$(printf 'a%.0s' $(seq 41))" "$url/api/name"
expect 413 "a display name of 300 bytes" -H "$(bearer "$ann")" --data-binary "$(printf 'a%.0s' $(seq 300))" "$url/api/name"
expect 200 "a display name" -H "$(bearer "$ann")" --data-binary $'Ann L\xc3\xa9e\n' "$url/api/name"
verdict "the display name kept" "$(grep -qx $'display\tAnn L\xc3\xa9e' "$t/body" || cat "$t/body")"
# the leaderboard: the fake runner's ratios (0.5, or ratio-N in the upload),
# display names and pseudonyms, each escaped where it shows; bob's job that
# failed its correctness test (WRONG) is one of his jobs, its ratio of 9 on
# no board
mkdir -p "$t/r8" "$t/r2" "$t/r9" && echo x >"$t/r8/ratio-0.8" && echo x >"$t/r2/ratio-0.2"
echo x >"$t/r9/ratio-9" && echo x >"$t/r9/WRONG"
tar -czf "$t/r8.tgz" -C "$t/r8" ratio-0.8 && tar -czf "$t/r2.tgz" -C "$t/r2" ratio-0.2
tar -czf "$t/r9.tgz" -C "$t/r9" ratio-9 WRONG
call -H "$(bearer "$eve")" --data-binary '<i>Eve</i> & "co"' "$url/api/name"
call -H "$(bearer "$eve")" --data-binary @"$t/r8.tgz" "$url/api/jobs?lab=01"
call -H "$(bearer "$bob")" --data-binary @"$t/r9.tgz" "$url/api/jobs?lab=01"
call -H "$(bearer "$bob")" --data-binary @"$t/r2.tgz" "$url/api/jobs?lab=01"
for _ in $(seq 100); do [ "$(sql bad "SELECT count(*) FROM jobs WHERE state = 2 AND student != 'ann'")" = 3 ] && break; sleep 0.1; done
call "$url/api/board/01"
p=""
[ "$code" = 200 ] || p="status $code"
cut -f 1-5 "$t/body" >"$t/board.tsv"
pseudo=$(awk -F '\t' '$1 == 3 { print $2 }' "$t/board.tsv")
[[ $pseudo =~ ^student-[0-9a-f]{8}$ ]] || p="$p; bob's pseudonym '$pseudo'"
printf 'rank\tname\tpseudonym\tjobs\tgeomean\n1\t<i>Eve</i> & "co"\t0\t1\t0.800\n2\tAnn L\xc3\xa9e\t0\t1\t0.500\n3\t%s\t1\t2\t0.200\n' "$pseudo" |
    diff - "$t/board.tsv" >"$t/board.diff" || p="$p; not the board of eve, ann, bob's pseudonym (2 jobs, the wrong one's 9 not counted): $(tr '\n\t' '| ' <"$t/board.tsv")"
grep -qw -e bob -e ann -e plk_ "$t/body" && p="$p; an account or a token on the board"
[ "$(stat -c %a "$t/bad/board.key" 2>/dev/null)" = 600 ] || p="$p; board.key's mode: $(stat -c %a "$t/bad/board.key" 2>&1)"
verdict "the leaderboard (TSV): by geometric mean, display names as given, a pseudonym for bob, a job failing correctness not counted, board.key 0600" "$p"
call -H "$(bearer "$bob")" --data-binary '' "$url/api/name"
verdict "POST /api/name's answer names the pseudonym the board shows (bob's, with an empty name)" \
    "$([ "$code" = 200 ] && [ "$(cat "$t/body")" = $'display\t\npseudonym\t'"$pseudo" ] || echo "status $code: $(tr '\n\t' '| ' <"$t/body")")"
p=""
call "$url/board/01"
grep -q '<td>&lt;i&gt;Eve&lt;/i&gt; &amp; &quot;co&quot;</td>' "$t/body" || p="her display name not escaped on /board/01"
grep -q "<td class=\"pseudonym\">$pseudo</td>" "$t/body" || p="$p; no pseudonym in italics"
call "$url/"
grep -q '<td>&lt;i&gt;Eve&lt;/i&gt; &amp; &quot;co&quot;</td>' "$t/body" || p="$p; her display name not escaped on the page"
! grep -q '<i>Eve' "$t/body" || p="$p; her display name raw on the page"
call "$url/api/board/02"
[ "$(cat "$t/body")" = $'rank\tname\tpseudonym\tjobs\tgeomean\n# no job of lab 02 is done yet' ] ||
    p="$p; lab 02's empty board: $(tr '\n\t' '| ' <"$t/body")"
verdict "the leaderboard (HTML) on /board/01 and the page, names escaped; an empty one says why in a line" "$p"
# HEAD on the GET routes (libmicrohttpd answers it from the GET handler):
# the same status and headers, Content-Length included, and no body
python3 tests/lib/serve_client.py head "$url" "$ann" / /api/jobs "/api/jobs/$job" "/api/jobs/$job/report.txt" \
    "/api/jobs/$job/results.json" /api/board/01 /board/01 /favicon.ico /api/jobs/999999 /nope >"$t/head" 2>&1
verdict "HEAD of the page, the jobs, a report, the boards, the icon, a 404: GET's status and headers, no body" \
    "$(awk -F '\t' '$2 != "ok" { printf "; %s: %s", $1, $2 } END { if (NR != 10) printf "; %d answers, not 10", NR }' "$t/head")" "$t/head"
expect 204 "the favicon a browser asks for: none, and no error" "$url/favicon.ico"
expect 404 "no such page" "$url/etc/passwd"
expect 405 "GET of a POST route" -H "$(bearer "$ann")" "$url/api/name"
# a submission's id (X-Primlab-Submission): its repeat, after a lost
# answer, is its job again (200), uncounted; another student's the same
# id makes their own job
sid=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
subm() { printf 'X-Primlab-Submission: %s' "$1"; }
p=""
call -H "$(bearer "$ann")" -H "$(subm "$sid")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
first=$code mine=$(awk -F '\t' '$1 == "id" { print $2 }' "$t/body")
call -H "$(bearer "$ann")" -H "$(subm "$sid")" -H 'Expect:' --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
again=$code
[ "$first $again" = "201 200" ] && [ -n "$mine" ] && [ "$(awk -F '\t' '$1 == "id" { print $2 }' "$t/body")" = "$mine" ] ||
    p="statuses $first $again, ids $mine and $(awk -F '\t' '$1 == "id" { print $2 }' "$t/body")"
call -H "$(bearer "$bob")" -H "$(subm "$sid")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
theirs=$(awk -F '\t' '$1 == "id" { print $2 }' "$t/body")
[ "$code" = 201 ] && [ -n "$theirs" ] && [ "$theirs" != "$mine" ] || p="$p; bob's of the same id: $code, job '$theirs'"
[ "$(sql bad "SELECT student FROM jobs WHERE submission = '$sid' ORDER BY id" | paste -sd ' ')" = "ann bob" ] ||
    p="$p; the jobs of that id: $(sql bad "SELECT id, student FROM jobs WHERE submission = '$sid'" | paste -sd ' ')"
verdict "a submission sent twice (the answer lost): one job, the second answer 200 with its id; another student's same id: their own" "$p"
expect 400 "a malformed submission id" -H "$(bearer "$ann")" -H "$(subm "${sid}0")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
expect 400 "a submission id not hex" -H "$(bearer "$ann")" -H "$(subm "${sid%????}ZZZZ")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
for _ in 1 2; do call -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"; done
expect 429 "a fifth job in an hour (SERVE_PER_HOUR=4)" -H "$(bearer "$ann")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
call -H "$(bearer "$ann")" -H "$(subm "$sid")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
p=""
[ "$code" = 200 ] && grep -qx "id	$mine" "$t/body" || p="$code: $(head -c 200 "$t/body")"
[ "$(sql bad "SELECT count(*) FROM jobs WHERE student = 'ann'")" = 4 ] || p="$p; ann has $(sql bad "SELECT count(*) FROM jobs WHERE student = 'ann'") jobs, not 4"
verdict "at the hourly limit, a repeat of a submission still answers with its job (200), not counted" "$p"

# the page's cookie: set by a POSTed form, HttpOnly and SameSite=Strict,
# good for GETs alone
call --data-urlencode "token=plk_nope" "$url/login"
verdict "sign in with a wrong token: 401, the page again" "$([ "$code" = 401 ] && grep -q 'names no account' "$t/body" || echo "$code")"
curl -s -D "$t/headers" -o /dev/null --data-urlencode "token=$eve" "$url/login"
p=""
grep -qi '^set-cookie: plk=plk_[0-9a-f]*; Path=/; HttpOnly; Secure; SameSite=Strict' "$t/headers" || p="no such cookie: $(grep -i set-cookie "$t/headers")"
grep -q '^HTTP/1.1 303' "$t/headers" || p="$p; not 303: $(head -n 1 "$t/headers")"
call -b "plk=$eve" "$url/"
grep -q '&lt;b&gt;Eve&lt;/b&gt; &amp; &quot;co&quot;' "$t/body" || p="$p; the name is not escaped on the page"
! grep -q '<b>Eve</b>' "$t/body" || p="$p; the name is raw on the page"
! grep -q "$eve" "$t/body" || p="$p; the token is on the page"
grep -q '<form method="post" action="login"' "$t/body" && p="$p; signed in, the page still asks to sign in"
verdict "sign in: a 303 with an HttpOnly SameSite=Strict cookie, the page escapes a name" "$p"
call -b "plk=$ann" "$url/"
verdict "the page, signed in: the student's jobs and links to their report" \
    "$(grep -q "href=\"api/jobs/$job/report.txt\"" "$t/body" || echo "no link to job $job's report")"
# the name each student is shown under, on their own page alone: bob's
# pseudonym (on the board too, but tied to him on no other page), ann's
# and eve's display names with their pseudonyms, read off their own pages
p=""
grep -q "On the leaderboard you are <b>Ann L"$'\xc3\xa9'"e</b>" "$t/body" || p="ann's page does not name her display name"
cp "$t/body" "$t/ann.html"
call -b "plk=$eve" "$url/"
cp "$t/body" "$t/eve.html"
grep -q 'you are <b>&lt;i&gt;Eve&lt;/i&gt; &amp; &quot;co&quot;</b>' "$t/eve.html" || p="$p; eve's page does not name her display name, escaped"
eve_pseudo=$(sed -n 's|.*(without it: <i>\(student-[0-9a-f]\{8\}\)</i>).*|\1|p' "$t/eve.html")
[[ $eve_pseudo =~ ^student-[0-9a-f]{8}$ ]] || p="$p; no pseudonym on eve's page"
call -b "plk=$bob" "$url/"
cp "$t/body" "$t/bob.html"
grep -q "On the leaderboard you are <i>$pseudo</i> (a pseudonym" "$t/bob.html" || p="$p; bob's page does not give his pseudonym $pseudo"
grep -qF "<code>make submit NAME=&#39;Your Name&#39;</code>" "$t/bob.html" && grep -q '/api/name' "$t/bob.html" ||
    p="$p; bob's page does not say how to choose a name (make submit NAME=..., or curl to /api/name)"
grep -qF '(<code>make submit NAME=</code>, empty: the pseudonym again)' "$t/ann.html" ||
    p="$p; ann's page does not say how to have the pseudonym again"
grep -q "you are <i>$pseudo</i>" "$t/ann.html" "$t/eve.html" && p="$p; bob's pseudonym given as someone else's"
[ -z "$eve_pseudo" ] || ! grep -q "$eve_pseudo" "$t/ann.html" "$t/bob.html" || p="$p; eve's pseudonym on another's page"
call "$url/"
grep -q 'On the leaderboard you are' "$t/body" && p="$p; the page signed out names someone"
call -b "plk=$prof" "$url/"
grep -q 'On the leaderboard you are' "$t/body" && p="$p; an instructor's page names a pseudonym"
verdict "a student's own page: the name the board shows them (bob's pseudonym, ann's and eve's display names) and how to choose one; nobody else's page" "$p"
expect 401 "a POST with the cookie alone (no token)" -b "plk=$ann" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"

# slow headers: 8 connections trickle a byte a second (SERVE_HEADER_S=2)
python3 tests/lib/serve_client.py slowloris "$url" "$bob" 8 8 >"$t/slow" 2>&1
p=""
[ "$(fig cut "$t/slow")" = 8 ] || p="$(fig cut "$t/slow") of 8 trickling connections cut: $(tail -n 3 "$t/slow")"
awk -v m="$(fig cut_max_s "$t/slow")" 'BEGIN { exit !(m != "-" && m <= 3.5) }' || p="$p; the last cut at $(fig cut_max_s "$t/slow") s"
awk -v m="$(fig normal_max_ms "$t/slow")" 'BEGIN { exit !(m != "" && m < 500) }' || p="$p; a normal request took $(fig normal_max_ms "$t/slow") ms"
verdict "slow headers: 8 trickling connections cut at the deadline, a normal client served meanwhile" "$p" "$t/slow"
echo "# slowloris: 8 connections trickling a header byte a second cut after $(fig cut_min_s "$t/slow")-$(fig cut_max_s "$t/slow") s (SERVE_HEADER_S=2); meanwhile $(fig normal_requests "$t/slow") requests of a normal client, median $(fig normal_p50_ms "$t/slow") ms, longest $(fig normal_max_ms "$t/slow") ms"

# a flood: one student's token, and a client with none, each back to back
python3 tests/lib/serve_client.py flood "$url" "$ann" "$bob" 1.5 >"$t/flood" 2>&1
p=""
[ "$(fig a_429 "$t/flood")" -gt 0 ] 2>/dev/null || p="no 429 for a flood with a token"
[ "$(fig anon_429 "$t/flood")" -gt 0 ] 2>/dev/null || p="$p; no 429 for a flood without one"
[ "$(fig a_not_one_line "$t/flood")$(fig anon_not_one_line "$t/flood")" = 00 ] || p="$p; a refusal of more than one line"
[ "$(fig b_refused "$t/flood")" = 0 ] || p="$p; the other client was refused $(fig b_refused "$t/flood") times"
awk -v m="$(fig b_max_ms "$t/flood")" 'BEGIN { exit !(m != "" && m < 500) }' || p="$p; the other client waited $(fig b_max_ms "$t/flood") ms"
verdict "a flood: 429s for the flooder, with a token and without, another client served" "$p" "$t/flood"
echo "# flood (1.5 s): a student's token $(fig a_200 "$t/flood") answered, $(fig a_429 "$t/flood") refused (429); no token, from 127.0.0.2: $(fig anon_401 "$t/flood") answered (401), $(fig anon_429 "$t/flood") refused; another student meanwhile: $(fig b_requests "$t/flood") requests, median $(fig b_p50_ms "$t/flood") ms, longest $(fig b_max_ms "$t/flood") ms"
echo "# an upload of 100 kB over the limit refused in ${took_413} ms (curl's round trip included); bad input in $(secs "$t0") s"
stop_all

# ---------------------------------------------------------------- fault
t0=$(now)
seq -f 's%03g' 1 53 | tokens fault
printf 'prof\n' | tokens fault --instructor
start fault FAKE_RUNNER_SLEEP=60 SERVE_CAP=50
python3 tests/lib/serve_client.py submit "$url" "$t/fault/tok.tsv" "$t/lab.tgz" 2 >"$t/sub1"
for _ in $(seq 100); do [ "$(sql fault 'SELECT count(*) FROM jobs WHERE state = 1')" = 2 ] && break; sleep 0.1; done
# an upload half sent when the service dies
port=${url##*:}
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'POST /api/jobs?lab=01 HTTP/1.1\r\nHost: primlab\r\nAuthorization: Bearer %s\r\nContent-Length: 1000\r\n\r\n' \
    "$(tok fault s053)" >&3
head -c 500 /dev/zero >&3
tail -n +3 "$t/fault/tok.tsv" | head -n 50 >"$t/fault/rest.tsv"
python3 tests/lib/serve_client.py submit "$url" "$t/fault/rest.tsv" "$t/lab.tgz" 50 >"$t/sub2"
call -H "$(bearer "$(tok fault s053)")" --data-binary @"$t/lab.tgz" "$url/api/jobs?lab=01"
p=""
[ "$(cut -f 1 "$t/sub1" "$t/sub2" | sort | uniq -c | awk '{ print $1 "x" $2 }')" = 52x201 ] || p="not 52 jobs accepted: $(cut -f 1 "$t/sub1" "$t/sub2" | sort | uniq -c | tr '\n' ' ')"
[ "$code" = 503 ] && one_line "$t/body" || p="$p; the 53rd job: $code $(cat "$t/body")"
counts=$(sql fault 'SELECT count(*) FILTER (WHERE state = 0), count(*) FILTER (WHERE state = 1) FROM jobs')
[ "$counts" = $'50\t2' ] || p="$p; queued, running: $counts"
[ "$(ls "$t/fault/uploads" | wc -l)" = 53 ] || p="$p; not 52 uploads and a half one: $(ls "$t/fault/uploads" | wc -l)"
verdict "50 jobs queued, 2 running, 1 upload half sent; the 51st queued job refused (503, SERVE_CAP=50)" "$p" "$t/fault/log"
before=$(runner_pids fault | tr '\n' ' ')
{ kill -9 "$pid" && wait "$pid"; } 2>/dev/null
exec 3>&-
sleep 0.2
after_kill=$(runner_pids fault | wc -l)
t1=$(now)
start fault FAKE_RUNNER_SLEEP=0.02 FAKE_MACHINE_GPU=1 SERVE_CAP=50
for _ in $(seq 300); do [ "$(sql fault 'SELECT count(*) FROM jobs WHERE state > 1')" = 52 ] && break; sleep 0.1; done
drained=$(secs "$t1")
p=""
alive=0
for q in $before; do kill -0 "$q" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$q/stat" 2>/dev/null)" != Z ] && alive=$((alive + 1)); done
[ "$alive" = 0 ] || p="$alive of the runners' processes the kill left still live"
[ "$(runner_pids fault | wc -l)" = 0 ] || p="$p; runner processes left: $(runner_pids fault | tr '\n' ' ')"
killed=$(sed -n 's/.*killed \([0-9]*\) process.*/\1/p' "$t/fault/log" | awk '{ s += $1 } END { print s + 0 }')
[ "$killed" = "$(wc -w <<<"$before")" ] || p="$p; the restart killed $killed processes, not the $(wc -w <<<"$before") left"
grep -q 'stopped under 2 running jobs: 2 queued again, 0 failed' "$t/fault/log" || p="$p; no recovery line"
grep -q 'removed 1 upload no job will read' "$t/fault/log" || p="$p; the half upload not removed"
gone "$t"/fault/uploads/* || p="$p; $(ls "$t/fault/uploads" | wc -l) uploads left, not 0 (every job done)"
states=$(sql fault "SELECT state, attempts, count(*) FROM jobs GROUP BY state, attempts" | tr '\t\n' ' ,')
[ "$states" = "2 1 50,2 2 2," ] || p="$p; (state attempts count): $states"
verdict "kill -9, restart: the runners left killed, 2 jobs run again, 50 once, the half upload gone, every job's once done" "$p" "$t/fault/log"
p=""
grep -q 'GPU 1 (dry run (no GPU)) leaves the rotation: GPU 1 fell off the bus' "$t/fault/log" || p="no line for GPU 1"
[ "$(sql fault 'SELECT DISTINCT gpu FROM jobs')" = 0 ] || p="$p; jobs ended on GPU $(sql fault 'SELECT DISTINCT gpu FROM jobs' | tr '\n' ' ')"
call "$url/"
grep -q 'out of the rotation: GPU 1 fell off the bus' "$t/body" || p="$p; the page does not say so"
verdict "a runner's 'machine': GPU 1 leaves the rotation, its job runs on GPU 0" "$p" "$t/fault/log"
echo "# kill -9 with 50 queued and 2 running: $(wc -w <<<"$before") runner processes outlived it ($after_kill still there after the kill), $killed killed by the restart, 0 left; the 52 jobs done $drained s after the restart, on one GPU (the other out); fault in $(secs "$t0") s"
stop_all

# -------------------------------------------------------------- runners
t0=$(now)
for f in FAIL NOSTATUS SLOW LOUD; do
    mkdir -p "$t/$f" && echo x >"$t/$f/$f" && tar -czf "$t/$f.tgz" -C "$t/$f" "$f"
done
printf 'ann\nbob\ncat\ndan\neve\n' | tokens runners
start runners SERVE_JOB_TIMEOUT=1 SERVE_LOG_MAX=4096
for who in ann:FAIL bob:NOSTATUS cat:SLOW eve:LOUD; do
    call -H "$(bearer "$(tok runners "${who%%:*}")")" --data-binary @"$t/${who#*:}.tgz" "$url/api/jobs?lab=01"
done
for _ in $(seq 50); do [ "$(sql runners 'SELECT count(*) FROM jobs WHERE state > 1')" = 4 ] && break; sleep 0.1; done
reasons=$(sql runners 'SELECT student, reason FROM jobs ORDER BY id')
p=""
grep -qx $'ann\tthe lab\'s tests failed (the fake runner was told to)' <<<"$reasons" || p="ann's: $(sed -n 1p <<<"$reasons")"
grep -qx $'bob\tthe check stopped without a verdict (its runner exited with status 1)' <<<"$reasons" || p="$p; bob's: $(sed -n 2p <<<"$reasons")"
grep -qx $'cat\tthe check ran longer than 1 s (the service\'s limit, SERVE_JOB_TIMEOUT): stopped' <<<"$reasons" || p="$p; cat's: $(sed -n 3p <<<"$reasons")"
[ -z "$(runner_pids runners)" ] || p="$p; runner processes left: $(runner_pids runners | tr '\n' ' ')"
gone "$t"/runners/uploads/* || p="$p; uploads left: $(ls "$t/runners/uploads" | paste -sd ' ')"
verdict "a runner's reason, no status, past SERVE_JOB_TIMEOUT (killed): each job failed, saying why, its upload removed" "$p" "$t/runners/log"
# a runner that writes 100,000 bytes: runner.log keeps SERVE_LOG_MAX=4096
# of them and says how many more came
loud=$t/runners/jobs/$(sql runners "SELECT id FROM jobs WHERE student = 'eve'")/runner.log
{ seq -f '%09g' 1 10000 | head -c 4096; printf '\n... cut at 4096 bytes (SERVE_LOG_MAX): 95904 bytes more not kept\n'; } >"$t/loud.want"
for _ in $(seq 20); do cmp -s "$t/loud.want" "$loud" && break; sleep 0.05; done
p=""
[ "$(sql runners "SELECT state FROM jobs WHERE student = 'eve'")" = 2 ] || p="eve's job not done"
cmp -s "$t/loud.want" "$loud" || p="$p; runner.log is not its first 4096 bytes and the line: $(wc -c <"$loud" 2>&1) bytes, ends '$(tail -c 80 "$loud" 2>&1 | tr '\n' '|')'"
quiet=$t/runners/jobs/$(sql runners "SELECT id FROM jobs WHERE student = 'ann'")/runner.log
[ -f "$quiet" ] && [ ! -s "$quiet" ] || p="$p; ann's runner.log, of a runner that wrote nothing: $(wc -c <"$quiet" 2>&1) bytes"
verdict "a runner that writes 100 kB: runner.log cut at SERVE_LOG_MAX (4096), a line saying so; one that writes none: empty" "$p" "$t/runners/log"
call -H "$(bearer "$(tok runners dan)")" --data-binary @"$t/SLOW.tgz" "$url/api/jobs?lab=01"
for _ in $(seq 50); do [ -n "$(runner_pids runners)" ] && break; sleep 0.1; done
left=$(runner_pids runners | wc -l)
stop_all
p=""
[ "$left" -gt 0 ] || p="dan's runner never ran"
[ "$(sql runners "SELECT state, attempts FROM jobs WHERE student = 'dan'")" = $'0\t0' ] ||
    p="$p; dan's job (state attempts): $(sql runners "SELECT state, attempts FROM jobs WHERE student = 'dan'")"
[ -z "$(runner_pids runners)" ] || p="$p; runner processes left"
grep -q 'stopped (1 running job handed back to the queue)' "$t/runners/log" || p="$p; no line for it"
dan_up=$(sql runners "SELECT upload FROM jobs WHERE student = 'dan'")
[ -n "$dan_up" ] && [ -f "$t/runners/uploads/$dan_up" ] || p="$p; dan's upload '$dan_up' is gone, his job still to run"
verdict "SIGTERM: the running job's runner stopped, the job back in the queue, not counted, its upload kept" "$p" "$t/runners/log"
# a runner's "busy" (a make grade holds the grading kit): the job goes back
# to the queue, not counted, each GPU pauses, and it runs once the kit is free
touch "$t/busy"
start runners SERVE_BUSY_PAUSE=1 SERVE_JOB_TIMEOUT=1 FAKE_BUSY_FILE="$t/busy"
for _ in $(seq 50); do [ "$(grep -c ' pauses ' "$t/runners/log")" -ge 2 ] && break; sleep 0.1; done
p=""
[ "$(sql runners "SELECT state, attempts FROM jobs WHERE student = 'dan'")" = $'0\t0' ] ||
    p="dan's job while busy (state attempts): $(sql runners "SELECT state, attempts FROM jobs WHERE student = 'dan'")"
[ -f "$t/runners/uploads/$dan_up" ] || p="$p; dan's upload gone while his job was handed back"
call "$url/"
grep -q 'paused: a make grade has this host' "$t/body" || p="$p; the page does not say the GPUs pause"
busy_at=$(now)
rm -f "$t/busy"
for _ in $(seq 50); do [ "$(sql runners "SELECT state FROM jobs WHERE student = 'dan'")" = 3 ] && break; sleep 0.1; done
[ "$(sql runners "SELECT state, attempts FROM jobs WHERE student = 'dan'")" = $'3\t1' ] ||
    p="$p; dan's job once free (state attempts): $(sql runners "SELECT state, attempts FROM jobs WHERE student = 'dan'")"
gone "$t/runners/uploads/$dan_up" || p="$p; dan's upload kept once his job ended"
[ "$(grep -c ' pauses ' "$t/runners/log")" = 2 ] || p="$p; not one line per GPU: $(grep -c ' pauses ' "$t/runners/log")"
grep -q 'takes jobs again' "$t/runners/log" || p="$p; no line when a GPU takes jobs again"
verdict "a runner's busy: the job back in the queue (its upload kept), not counted, each GPU paused, the page says so; run once free" "$p" "$t/runners/log"
echo "# busy: dan's job ran $(secs "$busy_at") s after the grading kit was free (SERVE_BUSY_PAUSE=1)"
stop_all
echo "# runners in $(secs "$t0") s"

# ----------------------------------------------------------------- load
t0=$(now)
seq -f 'student%03g' 1 200 | tokens load
start load
python3 tests/lib/serve_client.py load "$url" "$t/load/tok.tsv" "$t/lab.tgz" 3 "$t/students.tsv" >"$t/load.out" 2>&1
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
p=""
[ "$(fig answered "$t/load.out")" = 200 ] && [ "$(fig errors "$t/load.out")" = 0 ] ||
    p="$(fig answered "$t/load.out") students of 200 saw their job end: $(grep error "$t/load.out" | head -n 3)"
[ "$(sql load 'SELECT state, attempts, count(*) FROM jobs GROUP BY state, attempts' | tr '\t' ' ')" = "2 1 200" ] ||
    p="$p; (state attempts count): $(sql load 'SELECT state, attempts, count(*) FROM jobs GROUP BY state, attempts' | tr '\t\n' ' ,')"
# one job each: the round robin is first come, first served
[ "$(sql load 'SELECT id FROM jobs ORDER BY started, id')" = "$(seq 200)" ] || p="$p; a student was overtaken"
waits=$(sql load 'SELECT avg(started - submitted), max(started - submitted), avg(finished - submitted), max(finished - submitted) FROM jobs')
read -r wmean wmax tmean tmax <<<"$waits"
[ -n "$hwm" ] && { [ "$hwm" -lt 65536 ] || [ -n "${SERVE_WRAP:-}" ]; } || p="$p; peak memory ${hwm:-?} kB (64 MiB allowed)"
gone "$t"/load/uploads/* || p="$p; $(ls "$t/load/uploads" | wc -l) uploads left"
verdict "200 students within 3 s: every job done once, none overtaken, no upload left, peak memory under 64 MiB" "$p" "$t/load.out"
printf '# load: 200 students submitted within %s s; POST answered in %s ms on average, %s ms at most; wait for a GPU: mean %.2f s, longest %.2f s; submission to result: mean %.2f s, longest %.2f s; all done in %s s; the service'"'"'s peak memory (VmHWM) %s kB\n' \
    "$(fig submitted_within_s "$t/load.out")" "$(fig post_mean_ms "$t/load.out")" "$(fig post_max_ms "$t/load.out")" \
    "$wmean" "$wmax" "$tmean" "$tmax" "$(fig wall_s "$t/load.out")" "$hwm"
echo "# load in $(secs "$t0") s"
stop_all

# pruning old jobs (primlab-serve-admin prune): jobs 1-100 made to have
# ended 8 days ago; prune 7 leaves their scores.tsv alone, the rest as
# they were; a second run prunes nothing
python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute("UPDATE jobs SET finished = finished - 8 * 86400 WHERE id <= 100"); d.commit()' "$t/load/serve.db"
build/primlab-serve-admin prune "$t/load" 7 2>"$t/prune.out"
rc1=$?
build/primlab-serve-admin prune "$t/load" 7 2>"$t/prune2.out"
rc2=$?
build/primlab-serve-admin prune "$t/nowhere" 7 2>"$t/prune3.out"
rc3=$?
p=""
[ "$rc1 $rc2 $rc3" = "0 0 2" ] || p="statuses $rc1 $rc2 $rc3, not 0 0 2"
grep -qx 'primlab-serve-admin: 100 jobs ended over 7 days ago pruned, [0-9]* kB freed (their scores.tsv and every row of the database kept)' "$t/prune.out" ||
    p="$p; $(cat "$t/prune.out")"
grep -q ': 0 jobs ended over 7 days ago pruned, 0 kB freed' "$t/prune2.out" || p="$p; again: $(cat "$t/prune2.out")"
one_line "$t/prune3.out" && [ ! -e "$t/nowhere" ] || p="$p; a folder without a database: $(cat "$t/prune3.out")"
[ "$(cd "$t/load/jobs" && ls 1 100 | grep -vc -e '^scores.tsv$' -e '^$' -e ':$')" = 0 ] || p="$p; job 1 or 100 keeps more than scores.tsv"
[ -f "$t/load/jobs/100/scores.tsv" ] && [ -f "$t/load/jobs/101/report.txt" ] && [ -f "$t/load/jobs/200/runner.log" ] ||
    p="$p; a scores.tsv pruned, or a job of today"
[ "$(sql load 'SELECT count(*) FROM jobs')" = 200 ] || p="$p; rows lost"
verdict "prune 7: the 100 jobs ended 8 days ago keep scores.tsv alone, the 100 of today all; a second run prunes none; no database: one line, 2" "$p" "$t/prune.out"

# ---------------------------------------------------------------- board
# a term's worth of done jobs: 3,000 of 300 students, each job's scores of
# lab 01 (13 tests and 2 ratios), written straight into the database and
# the jobs' folders; the board made cold, then from its cache
t0=$(now)
seq -f 's%03g' 1 300 | tokens board
python3 - "$t/board" 3000 <<'PY'
import os, random, sqlite3, sys, time
sd, n = sys.argv[1], int(sys.argv[2])
random.seed(1)
head = "# lab\tname\tkind\thidden\tstatus\tpoints\tmax\tseconds\tvalue\treason\tdetail\tcause\tbugs\ttarget\n"
t, rows = time.time() - 86400, []
for i in range(1, n + 1):
    rows.append((i, "s%03d" % (1 + i % 300), t + i, t + i + 1, t + i + 30))
    os.makedirs("%s/jobs/%d" % (sd, i))
    with open("%s/jobs/%d/scores.tsv" % (sd, i), "w") as f:
        f.write(head)
        for k in range(13):
            f.write("01\t01.a scan %d\tcorrectness\t0\tOK\t1.0000\t1\t0.100\t\t\t\t\t\t\n" % k)
        for part in "bc":
            v = random.uniform(0.05, 1.2)
            f.write("01\t01.%s performance vs the vendor library, n=16777216\tperformance\t0\tOK\t2.0000\t2"
                    "\t1.200\t%.4f\t%.4fx the vendor library\t\t\t\t0.15\n" % (part, v, v))
db = sqlite3.connect(sd + "/serve.db")
db.executemany("INSERT INTO jobs (id, student, lab, state, attempts, gpu, submitted, started, finished)"
               " VALUES (?, ?, '01', 2, 1, 0, ?, ?, ?)", rows)
db.commit()
PY
# (on the IPv6 loopback, SERVE_ADDR=[::1]:0, where it can be bound)
v6=1
python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null || v6=0
if [ $v6 = 1 ]; then start board SERVE_GPUS=none SERVE_ADDR='[::1]:0'; else start board SERVE_GPUS=none; fi
if [ $v6 = 1 ]; then
    p=""
    [[ $url == "http://[::1]:"[1-9]* ]] || p="it says it listens on '$url'"
    grep -q "listening on http://\[::1\]:[1-9]" "$t/board/log" || p="$p; no such line in its log"
    ss -Htln 2>/dev/null | grep -q "\[::1\]:${url##*:} " || ! command -v ss >/dev/null || p="$p; ss shows no socket on [::1]:${url##*:}"
    verdict "SERVE_ADDR=[::1]:0: listens on the IPv6 loopback, says where (the board below is asked there)" "$p" "$t/board/log"
else
    say SKIP "SERVE_ADDR=[::1]:0" "no IPv6 loopback here (::1 cannot be bound): the board below is asked on 127.0.0.1"
fi
took() { curl -s -o "$t/body" -w '%{http_code} %{time_total}' "$@"; }
read -r c1 cold <<<"$(took "$url/api/board/01")"
read -r c2 warm <<<"$(took "$url/api/board/01")"
read -r c3 page <<<"$(took "$url/")"
read -r c4 page2 <<<"$(took "$url/")"
p=""
[ "$c1$c2$c3$c4" = 200200200200 ] || p="statuses $c1 $c2 $c3 $c4"
rows=$(grep -c '^[0-9]' <<<"$(curl -s "$url/api/board/01")")
[ "$rows" = 300 ] || p="$p; $rows ranked students, not 300"
awk -v c="$cold" -v w="$warm" 'BEGIN { exit !(c < 2 && w < 0.05) }' || [ -n "${SERVE_WRAP:-}" ] ||
    p="$p; the board took $cold s cold, $warm s cached"
verdict "a board of 3,000 done jobs: 300 students ranked, within 2 s cold and 50 ms cached" "$p" "$t/board/log"
printf '# board: 3,000 done jobs of 300 students, lab 01: /api/board/01 in %.0f ms cold, %.1f ms cached; the page with it in %.0f ms, then %.1f ms (curl'"'"'s round trip included); board in %s s\n' \
    "$(awk -v x="$cold" 'BEGIN { print 1000 * x }')" "$(awk -v x="$warm" 'BEGIN { print 1000 * x }')" \
    "$(awk -v x="$page" 'BEGIN { print 1000 * x }')" "$(awk -v x="$page2" 'BEGIN { print 1000 * x }')" "$(secs "$t0")"
stop_all

if [ -n "${SERVE_WRAP:-}" ]; then
    for d in bad fault runners load board; do
        grep -q 'ERROR SUMMARY: 0 errors' "$t/$d/log"
        verdict "$d: ${SERVE_WRAP%% *} finds no error" "$([ $? = 0 ] || grep 'ERROR SUMMARY' "$t/$d/log")" "$t/$d/log"
    done
fi
finish
