#!/usr/bin/env bash
# tests/grading/test_slurm.sh: make grade SLURM=1 on a real Slurm cluster (issue
# 17): this test starts one of its own, one node (this machine), as root
# and without systemd, with two stand-in GPUs (tests/lib/slurm_cluster.sh:
# Slurm hands each task one of them and sets CUDA_VISIBLE_DEVICES, as on a
# GPU node). Grading is the dry run
# (PRIMLAB_NO_GPU=1), so that it holds on a machine without a GPU, with a
# secret seed. A timeout first on PATH (tests/grading/timeout_log.sh) logs, from
# inside each task's grader, its CUDA_VISIBLE_DEVICES and when it ran.
#   1. four submissions through one job array (the default --gres=gpu:1);
#      dan's task is held in its grader and cancelled there (scancel):
#      ann, bob and cat graded, whole rows; dan ungraded, CANCELLED named
#      in .ungraded.tsv, no result of his; the job script in the grades
#      folder; tasks side by side never on one GPU; status 3;
#   2. the rerun submits dan alone and grades him;
#   3. the same submissions graded here (no Slurm) give the same gradebook
#      and the same rows per student; the seed is in no output or file;
#   4. make grade stopped while its job runs: the job goes on (and keeps
#      the seed); the next run waits for it, merges, submits nothing;
#   5. on a machine without a GPU, PRIMLAB_NO_GPU unset: each task fails as
#      the grading machine's fault on its own, its student ungraded with
#      the reason; the others are still graded;
#   6. a task past its time limit (GRADE_TIME=1: dan held in his grader for
#      over a minute) and a task preempted (a job of a partition of higher
#      priority tier that needs both GPUs, PreemptMode=CANCEL): dan
#      ungraded with Slurm's state, TIMEOUT or PREEMPTED, no half result;
#      the rerun grades him.
# It stops the daemons it started, by their pid files, on any exit. Without
# root, bwrap, or Slurm and MUNGE (harness/bootstrap.sh --slurm installs
# them when it can), SKIP with the reason. Prints one line per check, the
# Slurm run's lines and gradebook, then `N passed, N failed, N skipped`.
# tier: slow (a one-node Slurm cluster started and a class graded through it; CI and make test-slow run it)
set -u
cd "$(dirname "$0")/../.." || exit 2
t=$(mktemp -d)
c=$t/cluster
unset PRIMLAB_SEED JOBS SLURM CUDA_VISIBLE_DEVICES PRIMLAB_GPUS GRADE_GRES GRADE_PARTITION GRADE_SBATCH GRADE_TIME
export PRIMLAB_LIMITS=0 PRIMLAB_NO_GPU=1 GRADE_POLL=1
# make test runs the other grading tests beside this one, in the same kit:
# wait for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=900
# The nodes' architecture: the one the kit builds for here (this host's
# GPU's, else sm_75), so that the Slurm runs grade in the grading kit the
# other suites built. A login node without a GPU would say ARCH=portable
# (harness/grade-slurm.sh), and build the kit again for three
# architectures, and the dry runs beside it again for one.
if [ -z "${ARCH:-}" ] && ! nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | grep -q '[0-9]'; then
    export ARCH=sm_75
fi

. tests/lib/verdict.sh # say, verdict, finish, and the counts
. tests/lib/slurm_cluster.sh

trap 'slurm_cluster_stop; rm -rf "$t"' EXIT # (bash runs it when INT, TERM or HUP stop the test too)

# ------------------------------------------------------------- can we?
why=$(slurm_cluster_missing "$t")
if [ -n "$why" ]; then
    say SKIP "grading through Slurm" "$why"
    finish
fi
if ! command -v bwrap >/dev/null || ! err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    say SKIP "grading through Slurm" "bwrap is missing or cannot start a sandbox here (${err:-not installed}): make grade needs it"
    finish
fi
make -s --no-print-directory build/primlab-results >"$t/make.log" 2>&1 ||
    { say FAIL "make build/primlab-results" "$(tail -n 3 "$t/make.log")"; finish; }

# ------------------------------------------------------------- cluster
if ! slurm_cluster_start "$c"; then
    say FAIL "a one-node Slurm cluster starts" "$slurm_why"
    finish
fi
node=$slurm_node
say OK "a one-node Slurm cluster starts ($(slurmctld -V), node $node, $(nproc) CPUs, 2 stand-in GPUs)"

