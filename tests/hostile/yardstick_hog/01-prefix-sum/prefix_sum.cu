/* hostile: yardstick_hog. slow_honest's code plus a host thread that keeps
 * the GPU busy with spinning blocks on a stream of its own (at most two
 * 50 us kernels of four blocks per SM in flight) whenever the student's own
 * call is not running: it stops and drains before each of its own calls
 * and resumes 2 ms after. The vendor yardstick, timed in the same worker
 * process, then shares the GPU with the hog; the student's calls do not.
 * (How much this slows the yardstick depends on the GPU's block scheduler;
 * if it does not, this case passes.)
 * The grader must give: the solution's correctness points, and no more
 * performance points than slow_honest (same code, no attack). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
/* @@SOLUTION@@ */
/* @@INCLUDE slow.h@@ */

static volatile int hx_in_call;
static volatile double hx_quiet_until;
static cudaStream_t hx_hog_stream;
static int hx_sms = 1;

static double hx_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__global__ void hx_hog_k(long long ns)
{
    __shared__ long long t0;
    long long t;
    if (threadIdx.x == 0)
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    __syncthreads();
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
}

static void *hx_hog(void *)
{
    cudaEvent_t ev[2];
    cudaEventCreateWithFlags(&ev[0], cudaEventDisableTiming);
    cudaEventCreateWithFlags(&ev[1], cudaEventDisableTiming);
    for (int k = 0;; k ^= 1) {
        while (hx_in_call || hx_now() < hx_quiet_until)
            usleep(20);
        cudaEventSynchronize(ev[k]); /* at most two in flight */
        hx_hog_k<<<4 * hx_sms, 256, 0, hx_hog_stream>>>(50000);
        cudaEventRecord(ev[k], hx_hog_stream);
    }
    return NULL;
}

static void hx_hogged_scan(const int *d_in, int *d_out, int n, int *d_scratch, int exclusive)
{
    static int started;
    if (!started && n >= (1 << 22)) {
        started = 1;
        cudaDeviceGetAttribute(&hx_sms, cudaDevAttrMultiProcessorCount, 0);
        cudaStreamCreateWithFlags(&hx_hog_stream, cudaStreamNonBlocking);
        pthread_t t;
        pthread_create(&t, NULL, hx_hog, NULL);
    }
    hx_in_call = 1;
    if (hx_hog_stream)
        cudaStreamSynchronize(hx_hog_stream);
    hx_slow_scan(d_in, d_out, n, d_scratch, exclusive);
    hx_quiet_until = hx_now() + 0.002;
    hx_in_call = 0;
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_hogged_scan(d_in, d_out, n, d_scratch, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_hogged_scan(d_in, d_out, n, d_scratch, 1); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
