/* harness/worker/labs/lab08.cu: lab 08's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab08.c,
 * the ids and part bs's output layout both sides share in harness/wire/lab08.h.
 *
 * Part bs, the stress test of scan_lookback, adds two things of the kit's
 * own around the call, without the student's code knowing:
 *   - noise: just before the call, a kernel on a stream of its own
 *     (non-blocking, so it runs beside the default stream's work), in one
 *     of two kinds, chosen at random each call. Holding: each block takes a
 *     whole SM's shared memory, so that no block of the scan (which uses
 *     some) can share that SM, for a random time, on a random quarter to
 *     all of the SMs; half of them meanwhile hammer the L2 and DRAM with
 *     atomics at random addresses of a buffer larger than the L2. Sharing:
 *     small blocks without shared memory, up to four per SM, all hammering,
 *     beside the scan's blocks. The scan's tiles then start on some SMs
 *     late and at random, run at uneven speeds, and their status words
 *     travel through a busy memory system: a flag published before its
 *     value, or without a fence, is read early more often than on an idle
 *     device;
 *   - the tile counter: after the call, ((unsigned *)d_scratch)[0] is read
 *     and reported in the word after the output, d_out[n]: 1 when the call
 *     took tile ids from it (it is not 0), 0 when it is 0, and left as poison
 *     when the call never wrote it (so that an untouched stub still reads as
 *     "not implemented yet"). n = 0 launches nothing: 1. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/08-single-pass-scan/single_pass_scan.h"
#include "../../wire/lab08.h"
#include "../gpu.h"
#include "../ops.h"

#include <cuda_runtime.h>
#include <time.h>

PL_OP(a_gpu, scan_chained(in, out, n, scratch))
PL_OP(b_gpu, scan_lookback(in, out, n, scratch))
PL_OP(c_gpu, scan_tuned_exclusive(in, out, n, scratch))
PL_OP(ci_gpu, scan_tuned_inclusive(in, out, n, scratch))
PL_OP(cf_gpu, scan_tuned_exclusive_f32((const float *)in, (float *)out, n, scratch))
PL_OP(cfi_gpu, scan_tuned_inclusive_f32((const float *)in, (float *)out, n, scratch))

/* ------------------------------------------------------- part bs: noise */

#define JUNK_WORDS ((size_t)1 << 26) /* 256 MiB: larger than any L2 */

static __device__ __forceinline__ unsigned long long now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned long long mix64(unsigned long long x)
{
    x ^= x >> 31, x *= 0x7fb5d329728ea185ull, x ^= x >> 27, x *= 0x81dadef4bc2dd44dull, x ^= x >> 33;
    return x;
}

/* Each block alive for a random time below max_ns. Holding (held != 0):
   one block per SM, its dynamic shared memory sees to that, and half the
   blocks hammer memory meanwhile. Sharing: every block hammers. */
static __global__ void noise_k(unsigned *junk, unsigned long long seed, unsigned max_ns, int holding)
{
    extern __shared__ unsigned held[];
    unsigned long long h = mix64(seed ^ (0x9e3779b97f4a7c15ull * (blockIdx.x + 1)));
    unsigned long long end = now_ns() + h % max_ns;
    int hammer = !holding || ((h >> 40) & 1);
    unsigned x = (unsigned)(h >> 8) ^ (threadIdx.x * 0x9e3779b9u);
    if (holding)
        held[threadIdx.x] = x; /* the reservation is what matters; touch it anyway */
    while (now_ns() < end) {
        if (hammer) {
            x = x * 1664525u + 1013904223u;
            atomicAdd(&junk[x & (unsigned)(JUNK_WORDS - 1)], 1u);
        } else {
            __nanosleep(256);
        }
    }
}

static cudaStream_t noise_stream;
static unsigned *junk;
static int noise_smem, noise_sms;

/* Launches the noise for a call of size n; 0 when it cannot (then the call
   runs without it: the counter check still holds). */
static int noise_start(int n)
{
    static unsigned long long calls;
    if (!noise_stream) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&noise_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&noise_sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaFuncSetAttribute(noise_k, cudaFuncAttributeMaxDynamicSharedMemorySize, noise_smem) != cudaSuccess ||
            cudaMalloc(&junk, JUNK_WORDS * sizeof *junk) != cudaSuccess ||
            cudaStreamCreateWithFlags(&noise_stream, cudaStreamNonBlocking) != cudaSuccess) {
            cudaGetLastError();
            noise_stream = 0;
            return 0;
        }
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long seed = (unsigned long long)ts.tv_nsec ^ (++calls * 0xd1b54a32d192ed03ull);
    seed ^= seed >> 29, seed *= 0xbf58476d1ce4e5b9ull, seed ^= seed >> 32;
    /* for up to 20 us plus several times what the scan itself takes (2n
       words at ~3 TB/s: n / 375 ns); holding between a quarter of the SMs
       and all of them, or sharing with one to four blocks per SM */
    unsigned max_ns = 20000u + (unsigned)((unsigned long long)n / 64);
    int holding = (seed >> 17) & 1;
    if (holding) {
        int blocks = noise_sms / 4 + (int)(seed % (unsigned long long)(noise_sms - noise_sms / 4 + 1));
        noise_k<<<blocks > 0 ? blocks : 1, 256, noise_smem, noise_stream>>>(junk, seed, max_ns, 1);
    } else {
        int blocks = noise_sms * (1 + (int)((seed >> 23) % 4));
        noise_k<<<blocks, 128, 0, noise_stream>>>(junk, seed, max_ns, 0);
    }
    return 1;
}

static int bs_gpu(const int *in, int *out, int n, int *scratch)
{
    int one = 1;
    if (n == 0) { /* nothing to launch, nothing to check */
        CUDA_CHECK(cudaMemcpy(out, &one, sizeof one, cudaMemcpyHostToDevice));
        return 0;
    }
    int noisy = noise_start(n);
    scan_lookback(in, out, n, scratch);
    /* the call's kernels done (a fault is reported by the caller's check) */
    unsigned counter = 0;
    if (cudaMemcpy(&counter, scratch, sizeof counter, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 0;
    if (noisy && cudaStreamSynchronize(noise_stream) != cudaSuccess)
        return 0;
    if (counter != (unsigned)PL_POISON_I32) {
        int seen = counter != 0;
        CUDA_CHECK(cudaMemcpy(out + n, &seen, sizeof seen, cudaMemcpyHostToDevice));
    }
    return 0;
}

static size_t temp_bytes(int n) { return vendor_scan_temp_bytes(n); }

static constexpr pl_op_def op_a = {"scan_chained", a_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_b = {"scan_lookback", b_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_bs = {"scan_lookback", bs_gpu, NULL};
static constexpr pl_op_def op_c = {"scan_tuned_exclusive", c_gpu, vendor_scan_exclusive};
static constexpr pl_op_def op_ci = {"scan_tuned_inclusive", ci_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_cf = {"scan_tuned_exclusive_f32", cf_gpu, vendor_scan_exclusive_f32};
static constexpr pl_op_def op_cfi = {"scan_tuned_inclusive_f32", cfi_gpu, vendor_scan_inclusive_f32};

static constexpr pl_op ops[] = {PL_LAB08_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
