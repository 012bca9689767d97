#!/usr/bin/env bash
# tests/grading/test_serve_slurm.sh: the check service on a Slurm cluster's
# login node (issue 55, SERVE_SLURM=1; docs/check-service.md, "On a Slurm
# cluster"): the real service (build/primlab-serve), a real one-node Slurm
# cluster of its own (tests/lib/slurm_cluster.sh: slurmctld, slurmd, two
# stand-in GPUs), the real runner (the grading kit's run-job.sh, dry:
# PRIMLAB_NO_GPU=1, as CI runs it) on the node through srun
# (harness/serve/slurm-job.sh), and the real client (make submit in copies
# of the handout). What no faster test proves: that srun brings each job's
# verdict back, that the job's record names the node and the GPU Slurm gave
# it, that a Slurm job cancelled under a job fails it with a reason, that
# a service killed under a Slurm job leaves neither a lost job nor two
# Slurm jobs of one job, and that a job whose node fails runs again once,
# counted in the database (test_serve_e2e runs the same parts without
# Slurm; test_slurm runs make grade SLURM=1, not the service).
#   1. a partition Slurm does not have (SERVE_PARTITION=nope): the service
#      does not start, one line naming srun's refusal, exit 2;
#   2. four students' make submit LAB=01 at once (two solutions, the stub,
#      a file that does not compile) on two slots: each job done, each
#      client prints its report, status 1 (a dry run: no full marks); each
#      job's record (job.tsv) says GPU 0 or 1 and "node N, Slurm job J";
#   3. a job held in its grader (tests/grading/timeout_log.sh): the page's
#      slot names its node, GPU and Slurm job; scancel of that Slurm job:
#      the job fails, one line saying it was cancelled (make submit: 3);
#   4. kill -9 of the service while a job is held in its grader: its srun
#      and Slurm job outlive the service; the restart kills the runner's
#      leftovers, cancels that Slurm job and queues the job again, which is
#      then done on a second Slurm job: the first CANCELLED, never two of
#      them in the queue at once, the first grader stopped by a signal and
#      the second one ended, and squeue empty at the end;
#   5. a node failure under a job held in its grader (scontrol update
#      state=down): its Slurm job ends NODE_FAIL, the service logs the job
#      going back to the queue once (naming the node and the Slurm job);
#      the node up again, the job is done on a second Slurm job, the first
#      grader stopped by Slurm, attempts 2;
#   6. the count is the database's, not the service's memory: a job's
#      first Slurm job ends NODE_FAIL, the service is stopped and started
#      again, its second one ends NODE_FAIL too: the job fails, "the
#      grading machines failed twice: ...", make submit JOB=N prints it
#      (status 3); the node is resumed at the end, on a failure too.
# Prints one line per check, the seconds of each job, then the counts.
# Without root, bwrap, or Slurm and MUNGE (harness/bootstrap.sh --slurm),
# or without build/primlab-serve (libmicrohttpd's headers): SKIP, passing.
# tier: slow (a one-node Slurm cluster started and the check service run through it; CI and make test-slow run it)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
. tests/lib/slurm_cluster.sh
. tests/lib/serve_students.sh
unset PRIMLAB_SEED SERVE_DB TOKENS SERVE_RUNNER SERVE_URL PRIMLAB_TOKEN SUBMIT_DIR WAIT CUDA_VISIBLE_DEVICES \
    SERVE_PARTITION SERVE_GRES SERVE_TIME SERVE_SRUN SERVE_GPUS
export PRIMLAB_LIMITS=0 PRIMLAB_NO_GPU=1 GRADE_LOCK_WAIT=900 SERVE_LOCK_WAIT=900
# the nodes build as the kit was built here (test_slurm.sh says why)
if [ -z "${ARCH:-}" ] && ! nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | grep -q '[0-9]'; then
    export ARCH=sm_75
