/* harness/labs/lab04.c: the lab table entry of lab 04, stream compaction.
 * Parts, yardsticks, sizes and points live here only.
 *
 * The returned count is checked as one more element: parts (b) and (c)
 * write d_out[0 .. n) and the table stores the count at d_out[n]; the CPU
 * references leave out[count .. n) as poison, as the contract requires of
 * the GPU code. The keep fraction is a parameter of the input. */
#include "../../kernels_ref/cpu/compact.h"
#include "../../kernels_ref/vendor/cub_select.h"
#include "../../labs/04-compaction/compaction.h"
#include "../diagnose.h"
#include "../gpu.h"
#include "../lab.h"
#include "../rng.h"

/* About keep * n of the values are > 0; the others are 0 or negative. */
static void gen_keep(int *a, size_t len, uint64_t seed, double keep)
{
    pl_rng r;
    pl_rng_seed(&r, seed);
    for (size_t i = 0; i < len; i++) {
        int x = 1 + (int)pl_rng_range(&r, 0, 999999);
        double u = (double)(pl_rng_next(&r) >> 11) * 0x1p-53;
        a[i] = u < keep ? x : (x % 8 == 0 ? 0 : -x);
    }
}

static void flags_gpu(const int *in, int *out, int n, int *scratch) { (void)scratch, compact_flags(in, out, n); }
static void flags_cpu(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] > 0;
}

static void finish_cpu(int *out, size_t n, size_t k)
{
    for (size_t i = k; i < n; i++)
        out[i] = PL_POISON_I32;
    out[n] = (int)k;
}
/* The count goes after the output; a negative one (the stub's -1) is not
   stored, so an untouched output reads as "not implemented yet". */
static void store_count(int *out, int n, int k)
{
    if (k >= 0)
        pl_store_int(out + n, k);
}
static void scan_gpu(const int *in, int *out, int n, int *scratch) { store_count(out, n, compact_scan(in, out, n, scratch)); }
static void warp_gpu(const int *in, int *out, int n, int *scratch) { store_count(out, n, compact_warp(in, out, n, scratch)); }
static void ref_cpu(const int *in, int *out, size_t n) { finish_cpu(out, n, compact_cpu(in, out, n)); }
static void ref_omp(const int *in, int *out, size_t n) { finish_cpu(out, n, compact_omp(in, out, n)); }
static int ref_cub(const int *in, int *out, int n, void *temp, size_t bytes)
{
    int k = 0, e = vendor_select_positive(in, out, n, temp, bytes, &k);
    if (e == 0)
        pl_store_int(out + n, k);
    return e;
}
static long plus_count(long n) { return n + 1; }
/* the input read once and the kept part written once (about keep * n) */
static double kept_bytes(long n, double keep) { return 4.0 * (double)n * (1.0 + keep); }
static double flag_bytes(long n, double keep) { return (void)keep, 8.0 * (double)n; }

static size_t scratch_ints(long n) { return CP_SCRATCH_INTS(n); }

static const double keep_tests[] = {0, 0.01, 0.5, 0.99, 1};
static const double keep_sweep[] = {0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1};

#define COMMON .points = 1, .bench = 1, .param_name = "keep", .params = keep_tests, .nparams = 5, \
               .bench_param = 0.5, .gen = gen_keep
static const pl_part parts[] = {
    {.id = "a", .title = "flags", .entry = "compact_flags", .gpu = flags_gpu, .cpu = flags_cpu, .bytes = flag_bytes,
     COMMON},
    {.id = "b", .title = "map, scan, scatter", .entry = "compact_scan", .gpu = scan_gpu, .cpu = ref_cpu,
     .omp = ref_omp, .vendor = ref_cub, .out_len = plus_count, .bytes = kept_bytes, COMMON},
    {.id = "c", .title = "one pass, warp votes", .entry = "compact_warp", .gpu = warp_gpu, .cpu = ref_cpu,
     .omp = ref_omp, .vendor = ref_cub, .out_len = plus_count, .bytes = kept_bytes, COMMON},
};

/* Performance: the one-pass part against CUB DeviceSelect, half kept. */
static const pl_perf perf[] = {
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.4, .zero = 0.1, .param = 0.5},
};

static const pl_lab lab04 = {
    .id = "04",
    .name = "compaction",
    .title = "stream compaction",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    PL_SCAN_LAB_SIZES,
    .gen_lo = -1000000,
    .gen_hi = 1000000,
    .bytes_per_elem = sizeof(int), /* unused: every part counts its own bytes */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
    .vendor_temp_bytes = vendor_select_temp_bytes,
    .param_sweep_n = 1L << 24,
    .sweep_params = keep_sweep,
    .nsweep_params = sizeof keep_sweep / sizeof keep_sweep[0],
};

const pl_lab *pl_this_lab(void) { return &lab04; }
