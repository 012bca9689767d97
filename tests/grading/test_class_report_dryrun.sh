#!/usr/bin/env bash
# tests/grading/test_class_report_dryrun.sh: the class report after a real `make
# grade` of a small class without a GPU (PRIMLAB_NO_GPU=1, the dry run), its
# tables checked against what the class is known to hold, then the page
# opened in a headless browser (tests/lib/report_browser.sh: no console error,
# every figure drawn, nothing fetched, a screenshot kept in
# build/test-logs/class-report/report.png).
# The class: amy (lab 01's solution), ben (lab 01's and lab 04's stubs),
# cleo (lab 01 planted not to compile), dev (an empty folder: nothing
# handed in), and eve, on the roster (a Canvas gradebook export, ROSTER)
# with no submission at all. No test runs without a GPU, so every line of
# the report must be true of a dry run: that no test ran, and why; no
# points statistics, but each lab's points ("out of", from the tables);
# no bug class but what grading decides without a GPU (NOBUILD, MISSING),
# and no line saying none is named above a table naming them; per lab,
# how many of those who handed it in compiled; no GPU seconds and no GPU
# model; the counts: 4 graded and eve, each lab's students who did not
# hand it in (eve in every one), cleo's lab 01 that does not compile.
# What the students read, one story per lab: cleo's report says her lab
# does not compile, and why, never first that it compiled; amy's tests
# say "not run here", never "0/8" (a score of 0).
# Then `make report` reuses make grade's report tool (the grading kit's,
# build/grade-kit/build/primlab-report): it compiles nothing.
# Needs bubblewrap (make grade does), else SKIP; the browser part skips
# without chromium (harness/bootstrap.sh --browser), with the reason.
set -u
cd "$(dirname "$0")/../.." || exit 2
export PRIMLAB_NO_GPU=1 PRIMLAB_LIMITS=0 GRADE_LOCK_WAIT=900
unset PRIMLAB_SEED
pass=0 fail=0 skip=0
ok() { printf 'OK    %s\n' "$*"; pass=$((pass + 1)); }
bad() { printf 'FAIL  %s\n' "$*"; fail=$((fail + 1)); }
if ! command -v bwrap >/dev/null || ! bwrap --ro-bind / / true 2>/dev/null; then
    echo "SKIP: no working bubblewrap here: make grade needs it"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
