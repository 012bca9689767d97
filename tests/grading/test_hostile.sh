#!/usr/bin/env bash
# tests/grading/test_hostile.sh: the hostile submissions of lab 01 (tests/fixtures/hostile/
# <case>/01-prefix-sum/prefix_sum.cu, each a submission that attacks the
# grader one way; its header says how, and what the grader must give it),
# graded the way a class is: one `make grade` for all of them, beside two
# copies of the solution (sol_a, sol_b) and the untouched stub, with a
# secret seed. Then, per case, its lab-01 score against the table below,
# and around them: the kit, the other students' files and the runner's
# canaries unchanged (checksums, and no file named primlab-pwned*), no
# process of a case alive, the grade output's last line the grader's, the
# solution graded alone scoring as it does among the hostile ones. A few
# properties only the log shows (the log is removed with each student's
# build under make grade) are checked on harness/check.sh runs of single
# cases, with the GPU off.
#
# Prints one line per case, `case  score/max  OK|FAIL|SKIP  why`, then
# `N passed, N failed, N skipped`; exits 1 on any failure. Without a GPU
# every test scores 0: the checks that need none still run (compile
# failures, constructor-time attacks, files, processes, logs, the last
# line, every maximum); the score expectations that need a GPU say SKIP and
# count as nothing.
#
# Environment: HOSTILE_SEED (default 20261123), PRIMLAB_TIMEOUT (per test,
# default 10), GRADE_TIMEOUT (per student, default 300), CASES="a b" (only
# these cases, besides sol_a, sol_b and stub), KEEP=1 (keep the scratch
# folder and say where).
# tier: slow (every hostile case graded as one class with a secret seed, then alone: minutes; CI and make test-slow run it)
set -u
cd "$(dirname "$0")/../.." || exit 2
kit=$(pwd -P)
seed=${HOSTILE_SEED:-20261123}
per_test=${PRIMLAB_TIMEOUT:-10}
# Every run below leaves the limit tests out (PRIMLAB_LIMITS=0): 2^31
# elements per part would cost each of the 38 submissions seconds, and no
# attack here is about sizes.
grade_limit=${GRADE_TIMEOUT:-300}
# make test-slow runs the other grading suites beside this one, in the
# same kit: wait for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=${GRADE_LOCK_WAIT:-900}
start=$(date +%s)

# ------------------------------------------------------------ expectations
#
# case | expectation | without a GPU (y: the attack runs at compile or
# constructor time, so the expectation means something without a GPU too;
# -: SKIP) | reason (grep -E on the case's lab-01 rows and report; - for
# none)
#
# Expectations, on the case's lab-01 points (correctness and performance
# apart), against sol_a graded in the same run:
#   zero         0 points
#   nocompile    0 points, and "does not compile"
#   full         every point
#   corr_perf0   sol_a's correctness points, 0 performance points
#   le_perf0     at most sol_a's correctness points, 0 performance points
#   corr_le:C:T  sol_a's correctness points, performance points at most
#                case C's plus T
#   corr         sol_a's correctness points
#   like:C       every lab-01 row as case C's (status, points; performance
#                points within 0.25)
#   sol_minus:K  K correctness points fewer than sol_a, sol_a's performance
#                points (within 0.5 in all)
# Every case's maximum must be sol_a's maximum.
EXPECT=$(cat <<'EOF'
sol_a                 | full                     | -   | -
sol_b                 | like:sol_a               | -   | -
stub                  | zero                     | -   | -
interpose_compare     | zero                     | -   | -
interpose_gen         | zero                     | -   | -
interpose_median      | zero                     | -   | -
interpose_timer       | zero                     | -   | -
interpose_cudart      | nocompile                | y   | does not compile
ctor_table            | zero                     | y   | -
read_expected         | zero                     | -   | -
forge_reply           | zero                     | y   | did not start|not the answer to its request
forge_reply_call      | sol_minus:3              | -   | -
forge_stdout          | zero                     | y   | -
unset_seed            | zero                     | y   | -
kill_parent           | zero                     | y   | -
exit_ctor             | zero                     | y   | did not start|exited with status
lie_hello             | zero                     | y   | -
include_solution      | nocompile                | y   | does not compile
include_solution_abs  | nocompile                | y   | does not compile
compile_leak          | nocompile                | y   | does not compile
split_include         | nocompile                | y   | does not compile
skip_timed            | corr_perf0               | -   | timed repetition [0-9]+ of [0-9]+ gave a wrong result|wrong result, so not timed
calls_cub             | corr_perf0               | -   | uses the vendor library
dlopen_npp            | le_perf0                 | -   | loads libraries or their functions itself
cpu_compute           | corr_perf0               | -   | -
fake_time             | corr_le:sol_a:0          | -   | -
slow_honest           | corr                     | -   | -
fake_time_slow        | corr_le:slow_honest:0.5  | -   | -
slow_yardstick        | corr_le:slow_honest:0.5  | -   | -
yardstick_hog         | corr_le:slow_honest:0.5  | -   | -
precompute_stage      | corr_le:slow_honest:0.5  | -   | -
lazy_fetch            | le_perf0                 | -   | -
fake_worker           | le_perf0                 | y   | -
fork_bomb             | zero                     | y   | -
sleepers              | zero                     | y   | -
huge_output           | zero                     | y   | -
ctor_hang             | zero                     | y   | did not start within [0-9]+ s .*before main
write_kit             | zero                     | y   | -
read_secrets          | zero                     | y   | -
network               | zero                     | y   | -
EOF
)
# Cases also graded by harness/check.sh alone, GPU off, for their log or
# their last line.
DIRECT="huge_output read_secrets forge_stdout ctor_hang"

