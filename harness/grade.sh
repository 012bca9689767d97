#!/usr/bin/env bash
# harness/grade.sh SUBMISSIONS [OUT]: grade a class. Called by `make grade`.
# harness/grade.sh --kit: only make the grading kit current (LAB, LABS: for
# those labs), print its folder (kit_only, below). Called by `make serve`.
#
# Each entry of SUBMISSIONS is one student: a folder, a .tar.gz (.tgz) or a
# .zip, named after the student. Only each lab's files are taken from a
# submission: the lab's own file (e.g. prefix_sum.cu) and the .cu, .cuh,
# .h, .hpp and .inl files beside it (harness/prepare-submission.sh, which
# also unpacks), into a fresh folder laid out like labs/ (the student's
# tree), and graded by
# harness/grade-student.sh (harness/check.sh on that tree) against a
# grading kit made from the handout (no solutions/); every other file is
# ignored and listed as ignored in that student's feedback. A student whose
# code does not compile, crashes or hangs costs only that student (each
# test is isolated; the whole student is also stopped after GRADE_TIMEOUT
# seconds).
#
# What is graded:
#   LAB=01 or LABS="01 02"  an assignment: only those labs (ids, spaces or
#              commas between; harness/assignment.sh) are taken from each
#              submission, built, graded and counted: the maximum, the
#              Score line, results.json, the gradebook's columns; without
#              either, every lab of the kit. An id that is no lab of the
#              kit: one line naming the labs there are, status 2. Grade
#              each assignment into its own GRADES: the record keeps one
#              assignment per student, and another one regrades everyone;
#   STUDENT=name  regrade that student alone (forced), named as in
#              SUBMISSIONS (the entry's file name, or the student name made
#              of it); every other student's results, record lines and
#              .ungraded.tsv line stay as they are, and the gradebook and
#              the class report are rebuilt. Without LAB or LABS, on the
#              assignment of the student's last grading. A name that is in
#              no entry: one line listing the students there are, status 2.
# An LMS's download is taken as it is (harness/lms.py, which says where
# each format comes from): Canvas's "Download Submissions" (its flat
# files, or its zip alone in SUBMISSIONS) and Gradescope's "Export
# Submissions" (a folder per submission and submission_metadata.yml, or
# its zip) become one entry per student in OUT/.incoming/ (rebuilt every
# run, the files under their own names again: the same files give the
# same checksum), and OUT/submissions.tsv: student, LMS, user id, SIS id,
# email, name, submission time (UTC, the LMS's, empty where it gives
# none), the LMS's late mark. A file of the download that names no
# student is a line, and not graded.
#
# Where students are graded:
#   JOBS=N     N students at a time on this host (default: one per GPU
#              seen), each pinned to its own GPU (CUDA_VISIBLE_DEVICES) and
#              to an equal share of the CPUs (taskset): never two graders
#              on one GPU, whose performance points would then be unfair;
#   SLURM=1    one task of a Slurm job array per student not yet graded
#              (harness/grade-slurm.sh: the job script is written to
#              OUT/.slurm/grade.sbatch); this waits for the job and merges.
# Either way a progress line follows each student done, and this script
# alone writes the results, the record and the gradebook, from the trees
# the graders leave (a grader writes only inside its student's tree).
#
# Trust: student code is built and run in bubblewrap only (no bwrap, no
# grading), never sees the grading seed, OUT or SUBMISSIONS, and writes
# nothing that is graded. This script and the lab binaries write every
# result:
#   OUT/<student>/{results.json, report.txt, scores.tsv}: made in the
#       student's tree (OUT/.work/<student>.XXXXXX, or
#       OUT/.slurm/tasks/<student>), then renamed over the old folder;
#       report.txt starts with the files graded and ignored; no path of the
#       grader's in any (harness/student_paths.py; `make feedback`,
#       harness/feedback.sh, bundles them to hand back);
#   OUT/.graded.tsv: the record, one line per grading (student, sha256 of the
#       submission, UTC time, then where: host, GPU, GPU model, Slurm task,
#       UTC start, seconds, then what: mode (gpu or dry), the seed's
#       fingerprint (or public), the kit's version, the assignment: the
#       labs graded, e.g. 01,02; harness/record.sh), appended (atomically)
#       once the results land;
#   OUT/.seed-key: the key of the seed's fingerprints (mode 0600), made by
#       the first run with PRIMLAB_SEED;
#   OUT/gradebook.csv: student, a score per lab of the assignment, total;
#       first a "Points Possible" row (each lab's maximum and the total's,
#       from the labs' tables with this run's seed and PRIMLAB_LIMITS: the
#       same for everyone, where a student's own maximum leaves out a limit
#       test their grading machine could not hold), then one row per
#       student in the record, rebuilt (atomically) at the end of every run (a
#       student whose record line is dry has blank cells: no score);
#       with DUE, then late_days, deduction (points) and final, and a "late:"
#       line at the end of each report.txt (harness/lms.py), the students
#       late and by how much also printed;
#   OUT/lms-import.csv, OUT/lms-unmatched.txt: with ROSTER, the LMS's own
#       gradebook export with ASSIGNMENT's column filled, to import as it
#       is; the roster's students with no submission, and the submissions
#       on no roster row (printed, with each submission and the roster row
#       it was matched to);
#   OUT/report.html, OUT/report.md: the class report (build/primlab-report,
#       also `make report`), rebuilt at the end of every run from the files
#       above; a warning when it cannot be made.
# A rerun skips a student whose last record line has the submission's
# current checksum (and whose results are there), unless that grading was a
# dry run and this one is not, or was with another seed, kit version or
# assignment: then one line says why the student is regraded (so a
# practice run never blocks the real one). A dry run skips a real grading
# (never replaces it); a line from before the mode, seed and kit columns (9
# fields) is skipped on its checksum alone, as it always was, and silently;
# one from before the assignment column (12 fields) graded every lab. A
# changed submission is regraded; FORCE=1 regrades everyone. A folder in
# OUT is not a student.
#
# The grading machine is checked before anything is built (machine_ready):
# a GPU nvidia-smi lists (unless PRIMLAB_NO_GPU=1; with SLURM=1 the nodes'),
# a bwrap that starts, Check's header. One missing: one line for the
# instructor says what is wrong and what to do, nobody is graded, nothing is
# built or recorded, status 3.
#
# A failure of the grading machine is never a student's: when check.sh says
# so (status 3: the kit does not build, a shared library is missing, no GPU
# unless PRIMLAB_NO_GPU=1), that student is not graded (nothing published or
# recorded, an earlier grade kept); on this host the run stops, since every
# student after would fail the same way (the graders already running
# finish); a Slurm task that fails so, fails, times out or is preempted
# leaves only its student ungraded. The reason is printed, and
#   OUT/.ungraded.tsv: student, UTC time, why, for each student a run left
#       ungraded (rewritten by every run; absent when there is none);
# the run exits 3, and a rerun grades them (and only them).
#
# The grading kit: a kit with solutions/ grades in build/grade-kit/, the
# handout (harness/handout.sh, which also refreshes dist/) unpacked; it is
# kept across students and runs and replaced (its build/ kept) when its
# files differ from the handout's. A kit without solutions/ grades in place.
# The kit's own parts are built once before any student, so that graders
# side by side never build the same file. One run at a time makes or
# builds the kit; a run on GPUs has it to itself to the end, while dry
# runs (PRIMLAB_NO_GPU=1) grade side by side once it is built; one run at a
# time writes into a grades folder (the locks, below).
#
# Environment: LAB, LABS, STUDENT (above), FORCE=1, JOBS, SLURM=1 and its
# options (harness/grade-slurm.sh), GRADE_TIMEOUT (seconds per student,
# default 1800), GRADE_MAX_BYTES and
# GRADE_MAX_FILES (what one submission may unpack to, default 64 MiB and
# 10000), GRADE_LOCK_WAIT (seconds to wait for another make grade in this
# kit, or into these grades, to finish; default 0, stop at once),
# GRADE_PROGRESS_S (seconds between the lines saying how far the grading
# kit's build is, kit_make; default 30), PRIMLAB_GPUS (the GPUs to grade
# on, e.g. "0 1", as nvidia-smi numbers them; default CUDA_VISIBLE_DEVICES's,
# else every GPU), PRIMLAB_SEED (the grading seed: only the lab binaries get
# it), PRIMLAB_TIMEOUT (per test), PRIMLAB_NO_GPU=1 (a dry run without a GPU:
# no score anywhere, the gradebook's cells blank; without it a machine with
# no GPU grades nobody).
# An LMS: DUE=2026-11-20T23:59 (a zone after it, else UTC) and LATE=none
# or 10%/day[,max=50%] (the points possible taken off per started day
# late); ROSTER=export.csv (Canvas's, Gradescope's or Moodle's gradebook
# export) and ASSIGNMENT="Lab 1" (the column to fill: its title, Canvas's
# id, or the start of its title; ASSIGNMENT="new:Lab 3" a new Canvas
# column). A bad one is a one-line error before anyone is graded (for
# ASSIGNMENT, the roster's assignment columns listed under it). Every run
# ends with the points possible without and with PRIMLAB_SEED.
# Exports to check.sh and the lab binaries PRIMLAB_REQUIRE_SANDBOX=1 and
# PRIMLAB_SANDBOX_HIDE (the folders student code must not see, colon-separated).
set -u
. harness/record.sh
. harness/assignment.sh
. harness/sandbox-probe.sh # sandbox_starts
seed_set=${PRIMLAB_SEED+1}
seed=${PRIMLAB_SEED-}
unset PRIMLAB_SEED

