/* tests/unit/test_cpu_refs.c: Check tests of the CPU references
 * (kernels_ref/cpu): the scans (serial and OpenMP, int and float), the
 * compactions and the radix sorts, against plain loops and qsort. */
#define _GNU_SOURCE
#include "../../harness/parent/rng.h"
#include "../../kernels_ref/cpu/compact.h"
#include "../../kernels_ref/cpu/radix.h"
#include "../../kernels_ref/cpu/scan.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

/* ----------------------------------------------------- CPU references */

typedef void (*scan_fn)(const int *, int *, size_t);

START_TEST(ref_known_answers)
{
    /* the lecture's examples (../shared/seeds/001) */
    const int x[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    const int incl[8] = {3, 4, 11, 11, 15, 16, 22, 25};
    const int excl[8] = {0, 3, 4, 11, 11, 15, 16, 22};
    const int bread[10] = {3, 5, 2, 7, 28, 4, 3, 0, 8, 1};
    const int cuts[10] = {3, 8, 10, 17, 45, 49, 52, 52, 60, 61};
    int out[10];
    scan_fn inc[] = {scan_cpu_inclusive, scan_omp_inclusive};
    scan_fn exc[] = {scan_cpu_exclusive, scan_omp_exclusive};
    for (int k = 0; k < 2; k++) {
        inc[k](x, out, 8);
        ck_assert_mem_eq(out, incl, sizeof incl);
        exc[k](x, out, 8);
        ck_assert_mem_eq(out, excl, sizeof excl);
        inc[k](bread, out, 10);
        ck_assert_mem_eq(out, cuts, sizeof cuts);
        ck_assert_int_eq(100 - out[9], 39); /* inches of bread left */
    }
}
END_TEST

static const size_t ref_sizes[] = {0, 1, 2, 31, 1000, 32767, 32768, 32769, 100003, (1u << 20) + 7};

/* Lab 08's float scans: known answers; on multiples of 2^-6 (every partial
   sum exact) serial, OpenMP and the double oracle agree exactly, in place
   too; on values that round, the serial scan is the oracle's rounding of
   one left-to-right order. */
START_TEST(ref_f32_scans)
{
    const float x[5] = {0.5f, -0.25f, 1, 0, 2};
    const float incl[5] = {0.5f, 0.25f, 1.25f, 1.25f, 3.25f}, excl[5] = {0, 0.5f, 0.25f, 1.25f, 1.25f};
    float out[5];
    double d[5];
    scan_cpu_inclusive_f32(x, out, 5);
    ck_assert_mem_eq(out, incl, sizeof incl);
    scan_cpu_exclusive_f32(x, out, 5);
    ck_assert_mem_eq(out, excl, sizeof excl);
    scan_exact_f32(x, d, 5, 1);
    for (int i = 0; i < 5; i++)
        ck_assert_double_eq(d[i], incl[i]);
    scan_exact_f32(x, d, 5, 0);
    for (int i = 0; i < 5; i++)
        ck_assert_double_eq(d[i], excl[i]);
    size_t n = (1u << 20) + 7;
    float *a = malloc(n * sizeof *a), *s = malloc(n * sizeof *s), *o = malloc(n * sizeof *o);
    double *e = malloc(n * sizeof *e);
    int *k = malloc(n * sizeof *k);
    pl_gen_ints(k, n, 808, -64, 64);
    for (size_t i = 0; i < n; i++)
        a[i] = (float)k[i] / 64;
    for (int inclusive = 0; inclusive < 2; inclusive++) {
        (inclusive ? scan_cpu_inclusive_f32 : scan_cpu_exclusive_f32)(a, s, n);
        (inclusive ? scan_omp_inclusive_f32 : scan_omp_exclusive_f32)(a, o, n);
        scan_exact_f32(a, e, n, inclusive);
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(s[i] == o[i] && (double)s[i] == e[i], "%s at %zu: %g %g %g",
                          inclusive ? "inclusive" : "exclusive", i, s[i], o[i], e[i]);
        memcpy(o, a, n * sizeof *o); /* in place */
        (inclusive ? scan_omp_inclusive_f32 : scan_omp_exclusive_f32)(o, o, n);
        ck_assert_mem_eq(o, s, n * sizeof *o);
    }
    for (size_t i = 0; i < n; i++) /* thirds round */
        a[i] = 1.0f / 3;
    scan_cpu_inclusive_f32(a, s, n);
    float acc = 0;
    for (size_t i = 0; i < n; i++)
        ck_assert(s[i] == (acc += a[i]));
    free(a), free(s), free(o), free(e), free(k);
}
END_TEST

/* Each reference against the plain loop y[i] = y[i-1] + x[i], written here. */
START_TEST(ref_random_against_loop)
{
    size_t n = ref_sizes[_i];
    int *x = malloc((n + 1) * sizeof *x), *out = malloc((n + 1) * sizeof *x);
    long long *loop = malloc((n + 1) * sizeof *loop);
    pl_gen_ints(x, n, 1000 + n, -1000, 1000);
    long long acc = 0;
    for (size_t i = 0; i < n; i++)
        loop[i] = (acc += x[i]);
    scan_fn inc[] = {scan_cpu_inclusive, scan_omp_inclusive};
    scan_fn exc[] = {scan_cpu_exclusive, scan_omp_exclusive};
    for (int k = 0; k < 2; k++) {
        out[n] = 12345; /* sentinel: nothing written past n */
        inc[k](x, out, n);
        for (size_t i = 0; i < n; i++)
            ck_assert_int_eq(out[i], (int)loop[i]);
        exc[k](x, out, n);
        for (size_t i = 0; i < n; i++)
            ck_assert_int_eq(out[i], i ? (int)loop[i - 1] : 0);
        ck_assert_int_eq(out[n], 12345);
    }
    free(x), free(out), free(loop);
}
END_TEST

START_TEST(ref_omp_equals_serial_in_place)
{
    size_t n = ref_sizes[_i];
    int *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    int *c = malloc((n + 1) * sizeof *c);
    pl_gen_ints(a, n, 77 + n, 0, 7);
    memcpy(b, a, n * sizeof *a);
    memcpy(c, a, n * sizeof *a);
    scan_cpu_exclusive(a, a, n); /* in place */
    scan_omp_exclusive(b, b, n);
    ck_assert_int_eq(memcmp(a, b, n * sizeof *a), 0);
    scan_cpu_inclusive(c, a, n);
    scan_omp_inclusive(c, c, n);
    ck_assert_int_eq(memcmp(a, c, n * sizeof *a), 0);
    free(a), free(b), free(c);
}
END_TEST

START_TEST(ref_wraps_like_int32)
{
    const int x[3] = {2147483647, 1, 1};
    int out[3];
    scan_cpu_inclusive(x, out, 3);
    ck_assert_int_eq(out[1], (int)0x80000000u);
    ck_assert_int_eq(out[2], (int)0x80000001u);
}
END_TEST

/* --------------------------------------------------- compaction references */

START_TEST(compact_references_agree)
{
    static const size_t sizes[] = {0, 1, 2, 100, 32767, 32768, 100001};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        int *in = malloc((n + 1) * sizeof *in), *a = malloc((n + 1) * sizeof *a);
        int *b = malloc((n + 1) * sizeof *b), *c = malloc((n + 1) * sizeof *c);
        pl_gen_ints(in, n, 5 + n, -3, 3);
        size_t want = 0;
        for (size_t i = 0; i < n; i++)
            want += in[i] > 0;
        ck_assert_uint_eq(compact_cpu(in, a, n), want);
        ck_assert_uint_eq(compact_cpu_scan(in, b, n), want);
        ck_assert_uint_eq(compact_omp(in, c, n), want);
        for (size_t i = 0, j = 0; i < n; i++) /* order kept */
            if (in[i] > 0) {
                ck_assert_int_eq(a[j], in[i]);
                j++;
            }
        ck_assert_int_eq(memcmp(a, b, want * sizeof *a), 0);
        ck_assert_int_eq(memcmp(a, c, want * sizeof *a), 0);
        free(in), free(a), free(b), free(c);
    }
    const int x[6] = {3, -1, 0, 7, 2, -5}, keep[3] = {3, 7, 2};
    int out[6];
    ck_assert_uint_eq(compact_cpu(x, out, 6), 3);
    ck_assert_mem_eq(out, keep, sizeof keep);
}
END_TEST

