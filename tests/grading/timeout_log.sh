#!/bin/sh
# tests/grading/timeout_log.sh: a `timeout` for the grading tests, linked first on
# PATH as "timeout". A run of harness/check.sh (one student's grader, as
# harness/grade-student.sh starts it) is logged to $TIMEOUT_LOG, one line
# when it starts and one when it ends:
#   start|end  CUDA_VISIBLE_DEVICES  CPUs-allowed  epoch-seconds  tree
# so that a test can tell which GPU and CPUs each grader was given and which
# graders ran at the same time, as seen from inside the grader, not from
# the grader's own records. Every other call goes straight to the real
# timeout ($TIMEOUT_LOG_REAL).
#
# TIMEOUT_LOG_SLEEP=s: each grader first waits s seconds (graders then
# overlap for sure). TIMEOUT_LOG_HOLD=file, TIMEOUT_LOG_HOLD_WHO=student:
# that student's grader waits while the file exists (a test stops or
# cancels it there). A grader stopped by a signal (its own, or its check's
# death by HUP, INT, KILL or TERM) logs "killed" as it ends.
real=${TIMEOUT_LOG_REAL:?}
if [ "$(readlink -f "$real")" = "$(readlink -f "$0")" ]; then
    echo "timeout_log: TIMEOUT_LOG_REAL is this script, not the real timeout" >&2
    exit 125
fi
case "$*" in *harness/check.sh*) ;; *) exec "$real" "$@" ;; esac
for a in "$@"; do case "$a" in */labs) tree=$a ;; esac; done # check.sh TREE/labs [LABS]
tree=${tree%/labs}
who=${tree##*/}
who=${who%%.*}
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
log() { echo "$1 ${CUDA_VISIBLE_DEVICES:--} $cpus $(date +%s.%N) $tree" >>"$TIMEOUT_LOG"; }
log start
(
    sleep "${TIMEOUT_LOG_SLEEP:-0}"
    if [ -n "${TIMEOUT_LOG_HOLD:-}" ] && [ "$who" = "${TIMEOUT_LOG_HOLD_WHO:-}" ]; then
        while [ -e "$TIMEOUT_LOG_HOLD" ]; do sleep 0.2; done
    fi
    exec "$real" "$@"
) &
pid=$!
# (a Slurm task's processes all get the signal: the grader passes it on too)
trap 'trap "" TERM INT HUP; kill -TERM $pid 2>/dev/null; wait $pid; log killed; exit 143' TERM INT HUP
wait $pid
rc=$?
# Slurm signals a step's processes one by one: when the check died of a
# signal before ours came, it is a grader stopped, not one that ended (and
# ours, still on its way, must not log it twice).
trap '' TERM INT HUP
case $rc in
129 | 130 | 137 | 143) log killed ;;
*) log end ;;
esac
exit $rc
