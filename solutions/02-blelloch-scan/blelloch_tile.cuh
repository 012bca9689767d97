/* solutions/02-blelloch-scan/blelloch_tile.cuh: the shared-memory Blelloch
 * scan of the instructor solutions, used by lab 02 (unpadded) and lab 03
 * (PAD = true, conflict-free). Not a student file.
 *
 * A block scans a tile of 2 * ITEMS * blockDim.x elements. Thread t owns
 * 2 * ITEMS consecutive elements and two slots of the tree: slot 2t holds the
 * sum of its first ITEMS elements, slot 2t + 1 the sum of the next ITEMS
 * (with ITEMS = 1 this is exactly the textbook kernel, two elements per
 * thread). The Blelloch tree scans the slots; each thread then finishes its
 * elements serially from its slot's prefix.
 *
 * Large n uses reduce-then-scan: reduce_k sums every tile, the tile sums are
 * scanned by the same code (recursively), then scan_tile_k scans each tile
 * from its offset. The input is read twice and the output written once.
 */
#ifndef PRIMLAB_SOLUTION_BLELLOCH_TILE_CUH
#define PRIMLAB_SOLUTION_BLELLOCH_TILE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#ifndef ITEMS
#define ITEMS 4 /* elements per slot; 1 gives the textbook kernel */
#endif

/* GPU Gems 3's padding, with 32 banks: one extra word every 32 (and every
   1024), so the tree's power-of-two strides spread over the banks. */
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(i) (((i) >> LOG_NUM_BANKS) + ((i) >> (2 * LOG_NUM_BANKS)))

template <bool PAD> __device__ __forceinline__ int slot(int i) { return PAD ? i + CONFLICT_FREE_OFFSET(i) : i; }

/* Exclusive Blelloch scan of s[0 .. 2 * blockDim.x) in place (indices go
 * through slot<PAD>). */
template <bool PAD> __device__ void tree_scan(int *s)
{
    int t = threadIdx.x, slots = 2 * blockDim.x, offset = 1;
    for (int d = slots >> 1; d > 0; d >>= 1) { /* up-sweep: partial sums up the tree */
        __syncthreads();
        if (t < d)
            s[slot<PAD>(offset * (2 * t + 2) - 1)] += s[slot<PAD>(offset * (2 * t + 1) - 1)];
        offset *= 2;
    }
    if (t == 0) /* thread 0 wrote the root last: no barrier needed */
        s[slot<PAD>(slots - 1)] = 0;
    for (int d = 1; d < slots; d *= 2) { /* down-sweep: prefixes down the tree */
        offset /= 2;
        __syncthreads();
        if (t < d) {
            int ai = slot<PAD>(offset * (2 * t + 1) - 1), bi = slot<PAD>(offset * (2 * t + 2) - 1);
            int left = s[ai];
            s[ai] = s[bi];
            s[bi] += left;
        }
    }
    __syncthreads();
}

/* Loads this thread's 2 * ITEMS elements (0 past n), 16 bytes at a time when
   the whole run is inside and aligned. */
__device__ __forceinline__ void load_items(const int *in, long n, long base, int v[2 * ITEMS])
{
    if (2 * ITEMS % 4 == 0 && base + 2 * ITEMS <= n && ((uintptr_t)(in + base) & 15) == 0) {
        const int4 *p = (const int4 *)(in + base);
#pragma unroll
        for (int q = 0; q < 2 * ITEMS / 4; q++) {
            int4 x = p[q];
            v[4 * q] = x.x, v[4 * q + 1] = x.y, v[4 * q + 2] = x.z, v[4 * q + 3] = x.w;
        }
    } else {
#pragma unroll
        for (int j = 0; j < 2 * ITEMS; j++)
            v[j] = base + j < n ? in[base + j] : 0;
    }
}

/* sums[b] = the sum of tile b. */
__global__ void reduce_k(const int *in, long n, int *sums)
{
    __shared__ int warp_sums[32];
    long base = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 2 * ITEMS;
    int v[2 * ITEMS], x = 0;
    load_items(in, n, base, v);
#pragma unroll
    for (int j = 0; j < 2 * ITEMS; j++)
        x += v[j];
    for (int o = 16; o > 0; o /= 2)
        x += __shfl_down_sync(0xffffffffu, x, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 32) {
        x = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
        for (int o = 16; o > 0; o /= 2)
            x += __shfl_down_sync(0xffffffffu, x, o);
        if (threadIdx.x == 0)
            sums[blockIdx.x] = x;
    }
}

/* Scans tile b of in, starting from offsets[b] (0 when offsets is NULL),
 * into out; inclusive or exclusive. in may equal out: every element of the
 * tile is read before the first barrier, and written after the last. */
template <bool PAD> __global__ void scan_tile_k(const int *in, int *out, long n, const int *offsets, int inclusive)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    long base = ((long)blockIdx.x * blockDim.x + t) * 2 * ITEMS;
    int v[2 * ITEMS], a = 0, b = 0;
    load_items(in, n, base, v);
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
        a += v[j], b += v[ITEMS + j];
    s[slot<PAD>(2 * t)] = a;
    s[slot<PAD>(2 * t + 1)] = b;
    tree_scan<PAD>(s);
    int acc = (offsets ? offsets[blockIdx.x] : 0) + s[slot<PAD>(2 * t)];
#pragma unroll
    for (int j = 0; j < 2 * ITEMS; j++) { /* finish serially from the slot's prefix */
        int x = v[j];
        v[j] = inclusive ? acc + x : acc;
        acc += x;
    }
    if (2 * ITEMS % 4 == 0 && base + 2 * ITEMS <= n && ((uintptr_t)(out + base) & 15) == 0) {
        int4 *p = (int4 *)(out + base);
#pragma unroll
        for (int q = 0; q < 2 * ITEMS / 4; q++)
            p[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    } else {
#pragma unroll
        for (int j = 0; j < 2 * ITEMS; j++)
            if (base + j < n)
                out[base + j] = v[j];
    }
}

/* Scan of any n with `threads` threads per block; scratch holds the tile
 * sums of every level. */
template <bool PAD> void blelloch_scan_shared(const int *in, int *out, long n, int *scratch, int threads, int inclusive)
{
    if (n <= 0)
        return;
    long tile = 2L * ITEMS * threads;
    long blocks = (n + tile - 1) / tile;
    int slots = 2 * threads;
    size_t smem = (size_t)(PAD ? slots + CONFLICT_FREE_OFFSET(slots - 1) + 1 : slots) * sizeof(int);
    if (blocks == 1) {
        scan_tile_k<PAD><<<1, threads, smem>>>(in, out, n, NULL, inclusive);
        return;
    }
    int *sums = scratch;
    reduce_k<<<blocks, threads>>>(in, n, sums);
    blelloch_scan_shared<PAD>(sums, sums, blocks, scratch + blocks, threads, 0);
    scan_tile_k<PAD><<<blocks, threads, smem>>>(in, out, n, sums, inclusive);
}

#endif
