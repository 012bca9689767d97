#!/usr/bin/env bash
# tests/gpu/test_lab02_warps.sh: lab 02's part (w) without a GPU.
#
#   - the stub gives both unsafe warp scans (that the solution's copy of
#     them is the stub's: tests/unit/test_given_code.sh);
#   - part w is graded for correctness only (its tests are listed, it has no
#     performance test), and w0 and w1 are not parts of the table;
#   - `lab02 warps` counts wrong runs right: run against a fake worker
#     (tests/gpu/lab02_warps_worker.c) whose w0 is wrong every third call, whose
#     w1 is always wrong and whose w is right, then one whose w writes
#     nothing (a stub).
#
#   tests/gpu/test_lab02_warps.sh        (from the top of the kit, after make)
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=build/solutions/lab02
[ -x $bin ] || bin=build/labs/lab02 # a handout: the same table, and the fake worker stands in for the code
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # check NAME COMMAND...: passes when COMMAND succeeds
    local name=$1
    shift
    if "$@"; then
        pass=$((pass + 1)); echo "ok: $name"
    else
        fail=$((fail + 1)); echo "FAIL: $name"
    fi
}

# ---------------------------------------------------------- the given code
given() { sed -n '/given code, never graded/,/end of the given code/p' "$1"; }
stub=labs/02-blelloch-scan/blelloch_scan.cu
check "the stub gives both unsafe scans" test "$(given $stub | grep -c '^extern "C" void scan_warp_unsafe')" = 2
check "the stub leaves scan_warp_safe to the student" grep -q 'TODO(lab02).*' <(sed -n '/void scan_warp_safe/,/^}/p' $stub)

if [ ! -x $bin ]; then
    echo "SKIP: no $bin (run make first)"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]; exit
fi

# ------------------------------------------------------------ the table
PRIMLAB_LIMITS=1 $bin list >"$tmp/list"
check "part w: a test at each of the 13 sizes and its limit" test "$(grep -c '^  02\.w ' "$tmp/list")" = 14
check "part w: no performance test" test "$(grep -c '^  02\.w performance' "$tmp/list")" = 0
check "w0 and w1 are not graded" test "$(grep -c '^  02\.w[01] ' "$tmp/list")" = 0

# ------------------------------------------------------- lab02 warps
cc=${CC:-cc}
$cc -std=c11 -O2 -Wall -Wextra -o "$tmp/fake" tests/gpu/lab02_warps_worker.c &&
    $cc -std=c11 -O2 -Wall -Wextra -DSTUB -o "$tmp/fake-stub" tests/gpu/lab02_warps_worker.c || {
    echo "FAIL: tests/gpu/lab02_warps_worker.c does not build"
    echo "$pass passed, $((fail + 1)) failed"
    exit 1
}
# 6 runs: the fake's w0 is wrong on every third call, twice per size; 2^20 + 3
# takes the OpenMP reference
$bin warps --reps 6 --n 32,1025,1048579 --worker "$tmp/fake" --out "$tmp/warps.tsv" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
check "warps: exit 0 when the fix is never wrong" test $rc = 0
check "warps: w0 wrong in 2 of 6 runs at each size" test "$(grep -c '^  w0 .* 2 of 6; ' "$tmp/out")" = 3
check "warps: w1 wrong in 6 of 6 runs at each size" test "$(grep -c '^  w1 .* 6 of 6; ' "$tmp/out")" = 3
check "warps: w wrong in 0 of 6 runs at each size" test "$(grep -c '^  w  .* 0 of 6$' "$tmp/out")" = 3
check "warps: the first wrong run's diagnosis" grep -q 'w1 .*first: 1 of 32 values wrong, the first at index 31' "$tmp/out"
check "warps: the totals" grep -qx 'in all: w0 wrong in 6 of 18 runs, w1 wrong in 18 of 18 runs, w wrong in 0 of 18 runs' "$tmp/out"
check "warps: a TSV row for each version and size" \
    test "$(grep -v '^#' "$tmp/warps.tsv" | tr '\n' ' ')" = "version	n	runs	wrong w0	32	6	2 w1	32	6	6 w	32	6	0 w0	1025	6	2 w1	1025	6	6 w	1025	6	0 w0	1048579	6	2 w1	1048579	6	6 w	1048579	6	0 "
check "warps: the TSV names the device" grep -qx '# device: fake device' "$tmp/warps.tsv"

$bin warps --reps 4 --n 33 --worker "$tmp/fake-stub" >"$tmp/out-stub" 2>&1
rc=$?
check "warps, stub: exit 1 while the fix is missing" test $rc = 1
check "warps, stub: w not implemented yet" grep -q '^  w  .* 33  not implemented yet$' "$tmp/out-stub"
check "warps, stub: the unsafe versions still run" grep -q '^  w1 .* 4 of 4; ' "$tmp/out-stub"
check "warps, stub: the totals say so" grep -qx 'in all: w0 wrong in 1 of 4 runs, w1 wrong in 4 of 4 runs, w not implemented yet' "$tmp/out-stub"

$bin warps --n 32,0 --worker "$tmp/fake" >/dev/null 2>"$tmp/err"
check "warps: n = 0 is refused (exit 2)" test $? = 2

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
