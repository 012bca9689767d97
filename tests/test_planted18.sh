#!/usr/bin/env bash
# tests/test_planted18.sh: the classes of bugs that real students' code showed
# the grader (issue 18), each planted in a submission written as students
# write (tests/planted18/student01.cu, one switch per class; lab 04's solution
# with its count or its rule changed; tests/planted18/alloc_per_call), graded
# with harness/check.sh, and the line each must get asserted: its class named
# in the first line of the diagnosis. Prints `class OK|FAIL|SKIP line`, then
# `N passed, N failed`; needs a GPU (without one every case says SKIP).
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0 fail=0 skip=0
t=$(mktemp -d /tmp/primlab-planted18.XXXXXX) || exit 2
trap 'rm -rf "$t"; rm -rf build/impl-*primlab-planted18.*' EXIT
make -s --no-print-directory build/primlab-results >/dev/null 2>&1 || { echo "test_planted18: make failed" >&2; exit 2; }
if ! build/solutions/lab01 info >/dev/null 2>&1; then
    echo "SKIP: planted bugs of issue 18: no GPU; not counted as passed"
    exit 0
fi

# stage CLASS LABDIR FILE SRC [SED]: the submission t/CLASS/LABDIR/FILE from SRC
stage() {
    mkdir -p "$t/$1/$2" && if [ -n "${5:-}" ]; then sed -e "$5" "$4" >"$t/$1/$2/$3"; else cp "$4" "$t/$1/$2/$3"; fi
}
# grade CLASS LAB: check.sh's report and scores of the class
grade() {
    local s=$SECONDS
    CHECK_OUT="$t/out-$1" PRIMLAB_LIMITS=0 harness/check.sh "$t/$1" "$2" >"$t/$1.txt" 2>&1
    echo $((SECONDS - s)) >"$t/$1.seconds"
}
# expect CLASS PATTERN: a reason (or a line of the report) matching PATTERN
expect() {
    local line
    line=$({ cut -f 10,11 "$t/out-$1/scores.tsv" | sed "s/\\\\n/\\n/g" 2>/dev/null; cat "$t/$1.txt"; } | grep -E -m 1 -- "$2")
    if [ -n "$line" ]; then
        printf '%-16s OK    %s\n' "$1" "$(cut -c 1-190 <<<"$line")"
        pass=$((pass + 1))
    else
        printf '%-16s FAIL  no line matching /%s/; first failing reason: %s\n' "$1" "$2" \
            "$(awk -F '\t' '$5 != "OK" { print $2 ": " $10; exit }' "$t/out-$1/scores.tsv" 2>/dev/null | cut -c 1-150)"
        fail=$((fail + 1))
        return 1
    fi
}

s01=tests/planted18/student01.cu
stage clean 01-prefix-sum prefix_sum.cu "$s01"
stage cuda_exit 01-prefix-sum prefix_sum.cu "$s01" 's/^#define PLANT_CUDA_EXIT 0/#define PLANT_CUDA_EXIT 1/'
stage hang_zero 01-prefix-sum prefix_sum.cu "$s01" 's/^#define PLANT_HANG_ZERO 0/#define PLANT_HANG_ZERO 1/'
stage heap 01-prefix-sum prefix_sum.cu "$s01" 's/^#define PLANT_HEAP 0/#define PLANT_HEAP 1/'
stage precedence 01-prefix-sum prefix_sum.cu "$s01" 's/^#define PLANT_PRECEDENCE 0/#define PLANT_PRECEDENCE 1/'
sol04=solutions/04-compaction/compaction.cu
stage count 04-compaction compaction.cu "$sol04" 's/^    return k;$/    return k + 1;/'
stage keep_nonzero 04-compaction compaction.cu "$sol04" 's/in\[i\] > 0;/in[i] != 0;/; s/v\[r\] > 0)/v[r] != 0)/'
[ -f tests/planted18/alloc_per_call/01-prefix-sum/prefix_sum.cu ] &&
    cp -r tests/planted18/alloc_per_call "$t/alloc_per_call"

for c in clean cuda_exit hang_zero heap precedence alloc_per_call; do [ -d "$t/$c" ] && grade $c 01; done
for c in count keep_nonzero; do grade $c 04; done

# the planted file without a plant: every correctness test of lab 01 passes
bad=$(awk -F '\t' '$3 == "correctness" && $5 != "OK"' "$t/out-clean/scores.tsv" 2>/dev/null | wc -l)
if [ -s "$t/out-clean/scores.tsv" ] && [ "$bad" = 0 ]; then
    printf '%-16s OK    every correctness test of lab 01 passes without a plant\n' clean; pass=$((pass + 1))
else
    printf '%-16s FAIL  %s correctness tests fail without a plant\n' clean "$bad"; fail=$((fail + 1))
fi
expect cuda_exit '^exited after printing a CUDA error, "invalid (configuration )?argument": at n = 1: a launch of zero blocks'
expect hang_zero '^lab01: parts? .* fails? only for an empty input, n = 0: a loop or log2\(n\) that never ends'
expect precedence '^lab01: part c fails only at even sizes that are not powers of two \(n = 1000, 3145728\): a power-of-two test written n & \(n - 1\) != 0'
# what the hang cost: the tests at n = 0 (the short limit and the restarts)
zs=$(awk -F '\t' '$2 ~ /, n=0($|,| )/ { s += $8 } END { printf "%.1f", s }' "$t/out-hang_zero/scores.tsv" 2>/dev/null)
ok=$(awk -v s="${zs:-99}" 'BEGIN { print (s <= 10) ? "OK" : "FAIL" }')
printf '%-16s %-5s the tests at n = 0 took %s s in all (lab 01 graded in %s s, its compile included)\n' hang_zero \
    "$ok" "$zs" "$(cat "$t/hang_zero.seconds")"
[ "$ok" = OK ] && pass=$((pass + 1)) || fail=$((fail + 1))
# The planted overflow: glibc's own message must name it. (An earlier
# layout of this file, where the overflowed chunk bordered one of the CUDA
# runtime's, aborted on an H100 with no message in the worker's output; if
# that comes back, the worker's log around the test shows what it printed.)
if ! expect heap '^crashed: the C library found its heap corrupted'; then
    hl=$(ls build/impl-*primlab-planted18.*-heap/lab01-worker.log 2>/dev/null | head -1)
    [ -n "$hl" ] && grep -A 4 '^== 01\.c' "$hl" | head -40 | cut -c 1-200 | sed 's/^/    log: /'
fi
expect count '^returned [0-9]+ elements, expected [0-9]+: one too many'
expect keep_nonzero '^kept (zeros and )?negative values, which the contract drops'
if [ -d "$t/alloc_per_call" ]; then
    expect alloc_per_call 'allocates device memory in every call'
fi
expect cuda_exit 'alone, under compute-sanitizer: make && PRIMLAB_WORKER_PROFILE=1 compute-sanitizer --target-processes all build/labs/lab01 check --part [a-z]+ --n [0-9]+'
echo "$pass passed, $fail failed"
[ $fail = 0 ]
