/* tests/unit/test_ref06.c: Check tests of lab 06's CPU references
 * (kernels_ref/cpu/reduce.c and spmv.c), run by `make test` or alone:
 *
 *   make build/tests/test_ref06 && build/tests/test_ref06
 *
 *   - reduce: the oracle sums exact on inputs whose sum is known (small
 *     integers, powers of two far apart, subnormals, ties, overflow of a
 *     partial sum, x and -x among small values), within their bound of a
 *     long double compensated sum on random data, and bit-identical between
 *     the serial and OpenMP versions at every thread count;
 *   - tolerance: GPU-like orders of 2^20 random floats and doubles pass it;
 *     a sum that drops any one of 64 elements fails it; a serial sum built
 *     to round up every time errs by 0.99 of its bound, and passes;
 *   - experiment: the three float orders exact on integer inputs, the tree
 *     in a GPU's shape; at n = 2^24, seeds 1-8, the median serial error
 *     is >= 100x the worst pairwise or tree error, and each seed's >= 10x
 *     (measured: median 4.3e-5 against 9.3e-8, 470x; a seed's 14x (seed 1,
 *     whose serial error is a lucky 1.3e-6) to 4500x), the pairwise and
 *     tree errors within their bounds; past 2^25 the serial sum stops
 *     growing; the generator ignores the thread count;
 *   - spmv: a hand-made CSR with an empty row exact, cancellation within a
 *     row exact, serial and OpenMP bit-identical on a random CSR, other
 *     summation orders of a row within the row tolerance, a row that skips
 *     its last entry outside it.
 */
#include "../../harness/parent/rng.h"
#include "../../kernels_ref/cpu/reduce.h"
#include "../../kernels_ref/cpu/spmv.h"
#include "../lib/check_main.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U32 0x1p-24 /* unit roundoff of float */
#define U64 0x1p-53 /* of double */

static const int thread_counts[] = {1, 2, 3, 5, 8};
#define NTHREADS (int)(sizeof thread_counts / sizeof thread_counts[0])

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    ck_assert_msg(p != NULL, "out of memory for %zu bytes", bytes);
    return p;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* uniform in [-1, 1) times 2^e, e uniform in [lo, hi] */
static double rand_wide(pl_rng *r, int lo, int hi)
{
    double m = (double)(int64_t)(pl_rng_next(r) >> 11) * 0x1p-52 - 1.0;
    return ldexp(m, (int)pl_rng_range(r, lo, hi));
}

/* Neumaier's compensated sum in long double: within 2 u_L |S| + O(n u_L^2) sum|x|. */
static long double ld_sum(const double *x, size_t n, long double *abs)
{
    long double s = 0, c = 0, a = 0;
    for (size_t i = 0; i < n; i++) {
        long double v = x[i], t = s + v;
        c += fabsl(s) >= fabsl(v) ? (s - t) + v : (v - t) + s;
        s = t;
        a += fabsl(v);
    }
    *abs = a;
    return s + c;
}

/* ------------------------------------------------------------- reduce */

/* x[i] = i % 201 - 100 (float and double): the sum is an exact integer. */
static const size_t int_sizes[] = {0, 1, 2, 7, 201, 65535, 65536, 1000003};

START_TEST(reduce_exact_on_small_integers)
{
    size_t n = int_sizes[_i];
    float *f = xmalloc(n * sizeof *f);
    double *d = xmalloc(n * sizeof *d);
    int64_t sum = 0, abs = 0;
    for (size_t i = 0; i < n; i++) {
        int v = (int)(i % 201) - 100;
        f[i] = (float)v, d[i] = v;
        sum += v, abs += v < 0 ? -v : v;
    }
    double sa[4];
    double s[4] = {pl_reduce_cpu_f32(f, n, &sa[0]), pl_reduce_omp_f32(f, n, &sa[1]), pl_reduce_cpu_f64(d, n, &sa[2]),
                   pl_reduce_omp_f64(d, n, &sa[3])};
    for (int k = 0; k < 4; k++) {
        ck_assert_msg(s[k] == (double)sum, "n %zu version %d: sum %.17g, want %lld", n, k, s[k], (long long)sum);
        ck_assert_msg(sa[k] == (double)abs, "n %zu version %d: sum_abs %.17g, want %lld", n, k, sa[k], (long long)abs);
    }
    free(f), free(d);
}
END_TEST

/* Inputs whose exact sum is known and a naive double sum gets wrong. */
typedef struct exact_case {
    const char *what;
    int is_float;
    int n;
    double x[4];
    double sum, sum_abs;
} exact_case;

