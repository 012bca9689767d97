#!/usr/bin/env bash
# tests/grading/test_serve_e2e.sh: the check service end to end (issue 55,
# docs/check-service.md): the real server (build/primlab-serve on an
# ephemeral loopback port, a database and accounts made by
# build/primlab-serve-admin), the real runner (harness/serve/run-job.sh
# of the shared grading kit, made by harness/grade.sh --kit as make serve
# makes it: each student's code compiled and run in the sandbox) and the
# real client (harness/submit.sh, run from a copy of the handout with the
# service's address in its serve.conf and the token in the student's
# config folder), together. test_serve_http proves the server with a fake
# runner, test_serve_job the runner alone, test_submit the client against
# a mock: none proves that they agree with each other, or that what a
# student gets back through all three is what make check gives.
#   1. a lab 01 solution (ann), the stub (bob), a hostile file (eve) and
#      a solution sent with WAIT=0 then fetched with make submit JOB=N
#      (dan), all at once: each client prints its job's report and leaves
#      report.txt, results.json, scores.tsv and job.tsv (with a GPU, the
#      solution's figure.svg) in the copy's build/submit/lab01/, and exits
#      as harness/check.sh does (make: as make check does);
#   2. each report is harness/check.sh's for the same file in the same
#      mode, after the lines naming the files graded (a dry run: the same
#      lines, numbers masked; a GPU: the same points on every test);
#   3. eve's file #includes the service's tokens.tsv and serve.db when
#      the compiler can see them (__has_include) and reads them, and the
#      other jobs' reports, from a constructor (and, with a GPU, from the
#      host code the tests call): it compiles (nothing was seen), no read
#      succeeded, and no token, token hash or account of the service's
#      database is anywhere she can look (her client's output, her files,
#      her job, her list, the page signed in as her, the boards);
#   4. bob asks for ann's job, with the client and with curl: 404, one line;
#   5. the leaderboard: names set with make submit NAME=... (ann's kept;
#      dan's set, then NAME= empty: his pseudonym again), one line each,
#      in the service's database; without a GPU, lab 01's TSV is its
#      header and the line saying a dry run measures no ratio; with one,
#      ann (under her display name) and dan (a pseudonym) are ranked with
#      ratios, bob and eve are not on it;
#   6. a make grade on the GPUs waiting for the grading kit (the turnstile
#      of build/grade.lock held): cat's job goes back to the queue, the
#      page says the GPUs pause, and it runs once the kit is free;
#   7. the page (GET /, signed in as ann: her display name) and /board/01
#      in headless Chromium (tests/lib/report_browser.sh: no request leaves
#      the origin, no console error under the service's Content-Security-Policy),
#      screenshots kept in build/test-logs/serve-e2e/; SKIP without Chromium.
# Prints the seconds of each job and its wait in the queue. Without a GPU
# the service runs dry (SERVE_DRY=1; each job still compiles its file with
# nvcc in the sandbox); with one (nvidia-smi and the kit's lab binary see
# it) its jobs run on the first GPU, one at a time. Without bwrap, or
# without libmicrohttpd's headers (no build/primlab-serve): SKIP.
# tier: slow (the service, its runner and its client together: each part has its own suite in make test; CI and make test-slow run it)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
. tests/lib/secret_reader.sh
. tests/lib/serve_students.sh
unset PRIMLAB_SEED SERVE_DB TOKENS SERVE_RUNNER SERVE_URL PRIMLAB_TOKEN SUBMIT_DIR WAIT
export PRIMLAB_LIMITS=0 GRADE_LOCK_WAIT=900
SECONDS=0
lab=01-prefix-sum

if ! make -s --no-print-directory build/primlab-serve build/primlab-serve-admin build/labs/lab01 >/dev/null 2>&1; then
    say SKIP "the check service end to end" "build/primlab-serve is not built here (libmicrohttpd's, SQLite's or OpenSSL's headers missing)"
    finish
