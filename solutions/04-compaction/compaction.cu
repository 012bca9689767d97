/* solutions/04-compaction/compaction.cu: instructor solution of lab 04.
 *
 * (a) the map: one flag per element;
 * (b) map, scan, scatter: flags, the harness's exclusive scan, a scatter;
 *     the count is the last scanned value plus the last flag;
 * (c) one pass with decoupled look-back: each block takes a tile number from
 *     an atomic ticket, ranks its kept elements with warp votes, publishes
 *     its count at once, then sums its predecessors' published values
 *     backwards until it meets an inclusive prefix, publishes its own, and
 *     writes its elements from that offset. The block size is a launch
 *     parameter (THREADS for compact_warp; any multiple of 32 up to 1024
 *     for compact_warp_threads, the block-size experiment), the tile
 *     ROUNDS elements per thread.
 *
 *   make check LAB=04 IMPL=solutions
 *   build/solutions/lab04 run
 *   build/solutions/lab04 run --part ct     the block-size sweep
 */
#include "compaction.h"

#include <cuda_runtime.h>

#define FULL 0xffffffffu

__global__ void flags_k1(const int *in, int *flags, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = in[i] > 0;
}

__global__ void scatter_k2(const int *in, const int *flags, const int *pos, int *out, long n, int *count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i])
        out[pos[i]] = in[i];
    if (i == n - 1)
        *count = pos[i] + flags[i];
}

static unsigned grid(long work, int block) { return (unsigned)((work + block - 1) / block); }

extern "C" void compact_flags(const int *d_in, int *d_flags, int n)
{
    if (n > 0)
        flags_k1<<<grid(n, 256), 256>>>(d_in, d_flags, n);
}

extern "C" int compact_scan(const int *d_in, int *d_out, int n, int *d_scratch)
{
    if (n <= 0)
        return 0;
    int *flags = d_scratch, *pos = d_scratch + n, *count = d_scratch + 2L * n, k = 0;
    flags_k1<<<grid(n, 256), 256>>>(d_in, flags, n);
    primlab_scan_exclusive(flags, pos, n);
    scatter_k2<<<grid(n, 256), 256>>>(d_in, flags, pos, d_out, n, count);
    cudaMemcpy(&k, count, sizeof k, cudaMemcpyDeviceToHost);
    return k;
}

/* ---------------------------------------------------------------- (c) */

#define THREADS 256                   /* compact_warp's block: tiles of 4096 elements */
#define MAX_WARPS 32                  /* 1024 threads */
#define ROUNDS 16                     /* 32 consecutive elements per warp per round */
/* A tile's status word: the flag in the high half, the value in the low half,
   so that one 64-bit store publishes both. */
#define NOTHING 0ull
#define AGGREGATE 1ull
#define PREFIX 2ull

__device__ __forceinline__ void publish(unsigned long long *status, int tile, unsigned long long flag, int value)
{
    atomicExch(status + tile, flag << 32 | (unsigned)value);
}

/* The sum of the kept counts of tiles 0 .. tile-1, by looking back. */
__device__ int look_back(unsigned long long *status, int tile)
{
    int sum = 0;
    for (int p = tile - 1; p >= 0;) {
        unsigned long long s = *(volatile unsigned long long *)(status + p);
        unsigned long long flag = s >> 32;
        if (flag == NOTHING)
            continue; /* that tile has not counted yet: wait for it */
        sum += (int)(unsigned)s;
        if (flag == PREFIX)
            break;
        p--;
    }
    return sum;
}

/* One tile of blockDim.x * ROUNDS elements per block; blockDim.x a multiple
   of 32, at most 1024 (the launch bounds keep the registers within what a
   block of 1024 may have). */
__global__ void __launch_bounds__(32 * MAX_WARPS) compact_k3_vote(const int *in, int *out, long n,
                                                                  unsigned long long *status, unsigned *ticket,
                                                                  int *total, int tiles)
{
    __shared__ int warp_off[MAX_WARPS], tile_s, prefix_s;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (threadIdx.x == 0) /* tiles in the order blocks start: no block waits on one not yet running */
        tile_s = (int)atomicAdd(ticket, 1u);
    __syncthreads();
    int tile = tile_s;
    long base = (long)tile * blockDim.x * ROUNDS + (long)warp * 32 * ROUNDS + lane;
    int v[ROUNDS], count = 0;
    unsigned mask[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) {
        long i = base + 32L * r;
        v[r] = i < n ? in[i] : 0;
        mask[r] = __ballot_sync(FULL, v[r] > 0);
        count += __popc(mask[r]);
    }
    if (lane == 0)
        warp_off[warp] = count;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int w = 0; w < warps; w++) { /* warp offsets within the tile */
            int c = warp_off[w];
            warp_off[w] = sum;
            sum += c;
        }
        int prefix = 0;
        if (tile == 0) {
            publish(status, 0, PREFIX, sum);
        } else {
            publish(status, tile, AGGREGATE, sum);
            prefix = look_back(status, tile);
            publish(status, tile, PREFIX, prefix + sum);
        }
        prefix_s = prefix;
        if (tile == tiles - 1)
            *total = prefix + sum;
    }
    __syncthreads();
    int off = prefix_s + warp_off[warp];
    unsigned below = (1u << lane) - 1;
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) {
        if (mask[r] >> lane & 1)
            out[off + __popc(mask[r] & below)] = v[r];
        off += __popc(mask[r]);
    }
}

/* Scratch: the count, the ticket, then 8-byte status words (aligned), one
   per tile: at most 2 + 2 * (n / 512 + 1) ints, the tile being at least
   32 * ROUNDS = 512 elements, far within CP_SCRATCH_INTS(n). */
extern "C" int compact_warp_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    if (threads < 32 || threads > 32 * MAX_WARPS || threads % 32 != 0)
        return -1;
    if (n <= 0)
        return 0;
    long tile = (long)threads * ROUNDS;
    int tiles = (int)(((long)n + tile - 1) / tile), k = 0; /* in long: n may be INT_MAX */
    int *total = d_scratch;
    unsigned *ticket = (unsigned *)(d_scratch + 1);
    unsigned long long *status = (unsigned long long *)(d_scratch + 2);
    cudaMemsetAsync(d_scratch, 0, (2 + 2 * (size_t)tiles) * sizeof(int));
    compact_k3_vote<<<tiles, threads>>>(d_in, d_out, n, status, ticket, total, tiles);
    cudaMemcpy(&k, total, sizeof k, cudaMemcpyDeviceToHost);
    return k;
}

extern "C" int compact_warp(const int *d_in, int *d_out, int n, int *d_scratch)
{
    return compact_warp_threads(d_in, d_out, n, d_scratch, THREADS);
}