static const exact_case exact_cases[] = {
    {"far apart", 0, 3, {0x1p100, 1, -0x1p100}, 1, 0x1p101},
    {"far apart, float", 1, 3, {0x1p100, 0x1p-100, -0x1p100}, 0x1p-100, 0x1p101},
    {"a partial sum beyond DBL_MAX", 0, 3, {DBL_MAX, DBL_MAX, -DBL_MAX}, DBL_MAX, INFINITY},
    {"the sum beyond DBL_MAX", 0, 2, {DBL_MAX, DBL_MAX}, INFINITY, INFINITY},
    {"float beyond FLT_MAX is fine in double", 1, 4, {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX}, 4.0 * FLT_MAX, 4.0 * FLT_MAX},
    {"subnormals", 0, 3, {0x1p-1074, 0x1p-1074, 0x1p-1074}, 0x1.8p-1073, 0x1.8p-1073},
    {"float subnormals", 1, 3, {0x1p-149, 0x1p-149, -0x1p-148}, 0, 0x1p-147},
    {"a tie rounds to even (down)", 0, 2, {1, 0x1p-53}, 1, 1},
    {"a tie rounds to even (up)", 0, 2, {1 + 0x1p-52, 0x1p-53}, 1 + 0x1p-51, 1 + 0x1p-51},
    {"just above a tie rounds up", 0, 3, {1, 0x1p-53, 0x1p-1000}, 1 + 0x1p-52, 1 + 0x1p-52},
    {"just below a tie rounds down", 0, 3, {1, 0x1p-53, -0x1p-1000}, 1, 1 + 0x1p-52},
    {"negative, rounded away", 0, 3, {-1, -0x1p-53, -0x1p-200}, -1 - 0x1p-52, 1 + 0x1p-52},
    {"float 2^24 + 1 is exact in double", 1, 2, {0x1p24, 1}, 0x1p24 + 1, 0x1p24 + 1},
    {"everything cancels", 0, 4, {0x1p-1074, 0x1p1000, -0x1p1000, -0x1p-1074}, 0, 0x1p1001},
};
#define N_EXACT (int)(sizeof exact_cases / sizeof exact_cases[0])

START_TEST(reduce_exact_on_known_sums)
{
    const exact_case *c = &exact_cases[_i];
    double sa[2], s[2];
    if (c->is_float) {
        float f[4];
        for (int i = 0; i < c->n; i++)
            f[i] = (float)c->x[i];
        s[0] = pl_reduce_cpu_f32(f, (size_t)c->n, &sa[0]);
        s[1] = pl_reduce_omp_f32(f, (size_t)c->n, &sa[1]);
    } else {
        s[0] = pl_reduce_cpu_f64(c->x, (size_t)c->n, &sa[0]);
        s[1] = pl_reduce_omp_f64(c->x, (size_t)c->n, &sa[1]);
    }
    for (int k = 0; k < 2; k++) {
        ck_assert_msg(same_bits(s[k], c->sum), "%s: sum %a, want %a", c->what, s[k], c->sum);
        ck_assert_msg(same_bits(sa[k], c->sum_abs), "%s: sum_abs %a, want %a", c->what, sa[k], c->sum_abs);
    }
}
END_TEST

START_TEST(reduce_nan_and_infinities)
{
    double d[3] = {1, INFINITY, 2}, sa;
    ck_assert(pl_reduce_cpu_f64(d, 3, &sa) == INFINITY && sa == INFINITY);
    d[1] = -INFINITY;
    ck_assert(pl_reduce_cpu_f64(d, 3, &sa) == -INFINITY && sa == INFINITY);
    d[0] = INFINITY;
    ck_assert(isnan(pl_reduce_cpu_f64(d, 3, &sa)) && sa == INFINITY);
    d[0] = NAN;
    d[1] = 1;
    ck_assert(isnan(pl_reduce_cpu_f64(d, 3, &sa)) && isnan(sa));
    float f[2] = {NAN, 1};
    ck_assert(isnan(pl_reduce_omp_f32(f, 2, &sa)) && isnan(sa));
    f[0] = -INFINITY;
    ck_assert(pl_reduce_omp_f32(f, 2, NULL) == -INFINITY);
    ck_assert(pl_reduce_cpu_f32(f, 0, &sa) == 0 && sa == 0);
    ck_assert(pl_reduce_omp_f64(d, 0, &sa) == 0 && sa == 0);
}
END_TEST

/* Triples (v, s, -v) shuffled: v random over 2^-60 .. 2^60, s = k 2^-40 with
   |k| < 2^20, so the exact sum is (sum k) 2^-40. Floats: v over 2^-20 ..
   2^20, s = k 2^-30 with |k| < 2^10. */
START_TEST(reduce_exact_under_cancellation)
{
    size_t triples = 100000, n = 3 * triples;
    double *d = xmalloc(n * sizeof *d);
    float *f = xmalloc(n * sizeof *f);
    pl_rng r;
    pl_rng_seed(&r, 6001 + (uint64_t)_i);
    int64_t kd = 0, kf = 0;
    for (size_t t = 0; t < triples; t++) {
        double v = rand_wide(&r, -60, 60);
        int64_t k = pl_rng_range(&r, -(1 << 20) + 1, (1 << 20) - 1);
        d[3 * t] = v, d[3 * t + 1] = ldexp((double)k, -40), d[3 * t + 2] = -v;
        kd += k;
        float vf = (float)rand_wide(&r, -20, 20);
        k = pl_rng_range(&r, -(1 << 10) + 1, (1 << 10) - 1);
        f[3 * t] = vf, f[3 * t + 1] = ldexpf((float)k, -30), f[3 * t + 2] = -vf;
        kf += k;
    }
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates, the same swaps for both */
        size_t j = (size_t)pl_rng_range(&r, 0, (int64_t)i);
        double td = d[i];
        d[i] = d[j], d[j] = td;
        float tf = f[i];
        f[i] = f[j], f[j] = tf;
    }
    double want_d = ldexp((double)kd, -40), want_f = ldexp((double)kf, -30);
    ck_assert_msg(pl_reduce_cpu_f64(d, n, NULL) == want_d, "double: %a, want %a", pl_reduce_cpu_f64(d, n, NULL), want_d);
    ck_assert(pl_reduce_omp_f64(d, n, NULL) == want_d);
    ck_assert_msg(pl_reduce_cpu_f32(f, n, NULL) == want_f, "float: %a, want %a", pl_reduce_cpu_f32(f, n, NULL), want_f);
    ck_assert(pl_reduce_omp_f32(f, n, NULL) == want_f);
    double naive = 0;
    for (size_t i = 0; i < n; i++)
        naive += d[i];
    ck_assert_msg(naive != want_d, "the input is too easy: a naive double sum got it right");
    free(d), free(f);
}
END_TEST