subs=${1:-}
out=${2:-build/grades}
force=${FORCE:-0}
[ -z "${STUDENT:-}" ] || force=1 # STUDENT=name regrades that student, whatever the record says
limit=${GRADE_TIMEOUT:-1800}
jobs=${JOBS:-}
slurm=${SLURM:-0}
lab_list="${LAB:-} ${LABS:-}"
student_only=${STUDENT:-}
src=$(cd "$(dirname "$0")/.." && pwd -P)
SECONDS=0

die() { echo "grade: $*" >&2; exit 2; }

# What to undo on any exit: a kit being made, the graders still running
# (stopped, their trees removed), a Slurm job's seed (harness/grade-slurm.sh).
# Bash runs the EXIT trap when INT, TERM or HUP stop it too; no trap of
# those signals of our own: bash 5.2 can run one in the middle of parsing a
# $(...), which then fails, and the run goes on as if not stopped.
stage="" kit=""
declare -A run_slot=() run_tree=()
cleanup() {
    local pid
    for pid in "${!run_slot[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for pid in "${!run_slot[@]}"; do wait "$pid" 2>/dev/null; rm -rf "${run_tree[$pid]}"; done
    rm -rf "$stage"
    declare -F slurm_cleanup >/dev/null && slurm_cleanup
}
trap cleanup EXIT

# ------------------------------------------------------------------ setup

# ------------------------------------------------- the grading machine

# not_ready WHAT: the grading machine cannot grade (WHAT: what is wrong and
# what to do, in one line for the instructor): nobody is graded, nothing is
# built or recorded, status 3.
not_ready() {
    echo "grade: $*" >&2
    exit 3
}

# require_sandbox: bubblewrap must start a sandbox here, or nothing is graded.
require_sandbox() {
    local err
    command -v bwrap >/dev/null 2>&1 ||
        not_ready "bubblewrap (bwrap) is not installed on this machine: nobody graded (student code runs only in" \
            "its sandbox). Install it: apt-get install bubblewrap, or make bootstrap."
    err=$(sandbox_starts bwrap) ||
        not_ready "bwrap cannot start a sandbox on this machine ($err): nobody graded (student code" \
            "runs only in its sandbox). Allow unprivileged user namespaces (sysctl" \
            "kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0)."
}

# require_gpu: a GPU must be visible here (nvidia-smi lists one, and
# CUDA_VISIBLE_DEVICES does not hide them all), unless PRIMLAB_NO_GPU asks
# for a dry run; a Slurm run's GPUs are the nodes', not this login node's.
require_gpu() {
    local list what="Run on a GPU node, or PRIMLAB_NO_GPU=1 for a practice run with no scores."
    case "${PRIMLAB_NO_GPU:-0}" in 0) ;; *) return 0 ;; esac
    [ "$slurm" = 0 ] || return 0
    command -v nvidia-smi >/dev/null 2>&1 ||
        not_ready "no GPU driver on this machine (no nvidia-smi): nobody graded. $what"
    list=$(timeout 60 nvidia-smi -L 2>&1)
    grep -q '^GPU [0-9]' <<<"$list" ||
        not_ready "no GPU is visible on this machine (nvidia-smi lists none$(grep -m 1 . <<<"$list" |
            sed 's/^/: /' | cut -c 1-120)): nobody graded. $what"
    if [ -n "${CUDA_VISIBLE_DEVICES+x}" ] && [ -z "${PRIMLAB_GPUS:-}" ] &&
        ! tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -v '^-' | grep -q .; then
        not_ready "CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' hides every GPU: nobody graded. Unset it, or name" \
            "the GPUs with PRIMLAB_GPUS=\"0 1\"; PRIMLAB_NO_GPU=1 for a practice run with no scores."
    fi
}

# require_check: the unit test library Check (the lab binaries' test
# runner) must be there: its header declares Check's types to the compiler
# (with pkg-config's flags, if it knows Check; nothing is built).
require_check() {
    # shellcheck disable=SC2046 # the flags are words
    printf '#include <check.h>\nSuite *primlab_probe;\n' |
        ${CC:-cc} -fsyntax-only $(pkg-config --cflags check 2>/dev/null) -x c - >/dev/null 2>&1 && return 0
    not_ready "the unit test library Check is not installed on this machine (the compiler finds no usable check.h):" \
        "nobody graded. Install it: make bootstrap, or apt-get install check libsubunit-dev."
}

