#!/usr/bin/env bash
# tests/unit/test_roofs.sh: each lab's algorithms' roofs (harness/parent/roofs.h,
# the alg and vendor_alg of its table's parts) against the bytes computed by
# hand in tests/fixtures/roofs/roofs.tsv, through `build/tables/labNN roofs`;
# and every performance test of every lab states its part's roof and its
# vendor's (`labNN roofs` with no sizes lists the graded problems: no row
# there may lack its bytes). What test_roofs (the Check suite) cannot: the
# formulas as each lab's table writes them, at the sizes the handouts and
# the grading use. No GPU.
#
#   tests/unit/test_roofs.sh            (from anywhere)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
ids=$(harness/lab-dirs.sh | sed 's|^labs/||; s|-.*||')
make -s --no-print-directory $(for id in $ids; do echo build/tables/lab$id; done) >"$t/make.log" 2>&1 ||
    { say FAIL "make the labs' tables" "$(tail -n 1 "$t/make.log")"; finish; }

# the hand-computed rows: one `roofs` call per (lab, part, n, param)
while IFS=$'\t' read -r lab part who n param bytes tol how; do
    case "$lab" in '#'* | lab | '') continue ;; esac
    args=(roofs --part "$part" --n "$n")
    [ "$param" = - ] || args+=(--param "$param")
    got=$("build/tables/lab$lab" "${args[@]}" 2>"$t/err" |
        awk -F'\t' -v who="$who" 'NR > 1 && $2 == who { print $6; exit }')
    name="lab $lab ($part) $who at n = $n"
    [ "$param" = - ] || name+=", $param"
    name+=": $how"
    if [ -z "$got" ]; then
        say FAIL "$name" "no $who row ($(head -c 200 "$t/err"))"
    elif awk -v g="$got" -v w="$bytes" -v tol="$tol" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= tol * w) }'; then
        say OK "$name"
    else
        say FAIL "$name" "$got bytes, by hand $bytes${tol:+ (within $tol)}"
    fi
done <tests/fixtures/roofs/roofs.tsv

# every performance test: its part's roof and its vendor's stated, and the
# rows of the graded problems marked as such
for id in $ids; do
    "build/tables/lab$id" roofs >"$t/graded.tsv" 2>"$t/err" || { say FAIL "lab $id roofs" "$(head -c 200 "$t/err")"; continue; }
    problems=$(awk -F'\t' 'NR > 1 && $5 != 1 { print "not marked graded: " $1 " " $2 " n=" $3 }
                           NR > 1 && ($6 == "nan" || $6 + 0 <= 0) { print "no roof stated: part " $1 " " $2 " n=" $3 }
                           NR > 1 { rows++ } END { if (!rows) print "no performance test listed" }' "$t/graded.tsv" |
        paste -sd ';' -)
    verdict "lab $id: every performance test's part states its roof and its vendor's" "${problems:+; $problems}"
done
finish
