#!/usr/bin/env bash
# harness/serve/slurm-job.sh: the Slurm side of the check service
# (SERVE_SLURM=1; docs/check-service.md, "On a Slurm cluster"), which runs
# on a login node without GPUs and has each job's runner
# (harness/serve/run-job.sh) run on a compute node, as one Slurm job.
# build/primlab-serve calls it; nothing else needs to.
#
#   slurm-job.sh check SECONDS
#       before the claimers start: the client commands are there, the
#       controller answers, and a job of these options would be taken
#       (srun --test-only); else one line on stdout, status 2
#   slurm-job.sh run SECONDS RUNNER UPLOAD LAB JOBDIR
#       one job, by a claimer (in its process group, its output in
#       JOBDIR/runner.log): srun, blocking, runs "slurm-job.sh node RUNNER
#       UPLOAD LAB JOBDIR" on a node; RUNNER's exit status comes back
#       through srun, and its JOBDIR/status stands when it wrote one.
#       When it wrote none because Slurm ended the job, this writes it:
#         failed<TAB>why    cancelled (scancel), past its time limit, out
#                           of memory: the reason for the student
#         machine<TAB>why   the node failed, the job was preempted, or it
#                           ran without reaching the job's folder: the
#                           service runs it again once (a node broken is
#                           not the cluster broken), then fails it
#         busy<TAB>why      Slurm refused the job, or an earlier attempt's
#                           Slurm job has not left the queue: the job goes
#                           back to the queue, uncounted, the slot pauses
#   slurm-job.sh node RUNNER UPLOAD LAB JOBDIR
#       on the node: JOBDIR/runner.node, one line "SLURM_JOB_ID<TAB>node
#       <TAB>CUDA_VISIBLE_DEVICES<TAB>GPU model" (the service shows where
#       the job runs, and from then on counts SERVE_JOB_TIMEOUT), then
#       exec RUNNER UPLOAD LAB JOBDIR
#   slurm-job.sh cancel JOBDIR
#       the Slurm job of JOBDIR's job cancelled (scancel, by its name), and
#       waited for until it has left the queue (60 s at most; status 1 then)
#
# A Slurm job is named after its job, primlab-serve-<hash of SERVE_DIR>-<id>
# (the service's folder is JOBDIR/../..), so that the service finds it
# again by name alone: one submitted an instant before a kill -9 of the
# service, whose id nobody saw, too. No two attempts of a job are in the
# queue at once: run cancels what an earlier attempt left, and waits for it.
#
# Options (the environment; grade-slurm.sh's GRADE_ ones, named alike):
# SERVE_PARTITION (default: the cluster's), SERVE_GRES (default gpu:1;
# empty for none, gpu:a100:1 to pin a model), SERVE_TIME (srun --time;
# default SECONDS, the service's SERVE_JOB_TIMEOUT, plus ten minutes),
# SERVE_SRUN (more srun options, e.g. "--account=cs4xx --qos=short
# --constraint=h100"). The nodes must see JOBDIR, the upload, RUNNER's kit
# and this script at the same paths as the login node (a shared file
# system), and srun must reach them (and they srun, its ports).
set -u
me=slurm-job
die() { echo "$me: $*" >&2; exit 2; }
user=$(id -un)
# (a service started inside an allocation would run its jobs as its steps;
# on the node, Slurm's variables say where the job runs)
# shellcheck disable=SC2046 # one name a word
[ "${1:-}" = node ] || unset $(compgen -e | grep '^SLURM_' | grep -vx -e SLURM_CONF)

# srun_options SECONDS: the options of every job, into opts (its time
# limit, in minutes, into minutes)
srun_options() {
    local extra
    read -r -a extra <<<"${SERVE_SRUN:-}"
    minutes=${SERVE_TIME:-$((($1 + 600 + 59) / 60))}
    opts=(--nodes=1 --ntasks=1 --time="$minutes")
    [ -z "${SERVE_GRES-gpu:1}" ] || opts+=(--gres="${SERVE_GRES-gpu:1}")
    [ -z "${SERVE_PARTITION:-}" ] || opts+=(--partition="$SERVE_PARTITION")
    opts+=("${extra[@]}")
}

