/* tests/unit/test_ref07.c: Check tests of lab 07's CPU reference and error bound
 * (kernels_ref/cpu/segscan.c), run by `make test` or alone:
 *
 *   make build/tests/test_ref07 && build/tests/test_ref07
 *
 *   - known answers: a small example worked by hand, one iteration and two;
 *     iters = 0 leaves a; a row of one entry is a product;
 *   - the known mistakes: an exclusive scan, rows not restarted, x[l] for
 *     x[k[l]], a carry dropped every `tile` entries, each on a hand-made
 *     input whose result is known;
 *   - serial and OpenMP bit-identical on random rows;
 *   - the bound: float computations in three orders (serial, a
 *     Hillis-Steele tree in groups of 32 with the carry, and blocks of 256
 *     scanned apart and then joined) stay within it over 5 iterations, on
 *     rows of up to 10^5 entries and on rows of up to 16; on the short
 *     rows the same computation that skips one product, or subtracts a
 *     global prefix (a scan of the whole array minus each row's start),
 *     exceeds it.
 */
#include "../../harness/parent/rng.h"
#include "../../kernels_ref/cpu/segscan.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rows [0, 3), [3, 4), [4, 7): a small example, worked by hand */
static const int ex_s[] = {0, 3, 4, 7};
static const int ex_k[] = {0, 1, 2, 3, 0, 1, 2};
static const float ex_x[] = {2, 1, 0.5f, -1};
static const float ex_a[] = {1, 2, 3, 4, 1, 1, 2};

START_TEST(example_one_iteration)
{
    double want[7], bound[7];
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 1, PL_SEG_RIGHT, 0, 0, want, bound);
    /* products 2 2 1.5 | -4 | 2 1 1 */
    static const double expect[] = {2, 4, 5.5, -4, 2, 3, 4};
    for (int j = 0; j < 7; j++) {
        ck_assert_double_eq(want[j], expect[j]);
        ck_assert(bound[j] > 0 && bound[j] < 1e-5);
    }
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 2, PL_SEG_RIGHT, 0, 1, want, bound);
    /* products of 2 4 5.5 | -4 | 2 3 4: 4 4 2.75 | 4 | 4 3 2 */
    static const double two[] = {4, 8, 10.75, 4, 4, 7, 9};
    for (int j = 0; j < 7; j++)
        ck_assert_double_eq(want[j], two[j]);
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 0, PL_SEG_RIGHT, 0, 0, want, bound);
    for (int j = 0; j < 7; j++)
    {
        ck_assert_double_eq(want[j], ex_a[j]);
        ck_assert_double_eq(bound[j], 0);
    }
}
END_TEST

START_TEST(mistakes_known)
{
    double got[7];
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 1, PL_SEG_EXCLUSIVE, 0, 0, got, NULL);
    static const double excl[] = {0, 2, 4, 0, 0, 2, 3};
    for (int j = 0; j < 7; j++)
        ck_assert_double_eq(got[j], excl[j]);
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 1, PL_SEG_NO_RESTART, 0, 0, got, NULL);
    static const double all[] = {2, 4, 5.5, 1.5, 3.5, 4.5, 5.5};
    for (int j = 0; j < 7; j++)
        ck_assert_double_eq(got[j], all[j]);
    /* x[l]: l = 0..3 in range (2 1 0.5 -1), 4.. out of range: NaN */
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 1, PL_SEG_NO_GATHER, 0, 0, got, NULL);
    ck_assert_double_eq(got[0], 2);
    ck_assert_double_eq(got[1], 4);
    ck_assert_double_eq(got[2], 5.5);
    ck_assert_double_eq(got[3], -4);
    ck_assert(isnan(got[4]));
    /* restarted at every even entry inside a row too: 2 4 | 1.5 and 2 3 | 1 */
    pl_segspmv_ref(3, ex_s, ex_k, ex_x, 4, ex_a, 1, PL_SEG_TILE, 2, 0, got, NULL);
    static const double tile2[] = {2, 4, 1.5, -4, 2, 3, 1};
    for (int j = 0; j < 7; j++)
        ck_assert_double_eq(got[j], tile2[j]);
}
END_TEST

/* A random problem: rows of 1 .. maxlen entries (some of maxlen), n
   entries, cols = n; a and x as lab07.c makes them. */
typedef struct prob {
    long rows, n;
    int *s, *k;
    float *a, *x;
} prob;

