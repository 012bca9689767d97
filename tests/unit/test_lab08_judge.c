/* tests/unit/test_lab08_judge.c: lab 08's grader on the CPU, no GPU: the known
 * mistakes its table names, on results made up here the way each mistake
 * makes them (tiles of 2048 whose carried prefix is wrong in one way or
 * another), the stress part's word on the tile counter, and the float
 * parts: inputs whose sums are exact in any order, judged exactly, with an
 * exclusive result for an inclusive part named. Linked with lab 08's table.
 *
 *   build/tests/test_lab08_judge */
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/judges/array.h"
#include "../../harness/parent/judges/real.h"
#include "../../harness/parent/judges/stress.h"
#include "../../harness/parent/lab.h"
#include "../../harness/parent/rubric.h"
#include "../../kernels_ref/cpu/scan.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "solution";

#define TILE 2048
#define N (40 * TILE + 77)

static const pl_part *part(const char *id)
{
    const pl_part *p = pl_find_part(pl_this_lab(), id);
    ck_assert_ptr_nonnull(p);
    return p;
}

static int in[N + 1], want[N + 1], got[N + 1];
static uint8_t guards[256];

/* The input (values 0..7, as the lab's) and its inclusive scan. */
static void setup(void)
{
    unsigned x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = (int)(x >> 29);
    }
    scan_cpu_inclusive(in, want, N);
    memcpy(got, want, sizeof got);
    memset(guards, PL_POISON_BYTE, sizeof guards);
}

/* The sum of in[lo .. hi). */
static int sum(long lo, long hi)
{
    unsigned s = 0;
    for (long i = lo; i < hi; i++)
        s += (unsigned)in[i];
    return (int)s;
}

/* The array judge of an int part (of the stress part's runs). */
static const pl_array_judge *array_of(const pl_part *p)
{
    const pl_judge *j = pl_part_judge(p);
    if (j->kind == &pl_stress_kind)
        j = ((const pl_stress_judge *)j->cfg)->inner;
    ck_assert(j->kind == &pl_array_kind || j->kind == &pl_scan_kind);
    return j->cfg;
}
#define REAL(p) ((const pl_real_judge *)(p)->judge->cfg)

/* Judges got as part id's result for the input; n elements (bs: n + 1 words). */
static int judge(const char *id, size_t words, pl_diag *d)
{
    const pl_array_judge *a = array_of(part(id));
    pl_cmp c = {.want = want, .got = got, .n = words, .guard_front = guards, .guard_back = guards,
                .guard_bytes = sizeof guards, .hint_right = a->hint_right, .hint_left = a->hint_left,
                .known = a->known, .known_in = in, .known_n_in = N};
    return pl_compare_i32(&c, d);
}

/* Tile t's elements get carry in place of the prefix before the tile, and
   every later element carries the same error (what a wrong P passes on). */
static void carry_into(int t, int carry)
{
    int err = carry - sum(0, (long)t * TILE);
    for (int i = t * TILE; i < N; i++)
        got[i] += err;
}

START_TEST(right_result_passes)
{
    pl_diag d;
    ck_assert_int_eq(judge("b", N, &d), 1);
    ck_assert_int_eq(judge("c", N, &d), 1); /* (want is inclusive: only the verdict's machinery is used) */
}
END_TEST

START_TEST(lookback_stopped_at_first_aggregate)
{
    /* tile 5 took tile 4's aggregate for its whole prefix */
    carry_into(5, sum(4 * TILE, 5 * TILE));
    pl_diag d;
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_msg(strstr(d.reason, "look-back stopped at the first aggregate") != NULL, "%s", d.reason);
    ck_assert_msg(strstr(d.reason, "index 10240") && strstr(d.reason, "only the 2048 elements before it"), "%s", d.reason);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, PL_F_SUSPECT);
}
END_TEST

