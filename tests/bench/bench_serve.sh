#!/usr/bin/env bash
# tests/bench/bench_serve.sh [OUT]: the check service (issue 55) on this GPU
# host against make check, in one run: 20 submissions, one per student
# (s01 to s20, in the order of their labs, the list `all` below):
#   9 solutions  those of the nine labs (solutions/NN-name/ as a student's
#                labs/NN-name/),
#   5 stubs      labs 01, 03, 04, 06 and 08 as handed out,
#   6 plants     tests/fixtures/plants' 01.oob_fault, 01.no_compile, 04.count,
#                05.unstable_rank, 07.carry, 09.wrong_tile (tests/gpu/plant.sh make),
# each a folder laid out as a student's kit (its labs/NN-name/ with the
# lab's header, and a copy of the client, harness/submit.sh and what it
# sources). After the grading kit is made current for the nine labs (as
# tests/grading/test_serve_job.sh does for one: harness/grade.sh on an
# empty class), build/primlab-serve starts on 127.0.0.1, any port, its
# SERVE_DIR under OUT, SERVE_RUNNER the grading kit's run-job.sh, one
# claimer per GPU (SERVE_GPUS, default every GPU nvidia-smi lists), 20
# tokens from build/primlab-serve-admin; each folder is sent by its own
# client (`make submit LAB=NN WAIT=0`), then each job awaited and fetched
# (`make submit JOB=N`: its scores.tsv and job.tsv, the service's record:
# GPU, model, submitted, started, finished). The service is stopped, and
# the same 20 folders go through make check (harness/check.sh FOLDER NN,
# CHECK_OUT), dealt in turn to a lane per GPU the service had (one after
# another in each lane: on two GPUs, half the wall time), in the grading
# kit: the handout,
# what a student with a GPU has, built once for both, so that only the
# path through the service differs. Both grade as run-job.sh does: no
# PRIMLAB_SEED (public tests), PRIMLAB_LIMITS=0 (its default without a
# seed, set for both), its time limit (3/4 of SERVE_JOB_TIMEOUT: 900 s); make check without
# PRIMLAB_REQUIRE_SANDBOX, as a student runs it.
#
# Prints, and writes to OUT/summary.txt, a table: student, lab, what it is,
# the GPU the service ran it on, its seconds queued there (whole seconds,
# from its record) and running (its log's line), correctness and performance
# points and the geometric mean of the performance tests' ratios to the
# vendor library (CUB; the leaderboard's figure), service / make check,
# and make check's seconds; then the jobs per GPU, the mean seconds per
# job, the wall time of the 20 in the service (first submitted to last
# finished), the largest difference of the ratios' means, and a line
# "correctness: the same for every submission", or each test whose points
# differ. Everything else (each job's and each check's files and logs, the
# service's log) goes into OUT/jobs.tar.gz. OUT defaults to
# build/bench-serve, kept, and is emptied first.
#
# How long: not measured on a GPU yet. From the instructor guide's figures
# (the nine solutions 133 s and the stubs 60 s of tests on an H100), plus a
# compile per job: about 5 minutes in the service on two GPUs and 10 in
# make check, after the grading kit's first build (minutes; BENCH_N=0 does
# only that, for a machine that allows a few minutes a command). A dry
# run of the 20 on 2 CPUs (shared): 1.5 to 2 minutes, the kit built.
#
# Settings: BENCH_N=K the first K submissions of the list (default 20),
# A-B those from A to B, 0 none (the kit made current and the service
# built, nothing run); SERVE_GPUS as make serve; BENCH_WAIT_S the longest
# wait for the service's jobs, all together (default 3600).
# PRIMLAB_NO_GPU=1: a dry run on a machine without a GPU (SERVE_DRY=1, two
# slots named GPU 0 and 1; every test scores 0; the times mean nothing).
#
# Exit status 0 when every submission's correctness points, test by test,
# are the same in the service and in make check; 1 when not (or a job
# failed, or gave no scores); 2 when it cannot run here (no GPU, no bwrap,
# no solutions/, the service not built or not starting), each one line.
set -u
cd "$(dirname "$0")/../.." || exit 2
me=bench_serve
die() { echo "$me: $*" >&2; exit 2; }
out=$(realpath -m "${1:-build/bench-serve}")
unset PRIMLAB_SEED SERVE_DB TOKENS SERVE_DRY SERVE_ADDR SERVE_DIR SERVE_RUNNER LAB LABS STUDENT FORCE JOBS SLURM \
    WAIT JOB SUBMIT_DIR PRIMLAB_TOKEN SERVE_URL CHECK_OUT