/* Random data of mixed signs and magnitudes, with and without cancellation
   (_i odd: every second element is minus the one before, times 1 + 2^-30). */
START_TEST(reduce_within_bound_of_long_double)
{
    if (LDBL_MANT_DIG < 64) {
        printf("SKIP: long double has %d bits here; not counted as passed\n", LDBL_MANT_DIG);
        return;
    }
    size_t n = 1 << 18;
    double *d = xmalloc(n * sizeof *d), *df = xmalloc(n * sizeof *df);
    float *f = xmalloc(n * sizeof *f);
    pl_rng r;
    pl_rng_seed(&r, 6100 + (uint64_t)_i);
    for (size_t i = 0; i < n; i++) {
        d[i] = i % 2 && _i % 2 ? -d[i - 1] * (1 + 0x1p-30) : rand_wide(&r, -30, 30);
        f[i] = i % 2 && _i % 2 ? -f[i - 1] * (1 + 0x1p-12f) : (float)rand_wide(&r, -30, 30);
        df[i] = f[i];
    }
    long double la, l = ld_sum(d, n, &la), lfa, lf = ld_sum(df, n, &lfa);
    double sa, s = pl_reduce_cpu_f64(d, n, &sa), sfa, sf = pl_reduce_cpu_f32(f, n, &sfa);
    /* |ref - S| <= 2^-53 |S|, |l - S| <= 2^-63 |S| + n^2 2^-128 sum|x| (generous) */
    long double slack = (long double)n * n * 0x1p-128L;
    ck_assert_msg(fabsl(s - l) <= 0x1p-52L * fabsl(l) + slack * la, "double: %a vs %La (sum|x| %La)", s, l, la);
    ck_assert_msg(fabsl(sf - lf) <= 0x1p-52L * fabsl(lf) + slack * lfa, "float: %a vs %La", sf, lf);
    ck_assert(fabsl(sa - la) <= 0x1p-52L * la + slack * la);
    ck_assert(fabsl(sfa - lfa) <= 0x1p-52L * lfa + slack * lfa);
    if (_i % 2) /* the cancellation is real: S is far below sum|x| */
        ck_assert_msg(fabsl(l) < la * 0x1p-20L, "S %La, sum|x| %La", l, la);
    free(d), free(df), free(f);
}
END_TEST

static const size_t omp_sizes[] = {65535, 65536, 65537, (1 << 20) + 7};

START_TEST(reduce_omp_bit_identical_to_cpu)
{
    size_t n = omp_sizes[_i];
    double *d = xmalloc(n * sizeof *d);
    float *f = xmalloc(n * sizeof *f);
    pl_rng r;
    pl_rng_seed(&r, 6200 + (uint64_t)_i);
    for (size_t i = 0; i < n; i++) {
        d[i] = rand_wide(&r, -40, 40);
        f[i] = (float)rand_wide(&r, -40, 40);
    }
    double sa_d, s_d = pl_reduce_cpu_f64(d, n, &sa_d), sa_f, s_f = pl_reduce_cpu_f32(f, n, &sa_f);
    for (int t = 0; t < NTHREADS; t++) {
        omp_set_num_threads(thread_counts[t]);
        double a, s = pl_reduce_omp_f64(d, n, &a);
        ck_assert_msg(same_bits(s, s_d) && same_bits(a, sa_d), "double, %d threads: %a %a vs %a %a", thread_counts[t], s,
                      a, s_d, sa_d);
        s = pl_reduce_omp_f32(f, n, &a);
        ck_assert_msg(same_bits(s, s_f) && same_bits(a, sa_f), "float, %d threads: %a %a vs %a %a", thread_counts[t], s, a,
                      s_f, sa_f);
    }
    free(d), free(f);
}
END_TEST

/* ---------------------------------------------------------- tolerance */

/* A GPU's order: `threads` threads, thread t adding x[t], x[t + threads],
   .. (grid-stride, ceil(n / threads) each), then a tree of the partials
   (xor shuffles: lane i adds lane i ^ s; here over all threads at once). */
static float gpu_like_f32(const float *x, size_t n, size_t threads)
{
    float *p = xmalloc(threads * sizeof *p);
    for (size_t t = 0; t < threads; t++) {
        float s = 0;
        for (size_t i = t; i < n; i += threads)
            s += x[i];
        p[t] = s;
    }
    for (size_t s = threads / 2; s > 0; s /= 2) /* threads: a power of two */
        for (size_t t = 0; t < s; t++)
            p[t] = p[t ^ s] + p[t]; /* lane t < s keeps the sum */
    float sum = p[0];
    free(p);
    return sum;
}

static double gpu_like_f64(const double *x, size_t n, size_t threads)
{
    double *p = xmalloc(threads * sizeof *p);
    for (size_t t = 0; t < threads; t++) {
        double s = 0;
        for (size_t i = t; i < n; i += threads)
            s += x[i];
        p[t] = s;
    }
    for (size_t s = threads / 2; s > 0; s /= 2)
        for (size_t t = 0; t < s; t++)
            p[t] += p[t + s];
    double sum = p[0];
    free(p);
    return sum;
}

