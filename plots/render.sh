#!/usr/bin/env bash
# plots/render.sh LAB [DATAFILE] [OUTDIR]: render every figure of lab LAB
# (each plots/labLAB_*.gp script) from DATAFILE (default plots/data/labLAB.tsv)
# into OUTDIR (default plots/figures) as PNG, SVG and PDF. Run from the top
# of the kit; the Makefile calls it from `make plots` and `make demo`.
# Data named labLAB_GPU.tsv (GPU a letter and digits: lab09_h200.tsv, the
# lab measured on another GPU) gives figures named with it
# (lab09_sweep_h200); the lab's reference data, plots/data/labLAB.tsv,
# brings with it those of other GPUs beside it.
set -euo pipefail
lab=${1:?usage: plots/render.sh LAB [DATAFILE] [OUTDIR]}
data=${2:-plots/data/lab$lab.tsv}
out=${3:-plots/figures}
here=$(cd "$(dirname "$0")" && pwd)

command -v gnuplot >/dev/null 2>&1 || { echo "render.sh: gnuplot not found: run 'make bootstrap'" >&2; exit 1; }
[ -s "$data" ] || { echo "render.sh: no data file '$data'" >&2; exit 1; }
shopt -s nullglob
scripts=("$here"/lab"$lab"_*.gp)
[ ${#scripts[@]} -gt 0 ] || { echo "render.sh: no figure scripts plots/lab${lab}_*.gp" >&2; exit 1; }
mkdir -p "$out"

# Device and roof from the data's metadata comments; style.gp falls back to the rows.
device=$(sed -n 's/^# device: //p' "$data" | head -n 1)
copy=$(sed -n 's/^# copy_gbps: //p' "$data" | head -n 1)
case "$copy" in '' | nan | NaN) copy="NaN" ;; esac
device=${device//\'/}
gpu=$(basename "$data" .tsv)
gpu=${gpu#lab"$lab"}
[[ "$gpu" =~ ^_[a-z][0-9]+$ ]] || gpu=

# A script may draw nothing and say why (a block-size figure from data
# measured before its part existed): then its other formats are not tried.
for s in "${scripts[@]}"; do
    name=$(basename "$s" .gp)$gpu
    for fmt in png svg pdf; do
        rm -f "$out/$name.$fmt"
        gnuplot -e "plotdir='$here'; datafile='$data'; device='$device'; copy_gbps=$copy; fmt='$fmt'; outfile='$out/$name.$fmt'" "$s"
        [ -e "$out/$name.$fmt" ] || break
        echo "  PLOT   $out/$name.$fmt"
    done
done

if [ "$data" -ef "$here/data/lab$lab.tsv" ]; then
    for other in "$(dirname "$data")"/lab"$lab"_[a-z][0-9]*.tsv; do
        if [[ "$(basename "$other")" =~ ^lab${lab}_[a-z][0-9]+\.tsv$ ]]; then
            "$here/render.sh" "$lab" "$other" "$out"
        fi
    done
fi
