/* tests/unit/test_banks.c: Check tests of lab 03's bank-conflict
 * analyzer (harness/parent/labs/lab03_banks.h) and its stride and transpose
 * references (kernels_ref/cpu/banks.h). */
#define _GNU_SOURCE
#include "../../harness/parent/labs/lab03_banks.h"
#include "../../kernels_ref/cpu/banks.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------- bank-conflict analyzer */

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

START_TEST(banks_basic_patterns)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = 40; /* every lane the same word: a broadcast */
    ck_assert_int_eq(pl_bank_degree(a, 32, 4), 1);
    for (int l = 0; l < 32; l++)
        a[l] = 4 * (uint64_t)(l / 2); /* pairs share words: still one pass */
    ck_assert_int_eq(pl_bank_degree(a, 32, 4), 1);
    for (int l = 0; l < 32; l++)
        a[l] = 128 * (uint64_t)l; /* one bank, 32 words */
    ck_assert_int_eq(pl_bank_passes(a, 32, 4), 32);
    for (int l = 0; l < 32; l++)
        a[l] = 8 * (uint64_t)l; /* 8-byte words in a row: two passes, no conflict */
    ck_assert_int_eq(pl_bank_passes(a, 32, 8), 2);
    ck_assert_int_eq(pl_bank_degree(a, 32, 8), 1);
}
END_TEST

START_TEST(banks_stride_theory)
{
    for (int s = 1; s <= 64; s++) {
        ck_assert_int_eq(pl_stride_degree(s, 4), gcd(s, 32)); /* gcd(stride, 32)-way */
        int d8 = pl_stride_degree(s, 8);
        ck_assert_int_eq(d8, gcd(s, 16)); /* half-warps: at most 16-way */
    }
}
END_TEST

START_TEST(banks_transpose_tiles)
{
    ck_assert_int_eq(pl_tile_column_degree(0), 32); /* tile[32][32]: a column is one bank */
    ck_assert_int_eq(pl_tile_column_degree(1), 1);  /* [32][33] */
    ck_assert_int_eq(pl_tile_column_degree(2), 1);  /* column ^ row */
    /* the swizzle is a permutation of each row: no element lost or doubled */
    for (int r = 0; r < 32; r++) {
        int seen[32] = {0};
        for (int c = 0; c < 32; c++)
            seen[pl_tile_index(2, r, c) - 32 * r]++;
        for (int c = 0; c < 32; c++)
            ck_assert_int_eq(seen[c], 1);
    }
}
END_TEST

START_TEST(banks_scan_levels)
{
    int slots = 1024;
    ck_assert_int_eq(pl_scan_levels(slots), 10);
    for (int L = 0; L < 10; L++) {
        int active = slots >> (L + 1), expect = 2 << L;
        if (expect > 32)
            expect = 32;
        if (expect > active)
            expect = active;
        ck_assert_int_eq(pl_scan_level_degree(slots, L, 0), expect);
        ck_assert_int_eq(pl_scan_level_degree(slots, L, 1), 1); /* GPU Gems 3 padding: conflict-free */
    }
    ck_assert_int_eq(pl_padded_index(31), 31);
    ck_assert_int_eq(pl_padded_index(32), 33);
    ck_assert_int_eq(pl_padded_index(1024), 1024 + 32 + 1);
}
END_TEST

START_TEST(stride_and_transpose_references)
{
    int in[4096], out[64];
    for (int i = 0; i < 4096; i++)
        in[i] = i * 3 + 1;
    stride_read_cpu(in, out, 64, 4096, 256, 33, 4);
    ck_assert_int_eq(out[0], 256 * in[0]);
    ck_assert_int_eq(out[5], 256 * in[5 * 33]);
    ck_assert_int_eq(out[37], 256 * in[5 * 33]); /* g = 37 is lane 5 */
    stride_read_cpu(in, out, 64, 4096, 256, 3, 8);
    uint64_t w = (uint32_t)in[2 * 6] | (uint64_t)(uint32_t)in[2 * 6 + 1] << 32;
    ck_assert_int_eq(out[2], (int)(uint32_t)(256 * w));
    int m[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, t[9], t2[9];
    transpose_cpu(m, t, 3);
    const int want[9] = {1, 4, 7, 2, 5, 8, 3, 6, 9};
    ck_assert_mem_eq(t, want, sizeof want);
    transpose_omp(m, t2, 3);
    ck_assert_mem_eq(t2, want, sizeof want);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("banks");
    TCase *t;
    t = tcase_create("banks");
    tcase_add_test(t, banks_basic_patterns);
    tcase_add_test(t, banks_stride_theory);
    tcase_add_test(t, banks_transpose_tiles);
    tcase_add_test(t, banks_scan_levels);
    tcase_add_test(t, stride_and_transpose_references);
    suite_add_tcase(s, t);
    return s;
}
