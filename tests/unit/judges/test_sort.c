/* tests/unit/judges/test_sort.c: the sort judge through the judge interface:
 * a pairs sort's lengths, scratch and patch span, and its diagnoses (equal
 * keys out of input order, values parted from their keys, keys lost), with
 * no shift or block finding for a sort. */
#include "../../../harness/parent/judges/sort.h"
#include "../../../kernels_ref/cpu/radix.h"
#include "suites.h"

#include <math.h>
#include <string.h>

#define K 12 /* keys */
static void pairs_cpu(const int *in, int *out, size_t n)
{
    memcpy(out, in, 2 * n * sizeof *in);
    radix_sort_cpu((unsigned *)out, (unsigned *)out + n, n, 8);
}
/* Keys with duplicates, then their positions. */
static void gen_pairs(int *a, size_t len, uint64_t seed, double param)
{
    (void)seed, (void)param;
    static const int keys[K] = {5, 3, 5, 1, 3, 5, 9, 2, 1, 5, 3, 7};
    size_t n = len / 2;
    for (size_t i = 0; i < n; i++)
        a[i] = keys[i % K], a[n + i] = (int)i;
}
static long twice(long n, double param) { return (void)param, 2 * n; }
static const pl_sort_judge pairs_cfg = {{.words = twice, .gen = gen_pairs}, PL_SORT_U32, 1};
static const pl_judge pairs = {&pl_sort_kind, &pairs_cfg};
static const pl_part part = {.id = "c", .cpu = pairs_cpu};
static const pl_lab lab = {.id = "t"};
static int in[2 * K], want[2 * K], got[2 * K];

/* A right result, with the input checked after the call (values traced back
   to it). */
static pl_judged sorted(void)
{
    pl_judge_make_input(&pairs, &lab, in, 2 * K, K, NAN, 1);
    pl_judge_expect(&pairs, &part, in, K, NAN, want);
    memcpy(got, want, sizeof got);
    pl_judged r = {.n = K, .param = NAN, .in = in, .in_words = 2 * K, .want = want, .got = got, .in_after = in};
    return r;
}

START_TEST(pairs_lengths)
{
    ck_assert_int_eq(pl_judge_in_words(&pairs, 1000, NAN), 2000);
    ck_assert_int_eq(pl_judge_out_words(&pairs, 1000, NAN), 2000);
    ck_assert_int_eq(pl_judge_scratch_elems(&pairs, 1000, NAN), 1000); /* the keys' */
    long lo, hi, step;
    pl_judge_patch(&pairs, in, 1000, NAN, &lo, &hi, &step);
    ck_assert(lo == 0 && hi == 1000 && step == 1); /* keys, never values */
    pl_judged r = sorted();
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&pairs, &r, &d), 1);
}
END_TEST

START_TEST(equal_keys_out_of_input_order)
{
    pl_judged r = sorted();
    ck_assert(got[0] == 1 && got[1] == 1); /* key 1 from input positions 3 and 8 */
    int t = got[K];
    got[K] = got[K + 1], got[K + 1] = t;
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&pairs, &r, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SORT_UNSTABLE, PL_F_SORT_UNSTABLE);
    ck_assert_msg(strstr(d.reason, "not stable: out[0] and out[1] have equal keys but hold input elements 8 and 3, "
                                   "the reverse of their input order") != NULL, "%s", d.reason);
    ck_assert_uint_eq(d.findings & (PL_F_SHIFT_LEFT | PL_F_SHIFT_RIGHT | PL_F_BLOCK), 0);
}
END_TEST

START_TEST(value_parted_from_its_key)
{
    pl_judged r = sorted();
    got[K + 2] = 11; /* position 2 holds key 2 (input 7); 11 is key 7's */
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&pairs, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "value at index 2 (11) is not the value of its key 2") != NULL, "%s", d.reason);
}
END_TEST

START_TEST(keys_lost)
{
    pl_judged r = sorted();
    got[5] = got[6]; /* a key written twice, another never */
    pl_diag d;
    ck_assert_int_eq(pl_judge_compare(&pairs, &r, &d), 0);
    ck_assert_msg(strstr(d.reason, "keys lost: 1 of the input's keys are not in the output") != NULL, "%s", d.reason);
}
END_TEST

/* Signed keys sorted as their raw bits: the hint says which bit to flip. */
START_TEST(signed_keys_as_unsigned_bits)
{
    int w[5] = {-5, -1, 0, 3, 9}, g[5] = {0, 3, 9, -5, -1};
    pl_cmp c = {.want = w, .got = g, .n = 5};
    pl_diag d;
    ck_assert_int_eq(pl_compare_sorted(&c, PL_SORT_I32, 0, &d), 0);
    ck_assert_msg(strstr(d.reason, "keys out of order (9 before -5 at index 2), though every input key is there: "
                                   "sorted as unsigned bits") != NULL, "%s", d.reason);
    ck_assert_ptr_nonnull(strstr(d.detail, "flip the sign bit before taking digits"));
}
END_TEST

/* The proof that spares the reference: a right output of every key kind
   is proven; every wrong one tried is not (and then gets the reference). */
static int prove(const pl_judge *j, const int *i, long n, const int *o) { return pl_judge_proven(j, i, n, NAN, o); }