fi
if ! err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    say SKIP "the check service end to end" "bwrap is missing or cannot start a sandbox here (${err:-not installed}): no job can run"
    finish
fi
gpu=""
if command -v nvidia-smi >/dev/null 2>&1 && has_gpu; then
    if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
        gpu=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -m 1 -E '^[0-9]+$')
    else
        gpu=$(timeout 60 nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr -d ' ' | grep -m 1 -E '^[0-9]+$')
    fi
fi
if [ -n "$gpu" ]; then mode="on GPU $gpu"; unset PRIMLAB_NO_GPU; else mode="dry run"; export PRIMLAB_NO_GPU=1; fi

t=$(mktemp -d) || exit 2
sd="" pid="" turn=0
cleanup() {
    [ $turn = 0 ] || flock -u 6
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    fi
    rm -rf "$t" "$sd" build/impl-"${t//\//-}"-* # (and check.sh's build folders)
}
trap cleanup EXIT
keep=build/test-logs/serve-e2e
rm -rf "$keep" && mkdir -p "$keep"

# The shared grading kit, made current for lab 01 as make serve makes it
kit=$(LAB=01 harness/grade.sh --kit 2>"$t/kit.log") ||
    { say FAIL "the grading kit (harness/grade.sh --kit)" "$(tail -n 1 "$t/kit.log")"; finish; }
kit_s=$SECONDS

