#!/usr/bin/env bash
# tests/bench/bench_lab02_knobs.sh [N] [REPS]: the sweep of lab 02's part (b)
# knobs (threads per block, elements a tree slot sums) against CUB's
# DeviceScan and the copy, on this machine's GPU; the source says what it
# prints. ITEMS is a macro of the solution's header, so there is one
# build for each of 2, 4, 8 and 16, each timing CUB again beside its own
# rows. N defaults to 2^24 (16777216), REPS to 30. ARCH=sm_90 picks the
# architecture (default: the GPU's, nvcc's -arch=native); BUILD_ONLY=1
# builds and stops. A benchmark, not a test: its calls are timed back to
# back, with no L2 flush and no hold, so that each may find the last one's
# data in the L2 and its ratios run higher than make check's (lab 02's
# handout, section 13).
set -eu
cd "$(dirname "$0")/../.."
die() { echo "bench_lab02_knobs: $*" >&2; exit 2; }
command -v nvcc >/dev/null 2>&1 || die "nvcc (the CUDA Toolkit) not found on PATH"
[ -f solutions/02-blelloch-scan/blelloch_tile.cuh ] ||
    die "it times the instructor's solution, solutions/02-blelloch-scan/ (not in the student handout)"
arch=${ARCH:-native}
mkdir -p build/bench
for items in 2 4 8 16; do
    bin=build/bench/lab02_knobs_$items
    if [ ! -x "$bin" ] || [ -n "$(find tests/bench/bench_lab02_knobs.cu tests/bench/bench_common.cuh \
        solutions/02-blelloch-scan/blelloch_tile.cuh -newer "$bin")" ]; then
        nvcc -O3 -std=c++17 -arch="$arch" -DITEMS=$items -o "$bin" tests/bench/bench_lab02_knobs.cu ||
            die "the build with ITEMS=$items failed"
    fi
done
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
nvidia-smi -L >/dev/null 2>&1 || die "no GPU here (nvidia-smi -L failed)"
rc=0
for items in 2 4 8 16; do
    if [ $items = 2 ]; then header=1; else header=0; fi
    HEADER=$header build/bench/lab02_knobs_$items "$@" || rc=1
done
exit $rc
