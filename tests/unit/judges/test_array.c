/* tests/unit/judges/test_array.c: the array judge through the judge interface:
 * its input from the lab's range, lengths, the oracle, and diagnoses a
 * scan's mistakes get (a shift named by its hint, a race, a known mistake);
 * the scan judge's proof, which accepts the scan and nothing else. */
#include "../../../harness/parent/judges/array.h"
#include "../../../kernels_ref/cpu/scan.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 1000
static const pl_lab lab = {.id = "t", .gen_lo = 3, .gen_hi = 9};
static const pl_part part = {.id = "a", .cpu = scan_cpu_inclusive, .omp = scan_omp_inclusive};
static const pl_array_judge scan_cfg = {.hint_right = "exclusive?", .hint_left = "inclusive?"};
static const pl_judge scan = {&pl_array_kind, &scan_cfg};
static int in[N], want[N], got[N], got2[N];

/* One result of the scan of a fresh input: want is the oracle's, got a
   copy of it for the test to spoil. */
static pl_judged scanned(void)
{
    pl_judge_make_input(&scan, &lab, in, N, N, NAN, 7);
    pl_judge_expect(&scan, &part, in, N, NAN, want);
    memcpy(got, want, sizeof got);
    pl_judged r = {.n = N, .param = NAN, .in = in, .in_words = N, .want = want, .got = got};
    return r;
}

START_TEST(input_from_the_lab_range)
{
    ck_assert_int_eq(pl_judge_in_words(&scan, N, NAN), N);
    ck_assert_int_eq(pl_judge_out_words(&scan, N, NAN), N);
    ck_assert_int_eq(pl_judge_scratch_elems(&scan, N, NAN), N);
    ck_assert_int_eq(pl_judge_runs(&scan), 1);
    ck_assert_uint_eq(pl_judge_second_stage(&scan), 0);
    pl_judge_make_input(&scan, &lab, in, N, N, NAN, 7);
    for (int i = 0; i < N; i++)
        ck_assert(in[i] >= 3 && in[i] <= 9);
    memcpy(got, in, sizeof in);
    pl_judge_make_input(&scan, &lab, in, N, N, NAN, 7);
    ck_assert_mem_eq(in, got, sizeof in); /* a seed, one input */
    long lo, hi, step;
    pl_judge_patch(&scan, in, N, NAN, &lo, &hi, &step);
    ck_assert(lo == 0 && hi == N && step == 1);
    ck_assert_ptr_eq(pl_part_judge(&part), &pl_array_plain); /* a part without a judge */
}
END_TEST

START_TEST(right_passes)
{
    pl_judged r = scanned();
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&scan, &r, &d), 1);
    ck_assert_uint_eq(d.findings, 0);
}
END_TEST

START_TEST(shift_named_by_its_hint)
{
    pl_judged r = scanned();
    scan_cpu_exclusive(in, got, N);
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&scan, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "shifted by one (out[i] == expected[i-1]): exclusive?") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(second_run_differs_a_race)
{
    pl_judged r = scanned();
    memcpy(got2, got, sizeof got);
    got2[500] += 1;
    r.got2 = got2;
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&scan, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "results differ between two runs at 1 positions (first at index 500)") != NULL,
                  "%s", d.reason);
}
END_TEST

static int off_from_256(const int *in_, size_t n_in, const int *want_, const int *got_, size_t n, size_t first_bad,
                        char *why, size_t cap)
{
    (void)in_, (void)n_in, (void)want_, (void)got_, (void)n;
    snprintf(why, cap, "the mistake named, from index %zu", first_bad);
    return first_bad == 256;
}
static const pl_array_judge known_cfg = {.known = off_from_256};
static const pl_judge known = {&pl_array_kind, &known_cfg};

START_TEST(known_mistake_named)
{
    pl_judged r = scanned();
    for (int i = 256; i < N; i++)
        got[i] += 5;
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&known, &r, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, PL_F_SUSPECT);
    ck_assert_str_eq(d.reason, "the mistake named, from index 256");
    ck_assert_ptr_nonnull(strstr(d.detail, "errors start at a block boundary: index 256"));
}
END_TEST

/* The scan judge proves exactly the scan of its direction: the right
   output at lengths around the proof's chunks of 2^20 words (one chunk, and
   more than four: on every core), sums that wrap; not the other direction,
   not one word off anywhere (the first, a chunk's first and last, the
   last), not a word off and its next one mended (a proof that compared
   only sums would take it); nothing for a part whose lengths are not n and
   n. The array judge proves nothing. */
