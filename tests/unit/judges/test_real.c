/* tests/unit/judges/test_real.c: the real-valued judge through the judge
 * interface: doubles' lengths and patch step, the NaN-poisoned second run,
 * a tolerance, a suspect named, and an output never written judged without
 * the reference. */
#include "../../../harness/parent/judges/real.h"
#include "suites.h"

#include <math.h>
#include <string.h>

#define N 64
static int expects; /* calls of expect */

/* Each element's reference is its input element doubled; each within 0.01;
   the suspect: the input itself (a doubling left out). */
static double suspect[N];
static void expect_twice(const int *in, long n, double param, double *want, double *tol, pl_cmp_real *c)
{
    (void)param;
    expects++;
    for (long i = 0; i < n; i++) {
        want[i] = 2 * ((const double *)in)[i];
        tol[i] = 0.01;
        suspect[i] = ((const double *)in)[i];
    }
    c->suspects[0] = (pl_suspect){"the doubling left out", suspect, NULL, 0};
    c->nsuspects = 1;
}
static long words_f64(long n, double param) { return (void)param, 2 * n; }
static void gen_f64(int *a, size_t len, uint64_t seed, double param)
{
    (void)param;
    for (size_t i = 0; i < len / 2; i++)
        ((double *)a)[i] = 1.5 + (double)((i + seed) % 10);
}
static const pl_real_judge cfg = {{.words = words_f64, .gen = gen_f64}, PL_ELEM_F64, NULL, expect_twice};
static const pl_judge doubled = {&pl_real_kind, &cfg};
static const pl_lab lab = {.id = "t"};
static const pl_part part = {.id = "d"};
static int in[2 * N];
static double got[N];

static pl_judged result(void)
{
    pl_judge_make_input(&doubled, &lab, in, 2 * N, N, NAN, 1);
    int none[1];
    pl_judge_expect(&doubled, &part, in, N, NAN, none); /* nothing: the reference is the compare's */
    for (int i = 0; i < N; i++)
        got[i] = 2 * ((const double *)in)[i] + 0.005;
    pl_judged r = {.n = N, .param = NAN, .in = in, .in_words = 2 * N, .got = (const int *)got};
    return r;
}

START_TEST(doubles_lengths_and_runs)
{
    ck_assert_int_eq(pl_judge_in_words(&doubled, N, NAN), 2 * N);
    ck_assert_int_eq(pl_judge_out_words(&doubled, N, NAN), 2 * N);
    ck_assert_uint_eq(pl_judge_second_stage(&doubled), PL_RQ_POISON_NAN);
    long lo, hi, step;
    pl_judge_patch(&doubled, in, N, NAN, &lo, &hi, &step);
    ck_assert(lo == 0 && hi == 2 * N && step == 2); /* a word stays in its double's half */
}
END_TEST

START_TEST(within_tolerance_passes)
{
    pl_judged r = result();
    pl_diag d;
    ck_assert_msg(pl_judge_compare(&doubled, &r, &d) == 1, "%s", d.reason);
    got[10] += 0.02;
    ck_assert_int_eq(pl_judge_compare(&doubled, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "out of tolerance at 1 of 64 positions: element 10 is") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(suspect_named)
{
    pl_judged r = result();
    for (int i = 40; i < N; i++)
        got[i] = ((const double *)in)[i];
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&doubled, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "the doubling left out; 24 of 64 positions wrong, first element 40") != NULL, "%s",
                  d.reason);
}
END_TEST

START_TEST(read_before_written)
{
    pl_judged r = result();
    static double second[N];
    memcpy(second, got, sizeof got);
    second[3] = NAN; /* the second run started as NaN and added into it */
    r.got2 = (const int *)second;
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&doubled, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "reads its output before writing it") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(never_written_needs_no_reference)
{
    pl_judged r = result();
    memset(got, PL_POISON_BYTE, sizeof got);
    expects = 0;
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&doubled, &r, &d), 0);
    ck_assert_int_eq(expects, 0);
    ck_assert_str_eq(d.reason, "not implemented yet (the output was never written)");
}
END_TEST

Suite *real_suite(void)
{
    Suite *s = suite_create("real");
    TCase *t = tcase_create("core");
    tcase_add_test(t, doubles_lengths_and_runs);
    tcase_add_test(t, within_tolerance_passes);
    tcase_add_test(t, suspect_named);
    tcase_add_test(t, read_before_written);
    tcase_add_test(t, never_written_needs_no_reference);
    suite_add_tcase(s, t);
    return s;
}