# ------------------------------------------------------------- class
mkdir -p "$t/shim"
export TIMEOUT_LOG_REAL
TIMEOUT_LOG_REAL=$(command -v timeout)
ln -s "$PWD/tests/grading/timeout_log.sh" "$t/shim/timeout"
export PATH=$t/shim:$PATH
s=$t/subs
stub=labs/01-prefix-sum/prefix_sum.cu
mkdir -p "$s/ann/01-prefix-sum" "$t/bob" "$t/cat" "$s/dan/01-prefix-sum"
cp "$stub" "$s/ann/01-prefix-sum/"
echo "int oops = ;" >"$t/bob/prefix_sum.cu" && tar -czf "$s/bob.tar.gz" -C "$t/bob" .
echo "notes only" >"$t/cat/README" && python3 -c "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])" "$s/cat" "$t/cat"
cp "$stub" "$s/dan/01-prefix-sum/"
seed=$((RANDOM * 32768 + RANDOM + 1000000007))
export TIMEOUT_LOG_HOLD=$t/hold TIMEOUT_LOG_HOLD_WHO=dan

# ---------------------------------------------------------------- 1
g=$t/grades
touch "$t/hold"
TIMEOUT_LOG=$t/1.log PRIMLAB_SEED=$seed SLURM=1 harness/grade.sh "$s" "$g" >"$t/1.out" 2>&1 &
gpid=$!
job="" task=""
for _ in $(seq 9000); do # dan's grader starts in his task, and is held there
    job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$t/1.out")
    task=$(awk -F '\t' '$2 == "dan" { print $1 }' "$g/.slurm/tasks.tsv" 2>/dev/null)
    [ -n "$job" ] && [ -n "$task" ] && grep -q '^start .*/tasks/dan$' "$t/1.log" 2>/dev/null && break
    kill -0 $gpid 2>/dev/null || break
    sleep 0.1
done
cancelled=""
if [ -n "$job" ] && [ -n "$task" ] && scancel "${job}_$task" 2>"$t/scancel.err"; then cancelled=${job}_$task; fi
rm -f "$t/hold" # (when the cancel failed, dan's grader goes on)
wait $gpid
rc=$?
p=""
[ -n "$cancelled" ] || p="$p; dan's task was not cancelled (job '$job', task '$task': $(head -n 1 "$t/scancel.err" 2>/dev/null))"
[ $rc = 3 ] || p="$p; exit status $rc, not 3"
grep -q "^Submitted batch job $job$" "$t/1.out" || p="$p; no 'Submitted batch job' line"
for who in ann bob cat dan; do grep -q "^   task ${job}_[0-3]: $who$" "$t/1.out" || p="$p; no task line for $who"; done
grep -q "^-- Slurm job $job: [0-9]* done, [0-9]* running, [0-9]* pending ([0-9]*:[0-9][0-9] so far)$" "$t/1.out" ||
    p="$p; no progress line"
verdict "one job array for the four; dan's task cancelled in his grader (status 3)" "$p" "$t/1.out"
p=""
for who in ann bob cat; do
    grep -q "^$who," "$g/gradebook.csv" 2>/dev/null || p="$p; no gradebook row for $who"
    for f in results.json report.txt scores.tsv; do [ -s "$g/$who/$f" ] || p="$p; $who/$f missing"; done
    grep -q "^   graded by Slurm task ${job}_[0-3] on $node, GPU [01], in [0-9.]* s$" "$t/1.out" || p="$p; no 'graded by Slurm task' line"
done
! grep -q '^dan,' "$g/gradebook.csv" 2>/dev/null || p="$p; dan has a gradebook row"
[ ! -e "$g/dan" ] || p="$p; dan has a results folder"
! grep -qs "^dan"$'\t' "$g/.graded.tsv" || p="$p; dan is in the record"
grep -qs "^dan"$'\t'".*"$'\t'"Slurm task ${cancelled:-?}: CANCELLED" "$g/.ungraded.tsv" ||
    p="$p; dan's reason in .ungraded.tsv is not CANCELLED: $(cut -f 3 "$g/.ungraded.tsv" 2>/dev/null)"
