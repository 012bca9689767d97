/* tests/unit/judges/test_compact.c: the compaction judge through the judge
 * interface: the count's word after the output, and the diagnoses of a
 * wrong count and of elements the rule drops. */
#include "../../../harness/parent/judges/compact.h"
#include "suites.h"

#include <math.h>
#include <string.h>

#define N 100
static int keeps_positive(int x) { return x > 0; }
/* The kept elements, poison after them, and the count last. */
static void compact_cpu(const int *in, int *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i] > 0)
            out[k++] = in[i];
    for (size_t i = k; i < n; i++)
        out[i] = PL_POISON_I32;
    out[n] = (int)k;
}
/* Negative values, zeros and positive ones, from the seed. */
static void gen_mixed(int *a, size_t len, uint64_t seed, double param)
{
    (void)param;
    for (size_t i = 0; i < len; i++)
        a[i] = (int)((i * 7 + seed) % 9) - 4;
}
static const pl_compact_judge cfg = {.in = {.gen = gen_mixed}, .keeps = keeps_positive, .rule = "x > 0"};
static const pl_judge compacted = {&pl_compact_kind, &cfg};
static const pl_lab lab = {.id = "t"};
static const pl_part part = {.id = "b", .cpu = compact_cpu};
static int in[N], want[N + 1], got[N + 1];

static pl_judged compacted_result(int *kept)
{
    pl_judge_make_input(&compacted, &lab, in, N, N, NAN, 3);
    pl_judge_expect(&compacted, &part, in, N, NAN, want);
    memcpy(got, want, sizeof got);
    *kept = want[N];
    pl_judged r = {.n = N, .param = NAN, .in = in, .in_words = N, .want = want, .got = got};
    return r;
}

START_TEST(count_after_the_output)
{
    ck_assert_int_eq(pl_judge_in_words(&compacted, N, NAN), N);
    ck_assert_int_eq(pl_judge_out_words(&compacted, N, NAN), N + 1);
    ck_assert_int_eq(pl_judge_scratch_elems(&compacted, N, NAN), N + 1);
    int k;
    pl_judged r = compacted_result(&k);
    ck_assert(k > 0 && k < N);
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&compacted, &r, &d), 1);
}
END_TEST

START_TEST(wrong_count_says_so)
{
    int k;
    pl_judged r = compacted_result(&k);
    got[N] = k - 2;
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&compacted, &r, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_COUNT, PL_F_COUNT);
    char expect[96];
    snprintf(expect, sizeof expect, "returned %d elements, expected %d: 2 too few", k - 2, k);
    ck_assert_str_eq(d.reason, expect);
    ck_assert_ptr_nonnull(strstr(d.detail, "only the count (and what follows them) is wrong"));
    got[N] = PL_POISON_I32;
    ck_assert_int_eq(pl_judge_compare(&compacted, &r, &d), 0);
    ck_assert_ptr_nonnull(strstr(d.reason, "returned no count"));
}
END_TEST

START_TEST(kept_what_the_rule_drops)
{
    int k;
    pl_judged r = compacted_result(&k);
    /* a rule of x >= 0: the zeros kept too */
    int kg = 0;
    for (int i = 0; i < N; i++)
        if (in[i] >= 0)
            got[kg++] = in[i];
    for (int i = kg; i < N; i++)
        got[i] = PL_POISON_I32;
    got[N] = kg;
    ck_assert_int_gt(kg, k); /* the input has zeros */
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&compacted, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "kept zeros, which the contract drops (it keeps x > 0; a test of x >= 0?)") != NULL,
                  "%s", d.reason);
    ck_assert_ptr_nonnull(strstr(d.detail, "and so returned"));
}
END_TEST

Suite *compact_suite(void)
{
    Suite *s = suite_create("compact");
    TCase *t = tcase_create("core");
    tcase_add_test(t, count_after_the_output);
    tcase_add_test(t, wrong_count_says_so);
    tcase_add_test(t, kept_what_the_rule_drops);
    suite_add_tcase(s, t);
    return s;
}
