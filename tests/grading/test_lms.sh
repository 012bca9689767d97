#!/usr/bin/env bash
# tests/grading/test_lms.sh: an LMS's files into and out of make grade
# (harness/lms.py), on the fixtures of tests/fixtures/lms/:
#   canvas/download      a "Download Submissions" zip's flat files: four
#                        students, one late (_LATE_), one with two files
#                        (one renamed by a resubmission, -1), one not on
#                        the roster, and a file that names no student;
#   canvas/gradebook-export.csv   the gradebook export (a student who did
#                        not submit, with a grade entered by hand that
#                        stays, the Points Possible row);
#   gradescope/download  "Export Submissions": folders and
#                        submission_metadata.yml, one late by created_at,
#                        one in another zone; gradescope/gradebook-export.csv;
#   moodle/grades-export.csv      Moodle's grade export;
#   */expected-import.csv         what the LMS is to import.
#   1. unit level: the file names, DUE and LATE, their one-line errors;
#      ASSIGNMENT matched to a column by its title, Canvas's id or the
#      start of its title (at a word's end), none or several an error
#      listing the columns, a new Canvas column only by "new:<title>";
#      lms.py on each fixture with made-up scores (a hand-made GRADES),
#      the import files compared cell by cell with the expected ones, the
#      late columns and the report's late line, the unmatched lists, and
#      on the output the points of a run without and with PRIMLAB_SEED,
#      the matched pairs and the late students; a roster that cannot be
#      used keeps the late columns; the download as a zip gives the
#      same entries (the skip rule's checksum);
#   2. one dry run of make grade LAB=01 on a copy of the Canvas download
#      with DUE, LATE, ROSTER and ASSIGNMENT: the students, submissions.tsv,
#      the late line, the import file (no score: a dry run), the output's
#      column line (before anyone is graded), both maxima (as labNN list
#      gives them), pairs and late days, then a rerun that skips everyone,
#      and a bad ASSIGNMENT: one line and the columns, nothing changed; one
#      of the Gradescope export, its import file compared cell by cell.
#      Needs a working bwrap, else 2 is skipped.
#      (tests/grading/test_walkthrough.sh grades the Canvas class for real on a GPU.)
set -u
cd "$(dirname "$0")/../.." || exit 2
export GRADE_LOCK_WAIT=900 PRIMLAB_LIMITS=0
unset PRIMLAB_SEED DUE LATE ROSTER ASSIGNMENT
pass=0 fail=0
t=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "test_lms: the files are kept in $t"
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
check() { # check NAME COMMAND...
    if "${@:2}" >"$t/log" 2>&1; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1"; sed 's/^/    /' "$t/log" | tail -n 15
    fi
}
lms=harness/lms.py
stub=labs/01-prefix-sum/prefix_sum.cu

# same_csv GOT WANT: the two CSV files alike, cell by cell (the first cell that differs is printed)
same_csv() {
    python3 - "$1" "$2" <<'PY'
import csv, sys
got, want = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:3])
for r in range(max(len(got), len(want))):
    g = got[r] if r < len(got) else None
    w = want[r] if r < len(want) else None
    if g is None or w is None:
        sys.exit("row %d: %s, expected %s" % (r + 1, g, w))
    for c in range(max(len(g), len(w))):
        gc = g[c] if c < len(g) else "(none)"
        wc = w[c] if c < len(w) else "(none)"
        if gc != wc:
            sys.exit("row %d, column %d (%s): '%s', expected '%s'" % (r + 1, c + 1, w[0] if w else "", gc, wc))
PY
}

# cell FILE STUDENT COLUMN: one cell of a gradebook, by header name
cell() {
    python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(next(r[sys.argv[3]] for r in rows if r["student"] == sys.argv[2]))' "$@"
}

# one_line_error WANT ARGS...: lms.py ARGS fails with status 2 and one line holding WANT
one_line_error() {
    local want=$1 err rc
    shift
    err=$(python3 $lms "$@" 2>&1 >/dev/null)
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -qF -- "$want" <<<"$err" ||
        { echo "status $rc, stderr: $err (wanted one line with: $want)"; return 1; }
}

# listing_error WANT LISTING ARGS...: lms.py ARGS fails with status 2: one
# line holding WANT, then LISTING (the lines under it, '|' between) and
# nothing else
listing_error() {
    local want=$1 listing=$2 err rc
    shift 2
    err=$(python3 $lms "$@" 2>&1 >/dev/null)
    rc=$?
    [ $rc = 2 ] && grep -qF -- "$want" <<<"$(head -n 1 <<<"$err")" &&
        [ "$(tail -n +2 <<<"$err" | paste -sd '|')" = "$listing" ] ||
        { echo "status $rc, stderr: $err (wanted one line with: $want, then: $listing)"; return 1; }
}
canvas_roster=tests/fixtures/lms/canvas/gradebook-export.csv
canvas_columns="  Lab 1: prefix sum (88213)|  Lab 2: Blelloch scan (88214)|  Lab 1b: bonus (88241)"

# ------------------------------------------------------------------ 1

