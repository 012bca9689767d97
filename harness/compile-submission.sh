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
set -u
stage=$(realpath "$1") out=$2
shift 2
here=$(dirname "$0")
mkdir -p "$(dirname "$out")" || exit 2
out=$(realpath "$out")
mapfile -t cus < <(sed -n 's/^compile\t//p' "$stage/.manifest")
if [ ${#cus[@]} = 0 ]; then
    echo "compile-submission: '$stage/.manifest' lists no .cu file" >&2
    exit 2
fi
if [ ${#cus[@]} = 1 ]; then
    exec "$here/sandbox-compile.sh" "$stage" "$(dirname "$out")" "$@" -I"$stage" -c "$stage/${cus[0]}" -o "$out"
fi

work=${out%.o}.files parts=${out%.o}.files/parts link=${out%.o}.files/link
rm -rf "$work" && mkdir -p "$parts" "$link" || exit 2
objs=()
for cu in "${cus[@]}"; do
    o=$parts/${#objs[@]}-$(basename "${cu%.cu}").o
    "$here/sandbox-compile.sh" "$stage" "$parts" "$@" -rdc=true -I"$stage" -c "$stage/$cu" -o "$o" || exit
    objs+=("$o")
done
"$here/sandbox-compile.sh" "$parts" "$link" "$@" -dlink "${objs[@]}" -o "$link/dlink.o" || exit
ld -r -o "$out" "${objs[@]}" "$link/dlink.o" || exit
rm -rf "$work"