START_TEST(tolerance_passes_correct_gpu_orders)
{
    size_t n = 1 << 20;
    float *f = xmalloc(n * sizeof *f);
    double *d = xmalloc(n * sizeof *d);
    pl_rng r;
    pl_rng_seed(&r, 6300);
    for (size_t i = 0; i < n; i++) {
        f[i] = (float)rand_wide(&r, 0, 0); /* [-1, 1) */
        d[i] = rand_wide(&r, -10, 10);
    }
    double af, rf = pl_reduce_omp_f32(f, n, &af), ad, rd = pl_reduce_omp_f64(d, n, &ad);
    /* one element per thread, then trees: chunk 1 */
    double tol = pl_sum_tolerance(n, af, U32, 1);
    float got = pl_sum_tree_f32(f, n, 256);
    ck_assert_msg(pl_within(got, rf, tol), "tree: %a vs %a, tol %g", got, rf, tol);
    got = pl_sum_tree_f32(f, n, 32);
    ck_assert_msg(pl_within(got, rf, tol), "tree of 32: %a vs %a, tol %g", got, rf, tol);
    got = pl_sum_pairwise_f32(f, n);
    ck_assert(pl_within(got, rf, pl_sum_tolerance(n, af, U32, PL_PAIRWISE_BASE)));
    for (size_t threads = 1 << 10; threads <= 1 << 16; threads <<= 3) {
        size_t chunk = (n + threads - 1) / threads;
        got = gpu_like_f32(f, n, threads);
        tol = pl_sum_tolerance(n, af, U32, chunk);
        ck_assert_msg(pl_within(got, rf, tol), "%zu threads: %a vs %a, tol %g", threads, got, rf, tol);
        double gd = gpu_like_f64(d, n, threads);
        tol = pl_sum_tolerance(n, ad, U64, chunk);
        ck_assert_msg(pl_within(gd, rd, tol), "double, %zu threads: %a vs %a, tol %g", threads, gd, rd, tol);
    }
    /* the formula itself */
    ck_assert(pl_sum_tolerance(0, 0, U32, 1) == 0);
    ck_assert(pl_sum_tolerance(1 << 20, 1, U32, 4) >= pl_gamma(24, U32));
    ck_assert(pl_sum_tolerance(1 << 20, 1, U32, 4) <= pl_gamma(24, U32) * (1 + 1e-6));
    ck_assert(pl_sum_tolerance(1 << 20, 1, U32, 0) == pl_sum_tolerance(1 << 20, 1, U32, 1));
    ck_assert(isinf(pl_sum_tolerance(1 << 20, 1, U32, 1 << 23)));
    ck_assert(pl_within(INFINITY, INFINITY, 0) && pl_within(NAN, NAN, 0) && !pl_within(1, NAN, INFINITY));
    ck_assert(!pl_within(NAN, 1, INFINITY));
    free(f), free(d);
}
END_TEST

/* 64 values in [1, 2): the tolerance, about gamma_7 x 96 ~ 4e-5, is far
   below any element, so dropping one shows whichever it is. */
START_TEST(tolerance_catches_a_dropped_element)
{
    enum { N = 64 };
    float f[N], g[N];
    double d[N], e[N];
    pl_rng r;
    pl_rng_seed(&r, 6400);
    for (int i = 0; i < N; i++) {
        f[i] = 1.0f + (float)(pl_rng_next(&r) >> 40) * 0x1p-24f;
        d[i] = 1.0 + (double)(pl_rng_next(&r) >> 11) * 0x1p-53;
    }
    double af, rf = pl_reduce_cpu_f32(f, N, &af), ad, rd = pl_reduce_cpu_f64(d, N, &ad);
    double tolf = pl_sum_tolerance(N, af, U32, 1), told = pl_sum_tolerance(N, ad, U64, 1);
    ck_assert(pl_within(pl_sum_tree_f32(f, N, 8), rf, tolf));
    ck_assert(pl_within(gpu_like_f64(d, N, 8), rd, pl_sum_tolerance(N, ad, U64, 8)));
    int drop = _i;
    memcpy(g, f, sizeof g), memcpy(e, d, sizeof e);
    g[drop] = 0, e[drop] = 0; /* left out: as if never read */
    float got = pl_sum_tree_f32(g, N, 8);
    ck_assert_msg(!pl_within(got, rf, tolf), "dropping element %d passed: %a vs %a, tol %g", drop, got, rf, tolf);
    double gd = gpu_like_f64(e, N, 8);
    ck_assert_msg(!pl_within(gd, rd, told), "double, dropping element %d passed", drop);
    g[drop] = 2 * f[drop]; /* counted twice */
    ck_assert(!pl_within(pl_sum_tree_f32(g, N, 8), rf, tolf));
}
END_TEST

/* The bound is attained, so the tolerance cannot be much tighter: after 1,
   each of m values 2^-24 + 2^-47 is just over half an ulp of the float
   sum, which rounds up by 2^-24 - 2^-47 each time: the error is m (2^-24 -
   2^-47) against a bound of gamma_m (1 + m 2^-24) ~ m 2^-24. */
START_TEST(tolerance_bound_is_attained)
{
    enum { M = 1000 };
    float x[M + 1];
    x[0] = 1;
    for (int i = 1; i <= M; i++)
        x[i] = 0x1p-24f + 0x1p-47f;
    double sa, ref = pl_reduce_cpu_f32(x, M + 1, &sa);
    float got = pl_sum_serial_f32(x, M + 1);
    double err = fabs(got - ref), bound = pl_gamma(M, U32) * sa;
    ck_assert_msg(err <= bound && err >= 0.99 * bound, "error %g, bound %g", err, bound);
    /* one thread adding all M + 1 values: chunk M + 1 */
    ck_assert(pl_within(got, ref, pl_sum_tolerance(M + 1, sa, U32, M + 1)));
    ck_assert(!pl_within(got, ref, pl_sum_tolerance(M + 1, sa, U32, M / 2)));
}
END_TEST

