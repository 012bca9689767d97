/* harness/worker/gpu.cu: CUDA helpers of the worker (see gpu.h). */
#include "gpu.h"

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
    d->l2_bytes = p.l2CacheSize;
    d->mem_bytes = (int64_t)total_b;
    d->free_bytes = (int64_t)free_b;
    return 1;
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

extern "C" double pl_time_gpu_once(pl_fn call, void *arg, pl_fn prep, void *prep_arg)
{
    static cudaEvent_t start, stop;
    if (!start) {
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
    }
    if (prep)
        prep(prep_arg);
    pl_flush_l2();
    CUDA_CHECK(cudaEventRecord(start));
    call(arg);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    pl_check_call("the timed call");
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    return t;
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