export PRIMLAB_LIMITS=0 GRADE_LOCK_WAIT=900
limit=$((${SERVE_JOB_TIMEOUT:-1200} * 3 / 4)) # run-job.sh's grading limit: make check's too
kit=$PWD/build/grade-kit

# ------------------------------------------------------------ the machine
[ -d solutions ] || die "needs solutions/ (the submissions are made from them)"
command -v curl >/dev/null 2>&1 || die "needs curl (the client, harness/submit.sh, sends with it)"
bwrap --ro-bind / / --unshare-all --die-with-parent true >/dev/null 2>&1 ||
    die "needs a bwrap that starts (run-job.sh grades in the sandbox only)"
dry=0
if [ "${PRIMLAB_NO_GPU:-0}" = 1 ]; then
    dry=1
    echo "a dry run: PRIMLAB_NO_GPU=1, the service with SERVE_DRY=1 (every test scores 0; the times mean nothing)"
else
    unset PRIMLAB_NO_GPU
    ngpu=$(timeout 60 nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c '^ *[0-9]')
    [ "$ngpu" -ge 1 ] || die "needs a GPU: nvidia-smi lists none (PRIMLAB_NO_GPU=1: a dry run)"
    timeout 60 nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | sed 's/^/GPU /'
fi

# ------------------------------------------------------ the submissions
# the submissions, sNN the NNth: lab folder:what (solution, stub, or a plant's name)
all=(01-prefix-sum:solution 01-prefix-sum:stub 01-prefix-sum:oob_fault 01-prefix-sum:no_compile
    02-blelloch-scan:solution 03-bank-conflicts:solution 03-bank-conflicts:stub
    04-compaction:solution 04-compaction:stub 04-compaction:count
    05-radix-sort:solution 05-radix-sort:unstable_rank
    06-shuffle-reduction:solution 06-shuffle-reduction:stub
    07-segmented-spmv:solution 07-segmented-spmv:carry
    08-single-pass-scan:solution 08-single-pass-scan:stub
    09-onesweep-sort:solution 09-onesweep-sort:wrong_tile)
