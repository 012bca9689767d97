/* harness/worker/gpu.cu: CUDA helpers of the worker (see gpu.h). */
#include "gpu.h"

#include <cub/version.cuh>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" void pl_cuda_check(int err, const char *expr, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    char reason[200];
    snprintf(reason, sizeof reason, "CUDA error %s (%s) at %s:%d: %s", cudaGetErrorName((cudaError_t)err),
             cudaGetErrorString((cudaError_t)err), file, line, expr);
    pl_worker_fail(PL_W_CALL_ERROR, reason);
}

extern "C" void pl_check_call(const char *what)
{
    cudaError_t e = cudaGetLastError();
    const char *when = "launching";
    if (e == cudaSuccess) {
        e = cudaDeviceSynchronize();
        when = "running";
    }
    if (e == cudaSuccess)
        return;
    char reason[200];
    if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure)
        snprintf(reason, sizeof reason, "kernel fault in %s: %s (%s)", what, cudaGetErrorString(e),
                 cudaGetErrorName(e));
    else
        snprintf(reason, sizeof reason, "CUDA error while %s %s: %s (%s)", when, what, cudaGetErrorString(e),
                 cudaGetErrorName(e));
    pl_worker_fail(PL_W_CALL_ERROR, reason);
}

extern "C" int pl_describe_device(pl_reply *d)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver) {
        snprintf(d->reason, sizeof d->reason, "no usable CUDA driver (libcuda missing, or older than the runtime)");
        return 0;
    }
    if (e != cudaSuccess || count == 0) {
        snprintf(d->reason, sizeof d->reason, "%s",
                 e != cudaSuccess && e != cudaErrorNoDevice ? cudaGetErrorString(e) : "no CUDA device found");
        return 0;
    }
    /* Waits block instead of spinning: the CPU time a call uses is then its own. */
    cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
    cudaDeviceProp p;
    size_t free_b = 0, total_b = 0;
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess || (e = cudaMemGetInfo(&free_b, &total_b)) != cudaSuccess) {
        snprintf(d->reason, sizeof d->reason, "%s", cudaGetErrorString(e));
        return 0;
    }
    snprintf(d->device, sizeof d->device, "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    d->clock_khz = khz;
    d->l2_bytes = p.l2CacheSize;
    d->mem_bytes = (int64_t)total_b;
    d->free_bytes = (int64_t)free_b;
    return 1;
}

extern "C" void pl_vendor_version(char *out, size_t cap)
{
#if defined(CCCL_MAJOR_VERSION)
    snprintf(out, cap, "CCCL %d.%d.%d", (int)CCCL_MAJOR_VERSION, (int)CCCL_MINOR_VERSION, (int)CCCL_PATCH_VERSION);
#else
    snprintf(out, cap, "CUB %d.%d.%d", (int)CUB_MAJOR_VERSION, (int)CUB_MINOR_VERSION, (int)CUB_SUBMINOR_VERSION);
#endif
}

extern "C" int pl_dbuf_reserve(pl_dbuf *b, size_t bytes)
{
    if (!b->base || bytes > b->cap) {
        pl_dbuf_free(b);
        void *p = NULL;
        cudaError_t e = cudaMalloc(&p, bytes + 2 * PL_GUARD_BYTES);
        if (e != cudaSuccess) {
            cudaGetLastError(); /* an out-of-memory is not sticky: clear it */
            return (int)e;
        }
        b->base = (unsigned char *)p;
        b->cap = bytes;
    }
    b->ptr = b->base + PL_GUARD_BYTES;
    b->bytes = bytes; /* the back guard starts right after the usable bytes */
    return 0;
}

extern "C" void pl_dbuf_poison(pl_dbuf *b)
{
    if (b->base)
        CUDA_CHECK(cudaMemsetAsync(b->base, PL_POISON_BYTE, b->bytes + 2 * PL_GUARD_BYTES));
}

