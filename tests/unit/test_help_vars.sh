#!/usr/bin/env bash
# tests/unit/test_help_vars.sh: every variable an instructor may set is named by
# `make help`. The variables are found in the code, not listed by hand:
# the PRIMLAB_* and GRADE_* names the scripts of harness/ read
# (${NAME...}), the PRIMLAB_* names the grader's C code reads (getenv), and
# make grade's own: every name harness/grade.sh reads from its environment
# (${NAME:-...}, ${NAME+x}: LAB, LABS, STUDENT, FORCE, JOBS, SLURM, ...) and
# the make variables of the Makefile's grade recipe (SUBMISSIONS, GRADES),
# less those below that the kit sets for itself or that serve its own
# tests, each with the reason. A new variable read anywhere then fails this
# test until make help names it (or it is added below, with why no
# instructor sets it); the names an instructor grading a class sets
# (grade_vars) must be found, so that the search cannot miss them. The
# variables of an LMS's files (DUE, LATE, ROSTER, ASSIGNMENT) have no
# prefix: they are listed below by name.
set -u
cd "$(dirname "$0")/../.." || exit 2
declare -A internal=(
    [PRIMLAB_REQUIRE_SANDBOX]="set by make grade for its own build and lab binaries"
    [PRIMLAB_SANDBOX_HIDE]="set by make grade: the folders student code may not see"
    [PRIMLAB_SANDBOX_DEV]="a test's switch for the sandbox's /dev (tests/test_worker_client)"
    [PRIMLAB_NVIDIA_GPUS]="a test's stand-in for /proc/driver/nvidia/gpus"
    [PRIMLAB_NO_SANDBOX]="a student's own runs without bubblewrap; never for grading (the worker warns)"
    [PRIMLAB_WORKER_PROFILE]="set by make profile and the compute-sanitizer hint a report prints"
    [CUDA_VISIBLE_DEVICES]="the GPUs a container or Slurm allocation gives; an instructor picks them with PRIMLAB_GPUS"
    [Q]="the Makefile's own echo switch (V=1 turns it off)"
    [CC]="make's own C compiler variable (make CC=clang), which grade.sh's check of Check's header uses as make would"
)
grade_vars=(LAB LABS STUDENT FORCE JOBS SLURM GRADES SUBMISSIONS PRIMLAB_SEED PRIMLAB_NO_GPU GRADE_TIMEOUT)
help=$(make -s --no-print-directory help 2>&1)
found=$( {
    grep -ohE '\$\{(PRIMLAB|GRADE)_[A-Z_]+' harness/*.sh harness/labs/*.sh 2>/dev/null | sed 's/^\${//'
    grep -ohE 'getenv\("PRIMLAB_[A-Z_]+"\)|pl_env_seconds\("PRIMLAB_[A-Z_]+"' harness/parent/*.c | sed -E 's/.*\("([A-Z_]+)".*/\1/'
    grep -ohE '\$\{[A-Z][A-Z0-9_]*[:+-]' harness/grade.sh | sed -E 's/^\$\{//; s/[:+-]$//'
    sed -n '/^grade:/,/^$/p' Makefile | grep -oE '\$\([A-Z][A-Z_]*\)' | sed -E 's/^\$\(//; s/\)$//'
} | sort -u)
pass=0 fail=0
for v in $found; do
    if [ -n "${internal[$v]:-}" ]; then
        continue
    elif grep -qw -- "$v" <<<"$help"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $v is read by the kit ($(grep -rlw -- "$v" harness | head -n 1)) but make help does not name it"
        fail=$((fail + 1))
    fi
done
# the make variables of an LMS's files that harness/grade.sh reads (harness/lms.py)
for v in DUE LATE ROSTER ASSIGNMENT; do
    if ! grep -q "\${$v[:}-]" harness/grade.sh; then
        echo "FAIL: $v is listed here, but harness/grade.sh no longer reads it"; fail=$((fail + 1))
    elif grep -qw -- "$v" <<<"$help"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $v is read by harness/grade.sh but make help does not name it"; fail=$((fail + 1))
    fi
done
for v in "${!internal[@]}"; do
    grep -qw -- "$v" <<<"$found" || { echo "FAIL: $v is listed as internal here, but nothing reads it any more"; fail=$((fail + 1)); }
done
for v in "${grade_vars[@]}"; do
    grep -qxF -- "$v" <<<"$found" || { echo "FAIL: make grade's $v is not found in the code: the search is broken"; fail=$((fail + 1)); }
done
[ "$pass" -ge 10 ] || { echo "FAIL: only $pass variables found in the code: the search is broken"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed ($(wc -w <<<"$found") variables read, ${#internal[@]} the kit's own)"
[ $fail = 0 ]
