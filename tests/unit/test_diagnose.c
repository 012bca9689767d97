/* tests/unit/test_diagnose.c: Check tests of the diagnosis of wrong
 * results (harness/parent/diagnose.h): int arrays (shifts, block
 * boundaries, races, guard zones, compactions, known mistakes), sorts
 * (stability, lost keys, key order) and float or double outputs. */
#define _GNU_SOURCE
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/judges/compact.h"
#include "../../harness/parent/judges/sort.h"
#include "../../harness/parent/outcome.h"
#include "../../kernels_ref/cpu/radix.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- diagnose */

#define N 4096
static int want[N], got[N], got2[N];
static uint8_t front[256], back[256];

/* want: an inclusive scan of 1..3 values; got: a correct copy; clean guards */
static void fixture(void)
{
    int acc = 0;
    for (int i = 0; i < N; i++) {
        acc += 1 + i % 3;
        want[i] = got[i] = got2[i] = acc;
    }
    memset(front, PL_POISON_BYTE, sizeof front);
    memset(back, PL_POISON_BYTE, sizeof back);
}

static int diagnose(size_t n, const int *second, pl_diag *d)
{
    pl_cmp c = {.want = want, .got = got, .n = n, .got2 = second, .guard_front = front,
                .guard_back = back, .guard_bytes = sizeof back,
                .hint_right = "exclusive?", .hint_left = "inclusive?"};
    return pl_compare_i32(&c, d);
}

START_TEST(diag_correct)
{
    pl_diag d;
    ck_assert_int_eq(diagnose(N, got2, &d), 1);
    ck_assert_uint_eq(d.findings, 0);
    ck_assert_uint_eq(d.mismatches, 0);
    ck_assert_str_eq(d.reason, "");
}
END_TEST

START_TEST(diag_not_implemented)
{
    for (int i = 0; i < N; i++)
        got[i] = PL_POISON_I32;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_NOT_IMPLEMENTED, PL_F_NOT_IMPLEMENTED);
    ck_assert_ptr_nonnull(strstr(d.reason, "not implemented yet"));
    ck_assert_uint_eq(d.unwritten, N);
}
END_TEST

START_TEST(diag_partly_unwritten)
{
    got[N - 1] = PL_POISON_I32;
    got[N - 2] = PL_POISON_I32;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_UNWRITTEN, PL_F_UNWRITTEN);
    ck_assert_uint_eq(d.findings & PL_F_NOT_IMPLEMENTED, 0);
    ck_assert_uint_eq(d.unwritten, 2);
    ck_assert_uint_eq(d.first_bad, N - 2);
    ck_assert_ptr_nonnull(strstr(d.reason, "never written at 2 of 4096 positions (first at index 4094)"));
    ck_assert_ptr_nonnull(strstr(d.detail, "poison"));
}
END_TEST

/* Compactions (lab 04's rule, x > 0): in[] of 1000 values, want[] the kept
   ones, poison, then their count; got[] what a buggy part returned. */
static int keeps_pos(int x) { return x > 0; }
static int in_c[1001], want_c[1001], got_c[1001], got_c2[1001];
static int compact_case(int (*rule)(int), int extra, pl_diag *d)
{
    const size_t n = 1000;
    for (size_t i = 0; i < n; i++)
        in_c[i] = i % 3 == 0 ? -(int)i - 1 : i % 7 == 0 ? 0 : (int)i;
    int k = 0, kg = 0;
    for (size_t i = 0; i < n; i++) {
        want_c[i] = got_c[i] = PL_POISON_I32;
    }
    for (size_t i = 0; i < n; i++) {
        if (in_c[i] > 0)
            want_c[k++] = in_c[i];
        if (rule(in_c[i]))
            got_c[kg++] = in_c[i];
    }
    want_c[n] = k;
    got_c[n] = kg + extra;
    if (extra > 0) /* what a count one too many leaves: the element after the last */
        got_c[kg] = 0;
    memcpy(got_c2, got_c, sizeof got_c);
    if (extra > 0)
        got_c2[kg] = 12345; /* ... which differs between runs */
    pl_cmp c = {.want = want_c, .got = got_c, .n = n + 1, .got2 = got_c2};
    return pl_compare_compacted(&c, keeps_pos, "x > 0", d);
}
static int rule_nonzero(int x) { return x != 0; }
static int rule_nonneg(int x) { return x >= 0; }

