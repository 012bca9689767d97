/* tests/unit/test_rubric.c: Check tests of the rubric
 * (harness/parent/rubric.h): performance points, the public, hidden and
 * limit tests of a lab, whether a limit test fits the device. */
#define _GNU_SOURCE
#include "../../harness/parent/rubric.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "fake"; /* lab_run.c (pl_lab_tests) names it in benchmark rows */
/* -------------------------------------------------------------- rubric */

static const pl_part fake_parts[] = {
    {.id = "a", .title = "one block", .entry = "f_a", .sizes = {.max = 1024}, .points = 1},
    {.id = "b", .title = "any n", .entry = "f_b", .points = 2, .bench = 1},
};
static const pl_part *const fake_parts_list[] = {&fake_parts[0], &fake_parts[1]};
static const long fake_sizes[] = {0, 1, 1024, 1025, 1L << 20};
static const pl_perf fake_perf[] = {{.part = "b", .n = 1L << 24, .points = 3, .yardstick = PL_YARD_VENDOR, .full = 0.5, .zero = 0.1}};
static const pl_lab fake_lab = {.id = "99", .name = "fake", .parts = fake_parts_list, .nparts = 2,
                                .test_sizes = fake_sizes, .ntest_sizes = 5, .perf = fake_perf, .nperf = 1,
                                .hidden_per_part = 4};

START_TEST(perf_points_are_linear_between_thresholds)
{
    const pl_perf *p = &fake_perf[0];
    ck_assert_double_eq_tol(pl_perf_points(p, 0.9), 3, 1e-12);
    ck_assert_double_eq_tol(pl_perf_points(p, 0.5), 3, 1e-12);
    ck_assert_double_eq_tol(pl_perf_points(p, 0.3), 1.5, 1e-12);
    ck_assert_double_eq_tol(pl_perf_points(p, 0.1), 0, 1e-12);
    ck_assert_double_eq_tol(pl_perf_points(p, 0.01), 0, 1e-12);
    ck_assert_double_eq_tol(pl_perf_points(p, NAN), 0, 1e-12);
}
END_TEST

/* A test scored by its roof (lab.h): the fraction of the roof, capped at
   1, under the same linear rule; thresholds as lab 02's (22 %, 4.4 %).
   The solution's 60 % there scores full, a cached 130 % no more than
   full, a stub's nothing. Its name says what it is against. */
START_TEST(perf_points_by_the_roof)
{
    const pl_perf roof = {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_ROOF, .full = 0.22,
                          .zero = 0.044};
    ck_assert(pl_perf_vendor_timed(&roof));
    ck_assert(pl_perf_vendor_timed(&fake_perf[0]));
    const pl_perf omp = {.part = "b", .yardstick = PL_YARD_CPU_OMP};
    ck_assert(!pl_perf_vendor_timed(&omp));
    /* 3n words of 2^24 at 4263 GB/s take 0.0472 ms: the solution's 0.0793 ms is 59.6 % */
    double bytes = 12.0 * (1 << 24), copy = 4262.5;
    double sol = pl_perf_roof_fraction(bytes, copy, 0.079312);
    ck_assert_double_eq_tol(sol, 0.5955, 5e-4);
    ck_assert_double_eq_tol(pl_perf_points(&roof, sol), 2, 1e-12);
    ck_assert_double_eq_tol(pl_perf_roof_fraction(bytes, copy, 0.03), 1, 1e-12); /* capped */
    ck_assert_double_eq_tol(pl_perf_points(&roof, pl_perf_roof_fraction(bytes, copy, 0.03)), 2, 1e-12);
    /* 13.2 %: halfway */
    double half = bytes / (copy * 1e9) * 1e3 / 0.132;
    ck_assert_double_eq_tol(pl_perf_points(&roof, pl_perf_roof_fraction(bytes, copy, half)), 1, 1e-9);
    ck_assert_double_eq_tol(pl_perf_points(&roof, pl_perf_roof_fraction(bytes, copy, 10.0)), 0, 1e-12);
    ck_assert(isnan(pl_perf_roof_fraction(bytes, NAN, 0.08)));
    ck_assert(isnan(pl_perf_roof_fraction(0, copy, 0.08)));
    ck_assert(isnan(pl_perf_roof_fraction(bytes, copy, 0)));
    ck_assert_double_eq_tol(pl_perf_points(&roof, NAN), 0, 1e-12);
    pl_perf perfs[] = {roof};
    pl_lab lab = fake_lab;
    lab.perf = perfs;
    pl_test t[64];
    int n = pl_lab_tests(&lab, NULL, NULL, 0, 0, 1, t, 64);
    ck_assert_str_eq(t[n - 1].name, "99.b performance vs its roof, n=16777216");
}
END_TEST

