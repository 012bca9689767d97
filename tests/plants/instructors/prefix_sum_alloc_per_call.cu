/* tests/plants/instructors/prefix_sum_alloc_per_call.cu: a planted lab 01
 * submission (issue 18, the plant alloc_per_call of
 * tests/plants/01-prefix-sum.plants), written as a student from another
 * course would: every scan is right (the textbook Hillis-Steele in
 * global memory, one launch per step, two buffers taking turns), but every
 * entry point cudaMallocs its own two buffers, copies the result into d_out
 * at the end and cudaFrees them, in every call, and never uses the scratch
 * the harness lends. The time is in the measurement either way; the grader
 * must name where it goes.
 *
 * The grader must give: full correctness points, and under each of the two
 * performance tests (parts b and c, n = 2^24) the line
 *   "the code allocates device memory in every call: 2 cudaMalloc and 2 cudaFree
 *    per call, X ms of the Y ms a call took: allocate once and keep it, or use
 *    the scratch the contract lends"
 * (one line in the report; X and Y the device's). Its performance points
 * are what its time earns: the note changes none.
 *
 *   tests/plant.sh grade alloc_per_call
 */
#include "prefix_sum.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t err_ = (call);                                                              \
        if (err_ != cudaSuccess) {                                                              \
            fprintf(stderr, "CUDA error \"%s\" in %s at %s:%d\n", cudaGetErrorString(err_), #call, \
                    __FILE__, __LINE__);                                                        \
            exit(EXIT_FAILURE);                                                                 \
        }                                                                                       \
    } while (0)

#define THREADS 256

/* One step of the scan: dst[i] = src[i - shift] + src[i - shift - d], a
 * term that falls before the start counting 0; d = 0 adds nothing (a plain
 * copy, or the exclusive scan's shift by one). */
__global__ void hs_step(const int *src, int *dst, long n, long d, int shift)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long a = i - shift;
    int x = a >= 0 ? src[a] : 0;
    if (d > 0 && a - d >= 0)
        x += src[a - d];
    dst[i] = x;
}

/* Scan of n elements with blocks of `threads` (one block for part (a)). */
static void scan(const int *d_in, int *d_out, int n, int exclusive, int threads)
{
    if (n <= 0)
        return;
    size_t bytes = (size_t)n * sizeof(int);
    int *buf[2];
    CHECK(cudaMalloc((void **)&buf[0], bytes));
    CHECK(cudaMalloc((void **)&buf[1], bytes));

    long blocks = ((long)n + threads - 1) / threads;
    /* first a copy of the input (shifted by one for the exclusive scan) */
    hs_step<<<blocks, threads>>>(d_in, buf[0], n, 0, exclusive);
    CHECK(cudaGetLastError());
    int cur = 0;
    for (long d = 1; d < n; d *= 2) {
        hs_step<<<blocks, threads>>>(buf[cur], buf[cur ^ 1], n, d, 0);
        CHECK(cudaGetLastError());
        cur ^= 1;
    }
    CHECK(cudaMemcpy(d_out, buf[cur], bytes, cudaMemcpyDeviceToDevice));

    CHECK(cudaFree(buf[0]));
    CHECK(cudaFree(buf[1]));
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    scan(d_in, d_out, n, 0, PS_BLOCK_MAX);
}

extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    (void)d_scratch; /* my own buffers instead */
    scan(d_in, d_out, n, 0, THREADS);
}

extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    (void)d_scratch;
    scan(d_in, d_out, n, 0, threads);
}

extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    (void)d_scratch;
    scan(d_in, d_out, n, 1, THREADS);
}