START_TEST(diag_compact_count)
{
    pl_diag d;
    ck_assert_int_eq(compact_case(keeps_pos, 1, &d), 0);
    ck_assert_msg(strstr(d.reason, "elements, expected") && strstr(d.reason, ": one too many"), "%s", d.reason);
    ck_assert_msg(strstr(d.detail, "elements are right: only the count"), "%s", d.detail);
    ck_assert_int_eq(compact_case(keeps_pos, -3, &d), 0);
    ck_assert_msg(strstr(d.reason, ": 3 too few"), "%s", d.reason);
    ck_assert_int_eq(compact_case(keeps_pos, 0, &d), 1);
}
END_TEST

START_TEST(diag_compact_kept_dropped)
{
    pl_diag d;
    ck_assert_int_eq(compact_case(rule_nonzero, 0, &d), 0);
    ck_assert_msg(strstr(d.reason, "kept negative values, which the contract drops (it keeps x > 0; a test of x != 0?)"),
                  "%s", d.reason);
    ck_assert_msg(strstr(d.detail, "too many"), "%s", d.detail);
    ck_assert_int_eq(compact_case(rule_nonneg, 0, &d), 0);
    ck_assert_msg(strstr(d.reason, "kept zeros, which the contract drops"), "%s", d.reason);
}
END_TEST

START_TEST(diag_printed_errors)
{
    char line[160], hint[200];
    ck_assert_ptr_null(pl_find_cuda_error("all fine\n"));
    ck_assert_str_eq(pl_find_cuda_error("x\nCUDA error (a.cu:3): invalid configuration argument\n"),
                     "invalid configuration argument");
    ck_assert_str_eq(pl_find_cuda_error("err cudaErrorIllegalAddress at k.cu:9"),
                     "an illegal memory access was encountered");
    ck_assert_int_eq(pl_find_heap_error("ok\n  corrupted size vs. prev_size\nAborted\n", line, sizeof line), 1);
    ck_assert_str_eq(line, "corrupted size vs. prev_size");
    ck_assert_int_eq(pl_find_heap_error("free(): invalid next size (fast)\n", line, sizeof line), 1);
    ck_assert_str_eq(line, "free(): invalid next size (fast)");
    /* what the code printed beside the words stays out */
    ck_assert_int_eq(pl_find_heap_error("free(): full marks: Score: 44/44 hxforged\n", line, sizeof line), 1);
    ck_assert_str_eq(line, "free(): full marks");
    pl_cuda_error_place("CUDA error (/tmp/x/src/scan.cu:68): invalid argument\n", "invalid argument", line,
                        sizeof line);
    ck_assert_str_eq(line, "scan.cu:68");
    pl_cuda_error_place("hxforged Score: 44/44 invalid argument\n", "invalid argument", line, sizeof line);
    ck_assert_str_eq(line, "");
    ck_assert_int_eq(pl_find_heap_error("nothing here", line, sizeof line), 0);
    pl_cuda_error_hint("invalid argument", 1, "n", hint, sizeof hint);
    ck_assert_msg(strstr(hint, "at n = 1: a launch of zero blocks"), "%s", hint);
    pl_cuda_error_hint("an illegal memory access was encountered", 1L << 24, "n", hint, sizeof hint);
    ck_assert_msg(strstr(hint, "at a large n = 16777216: an index or byte count computed in int"), "%s", hint);
    pl_cuda_error_hint("an illegal memory access was encountered", 1025, "n", hint, sizeof hint);
    ck_assert_msg(strstr(hint, "if (i < n)"), "%s", hint);
    pl_cuda_error_hint("unknown", 5, "n", hint, sizeof hint);
    ck_assert_str_eq(hint, "");
}
END_TEST

