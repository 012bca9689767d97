#!/usr/bin/env bash
# tests/grading/test_infra.sh: a failure of the grading machine is never the
# student's. Parts of this machine are taken away from the kit with
# bubblewrap (a file bound over with /dev/null, so it cannot be read), and:
#   1. make check (harness/check.sh) on lab 01's solution without Check's
#      header: the kit's lab binary does not build, so one line names the
#      grading machine, no Score line, no scores or results (a stale
#      results.json goes too), status 3;
#   2. a student's file that does not compile still "does not compile" and
#      scores 0 of the lab's points (the kit built, the student's code not);
#      but when the compiler's sandbox cannot start (as root: bwrap out of
#      uid 65534's reach), the lab's stub does not build either, and the
#      same file is the grading machine's failure; and when the sandbox
#      is short of processes for a while (bwrap's EAGAIN), it is started
#      again and the file compiles;
#   3. a shared library of the lab binary unreadable: it cannot start, the
#      same treatment as 1;
#   4. make grade (harness/grade.sh) over two students without Check's
#      header: the machine is checked before anything is built, and one
#      line for the instructor says what is missing and what to do: nobody
#      graded, nothing recorded (no GRADES folder at all), status 3; on a
#      machine without a GPU the same without PRIMLAB_NO_GPU=1; then, the
#      machine fixed, a rerun grades both; a shared library of the lab
#      binary unreadable is met under the first student: both ungraded,
#      with the reason in GRADES/.ungraded.tsv, with JOBS=1 (ben is never
#      started) and with JOBS=2 on two GPUs (both start; each fails with
#      the reason, one line says the other is let finish, the stop line
#      names the first);
#   5. make check without a GPU: the Score line says no test could run;
#      under AUTOLAB=1 no Autolab scores line at all, and status 3.
# Needs no GPU (the runs that grade use PRIMLAB_NO_GPU=1, the dry run); one
# lab is built. Prints one line per check, then `N passed, N failed, N
# skipped`; without a bwrap that can bind over a file here, the checks that
# need one say SKIP and count as nothing.
set -u
cd "$(dirname "$0")/../.." || exit 2
t=$(mktemp -d)
trap 'rm -rf "$t" build/impl-"${t//\//-}"-*' EXIT
unset PRIMLAB_SEED
export PRIMLAB_LIMITS=0 PRIMLAB_TIMEOUT=10
# make test runs tests/grading/test_grading.sh beside this one, which also grades
# in this kit: wait for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=900

. tests/lib/verdict.sh # say, verdict, finish, and the counts
# without FILE CMD...: CMD with FILE unreadable (/dev/null bound over it)
without() {
    local f
    f=$(realpath "$1")
    shift
    bwrap --dev-bind / / --ro-bind /dev/null "$f" "$@"
}

# The kit's shared parts are built first, as they are: only the runs below
# meet the missing file, and only in their own build folders. So is the
# grading kit (make grade of an empty class builds it): a kit built by a run
# that cannot read a library would be broken for every later run (a lab
# binary linked without OpenMP's shared library went unnoticed that way).
mkdir -p "$t/none"
make -s --no-print-directory build/primlab-results build/tables/lab01 build/labs/lab01 build/labs/lab01-worker \
    build/vendor/lab01-worker >"$t/make.log" 2>&1 && PRIMLAB_NO_GPU=1 harness/grade.sh "$t/none" "$t/none-grades" >>"$t/make.log" 2>&1 ||
    { echo "test_infra: make failed: $(tail -n 3 "$t/make.log")"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
check_h=$(echo '#include <check.h>' | cpp -H -o /dev/null 2>&1 | sed -n 's/^\. //p' | head -n 1)
lib=$(ldd build/tables/lab01 | awk '$3 ~ /^\// && $1 ~ /^lib(check|subunit)/ { print $3; exit }')
[ -n "$lib" ] || lib=$(ldd build/tables/lab01 | awk '$3 ~ /^\// && $1 ~ /^libgomp/ { print $3; exit }')
bw=""
if ! command -v bwrap >/dev/null; then
    bw="bwrap is not installed"
elif [ -z "$check_h" ]; then
    bw="the compiler finds no check.h to hide"
elif ! err=$(without "$check_h" true 2>&1); then
    bw="bwrap cannot bind over a file here ($(head -n 1 <<<"$err"))"
fi
# make grade needs a sandbox of its own (sb), inside the one that hides a
# file when it runs there (bwg)
sb=""
command -v bwrap >/dev/null && err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1) ||
    sb="bwrap is missing or cannot start a sandbox here ($(head -n 1 <<<"${err:-not installed}")): make grade needs it"
