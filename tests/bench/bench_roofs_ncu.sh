#!/usr/bin/env bash
# tests/bench/bench_roofs_ncu.sh LAB PART N [PARAM]: a part's algorithm's roof
# (docs/roofs.md, `labNN roofs`) against the DRAM bytes Nsight Compute counts
# for one call, the code's and the vendor's. It runs `build/IMPL/labNN run
# --part PART --n N [--param PARAM] --reps 1` under ncu, which collects
# dram__bytes_read.sum and dram__bytes_write.sum of every kernel, with the
# caches flushed before each (ncu's --cache-control all: no reuse between
# kernels, the roof's own assumption; CACHE=none keeps what the L2 holds, as
# a real run does, and so may count less near the L2's size). Each variant is
# called three times (the check, the warm-up, the timed call): the bytes of
# a call are a third of its kernels' sum. The vendor's kernels are told by
# name (cub, cusparse, thrust, and lab 07's keys_k); the harness's own
# (hold_k) are left out. Prints each side's bytes, its roof's and their
# ratio, the bytes read and written apart. The ncu report stays in
# build/bench/roofs-LAB-PART-N.csv, with a row a side in the .tsv beside
# it: lab, part, side, n, param, cache, kernels a call, bytes read, bytes
# written, the roof's bytes, their ratio, the formula (the columns of
# plots/data/roofs-ncu-*.tsv). REPORT_ONLY=1 reports those files again
# without running anything. IMPL defaults to solutions. Needs ncu (Nsight
# Compute) and a GPU; a benchmark, not a test. What it found on an H200
# is in docs/roofs.md: the reads match the formulas, and a kernel's last
# writes, up to about 28 MB, are still in the L2 when it ends, outside
# ncu's count.
set -eu
cd "$(dirname "$0")/../.."
die() { echo "bench_roofs_ncu: $*" >&2; exit 2; }
usage="usage: tests/bench/bench_roofs_ncu.sh LAB PART N [PARAM]"
lab=${1:?$usage} part=${2:?$usage} n=${3:?$usage} param=${4:-}
bin=build/${IMPL:-solutions}/lab$lab
if [ "${REPORT_ONLY:-0}" != 1 ]; then
    command -v ncu >/dev/null 2>&1 || die "ncu (Nsight Compute) not found on PATH"
    [ -x "$bin" ] || die "no '$bin' (run make first)"
fi
sel=(--part "$part" --n "$n")
[ -z "$param" ] || sel+=(--param "$param")
out=build/bench/roofs-$lab-$part-${n//^/}
mkdir -p build/bench
if [ "${REPORT_ONLY:-0}" != 1 ]; then
"$bin" roofs "${sel[@]}" >"$out.roofs" || die "'$bin roofs ${sel[*]}' failed"
PRIMLAB_WORKER_PROFILE=1 PRIMLAB_TIMEOUT=${PRIMLAB_TIMEOUT:-3600} \
    ncu --target-processes all --clock-control none --cache-control "${CACHE:-all}" \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum --csv --page raw --print-units base \
    --log-file "$out.csv" "$bin" run "${sel[@]}" --reps 1 >"$out.run" 2>&1 ||
    die "ncu failed: $(tail -n 3 "$out.run")"
fi
[ -s "$out.csv" ] && [ -s "$out.roofs" ] || die "no '$out.csv' or '$out.roofs' to report"
python3 - "$out.csv" "$out.roofs" "$lab" "$part" "$n" "${param:--}" "${CACHE:-all}" <<'EOF' | tee "$out.txt"
import csv, re, sys
report, roofs, lab, part, n, param, cache = sys.argv[1:]
vendor = re.compile(r"cub|CUB|cusparse|thrust|\bkeys_k\b")
ours = re.compile(r"\bhold_k\b")
sums = {s: [0.0, 0.0] for s in ("code", "vendor")}
kernels = {"code": 0, "vendor": 0}
with open(report) as f:
    rows = [r for r in csv.reader(line for line in f if line.startswith('"'))]
head = rows[0]
name, rd, wr = head.index("Kernel Name"), head.index("dram__bytes_read.sum"), head.index("dram__bytes_write.sum")
for r in rows[1:]:
    try:
        b = (float(r[rd].replace(",", "")), float(r[wr].replace(",", "")))
    except ValueError:  # the units line
        continue
    if ours.search(r[name]):
        continue
    side = "vendor" if vendor.search(r[name]) else "code"
    sums[side][0] += b[0]
    sums[side][1] += b[1]
    kernels[side] += 1
roof = {}
with open(roofs) as f:
    for r in csv.DictReader(f, delimiter="\t"):
        roof["code" if r["who"] == "taught" else "vendor"] = (float(r["bytes"]), r["formula"])
print(f"lab{lab} ({part}) n = {n}: DRAM bytes of one call (ncu, a third of 3 calls) against its roof")
# a row a side, for plots/data/roofs-ncu-*.tsv (its columns: the header above)
tsv = []
for side in ("code", "vendor"):
    rd_b, wr_b = (x / 3 for x in sums[side])
    got = rd_b + wr_b
    if side not in roof or roof[side][0] != roof[side][0]:
        print(f"  {side:6s} {got / 1e6:10.1f} MB in {kernels[side]} kernels; no roof stated")
        continue
    want, formula = roof[side]
    print(f"  {side:6s} read {rd_b / 1e6:9.1f} MB + written {wr_b / 1e6:8.1f} MB = {got / 1e6:9.1f} MB"
          f" in {kernels[side]} kernels; roof {want / 1e6:.1f} MB ({formula}): {got / want:.3f} of it")
    tsv.append(f"{lab}\t{part}\t{side}\t{n}\t{param}\t{cache}\t{kernels[side] // 3}\t{rd_b:.0f}\t{wr_b:.0f}\t{want:.0f}\t{got / want:.3f}\t{formula}")
with open(report[:-len(".csv")] + ".tsv", "w") as f:
    f.write("".join(t + "\n" for t in tsv))
EOF
