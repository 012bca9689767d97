/* solutions/01-prefix-sum/prefix_sum.cu: instructor solution of lab 01.
 *
 * Hillis-Steele inclusive scan inside a block (one element per thread, two
 * shared-memory buffers so that each step needs one barrier), made
 * hierarchical for any n:
 *   1. scan_k1_block scans every block of PS_BLOCK_MAX elements and writes
 *      each block's total to the scratch array;
 *   2. the totals are scanned by the same code, recursively (one more level
 *      per factor of 1024: three levels cover n = 2^30);
 *   3. add_k2_block_sums adds block b-1's scanned total to block b.
 * The exclusive scan is the inclusive scan of the input shifted right by one
 * (element i loads in[i-1], and 0 for i = 0), so it shares all three steps.
 *
 *   make check LAB=01 IMPL=solutions
 *   build/solutions/lab01 run
 */
#include "prefix_sum.h"

#include <cuda_runtime.h>

#define BLOCK PS_BLOCK_MAX

/* Inclusive scan of one block's elements of in (shifted right by shift
 * positions), written to out; the block's total goes to sums[blockIdx.x]
 * when sums is not NULL. in may equal out when shift is 0: every read of
 * the block's elements happens before its first write. */
__global__ void scan_k1_block(const int *in, int *out, int n, int *sums, int shift)
{
    __shared__ int buf[2][BLOCK];
    int t = threadIdx.x;
    long i = (long)blockIdx.x * blockDim.x + t;
    long src = i - shift;
    int x = (i < n && src >= 0) ? in[src] : 0; /* padding adds nothing */
    buf[0][t] = x;
    int cur = 0;
    for (int d = 1; d < blockDim.x; d *= 2) {
        /* Makes the last step's writes to buf[cur] visible, and ends its
           reads of buf[cur ^ 1] before this step overwrites it. */
        __syncthreads();
        if (t >= d)
            x += buf[cur][t - d];
        buf[cur ^ 1][t] = x;
        cur ^= 1;
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

/* Inclusive scan of in shifted by shift, for any n; scratch holds the block
 * totals of this level followed by the deeper levels' scratch. */
static void scan_any(const int *in, int *out, int n, int *scratch, int shift)
{
    if (n <= 0)
        return;
    /* in long: n + BLOCK - 1 overflows int for n > INT_MAX - 1023 (PS_MAX_N
       is INT_MAX); the count itself, at most 2^21, fits */
    int blocks = (int)(((long)n + BLOCK - 1) / BLOCK);
    int *sums = blocks > 1 ? scratch : NULL;
    scan_k1_block<<<blocks, BLOCK>>>(in, out, n, sums, shift);
    if (blocks > 1) {
        scan_any(sums, sums, blocks, scratch + blocks, 0);
        add_k2_block_sums<<<blocks - 1, BLOCK>>>(out + BLOCK, n - BLOCK, sums);
    }
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    if (n > 0)
        scan_k1_block<<<1, BLOCK>>>(d_in, d_out, n, NULL, 0);
}

extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    scan_any(d_in, d_out, n, d_scratch, 0);
}

extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    scan_any(d_in, d_out, n, d_scratch, 1);
}