fi
SECONDS=0
t=$(mktemp -d) || exit 2
pid="" kit="" node=""
stop_service() {
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=""
}
# (the node resumed first, should a node failure's part have ended early)
trap '[ -z "$node" ] || [ -n "$slurm_stopped" ] || timeout 10 scontrol update nodename="$node" state=resume >/dev/null 2>&1
    stop_service; slurm_cluster_stop; rm -rf "$t" ${kit:+"$kit"/build/impl-"${t//\//-}"-*}' EXIT

# ------------------------------------------------------------- can we?
why=$(slurm_cluster_missing "$t")
[ -z "$why" ] || { say SKIP "the check service through Slurm" "$why"; finish; }
if ! err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    say SKIP "the check service through Slurm" "bwrap is missing or cannot start a sandbox here (${err:-not installed}): no job can run"
    finish
fi
if ! make -s --no-print-directory build/primlab-serve build/primlab-serve-admin >"$t/make.log" 2>&1; then
    say SKIP "the check service through Slurm" "build/primlab-serve is not built here (libmicrohttpd's, SQLite's or OpenSSL's headers missing)"
    finish
fi
kit=$(LAB=01 harness/grade.sh --kit 2>"$t/kit.log") ||
    { say FAIL "the grading kit (harness/grade.sh --kit)" "$(tail -n 1 "$t/kit.log")"; finish; }
slurm_cluster_start "$t/cluster" || { say FAIL "a one-node Slurm cluster starts" "$slurm_why"; finish; }
node=$slurm_node

# ------------------------------------------------------------- service
sd=$t/serve
mkdir -p "$sd" && chmod 755 "$sd" || exit 2
printf 'ann\nbob\ncat\ndan\neve\nfay\n' | build/primlab-serve-admin tokens "$sd/serve.db" >"$sd/tokens.tsv" 2>"$t/admin.log" ||
    { say FAIL "accounts (primlab-serve-admin tokens)" "$(cat "$t/admin.log")"; finish; }
# Each grader, seen from inside (tests/grading/timeout_log.sh, first on
# PATH, which srun carries to the node): when it started and ended, and,
# while the file hold exists, held before it checks.
mkdir -p "$t/shim"
export TIMEOUT_LOG_REAL TIMEOUT_LOG=$t/graders.log TIMEOUT_LOG_HOLD=$t/hold TIMEOUT_LOG_HOLD_WHO=tree
TIMEOUT_LOG_REAL=$(command -v timeout)
ln -s "$PWD/tests/grading/timeout_log.sh" "$t/shim/timeout"
export PATH=$t/shim:$PATH
serve_env=(SERVE_DIR="$sd" SERVE_RUNNER="$kit/harness/serve/run-job.sh" SERVE_SLURM=1 SERVE_DRY=1 SERVE_BUSY_PAUSE=1)
# serve LOG [ADDR]: the service in the background ($pid), once it listens
serve() {
    rm -f "$sd/serve.addr"
    env "${serve_env[@]}" SERVE_ADDR="${2:-127.0.0.1:0}" build/primlab-serve >"$1" 2>&1 &
    pid=$!
    for _ in $(seq 300); do [ -s "$sd/serve.addr" ] && return 0; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    return 1
}

# 1: a partition the cluster does not have
env "${serve_env[@]}" SERVE_DIR="$t/nope" SERVE_ADDR=127.0.0.1:0 SERVE_PARTITION=nope build/primlab-serve >"$t/nope.log" 2>&1
rc=$?
p=""
[ $rc = 2 ] || p="exit status $rc, not 2"
[ "$(wc -l <"$t/nope.log")" = 1 ] && grep -q "^primlab-serve: SERVE_SLURM=1: Slurm would refuse the jobs (srun --test-only .*--partition=nope): .*[Ii]nvalid partition" "$t/nope.log" ||
    p="$p; it said: $(head -n 3 "$t/nope.log" | paste -sd ' ')"
verdict "SERVE_PARTITION=nope: the service does not start, one line with srun's refusal, exit 2" "$p" "$t/nope.log"

