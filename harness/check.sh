#!/usr/bin/env bash
# harness/check.sh IMPL [LAB]: grade every lab of IMPL (labs, solutions, or a
# folder laid out like labs/), or only lab LAB. Called by `make check`, and
# by harness/grade.sh for each student. Run it from the kit's root.
#
# Each lab is built and run on its own: build/<impl>/labNN (the parent: the
# table, the references, the verdicts; no student code) and labNN-worker
# (the student's code, which the parent runs in a sandbox). A lab that does
# not compile scores 0 (its points still count in the total) with its first
# compiler errors shown, and the others are still graded. The parent appends
# one row per test to a scores file; the totals, results.json and the
# Autolab line are made from that data.
#
# The grading seed: PRIMLAB_SEED is taken out of the environment first, so
# that make, the compilers and anything they run never see it; only the lab
# binaries (which hold no student code) get it back. It is never printed.
#
# Environment: CHECK_OUT (folder for scores.tsv, results.json and Check's
# labNN.tap / labNN.xml logs; default build/<impl>), CHECK_EXTRA (a file
# whose text goes into results.json's output), AUTOLAB=1 (print Autolab's
# scores line last), PRIMLAB_SEED, PRIMLAB_TIMEOUT (see the lab binaries),
# PRIMLAB_REQUIRE_SANDBOX=1 and PRIMLAB_SANDBOX_HIDE (set by `make grade`:
# IMPL's code is compiled (harness/sandbox-compile.sh) and run (the lab
# binaries' workers) in bubblewrap only, with these folders hidden; without
# a working bwrap this stops before building anything, never falls back).
set -u
seed_set=${PRIMLAB_SEED+1}
seed=${PRIMLAB_SEED-}
unset PRIMLAB_SEED

impl=${1:-labs}
only=${2:-}
impl=${impl%/}
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
    err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1) ||
        { echo "check: bwrap cannot start a sandbox here ($(head -n 1 <<<"$err")) and PRIMLAB_REQUIRE_SANDBOX=1" >&2; return 1; }
}

require_sandbox || exit 2
out=${CHECK_OUT:-build/$tag}
mkdir -p "$out" "build/$tag"
scores=$out/scores.tsv
: >"$scores"
make -s --no-print-directory build/primlab-results >/dev/null || exit 2

# build_hint LOG: one line naming a known cause of a build error, or nothing.
# The warp intrinsics without _sync (__shfl_down, __any, ...) were removed
# for sm_70 and later: code from before CUDA 9 (and from the lab 06 seed)
# fails with "identifier ... is undefined".
build_hint() {
    local f
    f=$(grep -o -m 1 -E 'identifier "__(shfl|shfl_up|shfl_down|shfl_xor|any|all|ballot)" is undefined' "$1" |
        sed 's/identifier "\(__[a-z_]*\)".*/\1/')
    [ -n "$f" ] && echo "$f without _sync no longer exists (removed for sm_70 and later, where the lanes of a warp" \
        "are scheduled independently): use ${f}_sync(mask, ...), the mask naming every lane that takes part"
}

ids=()
for dir in $(harness/lab-dirs.sh); do
    lab=$(basename "$dir")
    id=${lab%%-*}
    if [ -n "$only" ] && [ "$id" != "$only" ] && [ "$id" != "0$only" ]; then continue; fi
    ids+=("$id")
    src=$(cd "$dir" && ls -- *.cu)
    bin=build/$tag/lab$id
    echo "== lab $id ($lab): $impl/$lab/$src"
    status="" hint=""
    if [ ! -f "$impl/$lab/$src" ]; then
        echo "lab$id: '$impl/$lab/$src' is missing: 0 points"
        status=MISSING
    elif ! make -s --no-print-directory IMPL="$impl" "$bin" "$bin-worker" >"build/$tag/build-lab$id.log" 2>&1; then
        echo "lab$id: does not compile: 0 points. First errors:"
        grep -m 8 -E 'error|undefined reference' "build/$tag/build-lab$id.log" | sed 's/^/    /'
        hint=$(build_hint "build/$tag/build-lab$id.log")
        [ -n "$hint" ] && echo "    hint: $hint"
        status=NOBUILD
    fi
    if [ -n "$status" ]; then
        # the lab's points still count: read them from its table (with the
        # seed, which adds the hidden tests, as the lab binary would)
        make -s --no-print-directory "build/tables/lab$id" >/dev/null 2>&1
        max=$(with_seed "build/tables/lab$id" list 2>/dev/null | sed -n 's/^total: \([0-9.]*\) points$/\1/p')
        reason="$impl/$lab/$src: $([ "$status" = MISSING ] && echo missing || echo 'does not compile')${hint:+: $hint}"
        printf '%s\tlab %s (%s)\tcorrectness\t0\t%s\t0\t%s\t0\t\t%s\t\n' "$id" "$id" "$lab" "$status" \
            "${max:-0}" "$reason" >>"$scores"
        echo "lab$id subtotal: 0/${max:-?}"
        continue
    fi
    with_seed "$bin" check --scores "$scores" --tap "$out/lab$id.tap" --xml "$out/lab$id.xml"
    with_seed "$bin" fill --scores "$scores" # tests a stopped run did not reach still count
done
if [ ${#ids[@]} = 0 ]; then
    echo "check: no lab '$only' (labs: $(harness/lab-dirs.sh | tr '\n' ' '))" >&2
    exit 2
fi
labs_csv=$(IFS=,; echo "${ids[*]}")
args=("$scores" --labs "$labs_csv" --json "$out/results.json")
[ -n "${CHECK_EXTRA:-}" ] && args+=(--extra "$CHECK_EXTRA")
[ "${AUTOLAB:-0}" = 1 ] && args+=(--autolab)
build/primlab-results "${args[@]}"
