/* harness/parent/labs/lab06.c: the lab table entry of lab 06, warp-shuffle
 * reduction. Parts, yardsticks, sizes and points live here only; the
 * worker's side is harness/worker/labs/lab06.cu.
 *
 * The outputs are one float or one double, judged by pl_compare_real: the
 * exact sum, and a tolerance. The inputs make the tolerance zero: every
 * value is a whole multiple of 2^-10, and the magnitudes are chosen from n
 * so that the sum of |x| stays below 2^24 units (float) or 2^40 (double):
 * then every partial sum of every order is exact, so any correct reduction
 * gives the exact sum, and an element left out or counted twice shows at
 * any size. An input that breaks that rule (none the grader makes) is
 * judged with the worst-case bound of a sum in any order of chunks of up
 * to TOL_CHUNK serial additions combined in a tree (pl_sum_tolerance,
 * kernels_ref/cpu/reduce.h). */
#include "../../../kernels_ref/cpu/reduce.h"
#include "../../../labs/06-shuffle-reduction/shuffle_reduction.h"
#include "../diagnose.h"
#include "../lab.h"
#include "../rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define UNIT 0x1p-10       /* every generated value is k * UNIT */
#define F32_EXACT 0x1p24   /* sum |k| up to this: float partial sums exact */
#define F64_EXACT 0x1p40   /* and double ones, with room to spare */
#define TOL_CHUNK 4096

/* ------------------------------------------------------------ inputs */

struct gen_ctx {
    void *a;
    size_t n;
    long m;      /* |k| in 1..m */
    size_t every; /* float above 2^24 elements: one nonzero in each window of this many */
    int dbl;
    uint64_t seed;
};

static void fill(pl_rng *r, size_t lo, size_t hi, void *p)
{
    const struct gen_ctx *c = p;
    for (size_t i = lo; i < hi; i++) {
        long k = 1 + (long)pl_rng_range(r, 0, (uint64_t)c->m - 1);
        if (pl_rng_next(r) & 1)
            k = -k;
        if (c->every > 1) { /* the window's one nonzero sits where its own hash says */
            size_t w = i / c->every;
            k = i % c->every == pl_seed_mix(c->seed, w, c->every) % c->every ? (k > 0 ? 1 : -1) : 0;
        }
        if (c->dbl)
            ((double *)c->a)[i] = (double)k * UNIT;
        else
            ((float *)c->a)[i] = (float)((double)k * UNIT);
    }
}

static void gen_real(void *a, size_t n, uint64_t seed, int dbl)
{
    double room = dbl ? F64_EXACT : F32_EXACT;
    long m = n ? (long)(room / (double)n) : 1;
    m = m < 1 ? 1 : m > (1L << 20) ? 1L << 20 : m;
    struct gen_ctx c = {a, n, m, 1, dbl, seed};
    if (!dbl && (double)n > room)
        c.every = 2 * (size_t)ceil((double)n / room);
    pl_gen_chunks(n, seed, fill, &c);
}
static void gen_f32(int *a, size_t len, uint64_t seed, double param) { (void)param, gen_real(a, len, seed, 0); }
static void gen_f64(int *a, size_t len, uint64_t seed, double param) { (void)param, gen_real(a, len / 2, seed, 1); }

/* --------------------------------------------------------- reference */

static double value_at(const int *in, long i, int dbl)
{
    return dbl ? ((const double *)in)[i] : (double)((const float *)in)[i];
}

/* The exact sum of in[lo, hi) rounded once to a double, and of its
   magnitudes (kernels_ref/cpu/reduce.h); OpenMP above a million elements,
   bit-identical to the serial oracle. */
static double ref_sum(const int *in, long lo, long hi, int dbl, double *abs_sum)
{
    size_t n = (size_t)(hi - lo);
    if (dbl)
        return (n >= 1u << 20 ? pl_reduce_omp_f64 : pl_reduce_cpu_f64)((const double *)in + lo, n, abs_sum);
    return (n >= 1u << 20 ? pl_reduce_omp_f32 : pl_reduce_cpu_f32)((const float *)in + lo, n, abs_sum);
}

/* Every value a whole multiple of UNIT: then, with sum |x| small enough,
   every partial sum is exact. */
static int whole_units(const int *in, long n, int dbl)
{
    int w = 1;
#pragma omp parallel for reduction(& : w) schedule(static) if (n > (1L << 20))
    for (long i = 0; i < n; i++) {
        double x = value_at(in, i, dbl) / UNIT;
        w &= x == floor(x);
    }
    return w;
}

static long one(long n) { return (void)n, 1; }

/* Known mistakes of a reduction: the last partial warp or block left out
   (a loop bound that rounds n down), the first element left out. */
static double suspect_vals[PL_MAX_SUSPECTS];
static char suspect_what[PL_MAX_SUSPECTS][96];

