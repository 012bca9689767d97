#!/bin/sh
# tests/unit/test_lab09_tiles.sh: what lab 09's handout says about the
# solution's tiles holds: each size it calls one past a tile is in the
# lab's test sizes (harness/parent/labs/lab09.c) and one key past a whole
# number of the tiles the solution takes at that size, for each part named
# (the sort of keys changes its tiles above 2^24); its tile sizes, shapes
# and counts are the solution's constants; its time a hand-off of the
# chained pass is the committed data over those tiles; and the sizes it
# lists are the lab's, no more, no fewer. The markers are described at the
# top of tests/unit/lab09_tiles.py, which does the checking.
#
#   sh tests/unit/test_lab09_tiles.sh       (from anywhere; no GPU)
#
# Prints the helper's 'ok N - ...' lines, then its self-tests (copies of
# the solution, the lab table and the handout, each with one thing changed,
# must fail at the claim it breaks), then the plan. Exits 0 when all hold
# and at least MIN_MARKERS (default 20) markers were checked; 77 without
# solutions/ (a student's handout), whose tiles it reads.
set -u
cd "$(dirname "$0")/../.." || exit 2
py=${PYTHON:-python3}
helper=tests/unit/lab09_tiles.py
readme=labs/09-onesweep-sort/README.md
sol=solutions/09-onesweep-sort/onesweep_sort.cu
lab=harness/parent/labs/lab09.c
min=${MIN_MARKERS:-20}
if [ ! -f "$sol" ]; then
    echo "SKIP: $sol is not here (a handout?): the tiles it checks are the solution's"
    exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
fail=0

"$py" $helper "$readme" >"$tmp/out"
rc=$?
grep -v '^#' "$tmp/out"
markers=$(sed -n 's/^# markers: \([0-9]*\) .*/\1/p' "$tmp/out")
n=$(sed -n 's/^# tests: \([0-9]*\)$/\1/p' "$tmp/out")
if [ -z "$markers" ] || [ -z "$n" ]; then
    echo "not ok 1 - lab 09's tiles: '$helper' did not run (exit $rc)"
    exit 1
fi
[ "$rc" = 0 ] || fail=1

# report NAME STATUS: one TAP line for a self-test (tests/lib/tap.sh)
. tests/lib/tap.sh

# ------------------------------------------------------------- self-tests
# breaks NAME FILE LINE-REGEX SED-EXPR EXPECT: with a copy of FILE (the
# solution, the lab table or the handout) whose first line matching
# LINE-REGEX is edited by SED-EXPR, the helper must fail with a 'not ok'
# line matching EXPECT.
breaks() {
    line=$(grep -n -m 1 -e "$3" "$2" | cut -d: -f1)
    if [ -z "$line" ]; then
        report "self-test: $1: no line of $2 matches '$3'" 1
        return
    fi
    sed "${line}$4" "$2" >"$tmp/copy"
    if cmp -s "$2" "$tmp/copy"; then
        report "self-test: $1: the edit changed nothing at $2:$line" 1
        return
    fi
    case $2 in
    "$sol") args="--solution $tmp/copy $readme" ;;
    "$lab") args="--lab $tmp/copy $readme" ;;
    *) args="$tmp/copy" ;;
    esac
    # shellcheck disable=SC2086 # paths without spaces
    "$py" $helper $args >"$tmp/self" 2>&1
    st=$?
    grep -q "^not ok [0-9]* - .*$5" "$tmp/self"
    found=$?
    [ "$st" = 1 ] && [ "$found" = 0 ]
    report "self-test: $1 fails the check" $?
}

breaks "passes' tiles of 384 x 16 (6529 no longer one past one)" "$sol" '^#define ITEMS ' \
    's/ITEMS 17/ITEMS 16/' '6529 is not one past a tile of part b'
breaks "pairs in CUB's sm_90 tiles, 384 x 23 (8065 no longer one past one)" "$sol" '^#define PAIR_ITEMS ' \
    's/PAIR_ITEMS 21/PAIR_ITEMS 23/' '8065 is not one past a tile of part dp'
breaks "the long tiles from 2^23 (the handout's shapes at 2^24 wrong)" "$sol" '^#define SORT_SHORT_TILES_UP_TO' \
    's/1L << 24/1L << 23/' 'the solution.s tile is 256 x 28'
breaks "a sort() that switches tiles at another test" "$sol" 'else if (n > SORT_SHORT_TILES_UP_TO)' \
    's/n > SORT_SHORT/n >= SORT_SHORT/' 'teach tests/unit/lab09_tiles.py'
breaks "a boundary size moved off its tile in the lab table" "$lab" '4097, 6529,' \
    's/6529,/6530,/' '6529 is not in the lab.s test_sizes'
breaks "a size added to the lab table and not to the handout" "$lab" '(1L << 24) + 1}' \
    's/(1L << 24) + 1}/(1L << 24) + 1, 99}/' 'not marked: \[99\]'
breaks "a tile count quoted wrong" "$readme" '^2571<!-- tile:' 's/^2571/2570/' "quoted '2570'"
breaks "a time a hand-off quoted wrong" "$readme" '^0\.36<!-- tile: per-tile' 's/^0\.36/0.33/' "quoted '0.33'"

[ "$markers" -ge "$min" ]
report "marker count: $markers markers in $readme (at least $min)" $?

echo "1..$n"
if [ "$fail" = 0 ]; then
    echo "# lab 09's tiles: $n tests, all ok ($markers markers)"
else
    echo "# lab 09's tiles: $n tests, some failed (see 'not ok' above)"
fi
exit "$fail"
