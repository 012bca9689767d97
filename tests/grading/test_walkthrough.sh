#!/usr/bin/env bash
# tests/grading/test_walkthrough.sh: the instructor guide's walk through one
# assignment (docs/instructor-guide.md, "One assignment, from the LMS's
# download to its gradebook") is run as written: each fenced block after a
# `<!-- walkthrough -->` line, in order, in one shell that stops at the
# first failing command; the block after `<!-- walkthrough: where -->` is
# replaced by this test's folders: a copy of the Canvas fixture's download
# and gradebook export (tests/fixtures/lms/canvas/), grades in a temporary folder,
# a seed of the test's own. Without a GPU every run is a practice run
# (PRIMLAB_NO_GPU=1, no scores); with one, the real run grades for real.
# Then it checks what each step promised:
#   - the four students of the download, one per Canvas user id;
#   - the gradebook: the Points Possible row, lab01 alone, the late
#     columns; Jones (handed in late) with a day's deduction;
#   - the import file, imported into a fresh copy of the roster the way
#     Canvas matches rows (by ID, then SIS User ID, then SIS Login ID):
#     every submitting student on the roster gets the gradebook's final
#     score (blank in a practice run, where the roster's own cell stays),
#     and the student who did not submit keeps the grade entered by hand;
#   - the output: ASSIGNMENT="Lab 1" is the roster's "Lab 1: prefix sum
#     (88213)", never a new column; the practice run says its maximum and
#     the graded run's (PRIMLAB_SEED), as the lab's table lists them; each
#     submission and its roster row; the late students;
#   - the regrade of one student adds one record line, for that student;
#   - the feedback bundle names no path of the grading machine, and
#     Canvas's upload zip holds the four reports;
#   - with a GPU, the seconds each student took (the record).
# Prints one line per check, then `N passed, N failed, N skipped`.
# tier: slow (the instructor guide's whole walk, a dry run of every step; CI and make test-slow run it)
set -u
cd "$(dirname "$0")/../.." || exit 2
kit=$(pwd -P)
t=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "test_walkthrough: the files are kept in $t"
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
. tests/lib/verdict.sh # say, verdict, finish, and the counts
unset PRIMLAB_SEED LAB LABS STUDENT FORCE JOBS SLURM DUE LATE ROSTER ASSIGNMENT
export GRADE_LOCK_WAIT=900 PRIMLAB_TIMEOUT=${PRIMLAB_TIMEOUT:-20}
guide=docs/instructor-guide.md

make -s --no-print-directory build/labs/lab01 >/dev/null 2>&1
gpu=0
has_gpu && gpu=1
[ "$gpu" = 1 ] || export PRIMLAB_NO_GPU=1

