#!/usr/bin/env bash
# harness/compile-submission.sh STAGE OUT NVCC FLAGS...: compile the .cu
# files that STAGE/.manifest lists (harness/stage-submission.sh laid STAGE
# out) into one relocatable object OUT, each compiler run in the sandbox of
# harness/sandbox-compile.sh. Called by the Makefile; the lab's worker links
# OUT as it would link a one-file submission's object.
#
# One .cu is compiled as it always was (whole-program device code). Several
# are compiled with -rdc=true, so that a kernel or __device__ function of
# one file may call those of another, then device-linked (nvcc -dlink, in
# the sandbox too) and joined with `ld -r` into OUT. Every file is compiled
# with STAGE on the include path, from STAGE, so the messages name the
# student's own file and line.
#
# OUT's .compile.tsv (beside OUT, rewritten each time) says how far it got,
# one line per step, fields separated by a tab, for harness/check.sh to
# tell the student in one line:
#   compiled <path>      a .cu that compiled
#   failed   <path>      the .cu that did not (the first one; no later one is tried)
#   failed   device link the files compiled, their device code did not link
set -u
stage=$(realpath "$1") out=$2
shift 2
here=$(dirname "$0")
mkdir -p "$(dirname "$out")" || exit 2
out=$(realpath "$out")
steps=${out%.o}.compile.tsv
: >"$steps" || exit 2
mapfile -t cus < <(sed -n 's/^compile\t//p' "$stage/.manifest")
if [ ${#cus[@]} = 0 ]; then
    echo "compile-submission: '$stage/.manifest' lists no .cu file" >&2
    exit 2
fi
# step WHAT: the step's line in steps, compiled or failed by its status
step() {
    local rc=$?
    printf '%s\t%s\n' "$([ $rc = 0 ] && echo compiled || echo failed)" "$1" >>"$steps"
    return $rc
}
if [ ${#cus[@]} = 1 ]; then
    "$here/sandbox-compile.sh" "$stage" "$(dirname "$out")" "$@" -I"$stage" -c "$stage/${cus[0]}" -o "$out"
    step "${cus[0]}"
    exit
fi

work=${out%.o}.files parts=${out%.o}.files/parts link=${out%.o}.files/link
rm -rf "$work" && mkdir -p "$parts" "$link" || exit 2
objs=()
for cu in "${cus[@]}"; do
    o=$parts/${#objs[@]}-$(basename "${cu%.cu}").o
    "$here/sandbox-compile.sh" "$stage" "$parts" "$@" -rdc=true -I"$stage" -c "$stage/$cu" -o "$o"
    step "$cu" || exit
    objs+=("$o")
done
"$here/sandbox-compile.sh" "$parts" "$link" "$@" -dlink "${objs[@]}" -o "$link/dlink.o" &&
    ld -r -o "$out" "${objs[@]}" "$link/dlink.o"
rc=$?
[ $rc = 0 ] || { (exit $rc); step "device link"; exit; }
rm -rf "$work"