START_TEST(diag_write_past_end)
{
    back[0] = 0;
    back[3] = 1;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings, PL_F_GUARD_BACK);
    ck_assert_uint_eq(d.guard_back_bad, 2);
    ck_assert_ptr_nonnull(strstr(d.reason, "wrote past the end"));
}
END_TEST

START_TEST(diag_write_before_start)
{
    front[sizeof front - 1] = 7;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings, PL_F_GUARD_FRONT);
    ck_assert_ptr_nonnull(strstr(d.reason, "wrote before the start"));
}
END_TEST

START_TEST(diag_shift_right_is_exclusive)
{
    got[0] = 0;
    for (int i = 1; i < N; i++)
        got[i] = want[i - 1];
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SHIFT_RIGHT, PL_F_SHIFT_RIGHT);
    ck_assert_uint_eq(d.findings & PL_F_BLOCK, 0);
    ck_assert_ptr_nonnull(strstr(d.reason, "out[i] == expected[i-1]"));
    ck_assert_ptr_nonnull(strstr(d.reason, "exclusive?"));
}
END_TEST

START_TEST(diag_shift_left_is_inclusive)
{
    for (int i = 0; i < N - 1; i++)
        got[i] = want[i + 1];
    got[N - 1] = want[N - 1] + 5;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SHIFT_LEFT, PL_F_SHIFT_LEFT);
    ck_assert_ptr_nonnull(strstr(d.reason, "inclusive?"));
}
END_TEST

START_TEST(diag_block_boundary)
{
    /* block sums not carried: every block restarts from zero */
    for (int i = 1024; i < N; i++)
        got[i] = want[i] - want[(i / 1024) * 1024 - 1];
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_BLOCK, PL_F_BLOCK);
    ck_assert_uint_eq(d.block, 1024);
    ck_assert_uint_eq(d.first_bad, 1024);
    ck_assert_uint_eq(d.mismatches, N - 1024);
    ck_assert_ptr_nonnull(strstr(d.reason, "block boundary: index 1024"));
    ck_assert_ptr_nonnull(strstr(d.detail, "first mismatch at index 1024"));
}
END_TEST

/* A lab's known mistake, named (lab 08's look-back): asked only for a wrong
   result, given the input and the first wrong index; its reason wins over
   the block boundary and a race, never over an output left unwritten. */
static size_t known_at;
static int known_blocks(const int *in, size_t n_in, const int *w, const int *g, size_t n, size_t first_bad, char *why,
                        size_t cap)
{
    (void)w, (void)g, (void)n;
    known_at = first_bad;
    if (!in || n_in != N || first_bad % 1024)
        return 0;
    snprintf(why, cap, "the named mistake at %zu", first_bad);
    return 1;
}

START_TEST(diag_known_mistake)
{
    int input[N];
    for (int i = 0; i < N; i++)
        input[i] = 1 + i % 3;
    pl_cmp c = {.want = want, .got = got, .n = N, .got2 = got2, .guard_front = front, .guard_back = back,
                .guard_bytes = sizeof back, .known = known_blocks, .known_in = input, .known_n_in = N};
    pl_diag d;
    known_at = 12345;
    ck_assert_int_eq(pl_compare_i32(&c, &d), 1);
    ck_assert_uint_eq(known_at, 12345); /* a right result: not asked */
    for (int i = 2048; i < N; i++)
        got[i] += 7;
    got2[3000] += 1; /* and a race */
    ck_assert_int_eq(pl_compare_i32(&c, &d), 0);
    ck_assert_uint_eq(known_at, 2048);
    ck_assert_uint_eq(d.findings & (PL_F_SUSPECT | PL_F_BLOCK | PL_F_RACE), PL_F_SUSPECT | PL_F_BLOCK | PL_F_RACE);
    ck_assert_str_eq(d.reason, "the named mistake at 2048");
    ck_assert_ptr_nonnull(strstr(d.detail, "block boundary: index 2048"));
    ck_assert_ptr_nonnull(strstr(d.detail, "also: results differ between two runs"));
    /* not at a block: the usual diagnosis */
    got[2048] -= 7;
    ck_assert_int_eq(pl_compare_i32(&c, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SUSPECT, 0);
    /* unwritten everywhere: "not implemented yet", the lab not asked */
    for (int i = 0; i < N; i++)
        got[i] = PL_POISON_I32;
    known_at = 12345;
    ck_assert_int_eq(pl_compare_i32(&c, &d), 0);
    ck_assert_uint_eq(known_at, 12345);
    ck_assert_ptr_nonnull(strstr(d.reason, "not implemented yet"));
}
END_TEST

START_TEST(diag_race)
{
    got2[100] += 1;
    got2[200] += 1;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, got2, &d), 0);
    ck_assert_uint_eq(d.findings, PL_F_RACE);
    ck_assert_uint_eq(d.race_diffs, 2);
    ck_assert_ptr_nonnull(strstr(d.reason, "differ between two runs at 2 positions (first at index 100)"));
    ck_assert_ptr_nonnull(strstr(d.detail, "2nd run"));
}
END_TEST

