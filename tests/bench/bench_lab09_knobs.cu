/* tests/bench/bench_lab09_knobs.cu: the sweep behind the defaults of lab 09's
 * part (d). It compiles the solution into itself and times the whole sort
 * (u32 keys, and key-value pairs) at n = 2^28 with other tile shapes, warp
 * ranking methods and early digit counts, beside CUB's DeviceRadixSort and
 * a copy kernel, all in one process. Every variant is first checked against
 * CUB (keys, and values that are the input positions: both sorts are
 * stable, so they must agree word for word) at sizes that are not multiples
 * of its tile. Built and run by tests/bench/bench_lab09_knobs.sh; needs a GPU of
 * sm_70 or later. A benchmark, not a test: `make test` does not run it.
 *
 * `bench_lab09_knobs N REPS profile` runs two passes of the defaults and
 * nothing else, for a profiler (ncu --kernel-name regex:pass_k3).
 *
 * Output: the histogram (a) and one digit pass (c) of the defaults alone,
 * then one row per variant, the median of REPS timed calls: keys ms, x CUB,
 * pairs ms, x CUB. The copy row is the roof of one pass (each key read and
 * written once); a sort moves about 4.5 times its bytes (keys). */
#include "../../solutions/09-onesweep-sort/onesweep_sort.cu"

#include <cub/device/device_radix_sort.cuh>

#define BENCH_NAME "bench_lab09_knobs"
#include "bench_common.cuh"

#include <string.h>

static unsigned *d_keys, *d_vals, *d_kout, *d_vout, *d_kref, *d_vref;
static void *d_scratch, *d_cub;
static size_t cub_bytes;
static unsigned long long *d_bad;
static int sms;

typedef void (*sort_fn)(long n, bool pairs);

template <int T, int I, int RANK, bool EARLY, int MINB> static void variant(long n, bool pairs)
{
    if (pairs)
        sort_with<true, T, I, RANK, EARLY, MINB>(d_keys, d_vals, d_kout, d_vout, n, d_scratch);
    else
        sort_with<false, T, I, RANK, EARLY, MINB>(d_keys, NULL, d_kout, NULL, n, d_scratch);
}

static void cub_sort(long n, bool pairs)
{
    size_t b = cub_bytes;
    if (pairs)
        cub::DeviceRadixSort::SortPairs(d_cub, b, d_keys, d_kout, d_vals, d_vout, (int)n);
    else
        cub::DeviceRadixSort::SortKeys(d_cub, b, d_keys, d_kout, (int)n);
}

/* the defaults' parts alone: (a), and (c) on digit 0 */
static void hist_only(long n, bool) { histogram(d_keys, n, bases_of(d_scratch), d_scratch); }
static void pass_only(long n, bool)
{
    digit_pass<true, false>(d_keys, d_kout, NULL, NULL, n, 0, bases_of(d_scratch), d_scratch, 0);
}

static void copy_kernel(long n, bool) { copy_k<<<sms * 16, 256>>>((const uint4 *)d_keys, (uint4 *)d_kout, n / 4); }

/* Random keys (a hash of the index and a seed), values their positions. */
__global__ void fill_k(unsigned *k, unsigned *v, long n, unsigned seed)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        k[i] = x, v[i] = (unsigned)i;
    }
}

static unsigned long long differ(const unsigned *a, const unsigned *b, long n)
{
    CK(cudaMemset(d_bad, 0, 8));
    differ_k<<<1024, 256>>>(a, b, n, d_bad);
    unsigned long long bad;
    CK(cudaMemcpy(&bad, d_bad, 8, cudaMemcpyDeviceToHost));
    return bad;
}

/* How many words of the sort of fresh random input differ from CUB's
   (keys, values), the outputs poisoned first. */
