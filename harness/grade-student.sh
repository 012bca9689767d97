#!/usr/bin/env bash
# harness/grade-student.sh TREE: grade one student's prepared tree. Run from
# the grading kit's root by harness/grade.sh, N at a time on one host (each
# pinned to its own GPU), or as one task of a Slurm job array (the job
# script in GRADES/.slurm/grade.sbatch). The only part of grading that
# needs a GPU, and the only one that runs on a cluster's nodes.
#
# TREE is what the grader prepared: labs/ (the student's lab files, laid out
# like labs/), feedback.txt (what unpacking and picking the files said) and
# assignment (the labs to grade, comma-separated, e.g. 01,02: only those are
# built, run and counted; without the file, every lab of the kit).
# This writes nothing outside TREE but check.sh's build folder for it
# (build/impl-<TREE>-labs in the kit, removed at the end):
#   TREE/out/          check.sh's report, scores, logs and machine.txt
#   TREE/final/        the files to publish: results.json, report.txt (the
#                      files graded and ignored, then check.sh's report),
#                      scores.tsv; no path of the grader's in them
#                      (harness/student_paths.py), no score in a dry run
#                      (PRIMLAB_NO_GPU=1: primlab-results --dry)
#   TREE/summary.txt   the lines the grader prints under the student's name
#   TREE/where         where and how long: host, gpu, model, task, start, seconds
#   TREE/status        written last, renamed into place: "graded", or
#                      "machine<TAB>why": the grading machine failed (check.sh's
#                      status 3, or it stopped before any test with a usage or
#                      sandbox error), and there is nothing to publish
# A run that is stopped (killed, a Slurm time limit, preempted) leaves no
# status, so a half-graded tree is never taken for a grade; a rerun of the
# same TREE (a requeued task) starts afresh.
#
# Environment: PRIMLAB_SEED (taken out of the environment first; only the
# lab binaries get it back), GRADE_TIMEOUT (seconds for the whole student,
# default 1800), CUDA_VISIBLE_DEVICES (the GPU this grader is pinned to),
# and what check.sh reads (PRIMLAB_REQUIRE_SANDBOX, PRIMLAB_SANDBOX_HIDE,
# PRIMLAB_NO_GPU, PRIMLAB_TIMEOUT, PRIMLAB_LIMITS). Exit status 0 once the
# status is written, 2 when it could not be, 128 + the signal when stopped.
set -u
seed_set=${PRIMLAB_SEED+1}
seed=${PRIMLAB_SEED-}
unset PRIMLAB_SEED

tree=${1:-}
limit=${GRADE_TIMEOUT:-1800}
[ -d "$tree/labs" ] && [ -f "$tree/feedback.txt" ] ||
    { echo "grade-student: '$tree' is not a prepared student tree (labs/, feedback.txt)" >&2; exit 2; }
tree=$(cd "$tree" && pwd -P) || exit 2
. harness/assignment.sh
labs_csv=$(assignment_ids "$(cat "$tree/assignment" 2>/dev/null)") ||
    { echo "grade-student: '$tree/assignment': $labs_csv" >&2; exit 2; }