START_TEST(test_list_public)
{
    pl_test t[64];
    int n = pl_lab_tests(&fake_lab, NULL, NULL, 0, 0, 1, t, 64);
    /* part a: sizes up to its limit (3), part b: all 5, one performance test */
    ck_assert_int_eq(n, 3 + 5 + 1);
    ck_assert_str_eq(t[0].name, "99.a one block, n=0");
    ck_assert_double_eq(t[3].max, 2);
    ck_assert_ptr_nonnull(t[8].perf);
    ck_assert_str_eq(t[8].name, "99.b performance vs the vendor library, n=16777216");
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(t[i].hidden, 0);
    /* --part and --n narrow the list and drop the performance test */
    long only[] = {7};
    n = pl_lab_tests(&fake_lab, &fake_parts[1], only, 1, 1, 1, t, 64);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(t[0].n, 7);
}
END_TEST

START_TEST(test_list_hidden_from_seed)
{
    pl_test a[64], b[64], c[64];
    int na = pl_lab_tests(&fake_lab, NULL, NULL, 0, 1, 12345, a, 64);
    int nb = pl_lab_tests(&fake_lab, NULL, NULL, 0, 1, 12345, b, 64);
    int nc = pl_lab_tests(&fake_lab, NULL, NULL, 0, 1, 999, c, 64);
    ck_assert_int_eq(na, 3 + 4 + 5 + 4 + 1);
    ck_assert_int_eq(na, nb);
    ck_assert_int_eq(na, nc);
    int hidden = 0, differ = 0;
    for (int i = 0; i < na; i++) {
        ck_assert_int_eq(a[i].n, b[i].n); /* the same seed, the same sizes */
        if (!a[i].hidden)
            continue;
        hidden++;
        differ += a[i].n != c[i].n;
        long hi = a[i].part->sizes.max ? a[i].part->sizes.max : 1L << 22;
        ck_assert(a[i].n >= 2 && a[i].n <= hi);
        ck_assert_ptr_nonnull(strstr(a[i].name, "(hidden)"));
    }
    ck_assert_int_eq(hidden, 8);
    ck_assert_int_gt(differ, 4);
}
END_TEST

/* Limit tests: one per part whose contract states a largest size beyond its
   test sizes, within 1024 of it, after the performance tests, the same size
   for parts with the same limit; none with PRIMLAB_LIMITS=0; hidden sizes
   stay at or below 2^22 however large the limit. */
static const pl_part limit_parts[] = {
    {.id = "a", .title = "one block", .entry = "f_a", .sizes = {.max = 1024}, .points = 1},
    {.id = "b", .title = "any n", .entry = "f_b", .sizes = {.max = 2147483647}, .points = 2, .bench = 1},
    {.id = "c", .title = "any n too", .entry = "f_c", .sizes = {.max = 2147483647}, .points = 1},
    {.id = "d", .title = "near its sizes", .entry = "f_d", .sizes = {.max = (1L << 20) + 1000}, .points = 1},
};
static const pl_part *const limit_parts_list[] = {&limit_parts[0], &limit_parts[1], &limit_parts[2], &limit_parts[3]};
static const pl_lab limit_lab = {.id = "98", .name = "limits", .parts = limit_parts_list, .nparts = 4,
                                 .test_sizes = fake_sizes, .ntest_sizes = 5, .perf = fake_perf, .nperf = 1,
                                 .hidden_per_part = 4};

