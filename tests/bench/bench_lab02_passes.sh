#!/usr/bin/env bash
# tests/bench/bench_lab02_passes.sh [LOG2N ...]: lab 02's part (b) pass by pass,
# the L2 flushed before every call as `make check` does, beside the copy
# and CUB, and the chunked and rounds experiments of the handout's
# section 13 (the source says what it prints). LOG2N defaults to 24 and
# 28, REPS=31 in the environment sets the timed calls. ARCH=sm_90 picks
# the architecture (default: the GPU's); BUILD_ONLY=1 builds and stops.
# A benchmark, not a test.
set -eu
cd "$(dirname "$0")/../.."
die() { echo "bench_lab02_passes: $*" >&2; exit 2; }
command -v nvcc >/dev/null 2>&1 || die "nvcc (the CUDA Toolkit) not found on PATH"
[ -f solutions/02-blelloch-scan/blelloch_tile.cuh ] ||
    die "it times the instructor's solution, solutions/02-blelloch-scan/ (not in the student handout)"
bin=build/bench/lab02_passes
mkdir -p build/bench
if [ ! -x "$bin" ] || [ -n "$(find tests/bench/bench_lab02_passes.cu tests/bench/bench_common.cuh tests/bench/bench_scan.cuh \
    solutions/02-blelloch-scan/blelloch_tile.cuh -newer "$bin")" ]; then
    nvcc -O3 -std=c++17 -arch="${ARCH:-native}" -o "$bin" tests/bench/bench_lab02_passes.cu || die "the build failed"
fi
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
nvidia-smi -L >/dev/null 2>&1 || die "no GPU here (nvidia-smi -L failed)"
exec "$bin" "$@"