static long differences(sort_fn f, long n, bool pairs)
{
    fill_k<<<1024, 256>>>(d_keys, d_vals, n, (unsigned)n * 7919u + (pairs ? 3 : 1));
    size_t b = cub_bytes;
    if (pairs)
        CK(cub::DeviceRadixSort::SortPairs(d_cub, b, d_keys, d_kref, d_vals, d_vref, (int)n));
    else
        CK(cub::DeviceRadixSort::SortKeys(d_cub, b, d_keys, d_kref, (int)n));
    CK(cudaMemset(d_kout, 0xA5, (size_t)n * 4 + 4));
    CK(cudaMemset(d_vout, 0xA5, (size_t)n * 4 + 4));
    CK(cudaMemset(d_scratch, 0x5A, OS_SCRATCH_BYTES(n)));
    f(n, pairs);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    return (long)(differ(d_kout, d_kref, n) + (pairs ? differ(d_vout, d_vref, n) : 0));
}

static float median_ms(sort_fn f, long n, bool pairs, int reps)
{
    return median_ms([=] { f(n, pairs); }, reps);
}

struct row {
    const char *name;
    sort_fn f;
};

/* threads x keys per thread, ranking, early counts, blocks per SM asked of
   the compiler (__launch_bounds__: 1 leaves registers to it) */
#define V(T, I, R, E, B) {#T " x " #I ", " #R ", " #E ", " #B, variant<T, I, R, E, B>}
static const row variants[] = {
    V(384, 15, RANK_MATCH, false, 0), /* the first solution's */
    V(384, 15, RANK_BALLOT, false, 0), V(384, 15, RANK_LEADER, false, 0), V(384, 16, RANK_LEADER, false, 0),
    V(384, 16, RANK_LEADER, false, 3), V(384, 17, RANK_LEADER, false, 0), V(384, 14, RANK_LEADER, false, 0),
    V(384, 15, RANK_LEADER, false, 3), V(384, 17, RANK_LEADER, false, 3), /* the pass defaults, (b) and (c) */
    V(384, 16, RANK_BALLOT, true, 0),  V(320, 18, RANK_LEADER, false, 0), V(352, 17, RANK_LEADER, false, 0),
    V(256, 20, RANK_LEADER, false, 3), V(512, 12, RANK_LEADER, false, 2),
    /* longer tiles at the defaults' occupancy, and 512 or 256 threads */
    V(384, 18, RANK_LEADER, false, 3), V(384, 19, RANK_LEADER, false, 3), V(384, 20, RANK_LEADER, false, 3),
    V(384, 21, RANK_LEADER, false, 3) /* (d) pairs */, V(512, 14, RANK_LEADER, false, 2),
    V(256, 22, RANK_LEADER, false, 4), V(256, 24, RANK_LEADER, false, 4),
    V(512, 13, RANK_LEADER, false, 2), V(448, 15, RANK_LEADER, false, 2),
    V(448, 16, RANK_LEADER, false, 2), V(384, 21, RANK_LEADER, false, 2) /* (d) pairs until 2026-11-29 */,
    V(256, 26, RANK_LEADER, false, 4),
    V(256, 28, RANK_LEADER, false, 4) /* (d) keys */,
    /* longer still, or more registers a thread (2026-11-27: none faster) */
    V(256, 30, RANK_LEADER, false, 4), V(256, 32, RANK_LEADER, false, 4), V(256, 34, RANK_LEADER, false, 3),
    V(288, 25, RANK_LEADER, false, 3), V(320, 22, RANK_LEADER, false, 3),
    /* for the pairs on an H200, where 384 x 21 at two blocks an SM was
       0.83x CUB at 2^28 (2026-11-29): CUB's sm_90 shape and its
       neighbours, which fit since the warps' counts share the tile's
       shared memory (none faster) */
    V(384, 23, RANK_LEADER, false, 2), V(384, 22, RANK_LEADER, false, 2), V(384, 24, RANK_LEADER, false, 2),
    V(384, 19, RANK_LEADER, false, 2), V(512, 16, RANK_LEADER, false, 2), V(256, 30, RANK_LEADER, false, 3),
};