check "Canvas file names: the student, the late mark, the original name" python3 - <<'PY'
import sys
sys.path.insert(0, "harness")
import lms
p = lms.canvas_parse("jonesann_LATE_1002_50002_prefix_sum.cu")
assert (p["name"], p["uid"], p["late"], p["aid"], p["file"], p["student"]) == \
    ("jonesann", "1002", True, 50002, "prefix_sum.cu", "jonesann_1002"), p
p = lms.canvas_parse("leechris_1003_50004_prefix_sum-1.cu")
assert p["file"] == "prefix_sum.cu" and not p["late"], p
assert lms.canvas_parse("leechris_1003_50005_my_file_2_3.tar.gz")["file"] == "my_file_2_3.tar.gz"
assert lms.canvas_parse("leechris_1003_50005_lab-12.tar.gz")["file"] == "lab.tar.gz"
assert lms.canvas_parse("LATE_anon_x7Kq2_50006_prefix_sum.cu")["student"] == "anon_x7Kq2"
assert lms.canvas_parse("smithbob_1001_text.html")["file"] == "text.html"
assert lms.canvas_parse("notes.txt") is None and lms.canvas_parse("alice.zip") is None
assert lms.student_name("Zoë O'Brien") == "Zo___O_Brien"  # as tr does it: byte by byte and lms.student_name(".x") == "_.x"
PY

check "DUE and LATE: zones, the rule, its cap" python3 - <<'PY'
import sys
sys.path.insert(0, "harness")
import lms
assert lms.iso(lms.parse_due("2026-11-20T23:59")) == "2026-11-20T23:59:59Z"  # the whole minute
assert lms.iso(lms.parse_due("2026-11-20T23:59:00")) == "2026-11-20T23:59:00Z"
assert lms.iso(lms.parse_due("2026-11-20T23:59+01:00")) == "2026-11-20T22:59:59Z"
assert lms.iso(lms.parse_due("2026-11-20 23:59:30-0500")) == "2026-11-21T04:59:30Z"
assert lms.iso(lms.parse_due("2026-11-20T23:59 America/New_York")) == "2026-11-21T04:59:59Z"
assert lms.parse_late("none") == (0, 0) and lms.parse_late("10%/day") == (10, 100)
assert lms.parse_late("12.5%/day,max=50%") == (12.5, 50)
due = lms.parse_due("2026-11-20T23:59")
sub = lambda at: {"lms": "gradescope", "submitted_at": at}
assert lms.late_of(sub("2026-11-20T23:59:59Z"), due, (10, 50))[:2] == (0, 0)
assert lms.late_of(sub("2026-11-21T00:00:00Z"), due, (10, 50))[:2] == (1, 10)   # a started day
assert lms.late_of(sub("2026-11-22T00:00:00Z"), due, (10, 50))[:2] == (2, 20)
assert lms.late_of(sub("2026-12-20T00:00:00Z"), due, (10, 50))[:2] == (30, 50)  # the cap
assert lms.late_of({"lms": "canvas", "late_mark": "LATE"}, due, (10, 50))[:2] == (1, 10)
assert lms.late_of({"lms": "canvas", "late_mark": ""}, due, (10, 50))[:2] == (0, 0)
assert lms.late_of(None, due, (10, 50))[:2] == ("", 0)
PY

# errors_one_line: each bad DUE, LATE, ROSTER or ASSIGNMENT is one line, status 2
errors_one_line() {
    one_line_error "DUE='20 Nov' is not a date and time" check --due "20 Nov" &&
        one_line_error "DUE='2026-13-01T10:00': month must be in 1..12" check --due 2026-13-01T10:00 &&
        one_line_error "no time zone 'Mars/Base'" check --due "2026-11-20T23:59 Mars/Base" &&
        one_line_error "LATE='10/day': a rate and a cap are percentages" check --due 2026-11-20T23:59 --late 10/day &&
        one_line_error "LATE='10%/week' is not a late rule" check --due 2026-11-20T23:59 --late "10%/week" &&
        one_line_error "a percentage is from 0% to 100%" check --due 2026-11-20T23:59 --late "10%/day,max=150%" &&
        one_line_error "LATE='10%/day' needs DUE" check --late 10%/day &&
        one_line_error "ASSIGNMENT='Lab 1' needs ROSTER" check --assignment "Lab 1" &&
        listing_error "needs ASSIGNMENT=\"<the column to fill>\": the title, id or start of the title of one of these:" \
            "$canvas_columns" check --roster $canvas_roster &&
        one_line_error "is not a Canvas, Gradescope or Moodle gradebook export" \
            check --roster tests/fixtures/lms/canvas/download/notes.txt --assignment x &&
        listing_error "ASSIGNMENT='Lab 9' matches no assignment column of the Gradescope roster" "  Lab 1" \
            check --roster tests/fixtures/lms/gradescope/gradebook-export.csv --assignment "Lab 9" &&
        listing_error "ASSIGNMENT='Lab 9' matches no assignment column of the Moodle roster" "  Assignment: Lab 1 (Real)" \
            check --roster tests/fixtures/lms/moodle/grades-export.csv --assignment "Lab 9"
}
check "DUE, LATE, ROSTER, ASSIGNMENT: one-line errors" errors_one_line