# machine_ready: the grading machine can grade (a GPU, the sandbox, Check),
# checked before anything is built, or not_ready says what to do. The
# checks during the run stay: a GPU lost under a student stops it there.
machine_ready() {
    require_gpu
    require_sandbox
    require_check
}

# tree_sum DIR: one checksum of DIR's file names and contents, build/ aside.
tree_sum() {
    (cd "$1" && find . -path ./build -prune -o -type f -print0 | LC_ALL=C sort -z |
        xargs -0 -r sha256sum) | sha256sum | cut -c 1-64
}

# make_grading_kit: set kit to the folder to grade in: this kit when it has
# no solutions/, else build/grade-kit, made or refreshed from the handout.
make_grading_kit() {
    local name tree
    kit=$src
    [ -d "$src/solutions" ] || return 0
    kit=$src/build/grade-kit
    name=primlab-handout-$(cat "$src/VERSION") || return 1
    (cd "$src" && harness/handout.sh >/dev/null) || return 1
    stage=$(mktemp -d "$kit.new.XXXXXX") && tar -xzf "$src/dist/$name.tar.gz" -C "$stage" || return 1
    tree=$stage/$name
    [ ! -e "$tree/solutions" ] || return 1
    if [ ! -d "$kit" ] || [ "$(tree_sum "$tree")" != "$(tree_sum "$kit")" ]; then
        if [ -d "$kit/build" ]; then mv "$kit/build" "$tree/build" || return 1; fi
        rm -rf "$kit" && mv "$tree" "$kit" || return 1
    fi
    rm -rf "$stage"
    stage=""
}

# hidden_paths: the folders student code must not see, one a line: the
# submissions, the grades and, when grading in a copy, this whole kit
# (solutions/, its builds, dist/) and its git history. Each sandbox binds
# back only what it needs of the copy (harness/sandbox-compile.sh, the lab
# binaries' workers).
hidden_paths() {
    printf '%s\n' "$subs" "$out"
    [ "$kit" = "$src" ] || "$src/harness/kit-hidden.sh" "$src"
}

# build_kit_parts: the kit's own parts that every student's check.sh needs
# (harness/kit-parts.sh: tables, parents' objects, workers' cores, the
# yardsticks' workers), built once, so that graders side by side only read
# them. A part that fails here fails again under the first student, who is
# then left ungraded with the reason (check.sh tells the kit's failures from
# the student's). On every CPU this process may use: a fresh kit's nine
# labs and their yardsticks take minutes one file at a time.
# When they all build, the stamp build/.grade-kit says for which files
# (handout_sum), flags (make flags-signature) and labs (kit_current).
build_kit_parts() {
    local targets=(build/primlab-report)
    mapfile -t -O 1 targets < <(harness/kit-parts.sh "${ids[@]}")
    rm -f build/.grade-kit
    kit_make /dev/null -k "${targets[@]}" &&
        printf '%s\n%s\n%s\n' "$(handout_sum)" "$(make -s --no-print-directory flags-signature)" \
            "$(IFS=,; echo "${ids[*]}")" >build/.grade-kit
    [ -z "$kit_t0" ] || echo "built the grading kit: $kit_files files in $((SECONDS - kit_t0)) s"
    return 0
}

# kit_make ERR MAKE-ARGS...: make in the grading kit on every CPU this
# process may use, its errors into the file ERR. A kit's first build takes
# minutes (nine labs' workers and yardsticks, 2 CPUs): once a file is being
# built, one line says so, then one every GRADE_PROGRESS_S (30) seconds
# with the files built so far (the Makefile's "  CC file" lines, one per
# file), so that the run is never silent that long; kit_files and kit_t0
# (SECONDS at the first file, or empty) then let build_kit_parts say how
# many in all. Status: make's.
kit_files=0 kit_t0="" kit_next=0
kit_make() {
    local err=$1 log pid n rc
    shift
    log=$(mktemp -t primlab-kit-make.XXXXXX) || return 2
    make --no-print-directory -j "$(nproc 2>/dev/null || echo 2)" "$@" >"$log" 2>"$err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 0.2
        n=$((kit_files + $(grep -cv '^make' "$log")))
        if [ -z "$kit_t0" ] && [ "$n" -gt 0 ]; then
            kit_t0=$SECONDS kit_next=$((SECONDS + ${GRADE_PROGRESS_S:-30}))
            echo "building the grading kit ($([ "$kit" = "$src" ] && echo "in place" || echo build/grade-kit)):" \
                "what changed since its last build (minutes on a first run), a line every ${GRADE_PROGRESS_S:-30} s"
        elif [ -n "$kit_t0" ] && [ $SECONDS -ge $kit_next ]; then
            echo "building the grading kit: $n files, $((SECONDS - kit_t0)) s so far"
            kit_next=$((kit_next + ${GRADE_PROGRESS_S:-30}))
        fi
    done
    wait "$pid"
    rc=$?
    kit_files=$((kit_files + $(grep -cv '^make' "$log")))
    rm -f "$log"
    return $rc
}

# kit_dir: the folder graded in (make_grading_kit's kit)
kit_dir() {
    if [ -d "$src/solutions" ]; then echo "$src/build/grade-kit"; else echo "$src"; fi
}

# handout_sum: one checksum of the files the grading kit is made of (the
# handout's, in a kit with solutions/; else the kit's own)
handout_sum() {
    (cd "$src" && harness/kit-files.sh --sum $([ ! -d solutions ] || echo --handout))
}

# kit_current: the grading kit is built, for the files it is made of now,
# for this run's flags, and for every lab of the assignment (its stamp)
kit_current() {
    local k stamp id
    k=$(kit_dir) stamp=$(kit_dir)/build/.grade-kit
    [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$(handout_sum)" ] || return 1
    [ "$(sed -n 2p "$stamp")" = "$(cd "$k" && make -s --no-print-directory flags-signature 2>/dev/null)" ] || return 1
    for id in ${assignment//,/ }; do
        case ",$(sed -n 3p "$stamp")," in *",$id,"*) ;; *) return 1 ;; esac
    done
}