serve "$t/serve1.log" || { say FAIL "the service starts with SERVE_SLURM=1" "$(tail -n 3 "$t/serve1.log")"; finish; }
url=$(cat "$sd/serve.addr")
addr=${url#http://}
grep -q '^primlab-serve: 2 Slurm slots (dry run)' "$t/serve1.log" || say FAIL "the service's first lines say 2 Slurm slots" "$(head -n 2 "$t/serve1.log")"

# ------------------------------------------------------------ students
# submit NAME ARGS...: make submit in NAME's copy (a make of its own)
submit() {
    local who=$1
    shift
    (cd "$t/$who/kit" && XDG_CONFIG_HOME=$t/$who/config SUBMIT_POLL=0.3 timeout 300 \
        env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -s --no-print-directory submit "$@")
}
own=labs/01-prefix-sum/prefix_sum.cu
for s in ann bob cat dan eve fay; do handout "$s" || { say FAIL "a copy of the handout for $s"; finish; }; done
cp "solutions/01-prefix-sum/prefix_sum.cu" "$t/ann/kit/$own"
cp "solutions/01-prefix-sum/prefix_sum.cu" "$t/dan/kit/$own"
echo "int oops = ;" >"$t/cat/kit/$own"
# (bob, eve and fay send the stub)
# (make's line for the script's status: the recipe's line, after the rule's)
make_said="make: *** [mk/submit.mk:$(awk '/^submit:$/ { print NR + 1 }' mk/submit.mk): submit] Error"
field() { sed -n "s/^$1"$'\t'"//p" "$2" 2>/dev/null; }

# ---------------------------------------------------- 2: four at once
sub0=$SECONDS
waits=()
for s in ann bob cat dan; do
    (submit "$s" LAB=01 >"$t/$s.out" 2>"$t/$s.err"; echo $? >"$t/$s.rc") &
    waits+=($!)
done
wait "${waits[@]}" # (not the service)
four_s=$((SECONDS - sub0))
p=""
for s in ann bob cat dan; do
    dir=$t/$s/kit/build/submit/lab01
    rc=$(cat "$t/$s.rc" 2>/dev/null)
    [ "$rc" = 2 ] && [ "$(cat "$t/$s.err")" = "$make_said 1" ] ||
        p="$p; $s: exit ${rc:-none}, not make's 2 for the script's 1 ($(tail -n 1 "$t/$s.err" 2>/dev/null))"
    [ "$(field state "$dir/job.tsv")" = "done" ] || p="$p; $s's job is not done: $(field state "$dir/job.tsv") $(field reason "$dir/job.tsv")"
    grep -qx "lab01: compiled prefix_sum.cu" "$dir/report.txt" 2>/dev/null || [ $s = cat ] || p="$p; $s's report does not say compiled"
    [ $s != cat ] || grep -q 'error' "$dir/report.txt" 2>/dev/null || p="$p; cat's report has no compile error"
    grep -v '^submit: ' "$t/$s.out" | cmp -s - "$dir/report.txt" || p="$p; what $s's client printed is not her report"
done
verdict "four make submit at once, two Slurm slots: each job done, each report printed, status 1 (dry run) (${four_s} s)" "$p" "$t/serve1.log"
p=""
for s in ann bob cat dan; do
    f=$t/$s/kit/build/submit/lab01/job.tsv
    [[ "$(field gpu "$f")" =~ ^[01]$ ]] || p="$p; $s's job: gpu '$(field gpu "$f")', not Slurm's 0 or 1"
    [[ "$(field model "$f")" =~ ^dry\ run\ \(no\ GPU\),\ node\ $node,\ Slurm\ job\ [0-9]+$ ]] ||
        p="$p; $s's job: model '$(field model "$f")'"
    id=$(field id "$f")
    grep -q "^primlab-serve: job $id (lab 01) done on node $node, GPU [01], Slurm job [0-9]* in " "$t/serve1.log" ||
        p="$p; no log line of job $id done on node $node"
done
slurm_ids=$(for s in ann bob cat dan; do field model "$t/$s/kit/build/submit/lab01/job.tsv" | sed 's/.*Slurm job //'; done | sort -u | wc -l)
[ "$slurm_ids" = 4 ] || p="$p; $slurm_ids Slurm jobs for 4 jobs"
verdict "each job's record names the node and GPU Slurm gave it (gpu 0|1, model '..., node $node, Slurm job N'), 4 Slurm jobs" "$p"

# held JOBDIR: wait until the grader of JOBDIR's tree has started (held)
held() {
    for _ in $(seq 1200); do
        grep -q "^start .* $1/tree$" "$t/graders.log" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
# send_held WHO OUT: WHO's make submit LAB=01 WAIT=0 (its output in OUT)
# with the hold on, so that its grader waits; the job's id on stdout, ""
# when the client printed none
send_held() {
    touch "$t/hold"
    submit "$1" LAB=01 WAIT=0 >"$2" 2>&1
    sed -n 's/^submit: sent .*: job \([0-9]*\)$/\1/p' "$2"
}
# slurm_of ID: the Slurm job's name and id of job ID, while it is queued or runs
slurm_of() { squeue -h -o '%j %i' | awk -v id="$1" '$1 ~ "-" id "$"'; }

# ---------------------------------------------- 3: scancel under a job
eve_job=$(send_held eve "$t/eve0.out")
p=""
if [ -n "$eve_job" ] && held "$sd/jobs/$eve_job"; then
    read -r ename eslurm <<<"$(slurm_of "$eve_job")"
    for _ in $(seq 50); do # (the claimer looks for the node's line once a second)
        curl -s "$url/" >"$t/page.html"
        grep -q "<td>node $node, GPU [01], Slurm job $eslurm</td><td>job $eve_job, lab 01, for [0-9]* s</td>" "$t/page.html" && break
        sleep 0.1
    done
    grep -q "<td>node $node, GPU [01], Slurm job $eslurm</td><td>job $eve_job, lab 01, for [0-9]* s</td>" "$t/page.html" ||
        p="$p; the page's slot does not name node $node and Slurm job $eslurm: $(grep -A 3 'Slurm slots</h2>' "$t/page.html" | tail -n 2 | paste -sd ' ')"
    scancel -n "$ename" || p="$p; scancel -n '$ename' failed"
    submit eve JOB="$eve_job" >"$t/eve.out" 2>&1
    rc=$?
    f=$t/eve/kit/build/submit/lab01/job.tsv
    [ $rc = 2 ] && grep -qxF "$make_said 3" "$t/eve.out" || p="$p; make submit JOB=$eve_job: exit $rc, not make's 2 for the script's 3"
    [ "$(field state "$f")" = failed ] || p="$p; the job is '$(field state "$f")', not failed"
    [[ "$(field reason "$f")" =~ ^the\ check\'s\ Slurm\ job\ $eslurm\ was\ cancelled\ \(scancel\)\ while\ it\ ran\ on\ node\ $node$ ]] ||
        p="$p; its reason: '$(field reason "$f")'"
    grep -q "$(field reason "$f")" "$t/eve.out" || p="$p; the client did not print the reason"
else
    p="eve's job '$eve_job' did not start its grader: $(tail -n 1 "$t/eve0.out")"
fi
verdict "a job's Slurm job cancelled by scancel while it runs: the job fails, one line saying so (the page named its node first)" "$p" "$t/serve1.log"

# ------------------------------------- 4: kill -9, restart, no duplicate
fay_job=$(send_held fay "$t/fay0.out")
fdir=$sd/jobs/$fay_job
p="" first="" fname=""
if [ -n "$fay_job" ] && held "$fdir"; then
    read -r fname first <<<"$(slurm_of "$fay_job")"
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    pid=""
    sleep 1
    [ "$(squeue -h -j "$first" -o %T 2>/dev/null)" = RUNNING ] || p="$p; Slurm job $first did not outlive the service"
    serve "$t/serve2.log" "$addr" || p="$p; the restart did not listen: $(tail -n 2 "$t/serve2.log")"
    rm -f "$t/hold"
    most=0
    (submit fay JOB="$fay_job" >"$t/fay.out" 2>&1; echo $? >"$t/fay.rc") &
    fpid=$!
    while kill -0 $fpid 2>/dev/null; do # its Slurm jobs in the queue at once
        n=$(squeue -h -n "$fname" -o %i 2>/dev/null | wc -l)
        [ "$n" -le "$most" ] || most=$n
        sleep 0.2
    done
    wait $fpid
    [ "$(cat "$t/fay.rc")" = 2 ] && grep -qxF "$make_said 1" "$t/fay.out" ||
        p="$p; make submit JOB=$fay_job: exit $(cat "$t/fay.rc"), not make's 2 for the script's 1: $(tail -n 1 "$t/fay.out")"
    f=$t/fay/kit/build/submit/lab01/job.tsv
    [ "$(field state "$f")" = "done" ] || p="$p; the job is '$(field state "$f")' ($(field reason "$f")), not done"
    grep -q "^primlab-serve: job $fay_job: killed [0-9]* process" "$t/serve2.log" || p="$p; the restart killed nothing of the runner's"
    grep -q "^slurm-job: cancelled Slurm job $first ($fname)$" "$t/serve2.log" || p="$p; the restart did not cancel Slurm job $first"
    grep -q "^primlab-serve: the service had stopped under 1 running job: 1 queued again" "$t/serve2.log" || p="$p; no 'queued again' line"
    states=$(squeue -h -t all -n "$fname" -o '%i %T' | sort -n | paste -sd ' ')
    [[ "$states" =~ ^$first\ CANCELLED\ [0-9]+\ COMPLETED$ ]] || p="$p; its Slurm jobs: '$states', not $first CANCELLED then one COMPLETED"
    [ "$most" -le 1 ] || p="$p; $most Slurm jobs of job $fay_job in the queue at once"
    [ "$(grep -c "^end .* $fdir/tree$" "$t/graders.log")" = 1 ] || p="$p; $(grep -c "^end .* $fdir/tree$" "$t/graders.log") graders of the job ended, not 1"
    [ "$(grep -c "^killed .* $fdir/tree$" "$t/graders.log")" = 1 ] || p="$p; $(grep -c "^killed .* $fdir/tree$" "$t/graders.log") graders of the job stopped by a signal, not the first one"
    [ "$(sql "SELECT attempts FROM jobs WHERE id = $fay_job")" = 2 ] || p="$p; attempts: $(sql "SELECT attempts FROM jobs WHERE id = $fay_job")"
else
    p="fay's job '$fay_job' did not start its grader: $(tail -n 1 "$t/fay0.out")"
fi
left=$(squeue -h -o '%i %j %T' | paste -sd ' ')
[ -z "$left" ] || p="$p; the queue is not empty at the end: $left"
verdict "kill -9 of the service under a Slurm job, restart: that job cancelled, the job run again and done, never two Slurm jobs of it, squeue empty" \
    "$p" "$t/serve2.log"

# node_down WHY: the node set DOWN, as slurmctld does to a node that stops
# answering: Slurm ends the job on it NODE_FAIL and kills its processes
node_down() { scontrol update nodename="$node" state=down reason="$1"; }
# node_up: the node takes jobs again (ReturnToService=2 brings it back as
# soon as its slurmd answers; resumed where it has not come back): 1 when
# it does not within 10 s
node_up() {
    for _ in $(seq 50); do
        case $(sinfo -h -n "$node" -o %T 2>/dev/null) in
        idle* | mixed* | allocated*) return 0 ;;
        down* | drain* | fail*) scontrol update nodename="$node" state=resume 2>/dev/null ;;
        esac
        sleep 0.2
    done
    return 1
}
# logged TEXT LOG: wait (30 s at most) until a line of LOG begins with
# "primlab-serve: TEXT" (a regular expression)
logged() {
    for _ in $(seq 300); do grep -q "^primlab-serve: $1" "$2" && return 0; sleep 0.1; done
    return 1
}
# placed ID SLURM: wait (5 s at most) until job ID's record names Slurm job
# SLURM (the claimer reads the node's line once a second), so that its
# log lines name the node
placed() {
    for _ in $(seq 50); do
        [[ "$(sql "SELECT model FROM jobs WHERE id = $1")" == *", Slurm job $2" ]] && return 0
        sleep 0.1
    done
    return 1
}
# starts DIR: how many graders of the job of DIR have started
starts() { grep -c "^start .* $1/tree$" "$t/graders.log"; }
# ended ID: whether job ID is done or failed
ended() { [ "$(sql "SELECT state >= 2 FROM jobs WHERE id = $1")" = 1 ]; }

# ------------------------------------------ 5: a node failure, then done
node0=$SECONDS
ajob=$(send_held ann "$t/ann5.out")
adir=$sd/jobs/$ajob
p=""
if [ -n "$ajob" ] && held "$adir"; then
    read -r aname afirst <<<"$(slurm_of "$ajob")"
    placed "$ajob" "$afirst" || p="$p; job $ajob's record never named Slurm job $afirst"
    node_down "primlab test: node failure under job $ajob" || p="$p; scontrol could not set node $node down"
    back="job $ajob goes back to the queue once (it ran on node $node, GPU [01], Slurm job $afirst): "
    logged "${back}Slurm job $afirst ended NODE_FAIL on node $node$" "$t/serve2.log" ||
        p="$p; no log line of job $ajob going back to the queue once, naming node $node and Slurm job $afirst"
    node_up || p="$p; node $node is not up again: $(sinfo -h -n "$node" -o '%T %E')"
    rm -f "$t/hold"
    submit ann JOB="$ajob" >"$t/ann5.out" 2>&1
    rc=$?
    f=$t/ann/kit/build/submit/lab01/job.tsv
    [ $rc = 2 ] && grep -qxF "$make_said 1" "$t/ann5.out" ||
        p="$p; make submit JOB=$ajob: exit $rc, not make's 2 for the script's 1: $(tail -n 1 "$t/ann5.out")"
    [ "$(field state "$f")" = "done" ] || p="$p; the job is '$(field state "$f")' ($(field reason "$f")), not done"
    n=$(grep -c "^primlab-serve: job $ajob goes back" "$t/serve2.log")
    [ "$n" = 1 ] || p="$p; job $ajob went back $n times, not once"
    states=$(squeue -h -t all -n "$aname" -o '%i %T' | sort -n | paste -sd ' ')
    [[ "$states" =~ ^$afirst\ NODE_FAIL\ [0-9]+\ COMPLETED$ ]] || p="$p; its Slurm jobs: '$states', not $afirst NODE_FAIL then one COMPLETED"
    killed=$(grep -c "^killed .* $adir/tree$" "$t/graders.log") ended=$(grep -c "^end .* $adir/tree$" "$t/graders.log")
    [ "$killed $ended" = "1 1" ] || p="$p; graders of the job: $killed stopped by a signal (Slurm), $ended ended, not 1 and 1"
    [ "$(sql "SELECT attempts FROM jobs WHERE id = $ajob")" = 2 ] || p="$p; attempts: $(sql "SELECT attempts FROM jobs WHERE id = $ajob"), not 2"
else
    p="ann's job '$ajob' did not start its grader: $(tail -n 1 "$t/ann5.out")"
fi
verdict "a node failure under a job (state=down): its Slurm job NODE_FAIL, the job back in the queue once (logged with its node), then done on a second Slurm job, attempts 2 ($((SECONDS - node0)) s)" \
    "$p" "$t/serve2.log"

# ------------------ 6: a node failure, a restart, a second node failure
node0=$SECONDS
bjob=$(send_held bob "$t/bob6.out")
bdir=$sd/jobs/$bjob
p=""
if [ -n "$bjob" ] && held "$bdir"; then
    read -r _ bfirst <<<"$(slurm_of "$bjob")"
    placed "$bjob" "$bfirst" || p="$p; job $bjob's record never named Slurm job $bfirst"
    node_down "primlab test: first node failure under job $bjob"
    logged "job $bjob goes back to the queue once (it ran on node $node, GPU [01], Slurm job $bfirst)" "$t/serve2.log" ||
        p="$p; no log line of job $bjob going back to the queue once"
    stop_service # (a second start already under way is handed back, uncounted)
    node_up || p="$p; node $node is not up again: $(sinfo -h -n "$node" -o '%T %E')"
    n=$(starts "$bdir")
    serve "$t/serve3.log" "$addr" || p="$p; the restart did not listen: $(tail -n 2 "$t/serve3.log")"
    for _ in $(seq 300); do [ "$(starts "$bdir")" -gt "$n" ] && break; sleep 0.1; done
    read -r _ bsecond <<<"$(slurm_of "$bjob")"
    if [ "$(starts "$bdir")" -gt "$n" ] && [ -n "$bsecond" ]; then
        placed "$bjob" "$bsecond" || p="$p; job $bjob's record never named Slurm job $bsecond"
        node_down "primlab test: second node failure under job $bjob"
        for _ in $(seq 300); do ended "$bjob" && break; sleep 0.1; done
        ended "$bjob" || p="$p; job $bjob had not ended 30 s after the second node failure"
        rm -f "$t/hold" # (a job sent back again would wait there)
        submit bob JOB="$bjob" >"$t/bob6.out" 2>&1
        rc=$?
        f=$t/bob/kit/build/submit/lab01/job.tsv
        want="the grading machines failed twice: Slurm job $bsecond ended NODE_FAIL on node $node"
        [ $rc = 2 ] && grep -qxF "$make_said 3" "$t/bob6.out" ||
            p="$p; make submit JOB=$bjob: exit $rc, not make's 2 for the script's 3: $(tail -n 1 "$t/bob6.out")"
        [ "$(field state "$f")" = failed ] && [ "$(field reason "$f")" = "$want" ] ||
            p="$p; the job is '$(field state "$f")', its reason '$(field reason "$f")', not failed with '$want'"
        grep -qF "$want" "$t/bob6.out" || p="$p; the client did not print the reason"
        grep -q "^primlab-serve: job $bjob (lab 01) failed on node $node, GPU [01], Slurm job $bsecond in .*: $want$" "$t/serve3.log" ||
            p="$p; no log line of job $bjob failed on node $node"
        ! grep -q "^primlab-serve: job $bjob goes back" "$t/serve3.log" || p="$p; the restarted service handed job $bjob back again"
        [ "$(sql "SELECT attempts FROM jobs WHERE id = $bjob")" = 2 ] || p="$p; attempts: $(sql "SELECT attempts FROM jobs WHERE id = $bjob"), not 2"
    else
        p="$p; job $bjob did not start its grader again after the restart: $(tail -n 2 "$t/serve3.log" | paste -sd ' ')"
    fi
    node_up || p="$p; node $node is not up again: $(sinfo -h -n "$node" -o '%T %E')"
else
    p="bob's job '$bjob' did not start its grader: $(tail -n 1 "$t/bob6.out")"
fi
rm -f "$t/hold"
left=$(squeue -h -o '%i %j %T' | paste -sd ' ')
[ -z "$left" ] || p="$p; the queue is not empty at the end: $left"
verdict "a node failure, a restart, a second node failure: the job fails, 'the grading machines failed twice' (make submit: 3), the count kept in the database ($((SECONDS - node0)) s)" \
    "$p" "$t/serve3.log"

sql "SELECT id, student, state, started - submitted, finished - started, model FROM jobs ORDER BY id" >"$t/figures"
awk -F '\t' '{ printf "# job %s (%s, %s): waited %.1f s, ran %.1f s on %s\n", $1, $2, $3 == 2 ? "done" : "failed", $4, $5, $6 }' "$t/figures"
stop_service
slurm_cluster_stop
echo "# the whole suite in $SECONDS s, its cluster stopped ($(slurmctld -V), node $node, $(nproc) CPUs)"
verdict "the service and the daemons it started are stopped" "$(slurm_cluster_left)"
finish