[ "$(cut -f 1 "$g/.ungraded.tsv" 2>/dev/null)" = dan ] || p="$p; .ungraded.tsv lists more than dan"
[ ! -e "$g/.slurm/tasks/dan/status" ] || p="$p; dan's cancelled tree has a status"
[ -z "$(find "$g" -name '*.tmp')" ] || p="$p; temporary files left"
python3 - "$g/gradebook.csv" >"$t/rows" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print("; ".join("row %s is not whole" % r[:1] for r in rows[1:] if len(r) != len(rows[0])))
PY
p="$p$(sed 's/^./; &/' "$t/rows")"
verdict "ann, bob and cat graded, whole rows; dan ungraded: CANCELLED in .ungraded.tsv, no half result" "$p" "$t/1.out"
p=""
sb=$g/.slurm/grade.sbatch
for line in "#SBATCH --array=0-3" "#SBATCH --gres=gpu:1" "#SBATCH --output=$g/.slurm/logs/%A_%a.out" \
    "exec harness/grade-student.sh \"\$tree\""; do
    grep -qxF -- "$line" "$sb" 2>/dev/null || p="$p; no '$line' in $sb"
done
grep -qF "$seed" "$sb" && p="$p; the seed is in the job script"
[ ! -e "$g/.slurm/seed" ] || p="$p; the seed file outlived the job"
grep -q "^task ${job}_[0-3]: ann on $node, CUDA_VISIBLE_DEVICES=[01]$" "$g"/.slurm/logs/"${job}"_*.out 2>/dev/null ||
    p="$p; no task log in $g/.slurm/logs"
verdict "the job script, in the grades folder, and the tasks' logs" "$p"
p=$(python3 - "$t/1.log" <<'PY'
import sys
starts, runs = {}, []
for line in open(sys.argv[1]):
    kind, dev, cpus, when, tree = line.split(None, 4)
    if kind == "start":
        starts[tree] = (dev, float(when))
    elif tree in starts:
        dev, t0 = starts.pop(tree)
        runs.append((dev, t0, float(when), tree.strip()))
runs += [(d, t0, float("inf"), tr.strip()) for tr, (d, t0) in starts.items()]
p = []
if len(runs) != 4:
    p.append("%d graders seen, not 4" % len(runs))
if any(r[0] not in ("0", "1") for r in runs):
    p.append("a task without a GPU of its own: %s" % [r[0] for r in runs])
pairs = [(a, b) for i, a in enumerate(runs) for b in runs[i + 1:]]
shared = [(a[3], b[3]) for a, b in pairs if a[0] == b[0] and a[1] < b[2] and b[1] < a[2]]
if shared:
    p.append("two tasks at once on one GPU: %s" % shared[:2])
print("; ".join(p))
PY
) || p="the log's analysis failed"
verdict "each task had a GPU of its own from Slurm (CUDA_VISIBLE_DEVICES), never two at once on one" "$p" "$t/1.log"

# ---------------------------------------------------------------- 2
TIMEOUT_LOG=$t/2.log PRIMLAB_SEED=$seed SLURM=1 harness/grade.sh "$s" "$g" >"$t/2.out" 2>&1
rc=$?
job2=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$t/2.out")
p=""
[ $rc = 0 ] || p="$p; exit status $rc"
grep -q '^graded 1, skipped 3; gradebook: ' "$t/2.out" || p="$p; not 'graded 1, skipped 3'"
[ "$(grep -c '^   task ' "$t/2.out")" = 1 ] && grep -q "^   task ${job2}_0: dan$" "$t/2.out" || p="$p; not dan's task alone"
grep -qxF "#SBATCH --array=0-0" "$sb" || p="$p; the job script's array is not 0-0"
grep -q '^dan,' "$g/gradebook.csv" || p="$p; no gradebook row for dan"
[ ! -e "$g/.ungraded.tsv" ] || p="$p; .ungraded.tsv is still there"
[ -z "$(ls -A "$g/.slurm/tasks")" ] || p="$p; task trees left: $(ls -A "$g/.slurm/tasks")"
verdict "the rerun submits dan's task alone, and grades him" "$p" "$t/2.out"

# ---------------------------------------------------------------- 3
gl=$t/grades-here
TIMEOUT_LOG=$t/3.log PRIMLAB_SEED=$seed harness/grade.sh "$s" "$gl" >"$t/3.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="$p; the run here: exit status $rc"
cmp -s "$g/gradebook.csv" "$gl/gradebook.csv" ||
    p="$p; the gradebooks differ: $(diff "$g/gradebook.csv" "$gl/gradebook.csv" | head -n 4 | paste -sd ' ')"
for who in ann bob cat dan; do
    cmp -s <(cut -f 1-7 "$g/$who/scores.tsv") <(cut -f 1-7 "$gl/$who/scores.tsv") || p="$p; $who's rows differ"
