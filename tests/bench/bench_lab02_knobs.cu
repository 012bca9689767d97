/* tests/bench/bench_lab02_knobs.cu: the sweep behind lab 02's shared-memory
 * Blelloch scan (part b): the solution's reduce-then-scan with other block
 * sizes, beside a device-to-device copy, a copy kernel and CUB's
 * DeviceScan::ExclusiveSum, all in one process. The elements a slot of
 * the tree sums (ITEMS, 4 in the solution) are a macro of the solution's
 * header, so tests/bench/bench_lab02_knobs.sh builds this once for each value
 * and runs each build. Every block size is first checked against CUB at
 * sizes that are not multiples of its tile. Needs a GPU of sm_70 or
 * later. A benchmark, not a test: `make test` does not run it.
 *
 * Output: one row per block size, the median of REPS timed calls: ms,
 * GB/s (8 bytes per element: read once, written once, what a single pass
 * moves; the solution reads the input twice), % of the faster copy,
 * x CUB. With HEADER=0 in the environment, no header and no copy rows
 * (the script's later builds). */
#include "../../solutions/02-blelloch-scan/blelloch_tile.cuh"

#include <cub/device/device_scan.cuh>

#define BENCH_NAME "bench_lab02_knobs"
#include "bench_common.cuh"
#include "bench_scan.cuh"

#include <string.h>

static unsigned *d_in, *d_out, *d_ref;
static int *d_scratch;
static void *d_cub;
static size_t cub_bytes;
static unsigned long long *d_bad;
static int sms;

typedef void (*scan_fn)(long n, int threads);

static void blelloch(long n, int threads)
{
    blelloch_scan_shared<false>((const int *)d_in, (int *)d_out, n, d_scratch, threads, 0);
}

static void cub_scan(long n, int threads)
{
    (void)threads;
    size_t b = cub_bytes;
    cub::DeviceScan::ExclusiveSum(d_cub, b, d_in, d_out, (int)n);
}

static void copy_kernel(long n, int threads)
{
    (void)threads;
    copy_k<<<sms * 16, 256>>>((const uint4 *)d_in, (uint4 *)d_out, n / 4);
}

static void copy_memcpy(long n, int threads)
{
    (void)threads;
    cudaMemcpyAsync(d_out, d_in, (size_t)n * 4, cudaMemcpyDeviceToDevice);
}

/* How many of n elements differ from CUB's scan of fresh random input (the
   output poisoned first, one word past n too, which must stay poisoned). */
static long differences(long n, int threads)
{
    return scan_differences(d_in, d_out, d_ref, n, d_bad, d_cub, cub_bytes, [=] { blelloch(n, threads); });
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1L << 24;
    const int reps = argc > 2 ? atoi(argv[2]) : 30;
    if (n < 1 || n > (1L << 30) || reps < 1) {
        fprintf(stderr, "usage: bench_lab02_knobs [N (1..2^30, default 2^24)] [REPS (default 30)]\n");
        return 2;
    }
    const char *h = getenv("HEADER");
    const int header = !h || strcmp(h, "0") != 0;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    sms = p.multiProcessorCount;
    const long room = n + 4096;
    scan_buffers(room, &d_in, &d_out, &d_ref, &d_bad, &d_cub, &cub_bytes);
    CK(cudaMalloc(&d_scratch, (room / 64 + 4096) * 4)); /* the tile sums of every level, tiles of 256 and up */
    if (header)
        printf("# %s, %d SMs, CCCL %d.%d.%d; n = %ld, median of %d\n", p.name, sms, CCCL_MAJOR_VERSION,
               CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, n, reps);

    static const int threads[] = {64, 128, 256, 512, 1024};
    int wrong = 0;
    /* 20000 and 2^24 + 5: the top level's block walks several tiles, the
       last one partial (8193 tile sums with 256 threads, 16385 with 128) */
    const long sizes[] = {1, 2, 1000, 4097, 20000, 123457, (1L << 22) + 13, (1L << 24) + 5, n};
    for (int t : threads)
        for (long m : sizes) {
            if (m > n)
                continue;
            long bad = differences(m, t);
            if (bad)
                printf("WRONG %d threads x %d items at n = %ld: %ld elements differ from CUB\n", t, ITEMS, m, bad),
                    wrong = 1;
        }

    fill_words_k<<<1024, 256>>>(d_in, n, 777);
    const double bytes = 8.0 * n;
    auto time = [&](scan_fn f, int t) { return median_ms([=] { f(n, t); }, reps); };
    const float t_memcpy = time(copy_memcpy, 0), t_copy = time(copy_kernel, 0), t_cub = time(cub_scan, 0);
    const double roof = bytes / std::min(t_memcpy, t_copy) / 1e6;
    if (header)
        printf("%-36s %9s %8s %7s %7s\n", "", "ms", "GB/s", "% copy", "x CUB");
    auto print = [&](const char *name, float t) {
        printf("%-36s %9.4f %8.0f %7.1f %7.3f\n", name, t, bytes / t / 1e6, 100 * bytes / t / 1e6 / roof, t_cub / t);
        fflush(stdout);
    };
    if (header) {
        print("cudaMemcpy device to device", t_memcpy);
        print("copy kernel (16-byte loads)", t_copy);
    }
    print("CUB DeviceScan::ExclusiveSum", t_cub);
    for (int t : threads) {
        char name[64];
        snprintf(name, sizeof name, "%d threads x 2 x %d items%s", t, ITEMS, t == 256 && ITEMS == 4 ? " (solution)" : "");
        print(name, time(blelloch, t));
    }
    return wrong;
}