START_TEST(diag_first_mismatch_window)
{
    got[777] = -5;
    got[901] = 3;
    pl_diag d;
    ck_assert_int_eq(diagnose(N, NULL, &d), 0);
    ck_assert_uint_eq(d.findings, PL_F_MISMATCH);
    ck_assert_uint_eq(d.first_bad, 777);
    ck_assert_uint_eq(d.mismatches, 2);
    ck_assert_str_eq(d.reason, "wrong value at 2 of 4096 positions");
    char line[64];
    snprintf(line, sizeof line, "expected %d, got -5; 2 of 4096 positions wrong", want[777]);
    ck_assert_ptr_nonnull(strstr(d.detail, line));
    /* the window shows the neighbours and marks the wrong value */
    ck_assert_ptr_nonnull(strstr(d.detail, "774"));
    ck_assert_ptr_nonnull(strstr(d.detail, "781"));
    ck_assert_ptr_nonnull(strstr(d.detail, "-5  <"));
}
END_TEST

START_TEST(diag_input_changed)
{
    int in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, after[8];
    memcpy(after, in, sizeof in);
    after[5] = 0;
    pl_cmp c = {.want = want, .got = got, .n = 8, .in = in, .in_after = after};
    pl_diag d;
    ck_assert_int_eq(pl_compare_i32(&c, &d), 0);
    ck_assert_uint_eq(d.findings, PL_F_INPUT_CHANGED);
    ck_assert_ptr_nonnull(strstr(d.reason, "modified its input"));
}
END_TEST