[ -d solutions ] || { echo "SKIP: needs solutions/ (amy hands in lab 01's)"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
t=$(mktemp -d /tmp/primlab-dryrun.XXXXXX) || exit 2
trap '[ -n "${KEEP:-}" ] && echo "kept: $t" || rm -rf "$t"' EXIT
s=$t/subs g=$t/grades
l1=01-prefix-sum l4=04-compaction
mkdir -p "$s/amy/$l1" "$s/ben/$l1" "$s/ben/$l4" "$s/dev"
cp solutions/$l1/*.cu "$s/amy/$l1/" && cp labs/$l1/*.cu "$s/ben/$l1/" && cp labs/$l4/*.cu "$s/ben/$l4/" || exit 2
tests/gpu/plant.sh make "$t/p" 01.no_compile >/dev/null && mv "$t/p/no_compile" "$s/cleo" || exit 2
nlabs=$(harness/lab-dirs.sh | wc -l)
# the roster: the four who hand in (their SIS Login ID is their folder's
# name) and eve, who does not
{
    echo 'Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (12345)'
    echo '    Points Possible,,,,,50.00'
    n=1
    for who in amy ben cleo dev eve; do echo "\"${who^}, A\",100$n,S100$n,$who,CS 4xx,"; n=$((n + 1)); done
} >"$t/roster.csv"

make -s --no-print-directory grade SUBMISSIONS="$s" GRADES="$g" JOBS=1 ROSTER="$t/roster.csv" ASSIGNMENT="Lab 1" \
    >"$t/grade.log" 2>&1
rc=$?
md=$g/report.md
[ $rc = 0 ] && [ -s "$md" ] && [ -s "$g/report.html" ] && grep -q "^class report: $g/report.html" "$t/grade.log" &&
    ok "make grade (dry run) wrote report.html and report.md, and said so" ||
    { bad "make grade: status $rc, $(grep -m 1 -iE 'report|error' "$t/grade.log")"; tail -n 5 "$t/grade.log"; }
grep -qx 'Students: 4 graded, 0 not graded, 1 on the roster with no submission.' "$md" &&
    ok "4 graded, 0 not graded, eve on the roster with no submission" || bad "students line: $(grep -m 1 '^Students' "$md")"
grep -qi 'no test ran on a GPU' "$md" && grep -qx 'Why no test ran: PRIMLAB_NO_GPU is set.' "$md" &&
    ok "the report says no test ran (a dry run), and why" || bad "nothing says that no test ran, and why"
# lab 01: dev and eve did not hand it in, cleo's does not compile; lab 04:
# amy, cleo, dev and eve did not; every other lab: all five
row() { grep -E "^\| lab $1 \|" "$md" | awk -F '|' '{ gsub(/ /, ""); print $(NF-2) "/" $(NF-1) }'; }
[ "$(row 01)" = 2/1 ] && ok "lab 01: 2 not handed in (dev, eve), 1 not compiling" || bad "lab 01 row: $(grep -E '^\| lab 01 \|' "$md")"
[ "$(row 04)" = 4/0 ] && ok "lab 04: 4 not handed in" || bad "lab 04 row: $(grep -E '^\| lab 04 \|' "$md")"
others=$(for id in $(harness/lab-dirs.sh | sed 's|^labs/\([0-9]*\)-.*|\1|' | grep -vxE '01|04'); do row "$id"; done | sort -u)
[ "$others" = 5/0 ] && ok "the other $((nlabs - 2)) labs: 5 not handed in each" || bad "other labs: $others"
grep -E '^\| `?NOBUILD' "$md" | grep -q cleo && ok "census: cleo's lab 01 does not compile" ||
    bad "census NOBUILD row: $(grep -E 'NOBUILD' "$md" | head -n 1)"
grep -E '^\| `?MISSING' "$md" | grep -qF 'Eve, A (ID 1005, SIS User ID S1005)' &&
    ok "census: eve (the roster's) did not hand in a lab" || bad "census MISSING row: $(grep -E 'MISSING' "$md" | head -n 1)"
classes=$(grep -cE '^\| `[a-z_0-9]+` \|' "$md")
[ "$classes" = 0 ] && ok "no bug class named but NOBUILD and MISSING (no test ran)" || bad "$classes bug classes named in a dry run"
# (a line saying no bug class is named, above a table naming NOBUILD, was false)
grep -qi 'no bug class is named' "$md" && bad "a line says no bug class is named: $(grep -i -m 1 'no bug class is named' "$md")" ||
    ok "no line says that no bug class is named"
grep -qE '^\| (lab 0[0-9]|total) \| [0-9]+ \| [0-9]' "$md" && bad "points statistics in a dry run" ||
    ok "no points statistics (nothing was scored)"
max01=$(build/tables/lab01 list | sed -n 's/^total: \([0-9.]*\) points$/\1/p')
out01=$(grep -E '^\| lab 01 \|' "$md" | awk -F '|' '{ gsub(/ /, ""); print $(NF-3) }')
[ -n "$max01" ] && [ "$out01" = "$max01" ] && ok "lab 01 is out of its table's $max01 points, not 0" ||
    bad "lab 01 out of '$out01', its table's points '$max01'"
grep -qx 'No test ran: a dry run without a GPU (PRIMLAB_NO_GPU is set); 2 of the 3 handed in compiled.' "$md" &&
    ok "lab 01's tests: not run (a dry run), and 2 of the 3 handed in compiled" ||
    bad "lab 01's tests: $(sed -n '/^### lab 01$/,/^###/p' "$md" | grep -m 1 .)"
grep -q 'Seconds of GPU grading' "$md" && bad "GPU seconds in a dry run: $(grep -m 1 'Seconds of GPU' "$md")" ||
    ok "no GPU seconds in a dry run"
grep -qx 'GPU models (each student'"'"'s last grading): none, a dry run without a GPU (4).' "$md" &&
    ok "no GPU model: a dry run" || bad "GPU models: $(grep -m 1 '^GPU models' "$md")"

# what the students read: one story per lab, no score where none was given
rep=$g/cleo/report.txt
grep -q '^lab01: compiled' "$rep" && bad "cleo's report says her lab 01 compiled: $(grep -m 1 '^lab01: compiled' "$rep")" ||
    ok "cleo's report never says her lab 01 compiled"
grep -qx 'lab01: does not compile: errors in prefix_sum.cu. First errors:' "$rep" &&
    ok "cleo's report: lab 01 does not compile, the errors in prefix_sum.cu" ||
    bad "cleo's lab 01: $(grep -m 1 '^lab01' "$rep")"
rep=$g/amy/report.txt
skips=$(grep -c ' SKIP  *not run here$' "$rep")
[ "$skips" -gt 0 ] && ! grep -qE ' SKIP +[0-9.]+s +[0-9.]+/[0-9.]+$' "$rep" &&
    ok "amy's tests: 'not run here' ($skips lines), never 'SKIP 0.00s 0/N'" ||
    bad "amy's skipped tests: $(grep -m 1 ' SKIP ' "$rep")"

# make report: make grade's tool, so nothing to compile
mk=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n --no-print-directory report GRADES="$g" 2>&1)
tool=$(grep -m 1 -o '^[^ ]*primlab-report ' <<<"$mk")
[ "$tool" = "build/grade-kit/build/primlab-report " ] && ! grep -qE "^printf '  %-6s|cc |ar " <<<"$mk" &&
    ok "make report runs make grade's tool, build/grade-kit/build/primlab-report, and builds nothing" ||
    bad "make -n report: $(head -n 2 <<<"$mk" | cut -c 1-120 | paste -sd ' ')"
rm -f "$md"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory report GRADES="$g" >"$t/report.log" 2>&1
[ $? = 0 ] && [ -s "$md" ] && ! grep -qE '^  (CC|NVCC|AR|LINK) ' "$t/report.log" && ok "make report: written, nothing compiled" ||
    bad "make report: $(grep -m 2 . "$t/report.log" | paste -sd ' ')"

out=build/test-logs/class-report
mkdir -p "$out"
tests/lib/report_browser.sh "$g/report.html" "$out" >"$t/browser.log" 2>&1
brc=$?
sed 's/^/      /' "$t/browser.log"
case $brc in
0) ok "the page in a headless browser; screenshot $out/report.png" ;;
77) skip=$((skip + 1)); echo "SKIP  the browser check: $(head -n 1 "$t/browser.log")" ;;
*) bad "the page in a headless browser (tests/lib/report_browser.sh status $brc)" ;;
esac
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