pick=${BENCH_N:-${#all[@]}}
case "$pick" in
*-*) from=${pick%-*} to=${pick#*-} ;;
*) from=1 to=$pick ;;
esac
ok=0
if [[ $from =~ ^[0-9]+$ && $to =~ ^[0-9]+$ ]] && [ "$to" -le ${#all[@]} ]; then
    [ "$pick" = 0 ] || { [ "$from" -ge 1 ] && [ "$from" -le "$to" ]; } && ok=1
fi
[ $ok = 1 ] || die "BENCH_N='$pick': a count from 0 to ${#all[@]}, or a range A-B within 1-${#all[@]}"
students=()
for ((i = from; i <= to && to > 0; i++)); do students+=("$(printf 's%02d' "$i")"); done
declare -A labdir=() what=()
for s in "${students[@]}"; do
    e=${all[$((10#${s#s} - 1))]}
    labdir[$s]=${e%%:*} what[$s]=${e#*:}
done

rm -rf "$out" && mkdir -p "$out/work" "$out/files" || die "cannot make '$out'"
w=$out/work f=$out/files
# stamp: seconds since the epoch, fractional
stamp() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(stamp)" 'BEGIN { printf "%.1f", b - a }'; }
# first LOG: the line of a log that says what went wrong, cut short
first() { { grep -m 1 -iE 'error|fail|cannot|refus|denied' "$1" || grep . "$1" | tail -n 1; } 2>/dev/null | cut -c 1-200; }

echo "== the service and the grading kit, current for the nine labs"
t0=$(stamp)
timeout 1800 make -s --no-print-directory build/primlab-serve build/primlab-serve-admin >"$f/make.log" 2>&1 ||
    die "build/primlab-serve does not build (libmicrohttpd's, SQLite's or OpenSSL's headers?): $(first "$f/make.log")"
mkdir -p "$w/none" && timeout 3600 harness/grade.sh "$w/none" "$w/grades0" >"$f/kit.log" 2>&1 ||
    die "the grading kit (harness/grade.sh on an empty class) failed: $(first "$f/kit.log")"
[ -x "$kit/harness/serve/run-job.sh" ] || die "no grading kit in '$kit' after harness/grade.sh"
echo "   in $(since "$t0") s ($(grep -m 1 '^built the grading kit' "$f/kit.log" || echo 'nothing to build'))"
if [ ${#students[@]} = 0 ]; then
    echo "BENCH_N=0: nothing submitted"
    rm -rf "$w"
    exit 0
fi

plants=()
for s in "${students[@]}"; do case ${what[$s]} in solution | stub) ;; *) plants+=("${labdir[$s]%%-*}.${what[$s]}") ;; esac; done
if [ ${#plants[@]} -gt 0 ]; then
    timeout 300 tests/gpu/plant.sh make "$w/planted" "${plants[@]}" >"$f/plant.log" 2>&1 ||
        die "tests/gpu/plant.sh make failed: $(first "$f/plant.log")"
fi
# each student's kit: the client, the lab's folder with its header
for s in "${students[@]}"; do
    d=${labdir[$s]} k=$w/kits/$s
    mkdir -p "$k/harness" "$k/labs/$d" &&
        cp harness/submit.sh harness/source-files.sh harness/lab-dirs.sh "$k/harness/" && cp VERSION "$k/" &&
        cp "labs/$d"/*.h "$k/labs/$d/" || die "cannot make $s's kit in '$k'"
    case ${what[$s]} in
    solution) cp solutions/"$d"/* "$k/labs/$d/" ;;
    stub) cp "labs/$d"/*.cu "$k/labs/$d/" ;;
    *) [ -d "$w/planted/${what[$s]}/$d" ] && cp "$w/planted/${what[$s]}/$d"/* "$k/labs/$d/" ;;
    esac || die "cannot copy $s's files (${what[$s]} of $d)"
done

# ------------------------------------------------------------ the service
sd=$w/serve
mkdir -p "$sd" && chmod 700 "$sd" || die "cannot make '$sd'"
printf '%s\n' "${students[@]}" | build/primlab-serve-admin tokens "$sd/serve.db" >"$w/tokens.tsv" 2>"$f/tokens.log" ||
    die "build/primlab-serve-admin tokens failed: $(first "$f/tokens.log")"
chmod 600 "$w/tokens.tsv"
tok() { awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$w/tokens.tsv"; }
gpus_env=()
[ $dry = 1 ] && gpus_env=(SERVE_DRY=1)
env SERVE_DIR="$sd" SERVE_ADDR=127.0.0.1:0 SERVE_RUNNER="$kit/harness/serve/run-job.sh" SERVE_PER_HOUR=1000 \
    "${gpus_env[@]}" build/primlab-serve >"$f/serve.log" 2>&1 &
server=$!
# on any exit: the service stopped (it stops its running jobs and hands
# them back); after a minute, killed, and what its runners left with it
stop_server() {
    [ -n "$server" ] || return 0
    kill -TERM "$server" 2>/dev/null
    for _ in $(seq 600); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$server" 2>/dev/null; then
        kill -KILL "$server" 2>/dev/null
        for g in "$sd"/jobs/*/runner.pgid; do [ -f "$g" ] && kill -KILL -- "-$(head -n 1 "$g")" 2>/dev/null; done
    fi
    wait "$server" 2>/dev/null
    server=""
}
trap 'stop_server' EXIT
trap 'exit 130' INT TERM
for _ in $(seq 300); do [ -s "$sd/serve.addr" ] && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
url=$(cat "$sd/serve.addr" 2>/dev/null)
[ -n "$url" ] || die "build/primlab-serve did not start: $(tail -n 1 "$f/serve.log")"
echo "== the service at $url: $(sed -n '1s/^primlab-serve: \([^,]*\),.*/\1/p' "$f/serve.log")"

# client S SECONDS ARGS...: S's copy of make submit, with S's token (in its
# environment, as a student's file would be read: never on a command
# line) and S's folder for what it fetches, stopped after SECONDS
client() {
    local s=$1 secs=$2
    shift 2
    PRIMLAB_TOKEN=$(tok "$s") SERVE_URL=$url SUBMIT_DIR=$w/svc/$s SUBMIT_POLL=1 \
        timeout "$secs" "$w/kits/$s/harness/submit.sh" "$@"
}
declare -A job=() state=()
echo "== ${#students[@]} submissions: make submit LAB=NN WAIT=0, one student each"
t_submit=$(stamp)
for s in "${students[@]}"; do
    WAIT=0 client "$s" 120 "${labdir[$s]%%-*}" >"$w/$s.submit.log" 2>&1
    job[$s]=$(sed -n 's/^submit: sent .*: job \([0-9][0-9]*\)$/\1/p' "$w/$s.submit.log" | head -n 1)
    [ -n "${job[$s]}" ] || die "$s's submission was not taken: $(first "$w/$s.submit.log")"
done
echo "   sent in $(since "$t_submit") s: jobs ${job[${students[0]}]} to ${job[${students[-1]}]}"

echo "== waiting for each: make submit JOB=N (at most ${BENCH_WAIT_S:-3600} s in all)"
deadline=$(($(date +%s) + ${BENCH_WAIT_S:-3600}))
for s in "${students[@]}"; do
    left=$((deadline - $(date +%s)))
    [ $left -ge 5 ] || left=5
    client "$s" "$left" "" "${job[$s]}" >"$w/$s.wait.log" 2>&1
    rc=$?
    case $rc in
    0 | 1) state[$s]='done' ;;
    3) state[$s]="failed: $(sed -n 's/^submit: job [0-9]* failed on the check service: //p' "$w/$s.wait.log" | cut -c 1-80)" ;;
    124 | 137) state[$s]="no result within BENCH_WAIT_S" ;;
    *) state[$s]="the client failed ($rc): $(tail -n 1 "$w/$s.wait.log" | cut -c 1-80)" ;;
    esac
    printf '   %s job %s: %s\n' "$s" "${job[$s]}" "${state[$s]}"
done
stop_server

# --------------------------------------------------------------- make check
# one lane per GPU the service used (SERVE_GPUS, else every GPU listed;
# one in a dry run), the students dealt to them in turn; each lane checks
# its folders one after another
lanes=(0)
if [ $dry = 0 ]; then
    if [ -n "${SERVE_GPUS:-}" ]; then read -r -a lanes <<<"${SERVE_GPUS//,/ }"
    else mapfile -t lanes < <(seq 0 $((ngpu - 1))); fi
fi
echo "== make check of the same folders (harness/check.sh in the grading kit), one after another on each of GPU ${lanes[*]}"
declare -A checked=() check_s=() check_gpu=()
check_one() { # check_one S GPU: S's folder through make check on GPU; its status and seconds in $w/check/S/
    local s=$1 g=$2 impl=$w/kits/$1/labs c=$w/check/$1 t1 rc
    mkdir -p "$c"
    t1=$(stamp)
    (cd "$kit" && exec env CUDA_VISIBLE_DEVICES="$g" CHECK_OUT="$c" timeout --kill-after=10 $limit \
        harness/check.sh "$impl" "${labdir[$s]%%-*}") >"$c/report.txt" 2>&1
    rc=$?
    echo "$rc $(since "$t1")" >"$c/.status"
    rm -rf "$kit/build/impl-${impl//\//-}"
}
t_check=$(stamp)
for ((l = 0; l < ${#lanes[@]}; l++)); do
    (for ((i = l; i < ${#students[@]}; i += ${#lanes[@]})); do check_one "${students[$i]}" "${lanes[$l]}"; done) &
done
wait
for ((i = 0; i < ${#students[@]}; i++)); do
    s=${students[$i]}
    read -r rc secs <"$w/check/$s/.status" 2>/dev/null || rc=x secs=-
    check_s[$s]=$secs check_gpu[$s]=${lanes[$((i % ${#lanes[@]}))]}
    case $rc in 0 | 1) checked[$s]=1 ;; *) checked[$s]=0 ;; esac
    printf '   %s: status %s in %s s on GPU %s\n' "$s" "$rc" "$secs" "${check_gpu[$s]}"
done
check_wall=$(since "$t_check")

# ------------------------------------------------------------------ the table
# pts FILE KIND: the points of that kind; gm FILE: the geometric mean of
# the ratios of the performance tests that ran (as the leaderboard counts
# them, less its bugs rules), or -
pts() { [ -f "$1" ] && awk -F '\t' -v k="$2" '!/^#/ && $3 == k { s += $6 } END { printf "%g", s }' "$1" || echo '?'; }
maxp() { awk -F '\t' '!/^#/ { s += $7 } END { printf "%g", s }' "$1" 2>/dev/null; }
gm() {
    [ -f "$1" ] || { echo '?'; return; }
    awk -F '\t' '!/^#/ && $3 == "performance" && $5 == "OK" && $12 == "" && $9 + 0 > 0 { s += log($9); n++ }
        END { if (n) printf "%.3f", exp(s / n); else printf "-" }' "$1"
}
# ran S: the seconds S's job ran, as the service's log line says ("job 3
# (lab 01) done on GPU 0 in 12.34 s"), else from its record's whole seconds
ran() {
    local r
    r=$(sed -n "s/^primlab-serve: job ${job[$1]} (lab [0-9]*) [a-z]* on GPU [0-9]* in \([0-9.]*\) s.*/\1/p" "$f/serve.log" | tail -n 1)
    [ -n "$r" ] && [ -n "$st" ] && echo "$r" || { [ -n "$st" ] && [ -n "$fin" ] && echo $((fin - st)); } || echo -
}
# rec S KEY: a value of the service's record of S's job (job.tsv)
rec() { sed -n "s/^$2	//p" "$w/svc/$1/lab${labdir[$1]%%-*}/job.tsv" 2>/dev/null | head -n 1; }
epoch() { [ -n "$1" ] && date -d "$1" +%s 2>/dev/null; }
# rows FILE: the correctness rows as compared: test, points (and status, shown)
rows() { awk -F '\t' '!/^#/ && $3 == "correctness" { printf "%s\t%.4f\t%s\n", $2, $6, $5 }' "$1" 2>/dev/null | LC_ALL=C sort; }

{
    fmt='%-7s %-3s %-13s %-3s %6s %6s  %-15s %-13s %4s  %-13s %7s\n'
    # shellcheck disable=SC2059 # the one format, for the head and the rows
    printf "$fmt" student lab what gpu queued ran "correct svc/chk" "perf svc/chk" max "ratio svc/chk" "check s"
    same=1 diffs="" worst=0 worst_who=""
    declare -A per_gpu=()
    first_sub="" last_fin="" runs="" queues=""
    for s in "${students[@]}"; do
        a=$w/svc/$s/lab${labdir[$s]%%-*}/scores.tsv b=$w/check/$s/scores.tsv
        gpu=$(rec "$s" gpu) sub=$(epoch "$(rec "$s" submitted)") st=$(epoch "$(rec "$s" started)") fin=$(epoch "$(rec "$s" finished)")
        q=- r=$(ran "$s")
        if [ -n "$sub" ] && [ -n "$st" ] && [ -n "$fin" ]; then
            q=$((st - sub)) runs+=" $r" queues+=" $q"
            [ -z "$first_sub" ] || [ "$sub" -lt "$first_sub" ] && first_sub=$sub
            [ -z "$last_fin" ] || [ "$fin" -gt "$last_fin" ] && last_fin=$fin
            key="GPU ${gpu:-?} ($(rec "$s" model))"
            per_gpu[$key]=$((${per_gpu[$key]:-0} + 1))
        fi
        ga=$(gm "$a") gb=$(gm "$b")
        # shellcheck disable=SC2059
        printf "$fmt" "$s" "${labdir[$s]%%-*}" "${what[$s]}" "${gpu:--}" "$q" "$r" \
            "$(pts "$a" correctness) / $(pts "$b" correctness)" "$(pts "$a" performance) / $(pts "$b" performance)" \
            "$(maxp "$b")" "$ga / $gb" "${check_s[$s]}"
        if [[ $ga =~ ^[0-9.]+$ && $gb =~ ^[0-9.]+$ ]]; then
            d=$(awk -v a="$ga" -v b="$gb" 'BEGIN { d = (a > b ? a / b : b / a) - 1; printf "%.1f", 100 * d }')
            awk -v d="$d" -v m="$worst" 'BEGIN { exit !(d > m) }' && worst=$d worst_who=$s
        fi
        why=""
        if [ "${state[$s]}" != 'done' ]; then why="the service's job ${job[$s]}: ${state[$s]}"
        elif [ ! -s "$a" ]; then why="no scores from the service"
        elif [ "${checked[$s]}" != 1 ] || [ ! -s "$b" ]; then why="make check gave no scores: $(first "$w/check/$s/report.txt")"
        elif ! cmp -s <(rows "$a" | cut -f 1,2) <(rows "$b" | cut -f 1,2); then
            why="tests whose points differ (<: the service, >: make check):"$'\n'$(diff <(rows "$a") <(rows "$b") |
                grep '^[<>]' | head -n 6 | sed 's/^/      /; s/\t/  /g')
        fi
        [ -z "$why" ] || { same=0 diffs+="   $s (${labdir[$s]%%-*} ${what[$s]}): $why"$'\n'; }
    done
    echo
    for k in "${!per_gpu[@]}"; do echo "jobs on $k: ${per_gpu[$k]}"; done | sort
    [ $dry = 1 ] || [ -n "${SERVE_GPUS:-}" ] || [ "${ngpu:-1}" -lt 2 ] || [ ${#per_gpu[@]} -ge 2 ] ||
        echo "NOTE: $ngpu GPUs here, but the service ran every job on one"
    if [ -n "$runs" ]; then
        awk -v r="$runs" -v q="$queues" 'BEGIN { n = split(r, a, " "); split(q, b, " "); for (i = 1; i <= n; i++) { x += a[i]; y += b[i] }
            printf "seconds per job in the service: %.1f running, %.1f queued (means of %d jobs)\n", x / n, y / n, n }'
        echo "wall time of the ${#students[@]} in the service: $((last_fin - first_sub)) s (first submitted to last finished)"
    fi
    awk -v n=${#students[@]} -v g="${lanes[*]}" -v w="$check_wall" '{ s += $1 }
        END { printf "make check, one after another on each of GPU %s: %.0f s of checks, %.1f s per submission, %.0f s of wall time\n", g, s, s / n, w }' \
        < <(for s in "${students[@]}"; do echo "${check_s[$s]}"; done)
    [ -z "$worst_who" ] || echo "ratios to the vendor library: the means of service and make check differ by $worst% at most ($worst_who)"
    if [ $same = 1 ]; then
        echo "correctness: the same for every submission"
    else
        echo "correctness: DIFFERS for some submissions:"
        printf '%s' "$diffs"
    fi
    echo "files: $out/jobs.tar.gz (work/svc: the service's, work/check: make check's, per student; files/: the logs)"
} | tee "$out/summary.txt"
same=$(grep -c '^correctness: the same' "$out/summary.txt")

# --------------------------------------------------------------- the files
rm -rf "$w/none" "$w/grades0" "$w/planted" "$sd/uploads" "$sd"/jobs/*/tree "$w/tokens.tsv" "$sd/serve.db"*
tar -czf "$out/jobs.tar.gz" -C "$out" work files && rm -rf "$w" "$f" || echo "$me: cannot pack '$out/jobs.tar.gz'" >&2
[ "$same" = 1 ]
