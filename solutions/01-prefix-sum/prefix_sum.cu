/* solutions/01-prefix-sum/prefix_sum.cu: instructor solution of lab 01.
 *
 * Hillis-Steele inclusive scan inside a block (one element per thread, two
 * shared-memory buffers so that each step needs one barrier), made
 * hierarchical for any n:
 *   1. scan_k1_block scans every block of B elements (B = PS_BLOCK_MAX, or
 *      the `threads` of the block-size experiment) and writes each block's
 *      total to the scratch array;
 *   2. the totals are scanned in place by the same code, recursively (one
 *      more level per factor of B: three levels cover n = 2^30 at B = 1024);
 *   3. add_k2_block_sums adds block b-1's scanned total to block b.
 * The exclusive scan is the inclusive scan of the input shifted right by one
 * (element i loads in[i-1], and 0 for i = 0), so it shares all three steps.
 * The shared buffers are sized at launch (2 * B ints), so that a small block
 * holds only the shared memory it uses.
 *
 *   make check LAB=01 IMPL=solutions
 *   build/solutions/lab01 run
 *   build/solutions/lab01 run --part bt     the block-size sweep
 */
#include "prefix_sum.h"

#include <cuda_runtime.h>

#define BLOCK PS_BLOCK_MAX /* parts (a), (b) and (c) */
#define MIN_THREADS 32          /* the smallest block of the block-size experiment */

/* Inclusive scan of one block's elements of in (shifted right by shift
 * positions), written to out; the block's total goes to sums[blockIdx.x]
 * when sums is not NULL. in may equal out when shift is 0: every read of
 * the block's elements happens before its first write. Launched with
 * 2 * blockDim.x ints of dynamic shared memory: the two buffers. */
__global__ void scan_k1_block(const int *in, int *out, int n, int *sums, int shift)
{
    extern __shared__ int buf[]; /* buffer k is buf[k * blockDim.x ..] */
    int t = threadIdx.x;
    long i = (long)blockIdx.x * blockDim.x + t;
    long src = i - shift;
    int x = (i < n && src >= 0) ? in[src] : 0; /* padding adds nothing */
    buf[t] = x;
    int cur = 0;
    for (int d = 1; d < blockDim.x; d *= 2) {
        /* Makes the last step's writes to buffer cur visible, and ends its
           reads of buffer cur ^ 1 before this step overwrites it. */
        __syncthreads();
        if (t >= d)
            x += buf[cur * blockDim.x + t - d];
        cur ^= 1;
        buf[cur * blockDim.x + t] = x;
    }
    if (i < n)
        out[i] = x;
    if (sums && t == blockDim.x - 1) /* the last thread holds the block total */
        sums[blockIdx.x] = x;
}

/* out[i] += sums[b] for block b of out; called with out advanced by one
 * block, so block b of the launch receives the total of blocks 0..b. */
__global__ void add_k2_block_sums(int *out, int n, const int *sums)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += sums[blockIdx.x];
}

static void scan_block(const int *in, int *out, int n, int *sums, int shift, int blocks, int b)
{
    scan_k1_block<<<blocks, b, 2 * b * sizeof(int)>>>(in, out, n, sums, shift);
}

/* Inclusive scan of in shifted by shift, for any n, in blocks of b threads;
 * scratch holds this level's block totals, scanned in place, followed by
 * the deeper levels' scratch. That is n/b + n/b^2 + ... < n/(b - 1) ints
 * plus one per level, within PS_SCRATCH_INTS(n) for every b >= 32. */
static void scan_any(const int *in, int *out, int n, int *scratch, int shift, int b)
{
    if (n <= 0)
        return;
    /* in long: n + b - 1 overflows int for n near INT_MAX (PS_MAX_N is
       INT_MAX); the count itself, at most 2^26, fits */
    int blocks = (int)(((long)n + b - 1) / b);
    int *sums = blocks > 1 ? scratch : NULL;
    scan_block(in, out, n, sums, shift, blocks, b);
    if (blocks > 1) {
        scan_any(sums, sums, blocks, scratch + blocks, 0, b);
        add_k2_block_sums<<<blocks - 1, b>>>(out + b, n - b, sums);
    }
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    if (n > 0)
        scan_block(d_in, d_out, n, NULL, 0, 1, BLOCK);
}

extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    scan_any(d_in, d_out, n, d_scratch, 0, BLOCK);
}

extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    if (threads >= MIN_THREADS && threads <= BLOCK && (threads & (threads - 1)) == 0)
        scan_any(d_in, d_out, n, d_scratch, 0, threads);
}

extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    scan_any(d_in, d_out, n, d_scratch, 1, BLOCK);
}
