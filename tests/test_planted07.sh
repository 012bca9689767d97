#!/usr/bin/env bash
# tests/test_planted07.sh: lab 07's planted bugs, each the solution with one
# line changed (sed), built as a submission and checked on the parts and
# inputs where the bug shows; each must be named in the first line of its
# diagnosis:
#   carry    part d, the carry between tiles of 4096 entries dropped
#   heads    part d, only row 0's head flag set (the others ignored)
#   excl     part c, each entry given the sum before it (exclusive scan)
# and the untouched stub must say "not implemented yet" on every part.
# Prints `name OK|FAIL line`, then `N passed, N failed`; needs a GPU
# (without one it says SKIP); PLANT_ONLY=1 only plants and builds (no GPU
# needed). plant and expect: tests/lib_planted.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
sol=solutions/07-segmented-spmv/segmented_spmv.cu
[ -f "$sol" ] || { echo "SKIP: planted bugs of lab 07: no solution here; not counted as passed"; exit 0; }
make -s --no-print-directory build/solutions/lab07 >/dev/null 2>&1 || { echo "test_planted07: make failed" >&2; exit 2; }
pass=0 fail=0
# The table command's own errors, with or without a GPU: --matrix belongs to
# run and table (a usage error elsewhere, status 2); without a GPU, table
# says so in one line and exits 1.
out=$(build/solutions/lab07 check --matrix /nonexistent.mtx 2>&1); rc=$?
if [ $rc = 2 ] && grep -q -- "--matrix '/nonexistent.mtx' is for" <<<"$out"; then
    echo "usage    OK    check --matrix: $(head -n 1 <<<"$out" | cut -c 1-160)"; pass=$((pass + 1))
else
    echo "usage    FAIL  check --matrix: status $rc: $(head -n 1 <<<"$out" | cut -c 1-160)"; fail=$((fail + 1))
fi
if ! build/solutions/lab07 info >/dev/null 2>&1; then
    out=$(build/solutions/lab07 table 2>&1); rc=$?
    if [ $rc = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q '^lab07 table: no GPU (' <<<"$out"; then
        echo "table    OK    $out"; pass=$((pass + 1))
    else
        echo "table    FAIL  status $rc: $(head -n 2 <<<"$out" | tr '\n' ' ' | cut -c 1-200)"; fail=$((fail + 1))
    fi
    if [ "${PLANT_ONLY:-0}" != 1 ]; then
        echo "$pass passed, $fail failed"
        echo "SKIP: planted bugs of lab 07: no GPU; not counted as passed"
        [ $fail = 0 ] || exit 1
        exit 0
    fi
fi
t=$(mktemp -d /tmp/primlab-planted07.XXXXXX) || exit 2
trap 'rm -rf "$t" build/impl-*primlab-planted07.*' EXIT

. tests/lib_planted.sh # plant, expect

if plant carry 's/carry \? carry\[blockIdx\.x\] : 0\.f/0.f/'; then
    expect carry 'the carry dropped between blocks of 4096 entries' "$bin" --part d --n 65537 --param 'long rows'
fi
if plant heads 's/(\n\s*)(atomicOr\(&word\[h \/ 32\], 1u << \(h % 32\)\);)/$1if (r == 0) $2/; s/(\n\s*)(atomicMax\(&last, h\);)/$1if (r == 0) $2/'; then
    expect heads "rows not restarted: the scan runs on across a row's start" "$bin" --part d --n 65537 --param uniform
fi
# part c's store of the running value, given the value before it instead
if plant excl 's/v \+= carry;\n(\s*)if \(j < end\)\n\s*a\[j\] = v;/v += carry;\n$1float ex_ = __shfl_up_sync(FULL, v, 1);\n$1if (j < end)\n$1    a[j] = lane ? ex_ : carry;/'; then
    expect excl 'an exclusive scan, not inclusive' "$bin" --part c --n 1000 --param uniform
fi
make -s --no-print-directory build/labs/lab07 build/labs/lab07-worker >/dev/null 2>&1
for p in a b c d; do
    param=uniform; [ $p = a ] && param='uniform 1 thread'
    expect "stub.$p" 'not implemented yet' build/labs/lab07 --part "$p" --n 1000 --param "$param"
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
