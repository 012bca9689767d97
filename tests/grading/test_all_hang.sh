#!/usr/bin/env bash
# tests/grading/test_all_hang.sh: what a student whose every kernel hangs
# costs a grading run. The submission (tests/lib/all_hang.sh: each lab's
# stub with a kernel that never ends at the top of every entry point) is
# checked lab by lab with a secret seed, as make grade checks a student
# (harness/check.sh). Each part must stop after PL_TIMEOUTS_IN_A_ROW
# timeouts in a row (harness/parent/lab.h), its other tests "not run", so
# that a lab costs about that many time limits a part, not one a test
# (before: 10 s a test at PRIMLAB_TIMEOUT=10, 2084 tests, so the whole
# GRADE_TIMEOUT of 1800 s on one GPU). No plant of tests/gpu/plant.sh
# proves this for every lab: hang_every is lab 01's part b alone.
#
# Per lab: 0 points; no part with more timeouts than the rule allows;
# the tests' seconds within parts x k x PRIMLAB_TIMEOUT (and 5 s a part
# for the restarts); the seconds printed. Without a GPU only the
# submission's shape is checked (an all_hang call in every entry point of
# every lab) and the grading says SKIP.
#
# Environment: PRIMLAB_TIMEOUT (default 10), LABS="01 05" (only these),
# KEEP=1 (keep the scratch folder, with each lab's check.sh output).
# tier: slow (nine labs compiled and graded on a GPU: minutes; make test-slow runs it)
set -u
cd "$(dirname "$0")/../.." || exit 2
per_test=${PRIMLAB_TIMEOUT:-10}
k=$(sed -n 's/^#define PL_TIMEOUTS_IN_A_ROW \([0-9]*\).*/\1/p' harness/parent/lab.h)
[ -n "$k" ] || { echo "test_all_hang: no PL_TIMEOUTS_IN_A_ROW in harness/parent/lab.h" >&2; exit 2; }
t=$(mktemp -d /tmp/primlab-all-hang.XXXXXX) || exit 2
cleanup() {
    rm -rf build/impl-"${t//\//-}"-*
    if [ "${KEEP:-0}" = 1 ]; then echo "kept: $t"; else rm -rf "$t"; fi
}
trap cleanup EXIT
. tests/lib/verdict.sh # say, verdict, finish, has_gpu

tests/lib/all_hang.sh "$t/sub" >"$t/make-sub.log" 2>&1 ||
    { say FAIL "made" "tests/lib/all_hang.sh: $(tail -n 1 "$t/make-sub.log")"; finish; }
labs=()
for dir in "$t"/sub/*/; do
    lab=$(basename "$dir") id=${lab%%-*}
    [ -z "${LABS:-}" ] || grep -qw -- "$id" <<<"$LABS" || continue
    labs+=("$id")
    entries=$(grep -c '^extern "C"' "labs/$lab"/*.cu | awk -F: '{ s += $NF } END { print s }')
    calls=$(cat "$dir"*.cu | grep -c '^{ all_hang();')
    if [ "$entries" -gt 0 ] && [ "$calls" = "$entries" ]; then
        say OK "lab $id made" "all $entries entry points of the stub hang"
    else
        say FAIL "lab $id made" "$calls of the stub's $entries entry points hang"
    fi
done

make -s --no-print-directory build/primlab-results build/tables/lab01 build/labs/lab01 build/labs/lab01-worker \
    >"$t/make.log" 2>&1 || { say FAIL "make" "$(tail -n 3 "$t/make.log" | paste -sd ' ')"; finish; }
if ! has_gpu; then
    say SKIP "graded" "no GPU: grading the hanging submission needs one"
    finish
fi

total_s=0 total_wall=0
for id in "${labs[@]}"; do
    out=$t/out/$id
    SECONDS=0
    env PRIMLAB_SEED=20261129 PRIMLAB_TIMEOUT="$per_test" CHECK_OUT="$out" PRIMLAB_REQUIRE_SANDBOX=1 \
        timeout 1200 harness/check.sh "$t/sub" "$id" >"$t/check-$id.txt" 2>&1
    wall=$SECONDS
    scores=$out/scores.tsv
    if [ ! -s "$scores" ]; then
        say FAIL "lab $id graded" "no scores (check.sh: $(tail -n 1 "$t/check-$id.txt"))"
        continue
    fi
    # per part: its timeouts, the seconds of its tests; the lab's points
    read -r points parts worst worst_part secs <<<"$(awk -F '\t' 'NR > 1 {
            split($2, w, " "); p = w[1]; if (!(p in seen)) { seen[p] = 1; n++ }
            if ($5 == "TIMEOUT") to[p]++
            pts += $6; s += $8 }
        END { m = 0; mp = "-"; for (p in to) if (to[p] > m) { m = to[p]; mp = p }
              printf "%g %d %d %s %.1f\n", pts, n, m, mp, s }' "$scores")"
    bound=$(awk -v p="$parts" -v k="$k" -v t="$per_test" 'BEGIN { printf "%d", p * (k * t + 5) }')
    why=""
    [ "$points" = 0 ] || why="$why; scored $points"
    [ "$worst" -le "$k" ] || why="$why; part $worst_part timed out $worst times (the rule stops a part at $k)"
    awk -v s="$secs" -v b="$bound" 'BEGIN { exit !(s <= b) }' || why="$why; its tests took $secs s, over $bound s"
    grep -q "timed out $k times in a row" "$scores" || why="$why; no test 'not run: ... timed out $k times in a row'"
    if [ -z "$why" ]; then
        say OK "lab $id graded" "0 points; $parts parts, at most $worst timeouts in one; tests ${secs} s (bound $bound), check.sh ${wall} s"
    else
        verdict "lab $id graded" "$why (check.sh ${wall} s)" "$t/check-$id.txt"
    fi
    total_s=$(awk -v a="$total_s" -v b="$secs" 'BEGIN { print a + b }')
    total_wall=$((total_wall + wall))
done
echo "all labs: the tests ${total_s} s, check.sh ${total_wall} s with its compiles (PRIMLAB_TIMEOUT=$per_test, $k timeouts in a row stop a part)"
finish