done
grep -q '(hidden)' "$g/ann/scores.tsv" || p="$p; no hidden test in ann's rows: the seed did not reach the task"
verdict "graded here without Slurm: the same gradebook, the same rows per student" "$p" "$t/3.out"
p=""
grep -lF "$seed" "$t"/[123].out >/dev/null && p="$p; the seed is in an output"
[ -z "$(grep -rlF "$seed" "$g" "$gl")" ] || p="$p; the seed is in a file of the grades: $(grep -rlF "$seed" "$g" "$gl" | head -n 2)"
verdict "the seed is in no output and no file of the grades" "$p"

# ---------------------------------------------------------------- 4
# make grade stopped while its job runs (dan held in his grader again): the
# job goes on; the next run waits for it and merges dan, submitting nothing
g4=$t/grades4
touch "$t/hold"
TIMEOUT_LOG=$t/4.log PRIMLAB_SEED=$seed SLURM=1 harness/grade.sh "$s" "$g4" >"$t/4.out" 2>&1 &
gpid=$!
for _ in $(seq 9000); do
    grep -q '^start .*/tasks/dan$' "$t/4.log" 2>/dev/null && grep -qs "^cat"$'\t' "$g4/.graded.tsv" && break
    kill -0 $gpid 2>/dev/null || break
    sleep 0.1
done
kill -TERM $gpid
wait $gpid
rc=$?
job4=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$t/4.out")
p=""
[ $rc = 143 ] || p="$p; exit status $rc, not 143"
grep -q "^grade: stopped while Slurm job $job4 is queued or running; it goes on" "$t/4.out" || p="$p; no line saying the job goes on"
[ -s "$g4/.slurm/seed" ] || p="$p; the seed file is gone while the job still needs it"
[ -n "$(squeue -h -j "$job4" -o %i 2>/dev/null)" ] || p="$p; job $job4 is not in the queue any more"
# (dan stays held until the rerun says it waits: else his task could end
# before the rerun looked, as it did beside other suites on 2 CPUs)
TIMEOUT_LOG=$t/5.log PRIMLAB_SEED=$seed SLURM=1 harness/grade.sh "$s" "$g4" >"$t/5.out" 2>&1 &
rpid=$!
for _ in $(seq 1200); do
    grep -q "^grade: Slurm job $job4 of an earlier run of these grades is still queued or running: waiting for it" "$t/5.out" && break
    kill -0 $rpid 2>/dev/null || break
    sleep 0.1
done
rm -f "$t/hold"
wait $rpid
rc=$?
[ $rc = 0 ] || p="$p; the rerun: exit status $rc"
grep -q "^grade: Slurm job $job4 of an earlier run of these grades is still queued or running: waiting for it" "$t/5.out" ||
    p="$p; the rerun did not wait for job $job4"
! grep -q '^Submitted batch job' "$t/5.out" || p="$p; the rerun submitted a job"
grep -A 30 '^== dan$' "$t/5.out" | grep -q "^   graded by Slurm task ${job4}_[0-3] on " || p="$p; dan not merged from job $job4"
grep -q '^graded 1, skipped 3; gradebook: ' "$t/5.out" || p="$p; the rerun: not 'graded 1, skipped 3'"
cmp -s "$g/gradebook.csv" "$g4/gradebook.csv" || p="$p; the gradebook differs from the first grades'"
[ ! -e "$g4/.slurm/seed" ] || p="$p; the seed file outlived the job"
verdict "make grade stopped while its job runs: the next run waits for the job and merges it" "$p" "$t/5.out"

# ---------------------------------------------------------------- 5
name="a node without a GPU (PRIMLAB_NO_GPU unset): those tasks' students ungraded with the node's reason, the others go on"
if has_gpu; then
    say SKIP "$name" "this machine has a GPU"
else
    g6=$t/grades6
    env -u PRIMLAB_NO_GPU TIMEOUT_LOG=$t/6.log SLURM=1 harness/grade.sh "$s" "$g6" >"$t/6.out" 2>&1
    rc=$?
    p=""
    [ $rc = 3 ] || p="$p; exit status $rc, not 3"
    for who in ann dan; do
        grep -A 1 "^== $who$" "$t/6.out" | grep -q '^   not graded: the grading machine has no GPU' ||
            p="$p; $who not 'not graded: the grading machine has no GPU'"
    done
    # nothing of bob's (no build) or cat's (no lab file) runs: graded
    [ "$(cut -f 1 "$g6/.graded.tsv" 2>/dev/null | sort | paste -sd ' ')" = "bob cat" ] || p="$p; not bob and cat graded"
    [ "$(cut -f 1 "$g6/.ungraded.tsv" 2>/dev/null | paste -sd ' ')" = "ann dan" ] || p="$p; .ungraded.tsv is not ann, dan"
    verdict "$name" "$p" "$t/6.out"
