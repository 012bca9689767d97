#!/usr/bin/env bash
# harness/profile.sh [LAB] [IMPL]: Nsight Compute on a lab's kernels. Called
# by `make profile LAB=NN`; without LAB, the first lab that has a profile.
# A lab's profile is its own script, harness/labs/labNN-profile.sh (its
# `# help:` line is make help's), read in here with bin (build/IMPL/labNN)
# and out (build/profile) set: which parts it runs at which sizes, the
# kernels (of the lab's code and of the vendor library) and the sections or
# metrics ncu collects, and the report it prints from them.
# Needs ncu (Nsight Compute) and a GPU; leaves the clocks alone. The kernels
# run in the lab's worker, started unsandboxed with the whole environment
# (PRIMLAB_WORKER_PROFILE=1) so that ncu can follow it: the kit's own code only.
# PROFILE_REUSE=1 prints the report again from the last run's files.
set -u
labs_dir=$(dirname "$0")/labs
profiles=$(for f in "$labs_dir"/lab*-profile.sh; do [ -f "$f" ] && f=${f##*/lab} && echo "${f%-profile.sh}"; done)
lab=${1:-$(echo "$profiles" | head -n 1)}
impl=${2:-solutions}
bin=build/$impl/lab$lab
out=build/profile
command -v ncu >/dev/null 2>&1 || [ "${PROFILE_REUSE:-0}" = 1 ] || { echo "profile: ncu (Nsight Compute) not found on PATH" >&2; exit 1; }
[ -x "$bin" ] || { echo "profile: no '$bin' (run make first)" >&2; exit 1; }
[ -f "$labs_dir/lab$lab-profile.sh" ] ||
    { echo "profile: lab $lab has no profile (labs with one:" $profiles")" >&2; exit 2; }
mkdir -p "$out"
. "$labs_dir/lab$lab-profile.sh"