START_TEST(one_aggregate_read_as_zero)
{
    /* tile 9 summed aggregates 8, 7 and the P of 6, but read 7's as 0; tile
       14 went wrong too (so that the errors change at tiles 9 and 14: the
       tile size is their gcd, 2048) */
    carry_into(9, sum(0, 7 * TILE) + sum(8 * TILE, 9 * TILE));
    for (int i = 14 * TILE; i < N; i++)
        got[i] += 3;
    pl_diag d;
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_msg(strstr(d.reason, "a status read before its value") != NULL, "%s", d.reason);
    ck_assert_msg(strstr(d.reason, "index 18432's prefix lacks elements 14336..16383"), "%s", d.reason);
}
END_TEST

START_TEST(inclusive_prefix_read_with_old_value)
{
    /* tile 12 read tiles 11 and 10 as aggregates and 9's P flag with 9's
       aggregate still in the value; tile 17 went wrong too */
    carry_into(12, sum(9 * TILE, 12 * TILE));
    carry_into(17, 0);
    pl_diag d;
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_msg(strstr(d.reason, "index 24576's prefix lacks the 18432 elements before 18432") != NULL, "%s", d.reason);
    /* alone, the same error is a look-back stopped early on tiles of 6144:
       the two cannot be told apart, and the first is named */
    scan_cpu_inclusive(in, got, N);
    carry_into(12, sum(9 * TILE, 12 * TILE));
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_msg(strstr(d.reason, "only the 6144 elements before it") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(other_wrong_results_keep_the_usual_diagnosis)
{
    pl_diag d;
    /* a wrong element inside a tile, not a carry */
    got[3 * TILE + 100] += 1;
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, 0);
    /* an exclusive result: the shift */
    scan_cpu_exclusive(in, got, N);
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, 0);
    ck_assert_msg(strstr(d.reason, "shifted by one") != NULL, "%s", d.reason);
    /* a carry of nothing: the block boundary's diagnosis */
    scan_cpu_inclusive(in, got, N);
    carry_into(3, 0);
    ck_assert_int_eq(judge("b", N, &d), 0);
    ck_assert_msg(strstr(d.reason, "before 2048") || strstr(d.reason, "block boundary"), "%s", d.reason);
}
END_TEST

START_TEST(stress_word_on_the_tile_counter)
{
    const pl_part *p = part("bs");
    ck_assert_int_eq(pl_judge_runs(pl_part_judge(p)), 100);
    ck_assert_int_eq(pl_judge_out_words(pl_part_judge(p), 1000, NAN), 1001);
    ck_assert_int_eq(p->sizes.max, (1L << 22) + 5); /* no limit test: 100 runs at 2^30 would take minutes */
    int test_n;
    pl_part_test_sizes(pl_this_lab(), p, &test_n);
    ck_assert_int_eq(test_n, 3);
    p->cpu(in, want, N);
    ck_assert_int_eq(want[N], 1);
    memcpy(got, want, sizeof got);
    pl_diag d;
    ck_assert_int_eq(judge("bs", N + 1, &d), 1);
    got[N] = 0; /* the counter left at 0 */
    ck_assert_int_eq(judge("bs", N + 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "still 0 after the call") && strstr(d.reason, "blockIdx"), "%s", d.reason);
    got[N] = PL_POISON_I32; /* never written */
    ck_assert_int_eq(judge("bs", N + 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "never written") && strstr(d.reason, "blockIdx"), "%s", d.reason);
    /* the elements wrong too: they are named first */
    got[N] = 1;
    carry_into(5, sum(4 * TILE, 5 * TILE));
    ck_assert_int_eq(judge("bs", N + 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "first aggregate") != NULL, "%s", d.reason);
    /* a stub: all poison */
    for (int i = 0; i <= N; i++)
        got[i] = PL_POISON_I32;
    ck_assert_int_eq(judge("bs", N + 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "not implemented yet") != NULL, "%s", d.reason);
}
END_TEST

/* The float parts: the generated inputs' sums are exact in float in any
   order (serial, the OpenMP chunks, blocks of 4096 added as a tree), so the
   tolerance is zero; an exclusive result for the inclusive part is named. */
