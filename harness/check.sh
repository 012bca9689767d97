#!/usr/bin/env bash
# harness/check.sh IMPL [LABS]: grade every lab of IMPL (labs, solutions, or a
# folder laid out like labs/), or only the labs LABS names (an assignment:
# "01", "01 02" or "01,02"; harness/assignment.sh): a lab not named is
# neither built nor counted in the maximum. Called by `make check` (LAB=01,
# LABS="01 02"), and by harness/grade-student.sh for each student. Run it
# from the kit's root. A LABS id that is no lab of the kit: one line naming
# the labs there are, status 2.
#
# Each lab is built and run on its own: build/<impl>/labNN (the parent: the
# table, the references, the verdicts; no student code) and labNN-worker
# (the student's code, which the parent runs in a sandbox). A lab that does
# not compile scores 0 (its points still count in the total) with its first
# compiler errors shown, and the others are still graded. The parent appends
# one row per test to a scores file (harness/parent/scores.h: its columns),
# and the row of a lab that is missing or does not compile; the totals,
# results.json, the Autolab line and what a run without a GPU says are made
# from those rows by build/primlab-results. Nothing here reads a report.
#
# A failure of the grading machine is never the student's: when the kit's
# own parts (the lab binary, the vendor worker, the table, primlab-results)
# do not build or cannot start (a missing shared library), or, when grading
# (PRIMLAB_REQUIRE_SANDBOX=1), the kit's own worker finds no GPU or does not
# start (the lab binary's status 3), one line says so, no score is recorded
# (no scores.tsv, no results.json, no Score line) and the status is 3. A
# student's file that does not compile is told apart by the target that
# failed: the kit's parts are built first, then the student's object and
# worker; and when those fail, a file of the kit's own must build the same
# way (else the compiler, its sandbox or the kit failed). Outside grading a
# machine without a GPU still runs every lab, and no file gives a score:
# the Score line says that no test could run here and why, results.json
# has no score (and no test), no lab a subtotal. PRIMLAB_NO_GPU=1 asks for
# that dry run when grading too; it gives no score even to a submission
# none of whose labs compiles (build/primlab-results --dry).
#
# What a student reads names no path of the grader's: this script's output
# and the lab binaries', the scores' reasons and not-graded.txt pass through
# harness/student_paths.py (student_paths, to_student), so that a compiler
# message reads "01-prefix-sum/prefix_sum.cu(107): error ..." (or, for
# make check of labs/, "labs/01-prefix-sum/..."), never the stage in build/.
#
# The grading seed: PRIMLAB_SEED is taken out of the environment first, so
# that make, the compilers and anything they run never see it; only the lab
# binaries (which hold no student code) get it back. It is never printed.
#
# Environment: CHECK_OUT (folder for scores.tsv, results.json, the TAP and
# JUnit XML logs labNN.tap / labNN.xml, not-graded.txt: what the report
# says of each lab that is missing or does not compile, and machine.txt:
# one line, written only when the grading machine failed, saying how;
# default build/<impl>),
# CHECK_EXTRA (a file whose text goes into results.json's output),
# AUTOLAB=1 (print Autolab's scores line last), PRIMLAB_SEED, PRIMLAB_TIMEOUT (see the lab binaries),
# PRIMLAB_REQUIRE_SANDBOX=1 and PRIMLAB_SANDBOX_HIDE (set by `make grade`:
# IMPL's code is compiled (harness/sandbox-compile.sh) and run (the lab
# binaries' workers) in bubblewrap only, with these folders hidden; without
# a working bwrap this stops before building anything, never falls back),
# PRIMLAB_NO_GPU=1 (run without the GPU: a dry run, no score).
#
# Exit status: 0 at full marks, 1 below, 2 for a usage or sandbox error, 3
# for a failure of the grading machine (nothing graded).
set -u
seed_set=${PRIMLAB_SEED+1}
seed=${PRIMLAB_SEED-}
unset PRIMLAB_SEED

impl=${1:-labs}
only=${2:-}
impl=${impl%/}
. "$(dirname "$0")/assignment.sh"
. "$(dirname "$0")/sandbox-probe.sh" # sandbox_starts
if ! want=$(assignment_ids "$only"); then
    echo "check: $want" >&2
    exit 2
fi
case "$impl" in
labs | solutions) tag=$impl ;;
*) tag="impl-${impl//\//-}" ;;
esac
if [ ! -d "$impl" ]; then
    echo "check: no folder '$impl' to grade (IMPL=labs, solutions, or a folder laid out like labs/)" >&2
    exit 2
fi

# with_seed CMD...: run a lab binary with the grading seed, if there is one.
with_seed() {
    if [ -n "$seed_set" ]; then PRIMLAB_SEED="$seed" "$@"; else "$@"; fi
}