# The locks (lock_for: at once, or within GRADE_LOCK_WAIT seconds). A grades
# folder is one run's at a time (its record, .work and gradebook:
# OUT/.grade.lock). The grading kit (build/grade.lock) is one run's while
# it is made or refreshed and its parts built; a run that grades on GPUs
# keeps it to itself to the end, so that no two graders ever share a GPU.
# A dry run (PRIMLAB_NO_GPU=1) shares it with other dry runs: it takes the
# kit as it is when the kit is built for its files, flags and labs (the
# stamp build/.grade-kit, kit_current), else takes the kit alone to make
# it (unless another run made it meanwhile), then shares it again; nothing
# a dry run does while it shares the kit changes it. A run that waits to
# have the kit alone holds the turnstile (build/grade.lock.turn), which a
# run must pass to share it: dry runs coming and going never keep it
# waiting for ever. The graders inherit the kit's lock: the next run waits
# for a stopped run's graders to be gone. The check service's jobs
# (harness/serve/run-job.sh) share the kit as dry runs do, on the GPUs
# too: a run on GPUs waits for the jobs running to end, and the jobs that
# come meanwhile wait for it (docs/check-service.md, "One scheduler or
# two"). FD 7 is the turnstile, FD 9 the kit's lock.
lock_for() { # lock_for FD [-s]: take FD's lock, exclusive (or shared)
    if [ "${GRADE_LOCK_WAIT:-0}" = 0 ]; then flock -n ${2:-} "$1"; else flock -w "$GRADE_LOCK_WAIT" ${2:-} "$1"; fi
}
kit_alone() { lock_for 7 && lock_for 9 && flock -u 7; }
kit_shared() { lock_for 7 -s && lock_for 9 -s && flock -u 7; }
busy="another make grade is running in this kit (build/grade.lock), or a job of its check service (make serve)"

# kit_only: harness/grade.sh --kit, for make serve and the suites that
# share the grading kit: the grading kit made current for the assignment
# (LAB, LABS; default every lab of the kit) as a dry run makes it, under
# the same locks (its files from the handout, its flags, its parts built:
# kit_current holds after it), and its folder printed, the one line of the
# standard output (build/grade-kit, or this kit when it has no solutions/;
# what the build says goes to the standard error). No class is graded, no
# grades folder written, no GPU or sandbox asked for. Status 0; 2 with one
# line (the lock taken, a bad LAB); 3 when a part of the kit does not build.
kit_only() {
    local dir id err
    assignment=$(assignment_ids "$lab_list") || die "$assignment"
    mkdir -p "$src/build" || exit 2
    exec 7>"$src/build/grade.lock.turn" 9>"$src/build/grade.lock" || exit 2
    kit_shared || die "$busy"
    if ! kit_current; then
        flock -u 9 && kit_alone || die "$busy"
        if ! kit_current; then # (else another run made it meanwhile)
            make_grading_kit || die "could not make the grading kit '$kit' from the handout (harness/handout.sh)"
            cd "$kit" || exit 2
            ids=()
            for dir in $(harness/lab-dirs.sh); do
                id=$(basename "$dir" | cut -d- -f1)
                case ",$assignment," in *",$id,"*) ids+=("$id") ;; esac
            done
            err=$(mktemp -t primlab-kit-err.XXXXXX) || exit 2
            kit_make "$err" build/primlab-results >&2 && build_kit_parts >&2
            if ! kit_current; then
                echo "grade: the grading kit '$kit' does not build for labs $assignment: $({ grep -m 1 -E 'error|not found|^bootstrap:' ||
                    echo 'make failed'; } <"$err") (make -k in '$kit' says more)" >&2
                rm -f "$err"
                exit 3
            fi
            rm -f "$err"
        fi
    fi
    kit_dir
}

# ------------------------------------------------------------ GPUs, CPUs