# ------------------------------------------------------------------ setup

pass=0 fail=0 skip=0
t=$(mktemp -d /tmp/primlab-hostile.XXXXXX) || exit 2
vt=$(mktemp -d /var/tmp/primlab-hostile.XXXXXX) || exit 2 # outside every folder the sandbox hides
home_canary=${HOME:-/nonexistent}/.primlab-hostile-canary
listener=""
cleanup() {
    [ -n "$listener" ] && kill "$listener" 2>/dev/null
    rm -f "$home_canary" /dev/shm/primlab-pwned-* /run/lock/primlab-pwned-* /var/tmp/primlab-pwned-* 2>/dev/null
    rm -rf "$kit"/build/impl-*primlab-hostile.*
    if [ "${KEEP:-0}" = 1 ]; then echo "kept: $t $vt"; else rm -rf "$t" "$vt"; fi
}
trap cleanup EXIT

say() { # say CASE SCORE STATUS WHY: the one line of a case, counted
    printf '%-22s %9s  %-4s  %s\n' "$1" "$2" "$3" "$4"
    case "$3" in OK) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; SKIP) skip=$((skip + 1)) ;; esac
}
die() { echo "test_hostile: $*" >&2; exit 2; }

command -v python3 >/dev/null || die "python3 is missing"
bwrap --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null || die "bwrap cannot start a sandbox here"
[ -f solutions/01-prefix-sum/prefix_sum.cu ] || {
    echo "SKIP: the hostile suite needs solutions/ (sol_a, sol_b and the timing cases are made from it); not counted as passed"
    exit 0
}
make -s --no-print-directory build/primlab-results build/tables/lab01 build/solutions/lab01 build/solutions/lab01-worker \
    >"$t/make.log" 2>&1 || die "make failed: $(tail -n 3 "$t/make.log")"
gpu=1
build/solutions/lab01 info >/dev/null 2>&1 || gpu=0
# make grade grades nobody on a machine without a GPU unless asked for a dry run
[ $gpu = 1 ] || export PRIMLAB_NO_GPU=1

# The planted secret, the canaries, another student's results, listeners.
token=hx_planted_token_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
secret=$vt/grader-secrets.env
printf 'PRIMLAB_SEED=%s\n' "$token" >"$secret" && chmod 600 "$secret"
echo "canary $token" >"$t/canary"
echo "canary $token" >"$home_canary" 2>/dev/null || home_canary=""
mkdir -p "$t/subs" "$t/grades/other_student" "$t/direct" "$t/out"
for f in results.json scores.tsv report.txt; do echo "other student's $f $token" >"$t/grades/other_student/$f"; done
port_file=$t/port sock=$vt/listen.sock
chmod 711 "$vt" # the socket is reachable, the secret (0600) is not
python3 - "$port_file" "$sock" "$t/reached" <<'PY' &
import os, select, socket, sys
port_file, sock_path, log = sys.argv[1:4]
tcp = socket.socket(); tcp.bind(("127.0.0.1", 0)); tcp.listen(16)
uni = socket.socket(socket.AF_UNIX); uni.bind(sock_path); os.chmod(sock_path, 0o777); uni.listen(16)
with open(port_file + ".tmp", "w") as f: f.write(str(tcp.getsockname()[1]))
os.rename(port_file + ".tmp", port_file)
while True:
    for s in select.select([tcp, uni], [], [])[0]:
        c, _ = s.accept(); c.settimeout(1)
        try: data = c.recv(200)
        except OSError: data = b""
        with open(log, "a") as f: f.write("%s: %r\n" % ("tcp" if s is tcp else "unix " + sock_path, data))
        c.close()
