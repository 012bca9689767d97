#!/usr/bin/env bash
# tests/bench/bench_grade_jobs.sh [GRADES]: make grade JOBS=1 against JOBS=2 on a
# machine with two GPUs or more (issue 17), in one run: eight lab-01
# submissions (two copies of the solution, the stub, and five of the
# planted bugs of tests/fixtures/plants, set class: a kernel fault, a write past the
# end, a host segfault, a slow scan, a compile error), graded by
#   make grade SUBMISSIONS=... GRADES=GRADES/jobs1 JOBS=1
#   make grade SUBMISSIONS=... GRADES=GRADES/jobs2 JOBS=2
# after one warm-up grading (the grading kit built, so that neither run
# pays for it). Prints each run's wall time, each student's seconds (from
# the record, .graded.tsv) and points in both, and checks that every
# student's correctness rows (test, status, points) are the same in both
# gradebooks; performance points may differ a little (timing noise). Exit
# status 0 when they are the same, 1 when not, 2 when this machine cannot
# run it (fewer than two GPUs, no bwrap, no solutions/). A few minutes on
# two H100s. GRADES defaults to build/bench-grade-jobs (kept, to read).
# PRIMLAB_NO_GPU=1 PRIMLAB_GPUS="0 1": a dry run of the script itself on a
# machine without GPUs (every test scores 0; the times mean nothing).
set -u
cd "$(dirname "$0")/../.." || exit 2
out=$(realpath -m "${1:-build/bench-grade-jobs}")
die() { echo "bench_grade_jobs: $*" >&2; exit 2; }
unset PRIMLAB_SEED JOBS SLURM
export PRIMLAB_LIMITS=0 PRIMLAB_TIMEOUT=${PRIMLAB_TIMEOUT:-10}

[ -d solutions ] || die "needs solutions/ (the submissions are made from lab 01's)"
if [ "${PRIMLAB_NO_GPU:-0}" = 1 ]; then
    [ "$(wc -w <<<"${PRIMLAB_GPUS:-}")" -ge 2 ] || die "a dry run (PRIMLAB_NO_GPU=1) needs two GPU ids named: PRIMLAB_GPUS=\"0 1\""
    echo "a dry run: PRIMLAB_NO_GPU=1, GPUs named $PRIMLAB_GPUS (every test scores 0)"
else
    unset PRIMLAB_GPUS
    ngpu=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c '^ *[0-9]')
    [ "$ngpu" -ge 2 ] || die "needs two GPUs; nvidia-smi lists ${ngpu:-none}"
    nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | sed 's/^/GPU /'
fi

rm -rf "$out" && mkdir -p "$out/planted" "$out/subs" "$out/warm" || exit 2
tests/gpu/plant.sh make "$out/planted" class >/dev/null || die "tests/gpu/plant.sh make failed"
for c in oob_fault past_end host_segv slow no_compile; do
    [ -d "$out/planted/$c" ] || die "no planted case '$c'"
    cp -r "$out/planted/$c" "$out/subs/$c"
done
for c in sol_a sol_b; do
    mkdir -p "$out/subs/$c/01-prefix-sum" && cp solutions/01-prefix-sum/prefix_sum.cu "$out/subs/$c/01-prefix-sum/"
done
mkdir -p "$out/subs/stub/01-prefix-sum" && cp labs/01-prefix-sum/prefix_sum.cu "$out/subs/stub/01-prefix-sum/"
mkdir -p "$out/warm/stub" && cp -r "$out/subs/stub/." "$out/warm/stub/"
students=$(ls "$out/subs")

echo "== warm-up: the grading kit built, one student graded (not timed)"
make -s --no-print-directory grade SUBMISSIONS="$out/warm" GRADES="$out/grades-warm" JOBS=1 >"$out/warm.log" 2>&1 ||
    die "the warm-up grading failed: $(tail -n 2 "$out/warm.log" | paste -sd ' ')"
declare -A wall=()
for j in 1 2; do
    echo "== make grade JOBS=$j over $(wc -w <<<"$students") submissions"
    s=$(date +%s.%N)
    make -s --no-print-directory grade SUBMISSIONS="$out/subs" GRADES="$out/jobs$j" JOBS=$j >"$out/jobs$j.log" 2>&1
    rc=$?
    wall[$j]=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    grep -E '^grading |^graded ' "$out/jobs$j.log" | sed 's/^/   /'
    echo "   wall time: ${wall[$j]} s (exit status $rc; log: $out/jobs$j.log)"
    [ $rc -le 1 ] || die "make grade JOBS=$j failed (status $rc)"
done
awk -v a="${wall[1]}" -v b="${wall[2]}" 'BEGIN { printf "== JOBS=2 took %.2f of the time of JOBS=1 (%.2fx faster)\n", b / a, a / b }'

# points KIND GRADES STUDENT: the student's points of that kind
points() { awk -F '\t' -v k="$1" '$3 == k { s += $6 } END { printf "%g", s }' "$2/$3/scores.tsv" 2>/dev/null; }
secs() { awk -F '\t' -v n="$2" '$1 == n { s = $9; g = $5 } END { printf "%s s (GPU %s)", s, g }' "$1/.graded.tsv"; }
printf '%-11s %-19s %-19s %-17s %s\n' student "JOBS=1 time" "JOBS=2 time" "correctness 1 / 2" "performance 1 / 2"
same=1
for who in $students; do
    c1=$(points correctness "$out/jobs1" "$who") c2=$(points correctness "$out/jobs2" "$who")
    printf '%-11s %-19s %-19s %-17s %s\n' "$who" "$(secs "$out/jobs1" "$who")" "$(secs "$out/jobs2" "$who")" \
        "$c1 / $c2" "$(points performance "$out/jobs1" "$who") / $(points performance "$out/jobs2" "$who")"
    if ! cmp -s <(awk -F '\t' '$3 == "correctness"' "$out/jobs1/$who/scores.tsv" | cut -f 1-7) \
        <(awk -F '\t' '$3 == "correctness"' "$out/jobs2/$who/scores.tsv" | cut -f 1-7); then
        same=0
        echo "   $who: correctness rows differ:"
        diff <(awk -F '\t' '$3 == "correctness"' "$out/jobs1/$who/scores.tsv" | cut -f 2,5,6) \
            <(awk -F '\t' '$3 == "correctness"' "$out/jobs2/$who/scores.tsv" | cut -f 2,5,6) | head -n 6 | sed 's/^/      /'
    fi
done
awk -F '\t' '{ n++; s += $9 } END { if (n) printf "mean GPU time per student (JOBS=1): %.1f s over %d students\n", s / n, n }' \
    "$out/jobs1/.graded.tsv"
echo "gradebooks: $out/jobs1/gradebook.csv $out/jobs2/gradebook.csv"
if [ $same = 1 ]; then
    echo "correctness: the same in both gradebooks, every student, every test"
    exit 0
fi
echo "correctness: DIFFERS between JOBS=1 and JOBS=2 (above)"
exit 1
