/* tests/bench/bench_lab08_knobs.cu: the sweep behind the defaults of lab 08's
 * part (c). It compiles the solution into itself and times the tuned scan
 * (int32, exclusive) at n = 2^28 with other tile shapes and look-back
 * sleeps, beside a device-to-device copy, a copy kernel and CUB's
 * DeviceScan::ExclusiveSum, all in one process. Every variant is first
 * checked against CUB at sizes that are not multiples of its tile.
 * Built and run by tests/bench/bench_lab08_knobs.sh; needs a GPU of sm_70 or
 * later. A benchmark, not a test: `make test` does not run it.
 *
 * Output: one row per variant, the median of REPS timed calls (each call
 * clears its state with a memset, as the kit times it): ms, GB/s (8 bytes
 * per element: read once, written once), % of the faster copy, x CUB. */
#include "../../solutions/08-single-pass-scan/single_pass_scan.cu"

#include <cub/device/device_scan.cuh>

#define BENCH_NAME "bench_lab08_knobs"
#include "bench_common.cuh"
#include "bench_scan.cuh"

#include <string.h>

static unsigned *d_in, *d_out, *d_ref;
static void *d_scratch, *d_cub;
static size_t cub_bytes;
static unsigned long long *d_bad;
static int sms;

typedef void (*scan_fn)(long n);

template <int THREADS, int VECS, int DELAY_NS, int SPIN_NS> static void variant(long n)
{
    tuned_with<unsigned, THREADS, VECS, DELAY_NS, SPIN_NS, false>(d_in, d_out, n, d_scratch);
}

static void cub_scan(long n)
{
    size_t b = cub_bytes;
    cub::DeviceScan::ExclusiveSum(d_cub, b, d_in, d_out, (int)n);
}

static void copy_kernel(long n) { copy_k<<<sms * 16, 256>>>((const uint4 *)d_in, (uint4 *)d_out, n / 4); }
static void copy_memcpy(long n) { cudaMemcpyAsync(d_out, d_in, (size_t)n * 4, cudaMemcpyDeviceToDevice); }

/* How many of n elements differ from CUB's scan of fresh random input (the
   output poisoned first, one word past n too, which must stay poisoned). */
static long differences(scan_fn f, long n)
{
    return scan_differences(d_in, d_out, d_ref, n, d_bad, d_cub, cub_bytes, [=] { f(n); });
}

static float median_ms(scan_fn f, long n, int reps)
{
    return median_ms([=] { f(n); }, reps);
}

struct row {
    const char *name;
    scan_fn f;
};

/* threads x items per thread, sleep before the look-back, sleep between polls */
#define V(T, VE, D, S) {#T " threads x " #VE " vec4, sleep " #D "/" #S " ns", variant<T, VE, D, S>}
static const row variants[] = {
    V(128, 8, 3200, 600), /* the solution's defaults */
    V(128, 8, 0, 600),    V(128, 8, 1200, 600),  V(128, 8, 2400, 600), V(128, 8, 4000, 600),
    V(128, 8, 6400, 600), V(128, 8, 3200, 32),   V(128, 8, 3200, 1200), V(128, 6, 3200, 600),
    V(128, 4, 3200, 600), V(192, 6, 3200, 600),  V(256, 4, 0, 32), /* the first solution's */
    V(256, 4, 3200, 600), V(256, 8, 3200, 600),  V(64, 12, 3200, 600),
};

int main(int argc, char **argv)
{
    const long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1L << 28;
    const int reps = argc > 2 ? atoi(argv[2]) : 25;
    if (n < 1 || n > SPS_MAX_N || reps < 1) {
        fprintf(stderr, "usage: bench_lab08_knobs [N (1..2^30, default 2^28)] [REPS (default 25)]\n");
        return 2;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    sms = p.multiProcessorCount;
    const long room = n + 4096;
    scan_buffers(room, &d_in, &d_out, &d_ref, &d_bad, &d_cub, &cub_bytes);
    CK(cudaMalloc(&d_scratch, SPS_SCRATCH_BYTES(room)));
    printf("# %s, %d SMs, CCCL %d.%d.%d; n = %ld, median of %d\n", p.name, sms, CCCL_MAJOR_VERSION,
           CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, n, reps);

    int wrong = 0;
    const long sizes[] = {1, 2, 1000, 4097, 123457, (1L << 24) + 13, n};
    for (const row &v : variants)
        for (long m : sizes) {
            if (m > n)
                continue;
            long bad = differences(v.f, m);
            if (bad)
                printf("WRONG %s at n = %ld: %ld elements differ from CUB\n", v.name, m, bad), wrong = 1;
        }

    fill_words_k<<<1024, 256>>>(d_in, n, 777);
    const double bytes = 8.0 * n;
    const float t_memcpy = median_ms(copy_memcpy, n, reps), t_copy = median_ms(copy_kernel, n, reps),
                t_cub = median_ms(cub_scan, n, reps);
    const double roof = bytes / std::min(t_memcpy, t_copy) / 1e6;
    printf("%-36s %9s %8s %7s %7s\n", "", "ms", "GB/s", "% copy", "x CUB");
    auto print = [&](const char *name, float t) {
        printf("%-36s %9.4f %8.0f %7.1f %7.3f\n", name, t, bytes / t / 1e6, 100 * bytes / t / 1e6 / roof, t_cub / t);
        fflush(stdout);
    };
    print("cudaMemcpy device to device", t_memcpy);
    print("copy kernel (16-byte loads)", t_copy);
    print("CUB DeviceScan::ExclusiveSum", t_cub);
    for (const row &v : variants)
        print(v.name, median_ms(v.f, n, reps));
    print("CUB again (the run's drift)", median_ms(cub_scan, n, reps));
    return wrong;
}
