#!/usr/bin/env bash
# tests/grading/test_assignment.sh: one assignment at a time (make grade LAB=01,
# LABS="01 02", STUDENT=name; harness/assignment.sh, harness/grade.sh).
#   1. the record's rule on crafted lines (harness/record.sh): a line of
#      another assignment regrades, saying why; a line of 12 fields graded
#      every lab; a dry run still never replaces a real grade;
#   2. check.sh takes a list of labs: results.json holds those labs only; a
#      lab that is not the kit's is one line, status 2;
#   3. a class of the kit's own stubs and solutions (a folder, a .tar.gz, a
#      .zip) graded with LAB=01: only lab 01 in every results.json (no
#      MISSING test of another lab, no "is missing" line but for lab 01),
#      report and Score line; the gradebook's columns student,lab01,total
#      and its Points Possible row, the table's maximum; the record's
#      assignment 01; another lab's file listed as ignored;
#   4. LABS="01 02": everyone regraded, one line each saying why; LABS="02,01"
#      then skips everyone (the same assignment);
#   5. STUDENT=bob: bob alone regraded (forced), on his last assignment;
#      the others' results, record lines and .ungraded.tsv line untouched;
#      the gradebook rebuilt; with PRIMLAB_SEED the Points Possible row is
#      the table's maximum with the hidden tests, whoever was graded;
#   6. a bad LAB id, or a STUDENT in no entry: one line, status 2.
# The GPU is switched off (PRIMLAB_NO_GPU=1): every test scores 0, and this
# tests what is graded and recorded, not scores. Needs a working bwrap,
# else SKIP. Prints one line per check, then `N passed, N failed, N skipped`.
set -u
cd "$(dirname "$0")/../.." || exit 2
export PRIMLAB_NO_GPU=1 PRIMLAB_LIMITS=0
unset PRIMLAB_SEED LAB LABS STUDENT FORCE JOBS SLURM
# make test runs other grading tests beside this one, in the same kit: wait
# for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=900
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. tests/lib/verdict.sh # say, verdict, finish, and the counts
make -s --no-print-directory build/primlab-results build/tables/lab01 build/tables/lab02 >"$t/make.log" 2>&1 ||
    { say FAIL "make the kit's tools" "$(tail -n 1 "$t/make.log")"; finish; }
all=$(harness/lab-dirs.sh | sed 's|^labs/||; s|-.*||' | paste -sd ,)
# max_of LAB: the lab's maximum as its table gives it (with PRIMLAB_SEED: the hidden tests too)
max_of() { "build/tables/lab$1" list | sed -n 's/^total: \([0-9.]*\) points$/\1/p'; }
# one_line RC OUT: status 2 and one line of output
one_line() { [ "$1" = 2 ] && [ "$(grep -c . "$2")" = 1 ]; }

# ---------------------------------------------------------------- 1
. harness/record.sh
sum=$(printf '%064d' 7)
line=$'ann\t'$sum$'\t2025-03-04T10:00:00Z\thost\t0\tH100\t-\t2025-03-04T09:59:00Z\t61\tgpu\tpublic\t0.1.0+a'
stands() { # stands WANT LINE SUM MODE SEED KIT ASSIGNMENT ALL: record_stands's status and its line
    local why rc
    why=$(record_stands "${@:2}") && rc=0 || rc=1
    [ "$rc:$why" = "$1" ] || echo "; got '$rc:$why', want '$1'"
}
p=$(stands "0:" "$line"$'\t01' "$sum" gpu public 0.1.0+a 01 "$all")
p+=$(stands "1:the last grading was of another assignment (labs 01, now 01,02)" "$line"$'\t01' "$sum" gpu public 0.1.0+a 01,02 "$all")
verdict "record: the same assignment stands, another regrades and says why" "$p"
p=$(stands "0:" "$line" "$sum" gpu public 0.1.0+a "$all" "$all")
p+=$(stands "1:the last grading was of another assignment (labs $all, now 01)" "$line" "$sum" gpu public 0.1.0+a 01 "$all")
verdict "record: a line of 12 fields graded every lab" "$p"
p=$(stands "0:" "$line"$'\t01' "$sum" dry public 0.1.0+a 01,02 "$all")
p+=$(stands "0:" "$line"$'\t01' "$sum" gpu public 0.1.0+a "" "$all")
verdict "record: a dry run never replaces a real grade of another assignment; no ASSIGNMENT, not compared" "$p"

