#!/usr/bin/env bash
# tests/bench/bench_lab08_knobs.sh [N] [REPS]: the sweep of lab 08's part (c)
# knobs (tile shape, the sleep before the look-back, the sleep between
# polls) against CUB and the copy, in one process on this machine's GPU;
# the source says what it prints. N defaults to 2^28 (268435456), REPS to
# 25. ARCH=sm_90 picks the architecture (default: the GPU's, nvcc's
# -arch=native). A benchmark for the handout's section 8.2, not a test.
set -eu
cd "$(dirname "$0")/../.."
die() { echo "bench_lab08_knobs: $*" >&2; exit 2; }
command -v nvcc >/dev/null 2>&1 || die "nvcc (the CUDA Toolkit) not found on PATH"
[ -f solutions/08-single-pass-scan/single_pass_scan.cu ] ||
    die "it times the instructor's solution, solutions/08-single-pass-scan/ (not in the student handout)"
nvidia-smi -L >/dev/null 2>&1 || die "no GPU here (nvidia-smi -L failed)"
arch=${ARCH:-native}
mkdir -p build/bench
nvcc -O3 -std=c++17 -arch="$arch" -I labs/08-single-pass-scan -o build/bench/lab08_knobs \
    tests/bench/bench_lab08_knobs.cu || die "the build failed"
exec build/bench/lab08_knobs "$@"
