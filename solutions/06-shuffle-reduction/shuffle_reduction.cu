/* solutions/06-shuffle-reduction/shuffle_reduction.cu: the instructor's lab 06.
 *
 * Two passes for any n. Pass 1: a grid of at most a few blocks per SM, each
 * thread adding its share of the input with a grid-stride loop (vector loads
 * of 16 bytes where the input is aligned), then one sum per block, reduced
 * in the block by a shared-memory tree (a) or by shuffles inside each warp
 * (b). Pass 2: one block reduces the block sums to d_out[0]. A grid-stride
 * loop keeps the number of block sums small whatever n is, so pass 2 is one
 * block, and every index is a long: n up to SR_MAX_N cannot overflow.
 *
 * SpMV: (c) a thread per row; (d) a group of G lanes per row (G from the
 * mean row length, 2 to 32), reduced by shuffles of width G.
 */
#include "shuffle_reduction.h"

#include <cuda_runtime.h>
#include <stdint.h>

#define THREADS 256
#define BLOCKS_PER_SM 8

/* The block's sum of v, in thread 0: halving in shared memory, a barrier
   between steps (part a). */
template <typename T>
__device__ T block_sum_tree(T v)
{
    __shared__ T s[THREADS];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    return s[0];
}

/* The warp's sum of v, in lane 0. Every lane of the warp takes part (the
   mask names all 32): the callers keep whole warps alive. Doubles are
   shuffled directly. */