# ---------------------------------------------------------------- 2
harness/check.sh labs "01 89" >"$t/bad-check.out" 2>&1
rc=$?
p=""
one_line $rc "$t/bad-check.out" || p="; status $rc, $(grep -c . "$t/bad-check.out") lines"
grep -q "^check: no lab '89' in this kit (labs: ${all//,/ })$" "$t/bad-check.out" || p+="; not the line: $(head -n 1 "$t/bad-check.out")"
verdict "check: a lab that is not the kit's: one line naming the labs, status 2" "$p" "$t/bad-check.out"
CHECK_OUT=$t/check harness/check.sh labs "2,01" >"$t/check.out" 2>&1
p=$(python3 - "$t/check/scores.tsv" <<'PY' 2>&1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1]), delimiter="\t") if r and not r[0].startswith("#")]
labs = {r[0] for r in rows}
assert labs == {"01", "02"}, labs
PY
)
grep -q '^== lab 03' "$t/check.out" && p+="; lab 03 was graded"
verdict "check: LABS \"2,01\" grades labs 01 and 02 only" "${p:+; $p}" "$t/check.out"

# ---------------------------------------------------------------- 3
if ! command -v bwrap >/dev/null || ! err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    say SKIP "grading a class (harness/grade.sh)" "bwrap is missing or cannot start a sandbox here (${err:-not installed})"
    finish