/* --------------------------------------------------------- radix references */

/* The key distributions lab 05 tests with. */
static void radix_input(unsigned *k, size_t n, int kind, uint64_t seed)
{
    pl_rng r;
    pl_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        unsigned x = (unsigned)pl_rng_next(&r);
        switch (kind) {
        case 0: k[i] = x; break;                          /* random */
        case 1: k[i] = 42; break;                         /* all equal */
        case 2: k[i] = (unsigned)i; break;                /* sorted */
        case 3: k[i] = (unsigned)(n - i); break;          /* reversed */
        case 4: k[i] = x % 5; break;                      /* few distinct */
        default: k[i] = x & 0xf0000000u; break;           /* only high bits */
        }
    }
}

static const size_t radix_sizes[] = {0, 1, 2, 1000, 100003};

START_TEST(radix_sorts_like_qsort_and_stably)
{
    static const int bits[] = {1, 2, 4, 8, 11, 16};
    for (size_t s = 0; s < sizeof radix_sizes / sizeof radix_sizes[0]; s++)
        for (int kind = 0; kind < 6; kind++) {
            size_t n = radix_sizes[s];
            unsigned *in = malloc((n + 1) * sizeof *in), *want = malloc((n + 1) * sizeof *in);
            unsigned *k = malloc((n + 1) * sizeof *in), *v = malloc((n + 1) * sizeof *in);
            radix_input(in, n, kind, 9 + n);
            memcpy(want, in, n * sizeof *in);
            sort_qsort(want, n);
            for (size_t b = 0; b <= sizeof bits / sizeof bits[0]; b++) {
                int omp = b == sizeof bits / sizeof bits[0]; /* the last round: OpenMP */
                memcpy(k, in, n * sizeof *in);
                for (size_t i = 0; i < n; i++)
                    v[i] = (unsigned)i; /* values: the input positions */
                int rc = omp ? radix_sort_omp(k, v, n) : radix_sort_cpu(k, v, n, bits[b]);
                ck_assert_int_eq(rc, 0);
                ck_assert_int_eq(memcmp(k, want, n * sizeof *k), 0);
                size_t moved = 0, unstable = 0;
                for (size_t i = 0; i < n; i++) {
                    moved += in[v[i]] != k[i]; /* each value moved with its key */
                    unstable += i && k[i] == k[i - 1] && v[i - 1] > v[i];
                }
                ck_assert_msg(moved == 0 && unstable == 0, "n=%zu kind %d bits %d: %zu values astray, %zu unstable",
                              n, kind, omp ? 8 : bits[b], moved, unstable);
            }
            free(in), free(want), free(k), free(v);
        }
    unsigned x[3] = {3, 1, 2};
    ck_assert_int_eq(radix_sort_cpu(x, NULL, 3, 0), -1); /* bits out of range */
    ck_assert_int_eq(radix_sort_cpu(x, NULL, 3, 17), -1);
}
END_TEST