fi

# ---------------------------------------------------------------- 6
# dan alone, held in his grader: once past the job's time limit (one
# minute; Slurm looks every 30 s or so), once preempted by a job of the
# urgent partition that needs both GPUs. Each time he is ungraded with
# Slurm's state and leaves no result; the rerun grades him.
s6=$t/subs6
mkdir -p "$s6" && cp -r "$s/dan" "$s6/"
# ended DIR OUT RC STATE: the problems of a run whose only task ended in STATE
ended() {
    local p=""
    [ "$3" = 3 ] || p="$p; exit status $3, not 3"
    grep -qs "^dan"$'\t'".*"$'\t'"Slurm task [0-9]*_0: $4" "$1/.ungraded.tsv" ||
        p="$p; dan's reason in .ungraded.tsv is not $4: $(cut -f 3 "$1/.ungraded.tsv" 2>/dev/null)"
    grep -A 1 '^== dan$' "$2" | grep -q "not graded: .*Slurm task [0-9]*_0: $4" || p="$p; no 'not graded: ... $4' line"
    [ ! -e "$1/dan" ] || p="$p; dan has a results folder"
    ! grep -qs '^dan,' "$1/gradebook.csv" || p="$p; dan has a gradebook row"
    [ -z "$(find "$1" -name '*.tmp')" ] || p="$p; temporary files left"
    echo "$p"
}
touch "$t/hold"
TIMEOUT_LOG=$t/7.log SLURM=1 GRADE_TIME=1 timeout 600 harness/grade.sh "$s6" "$t/g7" >"$t/7.out" 2>&1
rc=$?
rm -f "$t/hold"
verdict "a task past its time limit (GRADE_TIME=1): dan ungraded, TIMEOUT in .ungraded.tsv, no half result" \
    "$(ended "$t/g7" "$t/7.out" $rc TIMEOUT)" "$t/7.out"
touch "$t/hold"
TIMEOUT_LOG=$t/8.log SLURM=1 harness/grade.sh "$s6" "$t/g8" >"$t/8.out" 2>&1 &
gpid=$!
for _ in $(seq 9000); do
    grep -q '^start .*/tasks/dan$' "$t/8.log" 2>/dev/null && break
    kill -0 $gpid 2>/dev/null || break
    sleep 0.1
done
urgent=$(sbatch -p urgent --gres=gpu:2 -o /dev/null --wrap true 2>&1)
wait $gpid
rc=$?
rm -f "$t/hold"
p=$(ended "$t/g8" "$t/8.out" $rc PREEMPTED)
grep -q '^Submitted batch job' <<<"$urgent" || p="$p; the urgent job was not submitted: $urgent"
TIMEOUT_LOG=$t/9.log SLURM=1 harness/grade.sh "$s6" "$t/g8" >"$t/9.out" 2>&1 || p="$p; the rerun: exit status $?"
grep -q '^graded 1, skipped 0; gradebook: ' "$t/9.out" && grep -qs '^dan,' "$t/g8/gradebook.csv" ||
    p="$p; the rerun did not grade dan"
verdict "a task preempted by a job of a higher partition: dan ungraded, PREEMPTED in .ungraded.tsv; the rerun grades him" \
    "$p" "$t/8.out"

echo "== the Slurm run's job and tasks (tests/grading/test_slurm.sh), then its gradebook after the rerun"
grep -hE '^Submitted batch job|^   task |^-- Slurm job|^== |Slurm task' "$t/1.out" "$t/2.out" | sed 's/^/   /'
echo "== dan past his time limit, then preempted (stage 6)"
grep -hE '^Submitted batch job|not graded: .*Slurm task' "$t/7.out" "$t/8.out" 2>/dev/null | sed 's/^/   /'
sed 's/^/   /' "$g/gradebook.csv"
slurm_cluster_stop
verdict "the daemons it started are stopped" "$(slurm_cluster_left)"
finish