# require_sandbox: with PRIMLAB_REQUIRE_SANDBOX=1, bubblewrap must start, or
# nothing is built or run (rather than every lab failing on its own).
require_sandbox() {
    local err
    [ "${PRIMLAB_REQUIRE_SANDBOX:-0}" = 1 ] || return 0
    command -v bwrap >/dev/null 2>&1 ||
        { echo "check: bubblewrap (bwrap) is not installed and PRIMLAB_REQUIRE_SANDBOX=1: nothing is built or run" >&2; return 1; }
    err=$(sandbox_starts bwrap) ||
        { echo "check: bwrap cannot start a sandbox here ($err) and PRIMLAB_REQUIRE_SANDBOX=1" >&2; return 1; }
}

# machine_fault WHAT DETAIL: the grading machine failed (WHAT), not the code
# graded: say so and stop (machine_stop).
machine_fault() {
    machine_stop "the grading machine $1 (not your code): $2"
}

# machine_stop LINE: say LINE in one line, and in OUT/machine.txt for the
# scripts that grade a class, and stop with status 3, recording no score (a
# scores file or results.json left by an earlier run would pass for this
# run's, so they go too, with this run's Check logs).
machine_stop() {
    local i
    rm -f "$scores" "$out/results.json"
    for i in "${ids[@]}"; do rm -f "$out/lab$i.tap" "$out/lab$i.xml"; done
    printf '%s\n' "$1" | tr -d '\t' >"$out/machine.txt"
    echo "check: $1" >&2
    exit 3
}

# first_error LOG: the line of a build log that says what went wrong first
# (make's own "[target] Error 2" lines name no cause: only when alone).
first_error() {
    local causes
    causes=$(grep -v '^make: \*\*\* \[' "$1")
    { grep -m 1 -iE 'error|undefined reference|cannot|missing|not found|denied|no rule to make' <<<"$causes" ||
        grep . <<<"$causes" | tail -n 1 | grep . || tail -n 1 "$1"; } | sed 's/^ *//' | cut -c 1-300
}

# build_kit NAME LOG TARGET...: make the kit's own TARGETs (NAME's; no
# student code in them), or stop: they fail the same way for every student.
build_kit() {
    local name=$1 log=$2
    shift 2
    make -s --no-print-directory IMPL="$impl" "$@" >"$log" 2>&1 ||
        machine_fault "cannot build the kit's $name" "$(first_error "$log")"
}

# kit_starts BIN...: each of the kit's binaries starts (its shared libraries
# load; --help runs no test and no student code), or stop. The loader says
# why on stderr and exits 127 (126: not executable at all).
kit_starts() {
    local b err rc
    for b in "$@"; do
        err=$(timeout 60 "$b" --help 2>&1 >/dev/null </dev/null)
        rc=$?
        if [ $rc = 126 ] || [ $rc = 127 ] || grep -q 'error while loading shared libraries' <<<"$err"; then
            machine_fault "cannot start the kit's $b" "$(grep -m 1 . <<<"$err" | sed "s|^$b: ||" | cut -c 1-300)"
        fi
    done
}

# kit_compiles ID LAB SRC: a file of the kit's own compiles as the
# student's SRC is compiled (staged, in the compiler's sandbox) and, when
# grading, links into a worker as SRC is linked. When the student's file
# does not build and this does not either, the compiler, its sandbox or the
# kit failed, not the code. (The student's compiler messages cannot tell:
# #line makes them say anything.) The file: when grading a folder, the
# lab's stub (the kit then is the handout: its stubs build); else labs/
# may be the student's own code, so the lab's contract headers alone,
# compiled only.
kit_compiles() {
    local probe=build/$tag/probe ptag h rc target
    ptag=impl-${probe//\//-}
    rm -rf "$probe" "build/$ptag" && mkdir -p "$probe/$2" || return 1
    case "${PRIMLAB_REQUIRE_SANDBOX:-}:$impl" in
    :* | 0:* | *:labs)
        for h in "labs/$2"/*.h; do echo "#include \"${h##*/}\""; done >"$probe/$2/$3"
        target=build/$ptag/obj/$2/${3%.cu}.o
        ;;
    *)
        cp "labs/$2/$3" "$probe/$2/$3" || return 1
        target=build/$ptag/lab$1-worker
        ;;
    esac
    make -s --no-print-directory IMPL="$probe" "$target" >"build/$tag/probe-lab$1.log" 2>&1
    rc=$?
    rm -rf "$probe" "build/$ptag"
    return $rc
}

