#!/usr/bin/env bash
# tests/lib/serve_fake_runner.sh UPLOAD LAB JOBDIR: a stand-in for
# harness/serve/run-job.sh in the check service's tests (no GPU, no
# sandbox, no kit): it keeps the runner's contract (docs/check-service.md)
# and nothing else. It sleeps FAKE_RUNNER_SLEEP seconds (default 20 to
# 50 ms) in a child process, as a real check has children; writes
# report.txt, results.json and scores.tsv (a correctness row and a
# performance row, as a lab binary writes them, whose ratio to the vendor
# library is 0.5, or N when the upload holds a file named ratio-N: the
# leaderboard's input, in a dry run too; when the upload holds a file named
# WRONG, the correctness row failed: the job is done, its ratio not on the
# board); then status, last: "done", or
# "failed<TAB>why" when the upload is no tar.gz or holds a file named
# FAIL, or "machine<TAB>why" (exit 3) on the GPU FAKE_MACHINE_GPU names,
# or "busy<TAB>why" (exit 4) while the file FAKE_BUSY_FILE names exists
# (as run-job.sh does while a make grade holds the grading kit).
# An upload holding a file named SLOW sleeps 60 s instead; one named
# NOSTATUS ends (status 1) without a status; one named LOUD writes 100,000
# bytes on stdout (runner.log) first, numbered lines of 10 bytes.
set -u
[ $# = 3 ] || { echo "usage: serve_fake_runner.sh UPLOAD LAB JOBDIR" >&2; exit 2; }
upload=$1 lab=$2 dir=$3
files=$(tar -tzf "$upload" 2>/dev/null)
say() { printf '%s\n' "$1" >"$dir/status.tmp" && mv -f "$dir/status.tmp" "$dir/status"; }
if [ -n "${FAKE_BUSY_FILE:-}" ] && [ -e "$FAKE_BUSY_FILE" ]; then
    say "busy"$'\t'"a make grade has this host's GPUs (the fake runner says so)"
    exit 4
fi
! grep -qx 'LOUD' <<<"$files" || seq -f '%09g' 1 10000
pause=${FAKE_RUNNER_SLEEP:-0.0$((20 + RANDOM % 31))}
! grep -qx 'SLOW' <<<"$files" || pause=60
sleep "$pause" &
wait $!
! grep -qx 'NOSTATUS' <<<"$files" || exit 1
if [ -n "${FAKE_MACHINE_GPU:-}" ] && [ "${CUDA_VISIBLE_DEVICES:-}" = "$FAKE_MACHINE_GPU" ]; then
    say "machine"$'\t'"GPU $CUDA_VISIBLE_DEVICES fell off the bus (the fake runner says so)"
    exit 3
fi
if ! tar -tzf "$upload" >/dev/null 2>&1; then
    say "failed"$'\t'"the upload is no .tar.gz"
    exit 0
fi
if grep -qx 'FAIL' <<<"$files"; then
    say "failed"$'\t'"the lab's tests failed (the fake runner was told to)"
    exit 0
fi
printf 'lab %s, checked by the fake runner on GPU %s%s\nScore: 10/10\n' "$lab" "${CUDA_VISIBLE_DEVICES:-?}" \
    "${PRIMLAB_NO_GPU:+ (a dry run)}" >"$dir/report.txt"
printf '{"score": 10, "max_score": 10, "lab": "%s"}\n' "$lab" >"$dir/results.json"
ratio=$(sed -n 's|^\(.*/\)\{0,1\}ratio-\([0-9][0-9.]*\)$|\2|p' <<<"$files" | head -n 1)
correct=$'OK\t8.0000'
! grep -qx 'WRONG' <<<"$files" || correct=$'FAIL\t0.0000'
{
    printf '# lab\tname\tkind\thidden\tstatus\tpoints\tmax\tseconds\tvalue\treason\tdetail\tcause\tbugs\ttarget\n'
    printf '%s\t%s.a scan, n=1024\tcorrectness\t0\t%s\t8\t0.010\t\t\t\t\t\t\n' "$lab" "$lab" "$correct"
    printf '%s\t%s.b performance vs the vendor library, n=16777216\tperformance\t0\tOK\t2.0000\t2\t0.010\t%s\t%sx the vendor library\t\t\t\t0.15\n' \
        "$lab" "$lab" "${ratio:-0.5}" "${ratio:-0.5}"
} >"$dir/scores.tsv"
say done
