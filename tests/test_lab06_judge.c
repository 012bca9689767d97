/* tests/test_lab06_judge.c: lab 06's grader on the CPU, no GPU: its inputs
 * keep every partial sum exact (so the float sum in any order is the
 * reference, and the tolerance zero), and its verdicts on made-up results:
 * the exact sum passes, a sum without the last partial warp is named, a
 * poisoned output is "not implemented yet". Linked with lab 06's table. */
#include "../harness/parent/diagnose.h"
#include "../harness/parent/lab.h"
#include "../harness/parent/rubric.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "solution";

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
    long words = p->in_len(n);
    int *in = malloc((size_t)(words ? words : 1) * 4);
    ck_assert_ptr_nonnull(in);
    p->gen(in, (size_t)words, seed, NAN);
    double want, tol;
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    p->real->expect(in, n, NAN, &want, &tol, &c);
    *exact = want;
    float gf = (float)got_value;
    double gd = got_value;
    c.elem = p->real->elem, c.n = 1, c.want = &want, c.tol = &tol;
    c.got = p->real->elem == PL_ELEM_F32 ? (const void *)&gf : (const void *)&gd;
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
    long words = p->in_len(n);
    int *in = malloc((size_t)(words ? words : 1) * 4);
    ck_assert_ptr_nonnull(in);
    p->gen(in, (size_t)words, seed, NAN);
    double r;
    if (p->real->elem == PL_ELEM_F32) {
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
    ck_assert_msg(strstr(d.reason, "out of tolerance at 1 of 1 positions: sum 0"), "%s", d.reason);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lab06 judge");
    TCase *t = tcase_create("judge");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, exact_in_any_order);
    tcase_add_test(t, named_mistakes);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