bwg=${bw:-$sb}
if [ -z "$bw" ] && ! err=$(without "$check_h" bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    bwg="bwrap cannot start a sandbox inside another here ($(head -n 1 <<<"$err"))"
fi

sol=solutions/01-prefix-sum/prefix_sum.cu
[ -f "$sol" ] || sol=labs/01-prefix-sum/prefix_sum.cu # a handout: the stub
mkdir -p "$t/sub/01-prefix-sum" "$t/bad/01-prefix-sum" "$t/subs/ann/01-prefix-sum" "$t/subs/ben/01-prefix-sum"
cp "$sol" "$t/sub/01-prefix-sum/prefix_sum.cu"
echo "int oops = ;" >"$t/bad/01-prefix-sum/prefix_sum.cu"
cp labs/01-prefix-sum/prefix_sum.cu "$t/subs/ann/01-prefix-sum/"
cp labs/01-prefix-sum/prefix_sum.cu "$t/subs/ben/01-prefix-sum/"

# no_grade LOG OUT STATUS WHAT: the problems of a run that must stop for the
# grading machine, saying WHAT (a pattern), and record nothing in OUT
no_grade() {
    local p=""
    [ "$3" = 3 ] || p="$p; exit status $3, not 3"
    grep -qE "^check: the grading machine $4 \(not your code\): ." "$1" || p="$p; no line 'check: the grading machine $4 (not your code): ...'"
    ! grep -q '^Score' "$1" || p="$p; a Score line: $(grep -m 1 '^Score' "$1")"
    [ ! -e "$2/scores.tsv" ] || p="$p; scores.tsv written"
    [ ! -e "$2/results.json" ] || p="$p; a results.json left"
    ! grep -q '^{"scores"' "$1" || p="$p; an Autolab scores line"
    echo "$p"
}

# ---------------------------------------------------------------- 1
name="check: Check's header missing: the kit does not build, nothing graded (status 3)"
if [ -n "$bw" ]; then
    say SKIP "$name" "$bw"
else
    mkdir -p "$t/o1" && echo '{"score": 99}' >"$t/o1/results.json" # a stale result of an earlier run
    without "$check_h" env CHECK_OUT="$t/o1" AUTOLAB=1 harness/check.sh "$t/sub" 01 >"$t/1.log" 2>&1
    # which of the kit's parts meets the missing header first, and what the
    # compiler says of it (no such file, permission denied where Check is
    # reached through CPATH), is not the point: the machine is blamed
    verdict "$name" "$(no_grade "$t/1.log" "$t/o1" $? "cannot (build|start) the kit's [^ ]+")" "$t/1.log"
fi

# ---------------------------------------------------------------- 2
CHECK_OUT=$t/o2 harness/check.sh "$t/bad" 01 >"$t/2.log" 2>&1
rc=$?
p=""
[ $rc = 1 ] || p="$p; exit status $rc, not 1"
grep -q '^lab01: does not compile: 0 points' "$t/2.log" || p="$p; no 'does not compile: 0 points'"
grep -qE '^Score: 0/[1-9]' "$t/2.log" || p="$p; no 'Score: 0/N'"
grep -q 'the grading machine' "$t/2.log" && p="$p; blamed on the grading machine"
awk -F '\t' '$5 == "NOBUILD" && $6 == 0 && $7 > 0 { ok = 1 } END { exit !ok }' "$t/o2/scores.tsv" 2>/dev/null ||
    p="$p; no NOBUILD row scoring 0 of the lab's points"
verdict "check: a student's file that does not compile: 0 points, as before" "$p" "$t/2.log"

# 2b. Run as root, the compiler's sandbox starts as uid 65534: with bwrap
# only in folders that uid cannot read, it cannot start, and the lab's stub
# does not build either: the machine's failure, not the student's.
name="check: the compiler's sandbox cannot start: not the student's file, nothing graded (status 3)"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
    say SKIP "$name" "needs root (the compiler's sandbox then starts as uid 65534)"
elif [ -n "$sb" ]; then
    say SKIP "$name" "$sb"
else
    IFS=: read -r -a dirs <<<"$PATH"
    path=()
    for d in "${dirs[@]}"; do # a folder with bwrap: a copy of its links only root can read
        if [ -e "$d/bwrap" ]; then
            links=$(mktemp -d "$t/path.XXXXXX") && chmod 700 "$links" && ln -s "$d"/* "$links/" && d=$links
        fi
        path+=("$d")
    done
    PATH=$(IFS=:; echo "${path[*]}") PRIMLAB_REQUIRE_SANDBOX=1 PRIMLAB_NO_GPU=1 CHECK_OUT=$t/o2b \
        harness/check.sh "$t/bad" 01 >"$t/2b.log" 2>&1
    p=$(no_grade "$t/2b.log" "$t/o2b" $? "cannot build the kit's own code for lab01 either")
    grep -q 'does not compile' "$t/2b.log" && p="$p; blamed on the student's file"
    verdict "$name" "$p" "$t/2b.log"
fi

# 2c. The sandboxes short of processes for a while (bwrap fails for want
# of them, EAGAIN, as when uid 65534's limit, which every sandbox shares,
# is full): a bwrap first on PATH fails twice so, then runs the real one.
# The student's file is compiled and graded as usual (no "does not
# compile", no machine's fault): the sandbox is started again.
name="check: a sandbox short of processes for a while is started again: the file compiles, graded as usual"
if [ -n "$sb" ]; then
    say SKIP "$name" "$sb"
else
    fb=$(mktemp -d /tmp/primlab-bwrap.XXXXXX) && chmod 755 "$fb" && : >"$fb/count" && chmod 666 "$fb/count"
    printf '#!/bin/sh\necho x >>%s/count\nif [ "$(wc -l <%s/count)" -le 2 ]; then\n  echo "bwrap: Creating new namespace failed: Resource temporarily unavailable" >&2; exit 1\nfi\nexec %s "$@"\n' \
        "$fb" "$fb" "$(command -v bwrap)" >"$fb/bwrap" && chmod 755 "$fb/bwrap"
    PATH=$fb:$PATH PRIMLAB_REQUIRE_SANDBOX=1 PRIMLAB_NO_GPU=1 CHECK_OUT=$t/o2c harness/check.sh "$t/sub" 01 >"$t/2c.log" 2>&1
    rc=$?
    p=""
    [ $rc = 1 ] || p="$p; exit status $rc, not 1 (a dry run)"
    grep -q '^lab01: compiled prefix_sum.cu$' "$t/2c.log" || p="$p; no 'lab01: compiled prefix_sum.cu'"
    grep -q 'does not compile\|grading machine' "$t/2c.log" && p="$p; $(grep -m 1 'does not compile\|grading machine' "$t/2c.log")"
    [ "$(wc -l <"$fb/count")" -gt 2 ] || p="$p; (the stand-in bwrap ran $(wc -l <"$fb/count") times: not tried)"
    verdict "$name" "$p" "$t/2c.log"
    rm -rf "$fb"
fi

# ---------------------------------------------------------------- 3
name="check: a shared library missing (${lib##*/}): the kit cannot start, nothing graded (status 3)"
if [ -n "$bw" ]; then
    say SKIP "$name" "$bw"
