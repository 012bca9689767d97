# harness/sandbox-probe.sh: whether bubblewrap starts a sandbox here.
# Sourced, not run (harness/grade.sh, check.sh, sandbox-compile.sh):
#   sandbox_starts [PREFIX...] BWRAP   run `PREFIX BWRAP --ro-bind / /
#       --unshare-all --die-with-parent true`; status 0 when it starts,
#       else 1 with bwrap's first line on stdout
#   sandbox_retry OUT CMD...           run CMD (a sandbox) with its output in
#       OUT, again while it fails for want of processes; CMD's status
#   again_later TEXT                   TEXT says bwrap could not make its
#       namespaces for want of processes (EAGAIN)
# The want of processes passes: every sandbox on this host runs as uid
# 65534 and counts in one RLIMIT_NPROC, which sandboxes starting side by
# side (make grade JOBS=N, the tests) or a submission's fork bomb, until its
# time limit, can fill for a while. It is no fault of the code graded, nor a
# machine that cannot grade: a sandbox that fails so is started again,
# after 0.25, 0.5, ... 8 s (about 16 s in all), here and by the worker's
# parent (harness/parent/worker_client.c).
again_later() {
    grep -q 'namespace failed: Resource temporarily unavailable' <<<"$1"
}
sandbox_retry() {
    local out=$1 wait rc
    shift
    for wait in 0.25 0.5 1 2 4 8 ""; do
        "$@" >"$out" 2>&1
        rc=$?
        [ "$rc" != 0 ] && [ -n "$wait" ] && again_later "$(tail -n 3 "$out")" || return "$rc"
        sleep "$wait"
    done
}
sandbox_starts() {
    local out
    out=$(mktemp) || return 1
    if sandbox_retry "$out" "$@" --ro-bind / / --unshare-all --die-with-parent true; then rm -f "$out"; return 0; fi
    head -n 1 "$out" | grep . || echo "bwrap exited with an error"
    rm -f "$out"
    return 1
}
