# harness/labs/lab08-profile.sh: lab 08's profile, read in by
# harness/profile.sh (`make profile LAB=08`), which sets bin (the lab's
# binary), out (build/profile) and checks for ncu.
# help: Nsight Compute on the tuned single-pass scan and CUB's: DRAM throughput, stall reasons
#
# The tuned single-pass scan (part c, exclusive) and CUB's scan at
# PROFILE_N (default 2^28): duration, DRAM throughput (% of peak and
# bytes), and the warps' stall reasons, one kernel launch each, side by
# side; the full reports stay in build/profile/lab08-*.txt.
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