/* radix_sort_omp above its serial cut-off gathers each thread's keys of a
   digit in a line-sized buffer, writes whole lines, and the part lines left
   at the end of each pass. Sizes that are no multiple of 16, odd thread
   counts and arrays off the 64-byte grid leave part lines in every digit;
   few distinct keys make long runs of equal keys, whose values must keep
   their order; keys that agree in some digits skip those passes, and an odd
   number of passes that moved leaves the result to be copied back. */
START_TEST(radix_omp_part_lines_and_stability)
{
    static const size_t sizes[] = {65536 + 13, (1u << 20) + 7};
    static const int teams[] = {1, 3, 4};
    int was = omp_get_max_threads();
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int kind = 0; kind < 4; kind++) {
            size_t n = sizes[s];
            unsigned *in = malloc(n * sizeof *in), *want = malloc(n * sizeof *in);
            unsigned *kbuf = malloc((n + 1) * sizeof *in), *vbuf = malloc((n + 3) * sizeof *in);
            unsigned *k = kbuf + 1, *v = vbuf + 3; /* off the 64-byte grid, and off each other's */
            pl_rng r;
            pl_rng_seed(&r, 77 + n + (uint64_t)kind);
            for (size_t i = 0; i < n; i++) {
                unsigned x = (unsigned)pl_rng_next(&r);
                in[i] = kind == 0 ? x                          /* random */
                      : kind == 1 ? x % 5                      /* few distinct: long equal runs */
                      : kind == 2 ? x & 0xffff00ffu            /* digit 1 always 0: 3 passes move */
                                  : (x % 7) << 8;              /* only digit 1 varies: 1 pass moves */
            }
            memcpy(want, in, n * sizeof *in);
            sort_qsort(want, n);
            for (size_t t = 0; t < sizeof teams / sizeof teams[0]; t++)
                for (int pairs = 0; pairs < 2; pairs++) {
                    omp_set_num_threads(teams[t]);
                    memcpy(k, in, n * sizeof *in);
                    for (size_t i = 0; i < n; i++)
                        v[i] = (unsigned)i; /* values: the input positions */
                    ck_assert_int_eq(radix_sort_omp(k, pairs ? v : NULL, n), 0);
                    ck_assert_msg(memcmp(k, want, n * sizeof *k) == 0, "n=%zu kind %d, %d threads%s: keys differ",
                                  n, kind, teams[t], pairs ? ", pairs" : "");
                    size_t moved = 0, unstable = 0;
                    for (size_t i = 0; pairs && i < n; i++) {
                        moved += v[i] >= n || in[v[i]] != k[i]; /* each value moved with its key */
                        unstable += i && k[i] == k[i - 1] && v[i - 1] > v[i];
                    }
                    ck_assert_msg(moved == 0 && unstable == 0,
                                  "n=%zu kind %d, %d threads: %zu values astray, %zu unstable",
                                  n, kind, teams[t], moved, unstable);
                }
            free(in), free(want), free(kbuf), free(vbuf);
        }
    omp_set_num_threads(was);
}
END_TEST

