#!/usr/bin/env bash
# tests/unit/test_figure.sh: a student's figure (harness/serve/figure.sh,
# plots/student.gp), what the check service draws for each job and make
# plots IMPL=labs for a student with a GPU. On fixtures, no GPU:
#   - a job of lab 01 (tests/fixtures/board/ana-2/results.json, made by
#     build/primlab-results): an SVG that is XML, with the job's two
#     ratios as two points labelled with their values, the title saying
#     they are one size each (points, not a curve), the solution's
#     reference lines of parts b and c (plots/data/lab01.tsv, 19 sizes
#     each) and CUB at 1;
#   - a job of lab 06 whose tests' sizes are rows and which has a test
#     with no reference data (06.bd): drawn, the title naming it; a PNG;
#   - a sweep of a student's code (plots/data/lab01.tsv's rows, named the
#     student's) with the lab's tests (a scores file as labNN fill writes
#     it): a line per test's part;
#   - exit 1 with one line: no ratio of the lab in the results, gnuplot
#     missing (a warning), results that are not JSON; exit 2 for bad
#     arguments.
# Without gnuplot: SKIP (status 77), as the figure is optional.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP  a student's figure: gnuplot is not installed (make bootstrap installs it)"
    exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fig=harness/serve/figure.sh

# svg_text FILE: the SVG's text, each element's on a line (gnuplot splits
# enhanced text into tspans); fails when the file is not XML
svg_text() {
    python3 -c 'import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
for e in root.iter():
    if e.tag.endswith("}text"):
        print("".join(e.itertext()))' "$1"
}
# svg_marks FILE COLOUR: how many of gnuplot's point marks of that colour
# there are of each size, smallest count first ("2 20")
svg_marks() {
    grep -o "<use xlink:href='#gpPt[0-9]*' transform='translate([0-9.,]*) scale([0-9.]*)' color='$2'/>" "$1" |
        sed 's/.*scale(\([0-9.]*\)).*/\1/' | sort | uniq -c | awk '{ print $1 }' | sort -n | paste -sd ' ' -
}

# ------------------------------------------------------------ a job of lab 01
$fig tests/fixtures/board/ana-2/results.json 01 "$t/job.svg" >"$t/job.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="$p; status $rc"
[ -s "$t/job.out" ] && p="$p; it printed: $(head -n 1 "$t/job.out")"
if text=$(svg_text "$t/job.svg" 2>&1); then
    for want in "Lab 01: your throughput as a fraction of CUB's, measured in the same run" \
        "yours: the 2 performance tests of your job, one size each: a point each, not a curve" \
        "solution: the kit's reference data, measured on NVIDIA H200" \
        "0.150x" "0.200x" "CUB, the same run (= 1)" "solution, part b" "solution, part c" \
        "yours, 01.b n=224: 0.150x" "yours, 01.c n=224: 0.200x"; do
        grep -qxF "$want" <<<"$text" || p="$p; no text '$want'"
    done
else
    p="$p; not XML: $(tail -n 1 <<<"$text")"
fi
# in each part's colour, marks of two sizes: the job's point (and its key
# sample), and the reference's 19 sizes (and their key sample)
for c in 'rgb(  0, 114, 178)' 'rgb(213,  94,   0)'; do
    n=$(svg_marks "$t/job.svg" "$c")
    [ "$n" = "2 20" ] || p="$p; marks of $c by size: '$n', not '2 20' (a point, 19 reference sizes, and the key's)"
done
verdict "a job of lab 01: an SVG, two points labelled 0.150x and 0.200x, one size each said in the title, the reference of parts b and c, CUB at 1" "$p" "$t/job.out"

# ----------------------------------------------- a job of lab 06, a PNG
cat >"$t/lab06.json" <<'EOF'
{"score": 4.0, "tests": [], "leaderboard": [
 {"name": "06.bf performance vs the vendor library, n=268435456", "value": 0.81, "order": "desc"},
 {"name": "06.bd performance vs the vendor library, n=134217728", "value": 0.7, "order": "desc"},
 {"name": "06.df performance vs the vendor library, rows=1048576, matrix=fem", "value": 0.45, "order": "desc"},
 {"name": "06.dd performance vs the vendor library, rows=1048576, matrix=fem", "value": 0.4, "order": "desc"},
 {"name": "05.b performance vs the vendor library, n=16777216, dist=random", "value": 0.2, "order": "desc"}]}
EOF
$fig "$t/lab06.json" 06 "$t/lab06.svg" >"$t/lab06.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="status $rc"
text=$(svg_text "$t/lab06.svg" 2>&1)
for want in "Lab 06: your throughput as a fraction of CUB and cuSPARSE's, measured in the same run" \
    "solution: the kit's reference data, measured on NVIDIA H100 80GB HBM3 (none for part bd)" \
    "the test's size (n, rows)" "solution, part df, fem" "yours, 06.df rows=220, matrix=fem: 0.450x"; do
    grep -qxF "$want" <<<"$text" || p="$p; no text '$want'"
