#!/usr/bin/env bash
# harness/feedback.sh GRADES: the feedback to hand back to each student,
# made from the results make grade published. Called by `make feedback`.
#
# For each student of the record (GRADES/.graded.tsv) and of the ungraded
# list (GRADES/.ungraded.tsv), in GRADES/feedback/:
#   <student>/report.txt     the files graded and ignored, then the report
#   <student>/results.json   Gradescope's results (no score in a dry run)
#   <student>.zip            that folder, to hand back (python3's zipfile)
# and, for a Canvas download, canvas-upload.zip: every report named
# <name>_<user id>_<file id>_report.txt, as Canvas's Re-Upload Submissions
# matches a file to a student's submission (docs/instructor-guide.md).
# A student with no results (not graded yet, or ungraded) is skipped with a
# line. Every file is passed once more through harness/student_paths.py, so
# that results published by an older kit name no grader's path either: no
# kit, GRADES, build/, stage/, /tmp or home path is in any file.
# GRADES/feedback is rebuilt whole each time (made aside, then renamed into
# place); a student named "feedback", whose results would be that folder,
# is refused (harness/grade.sh names no student so now, nor after any
# other file of GRADES's own: only a folder graded before can hold one).
# Exit status 0, 2 when GRADES is not a grades folder or the feedback
# cannot be written.
set -u
grades=${1:-}
die() { echo "feedback: $*" >&2; exit 2; }

[ -n "$grades" ] && [ -d "$grades" ] || die "no grades folder '$grades' (make feedback GRADES=dir)"
grades=$(cd "$grades" && pwd -P) || exit 2
[ -f "$grades/.graded.tsv" ] || [ -f "$grades/.ungraded.tsv" ] ||
    die "'$grades' has no record (.graded.tsv): not a folder make grade wrote"
[ ! -f "$grades/feedback/results.json" ] && ! grep -q $'^feedback\t' "$grades/.graded.tsv" 2>/dev/null ||
    die "a student is named 'feedback': GRADES/feedback holds their results; rename their submission and grade again"
command -v python3 >/dev/null 2>&1 || die "python3 is needed (make bootstrap)"
kit=$PWD
[ -d build/grade-kit ] && kit=$PWD/build/grade-kit
work=""
trap 'rm -rf "$work"' EXIT

# students: every student of the record and of the ungraded list, once
students() {
    cat "$grades/.graded.tsv" "$grades/.ungraded.tsv" 2>/dev/null | cut -f 1 | grep -v '^#' | grep . | LC_ALL=C sort -u
}

# bundle NAME: NAME's folder and .zip in the work folder, from GRADES/NAME
bundle() {
    local dir=$work/$1
    mkdir "$dir" && cp "$grades/$1/report.txt" "$grades/$1/results.json" "$dir/" || return 1
    python3 harness/student_paths.py --kit "$kit" files "$dir/report.txt" &&
        python3 harness/student_paths.py --kit "$kit" json "$dir/results.json" || return 1
    python3 - "$work" "$1" <<'PY'
import os, sys, zipfile
work, name = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(os.path.join(work, name + ".zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for f in ("report.txt", "results.json"):
        z.write(os.path.join(work, name, f), name + "/" + f)
PY
}

work=$(mktemp -d "$grades/.feedback.new.XXXXXX") || exit 2
made=0 skipped=0
while IFS= read -r name; do
    case "$name" in . | .. | */* | .* | feedback) echo "feedback: '$name' is not a student's name: skipped"; continue ;; esac
    if [ ! -f "$grades/$name/results.json" ] || [ ! -f "$grades/$name/report.txt" ]; then
        echo "feedback: $name: no results (not graded yet), skipped"
        skipped=$((skipped + 1))
        continue
    fi
    bundle "$name" || die "could not make the feedback of '$name' in '$work'"
    made=$((made + 1))
done < <(students)
# Canvas: each report named as Re-Upload Submissions finds its student
# (<name>_<user id>_<id of a file of theirs>_report.txt: the first two
# all-digit parts of the name), from GRADES/submissions.tsv (harness/lms.py)
canvas=$(python3 - "$grades" "$work" <<'PY'
import csv, os, re, sys, zipfile
grades, work = sys.argv[1], sys.argv[2]
path = os.path.join(grades, "submissions.tsv")
rows = []
if os.path.exists(path):
    with open(path, newline="") as f:
        for cells in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if cells and not cells[0].startswith("#") and len(cells) >= 9 and cells[1] == "canvas":
                rows.append(cells)
named = []
for cells in rows:
    who, uid, name, aid = cells[0], cells[2], cells[5], cells[8]
    report = os.path.join(work, who, "report.txt")
    if uid.isdigit() and aid.isdigit() and aid != "0" and os.path.isfile(report):
        stem = re.sub(r"[^a-z0-9]", "", name.lower()) or "student"
        named.append(("%s_%s_%s_report.txt" % (stem, uid, aid), report))
if named and not os.path.exists(os.path.join(work, "canvas-upload.zip")):
    with zipfile.ZipFile(os.path.join(work, "canvas-upload.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, report in named:
            z.write(report, arc)
    print(len(named))
PY
) || die "could not write the Canvas upload zip in '$work'"
chmod 755 "$work" || exit 2
old=""
if [ -e "$grades/feedback" ]; then
    old=$(mktemp -u "$grades/.feedback.old.XXXXXX") && mv -T "$grades/feedback" "$old" || exit 2
fi
mv -T "$work" "$grades/feedback" || die "could not write '$grades/feedback'"
work=$old
echo "feedback: $made students in $grades/feedback (a folder and a .zip each)$([ $skipped = 0 ] ||
    echo ", $skipped skipped")"
[ -z "$canvas" ] || echo "feedback: Canvas: $grades/feedback/canvas-upload.zip, the reports of $canvas students" \
    "named for the assignment's Re-Upload Submissions (each attached to its student's submission as a comment)"