PY
listener=$!
for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
port=$(cat "$port_file" 2>/dev/null) || die "the listener did not start"

# ------------------------------------------------------------------ stage

# stage CASE DEST: the case's file, markers filled in (tests/fixtures/hostile/_lib/
# README.md), at DEST/01-prefix-sum/prefix_sum.cu.
stage() {
    mkdir -p "$2/01-prefix-sum" &&
        HX_KIT=$kit HX_HOME=${HOME:-/nonexistent} HX_TMP=$t HX_SUBS=$t/subs HX_GRADES=$t/grades HX_SECRET=$secret \
            HX_PORT=$port HX_SOCK=$sock python3 - "tests/fixtures/hostile/$1/01-prefix-sum/prefix_sum.cu" \
            "$2/01-prefix-sum/prefix_sum.cu" <<'PY'
import os, re, sys
src, dst = sys.argv[1:3]
text = open(src).read()

def solution():
    sol = open("solutions/01-prefix-sum/prefix_sum.cu").read()
    sol, k = re.subn(r'extern "C" void (scan_[a-z_]+)\(', r"static void sol_\1(", sol)
    if k != 4:
        sys.exit("the solution's four entry points were not found")
    # launches without a stream: grid, block (and dynamic shared memory)
    sol = re.sub(r"<<<([^<>;]*?)>>>",
                 lambda m: "<<<%s%s, hx_stream>>>" % (m.group(1), ", 0" if m.group(1).count(",") == 1 else "")
                 if m.group(1).count(",") in (1, 2) else m.group(0), sol)
    return ("/* ---- staged by tests/grading/test_hostile.sh: solutions/01-prefix-sum/prefix_sum.cu, its entry points\n"
            "   renamed sol_*, its launches on hx_stream (0: the default stream) ---- */\n"
            "static cudaStream_t hx_stream;\n" + sol + "/* ---- end of the solution ---- */\n")

def include(m):
    name = m.group(1)
    path = "harness/wire/protocol.h" if name == "wire/protocol.h" else os.path.join("tests/fixtures/hostile/_lib", name)
    return "/* ---- %s, inlined by tests/grading/test_hostile.sh ---- */\n%s" % (path, open(path).read())

text = re.sub(r"/\* @@INCLUDE ([A-Za-z0-9_./]+)@@ \*/", include, text)
text = text.replace("/* @@SOLUTION@@ */", solution())
for key in ("KIT", "HOME", "TMP", "SUBS", "GRADES", "SECRET", "PORT", "SOCK"):
    text = text.replace("@@%s@@" % key, os.environ["HX_" + key])
text = text.replace("@@ARMED@@", "1")
left = re.findall(r"@@[A-Z_ .a-z0-9]+@@", text)
if left:
    sys.exit("markers left: %s" % ", ".join(sorted(set(left))))
open(dst, "w").write(text)
PY
}

cases=()
while IFS='|' read -r c _; do
    c=$(echo $c)
    [ -n "$c" ] || continue
    case "$c" in sol_a | sol_b | stub) continue ;; esac
    if [ -n "${CASES:-}" ] && ! grep -qw -- "$c" <<<"$CASES"; then continue; fi
    cases+=("$c")