student_build=build/impl-${tree//\//-}-labs # check.sh's build folder for IMPL=TREE/labs
child=""

# on any exit, stopped by a signal too (bash runs the EXIT trap then; no
# trap of the signals themselves, which bash 5.2 can run amid a $(...)):
# check.sh stopped (timeout passes the signal to its whole process group),
# and the build folder tidied; a stopped grader leaves no status
stopped() {
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
    rm -rf "$student_build"
}
trap stopped EXIT

# put FILE TEXT: write TEXT into FILE through a temporary file and a rename
put() {
    printf '%s\n' "$2" >"$1.tmp" && mv -f "$1.tmp" "$1"
}

# student_view: every file a student reads, as the student may read it:
# the grader's paths (the kit, the build folder, this tree, /tmp, a home)
# rewritten by harness/student_paths.py, the one function that does it
# (check.sh did so too, but a run stopped by the time limit did not finish)
student_view() {
    python3 harness/student_paths.py --kit "$PWD" --impl "$tree/labs" files "$feedback" "$tree/out/report.txt" \
        "$tree/out/not-graded.txt" &&
        python3 harness/student_paths.py --kit "$PWD" --impl "$tree/labs" scores "$tree/out/scores.tsv"
}

# gpu_model: the name of the GPU this grader was given, or "-"
gpu_model() {
    local name
    command -v nvidia-smi >/dev/null 2>&1 || { echo -; return; }
    # (nvidia-smi -i of a GPU it does not find prints "No devices were
    # found" on its output, and fails: no model then)
    name=$(timeout 20 nvidia-smi --query-gpu=name --format=csv,noheader \
        ${CUDA_VISIBLE_DEVICES:+-i "${CUDA_VISIBLE_DEVICES%%,*}"} 2>/dev/null) || name=""
    name=$(head -n 1 <<<"$name")
    echo "${name:--}"
}

rm -rf "$tree/out" "$tree/final" "$tree/status" "$tree/summary.txt" "$tree/where"
mkdir "$tree/out" "$tree/final" && cp "$tree/feedback.txt" "$tree/out/feedback.txt" || exit 2
feedback=$tree/out/feedback.txt
start=$(date +%s.%N)
task=-
[ -n "${SLURM_ARRAY_JOB_ID:-}" ] && task=${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID:-0}

(
    [ -n "$seed_set" ] && export PRIMLAB_SEED="$seed"
    export CHECK_OUT=$tree/out CHECK_EXTRA=$feedback
    exec timeout --kill-after=10 "$limit" harness/check.sh "$tree/labs" "$labs_csv"
) >"$tree/out/report.txt" 2>&1 &
child=$!
wait "$child"
rc=$?
child=""
rm -rf "$student_build"
seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
printf 'host\t%s\ngpu\t%s\nmodel\t%s\ntask\t%s\nstart\t%s\nseconds\t%s\n' "$(hostname -s 2>/dev/null || hostname)" \
    "${CUDA_VISIBLE_DEVICES:--}" "$(gpu_model)" "$task" "$start" "$seconds" >"$tree/where"

if [ $rc = 3 ]; then # the grading machine, not the student: check.sh's machine.txt says what
    why=$(head -n 1 "$tree/out/machine.txt" 2>/dev/null)
    put "$tree/status" "machine$(printf '\t')${why:-check.sh stopped with status 3 and no reason}" || exit 2
    exit 0
fi
if [ $rc = 2 ] && [ ! -s "$tree/out/scores.tsv" ]; then # a usage or sandbox error: not the student's either
    put "$tree/status" "machine$(printf '\t')grading failed before any test ran: $(tail -n 1 "$tree/out/report.txt" |
        tr '\t' ' ')" || exit 2
    exit 0
fi
if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "grading stopped after $limit s (GRADE_TIMEOUT): the tests not reached score 0" >>"$feedback"
fi
# every test counts in the maximum, reached or not (the lab binaries hold no student code)
for id in ${labs_csv//,/ }; do
    if [ -n "$seed_set" ]; then PRIMLAB_SEED="$seed" "build/tables/lab$id" fill --scores "$tree/out/scores.tsv"
    else "build/tables/lab$id" fill --scores "$tree/out/scores.tsv"; fi >/dev/null
done
student_view || exit 2
# results.json from the scores (again, if check.sh was stopped before it;
# its status says full marks or not); a dry run has no score
dry=()
case "${PRIMLAB_NO_GPU:-0}" in 0) ;; *) dry=(--dry) ;; esac
build/primlab-results "$tree/out/scores.tsv" --labs "$labs_csv" "${dry[@]}" \
    --json "$tree/final/results.json" --extra "$feedback" >"$tree/out/score.txt"
[ -s "$tree/final/results.json" ] && cp "$tree/out/scores.tsv" "$tree/final/" || exit 2
# report.txt: what was graded and ignored (the feedback), then check.sh's report
{
    echo "== your submission"
    cat "$feedback"
    cat "$tree/out/report.txt"
} >"$tree/final/report.txt" || exit 2
{
    sed 's/^/   /' "$feedback"
    [ ! -f "$tree/out/not-graded.txt" ] || sed 's/^/   /' "$tree/out/not-graded.txt"
    build/primlab-results "$tree/out/scores.tsv" --subtotals "${dry[@]}" | sed 's/^/   /'
    sed 's/^/   /' "$tree/out/score.txt"
} >"$tree/summary.txt"
put "$tree/status" graded || exit 2
