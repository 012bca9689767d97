/* tests/unit/test_lab07_judge.c: lab 07's grader on the CPU, no GPU. The op
 * copies a into the output before the call, so a stub's output is a as it
 * went in, not poison: named "not implemented yet" by the first suspect,
 * which also stands for an output never written (PL_F_NOT_IMPLEMENTED, the
 * finding the grading driver reads to spare a stub part its large tests),
 * but only while every element is a's own; one element written takes that
 * away and keeps the suspect's words. Linked with lab 07's table.
 *
 *   build/tests/test_lab07_judge */
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/judges/judge.h"
#include "../../harness/parent/lab.h"
#include "../../harness/parent/rubric.h"
#include "../../harness/wire/lab07.h"
#include "../../kernels_ref/cpu/segscan.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "solution";

START_TEST(stub_output_stands_for_unwritten)
{
    const pl_part *p = pl_find_part(pl_this_lab(), "b");
    ck_assert_ptr_nonnull(p);
    const pl_judge *j = pl_part_judge(p);
    long n = 65537;
    double param = 0; /* the uniform case */
    long iw = pl_judge_in_words(j, n, param), ow = pl_judge_out_words(j, n, param);
    ck_assert_int_eq(ow, n);
    int *in = calloc((size_t)iw, sizeof *in), *want = calloc((size_t)ow, sizeof *want);
    float *got = malloc((size_t)n * sizeof *got);
    double *ref = malloc((size_t)n * sizeof *ref), *tol = malloc((size_t)n * sizeof *tol);
    ck_assert(in && want && got && ref && tol);
    pl_judge_make_input(j, pl_this_lab(), in, iw, n, param, 7);
    pl_judge_expect(j, p, in, n, param, want);
    lab07_at at = lab07_layout(in[0], in[1], in[2]);
    const float *a = (const float *)(in + at.a);
    memcpy(got, a, (size_t)n * sizeof *got);
    pl_judged r = {.n = n, .param = param, .in = in, .in_words = iw, .want = want, .got = (const int *)got};
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(j, &r, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_NOT_IMPLEMENTED, PL_F_NOT_IMPLEMENTED);
    ck_assert_uint_eq(d.chosen, PL_F_SUSPECT);
    ck_assert_ptr_nonnull(strstr(d.reason, "not implemented yet: a came back as it went in"));
    /* one element made right: the wrong ones are still a's, so still named
       so, but the part wrote something */
    pl_segspmv_ref(in[0], in + at.s, in + at.k, (const float *)(in + at.x), in[1], a, in[3], PL_SEG_RIGHT, 0, 1, ref,
                   tol);
    long i = 0;
    while (i < n && fabs((double)a[i] - ref[i]) <= tol[i])
        i++;
    ck_assert_int_lt(i, n);
    got[i] = (float)ref[i];
    ck_assert_int_eq(pl_judge_compare(j, &r, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_NOT_IMPLEMENTED, 0);
    ck_assert_uint_eq(d.chosen, PL_F_SUSPECT);
    ck_assert_ptr_nonnull(strstr(d.reason, "not implemented yet: a came back as it went in"));
    free(in), free(want), free(got), free(ref), free(tol);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("lab07_judge");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, stub_output_stands_for_unwritten);
    suite_add_tcase(s, t);
    return s;
}