# student_paths MODE ARGS...: harness/student_paths.py for this kit and
# IMPL, the one function that rewrites the grader's paths (the stage, the
# build folder, a grading tree, /tmp, a home) in what a student reads: a
# stream (filter), text files (files) or a scores file (scores). Without
# python3 a stream passes as it is.
student_paths() {
    if command -v python3 >/dev/null 2>&1; then
        python3 harness/student_paths.py --kit "$PWD" --impl "$impl" "$@"
    elif [ "$1" = filter ]; then
        cat
    fi
}

# to_student: from here on, all this script and the lab binaries print
# reaches the student through student_paths (both streams: each filter
# writes to the stream it replaces, which bash opened for it before the
# redirection; no copy of the old streams is left for a child to write
# to). On exit the streams are closed and the filters waited for, so that
# whoever reads the output after us reads it all.
to_student() {
    exec 1> >(student_paths filter)
    filter_out=$!
    exec 2> >(student_paths filter >&2)
    filter_err=$!
    trap 'exec >&- 2>&-; wait "$filter_out" "$filter_err"' EXIT
}

require_sandbox || exit 2
to_student
out=${CHECK_OUT:-build/$tag}
mkdir -p "$out" "build/$tag"
scores=$out/scores.tsv
: >"$scores"
rm -f "$out/machine.txt" "$out/not-graded.txt"
ids=()
# The kit's own parts of every lab graded, in one make: a make for each
# lab read the Makefile again, 0.1-0.2 s each. When it fails, each lab's
# are built on their own below, so that the fault names the lab.
all_kit=(build/primlab-results)
for dir in $(harness/lab-dirs.sh); do
    lab=$(basename "$dir") id=${lab%%-*}
    case ",$want," in *",$id,"*) ;; *) continue ;; esac
    all_kit+=("build/tables/lab$id")
    src=$(cd "$dir" && ls -- *.cu)
    [ -f "$impl/$lab/$src" ] && all_kit+=("build/$tag/lab$id")
done
kit_built=0
make -s --no-print-directory IMPL="$impl" "${all_kit[@]}" >"build/$tag/kit-all.log" 2>&1 && kit_built=1
[ $kit_built = 1 ] || build_kit build/primlab-results "build/$tag/kit-tools.log" build/primlab-results
kit_starts build/primlab-results

# build_hint LOG: one line naming a known cause of a build error, or nothing.
# A __device__ function defined in a file that was not compiled (ptxas:
# "Unresolved extern function").
# The warp intrinsics without _sync (__shfl_down, __any, ...) were removed
# for sm_70 and later: code from before CUDA 9 (and from a lab's seed code
# of that time) fails with "identifier ... is undefined".
build_hint() {
    local f
    if grep -q "Unresolved extern function" "$1"; then
        echo "a __device__ function is called but defined in no file compiled with this one: its file must" \
            "lie beside the lab's file (all the .cu files there are compiled and linked together)"
        return
    fi
    f=$(grep -o -m 1 -E 'identifier "__(shfl|shfl_up|shfl_down|shfl_xor|any|all|ballot)" is undefined' "$1" |
        sed 's/identifier "\(__[a-z_]*\)".*/\1/')
    [ -n "$f" ] && echo "$f without _sync no longer exists (removed for sm_70 and later, where the lanes of a warp" \
        "are scheduled independently): use ${f}_sync(mask, ...), the mask naming every lane that takes part"
}

# say_files ID MANIFEST BUILT: the files of a student's lab that were
# compiled, when it built (BUILT 0), and those left out with why
# (harness/stage-submission.sh's manifest; the kit's solutions have none).
# A lab that did not build says what became of its files in its one
# "does not compile" line (build_story), never "compiled" first. Always
# succeeds.
say_files() {
    [ -f "$2" ] || return 0
    awk -F '\t' -v id="$1" -v built="$3" '
        $1 == "compile" { c = c " " $2 } $1 == "header" { h = h " " $2 }
        $1 == "ignored" { i[++n] = "lab" id ": ignored " $2 ": " $3 }
        END { if (built == 0) print "lab" id ": compiled" c (h != "" ? "; headers" h : "")
              for (k = 1; k <= n; k++) print i[k] }' "$2"
}

# build_story STEPS: how far a lab that did not build got, as the end of
# its "does not compile" line: ": errors in a.cu (b.cu compiled)", or
# ": a.cu b.cu compiled, the link failed" (the worker's link, or their
# device code's), from harness/compile-submission.sh's STEPS; nothing
# without them (the kit's solutions).
build_story() {
    [ -s "$1" ] || return 0
    awk -F '\t' '
        $1 == "compiled" && $2 != "device link" { ok = ok (ok == "" ? "" : " ") $2 }
        $1 == "failed" && $2 != "device link" { bad = $2 }
        END { if (bad != "") printf ": errors in %s%s", bad, (ok != "" ? " (" ok " compiled)" : "")
              else if (ok != "") printf ": %s compiled, the link failed", ok }' "$1"
}

