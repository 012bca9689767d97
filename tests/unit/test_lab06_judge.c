/* tests/unit/test_lab06_judge.c: lab 06's grader on the CPU, no GPU: its inputs
 * keep every partial sum exact (so the float sum in any order is the
 * reference, and the tolerance zero), and its verdicts on made-up results:
 * the exact sum passes, a sum without the last partial warp is named, a
 * poisoned output is "not implemented yet". The SpMV parts: every case's
 * matrix at every test size is made, a float (double) loop in row order
 * passes, and a row loop that stops one short is named. Linked with lab
 * 06's table. */
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/judges/real.h"
#include "../../harness/parent/lab.h"
#include "../../harness/parent/rubric.h"
#include "../../harness/wire/lab06.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "solution";

/* The part's real-valued judge (judges/real.h), whose input and reference
   these tests use. */
#define REAL(p) ((const pl_real_judge *)(p)->judge->cfg)

static const pl_part *part(const char *id)
{
    const pl_part *p = pl_find_part(pl_this_lab(), id);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* Judges got (one float or double) for part id's input of size n. */
static int judge(const char *id, long n, uint64_t seed, double got_value, pl_diag *d, double *exact)
{
    const pl_part *p = part(id);
    long words = REAL(p)->in.words(n, NAN);
    int *in = malloc((size_t)(words ? words : 1) * 4);
    ck_assert_ptr_nonnull(in);
    REAL(p)->in.gen(in, (size_t)words, seed, NAN);
    double want, tol;
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    REAL(p)->expect(in, n, NAN, &want, &tol, &c);
    *exact = want;
    float gf = (float)got_value;
    double gd = got_value;
    c.elem = REAL(p)->elem, c.n = 1, c.want = &want, c.tol = &tol;
    c.got = REAL(p)->elem == PL_ELEM_F32 ? (const void *)&gf : (const void *)&gd;
    int ok = pl_compare_real(&c, d);
    if (isnan(got_value)) { /* poison */
        memset(&gf, PL_POISON_BYTE, sizeof gf), memset(&gd, PL_POISON_BYTE, sizeof gd);
        ok = pl_compare_real(&c, d);
    }
    ck_assert_double_eq(tol, 0); /* the generated inputs: exact in any order */
    free(in);
    return ok;
}

/* The sum of the input in one float (or double) accumulator, serially: one
   of the orders a GPU could not beat for error, the worst. */
static double serial_sum(const char *id, long n, uint64_t seed, long skip_tail)
{
    const pl_part *p = part(id);
    long words = REAL(p)->in.words(n, NAN);
    int *in = malloc((size_t)(words ? words : 1) * 4);
    ck_assert_ptr_nonnull(in);
    REAL(p)->in.gen(in, (size_t)words, seed, NAN);
    double r;
    if (REAL(p)->elem == PL_ELEM_F32) {
        float s = 0;
        for (long i = 0; i < n - skip_tail; i++)
            s += ((float *)in)[i];
        r = s;
    } else {
        double s = 0;
        for (long i = 0; i < n - skip_tail; i++)
            s += ((double *)in)[i];
        r = s;
    }
    free(in);
    return r;
}

START_TEST(exact_in_any_order)
{
    static const long sizes[] = {1, 33, 1025, 65537, 4194307, 16777216 + 5, 67108864};
    const char *ids[] = {"af", "ad"};
    for (int k = 0; k < 2; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            pl_diag d;
            double exact, serial = serial_sum(ids[k], sizes[s], 7, 0);
            int ok = judge(ids[k], sizes[s], 7, serial, &d, &exact);
            ck_assert_msg(ok, "part %s n=%ld: the serial sum %.17g is not the exact %.17g: %s", ids[k], sizes[s], serial,
                          exact, d.reason);
        }
}
END_TEST

START_TEST(named_mistakes)
{
    pl_diag d;
    double exact;
    /* n = 1025 = 32 * 32 + 1: the last partial warp is one element */
    double partial = serial_sum("bf", 1025, 3, 1);
    ck_assert(!judge("bf", 1025, 3, partial, &d, &exact));
    ck_assert_msg(strstr(d.reason, "the last element left out: n rounded down to a multiple of 32 (the last partial warp?)"), "%s", d.reason);
    partial = serial_sum("bd", 65537 + 30, 3, 31);
    ck_assert(!judge("bd", 65537 + 30, 3, partial, &d, &exact));
    ck_assert_msg(strstr(d.reason, "the last 31 elements left out"), "%s", d.reason);
    /* never written */
    ck_assert(!judge("af", 100, 3, NAN, &d, &exact));
    ck_assert_str_eq(d.reason, "not implemented yet (the output was never written)");
    /* a sum off by one unit that no suspect explains */
    double e = serial_sum("af", 100, 3, 0);
    ck_assert(!judge("af", 100, 3, e + 0x1p-10, &d, &exact));
    ck_assert_msg(strstr(d.reason, "the sum is ") && strstr(d.reason, ", expected "), "%s", d.reason);
}
END_TEST

/* Judges the part's CPU loop (plain float or double, in row order) on the
   input of rows and case, with the last entry of each row left out when
   short_by_one: returns pass or fail, d the verdict. */
static int judge_spmv(const char *id, long rows, int kase, int short_by_one, pl_diag *d)
{
    const pl_part *p = part(id);
    long words = REAL(p)->in.words(rows, kase);
    ck_assert_int_ge(words, 4);
    int *in = malloc((size_t)words * 4);
    ck_assert_ptr_nonnull(in);
    REAL(p)->in.make(in, rows, kase, 11);
    ck_assert_int_eq(in[0], rows);
    int dbl = REAL(p)->elem == PL_ELEM_F64;
    void *y = malloc((size_t)(rows ? rows : 1) * (dbl ? 8 : 4));
    double *want = malloc((size_t)(rows ? rows : 1) * 8), *tol = malloc((size_t)(rows ? rows : 1) * 8);
    ck_assert(y && want && tol);
    p->cpu(in, y, (size_t)rows);
    if (short_by_one) { /* each row again, without its last entry */
        lab06_csr_at at = lab06_csr_layout(in[0], in[1], in[2], dbl ? 2 : 1);
        const int *rp = in + at.row_ptr, *col = in + at.col;
        for (long r = 0; r < rows; r++) {
            double s = 0;
            for (int e = rp[r]; e < rp[r + 1] - 1; e++)
                s += dbl ? ((double *)(in + at.val))[e] * ((double *)(in + at.x))[col[e]]
                         : (double)((float *)(in + at.val))[e] * ((float *)(in + at.x))[col[e]];
            if (dbl)
                ((double *)y)[r] = s;
            else
                ((float *)y)[r] = (float)s;
        }
    }
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    REAL(p)->expect(in, rows, kase, want, tol, &c);
    c.elem = REAL(p)->elem, c.n = (size_t)rows, c.want = want, c.tol = tol, c.got = y;
    int ok = pl_compare_real(&c, d);
    free(in), free(y), free(want), free(tol);
    return ok;
}

START_TEST(spmv_cases)
{
    static const long rows[] = {0, 1, 31, 33, 1025, 65537, 262147};
    const char *ids[] = {"cf", "cd", "df", "dd"};
    for (int k = 0; k < 4; k++) {
        const pl_part *p = part(ids[k]);
        for (int q = 0; q < p->params.n; q++)
            for (size_t s = 0; s < sizeof rows / sizeof rows[0]; s++) {
                pl_diag d;
                ck_assert_msg(judge_spmv(ids[k], rows[s], (int)p->params.values[q], 0, &d), "part %s rows=%ld %s: %s",
                              ids[k], rows[s], p->params.labels[(int)p->params.values[q]], d.reason);
            }
    }
}
END_TEST

/* The structures are kept by (rows, case): an input is the same whatever
   was made before it, past the number of structures kept too (each made
   again once forgotten). */
static uint64_t input_hash(const pl_part *p, long rows, int kase)
{
    long words = REAL(p)->in.words(rows, kase);
    int *in = malloc((size_t)words * 4);
    ck_assert_ptr_nonnull(in);
    REAL(p)->in.make(in, rows, kase, 11);
    uint64_t h = 1469598103934665603ull;
    for (long i = 0; i < words; i++)
        h = (h ^ (uint32_t)in[i]) * 1099511628211ull;
    free(in);
    return h;
}
START_TEST(spmv_structures_kept)
{
    const pl_part *p = part("df");
    uint64_t first = input_hash(p, 1025, 1), other = input_hash(p, 1025, 3);
    ck_assert(first != other);
    ck_assert(input_hash(p, 1025, 1) == first);
    for (long rows = 40; rows < 40 + 70; rows++) /* more than are kept */
        for (int kase = 0; kase < 2; kase++)
            input_hash(p, rows, kase);
    ck_assert(input_hash(p, 1025, 3) == other);
    ck_assert(input_hash(p, 1025, 1) == first);
    ck_assert(input_hash(part("cd"), 1025, 1) != first); /* double values, the same structure */
}
END_TEST

START_TEST(spmv_short_by_one)
{
    const char *ids[] = {"cf", "dd"};
    for (int k = 0; k < 2; k++) {
        pl_diag d;
        ck_assert(!judge_spmv(ids[k], 1025, 1 /* fem */, 1, &d));
        ck_assert_msg(strstr(d.reason, "a row loop that stops one short?"), "%s", d.reason);
    }
}
END_TEST

/* An output added into instead of written: right when it starts as the
   usual poison (a float of -2.9e-16), NaN when it starts as NaN. */
/* An input the grader does not make (a value off the 1/1024 grid, one of
   2^31 grid steps or more, a NaN) is summed by the exact reference, not as
   whole grid steps: its sum is not a count of steps. */
START_TEST(inputs_off_the_grid)
{
    const pl_part *p = part("ad");
    const long n = 4194307; /* the parallel pass */
    long words = REAL(p)->in.words(n, NAN);
    int *in = malloc((size_t)words * 4);
    ck_assert_ptr_nonnull(in);
    double *x = (double *)in;
    static const double odd[] = {0.3, 0x1p-11, 0x1p21, -0x1p21 - 0x1p-10, 1e300};
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        for (long i = 0; i < n; i++)
            x[i] = (i % 3 == 0 ? 1 : -1) * 0x1p-10;
        double grid = 0;
        for (long i = 0; i < n; i++)
            grid += x[i];
        x[n / 2] += odd[k]; /* the one value off the grid */
        double want, tol;
        pl_cmp_real c;
        memset(&c, 0, sizeof c);
        REAL(p)->expect(in, n, NAN, &want, &tol, &c);
        double exact = grid + odd[k]; /* exact here: few bits either side */
        ck_assert_msg(want == exact, "off the grid by %g: want %.17g, the exact sum %.17g", odd[k], want, exact);
    }
    x[n / 2] = NAN;
    double want, tol;
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    REAL(p)->expect(in, n, NAN, &want, &tol, &c);
    ck_assert_msg(isnan(want), "a NaN in the input: want %g", want);
    free(in);
}
END_TEST