START_TEST(pairs_proven_only_when_right)
{
    pl_judged r = sorted();
    (void)r;
    ck_assert(pl_judge_can_prove(&pairs));
    ck_assert_int_eq(prove(&pairs, in, K, want), 1);
    int g[2 * K];
    memcpy(g, want, sizeof g); /* key 1's two values swapped: unstable */
    ck_assert(g[0] == 1 && g[1] == 1);
    g[K] = want[K + 1], g[K + 1] = want[K];
    ck_assert_int_eq(prove(&pairs, in, K, g), 0);
    memcpy(g, want, sizeof g); /* a value beside another key */
    g[K + 2] = 11;
    ck_assert_int_eq(prove(&pairs, in, K, g), 0);
    memcpy(g, want, sizeof g); /* a position twice, one never */
    g[K + 3] = g[K + 4];
    ck_assert_int_eq(prove(&pairs, in, K, g), 0);
    memcpy(g, want, sizeof g); /* a value out of range */
    g[K + 5] = K;
    ck_assert_int_eq(prove(&pairs, in, K, g), 0);
    memcpy(g, want, sizeof g); /* keys out of order */
    int t = g[2];
    g[2] = g[9], g[9] = t;
    ck_assert_int_eq(prove(&pairs, in, K, g), 0);
    /* an input whose values are not its positions: no proof, though the
       pairs are the same and each key's values rise (key 5 at 0 and 2) */
    int in2[2 * K];
    memcpy(in2, in, sizeof in2);
    ck_assert(in2[0] == 5 && in2[2] == 5);
    in2[K + 0] = 2, in2[K + 2] = 0;
    ck_assert_int_eq(prove(&pairs, in2, K, want), 0);
    ck_assert_int_eq(prove(&pairs, in, 0, want), 1); /* nothing to sort */
}
END_TEST

static const pl_sort_judge u32_cfg = {{.gen = NULL}, PL_SORT_U32, 0};
static const pl_sort_judge i32_cfg = {{.gen = NULL}, PL_SORT_I32, 0};
static const pl_sort_judge f32_cfg = {{.gen = NULL}, PL_SORT_F32, 0};
static const pl_judge u32_sort = {&pl_sort_kind, &u32_cfg}, i32_sort = {&pl_sort_kind, &i32_cfg},
                      f32_sort = {&pl_sort_kind, &f32_cfg};

START_TEST(keys_proven_only_when_right)
{
    enum { N = 200000 }; /* past the threads' threshold */
    static unsigned ki[N], ko[N];
    for (unsigned i = 0; i < N; i++)
        ki[i] = (i * 2654435761u) % 1000003u; /* duplicates, all orders */
    memcpy(ko, ki, sizeof ko);
    radix_sort_cpu(ko, NULL, N, 8);
    const int *i = (const int *)ki;
    int *o = (int *)ko;
    ck_assert_int_eq(prove(&u32_sort, i, N, o), 1);
    unsigned keep = ko[100];
    ko[100] = ko[101]; /* sorted still, a key lost and one twice */
    ck_assert(ko[100] != keep);
    ck_assert_int_eq(prove(&u32_sort, i, N, o), 0);
    ko[100] = keep + 1 <= ko[101] ? keep + 1 : keep; /* another key, in order */
    if (ko[100] != keep)
        ck_assert_int_eq(prove(&u32_sort, i, N, o), 0);
    ko[100] = keep;
    unsigned t = ko[7];
    ko[7] = ko[N - 7], ko[N - 7] = t; /* the same keys, out of order */
    ck_assert_int_eq(prove(&u32_sort, i, N, o), 0);
    ko[N - 7] = ko[7], ko[7] = t;
    ck_assert_int_eq(prove(&u32_sort, i, N, o), 1);
    /* signed and float keys: their own order, not the bits' */
    int si[6] = {3, -5, 0, -1, 9, -5}, so[6] = {-5, -5, -1, 0, 3, 9}, bits[6] = {0, 3, 9, -5, -5, -1};
    ck_assert_int_eq(prove(&i32_sort, si, 6, so), 1);
    ck_assert_int_eq(prove(&i32_sort, si, 6, bits), 0);
    ck_assert_int_eq(prove(&u32_sort, si, 6, bits), 1);
    float fi[6] = {2.5f, -0.0f, 0.0f, -3.0f, 1e-3f, -1e30f}, fo[6] = {-1e30f, -3.0f, -0.0f, 0.0f, 1e-3f, 2.5f};
    ck_assert_int_eq(prove(&f32_sort, (const int *)fi, 6, (const int *)fo), 1);
    float fz[6] = {-1e30f, -3.0f, 0.0f, -0.0f, 1e-3f, 2.5f}; /* -0 after +0 */
    ck_assert_int_eq(prove(&f32_sort, (const int *)fi, 6, (const int *)fz), 0);
}
END_TEST

Suite *sort_suite(void)
{
    Suite *s = suite_create("sort");
    TCase *t = tcase_create("core");
    tcase_add_test(t, pairs_lengths);
    tcase_add_test(t, equal_keys_out_of_input_order);
    tcase_add_test(t, value_parted_from_its_key);
    tcase_add_test(t, keys_lost);
    tcase_add_test(t, signed_keys_as_unsigned_bits);
    tcase_add_test(t, pairs_proven_only_when_right);
    tcase_add_test(t, keys_proven_only_when_right);
    suite_add_tcase(s, t);
    return s;
}
