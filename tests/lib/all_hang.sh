#!/usr/bin/env bash
# tests/lib/all_hang.sh DIR: a submission whose every entry point hangs, in
# every lab: DIR/NN-name/<the lab's .cu>, made from the lab's stub with a
# call to a kernel that never ends (then a host loop that never ends) at the
# top of each `extern "C"` function. Made from the stubs, so that it follows
# their contracts as they change. tests/grading/test_hostile.sh grades it on
# a GPU (the case all_hang): what such a class member costs a grading run.
set -eu
[ $# = 1 ] || { echo "usage: tests/lib/all_hang.sh DIR" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/../.."
for dir in $(harness/lab-dirs.sh); do
    lab=$(basename "$dir")
    mkdir -p "$out/$lab"
    for src in "$dir"*.cu; do
        awk '
            NR == 1 {
                print "/* all_hang (tests/lib/all_hang.sh): every entry point hangs */"
                print "#include <cuda_runtime.h>"
                print "#include <unistd.h>"
                print "__global__ void all_hang_kernel(void) { for (;;) __nanosleep(1000); }"
                print "__attribute__((noreturn)) static void all_hang(void)"
                print "{"
                print "    all_hang_kernel<<<1, 1>>>();"
                print "    cudaDeviceSynchronize();"
                print "    for (;;)"
                print "        pause();"
                print "}"
            }
            entry && /^\{/ { print "{ all_hang();"; entry = 0; next }
            /^extern "C"/ { entry = 1 }
            { print }' "$src" >"$out/$lab/$(basename "$src")"
        grep -q 'all_hang();' "$out/$lab/$(basename "$src")" ||
            { echo "all_hang: no entry point found in $src" >&2; exit 1; }
    done
done
