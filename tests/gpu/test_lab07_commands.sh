#!/usr/bin/env bash
# tests/gpu/test_lab07_commands.sh: lab 07's own command-line errors, with or
# without a GPU: --matrix belongs to run and table (a usage error elsewhere,
# status 2); without a GPU, table says so in one line and exits 1. Prints
# `name OK|FAIL line`, then `N passed, N failed`.
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=build/solutions/lab07
[ -f solutions/07-segmented-spmv/segmented_spmv.cu ] || bin=build/labs/lab07 # a handout: the same table
make -s --no-print-directory $bin >/dev/null 2>&1 || { echo "test_lab07_commands: make failed" >&2; exit 2; }
pass=0 fail=0
out=$($bin check --matrix /nonexistent.mtx 2>&1); rc=$?
if [ $rc = 2 ] && grep -q -- "--matrix '/nonexistent.mtx' is for" <<<"$out"; then
    echo "usage    OK    check --matrix: $(head -n 1 <<<"$out" | cut -c 1-160)"; pass=$((pass + 1))
else
    echo "usage    FAIL  check --matrix: status $rc: $(head -n 1 <<<"$out" | cut -c 1-160)"; fail=$((fail + 1))
fi
if ! $bin info >/dev/null 2>&1; then
    out=$($bin table 2>&1); rc=$?
    if [ $rc = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q '^lab07 table: no GPU (' <<<"$out"; then
        echo "table    OK    $out"; pass=$((pass + 1))
    else
        echo "table    FAIL  status $rc: $(head -n 2 <<<"$out" | tr '\n' ' ' | cut -c 1-200)"; fail=$((fail + 1))
    fi
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