# gpu_list: the GPUs graders may use, one a line: PRIMLAB_GPUS's (spaces or
# commas between), else CUDA_VISIBLE_DEVICES's (a Slurm allocation's, a
# container's), else every GPU nvidia-smi lists, by its index (PCI order,
# which CUDA_DEVICE_ORDER=PCI_BUS_ID then makes CUDA's too).
gpu_list() {
    if [ -n "${PRIMLAB_GPUS:-}" ]; then
        tr ', ' '\n\n' <<<"$PRIMLAB_GPUS" | grep .
    elif [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
        tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -v '^-' | grep .
    elif command -v nvidia-smi >/dev/null 2>&1; then
        timeout 60 nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr -d ' ' | grep -E '^[0-9]+$'
    fi
    return 0
}

# cpu_sets N: N disjoint, equal sets of the CPUs this process may use, one
# a line, as taskset -c takes them; nothing when there are fewer CPUs than N
# or no taskset (the graders then share every CPU). The CPUs go in the
# order of their socket and core (lscpu), so that a set holds whole cores
# (both threads of a core, never one each for two graders), on one socket
# where it can.
cpu_sets() {
    local n=$1 all=() ranges r i k line
    local -A allowed=()
    command -v taskset >/dev/null 2>&1 || return 0
    IFS=, read -r -a ranges <<<"$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)"
    for r in "${ranges[@]}"; do
        for ((i = ${r%-*}; i <= ${r#*-}; i++)); do allowed[$i]=1; done
    done
    while IFS=, read -r i line; do
        [ -n "${allowed[$i]:-}" ] && all+=("$i")
    done < <(lscpu -p=CPU,CORE,SOCKET 2>/dev/null | grep -v '^#' | sort -t, -k3,3n -k2,2n -k1,1n)
    if [ ${#all[@]} != ${#allowed[@]} ]; then # no lscpu, or it disagrees: by number
        mapfile -t all < <(printf '%s\n' "${!allowed[@]}" | sort -n)
    fi
    k=$((${#all[@]} / n))
    [ "$k" -ge 1 ] || return 0
    for ((i = 0; i < n; i++)); do (IFS=,; echo "${all[*]:i*k:k}"); done
}

# clock: the time this run has taken, m:ss or h:mm:ss
clock() {
    local s=$SECONDS
    if [ $s -ge 3600 ]; then printf '%d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    else printf '%d:%02d' $((s / 60)) $((s % 60)); fi
}

# ------------------------------------------------------------ submissions

# student_name ENTRY: the student's name, from the entry's file name, made
# safe; never starting with '.' (so never .work, .slurm, .graded.tsv or a
# dotfile), never the name of a file of OUT's own (a student's folder
# there would take its place): then '_' before it. harness/lms.py's
# student_name makes the same names.
student_name() {
    local name
    name=$(basename "$1")
    name=${name%.tar.gz}
    name=${name%.tgz}
    name=${name%.zip}
    name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
    case "$name" in
    "" | .* | gradebook.csv | report.html | report.md | submissions.tsv | lms-import.csv | lms-unmatched.txt | feedback)
        name=_$name ;;
    esac
    echo "$name"
}

# pick_student WANT DIR: the student name of the entry of DIR (SUBMISSIONS,
# or OUT/.incoming made of an LMS's download) that WANT names (its file
# name, or the student name made of it); else one line that lists the
# students there are (at most 10), and status 2.
pick_student() {
    local entry names=() n
    for entry in "$2"/*; do
        [ -e "$entry" ] || continue
        if [ "$(basename "$entry")" = "$1" ] || [ "$(student_name "$entry")" = "$1" ]; then
            student_name "$entry"
            return 0
        fi
        names+=("$(student_name "$entry")")
    done
    mapfile -t names < <(printf '%s\n' "${names[@]}" | grep . | LC_ALL=C sort -u)
    n=${#names[@]}
    [ "$n" -gt 0 ] || die "no student '$1' in '$subs': it has no submissions"
    die "no student '$1' in '$subs' (students$([ "$2" = "$subs" ] || echo " of its $(python3 "$lms" layout "$subs") download"): $(printf '%s, ' "${names[@]:0:10}" | sed 's/, $//')$(
        [ "$n" -le 10 ] || echo " and $((n - 10)) more"))"
}

# recorded_assignment NAME: the assignment of NAME's last record line, or
# nothing (no line, or one from before the assignment column)
recorded_assignment() {
    [ -f "$out/.graded.tsv" ] || return 0
    awk -F '\t' -v n="$1" '$1 == n { a = NF >= 13 ? $13 : "" } END { print a }' "$out/.graded.tsv"
}

# submission_sum ENTRY: sha256 of what the student handed in.
submission_sum() {
    if [ -d "$1" ]; then
        (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum) | sha256sum
    else
        sha256sum <"$1"
    fi | cut -c 1-64
}

# graded_already NAME SUM: the record's last line for NAME has SUM and
# stands for this run (record_stands), and its results are there; why: the
# reason to regrade when only the mode, seed or kit stood in the way.
graded_already() {
    local last
    why=""
    [ -f "$record" ] && [ -f "$out/$1/results.json" ] || return 1
    last=$(awk -F '\t' -v n="$1" '$1 == n { last = $0 } END { print last }' "$record")
    why=$(record_stands "$last" "$2" "$this_mode" "$this_seed" "$this_kit" "$assignment" "$kit_csv")
}

# new_tmp FILE: print a new empty file beside FILE, with the mode a new file
# gets (umask), to be renamed over FILE once written.
new_tmp() {
    local tmp
    tmp=$(mktemp "$1.XXXXXX.tmp") && chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$tmp" && echo "$tmp"
}

# where_field WHERE KEY: one field of a grader's where file, "-" if none
where_field() {
    local v
    v=$(awk -F '\t' -v k="$2" '$1 == k { print $2; exit }' "$1" 2>/dev/null | tr -d '\t')
    echo "${v:--}"
}

# record_graded NAME SUM WHERE MODE: append to the record (a new file
# renamed over it) the grading, where it ran (the grader's where file), its
# mode, and this run's seed fingerprint, kit version and assignment.
record_graded() {
    local tmp start
    tmp=$(new_tmp "$record") || return 1
    start=$(where_field "$3" start)
    [ "$start" = - ] || start=$(date -u -d "@${start%.*}" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null) || start=-
    {
        [ -f "$record" ] && cat "$record"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
            "$(where_field "$3" host)" "$(where_field "$3" gpu)" "$(where_field "$3" model)" \
            "$(where_field "$3" task)" "$start" "$(where_field "$3" seconds)" "$4" "$this_seed" "$this_kit" "$assignment"
    } >"$tmp" && mv "$tmp" "$record"
}

# prepare ENTRY TREE: the student's tree (TREE/labs, TREE/feedback.txt,
# TREE/assignment), made by harness/prepare-submission.sh; an entry that
# cannot be unpacked makes one too (its feedback says why: every lab
# scores 0). Status 0, or 1 when TREE cannot be written.
prepare() {
    harness/prepare-submission.sh "$1" "$2" "$assignment" >/dev/null
    [ $? -le 1 ]
}

# ---------------------------------------------------------------- results

# publish NEW DEST: NEW, a finished folder, takes DEST's place whole: the
# old DEST (whatever is there) is renamed away first, never merged into.
publish() {
    local old
    if [ -e "$2" ] || [ -L "$2" ]; then
        old=$(mktemp -u "$out/.work/old.XXXXXX") && mv -T "$2" "$old" || return 1
    fi
    mv -T "$1" "$2" && rm -rf "${old:-}"
}

# where_line WHERE: where and how long a grader took, in words
where_line() {
    local task host gpu model s
    task=$(where_field "$1" task) host=$(where_field "$1" host) gpu=$(where_field "$1" gpu)
    model=$(where_field "$1" model) s=$(where_field "$1" seconds)
    printf 'graded%s on %s' "$([ "$task" = - ] || echo " by Slurm task $task")" "$host"
    [ "$gpu" = - ] || printf ', GPU %s' "$gpu"
    [ "$model" = - ] || printf ' (%s)' "$model"
    printf ', in %s s\n' "$s"
}

# critical CMD...: CMD in a process of its own that ignores INT, TERM and
# HUP: when the run is stopped meanwhile, CMD still finishes, so that a
# student is never left half-published, or published and not recorded
critical() {
    (
        trap '' INT TERM HUP
        "$@"
    )
}

# commit NAME SUM TREE: publish TREE's results as NAME's, and record them
commit() {
    local mode
    mode=$(record_mode "$3/final/scores.tsv")
    publish "$3/final" "$out/$1" && record_graded "$1" "$2" "$3/where" "$mode"
}

# merge NAME SUM TREE [WHY]: a grader is done with TREE: print the student's
# block, then publish and record the grade, or list the student as not
# graded (ungraded, and machine: why). WHY: the reason when TREE has no
# status (the grader was stopped). Status 0 graded, 3 not graded.
merge() {
    local status
    status=$(head -n 1 "$3/status" 2>/dev/null) || status=""
    echo "== $1"
    case "$status" in
    graded)
        cat "$3/summary.txt"
        echo "   $(where_line "$3/where")"
        if ! critical commit "$1" "$2" "$3"; then
            die "could not write the results of '$1' into '$out'"
        fi
        models+=("$(where_field "$3/where" model)")
        graded=$((graded + 1))
        return 0
        ;;
    machine$'\t'*) machine=${status#machine$'\t'} ;;
    *) machine=${4:-the grader stopped without a result: $(grep . "$3/grader.log" 2>/dev/null | tail -n 1)} ;;
    esac
    echo "   not graded: $machine"
    ungraded+=("$1"$'\t'"$machine")
    return 3
}

# graded_dry NAME: NAME's last line in the record is a dry grading (no GPU:
# no score, so its gradebook cells are blank)
graded_dry() {
    awk -F '\t' -v n="$1" '$1 == n { mode = $10 } END { exit mode != "dry" }' "$record"
}

# possible_row [public|seed]: the gradebook's "Points Possible" row: each
# lab's maximum and the total's, from the labs' tables (labNN fill writes a
# row for each of its tests into an empty scores file), with this run's
# seed (its hidden tests and, unless PRIMLAB_LIMITS=0, its limit tests) and
# PRIMLAB_LIMITS: the same on every machine, never a student's maximum,
# from which a limit test their grading machine could not hold is left
# out. PUBLIC or SEED: the row of a run without a seed, or with one (this
# run's, else a stand-in: which seed it is changes no maximum, whether
# there is one does), so that a practice run can say both
possible_row() {
    local dir id rc=0 with=${1:-}
    [ -n "$with" ] || with=$([ -n "$seed_set" ] && echo this-seed || echo public)
    dir=$(mktemp -d "$out/.work/possible.XXXXXX") || return 1
    make -s --no-print-directory -k $(printf 'build/tables/lab%s ' "${ids[@]}") >/dev/null 2>&1 # when nobody was graded
    for id in "${ids[@]}"; do
        case $with in
        this-seed) PRIMLAB_SEED="$seed" "build/tables/lab$id" fill --scores "$dir/scores.tsv" ;;
        seed) PRIMLAB_SEED="${seed:-1}" "build/tables/lab$id" fill --scores "$dir/scores.tsv" ;;
        *) "build/tables/lab$id" fill --scores "$dir/scores.tsv" ;;
        esac >/dev/null || rc=1
    done
    [ $rc = 0 ] && build/primlab-results "$dir/scores.tsv" --labs "$labs_csv" --csv-max "Points Possible" || rc=1
    rm -rf "$dir"
    return $rc
}

# write_gradebook: the header, the points possible, then one row per
# student in the record, renamed into place.
write_gradebook() {
    local book=$out/gradebook.csv tmp name dry
    tmp=$(new_tmp "$book") || return 1
    {
        echo "student,$(printf 'lab%s,' "${ids[@]}")total"
        # without it (the tables do not run: the machine's failure, said
        # above) the students' rows still go in
        possible_row 2>/dev/null || echo "grade: warning: no Points Possible row in the gradebook: the labs' tables did not run" >&2
        [ ! -f "$record" ] || cut -f 1 "$record" | LC_ALL=C sort -u | while read -r name; do
            [ -f "$out/$name/scores.tsv" ] || continue
            dry=""
            graded_dry "$name" && dry=--dry
            build/primlab-results "$out/$name/scores.tsv" --labs "$labs_csv" $dry --csv-row "$name" || true
        done
    } >"$tmp" && mv "$tmp" "$book" || return 1
    echo "$book"
}

# write_report: the class report (GRADES/report.html and report.md, what
# `make report` writes) from the files above; one that cannot be made is a
# warning, never a grading failure.
write_report() {
    local err
    if err=$(make -s --no-print-directory build/primlab-report 2>&1 >/dev/null) &&
        err=$(build/primlab-report "$out" 2>&1 >/dev/null); then
        echo "class report: $out/report.html"
    else
        echo "grade: warning: no class report: $(grep -m 1 . <<<"$err")" >&2
    fi
}

# write_ungraded: the students this run left ungraded (the ungraded array:
# "student<TAB>why" lines) into OUT/.ungraded.tsv, renamed into place; the
# file goes when there are none, so a stale one never outlives the fix.
# With STUDENT=name, the other students' lines are kept as they were.
write_ungraded() {
    local list=$out/.ungraded.tsv tmp line now kept=()
    [ -n "$student_only" ] && [ -f "$list" ] && mapfile -t kept < <(awk -F '\t' -v n="$student_only" '$1 != n' "$list")
    if [ ${#ungraded[@]} = 0 ] && [ ${#kept[@]} = 0 ]; then rm -f "$list"; return; fi
    tmp=$(new_tmp "$list") || return 1
    now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    {
        [ ${#kept[@]} = 0 ] || printf '%s\n' "${kept[@]}"
        for line in "${ungraded[@]}"; do
            printf '%s\t%s\t%s\n' "${line%%$'\t'*}" "$now" "${line#*$'\t'}"
        done
    } >"$tmp" && mv "$tmp" "$list"
}

# ------------------------------------------------------------- this host

# launch TREE SLOT: grade TREE in the background on the slot's GPU and
# CPUs; the grader is stopped (TERM) if this script dies without stopping
# it (SIGKILL), so that it never grades beside the next run's graders
launch() {
    local pin=()
    [ -n "$pdeathsig" ] && pin=(setpriv --pdeathsig TERM)
    [ ${#cpus[@]} -gt 0 ] && pin+=(taskset -c "${cpus[$2]}")
    (
        [ -n "$seed_set" ] && export PRIMLAB_SEED="$seed"
        if [ ${#gpus[@]} -gt 0 ]; then
            export CUDA_VISIBLE_DEVICES=${gpus[$2]}
            [ -n "$pci_order" ] && export CUDA_DEVICE_ORDER=PCI_BUS_ID
        fi
        export GRADE_TIMEOUT=$limit
        exec "${pin[@]}" harness/grade-student.sh "$1"
    ) >"$1/grader.log" 2>&1 &
}

# still_running: the line said when the grading machine has just failed
# under $stopped while graders run on other GPUs: they are let finish (a
# grade of theirs counts; should the machine fail them too, each is listed
# with its own reason), and no student is started after them.
still_running() {
    local pid names=()
    for pid in "${!run_slot[@]}"; do names+=("${run_name[$pid]}"); done
    [ ${#names[@]} -gt 0 ] || return 0
    echo "grade: the grading machine failed under $stopped: no student is started after it;" \
        "$(printf '%s, ' "${names[@]}" | sed 's/, $//'), already being graded on $([ ${#names[@]} = 1 ] &&
            echo "another GPU, is" || echo "other GPUs, are") let finish"
}

# grade_here: grade the plan, jobs students at a time, student i on slot
# i's GPU; each one's block and a progress line as it finishes. Once the
# grading machine fails, no student is started (those running finish:
# still_running says so).
grade_here() {
    local next=0 n=${#plan_name[@]} done=0 free=() slot pid i tree
    local -A run_name=() run_sum=()
    for ((slot = 0; slot < jobs; slot++)); do free+=("$slot"); done
    if [ "$n" -gt 0 ]; then
        echo "grading $n, $jobs at a time$([ ${#gpus[@]} = 0 ] || echo ", on GPU ${gpus[*]:0:jobs}")$(
            [ ${#cpus[@]} = 0 ] || echo ", CPUs ${cpus[*]}")"
    fi
    while :; do
        while [ ${#free[@]} -gt 0 ] && [ $next -lt "$n" ] && [ -z "$stopped" ]; do
            slot=${free[0]}
            free=("${free[@]:1}")
            tree=$(mktemp -d "$out/.work/${plan_name[next]}.XXXXXX") || exit 2
            prepare "${plan_entry[next]}" "$tree" || die "could not prepare '${plan_name[next]}' in '$tree'"
            launch "$tree" "$slot"
            pid=$!
            run_slot[$pid]=$slot run_tree[$pid]=$tree run_name[$pid]=${plan_name[next]} run_sum[$pid]=${plan_sum[next]}
            next=$((next + 1))
        done
        [ ${#run_slot[@]} -gt 0 ] || break
        # a tenth of a second: a student's block as soon as the grader ends
        # (a dry run's takes a second or two; bash's wait -n lost graders)
        sleep 0.1
        for pid in "${!run_slot[@]}"; do
            kill -0 "$pid" 2>/dev/null && continue
            wait "$pid" 2>/dev/null
            # no longer the exit's to remove: merge may be publishing from it
            tree=${run_tree[$pid]}
            free+=("${run_slot[$pid]}")
            unset "run_slot[$pid]" "run_tree[$pid]"
            if ! merge "${run_name[$pid]}" "${run_sum[$pid]}" "$tree" && [ -z "$stopped" ]; then
                stopped=${run_name[$pid]} stopped_why=$machine
                still_running
            fi
            rm -rf "$tree"
            unset "run_name[$pid]" "run_sum[$pid]"
            done=$((done + 1))
            echo "-- $done done, ${#run_slot[@]} running, $((n - next)) left ($(clock) so far)"
        done
    done
    for ((i = next; i < n; i++)); do # would fail as $stopped did
        echo "== ${plan_name[i]}: not graded: grading stopped at $stopped"
        ungraded+=("${plan_name[i]}"$'\t'"not reached: grading stopped at $stopped")
    done
}

# ----------------------------------------------------------------- the LMS

# The LMS's files in and out (harness/lms.py: the formats and their sources).
lms=$src/harness/lms.py

# lms_setup: DUE, LATE, ROSTER and ASSIGNMENT checked before anyone is
# graded (a one-line error); lms_roster: ROSTER as an absolute path.
lms_setup() {
    lms_roster=""
    if [ -n "${ROSTER:-}" ]; then
        lms_roster=$(realpath -e -- "$ROSTER" 2>/dev/null) && [ -f "$lms_roster" ] || die "ROSTER='$ROSTER': no such file"
    fi
    python3 "$lms" check --due "${DUE:-}" --late "${LATE:-}" --roster "$lms_roster" --assignment "${ASSIGNMENT:-}" || exit 2
}

# lms_entries: set entries, the folder whose entries are the students:
# SUBMISSIONS itself, or, for an LMS's download (Canvas's flat files,
# Gradescope's folders and metadata), OUT/.incoming made from it, with
# OUT/submissions.tsv (a plain folder has none: an old one goes).
lms_entries() {
    local layout
    entries=$subs
    layout=$(python3 "$lms" layout "$subs") || die "could not read the submissions '$subs'"
    if [ "$layout" = plain ]; then
        rm -f "$out/submissions.tsv" && rm -rf "$out/.incoming"
        return 0
    fi
    python3 "$lms" incoming "$subs" "$out" || die "could not take the $layout download '$subs' apart into '$out/.incoming'"
    entries=$out/.incoming
}

# lms_finish: after the gradebook: its late columns and the reports' late
# line (DUE), the points possible without and with a seed (what a practice
# run's grades and the graded run's are out of), the LMS's import file
# (ROSTER); the late students and the matched pairs on the output; a
# warning when it cannot.
lms_finish() {
    local public seeded
    public=$(possible_row public 2>/dev/null | sed -n 's/.*,//p')
    seeded=$(possible_row seed 2>/dev/null | sed -n 's/.*,//p')
    python3 "$lms" finish "$out" --due "${DUE:-}" --late "${LATE:-}" --roster "$lms_roster" \
        --assignment "${ASSIGNMENT:-}" --points-public "$public" --points-seed "$seeded" ${seed_set:+--seeded} ||
        echo "grade: warning: no late columns or LMS import file (above)" >&2
}

# ------------------------------------------------------------------- main

if [ "$subs" = --kit ]; then
    kit_only
    exit 0
fi
if [ -z "$subs" ] || [ ! -d "$subs" ]; then
    die "no submissions folder '${subs}' (make grade SUBMISSIONS=dir)"
fi
case "$slurm" in 0 | "") slurm=0 ;; 1) ;; *) die "SLURM='$slurm': SLURM=1 grades on a Slurm cluster, SLURM=0 (or nothing) here" ;; esac
case "$jobs" in "" | [1-9] | [1-9][0-9]) ;; *) die "JOBS='$jobs' is not a number of students at a time (1 to 99)" ;; esac
[ "$slurm" = 0 ] || [ -z "$jobs" ] || die "JOBS=$jobs and SLURM=1: a Slurm run grades one student per task, as many at a time as the cluster gives"
# what is graded: the assignment's labs (LAB, LABS) and STUDENT, before anything is built
assignment=$(assignment_ids "$lab_list") || die "$assignment"
kit_csv=$(assignment_ids) || die "$kit_csv"
# (an LMS's download: its students are known once OUT/.incoming is made, below)
if [ -n "$student_only" ] && [ "$(python3 "$lms" layout "$subs" 2>/dev/null)" = plain ]; then
    student_only=$(pick_student "$student_only" "$subs") || exit 2
fi
machine_ready
lms_setup
subs=$(realpath "$subs") && out=$(realpath -m "$out") || exit 2
if [ -n "$student_only" ] && [ -z "${lab_list// /}" ]; then # the student's own assignment
    last=$(recorded_assignment "$student_only")
    if [ -n "$last" ]; then
        assignment=$(assignment_ids "$last") ||
            die "STUDENT=$student_only: the labs of their last grading ($last) are not this kit's: name them, LAB= or LABS="
        echo "grade: STUDENT=$student_only: labs $assignment, as in their last grading (LAB= or LABS= names others)"
    fi
fi
case "$subs:$out" in *:*:*) die "a ':' in '$subs' or '$out': PRIMLAB_SANDBOX_HIDE cannot name it" ;; esac
case "$out/" in "$subs"/*) die "the grades folder '$out' is inside the submissions '$subs'" ;; esac
case "$subs/" in "$out"/*) die "the submissions '$subs' are inside the grades folder '$out'" ;; esac
# one student per GPU, never two graders on one (unless told: no GPU at all)
mapfile -t gpus < <(gpu_list | awk '!seen[$0]++') # each GPU once
pci_order=1 # the ids are nvidia-smi's, unless they came from CUDA_VISIBLE_DEVICES
[ -z "${PRIMLAB_GPUS:-}" ] && [ -n "${CUDA_VISIBLE_DEVICES+x}" ] && pci_order=""
cpus=()
pdeathsig=""
setpriv --help 2>/dev/null | grep -q -- --pdeathsig && pdeathsig=1
if [ "$slurm" = 0 ]; then
    [ -n "$jobs" ] || jobs=$((${#gpus[@]} > 0 ? ${#gpus[@]} : 1))
    if [ "$jobs" -gt 1 ] && [ "$jobs" -gt ${#gpus[@]} ]; then
        die "JOBS=$jobs, but $([ ${#gpus[@]} = 0 ] && echo "no GPU is" || echo "only ${#gpus[@]} GPUs are") seen${gpus[*]:+ (${gpus[*]})}: never two graders on one GPU (PRIMLAB_GPUS=\"0 1\" names them)"
    fi
    [ "$jobs" -gt 1 ] && mapfile -t cpus < <(cpu_sets "$jobs")
fi
mkdir -p "$out" "$src/build" || exit 2
exec 8>>"$out/.grade.lock" || exit 2
lock_for 8 || die "another make grade is writing into '$out' ($out/.grade.lock)"
exec 7>"$src/build/grade.lock.turn" 9>"$src/build/grade.lock" || exit 2
sharing=0
if [ "$(run_mode)" = dry ] && [ "$slurm" = 0 ]; then
    kit_shared || die "$busy"
    if kit_current; then
        sharing=1
    else
        flock -u 9 && kit_alone || die "$busy"
        if kit_current; then # another run made it meanwhile
            flock -s 9 && sharing=1 # (from exclusive to shared: on Linux nothing can come between)
        fi
    fi
else
    kit_alone || die "$busy"
fi
exec 7>&-
# Slurm: the submission side (harness/grade-slurm.sh); a job of an earlier
# run of these grades still queued or running is waited for, before the kit
# it runs in can change, and its results are merged below
. "$src/harness/grade-slurm.sh" || exit 2
[ "$slurm" = 0 ] || slurm_check
slurm_wait_earlier
if [ $sharing = 1 ]; then
    kit=$(kit_dir)
else
    make_grading_kit || die "could not make the grading kit '$kit' from the handout (harness/handout.sh)"
fi
case "$kit/" in "$out"/* | "$subs"/*) die "the grading kit '$kit' is inside '$out' or '$subs'" ;; esac
cd "$kit" || exit 2
hide=$(hidden_paths | paste -sd :)
export PRIMLAB_REQUIRE_SANDBOX=1 PRIMLAB_SANDBOX_HIDE=$hide
# The kit's own tools first: when they do not build (the bootstrap finds no
# Check, a compiler is missing), every student stays ungraded, listed with
# the reason, as when a lab of the kit fails under the first student.
no_kit=""
err=$(mktemp -t primlab-kit-err.XXXXXX) || exit 2
if [ $sharing = 0 ] && ! kit_make "$err" build/primlab-results; then
    no_kit="cannot build the kit's build/primlab-results: $({ grep -m 1 -E 'error|not found|^bootstrap:' ||
        echo 'make failed'; } <"$err")"
fi
rm -f "$err"
# .work holds only this run's trees: what is there was left by a run that
# was killed outright (the lock says no other run is going on)
rm -rf "$out/.work" && mkdir -p "$out/.work" || exit 2
record=$out/.graded.tsv
# what this run's record lines will say, and its skips compare (harness/record.sh)
this_mode=$(run_mode)
this_seed=public
if [ -n "$seed_set" ]; then
    this_seed=$(printf '%s' "$seed" | seed_fingerprint "$out/.seed-key") && [ -n "$this_seed" ] ||
        die "could not make the seed's fingerprint with the key '$out/.seed-key'"
fi
this_kit=$(kit_version "$out" "$subs") || die "could not tell the version of the grading kit '$kit'"

# ids: the assignment's labs
ids=()
for dir in $(harness/lab-dirs.sh); do
    id=$(basename "$dir" | cut -d- -f1)
    case ",$assignment," in *",$id,"*) ids+=("$id") ;; esac
done
labs_csv=$(IFS=,; echo "${ids[*]}")
[ "$labs_csv" = "$assignment" ] || die "the grading kit '$kit' has not the labs $assignment (it has: $(harness/lab-dirs.sh | paste -sd ' '))"

# The plan: every student not graded yet, in order.
graded=0 skipped=0
stopped="" stopped_why="" # once the grading machine fails here: the student it failed on, and why
machine="" why=""
ungraded=() models=()
plan_name=() plan_entry=() plan_sum=()
declare -A seen=()
lms_entries
if [ -n "$student_only" ] && [ "$entries" != "$subs" ]; then
    student_only=$(pick_student "$student_only" "$entries") || exit 2
fi
for entry in "$entries"/*; do
    [ -e "$entry" ] || continue
    name=$(student_name "$entry")
    [ -z "$student_only" ] || [ "$name" = "$student_only" ] || continue # STUDENT=name: the others stay as they are
    if [ -n "${seen[$name]:-}" ]; then
        echo "== $name: '$(basename "$entry")' has the same student name as '${seen[$name]}': skipped"
        skipped=$((skipped + 1))
        continue
    fi
    seen[$name]=$(basename "$entry")
    sum=$(submission_sum "$entry")
    if [ "$force" != 1 ] && graded_already "$name" "$sum"; then
        echo "== $name: already graded, skipped (FORCE=1 regrades)"
        skipped=$((skipped + 1))
        continue
    fi
    [ "$force" = 1 ] || [ -z "$why" ] || echo "== $name: regraded: $why"
    if [ -n "$no_kit" ]; then
        echo "== $name: not graded: the grading machine $no_kit"
        ungraded+=("$name"$'\t'"the grading machine $no_kit")
        continue
    fi
    if [ "$force" != 1 ] && slurm_earlier "$name" "$sum"; then # a grade an earlier run's Slurm task left
        merge "$name" "$sum" "$(slurm_tree "$name")" && rm -rf "$(slurm_tree "$name")" && continue
    fi
    plan_name+=("$name") plan_entry+=("$entry") plan_sum+=("$sum")
done

if [ -n "$no_kit" ]; then # no tool to write a gradebook with: the last one stays
    write_ungraded || die "could not write '$out/.ungraded.tsv'"
    echo "grade: the grading machine $no_kit; nobody graded, not the students' fault;" \
        "a rerun grades the ${#ungraded[@]} not graded once it is fixed ($out/.ungraded.tsv)" >&2
    exit 3
fi
# the kit's parts that grading and the gradebook use, built while the kit
# is this run's alone; then a dry run shares it
if [ $sharing = 0 ]; then
    build_kit_parts
    if [ "$this_mode" = dry ] && [ "$slurm" = 0 ]; then
        flock -s 9 # (from exclusive to shared: on Linux nothing can come between)
    fi
fi
if [ "$slurm" = 1 ]; then slurm_grade; else grade_here; fi

book=$(write_gradebook) || die "could not write '$out/gradebook.csv'"
lms_finish
write_ungraded || die "could not write '$out/.ungraded.tsv'"
write_report
# performance points compare a student's code with the vendor library on
# the same GPU, but a GPU model of its own can still favour some codes
mapfile -t kinds < <(printf '%s\n' "${models[@]}" | grep -vxE -e '-|' | sort | uniq -c | sed 's/^ *//')
if [ ${#kinds[@]} -gt 1 ]; then
    echo "grade: note: this run graded on ${#kinds[@]} GPU models ($(printf '%s; ' "${kinds[@]}" | sed 's/; $//')):" \
        "pin one (docs/instructor-guide.md) for performance points measured alike"
fi
if [ -n "$stopped" ]; then
    echo "graded $graded, skipped $skipped, not graded ${#ungraded[@]} ($out/.ungraded.tsv); gradebook: $book"
    echo "grade: stopped at $stopped: the grading machine failed, not the students ($stopped_why);" \
        "a rerun grades the ${#ungraded[@]} not graded once it is fixed" >&2
    exit 3
fi
if [ ${#ungraded[@]} -gt 0 ]; then
    echo "graded $graded, skipped $skipped, not graded ${#ungraded[@]} ($out/.ungraded.tsv); gradebook: $book"
    echo "grade: ${#ungraded[@]} not graded, not the students' fault (each one's reason is above and in" \
        "$out/.ungraded.tsv); a rerun grades only them" >&2
    exit 3
fi
echo "graded $graded, skipped $skipped; gradebook: $book"
