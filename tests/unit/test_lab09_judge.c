/* tests/unit/test_lab09_judge.c: lab 09's grader on the CPU, no GPU: the known
 * mistakes its table names, on results made up here the way each mistake
 * makes them (a digit pass emulated tile by tile, tiles of 5760 keys, with
 * a prefix from the wrong tile; a rank that swaps equal digits; bases
 * taken inclusive; a histogram that missed the tail), the stress part's
 * word on the tile counter, and the table's sizes and scratch. Linked with
 * lab 09's table.
 *
 *   build/tests/test_lab09_judge */
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/judges/array.h"
#include "../../harness/parent/judges/stress.h"
#include "../../harness/parent/lab.h"
#include "../../harness/parent/rubric.h"
#include "../../harness/wire/lab09.h"
#include "../../labs/09-onesweep-sort/onesweep_sort.h"
#include "../lib/check_main.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "solution";

#define TILE 5760
#define N (12 * TILE + 77)
#define HEAD PL_LAB09_HEAD
#define SHIFT 8

static const pl_part *part(const char *id)
{
    const pl_part *p = pl_find_part(pl_this_lab(), id);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* The array judge of a part (of the stress part's runs). */
static const pl_array_judge *array_of(const pl_part *p)
{
    const pl_judge *j = pl_part_judge(p);
    if (j->kind == &pl_stress_kind)
        j = ((const pl_stress_judge *)j->cfg)->inner;
    ck_assert_ptr_eq(j->kind, &pl_array_kind);
    return j->cfg;
}

static int in[N + HEAD], want[N + 1], got[N + 1];
static uint8_t guards[256];
#define KEYS ((const unsigned *)in + HEAD)
#define DIGIT(k) (((k) >> SHIFT) & 255)

/* A digit pass's input at shift 8 from the part's own generator, and the
   pass's result. */
static void setup(void)
{
    array_of(part("c"))->in.gen(in, N + HEAD, 77, SHIFT);
    ck_assert_int_eq(in[PL_LAB09_SHIFT], SHIFT);
    part("c")->cpu(in, want, N);
    memcpy(got, want, sizeof got);
    memset(guards, PL_POISON_BYTE, sizeof guards);
}

/* Judges got as part id's result: words words, of an input of n_in. */
static int judge_as(const char *id, const int *input, size_t n_in, size_t words, pl_diag *d)
{
    const pl_array_judge *a = array_of(part(id));
    pl_cmp c = {.want = want, .got = got, .n = words, .guard_front = guards, .guard_back = guards,
                .guard_bytes = sizeof guards, .known = a->known, .known_in = input, .known_n_in = n_in};
    return pl_compare_i32(&c, d);
}
static int judge(const char *id, pl_diag *d) { return judge_as(id, in, N + HEAD, N, d); }

/* The pass emulated tile by tile, in tile order (a later tile's write wins),
   with tile t's prefix short by tile t - 1's counts from t = 2 on when
   wrong_tile is set. */
static void emulate(int wrong_tile)
{
    static unsigned counts[N / TILE + 1][256];
    const long tiles = (N + TILE - 1) / TILE;
    memset(counts, 0, sizeof counts);
    for (long i = 0; i < N; i++)
        counts[i / TILE][DIGIT(KEYS[i])]++;
    for (long i = 0; i < N; i++)
        got[i] = PL_POISON_I32;
    for (long t = 0; t < tiles; t++) {
        unsigned next[256];
        for (int d = 0; d < 256; d++) {
            unsigned prefix = 0;
            for (long u = 0; u < t; u++)
                prefix += counts[u][d];
            if (wrong_tile && t >= 2)
                prefix -= counts[t - 1][d];
            next[d] = (unsigned)in[d] + prefix;
        }
        for (long i = t * TILE; i < N && i < (t + 1) * TILE; i++) {
            unsigned at = next[DIGIT(KEYS[i])]++;
            if (at < N)
                got[at] = (int)KEYS[i];
        }
    }
}

START_TEST(right_result_passes)
{
    pl_diag d;
    ck_assert_int_eq(judge("b", &d), 1);
    emulate(0);
    ck_assert_int_eq(judge("c", &d), 1);
}
END_TEST

START_TEST(unstable_rank_named)
{
    /* two keys of one digit swapped in the middle of the output */
    long i = N / 2;
    while (DIGIT((unsigned)want[i]) != DIGIT((unsigned)want[i + 1]) || want[i] == want[i + 1])
        i++;
    got[i] = want[i + 1], got[i + 1] = want[i];
    pl_diag d;
    ck_assert_int_eq(judge("c", &d), 0);
    ck_assert_msg(strstr(d.reason, "an unstable rank") != NULL, "%s", d.reason);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, PL_F_SUSPECT);
}
END_TEST

START_TEST(prefix_from_the_wrong_tile_named)
{
    emulate(1);
    pl_diag d;
    ck_assert_int_eq(judge("b", &d), 0);
    ck_assert_msg(strstr(d.reason, "prefix over earlier tiles is wrong") != NULL, "%s", d.reason);
    ck_assert_msg(strstr(d.reason, "places early") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(inclusive_base_in_a_pass_named)
{
    unsigned count[256];
    for (int d = 0; d < 256; d++)
        count[d] = (d < 255 ? (unsigned)in[d + 1] : (unsigned)N) - (unsigned)in[d];
    for (long i = 0; i < N; i++)
        got[i] = PL_POISON_I32;
    for (long i = 0; i < N; i++) {
        unsigned at = (unsigned)i + count[DIGIT((unsigned)want[i])];
        if (at < N)
            got[at] = want[i];
    }
    pl_diag d;
    ck_assert_int_eq(judge("c", &d), 0);
    ck_assert_msg(strstr(d.reason, "its digit's count") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(other_wrong_results_keep_the_usual_diagnosis)
{
    pl_diag d;
    for (long i = 0; i < N; i++)
        got[i] = PL_POISON_I32;
    ck_assert_int_eq(judge("c", &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, 0);
    ck_assert_msg(strstr(d.reason, "not implemented") != NULL, "%s", d.reason);
    memcpy(got, want, sizeof got);
    got[100] ^= 1 << 20; /* a key changed in a digit the pass does not look at */
    ck_assert_int_eq(judge("c", &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, 0);
}
END_TEST

START_TEST(histogram_mistakes_named)
{
    const pl_part *a = part("a");
    const unsigned *keys = KEYS;
    const int *kin = (const int *)keys;
    pl_diag d;
    /* right */
    a->cpu(kin, want, N);
    memcpy(got, want, PL_LAB09_BASES * sizeof *got);
    ck_assert_int_eq(judge_as("a", kin, N, PL_LAB09_BASES, &d), 1);
    /* the N % 4 keys of the tail missed */
    a->cpu(kin, got, N / 4 * 4);
    ck_assert_int_eq(judge_as("a", kin, N, PL_LAB09_BASES, &d), 0);
    ck_assert_msg(strstr(d.reason, "count only the first 69196 of the 69197 keys") != NULL, "%s", d.reason);
    /* inclusive */
    for (int p = 0; p < 4; p++)
        for (int j = 0; j < 256; j++)
            got[256 * p + j] = j < 255 ? want[256 * p + j + 1] : N;
    ck_assert_int_eq(judge_as("a", kin, N, PL_LAB09_BASES, &d), 0);
    ck_assert_msg(strstr(d.reason, "inclusive bases") != NULL, "%s", d.reason);
    /* the OpenMP reference agrees */
    a->omp(kin, got, N);
    ck_assert_int_eq(memcmp(got, want, PL_LAB09_BASES * sizeof *got), 0);
}
END_TEST

START_TEST(stress_word_on_the_tile_counter)
{
    part("cs")->cpu(in, want, N);
    ck_assert_int_eq(want[N], 1);
    memcpy(got, want, sizeof got);
    pl_diag d;
    ck_assert_int_eq(judge_as("cs", in, N + HEAD, N + 1, &d), 1);
    got[N] = 0;
    ck_assert_int_eq(judge_as("cs", in, N + HEAD, N + 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "tile counter still 0") != NULL, "%s", d.reason);
    got[N] = PL_POISON_I32;
    ck_assert_int_eq(judge_as("cs", in, N + HEAD, N + 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "tile counter never written") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(omp_pass_agrees)
{
    /* above PL_GEN_CHUNK keys, where the OpenMP pass runs in parallel */
    const long n = (1L << 20) + 4099;
    int *big = malloc((size_t)(n + HEAD) * sizeof *big), *a = malloc((size_t)n * sizeof *a),
        *b = malloc((size_t)n * sizeof *b);
    ck_assert(big && a && b);
    array_of(part("b"))->in.gen(big, (size_t)(n + HEAD), 5, 24);
    part("b")->cpu(big, a, (size_t)n);
    part("b")->omp(big, b, (size_t)n);
    ck_assert_int_eq(memcmp(a, b, (size_t)n * sizeof *a), 0);
    free(big), free(a), free(b);
}
END_TEST

/* A pass's input carries its digit's exclusive bases, counted in parallel
   above PL_GEN_CHUNK keys: the same as one serial count, for every digit,
   and zeros after the shift word up to the keys. */
START_TEST(pass_input_bases)
{
    static const long sizes[] = {1, 1000, (1L << 20) + 4099, (1L << 22) + 5};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int shift = 0; shift < 32; shift += 8) {
            const long n = sizes[k];
            int *a = malloc((size_t)(n + HEAD) * sizeof *a);
            ck_assert_ptr_nonnull(a);
            array_of(part("c"))->in.gen(a, (size_t)(n + HEAD), 11 + (uint64_t)k, shift);
            const unsigned *keys = (const unsigned *)a + HEAD;
            unsigned count[256] = {0}, sum = 0;
            for (long i = 0; i < n; i++)
                count[(keys[i] >> shift) & 255]++;
            for (int d = 0; d < 256; d++) {
                ck_assert_msg((unsigned)a[d] == sum, "n=%ld shift %d: base of digit %d is %u, not %u", n, shift, d,
                              (unsigned)a[d], sum);
                sum += count[d];
            }
            ck_assert_int_eq(a[PL_LAB09_SHIFT], shift);
            for (int w = PL_LAB09_SHIFT + 1; w < HEAD; w++)
                ck_assert_int_eq(a[w], 0);
            free(a);
        }
}
END_TEST

START_TEST(table_sizes_and_scratch)
{
    const pl_lab *lab = pl_this_lab();
    int raced = 0; /* keys and pairs, each against CUB at 2^24: seconds a test */
    for (int i = 0; i < lab->nperf; i++)
        raced += lab->perf[i].n == 1L << 24 && lab->perf[i].yardstick == PL_YARD_VENDOR;
    ck_assert_int_eq(raced, 2);
    ck_assert_int_gt(pl_part_limit_n(lab, part("d"), 1), (1L << 30) - 1025);
    ck_assert_int_eq(pl_part_limit_n(lab, part("cs"), 1), 0);
    /* the counters, the status words of tiles of OS_MIN_TILE, two arrays */
    ck_assert_uint_ge(lab->scratch_ints(1L << 30) * 4,
                      OS_STATUS_OFFSET + 4 * 256 * ((1UL << 30) / OS_MIN_TILE) + 8 * (1UL << 30));
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("lab09_judge");
    TCase *t = tcase_create("pass");
    tcase_set_timeout(t, 60);
    tcase_add_checked_fixture(t, setup, NULL);
    tcase_add_test(t, right_result_passes);
    tcase_add_test(t, unstable_rank_named);
    tcase_add_test(t, prefix_from_the_wrong_tile_named);
    tcase_add_test(t, inclusive_base_in_a_pass_named);
    tcase_add_test(t, other_wrong_results_keep_the_usual_diagnosis);
    tcase_add_test(t, histogram_mistakes_named);
    tcase_add_test(t, stress_word_on_the_tile_counter);
    tcase_add_test(t, omp_pass_agrees);
    tcase_add_test(t, pass_input_bases);
    tcase_add_test(t, table_sizes_and_scratch);
    suite_add_tcase(s, t);
    return s;
}