int main(int argc, char **argv)
{
    const long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1L << 28;
    const int reps = argc > 2 ? atoi(argv[2]) : 15;
    if (n < 1 || n > OS_MAX_N || reps < 1) {
        fprintf(stderr, "usage: bench_lab09_knobs [N (1..2^30, default 2^28)] [REPS (default 15)]\n");
        return 2;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    sms = p.multiProcessorCount;
    int driver = 0;
    CK(cudaDriverGetVersion(&driver));
    const long room = n + 4096;
    for (unsigned **a : {&d_keys, &d_vals, &d_kout, &d_vout, &d_kref, &d_vref})
        CK(cudaMalloc(a, room * 4));
    CK(cudaMalloc(&d_scratch, OS_SCRATCH_BYTES(room)));
    CK(cudaMalloc(&d_bad, 8));
    CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, d_keys, d_kout, d_vals, d_vout, (int)room));
    CK(cudaMalloc(&d_cub, cub_bytes));
    printf("# %s, %d SMs, driver %d, CCCL %d.%d.%d; n = %ld, median of %d\n", p.name, sms, driver,
           CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, n, reps);

    if (argc > 3 && !strcmp(argv[3], "profile")) { /* for a profiler: two passes of the defaults, nothing else */
        fill_k<<<1024, 256>>>(d_keys, d_vals, n, 777);
        histogram(d_keys, n, bases_of(d_scratch), d_scratch);
        pass_only(n, false), pass_only(n, false);
        CK(cudaDeviceSynchronize());
        return 0;
    }
    int wrong = 0;
    const long sizes[] = {1, 2, 1000, 5761, 123457, (1L << 22) + 13, n};
    for (const row &v : variants)
        for (long m : sizes)
            for (bool pairs : {false, true}) {
                if (m > n)
                    continue;
                long bad = differences(v.f, m, pairs);
                if (bad)
                    printf("WRONG %s (%s) at n = %ld: %ld words differ from CUB\n", v.name, pairs ? "pairs" : "keys",
                           m, bad),
                        wrong = 1;
            }

    fill_k<<<1024, 256>>>(d_keys, d_vals, n, 777);
    const float t_copy = median_ms(copy_kernel, n, false, reps), t_cub = median_ms(cub_sort, n, false, reps),
                t_cubp = median_ms(cub_sort, n, true, reps);
    const double gb = 8.0 * n / 1e9;
    printf("copy kernel (one pass's bytes)      %8.3f ms  %6.0f GB/s\n", t_copy, gb / t_copy * 1e3);
    const float t_hist = median_ms(hist_only, n, false, reps), t_pass = median_ms(pass_only, n, false, reps);
    printf("(a) histogram, defaults             %8.3f ms  %6.0f GB/s read\n", t_hist, gb / 2 / t_hist * 1e3);
    printf("(c) one pass, defaults              %8.3f ms  %6.0f GB/s, %.0f %% of the copy\n", t_pass,
           gb / t_pass * 1e3, 100 * t_copy / t_pass);
    printf("%-36s %8s %7s %8s %7s\n", "", "keys ms", "x CUB", "pairs ms", "x CUB");
    printf("%-36s %8.3f %7.3f %8.3f %7.3f\n", "CUB DeviceRadixSort", t_cub, 1.0, t_cubp, 1.0);
    fflush(stdout);
    for (const row &v : variants) {
        const float k = median_ms(v.f, n, false, reps), pr = median_ms(v.f, n, true, reps);
        printf("%-36s %8.3f %7.3f %8.3f %7.3f\n", v.name, k, t_cub / k, pr, t_cubp / pr);
        fflush(stdout);
    }
    const float k = median_ms(cub_sort, n, false, reps), pr = median_ms(cub_sort, n, true, reps);
    printf("%-36s %8.3f %7.3f %8.3f %7.3f\n", "CUB again (the run's drift)", k, t_cub / k, pr, t_cubp / pr);
    return wrong;
}
