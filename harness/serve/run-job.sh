#!/usr/bin/env bash
# harness/serve/run-job.sh UPLOAD LAB JOBDIR: run one job of the check
# service (docs/check-service.md): a student's lab, checked as `make check`
# checks it, on this host's GPU. Called by build/primlab-serve's claimer of
# a GPU (SERVE_RUNNER), one job at a time per GPU; the only part of the
# service that touches student code, and it does so only through the
# scripts an instructor's `make grade` runs.
#
# UPLOAD is the student's .tar.gz as received (any name), LAB a lab id of
# this kit (01). The kit graded in is the one this script is in: run it
# from a grading kit (make grade's build/grade-kit, or an unpacked
# handout); a kit with solutions/ grades too, the sandboxes hiding it all.
#   1. the upload is unpacked and the lab's files picked as make grade
#      picks them (harness/prepare-submission.sh: the same limits,
#      GRADE_MAX_BYTES and GRADE_MAX_FILES, and refusals) into a tree in
#      JOBDIR, the assignment that lab alone;
#   2. the kit's own parts for the lab are built, one job at a time
#      (harness/kit-parts.sh), while the grading kit is shared as a dry
#      make grade shares it (its lock, build/grade.lock: a make grade on
#      the GPUs has the kit, and the host's GPUs, to itself until it ends;
#      a job that waited SERVE_LOCK_WAIT seconds (default 10) for it goes
#      back to the queue: status busy);
#   3. the tree is graded by harness/grade-student.sh: public tests only
#      (PRIMLAB_SEED is taken out), student code compiled and run in
#      bubblewrap only (PRIMLAB_REQUIRE_SANDBOX=1) with these folders
#      hidden (PRIMLAB_SANDBOX_HIDE): SERVE_DIR (the database, the tokens,
#      uploads/, the jobs), the folders of SERVE_DB and TOKENS, JOBDIR's
#      parent (every job's folder), UPLOAD's folder, and the kit this
#      grading kit was made from; on the GPU in CUDA_VISIBLE_DEVICES, or as
#      a dry run with no score (PRIMLAB_NO_GPU=1, the executor CI runs);
#      stopped after three quarters of SERVE_JOB_TIMEOUT (the service's
#      limit for the whole job, 1200 s by default as in serve.c: 900 s),
#      so that a submission that runs too long gets its report, saying so,
#      before the service kills the runner;
#   4. harness/serve/figure.sh JOBDIR/results.json LAB JOBDIR/figure.svg,
#      when that script is there and executable (a figure that fails is a
#      line in the log, never a failed job).
# What it leaves in JOBDIR (what it left there before goes first):
#   report.txt, results.json, scores.tsv   the student's files, as make
#                      grade publishes them (no path of the grader's in
#                      them: harness/student_paths.py); figure.svg when made
#   log                what preparing, grading and the figure said (no
#                      grader's path in it either), its first
#                      SERVE_LOG_MAX bytes (default 1 MiB; then a line
#                      "... cut at N bytes"), then the status
#   status             written last, renamed into place, one line:
#                      "done"; "failed<TAB>why": the student's upload cannot
#                      be graded (not an archive, over a limit, no file of
#                      the lab), why written for the student; or
#                      "machine<TAB>why": the grading machine failed (the
#                      GPU fell off, the sandbox cannot start: what
#                      grade-student.sh reports), not the student: the
#                      service takes the GPU out and runs the job again;
#                      or "busy<TAB>why": a make grade on the GPUs has the
#                      grading kit and the GPUs (build/grade.lock), and the
#                      job has not started: the service hands it back to
#                      the queue and this GPU's claimer pauses
# The graded tree (JOBDIR/tree, harness/grade-student.sh's, its out/
# holding check.sh's logs) and its build folder in the kit are removed
# when the run ends, whatever its end: a job's folder keeps what is listed
# above, a few kilobytes and the log. A run that is stopped (a signal)
# leaves no status.
#
# Exit status: 0 once status says done or failed; 3 once it says machine;
# 4 once it says busy; 2 for a usage error (one line), or when status
# cannot be written.
set -u
unset PRIMLAB_SEED # public tests only: no hidden test, no secret seed
me=run-job
die() { echo "$me: $*" >&2; exit 2; }
[ $# = 3 ] || die "usage: harness/serve/run-job.sh UPLOAD LAB JOBDIR (the student's .tar.gz, a lab id such as 01, the job's folder)"
lab=$2
[ -f "$1" ] && upload=$(realpath -e -- "$1") || die "no upload '$1'"
job=$(realpath -m -- "$3") || die "no job folder '$3'"
kit=$(cd "$(dirname "$0")/../.." && pwd -P) || exit 2
cd "$kit" || exit 2
. harness/assignment.sh
all=$(assignment_ids) || die "$all"
case ",$all," in *",$lab,"*) ;; *) die "no lab '$lab' in this kit (labs: ${all//,/ })" ;; esac
mkdir -p -- "$job" && job=$(realpath -e -- "$job") || die "cannot make the job's folder '$3'"
outer=${SERVE_JOB_TIMEOUT:-1200}
[[ $outer =~ ^[1-9][0-9]{0,5}$ ]] || die "SERVE_JOB_TIMEOUT='$outer' is not a number of seconds"
limit=$((outer * 3 / 4)) # the grading's: the rest for staging, the figure, the files
[ "$limit" -ge 1 ] || limit=1
log_max=${SERVE_LOG_MAX:-1048576}
[[ $log_max =~ ^[1-9][0-9]{3,9}$ ]] || die "SERVE_LOG_MAX='$log_max' is not a number of bytes (1000 or more)"
serve_dir=${SERVE_DIR:-${HOME:-}/.local/share/primlab}

