/* solutions/02-blelloch-scan/blelloch_scan.cu: instructor solution of lab 02.
 *
 * (a) the global-memory Blelloch scan: pad to a power of two m in scratch,
 *     one launch per tree level for the up-sweep and the down-sweep;
 * (b) the shared-memory Blelloch scan of blelloch_tile.cuh, 256 threads per
 *     block, reduce-then-scan across tiles (128 and 256 tie at n = 2^24 on
 *     an H100, 0.79-0.80x CUB, with 64 and 512 at 0.73-0.75x:
 *     tests/bench/bench_lab02_knobs.sh; `run --part bt` sweeps the block size);
 * (c) the inclusive form of (b);
 * (w) the warp-synchronous scans: the two unsafe versions the stub gives
 *     (the stub's block, unchanged: tests/unit/test_given_code.sh checks it, and
 *     `make given` copies it here after the stub's is edited), and
 *     the fix, the same steps with __syncwarp() between reads and writes.
 *
 *   make check LAB=02 IMPL=solutions
 *   build/solutions/lab02 run
 *   build/solutions/lab02 warps
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

/* Version 2, the fix: each step of version 0 split into its read and its
 * write, with the warp's barrier between them. No `volatile`: __syncwarp()
 * also orders the shared-memory accesses of the lanes it synchronises, for
 * the compiler as for the hardware. Every lane runs every step, past n too:
 * __syncwarp() with the full mask waits for all 32. */
__global__ void warp_scan_k2_safe(const int *in, int *out, long n)
{
    __shared__ int s[WARP_THREADS];
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x, lane = t % 32;
    s[t] = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        __syncwarp(); /* read after write: the last step's sums (first, the loads) are stored before they are read */
        int left = lane >= d ? s[t - d] : 0;
        __syncwarp(); /* write after read: every lane has read s[t - d] before its owner overwrites it */
        s[t] += left;
    }
    if (i < n)
        out[i] = s[t]; /* its own slot: no barrier needed */
}

extern "C" void scan_warp_safe(const int *d_in, int *d_out, int n)
{
    if (n > 0)
        warp_scan_k2_safe<<<warp_blocks(n), WARP_THREADS>>>(d_in, d_out, n);
}
