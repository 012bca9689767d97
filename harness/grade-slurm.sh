# harness/grade-slurm.sh: make grade SLURM=1, the Slurm side of
# harness/grade.sh, which sources it (and uses its globals: out, kit, the
# plan, merge, prepare). One job array per run, one task per student not
# yet graded, each task grading its student's tree on a node with
# harness/grade-student.sh; this side prepares the trees, writes the job
# script, submits it, waits with a progress line and merges the results.
#
# Layout, under OUT/.slurm/ (a dotfolder: never a student's name):
#   grade.sbatch   the job script, to read, or to resubmit by hand
#                  (sbatch --array=3,7 OUT/.slurm/grade.sbatch; then
#                  make grade SLURM=1 again waits for it and merges)
#   tasks.tsv      task id, student, sha256 of the submission, one a line
#   tasks/<student>/  the student's tree: labs/, feedback.txt and assignment from here,
#                  the task's results (grade-student.sh) until merged
#   logs/<job>_<task>.out   each task's output (the grader's own lines)
#   seed, seed.tag the grading seed (mode 0600) while the job may still
#                  need it, and its fingerprint (an HMAC, harness/record.sh) that outlives it
#   kit            the version of the kit the batch grades with: a task left
#                  from a batch of another kit is graded again, not merged
# The trees are under OUT, which the sandboxes hide from student code, as
# they hide OUT/.work/ on a local run; the nodes must see OUT, the grading
# kit and the CUDA toolkit at the same paths as this host (a shared file
# system), and have bubblewrap.
#
# Interface (functions called by grade.sh):
#   slurm_check          the client commands answer, or stop; pins ARCH
#   slurm_wait_earlier   wait for a job of an earlier run of these grades
#   slurm_earlier N S    an earlier task left a grade for N's submission S
#                        (with this run's seed, of this run's assignment)
#   slurm_tree N         the tree of student N
#   slurm_grade          submit the plan, wait, merge
#   slurm_cleanup        on exit: the seed goes, unless a job still needs it
#
# Options (make variables or the environment): GRADE_PARTITION (default:
# the cluster's), GRADE_TIME (sbatch --time; default GRADE_TIMEOUT plus ten
# minutes), GRADE_GRES (default gpu:1; empty for none, gpu:a100:1 to pin a
# model), GRADE_SBATCH (more sbatch options, e.g. "--qos=exam
# --constraint=h100"), GRADE_POLL (seconds between squeue calls, default
# 10), ARCH (the nodes' GPU architecture, sm_90; default this host's GPU's,
# else the portable set).

batch=$out/.slurm
jobname=primlab-grade-$(printf '%s' "$out" | sha256sum | cut -c 1-10)
partition=${GRADE_PARTITION:-}
gres=${GRADE_GRES-gpu:1}
time_limit=${GRADE_TIME:-$(((limit + 600 + 59) / 60))}
poll=${GRADE_POLL:-10}
slurm_active="" # a job submitted or waited for, not yet seen leaving the queue

# seed_tag: the grading seed's fingerprint ("none" without one; an HMAC
# under OUT/.seed-key, harness/record.sh, never a plain checksum, which a
# guess of a short seed could be checked against): tells whether an
# earlier batch's results were graded with this run's seed
seed_tag() {
    if [ -n "$seed_set" ]; then printf '%s' "$seed" | seed_fingerprint "$out/.seed-key"; else echo none; fi
}