# The folders student code must not see (PRIMLAB_SANDBOX_HIDE); the kit
# itself is hidden by both sandboxes. A grading kit inside another kit
# (make grade's build/grade-kit): that kit too, solutions/ and all, and its
# git metadata (harness/kit-hidden.sh, as make grade hides them).
hide=("$serve_dir" "$(dirname "${SERVE_DB:-$serve_dir/serve.db}")" "$(dirname "${TOKENS:-$serve_dir/tokens.tsv}")"
    "$(dirname "$job")" "$(dirname "$upload")")
lockdir=$kit/build
case "$kit" in
*/build/grade-kit)
    outer=${kit%/build/grade-kit}
    mapfile -t -O ${#hide[@]} hide < <(harness/kit-hidden.sh "$outer")
    [ -d "$outer/solutions" ] && lockdir=$outer/build # make grade's lock is that kit's
    ;;
esac
for d in "${hide[@]}"; do
    case "$d" in *:*) die "a ':' in '$d': PRIMLAB_SANDBOX_HIDE cannot name it" ;; esac
done

# Everything this run writes in JOBDIR; what an earlier run of the job left goes first.
tree=$job/tree staged=$job/.upload log=$job/log status=$job/status
student_build=build/impl-${tree//\//-}-labs # grade-student.sh's (check.sh's) build folder for the tree
rm -rf -- "$status" "$status.tmp" "$tree" "$staged" "$log" "$job"/{report.txt,results.json,scores.tsv,figure.svg} ||
    die "cannot clear '$job'"
raw=$(mktemp "$job/.log.XXXXXX") || die "cannot write in '$job'"

# on any exit, a signal too (bash runs the EXIT trap then): the grader
# stopped, the graded tree, its build folder and the upload's copy removed
child=""
stopped() {
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
    rm -rf -- "$student_build" "$staged" "$raw" "$tree"
}
trap stopped EXIT

# student_text: standard input as the student may read it (the grader's paths out)
student_text() {
    python3 harness/student_paths.py --kit "$kit" --impl "$tree/labs" filter
}

# capped: standard input, its first $log_max bytes, then a line saying
# how many more came (as the service caps runner.log)
capped() {
    local n
    head -c "$log_max"
    n=$(wc -c | tr -d ' ')
    [ "$n" = 0 ] || printf '\n... cut at %s bytes (SERVE_LOG_MAX): %s bytes more not kept\n' "$log_max" "$n"
}

# finish STATUS [WHY]: the log, then the status, renamed into place; exit
finish() {
    local line=$1
    [ -z "${2:-}" ] || line+=$'\t'$(printf '%s\n' "$2" | student_text | head -n 1 | tr -d '\t\r' | cut -c 1-400)
    { student_text <"$raw" | capped && [ "${PIPESTATUS[0]}" = 0 ] && printf '%s\n' "== status: $line"; } >"$log.tmp" &&
        mv -f "$log.tmp" "$log" || exit 2
    printf '%s\n' "$line" >"$status.tmp" && mv -f "$status.tmp" "$status" || exit 2
    case "$1" in machine) exit 3 ;; busy) exit 4 ;; *) exit 0 ;; esac
}