# ASSIGNMENT="Lab 1" against Canvas's "Lab 1: prefix sum (88213)" fills
# that column (the start of its title at a word's end: never "Lab 1b"), as
# do its whole title and its id; none or several: an error listing the
# assignment columns; a new column only by "new:<title>", and never one
# whose title is there already (Canvas's import would make a duplicate)
check "ASSIGNMENT: the column by its title, its id or the start of its title" python3 - <<'PY'
import sys
sys.path.insert(0, "harness")
import lms
roster = "tests/fixtures/lms/canvas/gradebook-export.csv"
kind, table = lms.read_roster(roster)
col = table[0].index("Lab 1: prefix sum (88213)")
for a, how in (("Lab 1", "the start of its title"), ("lab 1:", "the start of its title"), ("88213", "its id"),
               ("Lab 1: prefix sum", "its title"), ("LAB 1: PREFIX SUM (88213)", "its title")):
    assert lms.find_column(kind, table, a, roster) == (col, how), (a, lms.find_column(kind, table, a, roster))
assert lms.find_column(kind, table, "Lab 1b", roster)[0] == table[0].index("Lab 1b: bonus (88241)")
assert lms.find_column(kind, table, "new:Lab 3", roster) == (None, "new")
for bad in ("Lab", "Lab 9", "88999", "Lab 1: prefix summ", "new:Lab 1: prefix sum", "new:", "prefix sum"):
    try:
        lms.find_column(kind, table, bad, roster)
        sys.exit("ASSIGNMENT=%r found a column" % bad)
    except lms.Bad as e:
        want = ["  Lab 1: prefix sum (88213)", "  Lab 2: Blelloch scan (88214)", "  Lab 1b: bonus (88241)"]
        if not bad.startswith("new:"):
            assert e.lines == want, (bad, e.lines)
assert lms.starts_word("Lab 1: prefix sum", "Lab 1") and not lms.starts_word("Lab 1b: bonus", "Lab 1")
assert lms.starts_word("Lab 1 (Real)", "lab 1") and lms.starts_word("Lab 1-2", "Lab 1") and not lms.starts_word("Lab 1", "Lab 1")
# the same title twice (Canvas allows it): an error naming both, by id
two = [table[0][:5] + ["Quiz (7)", "Quiz (8)", "Quiz 2 (9)"]]
try:
    lms.find_column("canvas", two, "Quiz", "x.csv")
    sys.exit("two columns titled Quiz: one was taken")
except lms.Bad as e:
    assert "matches 2 assignment columns" in str(e) and "by its id" in str(e) and e.lines == ["  Quiz (7)", "  Quiz (8)"], (str(e), e.lines)
assert lms.find_column("canvas", two, "8", "x.csv") == (6, "its id")
# Gradescope: its "- Max Points" and lateness columns are no assignment; Moodle: with or without the module
gkind, gtable = lms.read_roster("tests/fixtures/lms/gradescope/gradebook-export.csv")
assert [n[0] for _, n, _ in lms.assignment_columns(gkind, gtable[0])] == ["Lab 1"]
mkind, mtable = lms.read_roster("tests/fixtures/lms/moodle/grades-export.csv")
for a in ("Lab 1", "Assignment: Lab 1", "Assignment: Lab 1 (Real)", "lab"):
    assert lms.find_column(mkind, mtable, a, "m.csv")[0] == 6, a
PY
errors_assignment() {
    listing_error "ASSIGNMENT='Lab 9' matches no assignment column of the Canvas roster '$canvas_roster' (by title, id or the start of a title); name one of these, or ASSIGNMENT='new:Lab 9' for a new assignment:" \
        "$canvas_columns" check --roster $canvas_roster --assignment "Lab 9" &&
        listing_error "ASSIGNMENT='Lab' matches 3 assignment columns of the Canvas roster '$canvas_roster' (the start of the title of each); name one by its whole title or its id:" \
            "$canvas_columns" check --roster $canvas_roster --assignment "Lab" &&
        one_line_error "ASSIGNMENT='new:Lab 1: prefix sum': the Canvas roster '$canvas_roster' has 'Lab 1: prefix sum (88213)' already" \
            check --roster $canvas_roster --assignment "new:Lab 1: prefix sum" &&
        one_line_error "ASSIGNMENT='new:Lab 3': a new column is for Canvas alone" \
            check --roster tests/fixtures/lms/moodle/grades-export.csv --assignment "new:Lab 3" &&
        [ "$(python3 $lms check --roster $canvas_roster --assignment "Lab 1")" = \
            "lms: ASSIGNMENT='Lab 1' is the column 'Lab 1: prefix sum (88213)' of the Canvas roster 'gradebook-export.csv' (by the start of its title)" ] &&
        [ "$(python3 $lms check --roster $canvas_roster --assignment "new:Lab 3")" = \
            "lms: ASSIGNMENT='new:Lab 3': a new column 'Lab 3' in the import file: Canvas makes the assignment when the file is imported" ]
}
check "ASSIGNMENT: none or several columns, one line and the candidates; a new one only by new:<title>" errors_assignment