/* --------------------------------------------------------- experiment */

START_TEST(orders_exact_on_integers_and_tree_shape)
{
    static const size_t sizes[] = {0, 1, 2, 3, 8, 9, 255, 256, 257, 1000, 65537};
    float *x = xmalloc(65537 * sizeof *x);
    for (size_t i = 0; i < 65537; i++)
        x[i] = (float)(i % 97); /* every partial sum below 2^24: exact in any order */
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        double want = pl_reduce_cpu_f32(x, n, NULL);
        ck_assert(pl_sum_serial_f32(x, n) == want);
        ck_assert(pl_sum_pairwise_f32(x, n) == want);
        for (int b = 2; b <= PL_TREE_MAX_BLOCK; b *= 4)
            ck_assert_msg(pl_sum_tree_f32(x, n, b) == want, "n %zu block %d: %a, want %a", n, b,
                          pl_sum_tree_f32(x, n, b), want);
    }
    ck_assert(isnan(pl_sum_tree_f32(x, 10, 3)) && isnan(pl_sum_tree_f32(x, 10, 2048)) && isnan(pl_sum_tree_f32(x, 10, 1)));
    /* sequential addressing pairs x0 with x2, x1 with x3: (2^24 + -2^24) +
       (1 + 1) = 2 exactly; adjacent pairs or one accumulator give 1 */
    float shape[4] = {0x1p24f, 1, -0x1p24f, 1};
    ck_assert(pl_sum_tree_f32(shape, 4, 4) == 2.0f);
    ck_assert(pl_sum_serial_f32(shape, 4) == 1.0f);
    ck_assert(pl_sum_pairwise_f32(shape, 4) == 1.0f);
    /* depths */
    ck_assert(pl_sum_depth_serial(0) == 0 && pl_sum_depth_serial(5) == 4);
    ck_assert(pl_sum_depth_pairwise(8) == 7 && pl_sum_depth_pairwise(9) == 5 && pl_sum_depth_pairwise(1 << 20) == 24);
    ck_assert(pl_sum_depth_tree(1 << 20, 256) == 24 && pl_sum_depth_tree(1 << 16, 256) == 16);
    ck_assert(pl_sum_depth_tree(1, 256) == 0 && pl_sum_depth_tree(257, 256) == 16);
    free(x);
}
END_TEST