# what a lab not graded scores, in its line: nothing in a dry run
# (PRIMLAB_NO_GPU=1), which gives no score at all
zero=": 0 points"
case "${PRIMLAB_NO_GPU:-0}" in 0) ;; *) zero="" ;; esac
for dir in $(harness/lab-dirs.sh); do
    lab=$(basename "$dir")
    id=${lab%%-*}
    case ",$want," in *",$id,"*) ;; *) continue ;; esac
    ids+=("$id")
    src=$(cd "$dir" && ls -- *.cu)
    bin=build/$tag/lab$id
    echo "== lab $id ($lab): $impl/$lab/$src"
    status="" hint=""
    # the kit's parts first: the table (for a lab's maximum), and the parent
    # with the yardstick's worker when there is code to grade
    kit=("build/tables/lab$id")
    [ -f "$impl/$lab/$src" ] && kit+=("$bin")
    [ $kit_built = 1 ] || build_kit "lab$id" "build/$tag/kit-lab$id.log" "${kit[@]}"
    [ -f "$impl/$lab/$src" ] && kit+=("build/vendor/lab$id-worker")
    kit_starts "${kit[@]}"
    if [ ! -f "$impl/$lab/$src" ]; then
        echo "lab$id: '$impl/$lab/$src' is missing$zero" | tee -a "$out/not-graded.txt"
        status=MISSING
    else
        make -s --no-print-directory IMPL="$impl" "$bin-worker" >"build/$tag/build-lab$id.log" 2>&1
        built=$?
        say_files "$id" "build/$tag/stage/$lab/.manifest" $built
        if [ $built != 0 ]; then
            kit_compiles "$id" "$lab" "$src" ||
                machine_fault "cannot build the kit's own code for lab$id either" "$(first_error "build/$tag/probe-lab$id.log")"
            hint=$(build_hint "build/$tag/build-lab$id.log")
            {
                echo "lab$id: does not compile$zero$(build_story "build/$tag/obj/$lab/${src%.cu}.compile.tsv"). First errors:"
                grep -vE '^make(\[[0-9]+\])?: \*\*\* ' "build/$tag/build-lab$id.log" |
                    grep -m 8 -iE 'error|undefined reference|fatal' | sed 's/^/    /'
                if [ -n "$hint" ]; then echo "    hint: $hint"; fi
            } | tee -a "$out/not-graded.txt"
            status=NOBUILD
        fi
    fi
    if [ -n "$status" ]; then
        # the lab's row: 0 of the points its table gives (with the seed,
        # which adds the hidden tests, as the lab binary would), and its
        # subtotal line
        reason="$impl/$lab/$src: $([ "$status" = MISSING ] && echo missing || echo 'does not compile')${hint:+: $hint}"
        with_seed "build/tables/lab$id" fill --scores "$scores" --not-graded "$status" --reason "$reason" ||
            machine_fault "cannot record the scores of lab$id" "build/tables/lab$id fill failed"
        continue
    fi
    with_seed "$bin" check --scores "$scores" --tap "$out/lab$id.tap" --xml "$out/lab$id.xml"
    if [ $? = 3 ]; then
        # grading, and the yardstick's worker (no student code) found no GPU
        # or did not start: no test ran, and the rows say why
        machine_stop "$(build/primlab-results "$scores" --fault "$id")"
    fi
    with_seed "$bin" fill --scores "$scores" # tests a stopped run did not reach still count
done
if [ ${#ids[@]} = 0 ]; then
    echo "check: no lab to grade: this kit has none (harness/lab-dirs.sh)" >&2
    exit 2
fi
labs_csv=$(IFS=,; echo "${ids[*]}")
# the rows' reasons and the report's lines on labs not graded, as the student reads them
student_paths scores "$scores" && student_paths files "$out/not-graded.txt" || exit 2
args=("$scores" --labs "$labs_csv" --json "$out/results.json")
# a dry run (PRIMLAB_NO_GPU=1) gives no score, even where no test needed a GPU
case "${PRIMLAB_NO_GPU:-0}" in 0) ;; *) args+=(--dry) ;; esac
[ -n "${CHECK_EXTRA:-}" ] && args+=(--extra "$CHECK_EXTRA")
[ "${AUTOLAB:-0}" = 1 ] && args+=(--autolab)
# without a GPU no test ran: no score anywhere (the Score line says why,
# results.json has none); under AUTOLAB=1 no scores line, status 3
build/primlab-results "${args[@]}" --check
exit $?