extern "C" void pl_dbuf_free(pl_dbuf *b)
{
    if (b->base)
        cudaFree(b->base);
    memset(b, 0, sizeof *b);
}

extern "C" void pl_flush_l2(void)
{
    static void *buf = NULL;
    static size_t bytes = 0;
    if (!buf) {
        int dev = 0, l2 = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        bytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
        CUDA_CHECK(cudaMalloc(&buf, bytes));
    }
    CUDA_CHECK(cudaMemsetAsync(buf, 0, bytes));
}

/* Every block spins ns nanoseconds on the GPU's clock; the launch fills
   every SM (pl_hold_gpu), so nothing else starts until they end. */
static __global__ void hold_k(long long ns)
{
    extern __shared__ unsigned char held[];
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
    if (t == 0) /* never: keeps the shared memory the launch asks for */
        held[threadIdx.x] = 1;
}

extern "C" void pl_hold_gpu(void)
{
    /* two blocks an SM, each of half its threads and half its shared
       memory: the SM has no room left for a block of anyone else's */
    static int blocks, threads;
    static size_t smem;
    if (!blocks) {
        int dev = 0, sms = 0, per_sm = 0, smem_sm = 0, smem_max = 0, reserved = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
        threads = per_sm / 2 < 1024 ? per_sm / 2 : 1024;
        smem = (size_t)(smem_sm / 2 - reserved);
        smem = smem < (size_t)smem_max ? smem : (size_t)smem_max;
        CUDA_CHECK(cudaFuncSetAttribute(hold_k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        /* all of the SM's shared memory for shared use, or one block an SM
           would leave room */
        CUDA_CHECK(cudaFuncSetAttribute(hold_k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        cudaSharedmemCarveoutMaxShared));
        blocks = 2 * sms;
    }
    hold_k<<<blocks, threads, smem>>>(PL_HOLD_US * 1000LL);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" double pl_time_call(pl_fn call, void *arg, const char *who)
{
    static cudaEvent_t start, stop, drained;
    if (!start) {
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        CUDA_CHECK(cudaEventCreate(&drained));
    }
    pl_hold_gpu(); /* the call's launches queue behind it */
    CUDA_CHECK(cudaEventRecord(start));
    call(arg);
    CUDA_CHECK(cudaEventRecord(stop));
    pl_check_call(who); /* waits for every stream */
    CUDA_CHECK(cudaEventRecord(drained));
    CUDA_CHECK(cudaEventSynchronize(drained));
    float t = 0, after = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    CUDA_CHECK(cudaEventElapsedTime(&after, stop, drained));
    if (after > PL_DRAIN_US * 1e-3f)
        CUDA_CHECK(cudaEventElapsedTime(&t, start, drained));
    return t;
}

extern "C" double pl_time_gpu_once(pl_fn call, void *arg, pl_fn prep, void *prep_arg)
{
    if (prep)
        prep(prep_arg);
    pl_flush_l2();
    return pl_time_call(call, arg, "the timed call");
}

struct copy_arg {
    void *dst, *src;
    size_t bytes;
};

static void copy_call(void *p)
{
    struct copy_arg *a = (struct copy_arg *)p;
    CUDA_CHECK(cudaMemcpyAsync(a->dst, a->src, a->bytes, cudaMemcpyDeviceToDevice));
}

extern "C" double pl_copy_gbps(void)
{
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t bytes = (size_t)1 << 30;
    while (bytes > ((size_t)1 << 24) && 2 * bytes > free_b / 2)
        bytes /= 2;
    struct copy_arg a = {NULL, NULL, bytes};
    CUDA_CHECK(cudaMalloc(&a.src, bytes));
    CUDA_CHECK(cudaMalloc(&a.dst, bytes));
    CUDA_CHECK(cudaMemset(a.src, 1, bytes));
    double best = 1e30;
    for (int r = 0; r < 9; r++) {
        double ms = pl_time_gpu_once(copy_call, &a, NULL, NULL);
        best = ms < best ? ms : best;
    }
    CUDA_CHECK(cudaFree(a.src));
    CUDA_CHECK(cudaFree(a.dst));
    return 2.0 * (double)bytes / (best * 1e-3) / 1e9;
}

/* ------------------------------------------------- shared-memory roof */

/* Each thread reads UNROLL words of W bytes per iteration from fixed offsets
 * of a 16 KiB shared array: lane l of a warp reads bytes [W*l, W*l + W) of
 * each W*32-byte row, so a warp's read is conflict-free (one wavefront per
 * 128 bytes). The loads are ld.volatile.shared in volatile asm: the asm
 * keeps nvcc from moving or merging them, and .volatile keeps ptxas from
 * doing so (with plain ld.shared, ptxas removed the repeated loads of an
 * unchanged address and the "bandwidth" came out at 384 % of the banks'
 * peak on an H100). Their values are folded into one word that is stored
 * only when it equals a value it cannot reach. */
#define SMEM_BYTES 16384
#define SMEM_UNROLL 16

/* __launch_bounds__: without it the compiler may keep all 16 loads' values
   live at once, and a block of 1024 threads would not launch. */
template <int W> __global__ void __launch_bounds__(1024) smem_read_k(unsigned *sink, int iters)
{
    __shared__ __align__(16) unsigned buf[SMEM_BYTES / 4];
    for (int i = threadIdx.x; i < SMEM_BYTES / 4; i += blockDim.x)
        buf[i] = 2654435761u * (unsigned)i;
    __syncthreads();
    /* rows of W*32 bytes; warp w starts at row w, each unrolled read one
       row further (mod the array), offsets known at compile time */
    constexpr int ROW = W * 32, ROWS = SMEM_BYTES / ROW;
    unsigned base = (unsigned)__cvta_generic_to_shared(buf) + (threadIdx.x % 32) * W;
    unsigned first = (threadIdx.x / 32) % ROWS;
    unsigned acc = 0;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < SMEM_UNROLL; u++) {
            unsigned at = base + ((first + u) % ROWS) * ROW;
            if (W == 16) {
                unsigned x, y, z, w;
                asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(at));
                acc ^= x ^ y ^ z ^ w;
            } else {
                unsigned x;
                asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(at));
                acc ^= x;
            }
        }
    }
    if (acc == 0x9e3779b9u && iters < 0)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

