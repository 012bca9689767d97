/* solutions/03-bank-conflicts/bank_conflicts.cu: instructor solution of lab 03.
 *
 * (a) the stride microbenchmark, 4- and 8-byte words;
 * (b) four transposes: global memory only, through a plain 32 x 32 tile
 *     (32-way conflicts on the column reads), a padded [32][33] tile, and an
 *     XOR-swizzled tile;
 * (c) lab 02's shared-memory Blelloch scan without and with GPU Gems 3's
 *     padding (blelloch_tile.cuh, a copy of the lab 02 solution's: make given).
 *
 *   make check LAB=03 IMPL=solutions
 *   build/solutions/lab03 run --part b2
 *   build/solutions/lab03 analyze
 */
#include "bank_conflicts.h"

#include "blelloch_tile.cuh"

#define STRIDE_BLOCK 256

/* ---------------------------------------------------------------- (a) */

__global__ void stride32_k(const int *in, int *out, int stride)
{
    __shared__ int s[BC_SMEM_WORDS];
    for (int i = threadIdx.x; i < BC_SMEM_WORDS; i += blockDim.x)
        s[i] = in[i];
    __syncthreads();
    long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const volatile int *vs = s; /* every read goes to shared memory */
    int w = (int)((g % 32) * stride % BC_SMEM_WORDS);
    unsigned acc = 0;
    for (int r = 0; r < BC_REPS; r++)
        acc += (unsigned)vs[w];
    if (g < BC_STRIDE_THREADS)
        out[g] = (int)acc;
}

__global__ void stride64_k(const int *in, int *out, int stride)
{
    __shared__ unsigned long long s[BC_SMEM_WORDS / 2];
    for (int i = threadIdx.x; i < BC_SMEM_WORDS / 2; i += blockDim.x)
        s[i] = (unsigned)in[2 * i] | (unsigned long long)(unsigned)in[2 * i + 1] << 32;
    __syncthreads();
    long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const volatile unsigned long long *vs = s;
    int w = (int)((g % 32) * stride % (BC_SMEM_WORDS / 2));
    unsigned long long acc = 0;
    for (int r = 0; r < BC_REPS; r++)
        acc += vs[w];
    if (g < BC_STRIDE_THREADS)
        out[g] = (int)(unsigned)acc;
}

extern "C" void stride_read32(const int *d_in, int *d_out, int stride)
{
    stride32_k<<<(BC_STRIDE_THREADS + STRIDE_BLOCK - 1) / STRIDE_BLOCK, STRIDE_BLOCK>>>(d_in, d_out, stride);
}

extern "C" void stride_read64(const int *d_in, int *d_out, int stride)
{
    stride64_k<<<(BC_STRIDE_THREADS + STRIDE_BLOCK - 1) / STRIDE_BLOCK, STRIDE_BLOCK>>>(d_in, d_out, stride);
}

/* ---------------------------------------------------------------- (b) */
/* 32 x 8 threads per 32 x 32 tile, each thread four rows apart by 8. */

#define ROWS 8

__global__ void transpose_k0_naive(const float *in, float *out, int side)
{
    int c = blockIdx.x * BC_TILE + threadIdx.x;
    for (int j = 0; j < BC_TILE; j += ROWS) {
        int r = blockIdx.y * BC_TILE + threadIdx.y + j;
        if (r < side && c < side)
            out[(long)c * side + r] = in[(long)r * side + c]; /* the write is strided */
    }
}

/* LAYOUT 0: tile[32][32]; 1: tile[32][33]; 2: tile[32][32], column ^ row. */
template <int LAYOUT> __device__ __forceinline__ int tile_at(int row, int col)
{
    return LAYOUT == 1 ? row * (BC_TILE + 1) + col : LAYOUT == 2 ? row * BC_TILE + (col ^ row) : row * BC_TILE + col;
}

template <int LAYOUT> __global__ void transpose_k1_tile(const float *in, float *out, int side)
{
    __shared__ float tile[BC_TILE * (BC_TILE + 1)];
    int bx = blockIdx.x * BC_TILE, by = blockIdx.y * BC_TILE;
    for (int j = 0; j < BC_TILE; j += ROWS) { /* coalesced read of rows by..by+31 */
        int r = by + threadIdx.y + j, c = bx + threadIdx.x;
        if (r < side && c < side)
            tile[tile_at<LAYOUT>(threadIdx.y + j, threadIdx.x)] = in[(long)r * side + c];
    }
    __syncthreads();
    for (int j = 0; j < BC_TILE; j += ROWS) { /* coalesced write; the tile is read down a column */
        int r = bx + threadIdx.y + j, c = by + threadIdx.x;
        if (r < side && c < side)
            out[(long)r * side + c] = tile[tile_at<LAYOUT>(threadIdx.x, threadIdx.y + j)];
    }
}

static void transpose(int layout, const float *in, float *out, int side)
{
    if (side <= 0)
        return;
    dim3 grid((side + BC_TILE - 1) / BC_TILE, (side + BC_TILE - 1) / BC_TILE), block(BC_TILE, ROWS);
    switch (layout) {
    case -1: transpose_k0_naive<<<grid, block>>>(in, out, side); break;
    case 0: transpose_k1_tile<0><<<grid, block>>>(in, out, side); break;
    case 1: transpose_k1_tile<1><<<grid, block>>>(in, out, side); break;
    default: transpose_k1_tile<2><<<grid, block>>>(in, out, side); break;
    }
}

extern "C" void transpose_naive(const float *d_in, float *d_out, int side) { transpose(-1, d_in, d_out, side); }
extern "C" void transpose_tiled(const float *d_in, float *d_out, int side) { transpose(0, d_in, d_out, side); }
extern "C" void transpose_padded(const float *d_in, float *d_out, int side) { transpose(1, d_in, d_out, side); }
extern "C" void transpose_swizzled(const float *d_in, float *d_out, int side) { transpose(2, d_in, d_out, side); }

/* ---------------------------------------------------------------- (c) */

#define SCAN_THREADS 256

extern "C" void scan_unpadded(const int *d_in, int *d_out, int n, int *d_scratch)
{
    blelloch_scan_shared<false>(d_in, d_out, n, d_scratch, SCAN_THREADS, 0);
}

extern "C" void scan_padded(const int *d_in, int *d_out, int n, int *d_scratch)
{
    blelloch_scan_shared<true>(d_in, d_out, n, d_scratch, SCAN_THREADS, 0);
}
