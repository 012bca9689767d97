/* labs/02-blelloch-scan/blelloch_scan.cu: YOUR lab 02 code, the
 * work-efficient (Blelloch) scan.
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=02                          score every test
 *   build/labs/lab02 check --part b --n 1025   one test, with its diagnosis
 *   build/labs/lab02 run                       time it against lab 01, the CPU and CUB
 *   build/labs/lab02 warps                     part (w): how often each warp scan is wrong
 */
#include "blelloch_scan.h"

#include <cuda_runtime.h>

/* Part (a): global memory, one launch per tree level. */
extern "C" void scan_blelloch_global(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab02): copy d_in into d_scratch padded with zeros to a power of
     * two, up-sweep, clear the root, down-sweep, copy n results to d_out.
     * README section "Part (a)". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (b): shared memory, with a chosen number of threads per block. */
extern "C" void scan_blelloch_shared_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    /* TODO(lab02): a kernel that scans a tile of 2 * threads elements in
     * shared memory (up-sweep and down-sweep), the tile totals scanned
     * recursively, and added back. README section "Part (b)". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch, (void)threads;
}

/* Part (b) with your best block size. */
extern "C" void scan_blelloch_shared(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab02): call scan_blelloch_shared_threads with the block size your
     * block-size experiment found best. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (c): inclusive, from (b). */
extern "C" void scan_blelloch_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab02): README section "Part (c)". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (w): warp-synchronous code, README section "Part (w)". The two
 * unsafe versions below are given, complete and never graded: study them, run
 * them with `build/labs/lab02 warps` and under racecheck, then write
 * scan_warp_safe at the end of this file. Unlike the stubs above, they launch
 * kernels. */

/* ---------------------------------------------- given code, never graded */

#define WARP_THREADS 256 /* threads per block of the warp scans: 8 warps, one segment each */

/* Version 0, as the pre-Volta textbooks wrote it. Each step reads a
 * neighbour's slot and writes its own, with nothing in between: right only if
 * every lane of the warp does the step's read before any lane does its write,
 * that is, only if the 32 lanes run in lockstep. `volatile` makes each access
 * go to shared memory, in program order; nothing makes a lane wait for the
 * others. Lanes past n scan zeros and store nothing. */
__global__ void warp_scan_k0_unsafe(const int *in, int *out, long n)
{
    volatile __shared__ int s[WARP_THREADS];
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x, lane = t % 32;
    s[t] = i < n ? in[i] : 0;
    if (lane >= 1)
        s[t] += s[t - 1];
    if (lane >= 2)
        s[t] += s[t - 2];
    if (lane >= 4)
        s[t] += s[t - 4];
    if (lane >= 8)
        s[t] += s[t - 8];
    if (lane >= 16)
        s[t] += s[t - 16];
    if (i < n)
        out[i] = s[t];
}

/* Version 1: version 0 without `volatile`. Nothing here tells the compiler
 * that another thread writes s[t - 1] .. s[t - 16], so it may keep s[t] in a
 * register and read the neighbours whenever it likes, even before this lane
 * has stored its own element (nvcc 13.0 for sm_90 does just that). */
__global__ void warp_scan_k1_novolatile(const int *in, int *out, long n)
{
    __shared__ int s[WARP_THREADS];
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x, lane = t % 32;
    s[t] = i < n ? in[i] : 0;
    if (lane >= 1)
        s[t] += s[t - 1];
    if (lane >= 2)
        s[t] += s[t - 2];
    if (lane >= 4)
        s[t] += s[t - 4];
    if (lane >= 8)
        s[t] += s[t - 8];
    if (lane >= 16)
        s[t] += s[t - 16];
    if (i < n)
        out[i] = s[t];
}

/* one thread per element, in whole blocks: a grid that n = BS_MAX_N fits */
static unsigned warp_blocks(int n) { return (unsigned)(((long)n + WARP_THREADS - 1) / WARP_THREADS); }

extern "C" void scan_warp_unsafe(const int *d_in, int *d_out, int n)
{
    if (n > 0)
        warp_scan_k0_unsafe<<<warp_blocks(n), WARP_THREADS>>>(d_in, d_out, n);
}

extern "C" void scan_warp_unsafe_novolatile(const int *d_in, int *d_out, int n)
{
    if (n > 0)
        warp_scan_k1_novolatile<<<warp_blocks(n), WARP_THREADS>>>(d_in, d_out, n);
}

/* ------------------------------------------------- end of the given code */

/* Part (w): the same segmented scan, right on every GPU. */
extern "C" void scan_warp_safe(const int *d_in, int *d_out, int n)
{
    /* TODO(lab02): version 0 made safe: a kernel in which no lane reads a
     * slot that another lane writes, or writes a slot that another lane
     * reads, without a __syncwarp() between the two; a comment at each
     * __syncwarp() saying which hazard it removes. README section
     * "Part (w)". */
    (void)d_in, (void)d_out, (void)n;
}