slurm_check() {
    local c err cc
    for c in sbatch squeue; do
        command -v "$c" >/dev/null 2>&1 ||
            die "SLURM=1: '$c' is not found: run make grade on the cluster's login node (Slurm's client commands)"
    done
    err=$(squeue -h -u "$(id -un)" -o %i 2>&1 >/dev/null) || die "SLURM=1: the Slurm controller does not answer: $(head -n 1 <<<"$err")"
    case "$poll" in [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) die "GRADE_POLL='$poll' is not a number of seconds" ;; esac
    # the nodes build with the flags the kit was built with here: make
    # rebuilds everything when they change, and tasks side by side must not
    if [ -z "${ARCH:-}" ]; then
        cc=$(timeout 60 nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
        ARCH=${cc:+sm_$cc}
    fi
    export ARCH=${ARCH:-portable}
}

# slurm_wait JOB N [EACH]: until no task of JOB is pending or running; a
# progress line whenever the counts change (and every five minutes); the
# function EACH, if given, before every look at the queue
slurm_wait() {
    local job=$1 n=$2 each=${3:-:} states pending running line last="" said=0 fails=0
    while :; do
        "$each"
        if ! states=$(squeue -h -r -j "$job" -o '%T' 2>&1); then
            grep -qi 'invalid job id' <<<"$states" && break # gone from the controller
            fails=$((fails + 1))
            [ $fails = 1 ] && echo "grade: squeue does not answer ($(head -n 1 <<<"$states")); asking again every $poll s"
            sleep "$poll"
            continue
        fi
        fails=0
        [ -n "$states" ] || break
        running=$(grep -cE '^(RUNNING|COMPLETING|CONFIGURING|STAGE_OUT|SIGNALING)$' <<<"$states")
        pending=$(($(wc -l <<<"$states") - running))
        line="$((n - pending - running < 0 ? 0 : n - pending - running)) done, $running running, $pending pending"
        if [ "$line" != "$last" ] || [ $((SECONDS - said)) -ge 300 ]; then
            echo "-- Slurm job $job: $line ($(clock) so far)"
            last=$line said=$SECONDS
        fi
        sleep "$poll"
    done
}

# slurm_states JOB: "task<TAB>state" for each task of JOB the controller
# still remembers (squeue, MinJobAge), else that accounting has (sacct)
slurm_states() {
    local s
    s=$(squeue -h -r -t all -j "$1" -o '%i|%T|%r' 2>/dev/null |
        awk -F '|' '$1 ~ /_[0-9]+$/ { sub(/.*_/, "", $1); r = ($3 == "None" || $3 == "") ? "" : " (" $3 ")"; print $1 "\t" $2 r }')
    [ -n "$s" ] || s=$(sacct -n -P -X -j "$1" -o JobID,State 2>/dev/null |
        awk -F '|' '$1 ~ /_[0-9]+$/ { sub(/.*_/, "", $1); print $1 "\t" $2 }')
    printf '%s\n' "$s"
}

slurm_wait_earlier() {
    local id
    [ -f "$batch/tasks.tsv" ] && command -v squeue >/dev/null 2>&1 || return 0
    for id in $(squeue -h -u "$(id -un)" -n "$jobname" -o %F 2>/dev/null | sort -un); do
        echo "grade: Slurm job $id of an earlier run of these grades is still queued or running: waiting for it," \
            "then merging what it leaves"
        slurm_active=$id
        slurm_wait "$id" "$(grep -c . "$batch/tasks.tsv")"
    done
    slurm_active=""
}

slurm_tree() {
    echo "$batch/tasks/$1"
}

# slurm_earlier NAME SUM: the earlier batch's grade of NAME stands for this
# run (its submission, assignment, seed and kit: harness/record.sh)
slurm_earlier() {
    slurm_task_stands "$batch" "$1" "$2" "$assignment" "$kit_csv" "$(seed_tag)" "$this_kit"
}

# job_script N: the job array's script for the N students of tasks.tsv
job_script() {
    local f v flags
    read -r -a flags <<<"${GRADE_SBATCH:-}"
    echo '#!/bin/bash'
    echo "#SBATCH --job-name=$jobname"
    echo "#SBATCH --array=0-$(($1 - 1))"
    echo "#SBATCH --output=$batch/logs/%A_%a.out"
    echo "#SBATCH --time=$time_limit"
    [ -z "$gres" ] || echo "#SBATCH --gres=$gres"
    [ -z "$partition" ] || echo "#SBATCH --partition=$partition"
    for f in "${flags[@]}"; do echo "#SBATCH $f"; done
    cat <<EOF
# make grade SLURM=1's job array (harness/grade-slurm.sh), written $(date -u +%Y-%m-%dT%H:%M:%SZ)
# for the grades in $out.
# Task i grades the student on the line "i<TAB>student<TAB>sha256" of
# $batch/tasks.tsv, from the tree $batch/tasks/<student>/,
# with harness/grade-student.sh, which writes only into that tree; make grade
# SLURM=1 then merges the results into the gradebook. To grade tasks 3 and 7
# again by hand: sbatch --array=3,7 $batch/grade.sbatch
# (with the run's PRIMLAB_SEED in the environment once the seed file is gone),
# then make grade SLURM=1 again: it waits for the job and merges what it left.
set -u
batch=$(printf '%q' "$batch")
kit=$(printf '%q' "$kit")
seed_tag=$(seed_tag)
keyfile=$(printf '%q' "$out/.seed-key")
EOF
    declare -f seed_fingerprint
    for v in PATH CUDA_HOME CUDA_PATH LD_LIBRARY_PATH ARCH $(compgen -e | grep '^PRIMLAB_' | grep -vx -e PRIMLAB_SEED -e PRIMLAB_GPUS); do
        [ -n "${!v+x}" ] && printf 'export %s=%q\n' "$v" "${!v}"
    done
    printf 'export GRADE_TIMEOUT=%q\n' "$limit"
    cat <<'EOF'
name=$(awk -F '\t' -v i="${SLURM_ARRAY_TASK_ID:-}" '$1 == i { print $2 }' "$batch/tasks.tsv")
tree=$batch/tasks/$name
if [ -z "$name" ] || [ ! -d "$tree/labs" ]; then
    echo "task ${SLURM_ARRAY_TASK_ID:-?}: no student tree for it in $batch (merged already?)" >&2
    exit 2
fi
echo "task ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID}: $name on $(hostname -s), CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-}"
cd "$kit" || exit 2
# the grading seed: from the file make grade keeps while the job runs, else
# from the environment; never another seed than the batch's
[ -r "$batch/seed" ] && PRIMLAB_SEED=$(cat "$batch/seed")
if [ "$seed_tag" != none ]; then
    why=""
    if [ -z "${PRIMLAB_SEED:-}" ]; then
        why="no grading seed: this batch is graded with PRIMLAB_SEED, and $batch/seed is gone (resubmit with PRIMLAB_SEED set)"
    elif [ ! -r "$keyfile" ]; then
        why="the key of the seed's fingerprint, $keyfile, is gone: the seed cannot be checked (make grade SLURM=1 again)"
    elif [ "$(printf '%s' "$PRIMLAB_SEED" | seed_fingerprint "$keyfile")" != "$seed_tag" ]; then
        why="PRIMLAB_SEED is not the seed this batch is graded with"
    fi
    if [ -n "$why" ]; then
        echo "$why" >&2
        printf 'machine\t%s\n' "$why" >"$tree/status.tmp" && mv -f "$tree/status.tmp" "$tree/status"
        exit 0
    fi
    export PRIMLAB_SEED
else
    unset PRIMLAB_SEED
fi
exec harness/grade-student.sh "$tree"
EOF
}

slurm_grade() {
    local n=${#plan_name[@]} i tree msg job why k s
    local -A state=() merged=()
    [ "$n" -gt 0 ] || return 0
    # a new batch replaces the last one (its list, trees and seed); logs stay
    rm -rf "$batch/tasks" "$batch/tasks.tsv" "$batch/seed" "$batch/seed.tag" "$batch/kit" "$batch/job" &&
        mkdir -p "$batch/tasks" "$batch/logs" || die "could not make '$batch'"
    for ((i = 0; i < n; i++)); do
        tree=$batch/tasks/${plan_name[i]}
        mkdir "$tree" && prepare "${plan_entry[i]}" "$tree" || die "could not prepare '${plan_name[i]}' in '$tree'"
        printf '%s\t%s\t%s\n' "$i" "${plan_name[i]}" "${plan_sum[i]}"
    done >"$batch/tasks.tsv.tmp" && mv "$batch/tasks.tsv.tmp" "$batch/tasks.tsv" || die "could not write '$batch/tasks.tsv'"
    seed_tag >"$batch/seed.tag" || die "could not write '$batch/seed.tag'"
    printf '%s\n' "$this_kit" >"$batch/kit" || die "could not write '$batch/kit'"
    if [ -n "$seed_set" ]; then
        (umask 077 && printf '%s\n' "$seed" >"$batch/seed") || die "could not write '$batch/seed'"
    fi
    job_script "$n" >"$batch/grade.sbatch.tmp" && mv "$batch/grade.sbatch.tmp" "$batch/grade.sbatch" ||
        die "could not write '$batch/grade.sbatch'"
    msg=$(sbatch "$batch/grade.sbatch" 2>&1)
    job=$(sed -n 's/^Submitted batch job \([0-9][0-9]*\).*/\1/p' <<<"$msg" | head -n 1)
    if [ -z "$job" ]; then
        why="sbatch refused the job: $(grep . <<<"$msg" | head -n 1)"
        for ((i = 0; i < n; i++)); do
            echo "== ${plan_name[i]}: not graded: $why"
            ungraded+=("${plan_name[i]}"$'\t'"$why")
        done
        return
    fi
    slurm_active=$job
    echo "$job" >"$batch/job"
    echo "$msg"
    echo "grading $n in Slurm job $job (script: $batch/grade.sbatch; tasks: $batch/tasks.tsv):"
    for ((i = 0; i < n; i++)); do
        if [ $i -lt 20 ] || [ $i = $((n - 1)) ]; then echo "   task ${job}_$i: ${plan_name[i]}"
        elif [ $i = 20 ]; then echo "   ..."; fi
    done
    slurm_wait "$job" "$n" merge_ready
    slurm_active=""
    # a task's files, written on a node, may show late here on a shared file system
    for k in 1 2 3 4 5 6; do
        while IFS=$'\t' read -r i s; do [ -n "$i" ] && state[$i]=$s; done < <(slurm_states "$job")
        merge_ready
        why=""
        for ((i = 0; i < n; i++)); do
            case "${merged[$i]:-}:${state[$i]:-}" in :COMPLETED*) why=1 ;; esac
        done
        [ -n "$why" ] && [ $k -lt 6 ] || break
        ls "$batch/tasks" >/dev/null
        sleep 5
    done
    for ((i = 0; i < n; i++)); do
        [ -z "${merged[$i]:-}" ] || continue
        why="Slurm task ${job}_$i: ${state[$i]:-a state Slurm no longer reports}, no result (log: $batch/logs/${job}_$i.out)"
        merge "${plan_name[i]}" "${plan_sum[i]}" "$batch/tasks/${plan_name[i]}" "$why"
    done
}

# merge_ready: merge the tasks of slurm_grade's batch that are done (their
# status is there) and not merged yet; a grade's tree goes once merged
merge_ready() {
    local i tree
    for ((i = 0; i < ${#plan_name[@]}; i++)); do
        tree=$batch/tasks/${plan_name[i]}
        [ -z "${merged[$i]:-}" ] && [ -e "$tree/status" ] || continue
        merged[$i]=1
        merge "${plan_name[i]}" "${plan_sum[i]}" "$tree" && rm -rf "$tree"
    done
}

slurm_cleanup() {
    if [ -n "$slurm_active" ]; then
        echo "grade: stopped while Slurm job $slurm_active is queued or running; it goes on: make grade SLURM=1" \
            "again waits for it and merges its results (scancel $slurm_active drops it)" >&2
    else
        rm -f "$batch/seed"
    fi
}