fi
s=$t/subs g=$t/grades
mkdir -p "$s/ann" "$t/bob" "$t/cat"
# ann: every stub, in its lab's folder; bob: the solutions of 01 and 02;
# cat: lab 02's stub alone
for d in labs/01-prefix-sum labs/02-blelloch-scan labs/03-bank-conflicts; do
    mkdir -p "$s/ann/${d#labs/}" && cp "$d"/*.cu "$s/ann/${d#labs/}/"
done
cp -r solutions/01-prefix-sum solutions/02-blelloch-scan "$t/bob/"
tar -czf "$s/bob.tar.gz" -C "$t/bob" .
cp labs/02-blelloch-scan/blelloch_scan.cu "$t/cat/"
python3 -c "import shutil, sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])" "$s/cat" "$t/cat"
students=(ann bob cat)

LAB=01 harness/grade.sh "$s" "$g" >"$t/1.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="; status $rc"
grep -q "^graded 3, skipped 0; gradebook: " "$t/1.out" || p+="; not 'graded 3, skipped 0'"
p+=$(python3 - "$g" "$(max_of 01)" "${students[@]}" <<'PY' 2>&1 | sed 's/^/; /'
import csv, json, os, sys
g, top = sys.argv[1], float(sys.argv[2])
for who in sys.argv[3:]:
    # a dry run (no GPU): results.json has no score and no tests, so the
    # labs and the maximum are read from the rows the grading wrote
    rows = [r for r in csv.reader(open(os.path.join(g, who, "scores.tsv")), delimiter="\t") if r and not r[0].startswith("#")]
    labs = {"lab" + r[0] for r in rows}
    if labs != {"lab01"}:
        print("%s's scores have the labs %s" % (who, sorted(labs)))
    if abs(sum(float(r[6]) for r in rows) - top) > 1e-9:
        print("%s's maximum is not lab 01's, %g" % (who, top))
    r = json.load(open(os.path.join(g, who, "results.json")))
    if "score" in r or r["tests"]:
        print("%s's results.json scores a dry run" % who)
    rep = open(os.path.join(g, who, "report.txt")).read()
    for n in ("02", "03", "04"):
        if "lab" + n in rep:
            print("%s's report names lab%s" % (who, n))
PY
)
grep -E 'is missing' "$t/1.out" | grep -vq '^ *lab01:' && p+="; a lab other than 01 is missing: $(grep -m 1 'is missing' "$t/1.out")"
grep -A 12 '^== cat$' "$t/1.out" | grep -q "lab01: .* is missing" || p+="; cat's lab 01 is not missing"
[ "$(grep -c '^   Score: none' "$t/1.out")" = 3 ] || p+="; not three 'Score: none' lines (a dry run)"
verdict "LAB=01: scores, results.json, report and Score line of lab 01 alone" "$p" "$t/1.out"

p=""
[ "$(head -n 1 "$g/gradebook.csv")" = "student,lab01,total" ] || p+="; header '$(head -n 1 "$g/gradebook.csv")'"
[ "$(sed -n 2p "$g/gradebook.csv")" = "Points Possible,$(max_of 01),$(max_of 01)" ] ||
    p+="; row 2 '$(sed -n 2p "$g/gradebook.csv")', not 'Points Possible,$(max_of 01),$(max_of 01)'"
[ "$(tail -n +3 "$g/gradebook.csv" | cut -d, -f 1 | paste -sd ' ')" = "${students[*]}" ] || p+="; students' rows $(tail -n +3 "$g/gradebook.csv" | cut -d, -f 1 | paste -sd ' ')"
verdict "LAB=01: the gradebook's columns student,lab01,total, then Points Possible (the table's $(max_of 01))" "$p" "$t/1.out"

p=""
[ "$(awk -F '\t' '{ print NF ":" $13 }' "$g/.graded.tsv" | sort -u)" = "13:01" ] ||
    p="; the record's field counts and assignments: $(awk -F '\t' '{ print NF ":" $13 }' "$g/.graded.tsv" | sort -u | paste -sd ' ')"
grep -A 6 '^== ann$' "$t/1.out" | grep -q 'ignored (only the files of lab 01 are graded)' || p+="; ann's other labs' files not listed as ignored"
grep -A 8 '^== ann$' "$t/1.out" | grep -q '02-blelloch-scan/blelloch_scan.cu' || p+="; ann's lab 02 file not named as ignored"
verdict "LAB=01: the record's assignment column is 01; other labs' files ignored" "$p" "$t/1.out"

# ---------------------------------------------------------------- 4
LABS="01 02" harness/grade.sh "$s" "$g" >"$t/2.out" 2>&1
p=""
grep -q "^graded 3, skipped 0; gradebook: " "$t/2.out" || p+="; not 'graded 3, skipped 0'"
for who in "${students[@]}"; do
    grep -qx "== $who: regraded: the last grading was of another assignment (labs 01, now 01,02)" "$t/2.out" ||
        p+="; no reason line for $who"
done
grep -q "already graded" "$t/2.out" && p+="; someone 'already graded'"
[ "$(head -n 2 "$g/gradebook.csv" | paste -sd ' ')" = "student,lab01,lab02,total Points Possible,$(max_of 01),$(max_of 02),$(($(max_of 01) + $(max_of 02)))" ] ||
    p+="; gradebook head: $(head -n 2 "$g/gradebook.csv" | paste -sd ' ')"
[ "$(tail -n 3 "$g/.graded.tsv" | cut -f 13 | sort -u)" = "01,02" ] || p+="; the record's last lines are not of 01,02"
verdict "LABS=\"01 02\" regrades everyone, a line each saying why; gradebook and record of 01,02" "$p" "$t/2.out"
LABS="02,01" harness/grade.sh "$s" "$g" >"$t/3.out" 2>&1
grep -q "^graded 0, skipped 3; gradebook: " "$t/3.out"
verdict "LABS=\"02,01\": the same assignment, everyone skipped" "$([ $? = 0 ] || echo "; $(tail -n 1 "$t/3.out")")" "$t/3.out"

# ---------------------------------------------------------------- 5
cp -a "$g" "$t/before"
printf 'cat\t2025-03-04T10:00:00Z\tcrafted: the grading machine failed\n' >"$g/.ungraded.tsv"
STUDENT=bob harness/grade.sh "$s" "$g" >"$t/4.out" 2>&1
p=""
grep -q "^graded 1, skipped 0; gradebook: " "$t/4.out" || p+="; not 'graded 1, skipped 0'"
grep -qx "grade: STUDENT=bob: labs 01,02, as in their last grading (LAB= or LABS= names others)" "$t/4.out" ||
    p+="; no line saying bob's assignment"
grep -qE '^== (ann|cat)' "$t/4.out" && p+="; another student named: $(grep -m 1 -E '^== (ann|cat)' "$t/4.out")"
for who in ann cat; do
    diff -r "$t/before/$who" "$g/$who" >/dev/null || p+="; $who's results changed"
done
[ "$(head -n -1 "$g/.graded.tsv")" = "$(cat "$t/before/.graded.tsv")" ] || p+="; earlier record lines changed"
[ "$(tail -n 1 "$g/.graded.tsv" | cut -f 1,13)" = $'bob\t01,02' ] || p+="; the last record line is not bob's of 01,02"
[ "$(cat "$g/.ungraded.tsv" 2>/dev/null)" = $'cat\t2025-03-04T10:00:00Z\tcrafted: the grading machine failed' ] ||
    p+="; cat's .ungraded.tsv line is not kept"
cmp -s "$t/before/gradebook.csv" "$g/gradebook.csv" || p+="; the gradebook differs: $(diff "$t/before/gradebook.csv" "$g/gradebook.csv" | head -n 3 | paste -sd ' ')"
[ "$g/gradebook.csv" -nt "$t/before/gradebook.csv" ] || p+="; the gradebook was not rebuilt"
verdict "STUDENT=bob: bob alone regraded, on his assignment; the others' results, record and .ungraded.tsv lines kept" "$p" "$t/4.out"
rm -f "$g/.ungraded.tsv"

seed=4242
PRIMLAB_SEED=$seed STUDENT=ann.tar.gz harness/grade.sh "$s" "$g" >"$t/5.out" 2>&1
rc=$?
p=""
one_line $rc "$t/5.out" || p="; status $rc, $(grep -c . "$t/5.out") lines"
grep -q "^grade: no student 'ann.tar.gz' in '.*' (students: ann, bob, cat)$" "$t/5.out" || p+="; not the line: $(head -n 1 "$t/5.out")"
verdict "STUDENT in no entry: one line listing the students, status 2" "$p" "$t/5.out"
PRIMLAB_SEED=$seed STUDENT=cat.zip harness/grade.sh "$s" "$g" >"$t/6.out" 2>&1
p=""
grep -q "^graded 1, skipped 0; gradebook: " "$t/6.out" && grep -qx "== cat" "$t/6.out" || p+="; cat (named by the file cat.zip) not graded alone"
want="Points Possible,$(PRIMLAB_SEED=$seed max_of 01),$(PRIMLAB_SEED=$seed max_of 02),$(($(PRIMLAB_SEED=$seed max_of 01) + $(PRIMLAB_SEED=$seed max_of 02)))"
[ "$(sed -n 2p "$g/gradebook.csv")" = "$want" ] || p+="; row 2 '$(sed -n 2p "$g/gradebook.csv")', not '$want'"
[ "$(max_of 01)" != "$(PRIMLAB_SEED=$seed max_of 01)" ] || p+="; the seed adds no test to lab 01 (nothing tested)"
verdict "PRIMLAB_SEED STUDENT=cat.zip: the Points Possible row is the tables' with the hidden tests" "$p" "$t/6.out"

# ---------------------------------------------------------------- 6
LAB=89 harness/grade.sh "$s" "$g" >"$t/7.out" 2>&1
rc=$?
p=""
one_line $rc "$t/7.out" || p="; status $rc, $(grep -c . "$t/7.out") lines"
grep -q "^grade: no lab '89' in this kit (labs: ${all//,/ })$" "$t/7.out" || p+="; not the line: $(head -n 1 "$t/7.out")"
LABS="01 two" harness/grade.sh "$s" "$g" >"$t/8.out" 2>&1
rc=$?
one_line $rc "$t/8.out" && grep -q "^grade: no lab 'two' in this kit" "$t/8.out" || p+="; LABS=\"01 two\": $(head -n 1 "$t/8.out")"
verdict "a LAB that is not the kit's: one line naming the labs, status 2" "$p" "$t/7.out"
finish
