#!/usr/bin/env bash
# tests/unit/test_roofs.sh: each lab's algorithms' roofs (harness/parent/roofs.h,
# the alg and vendor_alg of its table's parts) against the bytes computed by
# hand in tests/fixtures/roofs/roofs.tsv, through `build/tables/labNN roofs`;
# and every performance test of every lab states its part's roof and its
# vendor's (`labNN roofs` with no sizes lists the graded problems: no row
# there may lack its bytes); and every test scored by its roof (PL_YARD_ROOF)
# has full marks the solution passes 1.5 times over in the committed H200
# data (plots/data/roofs-h200.tsv); and `labNN roofs --in` on rows written
# before the columns alg_bytes and pct_alg (tests/fixtures/roofs/old-*.tsv:
# the columns as computed by hand in derived.tsv, every other byte kept, a
# second run refused), and every committed data file of rows with the two
# columns. What test_roofs and test_alg_rows (the Check suites) cannot: the
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

# every test scored by its roof (`labNN list`: "performance vs its roof",
# its thresholds on the line under it): the solution's fraction of its
# roof in the committed H200 data (plots/data/roofs-h200.tsv, pct_alg, by
# CUDA events) at least ROOF_MARGIN times the full mark, and zero below full
ROOF_MARGIN=1.5
data=plots/data/roofs-h200.tsv
for id in $ids; do
    "build/tables/lab$id" list >"$t/list.txt" 2>/dev/null || continue
    while IFS=$'\t' read -r name line; do
            test=$(echo "$name" | sed 's/^ *//; s/  .*$//')
            part=$(echo "$test" | sed -n 's/^[0-9]*\.\([^ ]*\) .*/\1/p')
            n=$(echo "$test" | sed -n 's/.*, n=\([0-9]*\).*/\1/p')
            label=$(echo "$test" | sed -n 's/.*, n=[0-9]*, [A-Za-z_]*=\(.*\)$/\1/p')
            full=$(echo "$line" | sed -n 's/.*full marks from \([0-9.]*\)%.*/\1/p')
            zero=$(echo "$line" | sed -n 's/.*none at \([0-9.]*\)%.*/\1/p')
            pct=$(awk -F'\t' -v lab="$id" -v part="$part" -v n="$n" -v label="$label" '
                $1 == "lab" { for (i = 1; i <= NF; i++) col[$i] = i; next }
                /^#/ || !col["pct_alg"] { next }
                $1 == lab && $2 == part && $3 == "solution" && $4 == n &&
                    (label == "" || $col["param_label"] == label) { print $col["pct_alg"]; exit }' "$data")
            if [ -z "$pct" ] || [ -z "$full" ] || [ -z "$zero" ]; then
                say FAIL "$test: the solution's fraction of its roof against its thresholds" \
                    "no row in $data (${pct:-none}) or no thresholds in list (${full:-none}, ${zero:-none})"
            elif awk -v p="$pct" -v f="$full" -v z="$zero" -v m="$ROOF_MARGIN" 'BEGIN { exit !(p >= m * f && z < f) }'; then
                say OK "$test: the solution at $pct% of its roof on an H200, full marks from $full% (x$ROOF_MARGIN: $(awk -v f="$full" -v m="$ROOF_MARGIN" 'BEGIN { print m * f }')%)"
            else
                say FAIL "$test: the solution's fraction of its roof against its thresholds" \
                    "$pct% on an H200, full marks from $full% (wants $ROOF_MARGIN times), none at $zero%"
            fi
    done < <(awk '/ performance vs its roof, / { name = $0; next }
                  name != "" && /full marks from/ { print name "\t" $0 } { name = "" }' "$t/list.txt")
done

# `labNN roofs --in`: files written before alg_bytes and pct_alg
# (tests/fixtures/roofs/old-labNN.tsv, rows of the committed sweeps as
# they were) get them, every other byte kept, the values those computed by
# hand in derived.tsv; run again, it refuses and changes nothing
fx=tests/fixtures/roofs
for old in "$fx"/old-lab*.tsv; do
    f=$(basename "$old") id=$(basename "$old" .tsv | sed 's/^old-lab//')
    cp "$old" "$t/$f"
    if ! "build/tables/lab$id" roofs --in "$t/$f" --out "$t/$f" >"$t/out" 2>&1; then
        say FAIL "lab $id roofs --in $f" "$(head -c 300 "$t/out")"
        continue
    fi
    # the old file again: the lines added before the header, the two last fields
    kept=$(awk -F'\t' 'BEGIN { OFS = FS } !h && /^# (alg_[a-z0-9_]*|derived): / { next }
                       !/^#/ && length { h = 1; NF -= 2 } { print }' "$t/$f" | cmp - "$old" 2>&1)
    added=$(awk '/^# derived: alg_bytes and pct_alg added .* by lab[0-9]* roofs --in, .*not measured again$/ { d++ }
                 /^# alg_/ { a++ } /^lab\t/ && /\talg_bytes\tpct_alg$/ { h++ }
                 END { if (d != 1) print "no derived line"; if (!a) print "no formula line"; if (h != 1) print "no columns" }' "$t/$f" |
        paste -sd ';' -)
    verdict "lab $id roofs --in $f: two columns added, every other byte kept" "${kept:+; $kept}${added:+; $added}"
    problems=$(awk -F'\t' -v file="$f" '
        FNR == NR { if ($1 == file) { want[$2 SUBSEP $3 SUBSEP $4] = $5 " " $6; n++ } next }
        /^#/ { next }
        $1 == "lab" { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { k = $2 SUBSEP $3 SUBSEP $4; got = $col["alg_bytes"] " " $col["pct_alg"] }
        k in want && want[k] != got { print $2 " " $3 " n=" $4 ": " got ", by hand " want[k] }
        k in want { seen++ }
        END { if (seen != n) print seen + 0 " of the " n " rows by hand found" }' "$fx/derived.tsv" "$t/$f" | paste -sd ';' -)
    verdict "lab $id roofs --in $f: each row's alg_bytes and pct_alg as by hand" "${problems:+; $problems}"
    cp "$t/$f" "$t/$f.first"
    if "build/tables/lab$id" roofs --in "$t/$f" --out "$t/$f" >"$t/out" 2>&1; then
        say FAIL "lab $id roofs --in $f, run again: refused" "it ran"
    else
        verdict "lab $id roofs --in $f, run again: refused, the file as it was" \
            "$(grep -q "has the columns alg_bytes and pct_alg already" "$t/out" || echo "; said: $(head -c 200 "$t/out")")$(
               cmp -s "$t/$f" "$t/$f.first" || echo "; the file changed")"
    fi
done

# and the committed sweeps have the columns: each file of rows, measured
# with them or derived (a file of old rows left is refused by nothing here)
for data in plots/data/lab*.tsv; do
    grep -q $'^lab\tpart\tvariant\t' "$data" || continue
    missing=$(awk -F'\t' '$1 == "lab" && $2 == "part" { print ($(NF - 1) == "alg_bytes" && $NF == "pct_alg") ? "" : "no alg_bytes, pct_alg at the end"; exit }' "$data")
    verdict "$data: the columns alg_bytes and pct_alg" "${missing:+; $missing (labNN roofs --in adds them)}"
done
finish