# The service's folder: beside the kit when that folder can be written
# (hidden from student code there by PRIMLAB_SANDBOX_HIDE alone, not by
# the sandbox's private /tmp), else under the scratch.
sd=$(mktemp -d -p "$(dirname "$PWD")" primlab-serve-e2e.XXXXXX 2>/dev/null) || sd=$(mktemp -d -p "$t")
beside=1
case "$sd" in "$t"/*) beside=0 ;; esac
chmod 755 "$sd" || exit 2
canary=zz-canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
printf 'ann\nbob\neve\ndan\ncat\n%s\n' "$canary" | build/primlab-serve-admin tokens "$sd/serve.db" >"$sd/tokens.tsv" 2>"$t/admin.log" ||
    { say FAIL "accounts (primlab-serve-admin tokens)" "$(cat "$t/admin.log")"; finish; }
# (readable by anyone, as a careless instructor leaves them: only the sandbox hides them)
chmod 644 "$sd/serve.db" "$sd/tokens.tsv"

if [ -n "$gpu" ]; then dry=(SERVE_GPUS="$gpu"); else dry=(SERVE_DRY=1); fi
env SERVE_DIR="$sd" SERVE_ADDR=127.0.0.1:0 SERVE_RUNNER="$kit/harness/serve/run-job.sh" SERVE_LOCK_WAIT=2 \
    SERVE_BUSY_PAUSE=1 "${dry[@]}" build/primlab-serve >"$t/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$sd/serve.addr" ] && break; sleep 0.1; done
url=$(cat "$sd/serve.addr" 2>/dev/null)
[ -n "$url" ] || { say FAIL "the service starts" "$(tail -n 3 "$t/serve.log")"; finish; }

# ------------------------------------------------------------ students
# client NAME ARGS...: harness/submit.sh in NAME's copy, polling every 0.3 s
client() {
    local who=$1
    shift
    (cd "$t/$who/kit" && XDG_CONFIG_HOME=$t/$who/config SUBMIT_POLL=0.3 timeout 600 "$@")
}
# make_submit NAME ARGS...: make submit ARGS in NAME's copy (a make of its
# own, as the student's: not a sub-make of make test's)
make_submit() {
    local who=$1
    shift
    client "$who" env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -s --no-print-directory submit "$@"
}
# make's line for the script's status N: "$make_said N"
make_said="make: *** [mk/submit.mk:$(awk '/^submit:$/ { print NR + 1 }' mk/submit.mk): submit] Error"
for s in ann bob eve dan cat; do handout "$s" || { say FAIL "a copy of the handout for $s"; finish; }; done
own=labs/$lab/prefix_sum.cu
cp solutions/$lab/prefix_sum.cu "$t/ann/kit/$own"
cp solutions/$lab/prefix_sum.cu "$t/dan/kit/$own"
# eve: the service's files at compile time, when the compiler can see
# them, and at run time (a constructor: without a GPU too; the entry
# points' host code: with one); a read that works prints what it read and
# exits with status 42 or 43, which the report would say
secret_reader "labs/$lab/prefix_sum.cu" --include "$sd/tokens.tsv" "$sd/serve.db" "$sd/jobs/%d/report.txt" >"$t/eve/kit/$own"
grep -q 'hx_read_all(43)' "$t/eve/kit/$own" || say FAIL "eve's run-time reader calls hx_read_all from no entry point"

# ------------------------------------------------------------ 1: submit
make_submit ann NAME='Ann <e2e>' >"$t/name-ann.out" 2>&1
name_rc=$?
make_submit dan NAME='Dan D.' >"$t/name-dan.out" 2>&1
name_rc+=" $?"
make_submit dan NAME= >"$t/name-dan0.out" 2>&1
name_rc+=" $?"
sub0=$SECONDS
waits=()
for s in ann bob eve; do
    (client "$s" harness/submit.sh 01 >"$t/$s.out" 2>"$t/$s.err"; echo $? >"$t/$s.rc") &
    waits+=($!)
done
client dan env WAIT=0 harness/submit.sh 01 >"$t/dan0.out" 2>&1
dan_rc0=$?
dan_job=$(sed -n 's/^submit: sent .*: job \([0-9]*\)$/\1/p' "$t/dan0.out")
# meanwhile, make check's reports of the same files, in the same mode
check() { # check NAME FILE: harness/check.sh on FILE as lab 01 alone, its output in $t/check-NAME.out
    mkdir -p "$t/impl-$1/$lab" && cp "$2" "$t/impl-$1/$lab/" &&
        CHECK_OUT=$t/check-$1 env ${gpu:+CUDA_VISIBLE_DEVICES=$gpu} harness/check.sh "$t/impl-$1" 01 >"$t/check-$1.out" 2>&1
    echo $? >"$t/check-$1.rc"
}
if [ -z "$gpu" ]; then
    check solution "solutions/$lab/prefix_sum.cu" &
    waits+=($!)
    check stub "labs/$lab/prefix_sum.cu"
fi
wait "${waits[@]}" # (not the service)
(make_submit dan JOB="$dan_job" >"$t/dan.out" 2>"$t/dan.err"; echo $? >"$t/dan.rc")
clients_s=$((SECONDS - sub0))
# with a GPU, make check's runs after the service's, the GPU to themselves
[ -z "$gpu" ] || { check solution "solutions/$lab/prefix_sum.cu"; check stub "labs/$lab/prefix_sum.cu"; }

job_of() { sed -n 's/^submit: sent .*: job \([0-9]*\)$/\1/p' "$t/$1.out" | head -n 1; }
ann_job=$(job_of ann) bob_job=$(job_of bob) eve_job=$(job_of eve)
rc_of() { cat "$t/$1.rc" 2>/dev/null || echo none; }
# got NAME WANT_RC [STDERR]: the problems of a client that should have
# brought a report back, having said STDERR (nothing) on its standard error
got() {
    local who=$1 dir=$t/$1/kit/build/submit/lab01 p="" f
    [ "$(rc_of "$who")" = "$2" ] || p+="; exit $(rc_of "$who"), not $2"
    for f in report.txt results.json scores.tsv job.tsv; do [ -s "$dir/$f" ] || p+="; no $f in build/submit/lab01"; done
    # (the figure needs gnuplot on the host: without it, a line in the job's log)
    [ -n "$gpu" ] && [ "$who" != bob ] && [ "$who" != eve ] && command -v gnuplot >/dev/null 2>&1 &&
        { [ -s "$dir/figure.svg" ] || p+="; no figure.svg"; }
    grep -v '^submit: ' "$t/$who.out" >"$t/$who.printed"
    cmp -s "$t/$who.printed" "$dir/report.txt" || p+="; what it printed is not its report.txt"
    grep -qx "submit: saved in build/submit/lab01/: .*report.txt.*" "$t/$who.out" || p+="; no 'saved in' line"
    grep -qx $'state\tdone' "$dir/job.tsv" 2>/dev/null || p+="; job.tsv: $(grep state "$dir/job.tsv" 2>/dev/null)"
    [ "$(cat "$t/$who.err")" = "${3:-}" ] || p+="; on stderr: $(head -n 2 "$t/$who.err" | paste -sd ' ')"
    echo "$p"
}
[ -n "$gpu" ] && full=0 || full=1 # the solution's exit status: 0 at full marks; a dry run has none
verdict "ann's solution ($mode): her report printed, her files in build/submit/lab01, exit $full" "$(got ann $full)" "$t/ann.out"
verdict "bob's stub: his report printed, his files, exit 1" "$(got bob 1)" "$t/bob.out"
p=""
[ "$dan_rc0" = 0 ] || p="WAIT=0: exit $dan_rc0"
grep -qx "submit: job $dan_job queued.*; make submit JOB=$dan_job fetches its report when it is done" "$t/dan0.out" ||
    p+="; WAIT=0 said: $(tail -n 1 "$t/dan0.out")"
[ "$(grep -c '^submit: sent' "$t/dan.out")" = 0 ] || p+="; JOB= sent something"
# (make turns the script's 1, below full marks, into its own 2 and a line, as for make check)
if [ $full = 0 ]; then
    p+=$(got dan 0)
else
    p+=$(got dan 2 "$make_said 1")
fi
verdict "dan: WAIT=0 printed job $dan_job and returned; make submit JOB=$dan_job fetched its report and files, exit $([ $full = 0 ] && echo 0 || echo "2 (make's)")" \
    "$p" "$t/dan.out"

# --------------------------------------------------------- 2: make check
# same NAME CHECK: the job's report after its file lines against check.sh's
# output (numbers masked in a dry run); with a GPU, each test's points
same() {
    local who=$1 c=$2 dir=$t/$1/kit/build/submit/lab01 p=""
    [ "$who" = dan ] || [ "$(cat "$t/check-$c.rc" 2>/dev/null)" = "$(rc_of "$who")" ] ||
        p+="; check.sh exited $(cat "$t/check-$c.rc" 2>/dev/null), the client $(rc_of "$who")"
    if [ -z "$gpu" ]; then
        sed '1,/^== lab 01 /{/^== lab 01 /!d}' "$dir/report.txt" | sed -E 's/[0-9]+\.[0-9]+/N/g' >"$t/$who.theirs"
        sed -E 's/[0-9]+\.[0-9]+/N/g' "$t/check-$c.out" >"$t/$who.ours"
        diff "$t/$who.ours" "$t/$who.theirs" >"$t/$who.diff" ||
            p+="; the report differs from check.sh's: $(grep '^[<>]' "$t/$who.diff" | head -n 2 | paste -sd ' ')"
    else
        # points per test, in the scores' order (name, points, max)
        awk -F '\t' '!/^#/ { print $2 "\t" $6 "\t" $7 }' "$dir/scores.tsv" >"$t/$who.theirs"
        awk -F '\t' '!/^#/ { print $2 "\t" $6 "\t" $7 }' "$t/check-$c/scores.tsv" >"$t/$who.ours"
        diff "$t/$who.ours" "$t/$who.theirs" >"$t/$who.diff" ||
            p+="; other points than check.sh's: $(grep '^[<>]' "$t/$who.diff" | head -n 2 | tr '\t' ' ' | paste -sd ' ')"
        [ -s "$t/$who.ours" ] || p+="; check.sh wrote no scores"
    fi
    echo "$p"
}
what=$([ -n "$gpu" ] && echo "the same points on every test" || echo "the same lines, numbers masked")
verdict "ann's report is check.sh's for the solution ($what)" "$(same ann solution)" "$t/check-solution.out"
verdict "bob's report is check.sh's for the stub ($what)" "$(same bob stub)" "$t/check-stub.out"
verdict "dan's report (WAIT=0, then JOB=) is check.sh's for the solution ($what)" "$(same dan solution)"

# ------------------------------------------------------------ 3: eve
call() { code=$(curl -s -o "$t/body" -w '%{http_code}' "$@"); }
bearer() { printf 'Authorization: Bearer %s' "$(tok "$1")"; }
dir=$t/eve/kit/build/submit/lab01
p=""
[ "$(rc_of eve)" = 1 ] || p+="; exit $(rc_of eve), not 1"
grep -qx "lab01: compiled prefix_sum.cu" "$dir/report.txt" 2>/dev/null ||
    p+="; it did not compile: the compiler saw a file of the service's ($(grep -m 1 'error' "$dir/report.txt"))"
grep -qE 'status 4[23]' "$dir/report.txt" 2>/dev/null &&
    p+="; a read succeeded: $(grep -m 1 -oE '[^.(]*status 4[23][^.)]*' "$dir/report.txt")"
if [ -n "$gpu" ]; then
    grep -qE '^01\.a .* (FAIL|ERROR)|not implemented' "$dir/report.txt" || p+="; its tests did not run"
fi
# everything eve can look at, into one folder
seen=$t/eve-sees
mkdir -p "$seen"
cp "$t/eve.out" "$t/eve.err" "$seen/" && cp -r "$dir" "$seen/files"
for path in api/jobs "api/jobs/$eve_job" api/board/01 board/01 "" \
    "api/jobs/$eve_job/report.txt" "api/jobs/$eve_job/results.json" "api/jobs/$eve_job/scores.tsv"; do
    curl -s -H "$(bearer eve)" -o "$seen/$(tr '/' '_' <<<"get_$path")" "$url/$path"
done
secrets=("$canary" "$sd")
for s in ann bob eve dan cat "$canary"; do
    secrets+=("$(tok "$s")" "$(printf '%s' "$(tok "$s")" | sha256sum | cut -c 1-64)")
done
leaks=""
for s in "${secrets[@]}"; do
    f=$(grep -rlF -- "$s" "$seen" | sed "s|^$seen/||" | paste -sd ' ')
    [ -z "$f" ] || leaks+="; '${s:0:16}...' in $f"
done
grep -rqw -e ann -e bob -e dan "$seen" && leaks+="; another student's account in $(grep -rlw -e ann -e bob -e dan "$seen" | sed "s|^$seen/||" | paste -sd ' ')"
verdict "eve's #include and fopen of tokens.tsv, serve.db and the other jobs' reports: it compiled, nothing read$(
    [ $beside = 1 ] || echo " (SERVE_DIR under /tmp: hidden anyway)")" "$p" "$t/eve.out"
verdict "no token, token hash, account or path of the service's anywhere eve can look ($(ls "$seen" | wc -l) answers and files)" "$leaks"

# ------------------------------------------------------------ 4: bob
client bob harness/submit.sh "" "$ann_job" >"$t/bob-theirs.out" 2>&1
r=$?
p=""
[ $r = 2 ] || p="the client exited $r, not 2"
[ "$(wc -l <"$t/bob-theirs.out")" = 1 ] && grep -qx "submit: no job $ann_job of yours on the check service (404): no job $ann_job of yours" "$t/bob-theirs.out" ||
    p+="; it said: $(paste -sd ' ' "$t/bob-theirs.out")"
call -H "$(bearer bob)" "$url/api/jobs/$ann_job/report.txt"
[ "$code" = 404 ] && [ "$(wc -l <"$t/body")" = 1 ] || p+="; GET of her report.txt: $code"
grep -qx "id	$bob_job" "$t/bob/kit/build/submit/lab01/job.tsv" 2>/dev/null || p+="; his build/submit/lab01 no longer his job's"
verdict "bob asks for ann's job $ann_job (the client's JOB=, curl): 404, one line, exit 2" "$p" "$t/bob-theirs.out"

# ------------------------------------------------------------ 5: board
p=""
[ "$name_rc" = "0 0 0" ] || p+="; make submit NAME= exited $name_rc"
[ "$(cat "$t/name-ann.out")" = "submit: on the leaderboard you are now 'Ann <e2e>'" ] ||
    p+="; ann's said: $(paste -sd '|' "$t/name-ann.out")"
[ "$(cat "$t/name-dan.out")" = "submit: on the leaderboard you are now 'Dan D.'" ] ||
    p+="; dan's said: $(paste -sd '|' "$t/name-dan.out")"
[[ "$(cat "$t/name-dan0.out")" =~ ^"submit: on the leaderboard you are now your pseudonym, student-"[0-9a-f]{8}" (nobody else sees whose it is)"$ ]] ||
    p+="; dan's NAME= said: $(paste -sd '|' "$t/name-dan0.out")"
names=$(sql "SELECT name, display FROM accounts WHERE name IN ('ann', 'dan') ORDER BY name")
[ "$names" = $'ann\tAnn <e2e>\ndan\t' ] || p+="; the service keeps: $(tr '\t\n' ' |' <<<"$names")"
verdict "make submit NAME='Ann <e2e>' (ann), NAME='Dan D.' then NAME= (dan): one line each, exit 0; the service keeps ann's name, none of dan's" "$p"
call "$url/api/board/01"
p=""
[ "$code" = 200 ] || p="status $code"
if [ -z "$gpu" ]; then
    [ "$(sed -n 2,\$p "$t/body")" = "# no ratio: this service runs dry (no GPU), and a dry run measures none against the vendor library" ] &&
        [ "$(head -n 1 "$t/body" | cut -f 1-5)" = $'rank\tname\tpseudonym\tjobs\tgeomean' ] ||
        p+="; not an empty board and its line: $(tr '\t\n' ' |' <"$t/body")"
    verdict "the leaderboard of a dry run: its header and one line saying why it is empty" "$p"
else
    rows=$(grep -v '^rank' "$t/body" | grep -v '^#')
    ann_row=$(awk -F '\t' '$2 == "Ann <e2e>" && $3 == 0' <<<"$rows")
    dan_row=$(awk -F '\t' '$3 == 1 && $2 ~ /^student-[0-9a-f]{8}$/' <<<"$rows")
    [ "$(wc -l <<<"$rows")" = 2 ] || p+="; $(wc -l <<<"$rows") rows, not 2 (ann and dan)"
    awk -F '\t' '{ exit !($1 ~ /^[12]$/ && $5 > 0) }' <<<"$ann_row" || p+="; ann's row: $(tr '\t' ' ' <<<"$ann_row")"
    awk -F '\t' '{ exit !($1 ~ /^[12]$/ && $5 > 0) }' <<<"$dan_row" || p+="; dan's row: $(tr '\t' ' ' <<<"$dan_row")"
    grep -qw -e bob -e eve -e dan -e ann "$t/body" && p+="; an account on the board"
    verdict "the leaderboard on the GPU: ann (her display name) and dan (a pseudonym) ranked with ratios, nobody else" "$p" "$t/body"
    echo "# the board: $(tr '\t' ' ' <<<"$rows" | cut -c 1-200 | paste -sd '|')"
fi

# ------------------------------------------------------- 6: make grade
# a make grade on the GPUs that waits for the grading kit holds its
# turnstile (harness/grade.sh): the runner gives the job back after
# SERVE_LOCK_WAIT=2 s, each GPU pauses SERVE_BUSY_PAUSE=1 s at a time
p=""
if exec 6>>build/grade.lock.turn && flock -w 60 6; then
    turn=1
    client cat env WAIT=0 harness/submit.sh 01 >"$t/cat0.out" 2>&1
    cat_job=$(sed -n 's/^submit: sent .*: job \([0-9]*\)$/\1/p' "$t/cat0.out")
    paused=0
    for _ in $(seq 100); do # (each GPU: 2 s waiting in the runner, then 1 s paused)
        call "$url/"
        grep -q 'paused: a make grade has this host' "$t/body" && grep -q ' pauses ' "$t/serve.log" && paused=1 && break
        sleep 0.1
    done
    [ $paused = 1 ] || p+="; the log or the page does not say a GPU pauses: $(grep -m 1 -E 'pauses|job $cat_job' "$t/serve.log")"
    grep -q "(job ${cat_job:-none} goes back to the queue)" "$t/serve.log" || p+="; no line for cat's job going back"
    flock -u 6
    turn=0
    free_at=$SECONDS
    client cat harness/submit.sh "" "$cat_job" >"$t/cat.out" 2>&1
    r=$?
    [ $r = 1 ] || p+="; once free, the client exited $r, not 1: $(tail -n 1 "$t/cat.out")"
    [ "$(sql "SELECT state, attempts FROM jobs WHERE id = ${cat_job:-0}")" = $'2\t1' ] ||
        p+="; cat's job (state attempts): $(sql "SELECT state, attempts FROM jobs WHERE id = ${cat_job:-0}" | tr '\t' ' '), not done after one counted start"
    verdict "a make grade waiting for the grading kit: cat's job back in the queue, the GPU paused, run $((SECONDS - free_at)) s after the kit is free" \
        "$p" "$t/serve.log"
else
    say SKIP "a make grade waiting for the grading kit" "build/grade.lock.turn not taken within 60 s"
fi

# ------------------------------------------------------------- 7: page
call -H "$(bearer ann)" "$url/"
p=""
[ "$code" = 200 ] || p="status $code"
grep -q '<h3 id="lab01">lab 01</h3>' "$t/body" || p+="; no board of lab 01"
grep -q "href=\"api/jobs/$ann_job/report.txt\"" "$t/body" || p+="; no link to her report"
[ -z "$gpu" ] || grep -q '<td>Ann &lt;e2e&gt;</td>' "$t/body" || p+="; her display name not escaped on the board"
grep -q 'On the leaderboard you are <b>Ann &lt;e2e&gt;</b>' "$t/body" || p+="; her page does not name her display name"
verdict "the page, signed in as ann: her jobs with links, her display name, lab 01's board" "$p"
for page in "|page.png|the page, signed in as ann" "board/01|board.png|lab 01's board"; do
    IFS='|' read -r path png what <<<"$page"
    REPORT_BROWSER_HEADER="$(bearer ann)" tests/lib/report_browser.sh "$url/$path" "$keep" "$png" >"$t/browser.log" 2>&1
    r=$?
    case $r in
    77) say SKIP "$what in headless Chromium" "$(head -n 1 "$t/browser.log")" ;;
    *) verdict "$what in headless Chromium: loads, no console error, no request leaves the origin, $keep/$png" \
        "$([ $r = 0 ] || grep -E '^FAIL' "$t/browser.log" | head -n 2 | paste -sd ' ')" "$t/browser.log" ;;
    esac
done

# ------------------------------------------------------------- figures
sql "SELECT id, student, started - submitted, finished - started FROM jobs ORDER BY id" >"$t/figures"
echo "# $mode: the grading kit in ${kit_s} s; 4 clients in ${clients_s} s; the whole suite in ${SECONDS} s"
awk -F '\t' '{ printf "# job %s (%s): waited %.1f s in the queue, ran %.1f s\n", $1, $2, $3, $4 }' "$t/figures"
awk -F '\t' '{ w += $3; r += $4; if ($4 > m) m = $4 } END { if (NR) printf "# %d jobs: %.1f s a job on average (%.1f s at most), %.1f s of waiting on average\n", NR, r / NR, m, w / NR }' "$t/figures"
finish