done <<<"$EXPECT"
for d in tests/fixtures/hostile/*/01-prefix-sum/prefix_sum.cu; do
    c=${d#tests/fixtures/hostile/}
    c=${c%%/*}
    grep -q "^$c *|" <<<"$EXPECT" || say "$c" - FAIL "has no line in test_hostile.sh's expectation table"
done
for c in sol_a sol_b; do
    mkdir -p "$t/subs/$c/01-prefix-sum" && cp solutions/01-prefix-sum/prefix_sum.cu "$t/subs/$c/01-prefix-sum/"
done
mkdir -p "$t/subs/stub/01-prefix-sum" && cp labs/01-prefix-sum/prefix_sum.cu "$t/subs/stub/01-prefix-sum/"
staged=()
for c in "${cases[@]}"; do
    if msg=$(stage "$c" "$t/subs/$c" 2>&1); then
        staged+=("$c")
    else
        say "$c" - FAIL "could not be staged: $msg"
        rm -rf "${t:?}/subs/$c"
    fi
done
cases=("${staged[@]}")
for c in $DIRECT; do
    grep -qw -- "$c" <<<"${cases[*]}" && cp -r "$t/subs/$c" "$t/direct/$c"
done

# ----------------------------------------------------------- checksums

# sums: every file of the kit that grading must leave alone (tracked or
# not ignored, and the built binaries grading runs), the other student's
# results, every submission, the canaries.
sums() {
    {
        git ls-files -z --cached --others --exclude-standard | xargs -0 -r sha256sum 2>&1
        find build/primlab-results build/labs build/tables -maxdepth 1 -type f -print0 2>/dev/null | xargs -0 -r sha256sum
        (cd "$t" && find grades/other_student subs -type f -print0 | xargs -0 -r sha256sum)
        sha256sum "$t/canary" ${home_canary:+"$home_canary"}
    } | LC_ALL=C sort -k 2
}
pwned() { # files an attack created, by their name
    find "$kit" "$t" "$vt" -name '*primlab-pwned*' 2>/dev/null
    find "${HOME:-/nonexistent}" /tmp /var/tmp /dev/shm /run/lock -maxdepth 1 -name '*primlab-pwned*' 2>/dev/null
    [ -e build/obj/x.d ] && echo "$kit/build/obj/x.d"
}
sums >"$t/sums.before"
pwned >"$t/pwned.before"
ls -d /tmp/primlab-worker-* 2>/dev/null | sort >"$t/copies.before"

# ------------------------------------------------------------------- grade

# The single-case runs of harness/check.sh, GPU off (they only read logs,
# so they run beside the class on the CPU).
direct() {
    local c
    for c in $DIRECT; do
        [ -d "$t/direct/$c" ] || continue
        env PRIMLAB_NO_GPU=1 PRIMLAB_LIMITS=0 PRIMLAB_SEED="$seed" PRIMLAB_TIMEOUT="$per_test" PRIMLAB_REQUIRE_SANDBOX=1 \
            PRIMLAB_SANDBOX_HIDE="$t" CHECK_OUT="$t/out/direct-$c" AUTOLAB=1 \
            harness/check.sh "$t/direct/$c" 01 >"$t/out/direct-$c.txt" 2>&1
        tag=impl-${t//\//-}-direct-$c
        cp "build/$tag/lab01-worker.log" "$t/out/direct-$c.log" 2>/dev/null
        rm -rf "build/$tag"
    done
}
direct &
direct_pid=$!

SECONDS=0
env PRIMLAB_LIMITS=0 PRIMLAB_SEED="$seed" PRIMLAB_TIMEOUT="$per_test" GRADE_TIMEOUT="$grade_limit" \
    make -s --no-print-directory grade SUBMISSIONS="$t/subs" GRADES="$t/grades" >"$t/grade.out" 2>&1
grade_rc=$? grade_s=$SECONDS
# the solution alone, for its rows without hostile neighbours
mkdir -p "$t/subs-alone" && cp -r "$t/subs/sol_a" "$t/subs-alone/"
env PRIMLAB_LIMITS=0 PRIMLAB_SEED="$seed" PRIMLAB_TIMEOUT="$per_test" GRADE_TIMEOUT="$grade_limit" \
    make -s --no-print-directory grade SUBMISSIONS="$t/subs-alone" GRADES="$t/grades-alone" >"$t/grade-alone.out" 2>&1
wait "$direct_pid"
sleep 1 # what the sandboxes' deaths take with them

# ------------------------------------------------------------------ checks

rows() { # rows CASE [GRADES]: the case's lab-01 rows
    awk -F '\t' '$1 == "01"' "${2:-$t/grades}/$1/scores.tsv" 2>/dev/null
}
points() { # points CASE KIND [GRADES]: correctness | performance | all | max
    rows "$1" "${3:-}" | awk -F '\t' -v k="$2" '
        k == "max" { s += $7; next } k == "all" || $3 == k { s += $6 } END { printf "%.4f\n", s + 0 }'
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b + 1e-6) }'; }
# ratio_gain CASE REF: the largest quotient of CASE's scored value over
# REF's (the value column: lab 01's tests are scored by their roof since
# 2026-11-29, so it is the fraction of the roof, which moves with the
# code's time as the ratio to the vendor does, and not at all with the
# vendor's), test by test ("" when none can be formed), then the pairs
# ("test CASE/REF, ...") for the report. An attack that adds its 5 ms to
# the vendor's ~0.04 ms call at 2^24, or takes half off the code's time,
# moves a ratio 2 to 100 times over. Noise moves points more than the
# tolerance T of corr_le: on an H200 (2026-11-29) slow_yardstick, whose
# attack the trusted yardstick worker makes void, got 2.47 performance
# points against slow_honest's 1.90 in one make grade: by lab 01's rule then
# (2 points a test, linear from ratio 0.03 to 0.15) ratios of about 0.104
# and 0.087, 1.19 times. A case over T fails only when a ratio also moved
# more than RATIO_NOISE times its reference's.
RATIO_NOISE=1.3
ratio_gain() {
    LC_ALL=C join -t $'\t' <(rows "$1" | awk -F '\t' '$3 == "performance" { print $2 "\t" $9 }' | LC_ALL=C sort) \
        <(rows "$2" | awk -F '\t' '$3 == "performance" { print $2 "\t" $9 }' | LC_ALL=C sort) |
        awk -F '\t' '$2 + 0 > 0 && $3 + 0 > 0 { q = $2 / $3; if (q > g) g = q; s = s sep $1 " " $2 "/" $3; sep = ", " }
            END { printf "%s %s", (s == "" ? "" : sprintf("%.3f", g)), s }'
}
eq() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a - b <= 1e-6 && b - a <= 1e-6) }'; }
short() { awk -v x="$1" 'BEGIN { printf "%g", x }'; }
# same_rows A GA B GB: the lab-01 rows of A (in GA) and B (in GB) agree
same_rows() {
    diff <(rows "$1" "$2" | cut -f 2,3,5,6) <(rows "$3" "$4" | cut -f 2,3,5,6) >/dev/null && return 0
    paste <(rows "$1" "$2" | cut -f 2,3,5,6) <(rows "$3" "$4" | cut -f 2,3,5,6) | awk -F '\t' '
        $1 != $5 || $2 != $6 || $3 != $7 { bad = 1 }
        $2 == "correctness" && $4 != $8 { bad = 1 }
        $2 == "performance" && ($4 - $8 > 0.25 || $8 - $4 > 0.25) { bad = 1 }
        END { exit bad }'
}

# first_diff A B: the lab-01 row where A's and B's points differ most,
# both sides (status, points, the ratio column)
first_diff() {
    paste <(rows "$1" | cut -f 2,5,6,8) <(rows "$2" | cut -f 2,5,6,8) | awk -F '\t' '
        { d = $3 - $7; if (d < 0) d = -d; if ($2 != $6) d += 1000 }
        d > best { best = d; line = sprintf("%s: %s %s (%s) vs %s %s (%s)", $1, $2, $3, $4, $6, $7, $8) }
        END { print line }' | cut -c 1-200
}

sol_corr=$(points sol_a correctness) sol_perf=$(points sol_a performance) sol_max=$(points sol_a max)
table_max=$(PRIMLAB_LIMITS=0 PRIMLAB_SEED=$seed build/tables/lab01 list | sed -n 's/^total: \([0-9.]*\) points$/\1/p')

# extra_CASE: the checks of a case beyond its score; print why on failure.
extra_compile_leak() {
    local where
    where=$(grep -l -- "$token" "$t/grade.out" "$t/grades/compile_leak/"* 2>/dev/null | sed "s|$t/||" | paste -sd ' ')
    [ -z "$where" ] || echo "the planted token ($secret, mode 0600) is in what the student sees: $where"
}
extra_huge_output() {
    local log=$t/out/direct-huge_output.log size
    size=$(stat -c %s "$log" 2>/dev/null || echo missing)
    [ "$size" != missing ] && [ "$size" -le $((1100 * 1024)) ] ||
        echo "the check.sh run's log is $size bytes (cap about 1 MiB)"
    [ "$(stat -c %s "$t/grades/huge_output/report.txt" 2>/dev/null || echo 0)" -le 65536 ] ||
        echo "its report is over 64 KiB"
    grep -q 'subtotal' "$t/out/direct-huge_output.txt" || echo "the check.sh run did not finish"
}
extra_read_secrets() {
    local log=$t/out/direct-read_secrets.log found=""
    [ -s "$log" ] || { echo "the check.sh run left no log"; return; }
    grep -q -- "$seed" "$log" && found="$found the seed,"
    grep -q -- "$token" "$log" && found="$found the planted token ($secret),"
    grep -qE 'scan_k1_block|add_k2_block_sums' "$log" && found="$found the solution's source,"
    grep -q -- "$token" "$t/grades/other_student/results.json" 2>/dev/null &&
        grep -q "other student's" "$log" && found="$found another student's results,"
    grep -qE '^root:' "$log" && found="$found /etc/shadow,"
    [ -z "$found" ] || echo "its log holds${found%,}"
}
extra_forge_stdout() {
    local d=$t/out/direct-forge_stdout.txt
    ! grep -qE 'hxforged|42/42' "$t/grades/forge_stdout/report.txt" "$t/grades/forge_stdout/results.json" 2>/dev/null ||
        echo "its forged lines are in its report or results.json"
    # the last line is the grader's: the direct runs are dry runs
    # (PRIMLAB_NO_GPU=1, beside the graded run, on any machine), and a dry
    # run's zeros are no grade, so it is the line saying there are no scores
    local last='^check: no scores for Autolab: no test could run on this machine'
    tail -n 1 "$d" | grep -qE "$last" || echo "check.sh's last line is not the grader's no-scores line: $(tail -n 1 "$d")"
    ! grep -q 'hxforged' "$d" || echo "its forged lines are in check.sh's output"
}
extra_ctor_hang() { # its time, from the record's UTC stamps: its line less the one before
    local s
    s=$(awk -F '\t' '{ cmd = "date -u -d " $3 " +%s"; cmd | getline t; close(cmd) }
        $1 == "ctor_hang" { if (prev) print t - prev; exit } { prev = t }' "$t/grades/.graded.tsv" 2>/dev/null)
    [ -z "$s" ] || [ "$s" -le $((per_test + 8)) ] ||
        echo "graded in ${s:-?} s: not cut off near PRIMLAB_TIMEOUT=$per_test (its constructor sleeps 30 s)"
    # harness/check.sh alone (make check): the same reason, for every test
    local d=$t/out/direct-ctor_hang.txt
    grep -qE 'did not start within [0-9]+ s .*before main' "$d" 2>/dev/null ||
        echo "check.sh alone does not say it did not start in time: $(grep -m 1 'lab01' "$d" 2>/dev/null | cut -c 1-150)"
}
extra_write_kit() {
    local made
    made=$(comm -13 <(sort "$t/pwned.before") <(sort -u "$t/pwned.after") | grep -- '-write_kit' | paste -sd ' ')
    [ -z "$made" ] || echo "created outside its sandbox: $made"
}
extra_network() {
    [ ! -s "$t/reached" ] || echo "reached the runner's listeners: $(paste -sd ' ' "$t/reached")"
}

# The score and reason of one case against its line of the table.
check_case() {
    local c=$1 exp=$2 pat=$3 nogpu=$4 corr perf all max why="" meaningful=1 x
    if [ ! -f "$t/grades/$c/scores.tsv" ]; then
        say "$c" - FAIL "no results: grading stopped before it (see $t/grade.out)"
        return
    fi
    corr=$(points "$c" correctness) perf=$(points "$c" performance) all=$(points "$c" all) max=$(points "$c" max)
    [ $gpu = 1 ] || [ "$nogpu" = y ] || meaningful=0
    eq "$max" "$sol_max" || why="$why; maximum $(short "$max"), the solution's $(short "$sol_max")"
    if [ $gpu = 0 ] && ! eq "$all" 0; then
        why="$why; scored $(short "$all") without a GPU"
    fi
    [ $meaningful = 1 ] || exp=skip # without a GPU: every score is 0 (above)
    case "$exp" in
    zero) eq "$all" 0 || why="$why; scored $(short "$all"), must be 0" ;;
    nocompile) eq "$all" 0 || why="$why; scored $(short "$all"), must be 0" ;;
    full) [ $gpu = 0 ] || eq "$all" "$max" || why="$why; not full marks" ;;
    corr_perf0 | le_perf0 | corr | corr_le:*)
        if [ "$exp" = le_perf0 ]; then
            le "$corr" "$sol_corr" || why="$why; correctness $(short "$corr"), more than the solution's $(short "$sol_corr")"
        else
            eq "$corr" "$sol_corr" || why="$why; correctness $(short "$corr"), the solution's $(short "$sol_corr")"
        fi
        case "$exp" in
        corr_perf0 | le_perf0) eq "$perf" 0 || why="$why; $(short "$perf") performance points, must be 0" ;;
        corr_le:*)
            IFS=: read -r _ ref tol <<<"$exp"
            x=$(points "$ref" performance)
            if ! le "$perf" "$(awk -v a="$x" -v b="$tol" 'BEGIN { print a + b }')"; then
                # over by more than T: a win only if a ratio moved too (above)
                r=$(ratio_gain "$c" "$ref")
                awk -v g="${r%% *}" -v m="$RATIO_NOISE" 'BEGIN { exit !(g == "" || g > m) }' &&
                    why="$why; $(short "$perf") performance points, more than $ref's $(short "$x") (+$tol allowed), ratios ${r#* }"
            fi
            ;;
        esac
        ;;
    sol_minus:*)
        x=${exp#sol_minus:}
        eq "$corr" "$(awk -v a="$sol_corr" -v b="$x" 'BEGIN { print a - b }')" ||
            why="$why; correctness $(short "$corr"), must be the solution's $(short "$sol_corr") less $x"
        awk -v a="$perf" -v b="$sol_perf" 'BEGIN { exit !(a - b <= 0.5 && b - a <= 0.5) }' ||
            why="$why; $(short "$perf") performance points, the solution's $(short "$sol_perf")"
        ;;
    like:*) same_rows "$c" "$t/grades" "${exp#like:}" "$t/grades" ||
        why="$why; its rows differ from ${exp#like:}'s: $(first_diff "$c" "${exp#like:}")" ;;
    esac
    if [ "$pat" != - ] && [ $meaningful = 1 ] &&
        ! { rows "$c" | cut -f 10,11; cat "$t/grades/$c/report.txt"; } | grep -qE -- "$pat"; then
        x=$(rows "$c" | cut -f 10 | sort | uniq -c | sort -rn | head -n 1 | sed 's/^ *[0-9]* //' | cut -c 1-120)
        why="$why; no reason matching /$pat/ (it got: ${x:-none})"
    fi
    if [ "$exp" = nocompile ] && ! grep -q 'does not compile' "$t/grades/$c/report.txt"; then
        why="$why; it compiled"
    elif [ "$exp" != nocompile ] && grep -q 'does not compile' "$t/grades/$c/report.txt"; then
        why="$why; it does not compile: $(grep -A2 'does not compile' "$t/grades/$c/report.txt" | tail -n 2 | tr -s ' ' | paste -sd ' ')"
    fi
    if declare -F "extra_$c" >/dev/null; then
        x=$("extra_$c" "$c")
        [ -z "$x" ] || why="$why; $(paste -sd ';' <<<"$x")"
    fi
    local score
    score="$(short "$all")/$(short "$max")"
    if [ -n "$why" ]; then
        say "$c" "$score" FAIL "${why#; }"
    elif [ $meaningful = 0 ]; then
        say "$c" "$score" SKIP "GPU-free checks passed; needs a GPU: $2$([ "$pat" = - ] || echo " /$pat/")"
    else
        [ "$pat" = - ] || x=$({ rows "$c" | cut -f 10,11; cat "$t/grades/$c/report.txt"; } | grep -oE -m1 -- "$pat" | head -n 1)
        say "$c" "$score" OK "$exp$([ "$pat" = - ] || echo ": $x")"
    fi
}

sums >"$t/sums.after"
pwned >"$t/pwned.after"

echo "== hostile submissions of lab 01 ($([ $gpu = 1 ] && echo "GPU" || echo "no GPU: score expectations that need one are SKIP"); seed $seed, PRIMLAB_TIMEOUT=$per_test, make grade took ${grade_s} s, exit $grade_rc)"
if [ -n "$table_max" ] && eq "$sol_max" "$table_max"; then
    say "[maximum]" "$(short "$sol_max")" OK "sol_a's maximum is the table's with the seed's hidden tests (lab01 list)"
else
    say "[maximum]" - FAIL "sol_a's maximum $(short "$sol_max") is not the table's ${table_max:-?} (PRIMLAB_SEED=$seed lab01 list)"
fi
while IFS='|' read -r c exp nogpu pat; do
    c=$(echo $c) exp=$(echo $exp) nogpu=$(echo $nogpu) pat=$(sed 's/^ *//; s/ *$//' <<<"$pat")
    [ -n "$c" ] || continue
    case "$c" in sol_a | sol_b | stub) ;; *) grep -qw -- "$c" <<<"${cases[*]}" || continue ;; esac
    check_case "$c" "$exp" "$pat" "$nogpu"