START_TEST(float_parts_judged_exactly)
{
    const pl_part *p = part("cfi");
    long n = (1L << 20) + 3;
    int *a = malloc((size_t)n * 4), *o = malloc((size_t)n * 4);
    double *w = malloc((size_t)n * sizeof *w), *tol = malloc((size_t)n * sizeof *tol);
    REAL(p)->in.gen(a, (size_t)n, 77, NAN);
    const float *f = (const float *)a;
    for (long i = 0; i < n; i++)
        ck_assert(f[i] * 64 == floorf(f[i] * 64) && fabsf(f[i]) <= 1);
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    c.tol = tol;
    REAL(p)->expect(a, n, NAN, w, tol, &c);
    ck_assert_ptr_null(c.tol); /* one tolerance for all: */
    ck_assert_double_eq(c.tol_all, 0);
    /* a blocked order: each block of 4096 summed as a tree, then blocks in turn */
    float *g = (float *)o, carry = 0;
    for (long b = 0; b < n; b += 4096) {
        long m = n - b < 4096 ? n - b : 4096;
        for (long i = 0; i < m; i++)
            g[b + i] = f[b + i];
        for (long d = 1; d < m; d *= 2) /* Hillis-Steele, in float */
            for (long i = m - 1; i >= d; i--)
                g[b + i] += g[b + i - d];
        for (long i = 0; i < m; i++)
            g[b + i] += carry;
        carry = g[b + m - 1];
    }
    c.elem = PL_ELEM_F32, c.n = (size_t)n, c.want = w, c.got = o;
    pl_diag d;
    ck_assert_msg(pl_compare_real(&c, &d) == 1, "%s", d.reason);
    p->omp(a, o, (size_t)n); /* the OpenMP timing row: right too */
    ck_assert_msg(pl_compare_real(&c, &d) == 1, "%s", d.reason);
    part("cf")->cpu(a, o, (size_t)n); /* exclusive where inclusive was asked */
    ck_assert_int_eq(pl_compare_real(&c, &d), 0);
    ck_assert_msg(strstr(d.reason, "an exclusive result where an inclusive one was asked") != NULL, "%s", d.reason);
    free(a), free(o), free(w), free(tol);
}
END_TEST

START_TEST(table_sizes_and_points)
{
    const pl_lab *lab = pl_this_lab();
    ck_assert_str_eq(lab->id, "08");
    ck_assert_int_eq(lab->sweep_lo, 16);
    ck_assert_int_eq(lab->sweep_hi, 30);
    /* the perf tests: c and ci at 2^28 against CUB */
    int at28 = 0;
    for (int i = 0; i < lab->nperf; i++)
        at28 += lab->perf[i].n == 1L << 28 && lab->perf[i].yardstick == PL_YARD_VENDOR;
    ck_assert_int_eq(at28, 2);
    /* limit tests near 2^30 for the parts that have no sizes of their own */
    ck_assert_int_gt(pl_part_limit_n(lab, part("c"), 1), (1L << 30) - 1025);
    ck_assert_int_eq(pl_part_limit_n(lab, part("bs"), 1), 0);
    /* scratch: the counter and a status word per 128 elements */
    ck_assert_uint_ge(lab->scratch_ints(1L << 30) * 4, 256 + 8 * ((1L << 30) / 128));
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("lab08_judge");
    TCase *t = tcase_create("int");
    tcase_add_checked_fixture(t, setup, NULL);
    tcase_add_test(t, right_result_passes);
    tcase_add_test(t, lookback_stopped_at_first_aggregate);
    tcase_add_test(t, one_aggregate_read_as_zero);
    tcase_add_test(t, inclusive_prefix_read_with_old_value);
    tcase_add_test(t, other_wrong_results_keep_the_usual_diagnosis);
    tcase_add_test(t, stress_word_on_the_tile_counter);
    suite_add_tcase(s, t);
    t = tcase_create("float");
    tcase_set_timeout(t, 60); /* a check per element of 2^20: past Check's 4 s on a loaded machine */
    tcase_add_test(t, float_parts_judged_exactly);
    tcase_add_test(t, table_sizes_and_points);
    suite_add_tcase(s, t);
    return s;
}