static prob make_prob(long n, long maxlen, uint64_t seed)
{
    prob p = {0, n, malloc((size_t)(n + 1) * sizeof(int)), malloc((size_t)n * sizeof(int)),
              malloc((size_t)n * sizeof(float)), malloc((size_t)n * sizeof(float))};
    pl_rng r;
    pl_rng_seed(&r, seed);
    long at = 0;
    p.s[0] = 0;
    while (at < n) {
        long len = (pl_rng_next(&r) & 7) == 0 ? maxlen : 1 + (long)pl_rng_range(&r, 0, maxlen / 8 + 1);
        len = len < n - at ? len : n - at;
        at += len;
        p.s[++p.rows] = (int)at;
    }
    double scale = 1 / sqrt((double)maxlen / 4);
    for (long l = 0; l < n; l++) {
        p.k[l] = (int)pl_rng_range(&r, 0, n - 1);
        long v = 1 + (long)pl_rng_range(&r, 0, 1023), w = 512 + (long)pl_rng_range(&r, 0, 511);
        p.a[l] = (float)((pl_rng_next(&r) & 1) ? -v : v) / 1024;
        p.x[l] = (float)((float)((pl_rng_next(&r) & 1) ? -w : w) / 1024 * scale);
    }
    return p;
}
static void free_prob(prob *p) { free(p->s), free(p->k), free(p->a), free(p->x); }

START_TEST(serial_equals_openmp)
{
    prob p = make_prob(200003, 5000, 7);
    double *w1 = malloc((size_t)p.n * sizeof(double)), *w2 = malloc((size_t)p.n * sizeof(double));
    double *b1 = malloc((size_t)p.n * sizeof(double)), *b2 = malloc((size_t)p.n * sizeof(double));
    pl_segspmv_ref(p.rows, p.s, p.k, p.x, p.n, p.a, 3, PL_SEG_RIGHT, 0, 0, w1, b1);
    pl_segspmv_ref(p.rows, p.s, p.k, p.x, p.n, p.a, 3, PL_SEG_RIGHT, 0, 1, w2, b2);
    ck_assert(memcmp(w1, w2, (size_t)p.n * sizeof(double)) == 0);
    ck_assert(memcmp(b1, b2, (size_t)p.n * sizeof(double)) == 0);
    free(w1), free(w2), free(b1), free(b2), free_prob(&p);
}
END_TEST

/* Many rows (1024 and more) are started and iterated a row at a time;
   one row alone goes the other way (every entry started, then each
   iteration over the rows): the same numbers, for every variant with
   rows, the bound too. */
START_TEST(row_at_a_time_equals_pass_at_a_time)
{
    prob p = make_prob(20011, 24, 11);
    ck_assert_int_ge(p.rows, 1024);
    size_t bytes = (size_t)p.n * sizeof(double);
    double *w1 = malloc(bytes), *w2 = malloc(bytes), *b1 = malloc(bytes), *b2 = malloc(bytes);
    static const int variants[] = {PL_SEG_RIGHT, PL_SEG_EXCLUSIVE, PL_SEG_NO_GATHER, PL_SEG_TILE};
    for (int v = 0; v < 4; v++) {
        int var = variants[v];
        double *b = var == PL_SEG_RIGHT ? b1 : NULL;
        pl_segspmv_ref(p.rows, p.s, p.k, p.x, p.n, p.a, 3, var, 4, 1, w1, b);
        for (long r = 0; r < p.rows; r++) { /* row r alone: rows = 1 from s + r */
            pl_segspmv_ref(1, p.s + r, p.k, p.x, p.n, p.a, 3, var, 4, 0, w2, var == PL_SEG_RIGHT ? b2 : NULL);
            size_t at = (size_t)p.s[r], len = (size_t)(p.s[r + 1] - p.s[r]);
            ck_assert_msg(memcmp(w1 + at, w2 + at, len * sizeof(double)) == 0, "variant %d row %ld", var, r);
            if (b)
                ck_assert_msg(memcmp(b1 + at, b2 + at, len * sizeof(double)) == 0, "bound, row %ld", r);
        }
    }
    free(w1), free(w2), free(b1), free(b2), free_prob(&p);
}
END_TEST

/* Float computations of the iterations, in a GPU's orders. order 0:
   serial; 1: groups of 32 by a Hillis-Steele tree, the carry added after;
   2: blocks of 256 entries scanned serially from 0, each block's result
   then offset by the carry of the block before in the same row (the
   load-balanced part's order); 3: as 0, one product skipped; 4: a global
   scan of all n products minus the prefix at each row's start. */