done <<<"$EXPECT"

# The solution alone scores as it does among the hostile ones.
if [ -f "$t/grades-alone/sol_a/scores.tsv" ] && same_rows sol_a "$t/grades" sol_a "$t/grades-alone"; then
    say "[sol_a alone]" "$(short "$(points sol_a all "$t/grades-alone")")/$(short "$(points sol_a max "$t/grades-alone")")" OK \
        "sol_a graded alone gets the rows it gets beside the hostile cases"
else
    say "[sol_a alone]" - FAIL "sol_a graded alone differs from sol_a beside the hostile cases (or was not graded: $(tail -n 1 "$t/grade-alone.out"))"
fi
# The grade output's last line is grade.sh's own.
last=$(tail -n 1 "$t/grade.out")
if [[ "$last" =~ ^graded\ [0-9]+,\ skipped\ [0-9]+\;\ gradebook:\ $t/grades/gradebook.csv$ ]] && ! grep -q hxforged "$t/grade.out"; then
    say "[last line]" - OK "$last"
else
    say "[last line]" - FAIL "the grade output ends '$last'$(grep -q hxforged "$t/grade.out" && echo ', and holds forged lines')"
fi
# Nothing changed that grading must leave alone.
changed=$(diff "$t/sums.before" "$t/sums.after" | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u | paste -sd ' ')
created=$(comm -13 <(sort "$t/pwned.before") <(sort -u "$t/pwned.after") | paste -sd ' ')
if [ -z "$changed" ] && [ -z "$created" ]; then
    say "[files unchanged]" - OK "kit ($(wc -l <"$t/sums.before") files), other student, submissions, canaries; no primlab-pwned file"
