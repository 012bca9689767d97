#!/usr/bin/env bash
# tests/grading/test_class_report_dryrun.sh: the class report after a real `make
# grade` of a small class without a GPU (PRIMLAB_NO_GPU=1, the dry run), its
# tables checked against what the class is known to hold, then the page
# opened in a headless browser (tests/lib/report_browser.sh: no console error,
# every figure drawn, nothing fetched, a screenshot kept in
# build/test-logs/class-report/report.png).
# The class: amy (lab 01's solution), ben (lab 01's and lab 04's stubs),
# cleo (lab 01 planted not to compile), dev (an empty folder: nothing
# handed in). No test runs without a GPU, so the report must say that no
# test ran, give no points statistics, and name no bug class; what grading
# decides without one it must count: 4 graded, each lab's students who did
# not hand it in, cleo's lab 01 that does not compile.
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

make -s --no-print-directory grade SUBMISSIONS="$s" GRADES="$g" JOBS=1 >"$t/grade.log" 2>&1
rc=$?
md=$g/report.md
[ $rc = 0 ] && [ -s "$md" ] && [ -s "$g/report.html" ] && grep -q "^class report: $g/report.html" "$t/grade.log" &&
    ok "make grade (dry run) wrote report.html and report.md, and said so" ||
    { bad "make grade: status $rc, $(grep -m 1 -iE 'report|error' "$t/grade.log")"; tail -n 5 "$t/grade.log"; }
grep -qx 'Students: 4 graded, 0 not graded.' "$md" && ok "4 graded, 0 not graded" ||
    bad "students line: $(grep -m 1 '^Students' "$md")"
grep -qi 'no test ran on a GPU' "$md" && ok "the report says no test ran (a dry run)" ||
    bad "nothing says that no test ran"
# lab 01: dev did not hand it in, cleo's does not compile; lab 04: amy, cleo
# and dev did not; every other lab: all four
row() { grep -E "^\| lab $1 \|" "$md" | awk -F '|' '{ gsub(/ /, ""); print $(NF-2) "/" $(NF-1) }'; }
[ "$(row 01)" = 1/1 ] && ok "lab 01: 1 not handed in, 1 not compiling" || bad "lab 01 row: $(grep -E '^\| lab 01 \|' "$md")"
[ "$(row 04)" = 3/0 ] && ok "lab 04: 3 not handed in" || bad "lab 04 row: $(grep -E '^\| lab 04 \|' "$md")"
others=$(for id in $(harness/lab-dirs.sh | sed 's|^labs/\([0-9]*\)-.*|\1|' | grep -vxE '01|04'); do row "$id"; done | sort -u)
[ "$others" = 4/0 ] && ok "the other $((nlabs - 2)) labs: 4 not handed in each" || bad "other labs: $others"
grep -E '^\| `?NOBUILD' "$md" | grep -q cleo && ok "census: cleo's lab 01 does not compile" ||
    bad "census NOBUILD row: $(grep -E 'NOBUILD' "$md" | head -n 1)"
classes=$(grep -cE '^\| `[a-z_0-9]+` \|' "$md")
[ "$classes" = 0 ] && ok "no bug class named (no test ran)" || bad "$classes bug classes named in a dry run"
grep -qE '^\| (lab 0[0-9]|total) \| [0-9]+ \| [0-9]' "$md" && bad "points statistics in a dry run" ||
    ok "no points statistics (nothing was scored)"

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