static const pl_array_judge incl_cfg = {.scan = PL_SCAN_INCLUSIVE};
static const pl_array_judge excl_cfg = {.scan = PL_SCAN_EXCLUSIVE};
static long twice(long n) { return 2 * n; }
static const pl_array_judge wide_cfg = {.out_len = twice, .scan = PL_SCAN_INCLUSIVE};
static const pl_judge incl = {&pl_scan_kind, &incl_cfg}, excl = {&pl_scan_kind, &excl_cfg},
                      wide = {&pl_scan_kind, &wide_cfg};

START_TEST(scan_proven_only_when_right)
{
    ck_assert_int_eq(pl_judge_can_prove(&scan), 0);
    ck_assert_int_eq(pl_judge_can_prove(&incl), 1);
    const long lens[] = {1, 2, 1000, (1L << 20) + 1, (5L << 20) + 7};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
        long n = lens[l];
        int *x = malloc((size_t)n * sizeof *x), *yi = malloc((size_t)n * sizeof *yi),
            *ye = malloc((size_t)n * sizeof *ye);
        ck_assert(x && yi && ye);
        for (long i = 0; i < n; i++) /* large words: the sums wrap */
            x[i] = (int)(0x9e3779b9u * (unsigned)(i + 1));
        scan_cpu_inclusive(x, yi, (size_t)n);
        scan_cpu_exclusive(x, ye, (size_t)n);
        ck_assert_int_eq(pl_judge_proven(&incl, x, n, NAN, yi), 1);
        ck_assert_int_eq(pl_judge_proven(&excl, x, n, NAN, ye), 1);
        ck_assert_int_eq(pl_judge_proven(&incl, x, n, NAN, ye), 0);
        ck_assert_int_eq(pl_judge_proven(&excl, x, n, NAN, yi), 0);
        ck_assert_int_eq(pl_judge_proven(&scan, x, n, NAN, yi), 0);
        ck_assert_int_eq(pl_judge_proven(&wide, x, n, NAN, yi), 0);
        const long at[] = {0, n / 2, (1L << 20) - 1, 1L << 20, (4L << 20) + 3, n - 1};
        for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
            long i = at[k];
            if (i >= n)
                continue;
            yi[i] += 1;
            ck_assert_msg(!pl_judge_proven(&incl, x, n, NAN, yi), "n = %ld, word %ld off", n, i);
            if (i + 1 < n) {
                yi[i + 1] -= 1;
                ck_assert_msg(!pl_judge_proven(&incl, x, n, NAN, yi), "n = %ld, word %ld off, %ld mended", n, i, i + 1);
                yi[i + 1] += 1;
            }
            yi[i] -= 1;
            ck_assert_int_eq(pl_judge_proven(&incl, x, n, NAN, yi), 1);
        }
        free(x), free(yi), free(ye);
    }
    ck_assert_int_eq(pl_judge_proven(&excl, NULL, 0, NAN, NULL), 1); /* n = 0: nothing to be wrong */
}
END_TEST

/* An output still all poison, the stubs' (whole, on every core when large),
   against one written at a single word: first, last, a chunk's edge, the
   middle */
START_TEST(all_poison_finds_one_written_word)
{
    ck_assert_int_eq(pl_all_poison(NULL, 0), 0); /* nothing to write: not "never written" */
    size_t lens[] = {1, 33, ((size_t)1 << 20) + 1, ((size_t)1 << 23) + 3};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
        size_t len = lens[l];
        int *a = malloc(len * sizeof *a);
        ck_assert_ptr_nonnull(a);
        for (size_t i = 0; i < len; i++)
            a[i] = PL_POISON_I32;
        ck_assert_int_eq(pl_all_poison(a, len), 1);
        size_t at[] = {0, len - 1, len / 2, len > ((size_t)1 << 20) ? ((size_t)1 << 20) - 1 : len / 3,
                       len > ((size_t)1 << 20) ? (size_t)1 << 20 : len / 4};
        for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
            a[at[k]] = 0;
            ck_assert_msg(pl_all_poison(a, len) == 0, "len %zu, word %zu written", len, at[k]);
            a[at[k]] = PL_POISON_I32;
        }
        free(a);
    }
}
END_TEST

Suite *array_suite(void)
{
    Suite *s = suite_create("array");
    TCase *t = tcase_create("core");
    tcase_add_test(t, input_from_the_lab_range);
    tcase_add_test(t, right_passes);
    tcase_add_test(t, shift_named_by_its_hint);
    tcase_add_test(t, second_run_differs_a_race);
    tcase_add_test(t, known_mistake_named);
    tcase_add_test(t, all_poison_finds_one_written_word);
    tcase_add_test(t, scan_proven_only_when_right);
    suite_add_tcase(s, t);
    return s;
}
