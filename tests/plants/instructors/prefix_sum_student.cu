/* tests/plants/instructors/prefix_sum_student.cu: a lab 01 submission in
 * the style of students from other courses (host-side cudaMalloc and copies,
 * an error-checking macro that exits, a log2 loop), with one bug planted per
 * class of issue 18. Each plant of tests/plants/01-prefix-sum.plants made
 * from it sets one PLANT_ switch to 1, and tests/plant.sh grades the copy
 * and asserts the diagnosis its class must get. With every switch 0 it is
 * right (if slow): the plant student_clean checks that too. Working lab
 * code: kept out of the student handout (harness/kit-files.sh). */
#include "prefix_sum.h"
#include <cstdio>
#include <cstdlib>

#define PLANT_CUDA_EXIT 0 /* n / BS blocks: zero blocks below 1024, caught by CHECK, exit(1) */
#define PLANT_HANG_ZERO 0 /* a log2 loop that never ends at n = 0 */
#define PLANT_HEAP 0      /* a padded size copied into a host buffer of n ints */
#define PLANT_PRECEDENCE 0 /* if (n & (n - 1) != 0): an even n is taken for a power of two */

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cudaError_t e_ = (call);                                                                             \
        if (e_ != cudaSuccess) {                                                                             \
            fprintf(stderr, "CUDA error (%s:%d): %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));         \
            exit(1);                                                                                         \
        }                                                                                                    \
    } while (0)

#define BS 1024

__global__ void block_scan(const int *in, int *out, int *sums, int n)
{
    __shared__ int a[BS], b[BS];
    int i = blockIdx.x * BS + threadIdx.x;
    a[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    int *src = a, *dst = b;
    for (int off = 1; off < BS; off <<= 1) {
        dst[threadIdx.x] = src[threadIdx.x] + (threadIdx.x >= off ? src[threadIdx.x - off] : 0);
        __syncthreads();
        int *t = src;
        src = dst;
        dst = t;
    }
    if (i < n)
        out[i] = src[threadIdx.x];
    if (sums && threadIdx.x == BS - 1)
        sums[blockIdx.x] = src[threadIdx.x];
}

__global__ void add_sums(int *out, const int *sums, int n)
{
    int i = blockIdx.x * BS + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += sums[blockIdx.x - 1];
}

static int num_blocks(int n)
{
#if PLANT_CUDA_EXIT
    return n / BS;
#else
    return (n + BS - 1) / BS;
#endif
}

static void scan_rec(const int *d_in, int *d_out, int n)
{
    int blocks = num_blocks(n);
    int *sums = NULL;
    CHECK(cudaMalloc(&sums, (blocks + 1) * sizeof(int)));
    block_scan<<<blocks, BS>>>(d_in, d_out, sums, n);
    CHECK(cudaGetLastError());
    if (blocks > 1) {
        scan_rec(sums, sums, blocks);
        add_sums<<<blocks, BS>>>(d_out, sums, n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaFree(sums));
}

/* the number of levels of the scan tree, as students often write it */
static int levels(int n)
{
    int l = 0;
#if PLANT_HANG_ZERO
    for (int m = n; m != 1; m = (m + 1) / 2)
        l++;
#else
    for (int m = n; m > 1; m = (m + 1) / 2)
        l++;
#endif
    return l;
}

static volatile int tree_levels; /* kept for a debug print the student removed */

static int next_pow2(int n)
{
    int p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    tree_levels = levels(n);
    if (n <= 0)
        return;
    block_scan<<<1, BS>>>(d_in, d_out, NULL, n);
    CHECK(cudaGetLastError());
}

extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    (void)d_scratch;
    tree_levels = levels(n);
    if (n <= 0)
        return;
    scan_rec(d_in, d_out, n);
}

extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    (void)threads;
    scan_inclusive(d_in, d_out, n, d_scratch);
}

/* exclusive: the work-efficient (Blelloch) tree in global memory over a
   size padded to a power of two, one launch per level; the result copied
   back to the host "to check it" and up again */
__global__ void up_sweep(int *x, int size, int stride)
{
    long k = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 2 * stride;
    if (k + 2 * stride - 1 < size)
        x[k + 2 * stride - 1] += x[k + stride - 1];
}

__global__ void down_sweep(int *x, int size, int stride)
{
    long k = ((long)blockIdx.x * blockDim.x + threadIdx.x) * 2 * stride;
    if (k + 2 * stride - 1 < size) {
        int t = x[k + stride - 1];
        x[k + stride - 1] = x[k + 2 * stride - 1];
        x[k + 2 * stride - 1] += t;
    }
}

static int padded_size(int n)
{
#if PLANT_PRECEDENCE
    if (n & (n - 1) != 0) /* not a power of two: pad (as C reads it: n & 1) */
        return next_pow2(n);
    return n;
#else
    return next_pow2(n);
#endif
}

extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    (void)d_scratch;
    tree_levels = levels(n);
    if (n <= 0)
        return;
    int padded = padded_size(n);
    int *d_tmp = NULL;
    CHECK(cudaMalloc(&d_tmp, padded * sizeof(int)));
    CHECK(cudaMemset(d_tmp, 0, padded * sizeof(int)));
    CHECK(cudaMemcpy(d_tmp, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    for (int stride = 1; stride < padded; stride *= 2) {
        int threads = (padded + 2 * stride - 1) / (2 * stride);
        up_sweep<<<(threads + 255) / 256, 256>>>(d_tmp, padded, stride);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemset(d_tmp + padded - 1, 0, sizeof(int)));
    for (int stride = padded / 2; stride >= 1; stride /= 2) {
        int threads = (padded + 2 * stride - 1) / (2 * stride);
        down_sweep<<<(threads + 255) / 256, 256>>>(d_tmp, padded, stride);
        CHECK(cudaGetLastError());
    }
    int *h = (int *)malloc((PLANT_HEAP ? n : padded) * sizeof(int));
    CHECK(cudaMemcpy(h, d_tmp, padded * sizeof(int), cudaMemcpyDeviceToHost));
    int *res = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        res[i] = h[i];
    CHECK(cudaMemcpy(d_out, res, n * sizeof(int), cudaMemcpyHostToDevice));
    free(res);
    free(h);
    CHECK(cudaFree(d_tmp));
}
