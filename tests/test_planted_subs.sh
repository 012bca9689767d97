#!/usr/bin/env bash
# tests/test_planted_subs.sh: the planted lab-01 submissions of the grading
# issue (tests/planted-subs/make.py: a faulting kernel, a hang, a write past
# the end, a host segfault, a compile error, hard-coded answers, a slow
# scan), each graded by `make check` one test per line (V=1), must get the
# same reasons as before the worker split, and the test after each crash or
# hang must pass on a fresh worker. Needs a GPU for all but the compile
# error; without one the rest say SKIP and count as nothing.
set -u
pass=0 fail=0 skip=0
t=$(mktemp -d)
trap 'rm -rf "$t" build/impl-"${t//\//-}"-*' EXIT
python3 tests/planted-subs/make.py "$t" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
gpu=1
build/tables/lab01 list >/dev/null 2>&1 || make -s build/tables/lab01 >/dev/null
if ! build/solutions/lab01 info >/dev/null 2>&1; then gpu=0; fi
# lab 01's maximum, public and with the grading seed's hidden tests, as its
# table says (the limit tests left out, as below)
max=$(PRIMLAB_LIMITS=0 build/tables/lab01 list | sed -n 's/^total: \([0-9.]*\) points$/\1/p')
max_secret=$(PRIMLAB_LIMITS=0 PRIMLAB_SEED=20261123 build/tables/lab01 list | sed -n 's/^total: \([0-9.]*\) points$/\1/p')

# The limit tests (2^31 elements) are left out: they are the subject of
# make check, not of these reasons, and would take seconds per case.
grade() { # grade CASE [ENV...]: the report, one test a line
    env V=1 PRIMLAB_TIMEOUT=10 PRIMLAB_LIMITS=0 "${@:2}" harness/check.sh "$t/$1" 01 >"$t/$1.out" 2>&1
}
expect() { # expect CASE WHAT PATTERN...: every pattern in the case's report
    local c=$1 what=$2
    shift 2
    for p in "$@"; do
        if ! grep -qE -- "$p" "$t/$c.out"; then
            fail=$((fail + 1))
            printf '%-11s FAIL  %s: no line matches /%s/\n' "$c" "$what" "$p"
            sed 's/^/      /' "$t/$c.out" | head -40
            return
        fi
    done
    pass=$((pass + 1))
    printf '%-11s OK    %s: %s\n' "$c" "$what" "$(grep -E -m1 -A1 -- "$1" "$t/$c.out" | tr -s ' ' | tr '\n' ' ' | cut -c1-150)"
}

grade no_compile
expect no_compile "compile error" "does not compile" "subtotal: 0/$max"
if [ $gpu = 0 ]; then
    echo "SKIP: planted submissions that need a GPU (7 cases): no GPU; not counted as passed"
    skip=7
else
    for c in solution oob_fault hang past_end host_segv slow hardcoded; do grade $c; done
    grade hardcoded PRIMLAB_SEED=20261123; mv "$t/hardcoded.out" "$t/hardcoded_secret.out"
    grade hardcoded
    expect solution "full marks" "Score: $max/$max"
    expect oob_fault "kernel fault, next test passes" "n=31 +ERROR" "kernel fault in scan_exclusive: an illegal memory access" \
        "01.c exclusive scan, any n, n=32 +OK"
    expect hang "hang killed, next test passes" "n=65537 +TIMEOUT" "timed out after 10 s" \
        "01.b inclusive scan, any n, n=4194307 +OK"
    expect past_end "write past the end" "01.c exclusive scan, any n, n=1025 +FAIL" "wrote past the end of the output"
    expect host_segv "host segfault, next test passes" "01.a inclusive scan, one block, n=33 +CRASH" \
        "crashed: segmentation fault in host code" "01.a inclusive scan, one block, n=1023 +OK"
    expect slow "slow scan: some performance points" "01.b performance .* OK .* 0\.[0-9]+/2" "its throughput"
    expect hardcoded "hard-coded answers pass the public tests" "01.c exclusive scan, any n, n=67108864 +OK"
    # Under the seed no answer kept from the public inputs is right, but an
    # n = 1 input of 0..7 still matches by chance one time in eight: a few
    # points at most, and never a hidden size.
    expect hardcoded_secret "hard-coded answers fail under PRIMLAB_SEED" "Score: [0-4](\.[0-9]+)?/$max_secret" "\(hidden\)"
    if grep -qE "\(hidden\) +OK" "$t/hardcoded_secret.out"; then
        fail=$((fail + 1)); echo "hardcoded_secret FAIL  a hidden size passed: $(grep -m1 -E '\(hidden\) +OK' "$t/hardcoded_secret.out")"
    fi
fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
