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
 * Arrays of up to 32768 elements (the top of the recursion: the 16384 tile
 * sums of n = 2^24) are scanned by one block of 1024 threads, tile after
 * tile (scan_top_k).
 *
 * Two more refinements that leave the tree as it is (measured on an H100 at
 * n = 2^24, tests/bench/bench_lab02_knobs.sh and the lab's `make check`):
 * - the tree's top levels, where at most 32 slots are live, are all
 *   done by warp 0: those steps need only __syncwarp(), not a barrier of
 *   the whole block (19 block barriers become 8 with 256 threads, 17
 *   become 6 with 128);
 * - scan_tile_k takes the tiles last first. reduce_k read them first to
 *   last, so the last tiles it read are the ones still in the L2 cache
 *   (50 MB on an H100): the second read finds them there, not in DRAM.
 * Each pass runs at its roof (tests/bench/bench_lab02_passes.sh, the L2 flushed
 * as in make check; H100, n = 2^24: reduce_k 0.035 ms, a kernel that only
 * reads 0.037, scan_tile_k 94.5% of copy), so the second read of the input
 * is what separates this from CUB's single pass: 0.78x whole, 0.84x with
 * no top level at all. Chunks that the L2 holds, reduced and scanned in
 * one launch each, were slower (0.72x and less: the handout's section 13);
 * L2 cache hints changed nothing; one cooperative launch in rounds, the
 * input read once, waited for each round's slowest block (0.54x at 2^28).
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
 * through slot<PAD>). A level of d active threads reads what the level
 * before it wrote. When both levels have at most 32 active threads, all
 * of them are threads 0-31, one warp, and __syncwarp() orders their
 * shared-memory accesses; any other step needs the block's barrier. */
template <bool PAD> __device__ void tree_scan(int *s)
{
    int t = threadIdx.x, slots = 2 * blockDim.x, offset = 1;
    for (int d = slots >> 1; d > 0; d >>= 1) { /* up-sweep: partial sums up the tree */
        if (2 * d <= 32 && d < slots >> 1) /* this level and the one before: warp 0 alone */
            __syncwarp();
        else
            __syncthreads();
        if (t < d)
            s[slot<PAD>(offset * (2 * t + 2) - 1)] += s[slot<PAD>(offset * (2 * t + 1) - 1)];
        offset *= 2;
    }
    if (t == 0) /* thread 0 wrote the root last: no barrier needed */
        s[slot<PAD>(slots - 1)] = 0;
    for (int d = 1; d < slots; d *= 2) { /* down-sweep: prefixes down the tree */
        offset /= 2;
        if (d <= 32) /* d / 2 threads wrote what this level's d read: warp 0 */
            __syncwarp();
        else
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

/* Scans tile `tile` of in (2 * ITEMS * blockDim.x elements) into out,
 * starting from offset; inclusive or exclusive. Returns what follows this
 * thread's last element: offset plus the sum of the tile up to it (for
 * the tile's last thread, offset plus the tile's total). in may equal out:
 * every element of the tile is read before the first barrier, and written
 * after the last. */
template <bool PAD> __device__ int tile_scan(const int *in, int *out, long n, long tile, int offset, int inclusive)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    long base = (tile * blockDim.x + t) * 2 * ITEMS;
    int v[2 * ITEMS], a = 0, b = 0;
    load_items(in, n, base, v);
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
        a += v[j], b += v[ITEMS + j];
    s[slot<PAD>(2 * t)] = a;
    s[slot<PAD>(2 * t + 1)] = b;
    tree_scan<PAD>(s);
    int acc = offset + s[slot<PAD>(2 * t)];
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
    return acc;
}

/* Block b scans tile gridDim.x - 1 - b, from its offsets[] entry (0 when
 * offsets is NULL): block 0 takes the last tile (see the top of the file). */
template <bool PAD> __global__ void scan_tile_k(const int *in, int *out, long n, const int *offsets, int inclusive)
{
    long tile = gridDim.x - 1 - blockIdx.x;
    tile_scan<PAD>(in, out, n, tile, offsets ? offsets[tile] : 0, inclusive);
}

/* The top of the recursion: one block scans all of a short array, tile
 * after tile, each tile starting from the total of the tiles before it.
 * One launch, where reduce-then-scan would take three. */
template <bool PAD> __global__ void scan_top_k(const int *in, int *out, long n, int inclusive)
{
    __shared__ int carry;
    long tiles = (n + 2L * ITEMS * blockDim.x - 1) / (2L * ITEMS * blockDim.x);
    int offset = 0;
    for (long tile = 0; tile < tiles; tile++) {
        int end = tile_scan<PAD>(in, out, n, tile, offset, inclusive);
        if (threadIdx.x == blockDim.x - 1)
            carry = end;
        __syncthreads(); /* the next write of carry is after the next tile's barriers */
        offset = carry;
    }
}

#define TOP_THREADS 1024 /* the block of scan_top_k */
#define TOP_TILES 4      /* scan_top_k scans up to 4 of its tiles, 32768 elements */

template <bool PAD> static size_t tree_bytes(int threads)
{
    int slots = 2 * threads;
    return (size_t)(PAD ? slots + CONFLICT_FREE_OFFSET(slots - 1) + 1 : slots) * sizeof(int);
}

/* Scan of any n with `threads` threads per block; scratch holds the tile
 * sums of every level. */
template <bool PAD> void blelloch_scan_shared(const int *in, int *out, long n, int *scratch, int threads, int inclusive)
{
    if (n <= 0)
        return;
    if (n <= TOP_TILES * 2L * ITEMS * TOP_THREADS) {
        scan_top_k<PAD><<<1, TOP_THREADS, tree_bytes<PAD>(TOP_THREADS)>>>(in, out, n, inclusive);
        return;
    }
    long tile = 2L * ITEMS * threads;
    long blocks = (n + tile - 1) / tile;
    int *sums = scratch;
    reduce_k<<<blocks, threads>>>(in, n, sums);
    blelloch_scan_shared<PAD>(sums, sums, blocks, scratch + blocks, threads, 0);
    scan_tile_k<PAD><<<blocks, threads, tree_bytes<PAD>(threads)>>>(in, out, n, sums, inclusive);
}

#endif