# made-up grades: GRADES from lms.py incoming, then a gradebook, reports and a record
# fake_student GRADES NAME TOTAL MODE: a graded student's files
fake_student() {
    mkdir -p "$1/$2"
    printf 'lab01 subtotal: %s/50\nScore: %s/50\n' "$3" "$3" >"$1/$2/report.txt"
    printf '# lab\tname\tkind\thidden\tstatus\tpoints\tmax\n01\t01.a\tcorrectness\t0\tOK\t%s\t30\n01\t01.b\tperformance\t0\tOK\t0\t20\n' \
        "$3" >"$1/$2/scores.tsv"
    printf '%s\tsum\t2026-11-21T00:00:00Z\thost\t-\t-\t-\t-\t1.0\t%s\tpublic\tkit\n' "$2" "$4" >>"$1/.graded.tsv"
}
cg=$t/canvas-grades
mkdir -p "$cg"
python3 $lms incoming tests/fixtures/lms/canvas/download "$cg" >"$t/canvas-incoming.out"
printf 'student,lab01,total\nPoints Possible,50,50\n' >"$cg/gradebook.csv"
for s in jonesann_1002:45 leechris_1003:30 smithbob_1001:40 zedzoe_1099:none; do
    fake_student "$cg" "${s%%:*}" "${s#*:}" gpu
    echo "${s%%:*},${s#*:},${s#*:}" >>"$cg/gradebook.csv"