template <typename T>
__device__ T warp_sum(T v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* The block's sum of v, in thread 0 (part b): shuffles in each warp, one
   value per warp through shared memory, and shuffles again in warp 0. */
template <typename T>
__device__ T block_sum_shfl(T v)
{
    __shared__ T warp_sums[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < THREADS / 32 ? warp_sums[lane] : T(0);
        v = warp_sum(v);
    }
    return v;
}

/* Vector loads of 16 bytes: 4 floats or 2 doubles. */
template <typename T> struct vec;
template <> struct vec<float> {
    typedef float4 type;
    static const int width = 4;
    __device__ static float add(float4 x) { return (x.x + x.y) + (x.z + x.w); }
};
template <> struct vec<double> {
    typedef double2 type;
    static const int width = 2;
    __device__ static double add(double2 x) { return x.x + x.y; }
};

/* Pass 1 (and pass 2 with one block): out[blockIdx.x] = the block's share. */
template <typename T, bool SHFL>
__global__ void __launch_bounds__(THREADS) block_sums(const T *in, T *out, long n, bool aligned)
{
    long stride = (long)gridDim.x * THREADS, i = (long)blockIdx.x * THREADS + threadIdx.x;
    T v = 0;
    long head = 0;
    if (aligned) {
        typedef typename vec<T>::type V;
        const int w = vec<T>::width;
        long nv = n / w;
        const V *in_v = reinterpret_cast<const V *>(in);
        long k = i;
        /* Four loads in flight per thread before any add needs them: one
           16-byte load at a time is too little to cover DRAM latency. */
        for (; k + 3 * stride < nv; k += 4 * stride) {
            V x0 = in_v[k], x1 = in_v[k + stride], x2 = in_v[k + 2 * stride], x3 = in_v[k + 3 * stride];
            v += (vec<T>::add(x0) + vec<T>::add(x1)) + (vec<T>::add(x2) + vec<T>::add(x3));
        }
        for (; k < nv; k += stride)
            v += vec<T>::add(in_v[k]);
        head = nv * w;
    }
    for (long k = head + i; k < n; k += stride)
        v += in[k];
    v = SHFL ? block_sum_shfl(v) : block_sum_tree(v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

static int block_limit(void)
{
    static int limit;
    if (!limit) {
        int dev = 0, sms = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        limit = (sms > 0 ? sms : 16) * BLOCKS_PER_SM;
    }
    return limit;
}

template <typename T, bool SHFL>
static void reduce(const T *d_in, T *d_out, int n, void *d_scratch)
{
    const int w = vec<T>::width;
    long want = ((long)n + (long)THREADS * w - 1) / ((long)THREADS * w);
    int blocks = (int)(want < block_limit() ? (want > 0 ? want : 1) : block_limit());
    bool aligned = (uintptr_t)d_in % 16 == 0;
    if (blocks == 1) {
        block_sums<T, SHFL><<<1, THREADS>>>(d_in, d_out, n, aligned);
        return;
    }
    T *partial = static_cast<T *>(d_scratch); /* blocks <= 8 x SMs: far within SR_SCRATCH_BYTES */
    block_sums<T, SHFL><<<blocks, THREADS>>>(d_in, partial, n, aligned);
    block_sums<T, SHFL><<<1, THREADS>>>(partial, d_out, blocks, true);
}

extern "C" void reduce_tree_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    reduce<float, false>(d_in, d_out, n, d_scratch);
}
extern "C" void reduce_tree_f64(const double *d_in, double *d_out, int n, void *d_scratch)
{
    reduce<double, false>(d_in, d_out, n, d_scratch);
}
extern "C" void reduce_shfl_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    reduce<float, true>(d_in, d_out, n, d_scratch);
}
extern "C" void reduce_shfl_f64(const double *d_in, double *d_out, int n, void *d_scratch)
{
    reduce<double, true>(d_in, d_out, n, d_scratch);
}

/* ------------------------------------------------------------------ SpMV */

#define SPMV_THREADS 256

/* (c) One thread per row: neighbouring threads read rows that lie far
   apart in col and val, so each load of a warp touches up to 32 lines. */
template <typename T>
__global__ void __launch_bounds__(SPMV_THREADS)
    spmv_scalar_k(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                  const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    long r = (long)blockIdx.x * SPMV_THREADS + threadIdx.x;
    if (r >= rows)
        return;
    T s = 0;
    for (long e = row_ptr[r], end = row_ptr[r + 1]; e < end; e++)
        s += val[e] * __ldg(&x[col[e]]);
    y[r] = s;
}

/* (d) G consecutive lanes per row: lane k adds entries k, k + G, ... of the
   row (the group's loads are contiguous), then the group's partial sums
   meet in its first lane by shuffles of width G. Every lane of every warp
   reaches the shuffles (rows past the end add nothing), so the mask names
   all 32 lanes; the width keeps each group's exchange inside the group. */
template <typename T, int G>
__global__ void __launch_bounds__(SPMV_THREADS)
    spmv_vector_k(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                  const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    long r = ((long)blockIdx.x * SPMV_THREADS + threadIdx.x) / G; /* rows * G passes 2^31 at the limit */
    int lane = threadIdx.x % G;
    T s = 0;
    if (r < rows)
        for (long e = row_ptr[r] + lane, end = row_ptr[r + 1]; e < end; e += G)
            s += val[e] * __ldg(&x[col[e]]);
    for (int offset = G / 2; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffffu, s, offset, G);
    if (lane == 0 && r < rows)
        y[r] = s;
}

/* The group for a mean row length: the smallest power of two that gives
   each lane at most 8 of a mean row's entries, from 2 to 32. Not the
   whole row in one round (the seed's rule for Kepler): rows lie one after
   another in col and val, so a warp's loads stay contiguous across its
   rows whatever the group, and a smaller group pays fewer shuffles per
   row. Measured on an H100 (FEM-like rows of 27 entries, float): groups of
   2, 4, 8, 16, 32 gave 1.05x, 1.07x, 0.99x, 0.83x, 0.55x cuSPARSE. */
static int group_for(int rows, int nnz)
{
    double mean = rows > 0 ? (double)nnz / rows : 0;
    int g = 2;
    while (g < 32 && 8.0 * g < mean)
        g *= 2;
    return g;
}

template <typename T, int G>
static void launch_vector(int rows, const int *row_ptr, const int *col, const T *val, const T *x, T *y)
{
    long blocks = ((long)rows * G + SPMV_THREADS - 1) / SPMV_THREADS;
    spmv_vector_k<T, G><<<(unsigned)blocks, SPMV_THREADS>>>(rows, row_ptr, col, val, x, y);
}

template <typename T>
static void spmv_vector(int rows, int nnz, const int *row_ptr, const int *col, const T *val, const T *x, T *y,
                        int group)
{
    if (rows <= 0)
        return;
    if (group != 2 && group != 4 && group != 8 && group != 16 && group != 32)
        group = group_for(rows, nnz);
    switch (group) {
    case 2: launch_vector<T, 2>(rows, row_ptr, col, val, x, y); break;
    case 4: launch_vector<T, 4>(rows, row_ptr, col, val, x, y); break;
    case 8: launch_vector<T, 8>(rows, row_ptr, col, val, x, y); break;
    case 16: launch_vector<T, 16>(rows, row_ptr, col, val, x, y); break;
    default: launch_vector<T, 32>(rows, row_ptr, col, val, x, y); break;
    }
}

template <typename T>
static void spmv_scalar(int rows, const int *row_ptr, const int *col, const T *val, const T *x, T *y)
{
    if (rows > 0)
        spmv_scalar_k<T><<<(rows + SPMV_THREADS - 1) / SPMV_THREADS, SPMV_THREADS>>>(rows, row_ptr, col, val, x, y);
}

extern "C" void spmv_scalar_f32(int rows, int nnz, const int *d_row_ptr, const int *d_col, const float *d_val,
                                const float *d_x, float *d_y)
{
    (void)nnz;
    spmv_scalar(rows, d_row_ptr, d_col, d_val, d_x, d_y);
}
extern "C" void spmv_scalar_f64(int rows, int nnz, const int *d_row_ptr, const int *d_col, const double *d_val,
                                const double *d_x, double *d_y)
{
    (void)nnz;
    spmv_scalar(rows, d_row_ptr, d_col, d_val, d_x, d_y);
}
extern "C" void spmv_vector_f32(int rows, int nnz, const int *d_row_ptr, const int *d_col, const float *d_val,
                                const float *d_x, float *d_y, int group)
{
    spmv_vector(rows, nnz, d_row_ptr, d_col, d_val, d_x, d_y, group);
}
extern "C" void spmv_vector_f64(int rows, int nnz, const int *d_row_ptr, const int *d_col, const double *d_val,
                                const double *d_x, double *d_y, int group)
{
    spmv_vector(rows, nnz, d_row_ptr, d_col, d_val, d_x, d_y, group);
}