# name JOBDIR: the Slurm job's name for the job of JOBDIR
name() {
    local dir=${1%/}
    printf 'primlab-serve-%s-%s' "$(printf '%s' "${dir%/jobs/*}" | sha256sum | cut -c 1-10)" "${dir##*/}"
}

# cancel NAME: its jobs cancelled; 0 once none is left in the queue (60 s)
cancel() {
    local ids
    ids=$(squeue -h -u "$user" -n "$1" -o %i 2>&1) || { echo "$me: squeue: $(head -n 1 <<<"$ids")" >&2; return 1; }
    [ -n "$ids" ] || return 0
    scancel -u "$user" -n "$1" || return 1
    echo "$me: cancelled Slurm job $(paste -sd ' ' <<<"$ids") ($1)" >&2
    for _ in $(seq 120); do
        [ -z "$(squeue -h -u "$user" -n "$1" -o %i 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    echo "$me: Slurm job $(paste -sd ' ' <<<"$ids") ($1) is still in the queue 60 s after scancel" >&2
    return 1
}

# say JOBDIR STATUS WHY: JOBDIR/status, renamed into place; exit as run-job.sh does
say() {
    printf '%s\t%s\n' "$2" "$(tr -d '\t\r\n' <<<"$3" | cut -c 1-400)" >"$1/status.tmp" &&
        mv -f "$1/status.tmp" "$1/status" || exit 2
    echo "$me: $2: $3" >&2
    case "$2" in machine) exit 3 ;; busy) exit 4 ;; *) exit 0 ;; esac
}

# state ID: "STATE|REASON" of Slurm job ID once it has ended (COMPLETING
# waited for, 15 s at most), from squeue, else from sacct; empty if neither knows
state() {
    local s=""
    for _ in $(seq 30); do
        s=$(squeue -h -t all -j "$1" -o '%T|%r' 2>/dev/null | head -n 1)
        case "$s" in RUNNING* | COMPLETING* | CONFIGURING* | SIGNALING* | STAGE_OUT*) sleep 0.5 ;; *) break ;; esac
    done
    [ -n "$s" ] || s=$(sacct -n -P -X -j "$1" -o State,Reason 2>/dev/null | head -n 1)
    echo "$s"
}

