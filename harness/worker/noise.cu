/* harness/worker/noise.cu: the noise beside a stressed call (see noise.h). */
#include "noise.h"

#include <cuda_runtime.h>
#include <time.h>

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

int pl_noise_start(long n)
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
    /* for up to 20 us plus several times what a pass over n words takes
       (2n words at ~3 TB/s: n / 375 ns); holding between a quarter of the
       SMs and all of them, or sharing with one to four blocks per SM */
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

int pl_noise_wait(void) { return !noise_stream || cudaStreamSynchronize(noise_stream) == cudaSuccess; }