# the guide's blocks: "where" replaced, the others as they are (the list's
# indentation taken off)
blocks() {
    awk '
        /<!-- walkthrough(: where)? -->/ { want = ($0 ~ /where/) ? 2 : 1; next }
        want && /^ *```sh *$/ { inside = want; want = 0; n++; next }
        inside && /^ *```/ { inside = 0; next }
        inside == 2 { next }
        inside == 1 { sub(/^   /, ""); print }
    ' "$guide"
}
mkdir -p "$t/download" && cp tests/fixtures/lms/canvas/download/* "$t/download/" && cp tests/fixtures/lms/canvas/gradebook-export.csv "$t/roster.csv"
# the fixture's lab files are placeholders: the students hand in the stub,
# which compiles, as an instructor's first download mostly does
for f in "$t"/download/*prefix_sum*.cu; do cp labs/01-prefix-sum/prefix_sum.cu "$f"; done
{
    echo "set -e"
    printf 'kit=%q download=%q roster=%q grades=%q seed=%q\n' "$kit" "$t/download" "$t/roster.csv" "$t/grades" 4242
    blocks
} >"$t/walk.sh"
n_blocks=$(grep -c '<!-- walkthrough' "$guide")
p=""
[ "$n_blocks" -ge 5 ] || p="only $n_blocks walkthrough blocks in $guide"
grep -q '<!-- walkthrough: where -->' "$guide" || p="$p; no 'where' block"
verdict "the guide's walkthrough has its blocks ($n_blocks)" "$p"

SECONDS=0
bash "$t/walk.sh" >"$t/walk.log" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="the walkthrough stopped with status $rc: $(grep -v '^ *$' "$t/walk.log" | tail -n 3 | tr '\n' '|')"
verdict "every command of the walkthrough ran ($SECONDS s, $([ $gpu = 1 ] && echo "on the GPU" || echo "practice runs: no GPU"))" "$p" "$t/walk.log"

g=$t/grades
p=""
n=$(ls "$g/.incoming" 2>/dev/null | wc -l)
[ "$n" = 4 ] || p="$n students in GRADES/.incoming, not 4"
for s in smithbob_1001 jonesann_1002 leechris_1003 zedzoe_1099; do
    [ -f "$g/$s/results.json" ] || p="$p; no results for $s"
done
verdict "the download's four students, one per Canvas user id, graded" "$p"

p=$(python3 - "$g/gradebook.csv" "$gpu" 2>&1 <<'PY'
import csv, os, sys
if not os.path.isfile(sys.argv[1]):
    sys.exit("no " + sys.argv[1])
rows = list(csv.DictReader(open(sys.argv[1])))
gpu = sys.argv[2] == "1"
bad = []
head = list(rows[0].keys()) if rows else []
if head[:3] != ["student", "lab01", "total"]:
    bad.append("columns %s, not student,lab01,total first" % ",".join(head))
for c in ("late_days", "deduction", "final"):
    if c not in head:
        bad.append("no %s column" % c)
if not rows or rows[0]["student"] != "Points Possible":
    bad.append("no Points Possible row first")
by = {r["student"]: r for r in rows}
j = by.get("jonesann_1002")
if not j or j.get("late_days") != "1":
    bad.append("jonesann_1002 (late) has late_days %r, not 1" % (j and j.get("late_days")))
for name, r in by.items():
    if name == "Points Possible":
        continue
    if gpu and not r["total"]:
        bad.append("%s has no score after a run on the GPU" % name)
    if not gpu and r["total"] not in ("",):
        bad.append("%s scored %r in a practice run" % (name, r["total"]))
print("; ".join(bad))
PY
)
verdict "the gradebook: Points Possible, lab01 alone, the late columns, Jones a day late" "$p" "$g/gradebook.csv"

# the import, as Canvas does it: a row by ID (then SIS User ID, SIS Login
# ID); the assignment's column taken over where the file gives a value
p=$(python3 - "$t/roster.csv" "$g/lms-import.csv" "$g/gradebook.csv" "$t/imported.csv" "$gpu" 2>&1 <<'PY'
import csv, os, sys
roster, imp, book, out, gpu = sys.argv[1:6]
for f in (imp, book):
    if not os.path.isfile(f):
        sys.exit("no " + f)
gpu = gpu == "1"
rrows = list(csv.reader(open(roster)))
irows = list(csv.reader(open(imp)))
head = rrows[0]
col = next(i for i, h in enumerate(head) if h.startswith("Lab 1"))
icol = next(i for i, h in enumerate(irows[0]) if h.startswith("Lab 1"))
keys = [irows[0].index(k) for k in ("ID", "SIS User ID", "SIS Login ID")]
given = {}
for r in irows[1:]:
    if r[0].strip() == "Points Possible":
        continue
    for k in keys:
        if r[k]:
            given[(k, r[k])] = r[icol]
fresh = [list(r) for r in rrows]
for r in fresh[1:]:
    if r[0].strip() == "Points Possible":
        continue
    for k, name in zip(keys, ("ID", "SIS User ID", "SIS Login ID")):
        v = given.get((k, r[head.index(name)]))
        if v is not None:
            if v != "":
                r[col] = v
            break
csv.writer(open(out, "w", newline="")).writerows(fresh)
final = {r["student"]: r["final"] for r in csv.DictReader(open(book))}
ids = {"1001": "smithbob_1001", "1002": "jonesann_1002", "1003": "leechris_1003"}
bad = []
for r in fresh[2:]:
    sid = r[head.index("ID")]
    want = final.get(ids.get(sid, ""), None) if sid in ids else None
    if sid == "1004":
        if r[col] != "12":
            bad.append("Doe (no submission) lost the grade entered by hand: %r" % r[col])
    elif gpu:
        try:
            ok = want not in (None, "") and abs(float(r[col]) - float(want)) < 1e-6
        except ValueError:
            ok = False
        if not ok:
            bad.append("ID %s imported %r, the gradebook's final is %r" % (sid, r[col], want))
    elif r[col] != "":
        bad.append("ID %s imported %r from a practice run" % (sid, r[col]))
print("; ".join(bad))
PY
)
verdict "the import file, imported into a fresh copy of the roster, gives each student the gradebook's final" "$p" "$t/imported.csv"

p=""
grep -q 'zedzoe_1099' "$g/lms-unmatched.txt" 2>/dev/null || p="zedzoe_1099 (not on the roster) not listed in lms-unmatched.txt"
grep -qi 'doe' "$g/lms-unmatched.txt" 2>/dev/null || p="$p; Doe (no submission) not listed"
verdict "who is on one side only: listed" "$p"

# what the run's output says: the roster's column that ASSIGNMENT="Lab 1"
# is (never a new one), the maximum of the practice run and of the graded
# run (PRIMLAB_SEED) as the lab's table lists them, each submission and
# its roster row, the late students
public=$(build/tables/lab01 list | sed -n 's/^total: \(.*\) points$/\1/p')
seeded=$(PRIMLAB_SEED=7 build/tables/lab01 list | sed -n 's/^total: \(.*\) points$/\1/p')
p=""
w=$t/walk.log
[ "$(grep -c "^lms: ASSIGNMENT='Lab 1' is the column 'Lab 1: prefix sum (88213)' of the Canvas roster" "$w")" = 3 ] ||
    p="not 3 runs (practice, real, regrade) saying ASSIGNMENT='Lab 1' is 'Lab 1: prefix sum (88213)'"
! grep -qi 'new column\|new assignment' "$w" || p="$p; a new column made"
[ "$(head -n 1 "$g/lms-import.csv" 2>/dev/null | awk -F, '{ print $NF }')" = "Lab 1: prefix sum (88213)" ] ||
    p="$p; the import file's column is not the roster's 'Lab 1: prefix sum (88213)'"
grep -q "^lms: points possible: $public in this run (no PRIMLAB_SEED: the public tests alone); the graded run (PRIMLAB_SEED set: hidden tests added) is out of $seeded: " "$w" ||
    p="$p; the practice run does not say $public here and $seeded in the graded run"
grep -q "^lms: points possible: $seeded in this run (PRIMLAB_SEED set: hidden tests added); $public without PRIMLAB_SEED" "$w" ||
    p="$p; the real run does not say $seeded here and $public without a seed"
grep -q '^  smithbob_1001 -> Smith, Bob (ID 1001, SIS User ID S1001), by user id$' "$w" || p="$p; no matched pair for smithbob_1001"
grep -qE '^  jonesann_1002 +1 day ' "$w" || p="$p; jonesann_1002 not listed 1 day late"
verdict "the output: the column 'Lab 1' is, both maxima ($public, $seeded), the matched pairs, the late" "$p" "$w"

p=""
[ -f "$g/.graded.tsv" ] || p="no record $g/.graded.tsv"
lines=$(awk -F '\t' '$1 == "smithbob_1001"' "$g/.graded.tsv" 2>/dev/null | wc -l)
others=$(awk -F '\t' '$1 != "smithbob_1001"' "$g/.graded.tsv" 2>/dev/null | wc -l)
[ "$lines" = 2 ] || p="smithbob_1001 has $lines record lines, not 2 (graded, then regraded)"
[ "$others" = 3 ] || p="$p; the others have $others record lines, not 3"
verdict "the regrade of one student: one more record line, that student's" "$p"

p=""
if [ -d "$g/feedback" ]; then
    leak=$(grep -rlE -e "$kit" -e "$t" -e '/build/|/stage/|/tmp/' "$g/feedback" 2>/dev/null | head -n 3)
    [ -z "$leak" ] || p="a grader path in $leak"
    [ "$(ls "$g/feedback" | grep -v '^canvas-upload\.zip$' | grep -c '\.zip$')" = 4 ] ||
        p="$p; not one zip per student: $(ls "$g/feedback" | tr '\n' ' ')"
    [ "$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' \
        "$g/feedback/canvas-upload.zip" 2>/dev/null)" = 4 ] || p="$p; no canvas-upload.zip of the 4 reports"
else
    p="no $g/feedback after make feedback"
fi
verdict "the feedback bundle: a zip per student and Canvas's upload zip, no grader path" "$p"

if [ "$gpu" = 1 ]; then
    echo "      seconds per student (the record): $(awk -F '\t' '{ printf "%s %s s; ", $1, $9 }' "$g/.graded.tsv")"
    p=$(awk -F '\t' '$10 != "gpu" { print $1 " graded in mode " $10 }' "$g/.graded.tsv" | head -n 2 | tr '\n' ';')
    verdict "graded for real on the GPU (the record's mode)" "$p"
else
    say SKIP "graded for real on the GPU" "no GPU here (practice runs only)"
fi
finish