static void float_iters(const prob *p, int iters, int order, float *a)
{
    memcpy(a, p->a, (size_t)p->n * sizeof(float));
    float *pr = malloc((size_t)p->n * sizeof(float));
    for (int t = 0; t < iters; t++) {
        for (long l = 0; l < p->n; l++)
            pr[l] = a[l] * p->x[p->k[l]];
        if (order == 4) {
            float run = 0;
            for (long l = 0; l < p->n; l++)
                run += pr[l], pr[l] = run;
        }
        for (long r = 0; r < p->rows; r++) {
            long lo = p->s[r], hi = p->s[r + 1];
            if (order == 0 || order == 3) {
                float sum = 0;
                for (long j = lo; j < hi; j++) {
                    if (!(order == 3 && j == hi - 1 && hi - lo > 1))
                        sum += pr[j];
                    a[j] = sum;
                }
            } else if (order == 1) {
                float carry = 0;
                for (long g = lo; g < hi; g += 32) {
                    float v[32];
                    int m = hi - g < 32 ? (int)(hi - g) : 32;
                    for (int i = 0; i < 32; i++)
                        v[i] = i < m ? pr[g + i] : 0;
                    for (int d = 1; d < 32; d *= 2) {
                        float w[32];
                        for (int i = 0; i < 32; i++)
                            w[i] = i >= d ? v[i - d] + v[i] : v[i];
                        memcpy(v, w, sizeof v);
                    }
                    for (int i = 0; i < m; i++)
                        a[g + i] = v[i] + carry;
                    carry = a[g + m - 1];
                }
            } else if (order == 2) {
                float carry = 0;
                for (long b = lo; b < hi;) {
                    long e = (b / 256 + 1) * 256;
                    e = e < hi ? e : hi;
                    float sum = 0;
                    for (long j = b; j < e; j++)
                        sum += pr[j], a[j] = sum;
                    for (long j = b; j < e; j++)
                        a[j] += carry;
                    carry = a[e - 1];
                    b = e;
                }
            } else {
                float before = lo > 0 ? pr[lo - 1] : 0;
                for (long j = lo; j < hi; j++)
                    a[j] = pr[j] - before;
            }
        }
    }
    free(pr);
}

/* the largest |got - want| / bound */
static double worst(const prob *p, const float *got, const double *want, const double *bound)
{
    double w = 0;
    for (long j = 0; j < p->n; j++) {
        double e = fabs((double)got[j] - want[j]) / bound[j];
        w = e > w ? e : w;
    }
    return w;
}

/* The bound holds for the three orders, on long rows (up to 10^5 entries)
   and on short ones; on short rows (up to 16 entries) a skipped product
   and a subtracted global prefix exceed it. (On long rows neither needs
   to: the bound for the end of a row of m entries is about m^2 u times
   the mean product, a skipped one is about 1; other tests, with short
   rows, catch such a mistake.) */
static void check_orders(long n, long maxlen, int iters, int bites)
{
    prob p = make_prob(n, maxlen, 11 + (uint64_t)maxlen);
    double *want = malloc((size_t)p.n * sizeof(double)), *bound = malloc((size_t)p.n * sizeof(double));
    float *got = malloc((size_t)p.n * sizeof(float));
    pl_segspmv_ref(p.rows, p.s, p.k, p.x, p.n, p.a, iters, PL_SEG_RIGHT, 0, 1, want, bound);
    for (int order = 0; order < 3; order++) {
        float_iters(&p, iters, order, got);
        double w = worst(&p, got, want, bound);
        ck_assert_msg(w <= 1, "rows up to %ld, order %d: error %.3g of the bound", maxlen, order, w);
    }
    if (bites) {
        float_iters(&p, iters, 3, got);
        double w = worst(&p, got, want, bound);
        ck_assert_msg(w > 1, "rows up to %ld: a skipped product passes the bound (%.3g of it)", maxlen, w);
        float_iters(&p, iters, 4, got);
        w = worst(&p, got, want, bound);
        ck_assert_msg(w > 1, "rows up to %ld: a global scan minus the row's start passes the bound (%.3g of it)",
                      maxlen, w);
    }
    free(want), free(bound), free(got), free_prob(&p);
}

START_TEST(bound_holds_and_bites)
{
    check_orders(400000, 100000, 5, 0);
    check_orders(400000, 16, 5, 1);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("ref07");
    TCase *t = tcase_create("segscan");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, example_one_iteration);
    tcase_add_test(t, mistakes_known);
    tcase_add_test(t, serial_equals_openmp);
    tcase_add_test(t, row_at_a_time_equals_pass_at_a_time);
    tcase_add_test(t, bound_holds_and_bites);
    suite_add_tcase(s, t);
    return s;
}
