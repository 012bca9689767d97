/* tests/bench/bench_common.cuh: what the knob sweeps of tests/bench_lab*_knobs.cu
 * share: CK (a CUDA call that must succeed, else the program stops with
 * its name, BENCH_NAME, which the includer defines first), the copy kernel
 * of the roof, random words, a count of differing words, and the median of
 * timed calls.
 * Benchmarks, not tests: `make test` builds none of them. */
#ifndef PRIMLAB_BENCH_COMMON_CUH
#define PRIMLAB_BENCH_COMMON_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#ifndef BENCH_NAME
#error "define BENCH_NAME (the program's name, for its error messages) before including bench_common.cuh"
#endif

#define CK(call)                                                                                                 \
    do {                                                                                                         \
        cudaError_t e_ = (call);                                                                                 \
        if (e_ != cudaSuccess) {                                                                                 \
            fprintf(stderr, "%s: %s: %s\n", BENCH_NAME, #call, cudaGetErrorString(e_));                         \
            exit(1);                                                                                             \
        }                                                                                                        \
    } while (0)

/* The copy of n4 groups of 16 bytes, grid-strided: the roof of a pass. */
__global__ void copy_k(const uint4 *in, uint4 *out, long n4)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x)
        out[i] = in[i];
}

/* How many of the n words of a and b differ, added into *bad. */
__global__ void differ_k(const unsigned *a, const unsigned *b, long n, unsigned long long *bad)
{
    unsigned long long c = 0;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        c += a[i] != b[i];
    if (c)
        atomicAdd(bad, c);
}

/* Random words (a hash of the index and a seed): sums wrap. */
__global__ void fill_words_k(unsigned *a, long n, unsigned seed)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        a[i] = x;
    }
}

/* How many of n words a call under test gets wrong: fresh random words into
   in, the right result into ref by reference(), out poisoned with 0xA5
   bytes one word past n too, then call(); the words of out that differ
   from ref, plus one when the word past n was written. bad: a device
   counter to use. */
template <class R, class F>
static long bench_differences(unsigned *in, unsigned *out, const unsigned *ref, long n, unsigned long long *bad,
                              R reference, F call)
{
    fill_words_k<<<1024, 256>>>(in, n, (unsigned)n * 7919u + 1);
    reference();
    CK(cudaMemset(out, 0xA5, (size_t)n * 4 + 4));
    call();
    CK(cudaGetLastError());
    unsigned past;
    CK(cudaMemcpy(&past, out + n, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemset(bad, 0, 8));
    differ_k<<<1024, 256>>>(out, ref, n, bad);
    unsigned long long count;
    CK(cudaMemcpy(&count, bad, 8, cudaMemcpyDeviceToHost));
    return (long)count + (past != 0xA5A5A5A5u);
}

/* The median of reps timed calls of f() (CUDA events on the default
   stream), after two calls to warm up; before(r) runs, untimed, before
   timed call r (a flush of the L2, say). */
template <class F, class B> static float median_ms_after(F f, int reps, B before)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    f(), f();
    std::vector<float> ms;
    for (int r = 0; r < reps; r++) {
        before(r);
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float t;
        CK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

template <class F> static float median_ms(F f, int reps)
{
    return median_ms_after(f, reps, [](int) {});
}

#endif