static void expect_sum(const int *in, long n, int dbl, double *want, double *tol, pl_cmp_real *c)
{
    double abs_sum;
    want[0] = ref_sum(in, 0, n, dbl, &abs_sum);
    int exact = abs_sum / UNIT <= (dbl ? F64_EXACT : F32_EXACT) && whole_units(in, n, dbl);
    tol[0] = exact ? 0 : pl_sum_tolerance((size_t)n, abs_sum, dbl ? 0x1p-53 : 0x1p-24, TOL_CHUNK);
    c->pos_name = "sum";
    int ns = 0;
    long seen = 0;
    for (long b = 32; b <= 1024 && ns < PL_MAX_SUSPECTS - 1; b *= 2) {
        long r = n % b;
        if (r == 0 || r == seen)
            continue;
        seen = r;
        suspect_vals[ns] = want[0] - ref_sum(in, n - r, n, dbl, NULL);
        char last[32] = "the last element";
        if (r > 1)
            snprintf(last, sizeof last, "the last %ld elements", r);
        snprintf(suspect_what[ns], sizeof suspect_what[ns], "%s left out: n rounded down to a multiple of %ld (%s?)",
                 last, b, b == 32 ? "the last partial warp" : "a partial block");
        c->suspects[ns] = (pl_suspect){suspect_what[ns], &suspect_vals[ns]};
        ns++;
    }
    if (n > 1) {
        suspect_vals[ns] = want[0] - value_at(in, 0, dbl);
        snprintf(suspect_what[ns], sizeof suspect_what[ns], "element 0 left out");
        c->suspects[ns] = (pl_suspect){suspect_what[ns], &suspect_vals[ns]};
        ns++;
    }
    c->nsuspects = ns;
}
static void expect_f32(const int *in, long n, double p, double *want, double *tol, pl_cmp_real *c)
{
    (void)p, expect_sum(in, n, 0, want, tol, c);
}
static void expect_f64(const int *in, long n, double p, double *want, double *tol, pl_cmp_real *c)
{
    (void)p, expect_sum(in, n, 1, want, tol, c);
}
static const pl_real_check check_f32 = {PL_ELEM_F32, one, expect_f32};
static const pl_real_check check_f64 = {PL_ELEM_F64, one, expect_f64};

/* ------------------------------------------------- CPU rows (timing) */

/* What a CPU gives the simple way: one accumulator of the type, in order
   (serial), or one per thread (OpenMP). */
#define CPU_SUMS(T, suffix)                                                   \
    static void cpu_##suffix(const int *in, int *out, size_t n)               \
    {                                                                         \
        T s = 0;                                                              \
        for (size_t i = 0; i < n; i++)                                        \
            s += ((const T *)in)[i];                                          \
        memcpy(out, &s, sizeof s);                                            \
    }                                                                         \
    static void omp_##suffix(const int *in, int *out, size_t n)               \
    {                                                                         \
        T s = 0;                                                              \
        _Pragma("omp parallel for reduction(+ : s) schedule(static)")         \
        for (size_t i = 0; i < n; i++)                                        \
            s += ((const T *)in)[i];                                          \
        memcpy(out, &s, sizeof s);                                            \
    }
CPU_SUMS(float, f32)
CPU_SUMS(double, f64)

static long len_f32(long n) { return n; }
static long len_f64(long n) { return 2 * n; }
static long out_f64(long n) { return (void)n, 2; }
static double bytes_f32(long n, double p) { return (void)p, 4.0 * (double)n; }
static double bytes_f64(long n, double p) { return (void)p, 8.0 * (double)n; }
static size_t scratch_ints(long words) { return (SR_SCRATCH_BYTES(words) + 3) / 4; }

#define REDUCE_F32 .max_n = SR_MAX_N, .points = 1, .bench = 1, .vendor = 1, .cpu = cpu_f32, .omp = omp_f32,        \
                   .gen = gen_f32, .in_len = len_f32, .out_len = one, .bytes = bytes_f32, .real = &check_f32
#define REDUCE_F64 .max_n = SR_MAX_N, .points = 1, .bench = 1, .vendor = 1, .cpu = cpu_f64, .omp = omp_f64,        \
                   .gen = gen_f64, .in_len = len_f64, .out_len = out_f64, .bytes = bytes_f64, .real = &check_f64

static const pl_part parts[] = {
    {.id = "af", .title = "tree reduction, float", .entry = "reduce_tree_f32", REDUCE_F32},
    {.id = "ad", .title = "tree reduction, double", .entry = "reduce_tree_f64", REDUCE_F64},
    {.id = "bf", .title = "shuffle reduction, float", .entry = "reduce_shfl_f32", REDUCE_F32},
    {.id = "bd", .title = "shuffle reduction, double", .entry = "reduce_shfl_f64", REDUCE_F64},
};

/* Performance: the shuffle reductions against CUB's DeviceReduce::Sum at
   2^28 elements, in the same run. Full marks from 0.5x (the issue asks the
   solution for 0.9x: not yet measured), nothing at 0.1x or below. */
static const pl_perf perf[] = {
    {.part = "bf", .n = 1L << 28, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.5, .zero = 0.1},
    {.part = "bd", .n = 1L << 27, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.5, .zero = 0.1},
};

static const pl_lab lab06 = {
    .id = "06",
    .name = "shuffle-reduction",
    .title = "warp-shuffle reduction",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    PL_SCAN_LAB_SIZES,
    .bytes_per_elem = sizeof(float),
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
};

const pl_lab *pl_this_lab(void) { return &lab06; }