done
grep -q "05.b" <<<"$text" && p="$p; lab 05's test drawn in lab 06's figure"
$fig "$t/lab06.json" 06 "$t/lab06.png" >>"$t/lab06.out" 2>&1 || p="$p; no PNG"
[ "$(head -c 8 "$t/lab06.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || p="$p; not a PNG"
verdict "a job of lab 06 (sizes in rows, a parameter, 06.bd with no reference): drawn, the title names what it lacks; a PNG" "$p" "$t/lab06.out"

# ------------------------- a job of lab 02, its tests scored by their roof
# ("vs its roof": their leaderboard entries are their ratio to CUB all the same)
cat >"$t/lab02.json" <<'EOF'
{"score": 4.0, "tests": [], "leaderboard": [
 {"name": "02.b performance vs its roof, n=16777216", "value": 0.65, "order": "desc"},
 {"name": "02.c performance vs its roof, n=16777216", "value": 0.6, "order": "desc"}]}
EOF
$fig "$t/lab02.json" 02 "$t/lab02.svg" >"$t/lab02.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="status $rc"
text=$(svg_text "$t/lab02.svg" 2>&1)
for want in "yours, 02.b n=224: 0.650x" "yours, 02.c n=224: 0.600x"; do
    grep -qxF "$want" <<<"$text" || p="$p; no text '$want'"
done
verdict "a job of lab 02 whose tests are scored by their roof: their ratios drawn" "$p" "$t/lab02.out"

# ---------------------------------------------- a sweep of a student's code
awk -F'\t' 'BEGIN { OFS = "\t" } /^#/ { print; next } $3 == "solution" { $3 = "student"; if ($12 + 0 > 0) $12 *= 0.6 } { print }' \
    plots/data/lab01.tsv | sed 's/^# device: .*/# device: NVIDIA GeForce RTX 4070/' >"$t/sweep.tsv"
{
    printf '# lab\tname\tkind\thidden\tstatus\tpoints\tmax\tseconds\tvalue\treason\tdetail\tcause\tbugs\ttarget\n'
    printf '01\t01.a inclusive scan, one block, n=1024\tcorrectness\t0\tERROR\t0.0000\t1\t0.000\t\tnot run\t\tNOTRUN\t\t\n'
    printf '01\t01.b performance vs the vendor library, n=16777216\tperformance\t0\tERROR\t0.0000\t2\t0.000\t\tnot run\t\tNOTRUN\t\t\n'
    printf '01\t01.c performance vs the vendor library, n=16777216\tperformance\t0\tERROR\t0.0000\t2\t0.000\t\tnot run\t\tNOTRUN\t\t\n'
} >"$t/tests.tsv"
$fig --sweep "$t/sweep.tsv" --tests "$t/tests.tsv" 01 "$t/sweep.svg" >"$t/sweep.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="status $rc"
text=$(svg_text "$t/sweep.svg" 2>&1)
for want in "yours: a sweep of your code on NVIDIA GeForce RTX 4070, a line per test's part" \
    "yours, part b (the test: 01.b n=224)" "yours, part c (the test: 01.c n=224)" "solution, part b"; do
    grep -qxF "$want" <<<"$text" || p="$p; no text '$want'"
done
grep -q "part bt" <<<"$text" && p="$p; part bt (no performance test) drawn"
grep -q "x$" <<<"$text" && p="$p; a sweep's points labelled with values"
verdict "a sweep of the student's code (make plots IMPL=labs): a line per performance test's part, beside the solution's" "$p" "$t/sweep.out"

# ------------------------------------------------------------ no figure
# none NAME STATUS LINE CMD...: no file, one line, that status
none() {
    local name=$1 want_rc=$2 line=$3 rc p=""
    shift 3
    rm -f "$t/none.svg"
    "$@" >"$t/$name.out" 2>"$t/$name.err"
    rc=$?
    [ $rc = "$want_rc" ] || p="; status $rc, not $want_rc"
    # shellcheck disable=SC2053 # (line is a pattern)
    [ "$(grep -c . "$t/$name.err")" = 1 ] && [[ "$(cat "$t/$name.err")" == $line ]] ||
        p="$p; stderr: $(paste -sd '|' "$t/$name.err")"
    [ -e "$t/none.svg" ] && p="$p; a figure was written"
    verdict "$name: one line, status $want_rc" "$p"
}
echo '{"score": 0, "tests": [], "leaderboard": []}' >"$t/empty.json"
none "no ratio of the lab" 1 \
    "figure: no performance test of lab 01 has a ratio in '$t/empty.json' (its leaderboard holds a lab's ratios only once every correctness test passed): nothing to draw" \
    $fig "$t/empty.json" 01 "$t/none.svg"
echo 'not json' >"$t/bad.json"
none "results that are not JSON" 1 "figure: cannot read '$t/bad.json' as results.json: *" $fig "$t/bad.json" 01 "$t/none.svg"
mkdir -p "$t/bin"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    for f in "$d"/*; do
        b=${f##*/}
        [ "$b" = gnuplot ] || [ -e "$t/bin/$b" ] || ln -s "$f" "$t/bin/$b" 2>/dev/null
    done
done
none "gnuplot missing" 1 "figure: warning: gnuplot is not installed (make bootstrap installs it): no figure" \
    env PATH="$t/bin" $fig tests/fixtures/board/ana-2/results.json 01 "$t/none.svg"
none "a bad lab" 2 "figure: '1' is not a lab's number (01)" $fig tests/fixtures/board/ana-2/results.json 1 "$t/none.svg"
none "no output format" 2 "usage: *" $fig tests/fixtures/board/ana-2/results.json 01 "$t/none.gif"

finish