START_TEST(diag_empty_and_single)
{
    pl_diag d;
    ck_assert_int_eq(diagnose(0, NULL, &d), 1);
    back[10] = 0;
    ck_assert_int_eq(diagnose(0, NULL, &d), 0); /* n = 0 that writes anything */
    ck_assert_uint_eq(d.findings, PL_F_GUARD_BACK);
    fixture();
    got[0] = PL_POISON_I32;
    ck_assert_int_eq(diagnose(1, NULL, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_NOT_IMPLEMENTED, PL_F_NOT_IMPLEMENTED);
}
END_TEST

START_TEST(guard_counts_changed_bytes)
{
    uint8_t g[100];
    memset(g, PL_POISON_BYTE, sizeof g);
    ck_assert_uint_eq(pl_guard_changed(g, sizeof g), 0);
    g[0] = g[50] = g[99] = 0;
    ck_assert_uint_eq(pl_guard_changed(g, sizeof g), 3);
    ck_assert_uint_eq(pl_guard_changed(NULL, 10), 0);
}
END_TEST

/* ---------------------------------------------------- sort diagnosis */

/* A pairs sort of 12 keys with duplicates: in = keys then positions;
   want = the stable sort; got starts as a copy of want. */
#define SN 12
static int s_in[2 * SN], s_want[2 * SN], s_got[2 * SN];
static void sort_fixture(void)
{
    static const unsigned keys[SN] = {5, 3, 5, 1, 3, 5, 0x80000000u, 2, 1, 5, 3, 7};
    for (int i = 0; i < SN; i++) {
        s_in[i] = (int)keys[i];
        s_in[SN + i] = i;
    }
    memcpy(s_want, s_in, sizeof s_in);
    ck_assert_int_eq(radix_sort_cpu((unsigned *)s_want, (unsigned *)s_want + SN, SN, 4), 0);
    memcpy(s_got, s_want, sizeof s_want);
}

static int diagnose_sort(int sort, int pairs, size_t n, pl_diag *d)
{
    pl_cmp c = {.want = s_want, .got = s_got, .n = pairs ? 2 * n : n, .in = s_in, .in_after = s_in,
                .n_in = pairs ? 2 * n : n};
    return pl_compare_sorted(&c, sort, pairs, d);
}

START_TEST(diag_sort_unstable)
{
    sort_fixture();
    ck_assert_int_eq(s_want[0], 1); /* keys 1, 1 from input positions 3 and 8 */
    int t = s_got[SN + 0];
    s_got[SN + 0] = s_got[SN + 1];
    s_got[SN + 1] = t;
    pl_diag d;
    ck_assert_int_eq(diagnose_sort(PL_SORT_U32, 1, SN, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SORT_UNSTABLE, PL_F_SORT_UNSTABLE);
    ck_assert_msg(strstr(d.reason, "not stable: out[0] and out[1] have equal keys but hold input elements 8 and 3"),
                  "%s", d.reason);
    ck_assert_ptr_nonnull(strstr(d.detail, "every pass stable"));

    /* Unstable and misordered at once (an unstable LSD pass): still "not stable". */
    int k = s_got[2];
    s_got[2] = s_got[3], s_got[3] = k; /* keys 2 and 3 swapped, with their values */
    k = s_got[SN + 2];
    s_got[SN + 2] = s_got[SN + 3], s_got[SN + 3] = k;
    ck_assert_int_eq(diagnose_sort(PL_SORT_U32, 1, SN, &d), 0);
    ck_assert_uint_eq(d.findings & (PL_F_SORT_UNSTABLE | PL_F_SORT_ORDER), PL_F_SORT_UNSTABLE);
    ck_assert_msg(strstr(d.reason, "not stable: out[0] and out[1]"), "%s", d.reason);
}
END_TEST

START_TEST(diag_sort_values_astray)
{
    sort_fixture();
    s_got[SN + 2] = 11; /* position 2 holds key 2 (input 7); 11 is key 7's */
    pl_diag d;
    ck_assert_int_eq(diagnose_sort(PL_SORT_U32, 1, SN, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SORT_VALUES, PL_F_SORT_VALUES);
    ck_assert_msg(strstr(d.reason, "value at index 2 (11) is not the value of its key 2"), "%s", d.reason);
}
END_TEST

START_TEST(diag_sort_order_and_lost)
{
    sort_fixture();
    int t = s_got[3]; /* swap two different keys: all there, out of order */
    s_got[3] = s_got[6];
    s_got[6] = t;
    pl_diag d;
    ck_assert_int_eq(diagnose_sort(PL_SORT_U32, 0, SN, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SORT_ORDER, PL_F_SORT_ORDER);
    ck_assert_msg(strstr(d.reason, "keys out of order (5 before 3 at index 3), though every input key is there: "
                                   "is every pass stable?"), "%s", d.reason);
    ck_assert_ptr_nonnull(strstr(d.detail, "LSD radix sort needs each pass"));
    ck_assert_uint_eq(d.findings & (PL_F_SHIFT_LEFT | PL_F_SHIFT_RIGHT | PL_F_BLOCK), 0);

    sort_fixture();
    s_got[5] = s_got[6]; /* one key (5) written twice, another (3) never */
    ck_assert_int_eq(diagnose_sort(PL_SORT_U32, 0, SN, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SORT_LOST, PL_F_SORT_LOST);
    ck_assert_msg(strstr(d.reason, "keys lost: 1 of the input's keys are not in the output"), "%s", d.reason);
}
END_TEST

/* Signed and float keys sorted by the wrong order get a hint that says how. */
START_TEST(diag_sort_wrong_key_order)
{
    const int ints[] = {-5, -1, 0, 3, 9}; /* the right order */
    for (int i = 0; i < 5; i++)
        s_in[i] = s_want[i] = ints[i];
    memcpy(s_got, (int[]){0, 3, 9, -5, -1}, 5 * sizeof(int)); /* as unsigned bits */
    pl_diag d;
    ck_assert_int_eq(diagnose_sort(PL_SORT_I32, 0, 5, &d), 0);
    ck_assert_uint_eq(d.findings & PL_F_SORT_ORDER, PL_F_SORT_ORDER);
    ck_assert_msg(strstr(d.reason, "9 before -5 at index 2"), "%s", d.reason);
    ck_assert_ptr_nonnull(strstr(d.reason, "sorted as unsigned bits"));
    ck_assert_ptr_nonnull(strstr(d.detail, "flip the sign bit before taking digits"));

    const float right[] = {-3.0f, -2.0f, -0.0f, 0.0f, 1.5f}, by_int[] = {-0.0f, -2.0f, -3.0f, 0.0f, 1.5f};
    memcpy(s_want, right, sizeof right);
    memcpy(s_in, right, sizeof right);
    memcpy(s_got, by_int, sizeof by_int); /* sign bit flipped only: negatives reversed */
    ck_assert_int_eq(diagnose_sort(PL_SORT_F32, 0, 5, &d), 0);
    ck_assert_msg(strstr(d.reason, "-0 before -2 at index 0"), "%s", d.reason);
    ck_assert_ptr_nonnull(strstr(d.reason, "negative floats in reverse"));
    ck_assert_ptr_nonnull(strstr(d.detail, "not only its sign"));
    const float by_bits[] = {0.0f, 1.5f, -0.0f, -2.0f, -3.0f}; /* no flip at all */
    memcpy(s_got, by_bits, sizeof by_bits);
    ck_assert_int_eq(diagnose_sort(PL_SORT_F32, 0, 5, &d), 0);
    ck_assert_ptr_nonnull(strstr(d.detail, "every bit of a negative one"));
}
END_TEST

/* Float and double outputs: within tolerance passes whatever the rounding;
   each finding named; a suspect names a known mistake. */
static pl_diag real_cmp(pl_cmp_real *c)
{
    pl_diag d;
    pl_compare_real(c, &d);
    return d;
}

START_TEST(real_within_tolerance_passes)
{
    float got[4] = {1.0f, 2.0000002f, -3.0f, 0.5f};
    double want[4] = {1.0, 2.0, -3.0000001, 0.5};
    pl_cmp_real c = {.elem = PL_ELEM_F32, .n = 4, .want = want, .tol_all = 1e-6, .got = got};
    pl_diag d = real_cmp(&c);
    ck_assert_uint_eq(d.findings, 0);
    ck_assert_int_eq(pl_compare_real(&c, &d), 1);
    /* one position out of tolerance */
    got[2] = -3.01f;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_MISMATCH);
    ck_assert_uint_eq(d.first_bad, 2);
    ck_assert_ptr_nonnull(strstr(d.reason, "out of tolerance at 1 of 4 positions: element 2"));
}
END_TEST

START_TEST(real_poison_and_nan)
{
    float got[3];
    memset(got, PL_POISON_BYTE, sizeof got);
    double want[3] = {1, 2, 3};
    ck_assert(pl_is_poison_f32(got[0]));
    pl_cmp_real c = {.elem = PL_ELEM_F32, .n = 3, .want = want, .tol_all = 1e-6, .got = got};
    pl_diag d = real_cmp(&c);
    ck_assert(d.findings & PL_F_NOT_IMPLEMENTED);
    ck_assert_str_eq(d.reason, "not implemented yet (the output was never written)");
    got[0] = 1, got[2] = 3;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_UNWRITTEN);
    ck_assert_ptr_nonnull(strstr(d.reason, "never written at 1 of 3 positions (first element 1)"));
    got[1] = NAN;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_NOT_FINITE);
    ck_assert_ptr_nonnull(strstr(d.reason, "element 1 is nan"));
    double dg[2];
    memset(dg, PL_POISON_BYTE, sizeof dg);
    double dw[2] = {0, 0};
    pl_cmp_real e = {.elem = PL_ELEM_F64, .n = 2, .want = dw, .tol_all = 0, .got = dg};
    d = real_cmp(&e);
    ck_assert(d.findings & PL_F_NOT_IMPLEMENTED);
}
END_TEST

START_TEST(real_rows_suspects_races_guards)
{
    /* three rows of 2, 0 and 3 entries; row 2 misses its last term */
    long seg[4] = {0, 2, 2, 5};
    double want[3] = {1.5, 0.0, 7.25}, short_one[3] = {1.0, 0.0, 5.25}, tol[3] = {1e-12, 0, 1e-12};
    double got[3] = {1.5, 0.0, 5.25};
    pl_cmp_real c = {.elem = PL_ELEM_F64, .n = 3, .want = want, .tol = tol, .got = got, .pos_name = "row", .seg = seg};
    pl_diag d = real_cmp(&c);
    ck_assert(d.findings & PL_F_MISMATCH);
    ck_assert_ptr_nonnull(strstr(d.reason, "row 2 (3 entries)"));
    ck_assert_ptr_nonnull(strstr(d.detail, "7.25"));
    /* a suspect that fits every wrong row names the mistake; one that does not, nothing */
    double other[3] = {9, 9, 9};
    c.suspects[0] = (pl_suspect){"each row's last entry left out (a loop that stops one short?)", other, NULL, 0};
    c.suspects[1] = (pl_suspect){"each row's last entry left out (a loop that stops one short?)", short_one, NULL, 0};
    c.nsuspects = 2;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_SUSPECT);
    ck_assert_ptr_nonnull(strstr(d.reason, "a loop that stops one short?"));
    c.nsuspects = 1;
    d = real_cmp(&c);
    ck_assert(!(d.findings & PL_F_SUSPECT));
    /* a suspect that stands for nothing written: its finding only where it
       holds at every position, the right ones too; its own words either way */
    c.suspects[1].whole = PL_F_NOT_IMPLEMENTED;
    c.nsuspects = 2;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_SUSPECT);
    ck_assert(!(d.findings & PL_F_NOT_IMPLEMENTED)); /* rows 0 and 1 are right, not short_one's */
    double as_in[3] = {1.5, 0.0, 5.25}, *keep = (double *)c.suspects[1].values;
    c.suspects[1].values = as_in;
    d = real_cmp(&c);
    ck_assert_uint_eq(d.findings & (PL_F_SUSPECT | PL_F_NOT_IMPLEMENTED), PL_F_SUSPECT | PL_F_NOT_IMPLEMENTED);
    ck_assert_uint_eq(d.chosen, PL_F_SUSPECT);
    ck_assert_ptr_nonnull(strstr(d.reason, "a loop that stops one short?"));
    c.suspects[1].values = keep, c.suspects[1].whole = 0;
    c.nsuspects = 1;
    /* right, then out of tolerance in a second run: a race; within it: nothing */
    got[2] = 7.25;
    double got2[3] = {1.5, 0.0, 7.0};
    c.got2 = got2;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_RACE);
    ck_assert_ptr_nonnull(strstr(d.reason, "a race?"));
    got2[2] = 7.25 + 1e-13;
    d = real_cmp(&c);
    ck_assert_uint_eq(d.findings, 0);
    /* a write past the end, and the input changed */
    uint8_t front[8], back[8];
    memset(front, PL_POISON_BYTE, sizeof front);
    memset(back, PL_POISON_BYTE, sizeof back);
    back[3] = 0;
    float in[2] = {1, 2}, after[2] = {1, 3};
    c.guard_front = front, c.guard_back = back, c.guard_bytes = 8;
    c.in = in, c.in_after = after, c.in_bytes = sizeof in;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_GUARD_BACK);
    ck_assert(d.findings & PL_F_INPUT_CHANGED);
    ck_assert_ptr_nonnull(strstr(d.reason, "wrote past the end"));
}
END_TEST

