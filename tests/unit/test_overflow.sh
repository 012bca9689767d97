#!/usr/bin/env bash
# tests/unit/test_overflow.sh: no int overflow in the host code that sizes the
# launches of each lab's solution, up to the contract's largest n (labs 01
# to 05 and 09; 06 to 08 not yet).
#
# Each solution is built with tests/unit/overflow_driver.cu under UBSan
# (signed-integer-overflow, stopping at the first report) and run with no
# device visible: every launch fails at once, and what is checked is the
# arithmetic before it. A planted copy of the old lab 01 block count,
# (n + b - 1) / b in int, must be caught, so that the test cannot
# pass for want of a sanitizer. The GPU side of the same question, a size
# within 1024 of the limit run for real, is the limit test of `make check`.
#
#   tests/unit/test_overflow.sh [IMPL]     IMPL: solutions (default) or labs
set -u
cd "$(dirname "$0")/../.."
impl=${1:-solutions}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
    echo "SKIP: test_overflow: nvcc not found; not counted as passed"
    exit 0
fi
out=build/overflow
mkdir -p "$out"
# host-side sanitizing only; the device code, never run here, as PTX alone
# (no machine code: a third less time than one architecture)
flags=(-std=c++17 -O1 -gencode arch=compute_75,code=compute_75 -Xcompiler -fsanitize=signed-integer-overflow,-fno-sanitize-recover=all
       -Xlinker -lubsan)
pass=0 fail=0
run() { # run NAME BINARY: passes when it prints its line and UBSan says nothing
    if CUDA_VISIBLE_DEVICES= UBSAN_OPTIONS=print_stacktrace=0 "$2" >"$out/$1.log" 2>&1 &&
        ! grep -q "runtime error" "$out/$1.log"; then
        pass=$((pass + 1)); echo "ok: $1"
    else
        fail=$((fail + 1)); echo "FAIL: $1: $(grep -m1 'runtime error' "$out/$1.log" || tail -n 1 "$out/$1.log")"
    fi
}
for dir in labs/0[1-59]-*/; do
    lab=$(basename "$dir"); nn=${lab%%-*}
    src=$(ls "$impl/$lab"/*.cu 2>/dev/null | head -n 1)
    [ -n "$src" ] || { echo "SKIP: $lab: no $impl/$lab/*.cu"; continue; }
    if "$nvcc" "${flags[@]}" -DLAB=$((10#$nn)) -I"$dir" -I"$impl/$lab" "$src" tests/unit/overflow_driver.cu \
        -o "$out/lab$nn" >"$out/lab$nn.build" 2>&1; then
        run "lab$nn ($impl)" "$out/lab$nn"
    else
        fail=$((fail + 1)); echo "FAIL: lab$nn ($impl) does not build: $(grep -m1 error "$out/lab$nn.build")"
    fi
done
# the planted overflow: the test must see it
if [ ! -f solutions/01-prefix-sum/prefix_sum.cu ]; then
    echo "SKIP: planted overflow: no solutions/ here (a handout?)"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]; exit
fi
sed 's|int blocks = (int)(((long)n + b - 1) / b);|int blocks = (n + b - 1) / b;|' \
    solutions/01-prefix-sum/prefix_sum.cu >"$out/planted.cu"
if ! grep -q "int blocks = (n + b - 1) / b;" "$out/planted.cu"; then
    fail=$((fail + 1)); echo "FAIL: planted overflow: the solution's block count line moved; update the sed above"
elif "$nvcc" "${flags[@]}" -DLAB=1 -Ilabs/01-prefix-sum "$out/planted.cu" tests/unit/overflow_driver.cu \
    -o "$out/planted" >"$out/planted.build" 2>&1; then
    if CUDA_VISIBLE_DEVICES= "$out/planted" >"$out/planted.log" 2>&1 || ! grep -q "runtime error: signed integer overflow" "$out/planted.log"; then
        fail=$((fail + 1)); echo "FAIL: planted overflow not caught (is UBSan working?)"
    else
        pass=$((pass + 1)); echo "ok: planted overflow caught: $(grep -m1 -o 'runtime error.*' "$out/planted.log")"
    fi
else
    fail=$((fail + 1)); echo "FAIL: planted overflow does not build"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