START_TEST(generator_ignores_thread_count)
{
    size_t n = (1 << 20) + 3;
    float *a = xmalloc(n * sizeof *a), *b = xmalloc(n * sizeof *b);
    omp_set_num_threads(1);
    pl_sum_uniform_f32(a, n, 42);
    omp_set_num_threads(4);
    pl_sum_uniform_f32(b, n, 42);
    ck_assert(memcmp(a, b, n * sizeof *a) == 0);
    double mean = pl_reduce_cpu_f32(a, n, NULL) / (double)n;
    ck_assert_msg(fabs(mean - 0.5) < 0.002, "mean %g", mean);
    for (size_t i = 0; i < n; i++)
        ck_assert(a[i] >= 0 && a[i] < 1 && a[i] * 0x1p24f == floorf(a[i] * 0x1p24f));
    pl_sum_uniform_f32(b, n, 43);
    ck_assert(memcmp(a, b, n * sizeof *a) != 0);
    free(a), free(b);
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The lecture's claim at n = 2^24, over 8 seeds. */
START_TEST(experiment_serial_error_dwarfs_tree_errors)
{
    enum { SEEDS = 8 };
    size_t n = 1 << 24;
    double serial[SEEDS], worst_tree = 0;
    for (int s = 0; s < SEEDS; s++) {
        pl_sum_error row;
        ck_assert(pl_sum_error_row(n, (uint64_t)s + 1, 256, &row) == 0);
        double cond = row.sum_abs / fabs(row.exact);
        ck_assert(cond == 1); /* non-negative inputs */
        double gp = pl_gamma((double)pl_sum_depth_pairwise(n), U32), gt = pl_gamma((double)pl_sum_depth_tree(n, 256), U32);
        ck_assert_msg(row.err_pairwise <= gp && row.err_pairwise <= row.bound_pairwise, "seed %d: pairwise %g, bound %g",
                      s + 1, row.err_pairwise, gp);
        ck_assert_msg(row.err_tree <= gt && row.err_tree <= row.bound_tree, "seed %d: tree %g, bound %g", s + 1,
                      row.err_tree, gt);
        ck_assert(row.err_serial <= row.bound_serial);
        ck_assert_msg(row.err_serial >= 10 * fmax(row.err_pairwise, row.err_tree), "seed %d: serial %g, pairwise %g, tree %g",
                      s + 1, row.err_serial, row.err_pairwise, row.err_tree);
        serial[s] = row.err_serial;
        worst_tree = fmax(worst_tree, fmax(row.err_pairwise, row.err_tree));
        /* the random walk: the tree orders' errors are ~ one rounding */
        ck_assert(row.err_pairwise <= row.walk_tree && row.err_tree <= row.walk_tree);
    }
    qsort(serial, SEEDS, sizeof *serial, cmp_double);
    double median = (serial[SEEDS / 2 - 1] + serial[SEEDS / 2]) / 2, walk = sqrt((double)n) * U32;
    ck_assert_msg(median >= 100 * worst_tree, "median serial error %g, worst tree error %g", median, worst_tree);
    ck_assert_msg(median <= walk && median >= walk / 30, "median serial error %g, sqrt(n) u %g", median, walk);
}
END_TEST

/* Past 2^25 elements the float sum passes 2^24, where adding x < 1 (half an
   ulp) changes nothing: the serial sum stops at 2^24, half the truth. */
START_TEST(experiment_serial_sum_stagnates)
{
    pl_sum_error row;
    ck_assert(pl_sum_error_row((size_t)1 << 26, 1, 256, &row) == 0);
    ck_assert_msg(row.serial == 0x1p24f, "serial %a", row.serial);
    ck_assert(row.err_serial > 0.49 && row.err_serial > 1000 * row.walk_serial);
    ck_assert(row.err_pairwise <= row.bound_pairwise && row.err_tree <= row.bound_tree);
    ck_assert(pl_sum_error_row(10, 1, 100, &row) == -1);
}
END_TEST

/* --------------------------------------------------------------- spmv */

/*     [ 1  .  2  . -3 ]        x = (1 2 3 4 5)
   A = [ .  .  .  .  . ]        y = (-8, 0, 17, 13)
       [ . .5  .  4  . ]        sum |a x| = (22, 0, 17, 15)
       [-1  1  1  1  1 ]                                          */
START_TEST(spmv_hand_made_exact)
{
    long row_ptr[] = {0, 3, 3, 5, 10};
    int col[] = {0, 2, 4, 1, 3, 0, 1, 2, 3, 4};
    double vd[] = {1, 2, -3, 0.5, 4, -1, 1, 1, 1, 1}, xd[] = {1, 2, 3, 4, 5};
    float vf[10], xf[5];
    for (int i = 0; i < 10; i++)
        vf[i] = (float)vd[i];
    for (int i = 0; i < 5; i++)
        xf[i] = (float)xd[i];
    double want[] = {-8, 0, 17, 13}, want_abs[] = {22, 0, 17, 15};
    for (int v = 0; v < 4; v++) {
        double y[4], a[4];
        memset(y, 0xa5, sizeof y), memset(a, 0xa5, sizeof a); /* poison */
        if (v == 0)
            pl_spmv_cpu_f32(4, row_ptr, col, vf, xf, y, a);
        else if (v == 1)
            pl_spmv_omp_f32(4, row_ptr, col, vf, xf, y, a);
        else if (v == 2)
            pl_spmv_cpu_f64(4, row_ptr, col, vd, xd, y, a);
        else
            pl_spmv_omp_f64(4, row_ptr, col, vd, xd, y, a);
        for (int r = 0; r < 4; r++) {
            ck_assert_msg(y[r] == want[r] && a[r] == want_abs[r], "version %d row %d: %g %g", v, r, y[r], a[r]);
            ck_assert(pl_within(want[r], y[r], pl_spmv_row_tolerance(row_ptr[r + 1] - row_ptr[r], a[r], U32)));
        }
        ck_assert(same_bits(y[1], 0.0));
    }
    /* the empty row: tolerance 0, so only 0 passes */
    ck_assert(pl_spmv_row_tolerance(0, 0, U32) == 0);
    ck_assert(!pl_within(0x1p-149, 0, pl_spmv_row_tolerance(0, 0, U32)));
    double y[4];
    pl_spmv_cpu_f64(4, row_ptr, col, vd, xd, y, NULL); /* row_abs may be NULL */
    ck_assert(y[2] == 17);
    pl_spmv_omp_f64(0, row_ptr, col, vd, xd, NULL, NULL); /* no rows: nothing written */
}
END_TEST

/* Rows whose naive sums cancel to the wrong answer. */
START_TEST(spmv_exact_under_cancellation)
{
    long row_ptr[] = {0, 3, 5};
    int col[] = {0, 1, 2, 3, 1};
    /* row 0: 2^60 + 1 - 2^60 = 1 (sum|a x| 2^61 + 1, rounded to 2^61);
       row 1: (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60, whose product rounds to 1 */
    double vd[] = {0x1p60, 1, -0x1p60, 1 + 0x1p-30, -1}, xd[] = {1, 1, 1, 1 - 0x1p-30};
    double y[2], a[2];
    pl_spmv_cpu_f64(2, row_ptr, col, vd, xd, y, a);
    ck_assert_msg(y[0] == 1 && a[0] == 0x1p61, "%a %a", y[0], a[0]);
    ck_assert_msg(y[1] == -0x1p-60 && a[1] == 2, "Dot2: %a %a, want -0x1p-60 2", y[1], a[1]);
    /* float data: the products are exact in double */
    float vf[] = {0x1p30f, 1, -0x1p30f, 1 + 0x1p-12f, -1}, xf[] = {1, 1, 1, 1 - 0x1p-12f};
    pl_spmv_omp_f32(2, row_ptr, col, vf, xf, y, a);
    ck_assert_msg(y[0] == 1 && y[1] == -0x1p-24, "%a %a", y[0], y[1]);
    ck_assert(a[0] == 0x1p31 + 1 && a[1] == 2 - 0x1p-24);
}
END_TEST

typedef struct csr {
    long rows, cols, nnz;
    long *row_ptr;
    int *col;
    float *vf, *xf;
    double *vd, *xd;
} csr;

/* Rows of 0 .. max_len entries (a tenth of them empty), columns at random;
   values in [1, 2) when positive, else in [-2, 2) times 2^[-8, 8]. */
static csr random_csr(long rows, long cols, int max_len, int positive, uint64_t seed)
{
    csr m = {.rows = rows, .cols = cols};
    pl_rng r;
    pl_rng_seed(&r, seed);
    m.row_ptr = xmalloc((size_t)(rows + 1) * sizeof *m.row_ptr);
    m.row_ptr[0] = 0;
    for (long i = 0; i < rows; i++)
        m.row_ptr[i + 1] = m.row_ptr[i] + (pl_rng_range(&r, 0, 9) == 0 ? 0 : pl_rng_range(&r, 1, max_len));
    m.nnz = m.row_ptr[rows];
    m.col = xmalloc((size_t)m.nnz * sizeof *m.col);
    m.vf = xmalloc((size_t)m.nnz * sizeof *m.vf);
    m.vd = xmalloc((size_t)m.nnz * sizeof *m.vd);
    m.xf = xmalloc((size_t)cols * sizeof *m.xf);
    m.xd = xmalloc((size_t)cols * sizeof *m.xd);
    for (long k = 0; k < m.nnz; k++) {
        m.col[k] = (int)pl_rng_range(&r, 0, cols - 1);
        m.vd[k] = positive ? 1 + (double)(pl_rng_next(&r) >> 11) * 0x1p-53 : rand_wide(&r, -8, 8);
        m.vf[k] = positive ? 1 + (float)(pl_rng_next(&r) >> 40) * 0x1p-24f : (float)rand_wide(&r, -8, 8);
    }
    for (long j = 0; j < cols; j++) {
        m.xd[j] = positive ? 1 + (double)(pl_rng_next(&r) >> 11) * 0x1p-53 : rand_wide(&r, -8, 8);
        m.xf[j] = positive ? 1 + (float)(pl_rng_next(&r) >> 40) * 0x1p-24f : (float)rand_wide(&r, -8, 8);
    }
    return m;
}

static void csr_free(csr *m) { free(m->row_ptr), free(m->col), free(m->vf), free(m->xf), free(m->vd), free(m->xd); }

START_TEST(spmv_omp_bit_identical_to_cpu)
{
    csr m = random_csr(20000, 5000, 100, 0, 6500);
    size_t bytes = (size_t)m.rows * sizeof(double);
    double *y = xmalloc(bytes), *a = xmalloc(bytes), *y2 = xmalloc(bytes), *a2 = xmalloc(bytes);
    for (int prec = 0; prec < 2; prec++) {
        if (prec == 0)
            pl_spmv_cpu_f32(m.rows, m.row_ptr, m.col, m.vf, m.xf, y, a);
        else
            pl_spmv_cpu_f64(m.rows, m.row_ptr, m.col, m.vd, m.xd, y, a);
        for (int t = 0; t < NTHREADS; t++) {
            omp_set_num_threads(thread_counts[t]);
            memset(y2, 0xa5, bytes), memset(a2, 0xa5, bytes);
            if (prec == 0)
                pl_spmv_omp_f32(m.rows, m.row_ptr, m.col, m.vf, m.xf, y2, a2);
            else
                pl_spmv_omp_f64(m.rows, m.row_ptr, m.col, m.vd, m.xd, y2, a2);
            ck_assert_msg(memcmp(y, y2, bytes) == 0 && memcmp(a, a2, bytes) == 0, "%s, %d threads differ",
                          prec ? "double" : "float", thread_counts[t]);
        }
    }
    free(y), free(a), free(y2), free(a2);
    csr_free(&m);
}
END_TEST

/* A float row as a warp would add it: lane l takes entries l, l + 32, ..
   (fmaf, as nvcc contracts), then xor shuffles 16, 8, .., 1. */
static float row_warp_f32(const csr *m, long r)
{
    float lane[32] = {0};
    for (long k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
        long l = (k - m->row_ptr[r]) % 32;
        lane[l] = fmaf(m->vf[k], m->xf[m->col[k]], lane[l]);
    }
    for (int s = 16; s > 0; s /= 2) {
        float next[32];
        for (int l = 0; l < 32; l++)
            next[l] = lane[l] + lane[l ^ s];
        memcpy(lane, next, sizeof lane);
    }
    return lane[0];
}

/* Backwards, each product rounded; skip: leave out the row's last entry. */
static float row_backwards_f32(const csr *m, long r, int skip)
{
    float s = 0;
    for (long k = m->row_ptr[r + 1] - 1 - skip; k >= m->row_ptr[r]; k--)
        s += m->vf[k] * m->xf[m->col[k]];
    return s;
}

static double row_backwards_f64(const csr *m, long r, int skip)
{
    double s = 0;
    for (long k = m->row_ptr[r + 1] - 1 - skip; k >= m->row_ptr[r]; k--)
        s += m->vd[k] * m->xd[m->col[k]];
    return s;
}

START_TEST(spmv_tolerance_passes_other_orders)
{
    csr m = random_csr(4000, 3000, 600, 0, 6600);
    size_t bytes = (size_t)m.rows * sizeof(double);
    double *yf = xmalloc(bytes), *af = xmalloc(bytes), *yd = xmalloc(bytes), *ad = xmalloc(bytes);
    pl_spmv_omp_f32(m.rows, m.row_ptr, m.col, m.vf, m.xf, yf, af);
    pl_spmv_omp_f64(m.rows, m.row_ptr, m.col, m.vd, m.xd, yd, ad);
    for (long r = 0; r < m.rows; r++) {
        long len = m.row_ptr[r + 1] - m.row_ptr[r];
        double tf = pl_spmv_row_tolerance(len, af[r], U32), td = pl_spmv_row_tolerance(len, ad[r], U64);
        float w = row_warp_f32(&m, r), b = row_backwards_f32(&m, r, 0);
        double bd = row_backwards_f64(&m, r, 0);
        ck_assert_msg(pl_within(w, yf[r], tf), "row %ld (%ld entries), warp order: %a vs %a, tol %g", r, len, w, yf[r], tf);
        ck_assert_msg(pl_within(b, yf[r], tf), "row %ld, backwards: %a vs %a, tol %g", r, b, yf[r], tf);
        ck_assert_msg(pl_within(bd, yd[r], td), "row %ld, double backwards: %a vs %a, tol %g", r, bd, yd[r], td);
        if (len == 0)
            ck_assert(yf[r] == 0 && af[r] == 0 && tf == 0 && yd[r] == 0 && td == 0);
    }
    free(yf), free(af), free(yd), free(ad);
    csr_free(&m);
}
END_TEST

/* Positive values in [1, 2): every product >= 1, far above a row's
   tolerance (at most ~ 601 u x 4 x 600 ~ 0.09 in float). */
START_TEST(spmv_tolerance_catches_a_skipped_last_entry)
{
    csr m = random_csr(4000, 3000, 600, 1, 6700);
    size_t bytes = (size_t)m.rows * sizeof(double);
    double *yf = xmalloc(bytes), *af = xmalloc(bytes), *yd = xmalloc(bytes), *ad = xmalloc(bytes);
    pl_spmv_cpu_f32(m.rows, m.row_ptr, m.col, m.vf, m.xf, yf, af);
    pl_spmv_cpu_f64(m.rows, m.row_ptr, m.col, m.vd, m.xd, yd, ad);
    long caught = 0;
    for (long r = 0; r < m.rows; r++) {
        long len = m.row_ptr[r + 1] - m.row_ptr[r];
        if (len == 0)
            continue;
        double tf = pl_spmv_row_tolerance(len, af[r], U32), td = pl_spmv_row_tolerance(len, ad[r], U64);
        ck_assert(pl_within(row_backwards_f32(&m, r, 0), yf[r], tf));
        float s = row_backwards_f32(&m, r, 1);
        ck_assert_msg(!pl_within(s, yf[r], tf), "row %ld (%ld entries) without its last entry passed: %a vs %a, tol %g", r,
                      len, s, yf[r], tf);
        ck_assert(!pl_within(row_backwards_f64(&m, r, 1), yd[r], td));
        caught++;
    }
    ck_assert(caught > 3000);
    free(yf), free(af), free(yd), free(ad);
    csr_free(&m);
}
END_TEST

/* Float data against a long double compensated sum of the exact products. */
START_TEST(spmv_f32_within_bound_of_long_double)
{
    csr m = random_csr(3000, 2000, 300, 0, 6800);
    size_t bytes = (size_t)m.rows * sizeof(double);
    double *y = xmalloc(bytes), *a = xmalloc(bytes), *p = xmalloc(600 * sizeof *p);
    pl_spmv_cpu_f32(m.rows, m.row_ptr, m.col, m.vf, m.xf, y, a);
    for (long r = 0; r < m.rows; r++) {
        long lo = m.row_ptr[r], len = m.row_ptr[r + 1] - lo;
        for (long k = 0; k < len; k++)
            p[k] = (double)m.vf[lo + k] * m.xf[m.col[lo + k]];
        long double la, l = ld_sum(p, (size_t)len, &la);
        ck_assert_msg(fabsl(y[r] - l) <= 0x1p-52L * fabsl(l) + 0x1p-100L * la, "row %ld: %a vs %La", r, y[r], l);
        ck_assert(fabsl(a[r] - la) <= 0x1p-52L * la);
    }
    free(y), free(a), free(p);
    csr_free(&m);
}
END_TEST

/* -------------------------------------------------------------- suite */

Suite *check_suite(void)
{
    Suite *s = suite_create("ref06");
    TCase *t = tcase_create("reduce");
    tcase_add_loop_test(t, reduce_exact_on_small_integers, 0, (int)(sizeof int_sizes / sizeof int_sizes[0]));
    tcase_add_loop_test(t, reduce_exact_on_known_sums, 0, N_EXACT);
    tcase_add_test(t, reduce_nan_and_infinities);
    tcase_add_loop_test(t, reduce_exact_under_cancellation, 0, 3);
    tcase_add_loop_test(t, reduce_within_bound_of_long_double, 0, 4);
    tcase_add_loop_test(t, reduce_omp_bit_identical_to_cpu, 0, (int)(sizeof omp_sizes / sizeof omp_sizes[0]));
    tcase_set_timeout(t, 30);
    suite_add_tcase(s, t);

    t = tcase_create("tolerance");
    tcase_add_test(t, tolerance_passes_correct_gpu_orders);
    tcase_add_loop_test(t, tolerance_catches_a_dropped_element, 0, 64);
    tcase_add_test(t, tolerance_bound_is_attained);
    tcase_set_timeout(t, 30);
    suite_add_tcase(s, t);

    t = tcase_create("experiment");
    tcase_add_test(t, orders_exact_on_integers_and_tree_shape);
    tcase_add_test(t, generator_ignores_thread_count);
    tcase_add_test(t, experiment_serial_error_dwarfs_tree_errors);
    tcase_add_test(t, experiment_serial_sum_stagnates);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("spmv");
    tcase_add_test(t, spmv_hand_made_exact);
    tcase_add_test(t, spmv_exact_under_cancellation);
    tcase_add_test(t, spmv_omp_bit_identical_to_cpu);
    tcase_add_test(t, spmv_tolerance_passes_other_orders);
    tcase_add_test(t, spmv_tolerance_catches_a_skipped_last_entry);
    tcase_add_test(t, spmv_f32_within_bound_of_long_double);
    tcase_set_timeout(t, 30);
    suite_add_tcase(s, t);
    return s;
}
