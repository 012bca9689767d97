#!/usr/bin/env bash
# tests/unit/test_alloc_wrap.sh: a submission's cudaMalloc reaches the worker's
# counting wrapper (harness/worker/allocs.cu, issue 18). Needs no GPU.
#
#   1. make builds lab 01's worker from a submission that allocates in
#      every call (lab 01's stub with cudaMalloc and cudaFree in its entry
#      points, written here: the test needs nothing the student handout
#      leaves out), laid out like labs/, as `make check IMPL=...` builds it,
#      through the Makefile's own rules;
#   2. the submission's object names the runtime's functions as wrapped
#      (cudaMalloc, cudaFree: no _v2 or _ptsz name the link would miss);
#   3. in the linked worker every wrapper is a global definition, and the
#      submission's functions call __wrap_cudaMalloc and __wrap_cudaFree,
#      never the runtime's own;
#   4. the wrappers count only inside a watched window, and not what the
#      harness pauses for (a small program built with allocs.cu and the same
#      --wrap flags; without a device each call fails, and is still a call).
#
#   tests/unit/test_alloc_wrap.sh
set -u
cd "$(dirname "$0")/../.."
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
    echo "SKIP: test_alloc_wrap: nvcc not found; not counted as passed"
    exit 0
fi
t=$(mktemp -d)
tag=impl-${t//\//-}
trap 'rm -rf "$t" "build/$tag"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok $((pass + fail)) - $1"; }

# the functions allocs.cu wraps, read as the Makefile reads them
mapfile -t fns < <(grep -o '__wrap_cuda[A-Za-z0-9_]*' harness/worker/allocs.cu | sort -u | sed 's/^__wrap_//')

# 1. the worker, by make
mkdir -p "$t/01-prefix-sum"
{
    echo '#include <cuda_runtime.h>'
    echo 'static void alloc_and_free(void) { void *p[2]; cudaMalloc(&p[0], 64); cudaMalloc(&p[1], 64); cudaFree(p[0]); cudaFree(p[1]); }'
    sed 's/^\(    (void)d_in, .*\)$/\1 alloc_and_free();/' labs/01-prefix-sum/prefix_sum.cu
} >"$t/01-prefix-sum/prefix_sum.cu"
worker=build/$tag/lab01-worker obj=build/$tag/obj/01-prefix-sum/prefix_sum.o
if make -s IMPL="$t" "$worker" >"$t/make.log" 2>&1 && [ -x "$worker" ]; then
    ok "lab 01's worker links the allocating submission with the wrapped allocation functions"
else
    not_ok "lab 01's worker does not build from the allocating submission:"
    tail -n 15 "$t/make.log" | sed 's/^/    /'
    echo "alloc_wrap: $pass passed, $fail failed"
    exit 1
fi

# 2. the names the submission's object references
undef=$(nm -u "$obj" | awk '{ print $2 }')
if grep -qx cudaMalloc <<<"$undef" && grep -qx cudaFree <<<"$undef"; then
    ok "the submission's object references cudaMalloc and cudaFree by those names"
else
    not_ok "the submission's object references $(grep -E 'Malloc|Free' <<<"$undef" | tr '\n' ' '), not cudaMalloc and cudaFree"
fi
for f in $(grep -E '^cuda.*(Malloc|Free|Alloc)' <<<"$undef"); do
    printf '%s\n' "${fns[@]}" | grep -qx "$f" || not_ok "the submission calls $f, which allocs.cu does not wrap"
done

# 3. the wrappers, global in the worker, and the calls the submission makes
defined=$(nm -g --defined-only "$worker" | awk '$2 == "T" { print $3 }')
missing=$(for f in "${fns[@]}"; do grep -qx "__wrap_$f" <<<"$defined" || echo "__wrap_$f"; done)
if [ ${#fns[@]} -gt 0 ] && [ -z "$missing" ]; then
    ok "the worker defines ${#fns[@]} wrappers, global (__wrap_cudaMalloc ...)"
else
    not_ok "the worker lacks global wrappers: ${missing:-allocs.cu names none}"
fi
# the call targets inside the submission's own functions (its text symbols)
nm --defined-only "$obj" | awk '$2 ~ /^[Tt]$/ { print $3 }' | sort -u >"$t/mine"
objdump -d --no-show-raw-insn "$worker" | awk -v list="$t/mine" '
    BEGIN { while ((getline s < list) > 0) mine[s] = 1 }
    /^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
    (fn in mine) && /call/ && match($0, /<[^>]*>/) { print substr($0, RSTART + 1, RLENGTH - 2) }' | sort -u >"$t/calls"
for f in cudaMalloc cudaFree; do
    if grep -qx "__wrap_$f" "$t/calls" && ! grep -qE "^$f(@plt)?$" "$t/calls"; then
        ok "the submission's $f calls reach __wrap_$f"
    else
        not_ok "the submission's $f calls go to: $(grep -E "$f" "$t/calls" | tr '\n' ' ')"
    fi
done

# 4. counting only inside the window
cat >"$t/count.cu" <<'EOF'
#include "allocs.h"
#include <cuda_runtime.h>
#include <stdio.h>
int main(void)
{
    void *p = NULL;
    cudaMalloc(&p, 64); /* the harness's, before the call */
    pl_alloc_watch_begin();
    cudaMalloc(&p, 64);
    cudaMalloc(&p, 64);
    cudaFree(NULL);
    cudaMallocHost(&p, 64);
    int was = pl_alloc_pause(); /* a lent function's storage */
    cudaMalloc(&p, 64);
    pl_alloc_resume(was);
    pl_alloc_tally t;
    pl_alloc_watch_end(&t);
    cudaFree(NULL); /* after the call */
    printf("%d %d %d %s\n", t.calls[PL_AF_MALLOC], t.calls[PL_AF_FREE], t.calls[PL_AF_MALLOC_HOST],
           t.ms >= 0 ? "ms" : "negative ms");
    return 0;
}
EOF
wrap=()
for f in "${fns[@]}"; do wrap+=(-Xlinker "--wrap=$f"); done
if ! "$nvcc" -std=c++17 -arch=sm_75 -Iharness/worker "$t/count.cu" harness/worker/allocs.cu "${wrap[@]}" \
    -o "$t/count" >"$t/count.log" 2>&1; then
    not_ok "the counting program does not build:"
    tail -n 10 "$t/count.log" | sed 's/^/    /'
elif got=$(CUDA_VISIBLE_DEVICES= "$t/count") && [ "$got" = "2 1 1 ms" ]; then
    ok "counted inside the window only: 2 cudaMalloc, 1 cudaFree, 1 cudaMallocHost"
else
    not_ok "counted '$got' (cudaMalloc cudaFree cudaMallocHost), expected '2 1 1 ms'"
fi

echo "alloc_wrap: $pass passed, $fail failed"
[ $fail = 0 ]