# ---------------------------------------------------------------- prepare
# (under a name of the lab's, which the feedback shows: unpacking lab01.tar.gz: ...)
mkdir "$staged" && cp -- "$upload" "$staged/lab$lab.tar.gz" || die "cannot copy '$upload' into '$job'"
echo "== prepare: harness/prepare-submission.sh lab$lab.tar.gz $lab" >>"$raw"
why=$(harness/prepare-submission.sh "$staged/lab$lab.tar.gz" "$tree" "$lab" 2>>"$raw")
rc=$?
rm -rf -- "$staged"
[ -f "$tree/feedback.txt" ] && cat "$tree/feedback.txt" >>"$raw"
case $rc in
0) ;;
1) finish failed "$why" ;;
*) finish machine "could not prepare the job's files (harness/prepare-submission.sh, status $rc)" ;;
esac
dir=$(harness/lab-dirs.sh | grep -m 1 "^labs/$lab-")
dir=${dir%/} file=$(cd "$dir" && ls -- *.cu)
[ -f "$tree/labs/${dir#labs/}/$file" ] || finish failed "the upload has no $file (lab $lab's file)"

# ------------------------------------------------------------------ grade
# the grading kit shared, as a dry make grade shares it (harness/grade.sh:
# its turnstile, then its lock), for the whole job; inherited by the
# grader. A make grade on the GPUs holds it alone to its end, or waits
# for it holding the turnstile: then the job goes back to the queue
# rather than wait here, running, while the service's time limit runs.
mkdir -p "$lockdir" && exec 7>>"$lockdir/grade.lock.turn" 9>>"$lockdir/grade.lock" || die "cannot open '$lockdir/grade.lock'"
lock_wait=${SERVE_LOCK_WAIT:-10}
[[ $lock_wait =~ ^[0-9]{1,6}$ ]] || die "SERVE_LOCK_WAIT='$lock_wait' is not a number of seconds"
if ! { flock -w "$lock_wait" -s 7 && flock -w "$lock_wait" -s 9; }; then
    finish busy "a make grade has this host's GPUs and the grading kit (waited ${lock_wait} s for it): the job goes back to the queue"
fi
flock -u 7 && exec 7>&- || die "cannot let go of '$lockdir/grade.lock.turn'"
echo "== the kit's parts of lab $lab (harness/kit-parts.sh)" >>"$raw"
(
    flock -x 8 || exit 2
    # shellcheck disable=SC2046 # one target a word
    make -s --no-print-directory -k $(harness/kit-parts.sh "$lab")
) 8>>build/run-job.lock >>"$raw" 2>&1 || echo "(a part that does not build fails again below: check.sh says so)" >>"$raw"
echo "== grade: harness/grade-student.sh tree" >>"$raw"
(
    export PRIMLAB_REQUIRE_SANDBOX=1 GRADE_TIMEOUT=$limit
    PRIMLAB_SANDBOX_HIDE=$(printf '%s\n' "${hide[@]}" | awk 'NF && !seen[$0]++' | paste -sd :)
    export PRIMLAB_SANDBOX_HIDE
    exec harness/grade-student.sh "$tree"
) >>"$raw" 2>&1 &
child=$!
wait "$child"
rc=$?
child=""
rm -rf -- "$student_build"
[ ! -f "$tree/summary.txt" ] || cat "$tree/summary.txt" >>"$raw"
result=$(head -n 1 "$tree/status" 2>/dev/null)
case "$result" in
graded) ;;
machine$'\t'*) finish machine "${result#machine$'\t'}" ;;
*) finish machine "the grader stopped without a result (status $rc): $(grep . "$raw" | tail -n 1)" ;;
esac
for f in report.txt results.json scores.tsv; do
    cp -- "$tree/final/$f" "$job/$f.tmp" && mv -f "$job/$f.tmp" "$job/$f" || die "cannot write '$job/$f'"
done

# ----------------------------------------------------------------- figure
if [ -x harness/serve/figure.sh ]; then
    echo "== figure: harness/serve/figure.sh results.json $lab figure.svg" >>"$raw"
    timeout --kill-after=5 120 harness/serve/figure.sh "$job/results.json" "$lab" "$job/figure.svg" >>"$raw" 2>&1
    rc=$?
    if [ $rc != 0 ]; then
        echo "figure: harness/serve/figure.sh failed (status $rc): no figure" >>"$raw"
        rm -f -- "$job/figure.svg"
    fi
fi
finish "done"