elif [ -z "$lib" ]; then
    say SKIP "$name" "the lab binary links no shared library to hide (ldd build/tables/lab01)"
else
    # the kit's parts of $t/bad are built (2), so nothing is linked here
    without "$lib" env CHECK_OUT="$t/o3" harness/check.sh "$t/bad" 01 >"$t/3.log" 2>&1
    p=$(no_grade "$t/3.log" "$t/o3" $? "cannot start the kit's [^ ]*")
    grep -q 'error while loading shared libraries' "$t/3.log" || p="$p; the loader's reason is not shown"
    verdict "$name" "$p" "$t/3.log"
fi

# ---------------------------------------------------------------- 4
g=$t/grades
# ungraded LOG STATUS WHAT JOBS: the problems of a make grade that must
# leave ann and ben ungraded for WHAT (a pattern). JOBS=1: the kit fails at
# ann's grade and ben is never started (or it fails before anyone's: a
# bootstrap that checks the header itself); JOBS=2: both start at once on
# two GPUs, both fail, each with the machine's reason, and one line says
# that the other, already being graded, is let finish (the rule of
# docs/grading-a-class.md: no student started after a failure, those
# running finish)
ungraded() {
    local p="" who first
    [ "$2" = 3 ] || p="$p; exit status $2, not 3"
    if [ "$4" = 1 ]; then
        grep -qE "^(   |== ann: )not graded: the grading machine $3" "$1" || p="$p; no 'not graded: the grading machine $3'"
        grep -qE "^== ben: not graded: (grading stopped at ann|the grading machine $3)" "$1" ||
            p="$p; ben not reported as not graded"
        tail -n 1 "$1" | grep -qE "^grade: (stopped at ann: the grading machine failed|the grading machine $3.*nobody graded)" ||
            p="$p; no stop line last"
    else
        for who in ann ben; do
            grep -A 1 -x "== $who" "$1" | grep -qE "^   not graded: the grading machine $3" ||
                p="$p; $who not 'not graded: the grading machine $3'"
        done
        first=$(sed -n 's/^grade: the grading machine failed under \([a-z]*\): no student is started after it; .*/\1/p' "$1")
        case "$first" in
        ann) who=ben ;; ben) who=ann ;; *) who=""; p="$p; no line 'the grading machine failed under ...: no student is started after it'" ;;
        esac
        [ -z "$who" ] || grep -q "^grade: the grading machine failed under $first: .*; $who, already being graded on another GPU, is let finish$" "$1" ||
            p="$p; the line does not say that ${who:-the other} is let finish"
        tail -n 1 "$1" | grep -qE "^grade: stopped at ${first:-ann}: the grading machine failed" || p="$p; no stop line naming ${first:-ann} last"
    fi
    for who in ann ben; do
        [ ! -e "$g/$who" ] || p="$p; $who has results"
        ! grep -qs "^$who"$'\t' "$g/.graded.tsv" || p="$p; $who is in the record"
        grep -q "^$who," "$g/gradebook.csv" 2>/dev/null && p="$p; $who has a gradebook row"
        grep -qs "^$who"$'\t' "$g/.ungraded.tsv" || p="$p; $who is not in .ungraded.tsv"
    done
    for who in ann $([ "$4" = 1 ] || echo ben); do
        grep -qsE "^$who"$'\t'".*"$'\t'"the grading machine $3" "$g/.ungraded.tsv" || p="$p; $who's reason is not in .ungraded.tsv"
    done
    echo "$p"
}
# not_ready LOG STATUS WHAT: the problems of a make grade that must refuse
# before anything is built, in one line for the instructor saying WHAT (a
# pattern), and record nothing (no GRADES folder)
not_ready() {
    local p=""
    [ "$2" = 3 ] || p="$p; exit status $2, not 3"
    [ "$(grep -c . "$1")" = 1 ] || p="$p; not one line"
    grep -qE "^grade: $3.*: nobody graded\. .+\.$" "$1" || p="$p; no line 'grade: $3 ...: nobody graded. <what to do>.'"
    [ ! -e "$g" ] || p="$p; '$g' was made"
    echo "$p"
}
name="grade: Check's header missing: refused before any build, one line, nothing recorded (status 3)"
if [ -n "$bwg" ]; then
    say SKIP "$name" "$bwg"
