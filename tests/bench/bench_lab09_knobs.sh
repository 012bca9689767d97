#!/usr/bin/env bash
# tests/bench/bench_lab09_knobs.sh [N] [REPS]: the sweep of lab 09's part (d)
# knobs (tile shape, warp ranking, early digit counts) against CUB's
# DeviceRadixSort, in one process on this machine's GPU; the source says
# what it prints. N defaults to 2^28 (268435456), REPS to 15. ARCH=sm_90
# picks the architecture (default: the GPU's, nvcc's -arch=native). A
# benchmark for the handout's section 8, not a test.
set -eu
cd "$(dirname "$0")/../.."
die() { echo "bench_lab09_knobs: $*" >&2; exit 2; }
command -v nvcc >/dev/null 2>&1 || die "nvcc (the CUDA Toolkit) not found on PATH"
[ -f solutions/09-onesweep-sort/onesweep_sort.cu ] ||
    die "it times the instructor's solution, solutions/09-onesweep-sort/ (not in the student handout)"
arch=${ARCH:-native}
mkdir -p build/bench
if [ ! -x build/bench/lab09_knobs ] || [ -n "$(find tests/bench/bench_lab09_knobs.cu tests/bench/bench_common.cuh solutions/09-onesweep-sort \
    labs/09-onesweep-sort -newer build/bench/lab09_knobs -name '*.c*' -o -newer build/bench/lab09_knobs -name '*.h')" ]; then
    nvcc -O3 -std=c++17 -arch="$arch" -I labs/09-onesweep-sort -o build/bench/lab09_knobs \
        tests/bench/bench_lab09_knobs.cu || die "the build failed"
fi
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
nvidia-smi -L >/dev/null 2>&1 || die "no GPU here (nvidia-smi -L failed)"
exec build/bench/lab09_knobs "$@"