case "${1:-}" in
check)
    [ $# = 2 ] || die "usage: slurm-job.sh check SECONDS"
    for c in srun squeue scancel; do
        command -v "$c" >/dev/null 2>&1 ||
            { echo "SERVE_SLURM=1: '$c' is not found: run the service on the cluster's login node (Slurm's client commands)"; exit 2; }
    done
    err=$(squeue -h -u "$user" -o %i 2>&1 >/dev/null) ||
        { echo "SERVE_SLURM=1: the Slurm controller does not answer: $(head -n 1 <<<"$err")"; exit 2; }
    srun_options "$2"
    err=$(srun --test-only "${opts[@]}" true 2>&1) ||
        { echo "SERVE_SLURM=1: Slurm would refuse the jobs (srun --test-only ${opts[*]}): $(grep -v '^srun: Job .* to start at' <<<"$err" | tail -n 1)"; exit 2; }
    echo "srun ${opts[*]}"
    ;;
node)
    [ $# = 5 ] || die "usage: slurm-job.sh node RUNNER UPLOAD LAB JOBDIR"
    dir=$5 model="dry run (no GPU)"
    if [ -z "${PRIMLAB_NO_GPU:-}" ]; then
        model=$(timeout 30 nvidia-smi -i "${CUDA_VISIBLE_DEVICES%%,*}" --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
        model=${model:-no GPU seen}
    fi
    # (written last, renamed: the service reads it whole or not at all)
    if ! printf '%s\t%s\t%s\t%s\n' "${SLURM_JOB_ID:-?}" "${SLURMD_NODENAME:-$(hostname -s)}" \
        "${CUDA_VISIBLE_DEVICES:-}" "$model" >"$dir/runner.node.tmp" || ! mv -f "$dir/runner.node.tmp" "$dir/runner.node"; then
        echo "$me: node ${SLURMD_NODENAME:-$(hostname -s)} cannot write in the job's folder '$dir': the nodes must see SERVE_DIR at the login node's path" >&2
        exit 97
    fi
    exec "$2" "$3" "$4" "$dir"
    ;;
cancel)
    [ $# = 2 ] || die "usage: slurm-job.sh cancel JOBDIR"
    cancel "$(name "$2")"
    ;;
run)
    [ $# = 6 ] || die "usage: slurm-job.sh run SECONDS RUNNER UPLOAD LAB JOBDIR"
    seconds=$2 runner=$3 upload=$4 lab=$5 dir=$6
    job=$(name "$dir")
    cancel "$job" || say "$dir" busy "Slurm does not answer, or an earlier attempt's Slurm job ($job) has not left the queue 60 s after scancel"
    before=$(squeue -h -t all -u "$user" -n "$job" -o %i 2>/dev/null | sort -n | tail -n 1)
    srun_options "$seconds"
    srun "${opts[@]}" --job-name="$job" --chdir="$dir" "$0" node "$runner" "$upload" "$lab" "$dir"
    rc=$?
    [ ! -e "$dir/status" ] || exit $rc # the runner's verdict stands
    # which Slurm job this attempt was: the node's line, else the newest of its name
    id=$(cut -f 1 "$dir/runner.node" 2>/dev/null)
    node=$(cut -f 2 "$dir/runner.node" 2>/dev/null)
    [ -n "$id" ] || id=$(squeue -h -t all -u "$user" -n "$job" -o %i 2>/dev/null | sort -n | tail -n 1)
    [ "$id" != "$before" ] || id=""
    said=$(grep '^srun: ' "$dir/runner.log" 2>/dev/null | grep -v 'queued and waiting' | tail -n 1)
    if [ -z "$id" ]; then # never in the queue: srun refused it
        say "$dir" busy "Slurm refused the job: ${said:-srun ended with status $rc}"
    fi
    IFS='|' read -r st why <<<"$(state "$id")"
    [ "$st|$why" != "COMPLETING|TimeLimit" ] || st=TIMEOUT # (still ending after 15 s)
    [ -z "$node" ] || where=" on node $node"
    case "$st" in
    CANCELLED*)
        if [ -n "$node" ]; then say "$dir" failed "the check's Slurm job $id was cancelled (scancel) while it ran${where:-}"
        else say "$dir" failed "the check's Slurm job $id was cancelled (scancel) before it started"; fi ;;
    TIMEOUT* | DEADLINE*)
        say "$dir" failed "the check ran past its Slurm time limit (srun --time=$minutes, SERVE_TIME): stopped" ;;
    OUT_OF_MEMORY*)
        say "$dir" failed "the check ran out of memory${where:-} (Slurm job $id)" ;;
    NODE_FAIL* | BOOT_FAIL* | PREEMPTED* | REQUEUE* | RESIZING* | SUSPENDED*)
        say "$dir" machine "Slurm job $id ended $st${where:-}" ;;
    COMPLETED* | FAILED*)
        if [ -z "$node" ]; then # it ran, and never reached the job's folder
            say "$dir" machine "Slurm job $id ran${said:+ ($said)} but left nothing in the job's folder: do the nodes see SERVE_DIR at this path?"
        fi
        exit $rc ;; # the runner ended without a status: the service says so
    *)
        say "$dir" machine "Slurm job $id ended in a state Slurm no longer reports (${st:-none}; srun status $rc)" ;;
    esac
    ;;
*) die "usage: slurm-job.sh check SECONDS | run SECONDS RUNNER UPLOAD LAB JOBDIR | node RUNNER UPLOAD LAB JOBDIR | cancel JOBDIR" ;;
esac
