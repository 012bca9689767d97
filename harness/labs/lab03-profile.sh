# harness/labs/lab03-profile.sh: lab 03's profile, read in by
# harness/profile.sh (`make profile LAB=03`), which sets bin (the lab's
# binary), out (build/profile) and checks for ncu.
# help: Nsight Compute's bank-conflict counters beside the analyzer's prediction
#
# The shared-memory bank-conflict counters of the stride kernels (parts a4
# and a8, one launch per stride), beside the prediction of the lab's
# bank-conflict analyzer (`lab03 analyze`, harness/parent/labs/lab03_banks.c).
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
echo "(predicted: ways of conflict from harness/parent/labs/lab03_banks.c; measured: wavefronts per shared load from Nsight Compute,"
echo " halved for 8-byte loads, which need two wavefronts even without conflicts)"
