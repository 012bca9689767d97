/* harness/worker/allocs.cu: the wrappers of the CUDA runtime's allocation
 * functions, and the counts they keep while a call is watched (allocs.h).
 *
 * The worker's link passes -Wl,--wrap=F for each F wrapped here (the
 * Makefile reads the list from this file's __wrap_ definitions), so that
 * every reference to F, in the student's object or the harness's, reaches
 * __wrap_F, and __real_F is the runtime's F. The core keeps these global
 * (objcopy -G) so that the student's references resolve to them. The
 * headers name no _v2 versions; with a per-thread default stream the
 * stream-ordered ones are the _ptsz symbols, wrapped as well.
 */
#include "allocs.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <time.h>

static int watching;
static int32_t calls[PL_AF_COUNT];
static int64_t spent_ns;

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

extern "C" void pl_alloc_watch_begin(void)
{
    for (int f = 0; f < PL_AF_COUNT; f++)
        calls[f] = 0;
    spent_ns = 0;
    watching = 1;
}

extern "C" void pl_alloc_watch_end(pl_alloc_tally *t)
{
    watching = 0;
    for (int f = 0; f < PL_AF_COUNT; f++)
        t->calls[f] = calls[f];
    t->ms = (double)spent_ns / 1e6;
}

extern "C" int pl_alloc_pause(void)
{
    int was = watching;
    watching = 0;
    return was;
}

extern "C" void pl_alloc_resume(int was_watching) { watching = was_watching; }

/* One call of the runtime's function, counted when watched. Atomic: the
   student's code may allocate from several host threads. */
template <class Call> static cudaError_t counted(int fn, Call call)
{
    if (!watching)
        return call();
    int64_t t0 = now_ns();
    cudaError_t e = call();
    __atomic_fetch_add(&calls[fn], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&spent_ns, now_ns() - t0, __ATOMIC_RELAXED);
    return e;
}

/* cudaFree and cudaFreeHost wait until the device is idle: that wait is the
   kernels' time, not the allocator's. A watched free waits first, untimed
   (the call would have waited anyway; its errors, sticky, come back from
   the free as they would have). */
static void drain(const void *p)
{
    if (watching && p)
        cudaDeviceSynchronize();
}

// ---------------------------------------------------------------- wrappers

extern "C" {

cudaError_t __real_cudaMalloc(void **p, size_t bytes);
cudaError_t __real_cudaFree(void *p);
cudaError_t __real_cudaMallocAsync(void **p, size_t bytes, cudaStream_t s);
cudaError_t __real_cudaMallocAsync_ptsz(void **p, size_t bytes, cudaStream_t s);
cudaError_t __real_cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t __real_cudaFreeAsync_ptsz(void *p, cudaStream_t s);
cudaError_t __real_cudaMallocFromPoolAsync(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s);
cudaError_t __real_cudaMallocFromPoolAsync_ptsz(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s);
cudaError_t __real_cudaMallocManaged(void **p, size_t bytes, unsigned int flags);
cudaError_t __real_cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
cudaError_t __real_cudaMalloc3D(cudaPitchedPtr *p, cudaExtent extent);
cudaError_t __real_cudaMallocHost(void **p, size_t bytes);
cudaError_t __real_cudaHostAlloc(void **p, size_t bytes, unsigned int flags);
cudaError_t __real_cudaFreeHost(void *p);

cudaError_t __wrap_cudaMalloc(void **p, size_t bytes)
{
    return counted(PL_AF_MALLOC, [&] { return __real_cudaMalloc(p, bytes); });
}

cudaError_t __wrap_cudaFree(void *p)
{
    drain(p);
    return counted(PL_AF_FREE, [&] { return __real_cudaFree(p); });
}

cudaError_t __wrap_cudaMallocAsync(void **p, size_t bytes, cudaStream_t s)
{
    return counted(PL_AF_MALLOC_ASYNC, [&] { return __real_cudaMallocAsync(p, bytes, s); });
}

cudaError_t __wrap_cudaMallocAsync_ptsz(void **p, size_t bytes, cudaStream_t s)
{
    return counted(PL_AF_MALLOC_ASYNC, [&] { return __real_cudaMallocAsync_ptsz(p, bytes, s); });
}

cudaError_t __wrap_cudaFreeAsync(void *p, cudaStream_t s)
{
    return counted(PL_AF_FREE_ASYNC, [&] { return __real_cudaFreeAsync(p, s); });
}

cudaError_t __wrap_cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
    return counted(PL_AF_FREE_ASYNC, [&] { return __real_cudaFreeAsync_ptsz(p, s); });
}

cudaError_t __wrap_cudaMallocFromPoolAsync(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s)
{
    return counted(PL_AF_MALLOC_POOL, [&] { return __real_cudaMallocFromPoolAsync(p, bytes, pool, s); });
}

cudaError_t __wrap_cudaMallocFromPoolAsync_ptsz(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s)
{
    return counted(PL_AF_MALLOC_POOL, [&] { return __real_cudaMallocFromPoolAsync_ptsz(p, bytes, pool, s); });
}

cudaError_t __wrap_cudaMallocManaged(void **p, size_t bytes, unsigned int flags)
{
    return counted(PL_AF_MALLOC_MANAGED, [&] { return __real_cudaMallocManaged(p, bytes, flags); });
}

cudaError_t __wrap_cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    return counted(PL_AF_MALLOC_PITCH, [&] { return __real_cudaMallocPitch(p, pitch, width, height); });
}

cudaError_t __wrap_cudaMalloc3D(cudaPitchedPtr *p, cudaExtent extent)
{
    return counted(PL_AF_MALLOC_3D, [&] { return __real_cudaMalloc3D(p, extent); });
}

cudaError_t __wrap_cudaMallocHost(void **p, size_t bytes)
{
    return counted(PL_AF_MALLOC_HOST, [&] { return __real_cudaMallocHost(p, bytes); });
}

cudaError_t __wrap_cudaHostAlloc(void **p, size_t bytes, unsigned int flags)
{
    return counted(PL_AF_HOST_ALLOC, [&] { return __real_cudaHostAlloc(p, bytes, flags); });
}

cudaError_t __wrap_cudaFreeHost(void *p)
{
    drain(p);
    return counted(PL_AF_FREE_HOST, [&] { return __real_cudaFreeHost(p); });
}

} /* extern "C" */