/* Outputs of millions of elements are compared on every core: the counts,
   the first wrong position and the first race are those of a serial pass,
   wherever the threads' chunks begin, and an input changed near its end is
   seen. */
START_TEST(large_outputs_in_parallel)
{
    const size_t n = ((size_t)1 << 22) + 7;
    int *w = malloc(n * sizeof *w), *g = malloc(n * sizeof *g), *g2 = malloc(n * sizeof *g2);
    int *in = malloc(n * sizeof *in), *in_after = malloc(n * sizeof *in_after);
    ck_assert(w && g && g2 && in && in_after);
    for (size_t i = 0; i < n; i++)
        w[i] = g[i] = g2[i] = in[i] = in_after[i] = (int)(i * 2654435761u);
    g[n - 1] = PL_POISON_I32, g[n / 2 + 3] ^= 1, g[n / 3] ^= 2;
    g2[n / 2 + 3] = g[n / 2 + 3], g2[n / 3] = g[n / 3], g2[n - 1] = g[n - 1];
    g2[n / 4] ^= 4, g2[n - 9] ^= 4; /* two races, where the first run was right */
    in_after[n - 2] ^= 8;
    pl_cmp c = {.want = w, .got = g, .n = n, .got2 = g2, .in = in, .in_after = in_after};
    pl_diag d;
    ck_assert_int_eq(pl_compare_i32(&c, &d), 0);
    ck_assert_uint_eq(d.mismatches, 3);
    ck_assert_uint_eq(d.unwritten, 1);
    ck_assert_uint_eq(d.first_bad, n / 3);
    ck_assert_uint_eq(d.race_diffs, 2);
    ck_assert(d.findings & PL_F_INPUT_CHANGED);
    free(g2), free(in), free(in_after);

    double *want = malloc(n * sizeof *want);
    float *got_f = malloc(n * sizeof *got_f);
    ck_assert(want && got_f);
    for (size_t i = 0; i < n; i++)
        want[i] = got_f[i] = (float)(i % 1000) * 0.5f;
    got_f[n - 3] += 1.0f, got_f[n / 5] += 1.0f;
    pl_cmp_real r = {.elem = PL_ELEM_F32, .n = n, .want = want, .tol_all = 1e-6, .got = got_f};
    ck_assert_int_eq(pl_compare_real(&r, &d), 0);
    ck_assert_uint_eq(d.mismatches, 2);
    ck_assert_uint_eq(d.first_bad, n / 5);
    free(w), free(g), free(want), free(got_f);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("diagnose");
    TCase *t;
    t = tcase_create("diagnose");
    tcase_add_checked_fixture(t, fixture, NULL);
    tcase_add_test(t, diag_correct);
    tcase_add_test(t, diag_not_implemented);
    tcase_add_test(t, diag_partly_unwritten);
    tcase_add_test(t, diag_write_past_end);
    tcase_add_test(t, diag_compact_count);
    tcase_add_test(t, diag_printed_errors);
    tcase_add_test(t, diag_compact_kept_dropped);
    tcase_add_test(t, diag_write_before_start);
    tcase_add_test(t, diag_shift_right_is_exclusive);
    tcase_add_test(t, diag_shift_left_is_inclusive);
    tcase_add_test(t, diag_block_boundary);
    tcase_add_test(t, diag_known_mistake);
    tcase_add_test(t, diag_race);
    tcase_add_test(t, diag_first_mismatch_window);
    tcase_add_test(t, diag_input_changed);
    tcase_add_test(t, diag_empty_and_single);
    tcase_add_test(t, guard_counts_changed_bytes);
    suite_add_tcase(s, t);
    t = tcase_create("diagnose_sort");
    tcase_add_test(t, diag_sort_unstable);
    tcase_add_test(t, diag_sort_values_astray);
    tcase_add_test(t, diag_sort_order_and_lost);
    tcase_add_test(t, diag_sort_wrong_key_order);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    t = tcase_create("diagnose_real");
    tcase_add_test(t, real_within_tolerance_passes);
    tcase_add_test(t, real_poison_and_nan);
    tcase_add_test(t, real_rows_suspects_races_guards);
    tcase_add_test(t, large_outputs_in_parallel);
    suite_add_tcase(s, t);
    return s;
}
