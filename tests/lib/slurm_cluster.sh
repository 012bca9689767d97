# tests/lib/slurm_cluster.sh: a real Slurm cluster of one node (this
# machine) for the suites that run jobs through Slurm (test_slurm.sh,
# make grade SLURM=1; test_serve_slurm.sh, the check service's
# SERVE_SLURM=1). As root and without systemd: munged --force with a fresh
# key, slurmctld and slurmd with a generated slurm.conf (proctrack/linuxproc,
# task/none, SlurmUser root, the node's CPUs from nproc, ports found free,
# everything under one folder), and two stand-in GPUs (gres.conf binds gpu
# to /dev/null and /dev/zero: Slurm then hands each job one of them and
# sets CUDA_VISIBLE_DEVICES, as on a GPU node). Two partitions: primlab
# (the default) and urgent, of a higher priority tier, whose jobs preempt
# primlab's (PreemptMode=CANCEL). Sourced, not run:
#   . tests/lib/slurm_cluster.sh
#   slurm_cluster_missing DIR   why this machine cannot start one (not root;
#                               Slurm or MUNGE missing after harness/bootstrap.sh
#                               --slurm tried, its log in DIR), or nothing
#   slurm_cluster_start DIR     starts one in DIR (made; mode 0700): exports
#                               SLURM_CONF, sets slurm_node (its name); 0 once
#                               the node is idle, else 1 with slurm_why set
#                               (not in a subshell: it sets those)
#   slurm_cluster_stop          every job cancelled, then the daemons it
#                               started stopped by their pid files, each waited
#                               for (once: call it from an EXIT trap too)
#   slurm_cluster_left          the daemons still running, or nothing
# Without systemd and as root only: a test's own cluster, never a site's.
slurm_dir="" slurm_node="" slurm_why="" slurm_stopped=""
export PATH=$PATH:/usr/sbin:/sbin

slurm_have() { local x; for x in slurmctld slurmd munged sbatch srun squeue scancel; do command -v "$x" >/dev/null || return 1; done; }

slurm_cluster_missing() {
    local why
    if [ "$(id -u)" != 0 ]; then
        echo "needs root (the test's slurmctld and slurmd run as SlurmUser=root)"
        return
    fi
    slurm_have && return
    mkdir -p "$1" && harness/bootstrap.sh --slurm >"$1/bootstrap.log" 2>&1
    slurm_have && return
    why=$(grep -m 1 'warning: Slurm' "$1/bootstrap.log" 2>/dev/null | sed 's/^bootstrap: warning: //')
    echo "${why:-Slurm or MUNGE is missing and harness/bootstrap.sh --slurm could not install them}"
}

slurm_cluster_start() {
    local c=$1 ctld_port slurmd_port
    slurm_dir=$c slurm_why=""
    mkdir -p "$c/state" "$c/spool" && chmod 700 "$c" || { slurm_why="cannot make '$c'"; return 1; }
    read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
    slurm_node=$(hostname -s)
    head -c 1024 /dev/urandom >"$c/munge.key" && chmod 400 "$c/munge.key"
    cat >"$c/slurm.conf" <<EOF
# a one-node cluster for the tests (tests/lib/slurm_cluster.sh)
ClusterName=primlabtest
SlurmctldHost=$slurm_node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$c/munge.socket
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmctldLogFile=$c/slurmctld.log
SlurmdLogFile=$c/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=5
GresTypes=gpu
NodeName=$slurm_node NodeAddr=127.0.0.1 CPUs=$(nproc) Gres=gpu:2 State=UNKNOWN
PreemptType=preempt/partition_prio
PreemptMode=CANCEL
PartitionName=primlab Nodes=$slurm_node Default=YES MaxTime=INFINITE State=UP PriorityTier=1
PartitionName=urgent Nodes=$slurm_node MaxTime=INFINITE State=UP PriorityTier=2
EOF
    printf 'NodeName=%s Name=gpu File=/dev/null\nNodeName=%s Name=gpu File=/dev/zero\n' "$slurm_node" "$slurm_node" >"$c/gres.conf"
    export SLURM_CONF=$c/slurm.conf
    munged --force --key-file="$c/munge.key" --socket="$c/munge.socket" --pid-file="$c/munged.pid" \
        --log-file="$c/munged.log" --seed-file="$c/munged.seed" >"$c/start.log" 2>&1 ||
        { slurm_why="munged: $(tail -n 1 "$c/start.log")"; return 1; }
    slurmctld >>"$c/start.log" 2>&1 || { slurm_why="slurmctld: $(tail -n 1 "$c/start.log")"; return 1; }
    slurmd >>"$c/start.log" 2>&1 || { slurm_why="slurmd: $(tail -n 1 "$c/start.log")"; return 1; }
    for _ in $(seq 100); do
        [ "$(sinfo -h -n "$slurm_node" -o %T 2>/dev/null)" = idle ] && return 0
        sleep 0.2
    done
    slurm_why="the node is not idle after 20 s: $(sinfo -h -o '%T %E' 2>&1 | head -n 1); $(grep -h error "$c"/slurm*.log | tail -n 1)"
    return 1
}

slurm_cluster_stop() {
    local c=$slurm_dir f pid i
    [ -n "$c" ] && [ -z "$slurm_stopped" ] || return 0
    slurm_stopped=1
    [ -f "$c/slurmctld.pid" ] && SLURM_CONF=$c/slurm.conf timeout 10 scancel --user=root >/dev/null 2>&1 && sleep 1
    for f in "$c/slurmd.pid" "$c/slurmctld.pid" "$c/munged.pid"; do
        pid=$(cat "$f" 2>/dev/null) && [ -n "$pid" ] || continue
        kill -TERM "$pid" 2>/dev/null || continue
        for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
    done
}

slurm_cluster_left() {
    local f pid p=""
    for f in slurmd slurmctld munged; do
        pid=$(cat "$slurm_dir/$f.pid" 2>/dev/null) && kill -0 "$pid" 2>/dev/null && p="$p; $f ($pid) is still running"
    done
    echo "$p"
}