else
    say "[files unchanged]" - FAIL "${changed:+changed: $changed}${changed:+${created:+; }}${created:+created: $created}"
fi
# The grading kit (make grade's copy of the handout) is still the handout.
handout=dist/primlab-handout-$(cat VERSION).tar.gz
if [ -d build/grade-kit ] && [ -f "$handout" ]; then
    mkdir -p "$t/handout" && tar -xzf "$handout" -C "$t/handout"
    kdiff=$(diff -rq --exclude=build "$t/handout/primlab-handout-$(cat VERSION)" build/grade-kit 2>&1 | head -n 5 | paste -sd ' ')
    if [ -z "$kdiff" ]; then
        say "[grading kit intact]" - OK "build/grade-kit is still $handout"
    else
        say "[grading kit intact]" - FAIL "build/grade-kit differs from $handout: $kdiff"
    fi
fi
# No process of a case outlives grading.
survivors=$(for p in /proc/[0-9]*; do
    comm=$(cat "$p/comm" 2>/dev/null) cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")
    case "$comm $cmd" in hx-* | *lab01-worker\ --serve* | *primlab-hostile*bwrap*) echo "${p#/proc/}:$comm" ;; esac
done | paste -sd ' ')
if [ -z "$survivors" ]; then
    say "[no survivors]" - OK "no process named hx-* or running a lab01 worker"
else
    say "[no survivors]" - FAIL "alive after grading: $survivors"
fi
leftover=$(comm -13 "$t/copies.before" <(ls -d /tmp/primlab-worker-* 2>/dev/null | sort) | paste -sd ' ')
[ -z "$leftover" ] || echo "note: private worker copies left in /tmp: $leftover"
if [ $grade_rc -gt 1 ]; then
    say "[make grade]" - FAIL "exit status $grade_rc: $(tail -n 3 "$t/grade.out" | paste -sd ' ')"
fi

echo "$pass passed, $fail failed, $skip skipped ($(($(date +%s) - start)) s)"
[ $fail = 0 ]
