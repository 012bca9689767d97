#!/usr/bin/env bash
# tests/budget.sh RUN SECONDS [TIMES]: the run RUN (a line of tests/budget)
# took SECONDS of wall time: say whether that is within its budget (the
# column for this machine: a GPU the kit sees, or none). TIMES, a table of
# seconds by step (tests/run.sh's NAME.times.tsv: name first, seconds
# third; or .ci/run's: name, seconds), names the three slowest when over.
# Exit status 0 within the budget or with none for RUN here, 3 over it (a
# warning), 1 over twice (a failure), 2 for a usage error.
set -u
cd "$(dirname "$0")/.." || exit 2
run=${1:-} secs=${2:-} times=${3:-}
[ -n "$run" ] && [ -n "$secs" ] || { echo "usage: tests/budget.sh RUN SECONDS [TIMES]" >&2; exit 2; }
col=2 where="without a GPU"
if [ -z "${PRIMLAB_NO_GPU:-}" ] && command -v nvidia-smi >/dev/null 2>&1 &&
    timeout 60 nvidia-smi -L 2>/dev/null | grep -q '^GPU [0-9]'; then
    col=3 where="with a GPU"
fi
budget=$(awk -v r="$run" -v c="$col" '!/^#/ && $1 == r { print $c; exit }' tests/budget)
case "$budget" in
"" | -) echo "budget: none for '$run' $where (tests/budget)"; exit 0 ;;
esac
slowest() {
    [ -n "$times" ] && [ -f "$times" ] || return 0
    awk -F '\t' 'NR > 1 { print (NF >= 3 ? $3 : $2) "\t" $1 }' "$times" | sort -t $'\t' -k1,1gr | head -n 3 |
        awk -F '\t' '{ printf "%s%s %.0f s", (NR > 1 ? ", " : ""), $2, $1 }'
}
if awk -v s="$secs" -v b="$budget" 'BEGIN { exit !(s <= b) }'; then
    echo "budget: $run took $secs s of its $budget s $where: within"
    exit 0
fi
if awk -v s="$secs" -v b="$budget" 'BEGIN { exit !(s <= 2 * b) }'; then
    echo "budget: !!! WARNING: $run took $secs s, over its budget of $budget s $where (tests/budget);" \
        "the slowest: $(slowest)"
    exit 3
fi
echo "budget: !!! FAILED: $run took $secs s, over twice its budget of $budget s $where (tests/budget);" \
    "the slowest: $(slowest)"
exit 1
