/* harness/gpu.cu: CUDA helpers of the harness (see gpu.h). */
#include "gpu.h"

#include "diagnose.h"
#include "proc.h"
#include "timing.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" void pl_cuda_check(int err, const char *expr, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    char reason[200];
    snprintf(reason, sizeof reason, "CUDA error %s (%s) at %s:%d: %s",
             cudaGetErrorName((cudaError_t)err), cudaGetErrorString((cudaError_t)err), file, line, expr);
    pl_child_abort(PL_ERROR, reason, NULL);
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
        snprintf(reason, sizeof reason, "CUDA error while %s %s: %s (%s)", when, what,
                 cudaGetErrorString(e), cudaGetErrorName(e));
    pl_child_abort(PL_ERROR, reason, NULL);
}

extern "C" int pl_devinfo_here(pl_devinfo *d)
{
    memset(d, 0, sizeof *d);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver) {
        snprintf(d->error, sizeof d->error, "no usable CUDA driver (libcuda missing, or older than the runtime)");
        return 0;
    }
    if (e != cudaSuccess || count == 0) {
        snprintf(d->error, sizeof d->error, "%s",
                 e != cudaSuccess && e != cudaErrorNoDevice ? cudaGetErrorString(e) : "no CUDA device found");
        return 0;
    }
    cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) {
        snprintf(d->error, sizeof d->error, "%s", cudaGetErrorString(e));
        return 0;
    }
    size_t free_b = 0, total_b = 0;
    if ((e = cudaMemGetInfo(&free_b, &total_b)) != cudaSuccess) {
        snprintf(d->error, sizeof d->error, "%s", cudaGetErrorString(e));
        return 0;
    }
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->l2_bytes = p.l2CacheSize;
    d->mem_bytes = (long long)total_b;
    d->free_bytes = (long long)free_b;
    d->ok = 1;
    return 1;
}

static void probe_child(void *arg, pl_result *out)
{
    (void)arg;
    pl_devinfo d;
    pl_devinfo_here(&d);
    memcpy(out->payload, &d, sizeof d);
}

extern "C" int pl_probe_device(pl_devinfo *d)
{
    static_assert(sizeof(pl_devinfo) <= sizeof(((pl_result *)0)->payload), "payload too small");
    memset(d, 0, sizeof *d);
    const char *no = getenv("PRIMLAB_NO_GPU");
    if (no && *no && strcmp(no, "0") != 0) {
        snprintf(d->error, sizeof d->error, "PRIMLAB_NO_GPU is set");
        return 0;
    }
    pl_result r;
    if (pl_run_isolated(probe_child, NULL, 60, &r) != PL_PASS) {
        snprintf(d->error, sizeof d->error, "device probe failed: %s", r.reason);
        return 0;
    }
    memcpy(d, r.payload, sizeof *d);
    return d->ok;
}

extern "C" int pl_dbuf_alloc(pl_dbuf *b, size_t bytes)
{
    memset(b, 0, sizeof *b);
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes + 2 * PL_GUARD_BYTES);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* an out-of-memory is not sticky: clear it */
        return (int)e;
    }
    b->base = (unsigned char *)p;
    b->ptr = b->base + PL_GUARD_BYTES;
    b->bytes = bytes;
    pl_dbuf_poison(b);
    return 0;
}

extern "C" void pl_dbuf_poison(pl_dbuf *b)
{
    CUDA_CHECK(cudaMemsetAsync(b->base, PL_POISON_BYTE, b->bytes + 2 * PL_GUARD_BYTES));
}

extern "C" void pl_dbuf_upload(pl_dbuf *b, const void *host)
{
    if (b->bytes)
        CUDA_CHECK(cudaMemcpy(b->ptr, host, b->bytes, cudaMemcpyHostToDevice));
}

extern "C" void pl_dbuf_download(const pl_dbuf *b, void *host, uint8_t *front, uint8_t *back)
{
    if (b->bytes && host)
        CUDA_CHECK(cudaMemcpy(host, b->ptr, b->bytes, cudaMemcpyDeviceToHost));
    if (front)
        CUDA_CHECK(cudaMemcpy(front, b->base, PL_GUARD_BYTES, cudaMemcpyDeviceToHost));
    if (back)
        CUDA_CHECK(cudaMemcpy(back, b->base + PL_GUARD_BYTES + b->bytes, PL_GUARD_BYTES,
                              cudaMemcpyDeviceToHost));
}

extern "C" void pl_dbuf_free(pl_dbuf *b)
{
    if (b->base)
        cudaFree(b->base);
    memset(b, 0, sizeof *b);
}

extern "C" void pl_store_int(int *d_slot, int value)
{
    CUDA_CHECK(cudaMemcpy(d_slot, &value, sizeof value, cudaMemcpyHostToDevice));
}

/* A buffer twice the L2's size, written before each timed call so that no
   input is served from the cache. */
static void flush_l2(void)
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

extern "C" double pl_time_gpu_ms(pl_fn call, void *arg, pl_fn prep, void *prep_arg, int reps)
{
    if (reps < 1)
        reps = 1;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double *ms = (double *)malloc(sizeof *ms * (size_t)reps);
    if (!ms)
        pl_child_abort(PL_ERROR, "out of host memory", NULL);
    for (int r = -1; r < reps; r++) { /* r = -1: the warm-up */
        if (prep)
            prep(prep_arg);
        flush_l2();
        CUDA_CHECK(cudaEventRecord(start));
        call(arg);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        pl_check_call("the timed call");
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        if (r >= 0)
            ms[r] = t;
    }
    double med = pl_median(ms, reps);
    free(ms);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return med;
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
    double ms = pl_time_gpu_ms(copy_call, &a, NULL, NULL, 9);
    CUDA_CHECK(cudaFree(a.src));
    CUDA_CHECK(cudaFree(a.dst));
    return 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
}
