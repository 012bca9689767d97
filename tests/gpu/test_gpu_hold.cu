/* tests/gpu/test_gpu_hold.cu: the hold before a timed call (pl_hold_gpu,
 * harness/worker/gpu.cu) holds the whole GPU, not just the default stream:
 * a kernel launched meanwhile on a non-blocking stream of its own (how
 * tests/fixtures/hostile/fake_time_slow hides its work from the CUDA events) must
 * not start before the hold ends, or it would run in time that neither the
 * events nor the parent's clock bound charge. Also: what the default
 * stream queues during the hold starts when it ends, and pl_time_call
 * times work on such a stream to its end. Skipped, with one line, without
 * a GPU. */
#include "../../harness/worker/gpu.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" void pl_worker_fail(int code, const char *why)
{
    fprintf(stderr, "test_gpu_hold: CUDA failed (%d): %s\n", code, why);
    exit(1);
}

static __global__ void stamp_k(unsigned long long *at)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    *at = t;
}

static __global__ void spin_k(long long ns)
{
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
}

/* 300 us of work on the default stream, or on a non-blocking stream that
   the call returns without waiting for */
static cudaStream_t side;
static void on_default(void *arg) { (void)arg, spin_k<<<1, 1>>>(300000); }
static void on_side(void *arg) { (void)arg, spin_k<<<1, 1, 0, side>>>(300000); }

int main(void)
{
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
        printf("SKIP: test_gpu_hold: no GPU\n");
        return 0;
    }
    unsigned long long *t;
    CUDA_CHECK(cudaMallocManaged(&t, 3 * sizeof *t));
    CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    const double hold_ns = PL_HOLD_US * 1e3;
    int fail = 0;
    for (int rep = 0; rep < 10; rep++) {
        stamp_k<<<1, 1>>>(&t[0]); /* before the hold */
        CUDA_CHECK(cudaDeviceSynchronize());
        pl_hold_gpu();
        stamp_k<<<1, 1, 0, side>>>(&t[1]); /* the other stream's work */
        stamp_k<<<1, 1>>>(&t[2]);          /* the default stream's, queued behind */
        CUDA_CHECK(cudaDeviceSynchronize());
        double side_ns = (double)(t[1] - t[0]), queued_ns = (double)(t[2] - t[0]);
        if (side_ns < 0.95 * hold_ns || queued_ns < 0.95 * hold_ns) {
            printf("FAIL: test_gpu_hold: repetition %d: a kernel on another stream started %.1f us after the "
                   "hold began, the default stream's %.1f us; the hold is %d us\n",
                   rep + 1, side_ns / 1e3, queued_ns / 1e3, PL_HOLD_US);
            fail = 1;
        }
    }
    if (!fail)
        printf("test_gpu_hold: 10 of 10: nothing started during a %d us hold, on either stream\n", PL_HOLD_US);
    /* pl_time_call times work the default stream does not wait for to its
       end, and honest work as the events see it */
    double honest = 1e9, hidden = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double a = pl_time_call(on_default, NULL, "on_default"), b = pl_time_call(on_side, NULL, "on_side");
        honest = a < honest ? a : honest, hidden = b < hidden ? b : hidden;
    }
    if (honest < 0.3 || honest > 0.35 || hidden < 0.3) {
        printf("FAIL: test_gpu_hold: pl_time_call gave %.4f ms for 0.3 ms on the default stream, %.4f ms for 0.3 "
               "ms on a non-blocking stream (fastest of 5)\n",
               honest, hidden);
        fail = 1;
    } else {
        printf("test_gpu_hold: pl_time_call: 0.3 ms of work is %.4f ms on the default stream, %.4f ms on a "
               "non-blocking one (fastest of 5)\n",
               honest, hidden);
    }
    return fail;
}
