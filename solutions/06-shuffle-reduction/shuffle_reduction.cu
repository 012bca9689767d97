/* solutions/06-shuffle-reduction/shuffle_reduction.cu: the instructor's lab 06.
 *
 * Two passes for any n. Pass 1: a grid of at most a few blocks per SM, each
 * thread adding its share of the input with a grid-stride loop (vector loads
 * of 16 bytes where the input is aligned), then one sum per block, reduced
 * in the block by a shared-memory tree (a) or by shuffles inside each warp
 * (b). Pass 2: one block reduces the block sums to d_out[0]. A grid-stride
 * loop keeps the number of block sums small whatever n is, so pass 2 is one
 * block, and every index is a long: n up to SR_MAX_N cannot overflow.
 */
#include "../../labs/06-shuffle-reduction/shuffle_reduction.h"

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
        for (long k = i; k < nv; k += stride)
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