done
check "Canvas: the students of the download, and the file that names none" bash -c "
    grep -qx '== notes.txt: names no student (not a Canvas submission file): not graded' $t/canvas-incoming.out &&
    [ \"\$(ls $cg/.incoming)\" = \"\$(printf 'jonesann_1002\nleechris_1003\nsmithbob_1001\nzedzoe_1099\n')\" ] &&
    [ -f $cg/.incoming/leechris_1003/prefix_sum.cu ] && [ -f $cg/.incoming/leechris_1003/scan_helpers.cuh ] &&
    grep -qP '^jonesann_1002\tcanvas\t1002\t\t\tjonesann\t\tLATE\t50002$' $cg/submissions.tsv &&
    grep -qP '^leechris_1003\t.*\t50004$' $cg/submissions.tsv"
python3 $lms finish "$cg" --due 2026-11-20T23:59 --late "10%/day,max=50%" \
    --roster $canvas_roster --assignment "Lab 1" --points-public 50 --points-seed 61 >"$t/canvas-finish.out" 2>&1
check "Canvas: the import file, cell by cell" same_csv "$cg/lms-import.csv" tests/fixtures/lms/canvas/expected-import.csv
check "Canvas: the late columns (a late mark: one day, 10% of 50 points)" bash -c "
    [ \"\$(head -n 1 $cg/gradebook.csv)\" = student,lab01,total,late_days,deduction,final ] &&
    [ \"\$(sed -n 2p $cg/gradebook.csv)\" = 'Points Possible,50,50,,,50' ] &&
    [ \"$(cell "$cg/gradebook.csv" jonesann_1002 late_days) $(cell "$cg/gradebook.csv" jonesann_1002 deduction) $(cell "$cg/gradebook.csv" jonesann_1002 final)\" = '1 5 40' ] &&
    [ \"$(cell "$cg/gradebook.csv" smithbob_1001 late_days) $(cell "$cg/gradebook.csv" smithbob_1001 final)\" = '0 40' ] &&
    [ \"$(cell "$cg/gradebook.csv" zedzoe_1099 final)\" = '' ]"
check "Canvas: the report's late line" bash -c "
    grep -qx 'late: submitted at a time the download does not give (Canvas marks it late), due 2026-11-20T23:59:59Z: counted as 1 day late (the least a late mark means), deduction 10% of the points possible (LATE=10%/day,max=50%)' $cg/jonesann_1002/report.txt &&
    [ \"\$(grep -c '^late: ' $cg/smithbob_1001/report.txt)\" = 1 ] && grep -q '^Score: 40/50' $cg/smithbob_1001/report.txt"
check "Canvas: the roster student with no submission, the submission with no roster row" bash -c "
    grep -qx '  Doe, Dana (ID 1004, SIS User ID S1004)' $cg/lms-unmatched.txt &&
    grep -qx '  zedzoe_1099 (user_id 1099)' $cg/lms-unmatched.txt && grep -qx '  zedzoe_1099 (user_id 1099)' $t/canvas-finish.out &&
    grep -q 'Canvas import file: .*lms-import.csv' $t/canvas-finish.out"
# a later run without ROSTER (a regrade, say): the import file and the
# roster's list no longer match the gradebook, nor the class report's counts
cp -r "$cg" "$t/canvas-noroster"
python3 $lms finish "$t/canvas-noroster" --points-public 50 --points-seed 61 >"$t/canvas-noroster.out" 2>&1
check "Canvas: a run without ROSTER removes the earlier run's import file and roster list, and says so" bash -c "
    [ ! -e $t/canvas-noroster/lms-import.csv ] && [ ! -e $t/canvas-noroster/lms-unmatched.txt ] &&
    grep -qx 'lms: no ROSTER in this run: lms-import.csv and lms-unmatched.txt of an earlier run removed (it no longer matches the gradebook)' $t/canvas-noroster.out"
# on the run's output: the maximum of this run and of the graded one (with
# PRIMLAB_SEED), so that a practice run says what to set the LMS to; each
# submission and its roster row; who is late, by how much
check "Canvas: the run's output: the points of both runs, the LMS's out of date, matched pairs, late days" bash -c "
    grep -qx 'lms: points possible: 50 in this run (no PRIMLAB_SEED: the public tests alone); the graded run (PRIMLAB_SEED set: hidden tests added) is out of 61: set the LMS'\''s points possible to 61' $t/canvas-finish.out &&
    grep -qx 'lms: note: Canvas'\''s '\''Lab 1: prefix sum (88213)'\'' has points possible 50, the graded run'\''s grades are out of 61: set it to 61 in Canvas before importing (or import them as they are)' $t/canvas-finish.out &&
    grep -qx 'lms: submissions matched to a row of the Canvas roster (3):' $t/canvas-finish.out &&
    grep -qx '  jonesann_1002 -> Jones, Ann (ID 1002, SIS User ID S1002), by user id' $t/canvas-finish.out &&
    grep -qx '  smithbob_1001 -> Smith, Bob (ID 1001, SIS User ID S1001), by user id' $t/canvas-finish.out &&
    ! grep -q '  zedzoe_1099 ->' $t/canvas-finish.out &&
    grep -qx 'lms: late against DUE 2026-11-20T23:59:59Z (LATE=10%/day,max=50%): 1 of 4 graded' $t/canvas-finish.out &&
    grep -qE '^  jonesann_1002 +1 day +deduction 5 \(10% of 50\) +Canvas'\''s late mark' $t/canvas-finish.out &&
    [ \$(grep -c '^  .* day' $t/canvas-finish.out) = 1 ] || { cat $t/canvas-finish.out; exit 1; }"
cp -r "$cg" "$t/canvas-seeded"
python3 $lms finish "$t/canvas-seeded" --points-public 50 --points-seed 61 --seeded >"$t/canvas-seeded.out" 2>&1
check "a graded run (PRIMLAB_SEED): its points and the practice run's" \
    grep -qx 'lms: points possible: 61 in this run (PRIMLAB_SEED set: hidden tests added); 50 without PRIMLAB_SEED' "$t/canvas-seeded.out"
check "no DUE: the late line and columns go" bash -c "! grep -q '^late: ' $t/canvas-seeded/jonesann_1002/report.txt &&
    [ \"\$(head -n 1 $t/canvas-seeded/gradebook.csv)\" = student,lab01,total ]"
python3 $lms finish "$cg" --due 2026-11-20T23:59 --roster $canvas_roster --assignment "Lab 3" >"$t/canvas-lab3.out" 2>&1
echo $? >"$t/canvas-lab3.rc"
check "Canvas, a title of no column: status 2, the candidates, no import file, the late columns kept" bash -c "
    [ \$(cat $t/canvas-lab3.rc) = 2 ] && grep -q \"^lms: ASSIGNMENT='Lab 3' matches no assignment column\" $t/canvas-lab3.out &&
    grep -qx '  Lab 1b: bonus (88241)' $t/canvas-lab3.out &&
    head -n 1 $cg/gradebook.csv | grep -q ',late_days,deduction,final$' && grep -q '^late: ' $cg/jonesann_1002/report.txt &&
    grep -q 'Lab 1: prefix sum' $cg/lms-import.csv"
python3 $lms finish "$cg" --roster $canvas_roster --assignment "new:Lab 3" --points-public 50 --points-seed 61 >"$t/canvas-new.out" 2>&1
check "Canvas, ASSIGNMENT=new:Lab 3: a new column, out of the graded run's points possible, said so" bash -c "
    [ \"\$(head -n 2 $cg/lms-import.csv)\" = \"\$(printf 'Student,ID,SIS User ID,SIS Login ID,Section,Lab 3\n    Points Possible,,,,,61\n')\" ] &&
    grep -qx '\"Jones, Ann\",1002,S1002,ajones,CS 4xx,45' $cg/lms-import.csv &&
    grep -q \"(column 'Lab 3', a new assignment: ASSIGNMENT=new:...;\" $t/canvas-new.out"

mkdir -p "$t/zipped" && (cd tests/fixtures/lms/canvas/download && zip -q -r "$t/zipped/submissions.zip" .) 2>/dev/null ||
    python3 -c 'import os, sys, zipfile
z = zipfile.ZipFile(sys.argv[2], "w")
for f in sorted(os.listdir(sys.argv[1])): z.write(os.path.join(sys.argv[1], f), f)' tests/fixtures/lms/canvas/download "$t/zipped/submissions.zip"
python3 $lms incoming "$t/zipped" "$t/zip-grades" >/dev/null 2>&1
tree_sum() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum) | sha256sum; }
check "Canvas: the downloaded zip as it is gives the same entries (same checksums)" \
    [ "$(tree_sum "$t/zip-grades/.incoming")" = "$(tree_sum "$cg/.incoming")" ]

gg=$t/gradescope-grades
mkdir -p "$gg"
python3 $lms incoming tests/fixtures/lms/gradescope/download "$gg" >"$t/gs-incoming.out"
printf 'student,lab01,total\n' >"$gg/gradebook.csv"
for s in Alice_Ng_A100:50:gpu Bob_Ode_B200:40:gpu Carol_Park_C300:0:dry; do
    IFS=: read -r who total mode <<<"$s"
    fake_student "$gg" "$who" "$total" "$mode"
    echo "$who,$total,$total" >>"$gg/gradebook.csv"
done
check "Gradescope: submitters, times in UTC, the stray file" bash -c "
    grep -qx '== assignment_777_export/README.txt: names no student (not in a submission folder): not graded' $t/gs-incoming.out &&
    grep -qP '^Bob_Ode_B200\tgradescope\t\tB200\tbob@uni.edu\tBob Ode\t2026-11-22T08:00:00Z\t\t$' $gg/submissions.tsv &&
    grep -qP '^Carol_Park_C300\t.*\t2026-11-20T22:30:00Z\t\t$' $gg/submissions.tsv &&
    grep -qP '^Alice_Ng_A100\t.*\t2026-11-20T21:15:42Z\t\t$' $gg/submissions.tsv &&
    [ -f $gg/.incoming/Bob_Ode_B200/include/helpers.cuh ]"
python3 $lms finish "$gg" --due 2026-11-20T23:59 --late 10%/day \
    --roster tests/fixtures/lms/gradescope/gradebook-export.csv --assignment "Lab 1" >"$t/gs-finish.out" 2>&1
check "Gradescope: the import file, cell by cell (a dry run's student blank)" same_csv "$gg/lms-import.csv" tests/fixtures/lms/gradescope/expected-import.csv
check "Gradescope: 2 started days late, 20% of the 50 points possible (scores.tsv's max)" bash -c "
    [ \"$(cell "$gg/gradebook.csv" Bob_Ode_B200 late_days) $(cell "$gg/gradebook.csv" Bob_Ode_B200 deduction) $(cell "$gg/gradebook.csv" Bob_Ode_B200 final)\" = '2 10 30' ] &&
    [ \"$(cell "$gg/gradebook.csv" Carol_Park_C300 late_days)|$(cell "$gg/gradebook.csv" Carol_Park_C300 final)\" = '0|' ] &&
    grep -qx 'late: submitted 2026-11-22T08:00:00Z, due 2026-11-20T23:59:59Z: 2 days late, deduction 20% of the points possible (LATE=10%/day)' $gg/Bob_Ode_B200/report.txt &&
    grep -qx '  Erin Quay (SID E500, Email erin@uni.edu)' $gg/lms-unmatched.txt &&
    grep -qx 'lms: submissions with no roster row (0):' $gg/lms-unmatched.txt"
python3 $lms finish "$gg" --due 2026-11-20T23:59 --late 10%/day \
    --roster tests/fixtures/lms/moodle/grades-export.csv --assignment "Lab 1" >"$t/moodle-finish.out" 2>&1
check "Moodle: the import file, cell by cell (by ID number and email)" same_csv "$gg/lms-import.csv" tests/fixtures/lms/moodle/expected-import.csv
check "Moodle: the roster student with no submission" \
    grep -qx '  Erin Quay (ID number E500, Email address erin@uni.edu)' "$gg/lms-unmatched.txt"

mkdir -p "$t/one-zip" && cp tests/fixtures/lms/canvas/download/smithbob_1001_50001_prefix_sum.cu "$t/one-zip/" &&
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").writestr("lab/prefix_sum.cu", "x")' \
        "$t/one-zip/leechris_1003_50010_lab1-2.zip"
python3 $lms incoming "$t/one-zip" "$t/one-zip-grades" >/dev/null 2>&1
check "Canvas: a student who hands in one archive alone: the archive is the entry" bash -c "
    [ -f $t/one-zip-grades/.incoming/leechris_1003.zip ] && [ -f $t/one-zip-grades/.incoming/smithbob_1001/prefix_sum.cu ]"
mkdir -p "$t/gs-zip" && (cd tests/fixtures/lms/gradescope/download && python3 -c 'import os, sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w")
for top, dirs, files in os.walk("."):
    for f in files: z.write(os.path.join(top, f), os.path.relpath(os.path.join(top, f)))' "$t/gs-zip/export.zip")
python3 $lms incoming "$t/gs-zip" "$t/gs-zip-grades" >/dev/null 2>&1
check "Gradescope: the export's zip as it is gives the same entries" bash -c "
    [ \"\$(cd $t/gs-zip-grades/.incoming && find . -type f | sort)\" = \"\$(cd $t/gradescope-grades/.incoming && find . -type f | sort)\" ]"

# The students' names: lms.py's are grade.sh's, and no name is one of
# GRADES's own files (a student's folder would take its place)
eval "$(sed -n '/^student_name() {/,/^}/p' harness/grade.sh)"
names=("gradebook.csv.zip" "feedback" "report.html" "submissions.tsv.tar.gz" "lms-import.csv" ".x" "a b.zip.tgz"
    "Zoë_12.zip" "report.md" "lms-unmatched.txt" "ann")
check "student names: grade.sh's and lms.py's agree, none is one of GRADES's own files" python3 - "$(
    for n in "${names[@]}"; do student_name "$n"; done | paste -sd '|')" "${names[@]}" <<'PY'
import sys
sys.path.insert(0, "harness")
from lms import student_name, GRADES_OWN
sh = sys.argv[1].split("|")
py = [student_name(n) for n in sys.argv[2:]]
assert sh == py, (sh, py)
assert not set(py) & set(GRADES_OWN), py
assert py[0] == "_gradebook.csv" and py[-1] == "ann" and py[6] == "a_b", py
PY

# ------------------------------------------------------------------ 2

if ! command -v bwrap >/dev/null 2>&1 || ! bwrap --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null; then
    echo "SKIP: make grade on a Canvas download: bwrap cannot start a sandbox here"
else
    cp -r tests/fixtures/lms/canvas/download "$t/subs"
    for f in "$t"/subs/*.cu; do cp "$stub" "$f"; done
    grade() {
        PRIMLAB_NO_GPU=1 make -s --no-print-directory grade SUBMISSIONS="$t/subs" GRADES="$t/grades" LAB=01 DUE=2026-11-20T23:59 \
            LATE="10%/day,max=50%" ROSTER=tests/fixtures/lms/canvas/gradebook-export.csv ASSIGNMENT="Lab 1"
    }
    grade >"$t/grade.out" 2>&1
    g=$t/grades
    check "make grade, Canvas: four students graded, the stray file named" bash -c "
        grep -q '^graded 4, skipped 0' $t/grade.out &&
        grep -qx '== notes.txt: names no student (not a Canvas submission file): not graded' $t/grade.out &&
        for s in jonesann_1002 leechris_1003 smithbob_1001 zedzoe_1099; do [ -f $g/\$s/report.txt ] || exit 1; done"
    check "make grade, Canvas: submissions.tsv" bash -c "
        [ \"\$(grep -vc '^#' $g/submissions.tsv)\" = 4 ] && grep -qP '^jonesann_1002\tcanvas\t1002\t.*\tLATE\t50002$' $g/submissions.tsv"
    harness/feedback.sh "$g" >"$t/feedback.out" 2>&1
    check "make feedback, Canvas: the reports named for Re-Upload Submissions (user id, a file's id)" python3 - "$g/feedback" "$t/feedback.out" <<'PY'
import sys, zipfile
fb, out = sys.argv[1:3]
names = sorted(zipfile.ZipFile(fb + "/canvas-upload.zip").namelist())
want = ["jonesann_1002_50002_report.txt", "leechris_1003_50004_report.txt", "smithbob_1001_50001_report.txt",
        "zedzoe_1099_50009_report.txt"]
assert names == want, names
z = zipfile.ZipFile(fb + "/canvas-upload.zip")
assert z.read("smithbob_1001_50001_report.txt") == open(fb + "/smithbob_1001/report.txt", "rb").read()
assert "canvas-upload.zip, the reports of 4 students named for the assignment's Re-Upload Submissions" in open(out).read()
PY
    check "make grade, Canvas: both of a student's files graded under their own names" \
        grep -q 'graded: prefix_sum.cu scan_helpers.cuh' "$g/leechris_1003/results.json"
    check "make grade, Canvas: the late line, the late columns" bash -c "
        grep -q '^late: .*(Canvas marks it late), due 2026-11-20T23:59:59Z: counted as 1 day late' $g/jonesann_1002/report.txt &&
        head -n 1 $g/gradebook.csv | grep -q ',total,late_days,deduction,final$' &&
        [ \"$(cell "$g/gradebook.csv" jonesann_1002 late_days 2>/dev/null)\" = 1 ]"
    check "make grade, Canvas: the import file, no score from a dry run" python3 - "$g/lms-import.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1: prefix sum (88213)"], rows[0]
assert rows[1][0].strip() == "Points Possible" and rows[1][-1] == "50.00", rows[1]
assert [r[0] for r in rows[2:]] == ["Smith, Bob", "Jones, Ann", "Lee, Chris", "Doe, Dana"]
assert [r[-1] for r in rows[2:]] == ["", "", "", "12"], rows  # Dana's grade by hand stays
PY
    check "make grade, Canvas: the unmatched lists" bash -c "
        grep -q 'Doe, Dana' $g/lms-unmatched.txt && grep -q '  zedzoe_1099 (user_id 1099)' $t/grade.out"
    # make grade's own output: the column ASSIGNMENT="Lab 1" is, before
    # anyone is graded; the maximum of this practice run and of the graded
    # run, as the lab's table lists them (labNN list, not the gradebook's
    # path); each submission and its roster row; who is late, by how much
    public=$(build/tables/lab01 list | sed -n 's/^total: \(.*\) points$/\1/p')
    seeded=$(PRIMLAB_SEED=7 build/tables/lab01 list | sed -n 's/^total: \(.*\) points$/\1/p')
    check "make grade, Canvas: its output names the column, both maxima, the pairs, the late ($public, $seeded points)" bash -c "
        [ -n '$public' ] && [ -n '$seeded' ] && [ '$public' != '$seeded' ] &&
        [ \$(grep -n \"^lms: ASSIGNMENT='Lab 1' is the column 'Lab 1: prefix sum (88213)' of the Canvas roster\" $t/grade.out | cut -d: -f1) -lt \$(grep -n '^== ' $t/grade.out | head -n 1 | cut -d: -f1) ] &&
        grep -q '^lms: points possible: $public in this run (no PRIMLAB_SEED: the public tests alone); the graded run (PRIMLAB_SEED set: hidden tests added) is out of $seeded: ' $t/grade.out &&
        grep -q \"^lms: note: Canvas's 'Lab 1: prefix sum (88213)' has points possible 50, the graded run's grades are out of $seeded: set it to $seeded\" $t/grade.out &&
        grep -qx '  leechris_1003 -> Lee, Chris (ID 1003, SIS User ID S1003), by user id' $t/grade.out &&
        grep -qE '^  jonesann_1002 +1 day +deduction 10% \(no score here\) +Canvas' $t/grade.out || { cat $t/grade.out; exit 1; }"
    grade >"$t/grade2.out" 2>&1
    check "make grade, Canvas, again: the rebuilt entries skipped on their checksum" bash -c "
        grep -q '^graded 0, skipped 4' $t/grade2.out && [ \"\$(grep -c 'already graded, skipped' $t/grade2.out)\" = 4 ]"
    # Gradescope's export, graded for the assignment lab 01, the roster's
    # Lab 1 column filled (a dry run: no score, the roster's cells stay)
    mkdir -p "$t/gsubs" && cp -r tests/fixtures/lms/gradescope/download/. "$t/gsubs/"
    find "$t/gsubs" -name prefix_sum.cu -exec cp "$stub" {} \;
    PRIMLAB_NO_GPU=1 make -s --no-print-directory grade SUBMISSIONS="$t/gsubs" GRADES="$t/ggrades" LAB=01 \
        DUE=2026-11-20T23:59 LATE="10%/day" ROSTER=tests/fixtures/lms/gradescope/gradebook-export.csv ASSIGNMENT="Lab 1" \
        >"$t/ggrade.out" 2>&1
    check "make grade LAB=01, Gradescope: three students, lab 01 alone" bash -c "
        grep -q '^graded 3, skipped 0' $t/ggrade.out && [ \"\$(head -n 1 $t/ggrades/gradebook.csv | cut -d, -f 1-3)\" = student,lab01,total ] &&
        [ \"\$(head -n 1 $t/ggrades/gradebook.csv | cut -d, -f 4)\" = late_days ] || { tail -n 5 $t/ggrade.out; exit 1; }"
    check "make grade LAB=01, Gradescope: Bob, in 2 days after the due time, 2 days late" \
        [ "$(cell "$t/ggrades/gradebook.csv" Bob_Ode_B200 late_days 2>/dev/null)" = 2 ]
    check "make grade LAB=01, Gradescope: the import file, cell by cell" \
        same_csv "$t/ggrades/lms-import.csv" tests/fixtures/lms/gradescope/expected-import-dry.csv
    # make's own lines aside (its error, and under `make -j test` its
    # warning that the jobserver is not passed down): the kit's one line
    PRIMLAB_NO_GPU=1 make -s --no-print-directory grade SUBMISSIONS="$t/subs" GRADES="$t/grades" DUE=tomorrow >"$t/grade3.out" 2>&1
    check "make grade: a bad DUE is one line, before anyone is graded" bash -c "
        [ \$(grep -cvE '^make(\[[0-9]+\])?: ' $t/grade3.out) = 1 ] && grep -q \"DUE='tomorrow' is not a date and time\" $t/grade3.out &&
        ! grep -q '^== ' $t/grade3.out || { cat $t/grade3.out; exit 1; }"
    # a title that is no column (Canvas once made it a new assignment): one
    # line and the columns, before anyone is graded; every file stays
    sum_before=$(cd "$g" && sha256sum gradebook.csv lms-import.csv .graded.tsv */report.txt)
    PRIMLAB_NO_GPU=1 make -s --no-print-directory grade SUBMISSIONS="$t/subs" GRADES="$t/grades" LAB=01 \
        ROSTER=$canvas_roster ASSIGNMENT="Lab 3" >"$t/grade4.out" 2>&1
    check "make grade: a bad ASSIGNMENT is one line and the candidates, before anyone is graded, losing nothing" bash -c "
        grep -vE '^make(\[[0-9]+\])?: ' $t/grade4.out >$t/grade4.kit &&
        [ \"\$(head -n 1 $t/grade4.kit)\" = \"lms: ASSIGNMENT='Lab 3' matches no assignment column of the Canvas roster '\$(realpath $canvas_roster)' (by title, id or the start of a title); name one of these, or ASSIGNMENT='new:Lab 3' for a new assignment:\" ] &&
        [ \"\$(tail -n +2 $t/grade4.kit | paste -sd '|')\" = '$canvas_columns' ] &&
        [ \"\$(cd $g && sha256sum gradebook.csv lms-import.csv .graded.tsv */report.txt)\" = '$sum_before' ] || { cat $t/grade4.out; exit 1; }"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
