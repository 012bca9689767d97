/* tests/unit/judges/test_stress.c: the stress judge: its runs, the inner
 * judge's input, lengths and verdicts, and the one verdict of many runs
 * ("wrong in k of N runs"; an output never written says only that). */
#include "../../../harness/parent/judges/array.h"
#include "../../../harness/parent/judges/stress.h"
#include "suites.h"

#include <math.h>
#include <string.h>

static long plus_count(long n) { return n + 1; }
static const pl_array_judge run_cfg = {.out_len = plus_count};
static const pl_judge one_run = {&pl_array_kind, &run_cfg};
static const pl_stress_judge cfg = {&one_run, 100};
static const pl_judge stressed = {&pl_stress_kind, &cfg};
static const pl_stress_judge plain_cfg = {NULL, 7};
static const pl_judge plain_stressed = {&pl_stress_kind, &plain_cfg};

START_TEST(runs_of_the_inner_judge)
{
    ck_assert_int_eq(pl_judge_runs(&stressed), 100);
    ck_assert_int_eq(pl_judge_runs(&one_run), 1);
    ck_assert_int_eq(pl_judge_in_words(&stressed, 1000, NAN), 1000);
    ck_assert_int_eq(pl_judge_out_words(&stressed, 1000, NAN), 1001);
    ck_assert_int_eq(pl_judge_runs(&plain_stressed), 7);
    ck_assert_int_eq(pl_judge_out_words(&plain_stressed, 1000, NAN), 1000); /* the plain array judge's */
    int want[4] = {1, 2, 3, 4}, got[4] = {1, 2, 0, 4};
    pl_judged r = {.n = 3, .param = NAN, .want = want, .got = got};
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&stressed, &r, &d), 0); /* the inner judge's verdict */
    ck_assert_ptr_nonnull(strstr(d.detail, "first mismatch at index 2"));
}
END_TEST

START_TEST(wrong_in_k_of_n_runs)
{
    pl_tally t;
    memset(&t, 0, sizeof t);
    t.runs = 100, t.wrong = 3, t.first = 4;
    t.first_d.findings = PL_F_MISMATCH;
    snprintf(t.first_d.reason, sizeof t.first_d.reason, "wrong value at 1 of 1001 positions");
    snprintf(t.first_d.detail, sizeof t.first_d.detail, "    the window\n");
    char reason[200], detail[2048];
    pl_judge_summarize(&stressed, &t, reason, sizeof reason, detail, sizeof detail);
    ck_assert_str_eq(reason, "wrong in 3 of 100 runs under load; run 5: wrong value at 1 of 1001 positions");
    ck_assert_str_eq(detail, "run 5: wrong value at 1 of 1001 positions\n    the window\n");
    /* a stub: one run, and only what it says */
    t.wrong = 1, t.first = 0;
    t.first_d.findings = PL_F_NOT_IMPLEMENTED | PL_F_MISMATCH;
    snprintf(t.first_d.reason, sizeof t.first_d.reason, "not implemented yet (the output was never written)");
    pl_judge_summarize(&stressed, &t, reason, sizeof reason, detail, sizeof detail);
    ck_assert_str_eq(reason, "not implemented yet (the output was never written)");
}
END_TEST

Suite *stress_suite(void)
{
    Suite *s = suite_create("stress");
    TCase *t = tcase_create("core");
    tcase_add_test(t, runs_of_the_inner_judge);
    tcase_add_test(t, wrong_in_k_of_n_runs);
    suite_add_tcase(s, t);
    return s;
}