START_TEST(test_list_limits)
{
    pl_test t[64];
    /* unset: none with the public seed, all with the secret one */
    unsetenv("PRIMLAB_LIMITS");
    ck_assert_int_eq(pl_lab_tests(&limit_lab, NULL, NULL, 0, 0, 1, t, 64), 3 + 5 + 5 + 5 + 1);
    ck_assert_int_eq(pl_lab_tests(&limit_lab, NULL, NULL, 0, 1, 1, t, 64), 3 + 5 + 5 + 5 + 4 * 4 + 1 + 2);
    setenv("PRIMLAB_LIMITS", "1", 1);
    int n = pl_lab_tests(&limit_lab, NULL, NULL, 0, 0, 1, t, 64);
    /* a: 3 sizes up to 1024; b, c, d: 5 each; one performance test; then
       the limits of b and c (a's and d's tests already reach theirs) */
    ck_assert_int_eq(n, 3 + 5 + 5 + 5 + 1 + 2);
    ck_assert_ptr_nonnull(t[n - 3].perf);
    for (int i = n - 2; i < n; i++) {
        ck_assert_int_eq(t[i].limit, 1);
        ck_assert_ptr_null(t[i].perf);
        ck_assert(t[i].n > 2147483647L - 1024 && t[i].n <= 2147483647L);
        ck_assert_ptr_nonnull(strstr(t[i].name, "(limit)"));
        ck_assert_double_eq(t[i].max, t[i].part->points);
    }
    ck_assert_str_eq(t[n - 2].part->id, "b");
    ck_assert_str_eq(t[n - 1].part->id, "c");
    ck_assert_int_eq(t[n - 2].n, t[n - 1].n); /* one limit, one size: they share an input */
    for (int i = 0; i < n - 2; i++)
        ck_assert_int_eq(t[i].limit, 0);
    /* the seed moves the size, within 1024 of the limit */
    long seen[8];
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        long m = pl_part_limit_n(&limit_lab, &limit_parts[1], seed);
        ck_assert(m > 2147483647L - 1024 && m <= 2147483647L);
        int dup = 0;
        for (int k = 0; k < distinct; k++)
            dup |= seen[k] == m;
        if (!dup)
            seen[distinct++] = m;
    }
    ck_assert_int_ge(distinct, 4);
    /* hidden sizes are not drawn up to the limit */
    n = pl_lab_tests(&limit_lab, NULL, NULL, 0, 1, 777, t, 64);
    for (int i = 0; i < n; i++)
        if (t[i].hidden)
            ck_assert(t[i].n >= 2 && t[i].n <= 1L << 22);
    /* --part keeps that part's limit test; --n drops them all */
    n = pl_lab_tests(&limit_lab, &limit_parts[2], NULL, 0, 0, 1, t, 64);
    ck_assert_int_eq(n, 5 + 1);
    ck_assert_int_eq(t[5].limit, 1);
    long only[] = {7};
    ck_assert_int_eq(pl_lab_tests(&limit_lab, NULL, only, 1, 0, 1, t, 64), 4);
    setenv("PRIMLAB_LIMITS", "0", 1);
    n = pl_lab_tests(&limit_lab, NULL, NULL, 0, 1, 1, t, 64);
    unsetenv("PRIMLAB_LIMITS");
    ck_assert_int_eq(n, 3 + 5 + 5 + 5 + 4 * 4 + 1);
}
END_TEST

/* Whether a limit test fits: the device's memory as the probe saw it, less
   2 GiB for contexts, and the host's available memory. */
START_TEST(limit_fit_from_probe)
{
    pl_reply probe;
    memset(&probe, 0, sizeof probe);
    probe.gpu_ok = 1;
    snprintf(probe.device, sizeof probe.device, "a small GPU");
    probe.mem_bytes = 5LL << 30;
    probe.free_bytes = 1LL << 30; /* what others hold for a moment does not count */
    char why[200] = "";
    /* n = 2^28: 1 GiB in, 1 GiB out, 1/16 GiB of scratch: fits 5 GiB less 2 */
    ck_assert_int_eq(pl_lab_fits(&limit_lab, &limit_parts[1], 1L << 28, NAN, &probe, why, sizeof why), 1);
    /* n = 2^29: 4.1 GiB do not */
    ck_assert_int_eq(pl_lab_fits(&limit_lab, &limit_parts[1], 1L << 29, NAN, &probe, why, sizeof why), 0);
    ck_assert_ptr_nonnull(strstr(why, "device memory"));
    ck_assert_ptr_nonnull(strstr(why, "a small GPU"));
    /* host memory: a size no machine here holds twice over */
    probe.mem_bytes = 1LL << 50;
    ck_assert_int_eq(pl_lab_fits(&limit_lab, &limit_parts[1], 1L << 45, NAN, &probe, why, sizeof why), 0);
    ck_assert_ptr_nonnull(strstr(why, "host memory"));
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("rubric");
    TCase *t;
    t = tcase_create("rubric");
    tcase_add_test(t, perf_points_are_linear_between_thresholds);
    tcase_add_test(t, perf_points_by_the_roof);
    tcase_add_test(t, test_list_public);
    tcase_add_test(t, test_list_hidden_from_seed);
    tcase_add_test(t, test_list_limits);
    tcase_add_test(t, limit_fit_from_probe);
    suite_add_tcase(s, t);
    return s;
}