else
    without "$check_h" env PRIMLAB_NO_GPU=1 harness/grade.sh "$t/subs" "$g" >"$t/4a.log" 2>&1
    verdict "$name" "$(not_ready "$t/4a.log" $? "the unit test library Check is not installed")" "$t/4a.log"
fi
# the machine's failure met under a student (OpenMP's library, which the
# kit's lab binaries need, cannot be read: Check's header is there, so the
# check before the build passes): both listed as ungraded with the reason;
# one student at a time, then two at once on two GPUs (PRIMLAB_GPUS: the
# same on a machine with none, one or two)
gomp=$(ldd build/tables/lab01 | awk '$3 ~ /^\// && $1 ~ /^libgomp/ { print $3; exit }') # in every kit's lab binaries
for jobs in 1 2; do
    name="grade JOBS=$jobs: a shared library of the lab binary unreadable: both students ungraded with the reason (status 3)"
    if [ -n "$bwg" ] || [ -z "$gomp" ]; then
        say SKIP "$name" "${bwg:-no shared library of the lab binary to hide}"
    else
        without "$gomp" env PRIMLAB_NO_GPU=1 JOBS=$jobs PRIMLAB_GPUS="0 1" harness/grade.sh "$t/subs" "$g" >"$t/4a2.$jobs.log" 2>&1
        verdict "$name" "$(ungraded "$t/4a2.$jobs.log" $? "cannot (build|start) the kit's [^ ]+" $jobs)" "$t/4a2.$jobs.log"
    fi
    rm -rf "$g"
