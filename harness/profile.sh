#!/usr/bin/env bash
# harness/profile.sh LAB [IMPL]: Nsight Compute on a lab's kernels. Called by
# `make profile LAB=03` or `make profile LAB=08`.
#   lab 03: the shared-memory bank-conflict counters of the stride kernels,
#           beside the bank-conflict analyzer's prediction;
#   lab 08: the tuned single-pass scan (part c, exclusive) and CUB's scan at
#           PROFILE_N (default 2^28): duration, DRAM throughput (% of peak and
#           bytes), and the warps' stall reasons, one kernel launch each,
#           side by side; the full reports stay in build/profile/lab08-*.txt.
# Needs ncu (Nsight Compute) and a GPU; leaves the clocks alone. The kernels
# run in the lab's worker, started unsandboxed with the whole environment
# (PRIMLAB_WORKER_PROFILE=1) so that ncu can follow it: the kit's own code only.
# PROFILE_REUSE=1 prints the report again from the last run's files.
set -u
lab=${1:-03}
impl=${2:-solutions}
bin=build/$impl/lab$lab
out=build/profile
command -v ncu >/dev/null 2>&1 || [ "${PROFILE_REUSE:-0}" = 1 ] || { echo "profile: ncu (Nsight Compute) not found on PATH" >&2; exit 1; }
[ -x "$bin" ] || { echo "profile: no '$bin' (run make first)" >&2; exit 1; }
case "$lab" in 03 | 08) ;; *) echo "profile: only labs 03 (bank conflicts) and 08 (the single-pass scan) have a profile" >&2; exit 2 ;; esac
mkdir -p "$out"

if [ "$lab" = 08 ]; then
    n=${PROFILE_N:-2^28}
    # one launch of each kernel, after the check call and the warm-up (skip 2)
    for who in tuned cub; do
        kern=$([ $who = tuned ] && echo 'regex:tuned_k' || echo 'regex:DeviceScanKernel')
        [ "${PROFILE_REUSE:-0}" = 1 ] && [ -s "$out/lab08-$who.txt" ] && continue
        PRIMLAB_WORKER_PROFILE=1 ncu --clock-control none --target-processes all -k "$kern" --launch-skip 2 \
            --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
            --section Occupancy --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum \
            "$bin" run --part c --n "$n" --reps 1 >"$out/lab08-$who.txt" 2>"$out/lab08-$who.log" ||
            { echo "profile: ncu failed on the $who scan:"; tail -n 3 "$out/lab08-$who.log"; exit 1; }
    done
    # the lines worth comparing, the two kernels side by side
    pick() { # pick FILE PATTERN: the value column of the first line matching
        awk -v pat="$2" '$0 ~ pat { print $NF; exit }' "$1"
    }
    printf '%-44s %16s %16s\n' "n = $n (part c, exclusive)" "tuned (solution)" "CUB"
    for row in "Duration" "DRAM Throughput" "Memory Throughput" "dram__bytes_read.sum" "dram__bytes_write.sum" \
        "Achieved Occupancy" "Registers Per Thread" "Block Size" "Grid Size" "Warp Cycles Per Issued Instruction"; do
        printf '%-44s %16s %16s\n' "$row" "$(pick "$out/lab08-tuned.txt" "^ *$row ")" "$(pick "$out/lab08-cub.txt" "^ *$row ")"
    done
    echo "stall reasons (cycles per issued instruction, from WarpStateStats; the full sections are in"
    echo "  $out/lab08-tuned.txt and $out/lab08-cub.txt):"
    for who in tuned cub; do
        echo "  $who:"
        grep -iE "stall|spends|cycles being stalled" "$out/lab08-$who.txt" | sed 's/^ */    /' | head -n 8
    done
    exit 0
fi
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum
strides=1,2,4,8,16,32,33,64
"$bin" analyze --out "$out/banks.tsv" >/dev/null || exit 1
for part in a4 a8; do
    [ "${PROFILE_REUSE:-0}" = 1 ] && [ -s "$out/ncu-$part.csv" ] && continue # report again from the last run
    PRIMLAB_WORKER_PROFILE=1 ncu --clock-control none --target-processes all --csv --metrics "$metrics" -k regex:stride \
        "$bin" run --part $part --n $strides --reps 1 >"$out/ncu-$part.csv" 2>"$out/ncu-$part.log" ||
        { echo "profile: ncu failed on part $part:"; tail -n 3 "$out/ncu-$part.log"; exit 1; }
done
# One launch per stride is enough (the others repeat it): ncu lists launches
# in order, three per stride (check, warm-up, timed).
printf '%-6s %-7s %-10s %-10s %-14s %-14s %-12s\n' part stride predicted measured "wavefronts/ld" "conflicts/ld" "shared lds"
for part in a4 a8; do
    width=$([ $part = a4 ] && echo 32 || echo 64)
    awk -F'","' -v part="$part" -v width="$width" -v strides="$strides" -v banks="$out/banks.tsv" '
        BEGIN { n = split(strides, s, ",");
                while ((getline line < banks) > 0) { split(line, f, "\t"); if (f[1] == "stride" width) pred[f[2]] = f[3] } }
        /^"[0-9]+","/ { id = $1; gsub(/"/, "", id); m = $(NF - 2); v = $NF; gsub(/[",]/, "", v); val[id, m] = v; if (!(id in seen)) { seen[id] = 1; ids[++k] = id } }
        END {
            for (i = 1; i <= n; i++) {
                id = ids[3 * (i - 1) + 1]
                ld = val[id, "smsp__inst_executed_op_shared_ld.sum"]
                wf = val[id, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
                cf = val[id, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
                least = width == 64 ? 2 : 1 # an 8-byte warp load is two half-warp wavefronts
                printf "%-6s %-7s %-10s %-10.2f %-14.2f %-14.2f %-12s\n", part, s[i], pred[s[i]], ld ? wf / ld / least : 0, ld ? wf / ld : 0, ld ? cf / ld : 0, ld
            }
        }' "$out/ncu-$part.csv"
done
echo "(predicted: ways of conflict from harness/parent/banks.c; measured: wavefronts per shared load from Nsight Compute,"
echo " halved for 8-byte loads, which need two wavefronts even without conflicts)"