struct smem_arg {
    int width, threads, blocks, iters;
    unsigned *sink;
};

static void smem_call(void *p)
{
    struct smem_arg *a = (struct smem_arg *)p;
    if (a->width == 16)
        smem_read_k<16><<<a->blocks, a->threads>>>(a->sink, a->iters);
    else
        smem_read_k<4><<<a->blocks, a->threads>>>(a->sink, a->iters);
}

extern "C" double pl_smem_gbps(void)
{
    int dev = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    unsigned *sink = NULL;
    CUDA_CHECK(cudaMalloc(&sink, (size_t)sms * (size_t)per_sm * sizeof *sink));
    double best = 0;
    const int widths[] = {16, 4}, threads[] = {1024, 256};
    for (int wi = 0; wi < 2; wi++)
        for (int ti = 0; ti < 2; ti++) {
            /* every SM full; about 1 GB read per SM at 16-byte words, a few ms */
            struct smem_arg a = {widths[wi], threads[ti], sms * (per_sm / threads[ti]), 0, sink};
            a.iters = widths[wi] == 16 ? 2048 : 4096;
            double bytes = (double)a.blocks * a.threads * a.iters * SMEM_UNROLL * a.width;
            smem_call(&a); /* warm-up */
            pl_check_call("the shared-memory roof");
            for (int r = 0; r < 5; r++) {
                double ms = pl_time_gpu_once(smem_call, &a, NULL, NULL);
                double gbps = bytes / (ms * 1e-3) / 1e9;
                best = gbps > best ? gbps : best;
            }
        }
    CUDA_CHECK(cudaFree(sink));
    return best;
}