done
# make grade is grade.sh and nothing before it: a prerequisite that compiles
# would meet the missing header first, and fail as make, with no reason and
# nobody listed (as it did on a fresh GPU machine)
name="make grade: nothing compiled before harness/grade.sh (which reports the kit's failures)"
# (a make of its own: under `make -j test` the jobserver's flags would
# reach it, and with them make's warning about the jobserver)
mk=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n --no-print-directory -W harness/parent/results.c -W harness/parent/driver.c grade \
    SUBMISSIONS="$t/subs" GRADES="$g" 2>&1)
if [ "$mk" = "harness/grade.sh \"$t/subs\" \"$g\"" ]; then say OK "$name"
else say FAIL "$name" "make -n grade runs: $(head -n 2 <<<"$mk" | cut -c 1-120 | paste -sd ' ')"; fi
name="grade: no GPU (PRIMLAB_NO_GPU unset): refused before any build, one line, nothing recorded (status 3)"
if [ -n "$sb" ]; then
    say SKIP "$name" "$sb"
elif has_gpu; then
    say SKIP "$name" "this machine has a GPU"
else
    env -u PRIMLAB_NO_GPU -u CUDA_VISIBLE_DEVICES -u PRIMLAB_GPUS harness/grade.sh "$t/subs" "$g" >"$t/4b.log" 2>&1
    verdict "$name" "$(not_ready "$t/4b.log" $? "no GPU (driver|is visible)")" "$t/4b.log"
fi
name="grade: the machine fixed, a rerun grades both"
if [ -n "$sb" ]; then
    say SKIP "$name" "$sb"
else
    PRIMLAB_NO_GPU=1 harness/grade.sh "$t/subs" "$g" >"$t/4c.log" 2>&1
    rc=$?
    p=""
    [ $rc = 0 ] || p="$p; exit status $rc"
    grep -q '^graded 2, skipped 0; gradebook: ' "$t/4c.log" || p="$p; not 'graded 2, skipped 0'"
    for who in ann ben; do
        grep -q "^$who," "$g/gradebook.csv" 2>/dev/null || p="$p; no gradebook row for $who"
        [ -f "$g/$who/results.json" ] || p="$p; no results for $who"
    done
    [ ! -e "$g/.ungraded.tsv" ] || p="$p; .ungraded.tsv is still there"
    verdict "$name" "$p" "$t/4c.log"
fi

# ---------------------------------------------------------------- 5
# (the dry run's reason; a machine without a GPU gives its own, the same way)
CHECK_OUT=$t/o5 PRIMLAB_NO_GPU=1 harness/check.sh "$t/sub" 01 >"$t/5.log" 2>&1
rc=$?
p=""
[ $rc = 1 ] || p="$p; exit status $rc, not 1"
[ "$(grep -c '^Score' "$t/5.log")" = 1 ] || p="$p; not one Score line"
grep -q '^Score: none, no test could run on this machine: no GPU (' "$t/5.log" ||
    p="$p; the Score line does not say no test could run: $(grep -m 1 '^Score' "$t/5.log")"
verdict "check: without a GPU the Score line says no test could run here" "$p" "$t/5.log"

# ... and under AUTOLAB=1: no scores line that Autolab would take for a grade
CHECK_OUT=$t/o6 AUTOLAB=1 PRIMLAB_NO_GPU=1 harness/check.sh "$t/sub" 01 >"$t/6.log" 2>&1
rc=$?
p=""
[ $rc = 3 ] || p="$p; exit status $rc, not 3"
! grep -q '^{"scores": ' "$t/6.log" || p="$p; Autolab's scores line printed: $(grep -m 1 '^{"scores": ' "$t/6.log")"
grep -q '^check: no scores for Autolab: no test could run on this machine' "$t/6.log" || p="$p; no line saying why"
verdict "check, AUTOLAB=1, without a GPU: no Autolab scores line, status 3" "$p" "$t/6.log"

finish
