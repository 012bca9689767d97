/* tests/unit/test_roofs.c: Check tests of the algorithms' roofs
 * (harness/parent/roofs.h): the percentage of its roof a time reaches,
 * worked by hand, its refusals, and the scans' shared formulas. Each lab's
 * own formulas are checked against hand-computed bytes by
 * tests/unit/test_roofs.sh, through `labNN roofs`. */
#include "../../harness/parent/roofs.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <string.h>

/* The percentage, by hand: (bytes / copy) / time. */
static const struct {
    double bytes, copy_gbps, time_ms, want;
    const char *what;
} pcts[] = {
    /* lab 02 (b) at 2^24 on a 4200 GB/s copy: 3n words = 201326592 B take
       0.0479349 ms; in 0.0790 ms that is 60.6771 % */
    {201326592, 4200, 0.0790, 60.6771, "reduce-then-scan at 2^24"},
    /* the same time against 2n (its % of copy): two thirds of it */
    {134217728, 4200, 0.0790, 40.4514, "the same time, 2n"},
    /* a copy of 1 GB at 1000 GB/s in 1 ms: its roof exactly */
    {1e9, 1000, 1.0, 100, "at the roof"},
    /* 9n words of 2^28 keys (9663676416 B) at 4245 GB/s in 6.64 ms: 34.28 % */
    {9663676416.0, 4245, 6.64, 34.2837, "onesweep keys at 2^28"},
};

START_TEST(pct_by_hand)
{
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
        double got = pl_alg_pct(pcts[i].bytes, pcts[i].copy_gbps, pcts[i].time_ms);
        ck_assert_msg(fabs(got - pcts[i].want) < 1e-3, "%s: %.6f, want %.6f", pcts[i].what, got, pcts[i].want);
    }
    /* the ratio of two rows' percentages is the ratio of their bytes over
       their times: 3n at the same time as 2n is 1.5 times as near its roof */
    ck_assert_double_eq_tol(pl_alg_pct(3, 1, 1) / pl_alg_pct(2, 1, 1), 1.5, 1e-12);
}
END_TEST

/* No percentage without all three: no bytes stated (0), no copy measured
   (NaN, 0: a worker that knows no copy), no time. */
START_TEST(pct_refusals)
{
    ck_assert(isnan(pl_alg_pct(0, 4200, 1)));
    ck_assert(isnan(pl_alg_pct(-8, 4200, 1)));
    ck_assert(isnan(pl_alg_pct(8, NAN, 1)));
    ck_assert(isnan(pl_alg_pct(8, 0, 1)));
    ck_assert(isnan(pl_alg_pct(8, INFINITY, 1)));
    ck_assert(isnan(pl_alg_pct(8, 4200, 0)));
    ck_assert(isnan(pl_alg_pct(8, 4200, NAN)));
    ck_assert(isnan(pl_alg_pct(INFINITY, 4200, 1)));
}
END_TEST

/* The scans' formulas: 2n, 3n and 4n four-byte words; a part that states
   none has 0 bytes. */
START_TEST(scan_formulas)
{
    static const pl_alg one = PL_ALG_ONE_PASS, rts = PL_ALG_REDUCE_THEN_SCAN, sta = PL_ALG_SCAN_THEN_ADD,
                        cub = PL_ALG_CUB_SCAN, none = {0};
    long n = 1L << 24;
    ck_assert_double_eq(pl_alg_bytes(&one, n, NAN), 134217728.0);
    ck_assert_double_eq(pl_alg_bytes(&rts, n, NAN), 201326592.0);
    ck_assert_double_eq(pl_alg_bytes(&sta, n, NAN), 268435456.0);
    ck_assert_double_eq(pl_alg_bytes(&cub, 1L << 28, NAN), 2147483648.0);
    ck_assert_double_eq(pl_alg_bytes(&rts, 0, NAN), 0);
    ck_assert_double_eq(pl_alg_bytes(&none, n, NAN), 0);
    ck_assert_double_eq(pl_alg_bytes(NULL, n, NAN), 0);
    /* each formula's text begins with its count of words */
    ck_assert_str_eq(one.text, "2n words: each element read once and written once (one pass)");
    ck_assert(!strncmp(rts.text, "3n words: ", 10) && !strncmp(sta.text, "4n words: ", 10));
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("roofs");
    TCase *t = tcase_create("roofs");
    tcase_add_test(t, pct_by_hand);
    tcase_add_test(t, pct_refusals);
    tcase_add_test(t, scan_formulas);
    suite_add_tcase(s, t);
    return s;
}
