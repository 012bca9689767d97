#!/usr/bin/env bash
# harness/check.sh IMPL [LAB]: grade every lab of IMPL (labs, solutions, or a
# folder laid out like labs/), or only lab LAB. Called by `make check`.
#
# Each lab is built and run on its own: a lab that does not compile scores 0
# with its first compiler errors shown, and the others are still graded. The
# lab binaries run every test in its own process and append one TSV row per
# test to a scores file; the total is summed from that data. Prints
# `Score: x/y` last and exits non-zero below full marks.
set -u
impl=${1:-labs}
only=${2:-}
impl=${impl%/}
case "$impl" in
labs | solutions) tag=$impl ;;
*) tag="impl-${impl//\//-}" ;;
esac
if [ ! -d "$impl" ]; then
    echo "check: no folder '$impl' to grade (IMPL=labs, solutions, or a folder laid out like labs/)" >&2
    exit 2
fi

mkdir -p build
scores=build/$tag/scores.tsv
mkdir -p "build/$tag" && : >"$scores"
found=0
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    id=${lab%%-*}
    if [ -n "$only" ] && [ "$id" != "$only" ] && [ "$id" != "0$only" ]; then continue; fi
    found=1
    src=$(cd "$dir" && ls -- *.cu)
    bin=build/$tag/lab$id
    echo "== lab $id ($lab): $impl/$lab/$src"
    if [ ! -f "$impl/$lab/$src" ]; then
        echo "lab$id: '$impl/$lab/$src' is missing: 0 points"
        printf '%s\t-\t-\tMISSING\t0\t0\t0\n' "$id" >>"$scores"
        continue
    fi
    if ! make -s --no-print-directory IMPL="$impl" "$bin" >"build/$tag/build-lab$id.log" 2>&1; then
        echo "lab$id: does not compile: 0 points. First errors:"
        grep -m 8 -E 'error|Error' "build/$tag/build-lab$id.log" | sed 's/^/    /'
        printf '%s\t-\t-\tNOBUILD\t0\t0\t0\n' "$id" >>"$scores"
        continue
    fi
    "$bin" check --scores "$scores"
done
if [ "$found" = 0 ]; then
    echo "check: no lab '$only' (labs: $(echo labs/[0-9][0-9]-*))" >&2
    exit 2
fi
awk -F'\t' '{ got += $5; max += $6 } END {
    printf "Score: %d/%d\n", got, max; exit (max > 0 && got == max) ? 0 : 1 }' "$scores"