START_TEST(reads_output)
{
    double want[4] = {1, 2, 3, 4}, tol[4] = {0, 0, 0, 0};
    float got[4] = {1, 2, 3, 4}, got2[4] = {1, NAN, NAN, NAN};
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    c.elem = PL_ELEM_F32, c.n = 4, c.want = want, c.tol = tol, c.got = got, c.got2 = got2, c.pos_name = "row";
    pl_diag d;
    c.got2_nan_start = 1;
    ck_assert(!pl_compare_real(&c, &d));
    ck_assert_msg(strstr(d.reason, "reads its output before writing it") && strstr(d.reason, "first row 1"), "%s",
                  d.reason);
    c.got2_nan_start = 0; /* from the usual poison: a race */
    ck_assert(!pl_compare_real(&c, &d));
    ck_assert_msg(strstr(d.reason, "a race?"), "%s", d.reason);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("lab06 judge");
    TCase *t = tcase_create("judge");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, exact_in_any_order);
    tcase_add_test(t, named_mistakes);
    tcase_add_test(t, spmv_cases);
    tcase_add_test(t, spmv_short_by_one);
    tcase_add_test(t, spmv_structures_kept);
    tcase_add_test(t, reads_output);
    tcase_add_test(t, inputs_off_the_grid);
    suite_add_tcase(s, t);
    return s;
}