START_TEST(radix_key_maps_keep_order)
{
    const int ints[] = {-2147483647 - 1, -70000, -1, 0, 1, 70000, 2147483647};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        ck_assert_int_eq(radix_int_from_key(radix_key_from_int(ints[i])), ints[i]);
        if (i)
            ck_assert_uint_lt(radix_key_from_int(ints[i - 1]), radix_key_from_int(ints[i]));
    }
    const float fl[] = {-INFINITY, -1e30f, -1.5f, -1e-30f, -0.0f, 0.0f, 1e-30f, 1.5f, 1e30f, INFINITY};
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++) {
        float back = radix_float_from_key(radix_key_from_float(fl[i]));
        ck_assert_int_eq(memcmp(&back, &fl[i], sizeof back), 0); /* bit for bit, -0.0 too */
        if (i)
            ck_assert_uint_lt(radix_key_from_float(fl[i - 1]), radix_key_from_float(fl[i]));
    }
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("cpu_refs");
    TCase *t;
    t = tcase_create("scan");
    tcase_add_test(t, ref_known_answers);
    tcase_add_test(t, ref_f32_scans);
    tcase_add_loop_test(t, ref_random_against_loop, 0, sizeof ref_sizes / sizeof ref_sizes[0]);
    tcase_add_loop_test(t, ref_omp_equals_serial_in_place, 0, sizeof ref_sizes / sizeof ref_sizes[0]);
    tcase_add_test(t, ref_wraps_like_int32);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    t = tcase_create("compact");
    tcase_add_test(t, compact_references_agree);
    suite_add_tcase(s, t);
    t = tcase_create("radix");
    tcase_add_test(t, radix_sorts_like_qsort_and_stably);
    tcase_add_test(t, radix_omp_part_lines_and_stability);
    tcase_add_test(t, radix_key_maps_keep_order);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    return s;
}
