/* solutions/02-blelloch-scan/blelloch_scan.cu: instructor solution of lab 02.
 *
 * (a) the global-memory Blelloch scan: pad to a power of two m in scratch,
 *     one launch per tree level for the up-sweep and the down-sweep;
 * (b) the shared-memory Blelloch scan of blelloch_tile.cuh, 256 threads per
 *     block (within 10% of the best block size, 64, at n = 2^24 on an H200:
 *     `run --part bt`), reduce-then-scan across tiles;
 * (c) the inclusive form of (b).
 *
 *   make check LAB=02 IMPL=solutions
 *   build/solutions/lab02 run
 */
#include "blelloch_scan.h"

#include "blelloch_tile.cuh"

#define THREADS 256 /* default block size of part (b) */

/* x[i] = in[i] for i < n, 0 up to m: the power-of-two array of the tree */
__global__ void pad_k0(const int *in, int *x, long n, long m)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        x[i] = i < n ? in[i] : 0;
}

/* One up-sweep level: each thread owns a subtree of `span` elements and adds
   its left half's sum into its right half's last element. */
__global__ void upsweep_k1(int *x, long m, long span)
{
    long k = ((long)blockIdx.x * blockDim.x + threadIdx.x) * span;
    if (k < m)
        x[k + span - 1] += x[k + span / 2 - 1];
}

/* One down-sweep level: the left child gets the parent's prefix, the right
   child the parent's prefix plus the left child's old sum. */
__global__ void downsweep_k2(int *x, long m, long span)
{
    long k = ((long)blockIdx.x * blockDim.x + threadIdx.x) * span;
    if (k < m) {
        int left = x[k + span / 2 - 1];
        x[k + span / 2 - 1] = x[k + span - 1];
        x[k + span - 1] += left;
    }
}

__global__ void copy_k3(const int *x, int *out, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i];
}

static unsigned grid(long work) { return (unsigned)((work + 255) / 256); }

extern "C" void scan_blelloch_global(const int *d_in, int *d_out, int n, int *d_scratch)
{
    if (n <= 0)
        return;
    long m = 1;
    while (m < n)
        m *= 2;
    int *x = d_scratch;
    pad_k0<<<grid(m), 256>>>(d_in, x, n, m);
    for (long span = 2; span <= m; span *= 2)
        upsweep_k1<<<grid(m / span), 256>>>(x, m, span);
    cudaMemsetAsync(x + m - 1, 0, sizeof(int)); /* the root's prefix is 0 */
    for (long span = m; span >= 2; span /= 2)
        downsweep_k2<<<grid(m / span), 256>>>(x, m, span);
    copy_k3<<<grid(n), 256>>>(x, d_out, n);
}

extern "C" void scan_blelloch_shared_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    blelloch_scan_shared<false>(d_in, d_out, n, d_scratch, threads, 0);
}

extern "C" void scan_blelloch_shared(const int *d_in, int *d_out, int n, int *d_scratch)
{
    blelloch_scan_shared<false>(d_in, d_out, n, d_scratch, THREADS, 0);
}

extern "C" void scan_blelloch_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    blelloch_scan_shared<false>(d_in, d_out, n, d_scratch, THREADS, 1);
}
