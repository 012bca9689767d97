/* tests/test_cpu.c: Check tests of everything that runs without a GPU:
 * the RNG, the diagnosis of wrong results, guard zones, the TSV writer,
 * process isolation, and the CPU scan references. Also run under ASan and
 * UBSan by `make test-sanitize`. */
#define _GNU_SOURCE
#include "../harness/parent/banks.h"
#include "../harness/parent/diagnose.h"
#include "../harness/parent/gpu_nodes.h"
#include "../harness/parent/proc.h"
#include "../harness/parent/report.h"
#include "../harness/parent/results.h"
#include "../harness/parent/rubric.h"
#include "../harness/parent/rng.h"
#include "../harness/parent/worker_client.h"
#include "../kernels_ref/cpu/banks.h"
#include "../kernels_ref/cpu/compact.h"
#include "../kernels_ref/cpu/radix.h"
#include "../kernels_ref/cpu/scan.h"
#include "check_main.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ rng */

/* The first outputs for seed 1, recorded when the generator was written. */
#define RNG_SEED1_FIRST 12966619160104079557ull
static const int GEN_SEED1[4] = {5, 4, 4, 3};

START_TEST(rng_same_seed_same_stream)
{
    pl_rng a, b;
    pl_rng_seed(&a, 42);
    pl_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_eq(pl_rng_next(&a), pl_rng_next(&b));
}
END_TEST

START_TEST(rng_known_values)
{
    /* Pinned so that a change to the generator, which would change every
       test input and every recorded failure, cannot go unnoticed. */
    pl_rng r;
    pl_rng_seed(&r, 1);
    ck_assert_uint_eq(pl_rng_next(&r), RNG_SEED1_FIRST);
    int a[4];
    pl_gen_ints(a, 4, 1, 0, 7);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(a[i], GEN_SEED1[i]);
}
END_TEST

START_TEST(rng_seeds_differ)
{
    pl_rng a, b;
    pl_rng_seed(&a, 1);
    pl_rng_seed(&b, 2);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += pl_rng_next(&a) == pl_rng_next(&b);
    ck_assert_int_eq(same, 0);
    ck_assert_uint_ne(pl_seed_mix(1, 'a', 100), pl_seed_mix(1, 'b', 100));
    ck_assert_uint_ne(pl_seed_mix(1, 'a', 100), pl_seed_mix(1, 'a', 101));
    ck_assert_uint_ne(pl_seed_mix(1, 'a', 100), pl_seed_mix(2, 'a', 100));
}
END_TEST

START_TEST(rng_range_bounds_and_coverage)
{
    pl_rng r;
    pl_rng_seed(&r, 7);
    int seen[8] = {0};
    for (int i = 0; i < 10000; i++) {
        int64_t v = pl_rng_range(&r, 0, 7);
        ck_assert(v >= 0 && v <= 7);
        seen[v]++;
    }
    for (int k = 0; k < 8; k++)
        ck_assert_int_gt(seen[k], 1000); /* about 1250 each */
    for (int i = 0; i < 1000; i++) {
        int64_t v = pl_rng_range(&r, -3, -3);
        ck_assert_int_eq(v, -3);
    }
}
END_TEST

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
    pl_cmp c = {.want = want_c, .got = got_c, .n = n + 1, .got2 = got_c2, .keeps = keeps_pos, .keep_rule = "x > 0"};
    return pl_compare_i32(&c, d);
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

/* ------------------------------------------------------------------ tsv */

START_TEST(tsv_header_and_row)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    pl_tsv_begin(f, "Test GPU", NULL, 3000.0, NAN, "measured");
    pl_row r = {"01", "c", "solution", "Test GPU", 1048576, 20, 0.5, 16.777, 0.559, 3000.0, 10.0, NAN, 0.25, NAN,
                "copy", 3000.0, 0.559, NAN, NULL};
    pl_tsv_row(f, &r);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "# device: Test GPU\n# copy_gbps: 3000.0\n"));
    ck_assert_ptr_nonnull(strstr(buf, "# source: measured\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nlab\tpart\tvariant\tn\treps\ttime_ms\tgbps\tpct_copy\tcopy_gbps\t"
                                      "x_serial\tx_omp\tx_vendor\tdevice\tparam\troof\troof_gbps\tpct_roof\tgflops\tparam_label\n"));
    ck_assert_ptr_null(strstr(buf, "smem_gbps")); /* not measured: no line */
    ck_assert_ptr_null(strstr(buf, "# vendor")); /* not known: no line */
    const char *row = strstr(buf, "\n01\t");
    ck_assert_ptr_nonnull(row);
    ck_assert_str_eq(row + 1, "01\tc\tsolution\t1048576\t20\t0.500000\t16.78\t0.56\t3000.0\t10.000\tnan\t0.250\tTest GPU\t"
                              "nan\tcopy\t3000.0\t0.56\tnan\tnan\n");
    /* every data line has the header's 19 fields */
    int tabs = 0;
    for (const char *p = row + 1; *p && *p != '\n'; p++)
        tabs += *p == '\t';
    ck_assert_int_eq(tabs, 18);
    free(buf);
    /* a shared-memory row: its roof, the measured peak in the header, no
       fraction of copy; a CPU row: no roof */
    f = open_memstream(&buf, &len);
    pl_tsv_begin(f, "Test GPU", "CCCL 3.0.1", 3000.0, 30000.0, "measured");
    pl_row sm = {"03", "a4", "solution", "Test GPU", 1, 10, 0.05, 21000.0, NAN, 3000.0, 70.0, NAN, NAN, NAN,
                 "smem", 30000.0, 70.0, NAN, NULL};
    pl_tsv_row(f, &sm);
    pl_row cpu = {"03", "a4", "cpu_serial", "Test GPU", 1, 10, 3.5, 300.0, NAN, 3000.0, 1.0, NAN, NAN, NAN, NULL, NAN, NAN, NAN, NULL};
    pl_tsv_row(f, &cpu);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "# copy_gbps: 3000.0\n# smem_gbps: 30000.0\n"));
    ck_assert_ptr_nonnull(strstr(buf, "# device: Test GPU\n# vendor: CCCL 3.0.1\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\tnan\tsmem\t30000.0\t70.00\tnan\tnan\n"));
    ck_assert_ptr_nonnull(strstr(buf, "cpu_serial\t1\t10\t3.500000\t300.00\tnan\t3000.0\t1.000\tnan\tnan\tTest GPU\tnan\tnan\tnan\tnan\tnan\tnan\n"));
    free(buf);
    /* the table names each row's roof */
    f = open_memstream(&buf, &len);
    pl_table_begin(f, NULL);
    pl_table_row(f, &sm);
    pl_table_row(f, &r);
    pl_table_row(f, &cpu);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "% of roof"));
    ck_assert_ptr_nonnull(strstr(buf, "70.0% smem"));
    ck_assert_ptr_nonnull(strstr(buf, "0.6% copy"));
    free(buf);
}
END_TEST

/* ------------------------------------------------- the worker client */

/* The scripted fake worker (tests/fake_worker.c): each part misbehaves in
   one way, as a hostile submission would. */
#define FAKE "build/tests/fake-worker"
const char *const pl_impl_variant = "fake"; /* lab_run.c names it in benchmark rows */

static int bwrap_works(void)
{
    return system("bwrap --ro-bind / / --unshare-all --die-with-parent true >/dev/null 2>&1") == 0;
}

static pl_session *fake_session(void)
{
    char why[256];
    pl_session_opts o = {.worker = FAKE, .log = "build/tests/fake-worker.log", .start_s = 20};
    pl_session *s = pl_session_open(&o, why, sizeof why);
    ck_assert_msg(s != NULL, "cannot start the fake worker: %s", why);
    return s;
}

/* One request for part at size n; returns 1 when answered. */
static int fake_ask(pl_session *s, const char *part, int kind, long n, double limit_s, pl_reply *rep, pl_result *r)
{
    pl_req q;
    memset(&q, 0, sizeof q);
    memset(r, 0, sizeof *r);
    q.kind = (uint32_t)kind;
    snprintf(q.part, sizeof q.part, "%s", part);
    q.n = n, q.in_len = n, q.out_len = n;
    double wall;
    return pl_session_request(s, &q, rep, pl_now() + limit_s, &wall, r);
}

/* A worker's names reach data files' comment lines: no line break or
   control byte of its own gets through (a forged row of data). */
START_TEST(client_hello_names_one_line)
{
    setenv("FAKE_DEVICE", "GPU\n08\tc\tsolution\x1b[2J", 1);
    setenv("FAKE_VENDOR", "CCCL\r\n# forged", 1);
    setenv("PRIMLAB_WORKER_PROFILE", "1", 1); /* the whole environment reaches the worker */
    pl_session *s = fake_session();
    unsetenv("FAKE_DEVICE");
    unsetenv("FAKE_VENDOR");
    unsetenv("PRIMLAB_WORKER_PROFILE");
    ck_assert_str_eq(pl_session_hello(s)->device, "GPU?08?c?solution?[2J");
    ck_assert_str_eq(pl_session_hello(s)->vendor, "CCCL??# forged");
    pl_session_close(s);
}
END_TEST

START_TEST(client_round_trip)
{
    pl_session *s = fake_session();
    ck_assert_str_eq(pl_session_hello(s)->device, "fake device");
    pl_shm_layout l = pl_shm_layout_for(1000, 1000, 0);
    unsigned char *shm = pl_session_shm(s, l.total);
    for (int i = 0; i < 1000; i++)
        ((int *)(shm + l.in))[i] = 3 * i;
    pl_reply rep;
    pl_result r;
    ck_assert(fake_ask(s, "ok", PL_REQ_FETCH, 1000, 10, &rep, &r));
    ck_assert_int_eq(rep.status, PL_W_OK);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(((int *)(shm + l.out[0]))[i], 3 * i + 1);
    pl_session_close(s);
}
END_TEST

START_TEST(client_crashes_cost_one_request)
{
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    ck_assert(!fake_ask(s, "segv", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "segmentation fault") != NULL, "%s", r.reason);
    ck_assert(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r)); /* a fresh worker */
    ck_assert(!fake_ask(s, "exit", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "exited with status 3") != NULL, "%s", r.reason);
    double t0 = pl_now();
    ck_assert(!fake_ask(s, "hang", PL_REQ_CALL, 1, 0.5, &rep, &r));
    ck_assert_int_eq(r.status, PL_TIMEOUT);
    ck_assert(pl_now() - t0 < 5);
    pl_session_label(s, "cudaexit");
    ck_assert(!fake_ask(s, "cudaexit", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "exited after printing a CUDA error, \"invalid argument\"") != NULL, "%s", r.reason);
    ck_assert_str_eq(r.cuda_error, "invalid argument");
    ck_assert_msg(strstr(r.detail, "reported at efficient.cu:272, then exit status 1") != NULL, "%s", r.detail);
    pl_session_label(s, "heap");
    ck_assert(!fake_ask(s, "heap", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "heap corrupted (\"free(): invalid next size (fast)\")") != NULL, "%s", r.reason);
    pl_session_label(s, "exit again");
    ck_assert(!fake_ask(s, "exit", PL_REQ_CALL, 1, 10, &rep, &r)); /* the last test's words are not this one's */
    ck_assert_msg(strstr(r.reason, "exited with status 3") != NULL, "%s", r.reason);
    ck_assert(!fake_ask(s, "forge", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_ERROR);
    ck_assert_msg(strstr(r.reason, "not the answer to its request") != NULL, "%s", r.reason);
    ck_assert(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r));
    pl_session_close(s);
}
END_TEST

START_TEST(client_output_is_capped_and_kept_apart)
{
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    pl_session_label(s, "01.a printing test");
    ck_assert(fake_ask(s, "print", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(rep.status, PL_W_OK);
    ck_assert_uint_ge(pl_session_printed(s), 200 * 1024);
    pl_session_close(s);
    FILE *f = fopen("build/tests/fake-worker.log", "r");
    ck_assert_ptr_nonnull(f);
    char line[2048];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "== 01.a printing test\n");
    fseek(f, 0, SEEK_END);
    ck_assert_int_lt(ftell(f), 70 * 1024);
    fclose(f);
}
END_TEST

START_TEST(client_counts_cpu_time)
{
    /* the kernel's count for every process of the worker, children too */
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    double before = pl_session_cpu_ms(s);
    ck_assert(fake_ask(s, "spin", PL_REQ_CALL, 1, 10, &rep, &r));
    double used = pl_session_cpu_ms(s) - before;
    ck_assert_msg(used >= 290, "%.0f ms counted for 300 ms of the worker's CPU time (and its child's)", used);
    pl_session_close(s);
}
END_TEST

/* Processes whose executable is the fake worker (or the private copy the
   client runs when it is root). */
static int fake_processes(void)
{
    char path[300], exe[4096];
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while ((e = readdir(d)))
        if (atoi(e->d_name) > 0) {
            snprintf(path, sizeof path, "/proc/%s/exe", e->d_name);
            ssize_t len = readlink(path, exe, sizeof exe - 1);
            if (len > 0) {
                exe[len] = '\0';
                n += strstr(exe, "/fake-worker") != NULL;
            }
        }
    closedir(d);
    return n;
}

START_TEST(client_leaves_no_process)
{
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    ck_assert(fake_ask(s, "fork", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_ge(fake_processes(), 6);
    pl_session_close(s);
    for (int i = 0; i < 100 && fake_processes() > 0; i++)
        usleep(10000);
    ck_assert_int_eq(fake_processes(), 0);
}
END_TEST

START_TEST(sandbox_hides_and_protects)
{
    if (!bwrap_works() || getenv("PRIMLAB_NO_SANDBOX")) {
        printf("SKIP: sandbox tests: bubblewrap is missing or cannot run here; not counted as passed\n");
        return;
    }
    setenv("PRIMLAB_SEED", "424242", 1);
    setenv("PRIMLAB_WORKER_NPROC", "64", 1);
    pl_session *s = fake_session();
    unsetenv("PRIMLAB_SEED");
    unsetenv("PRIMLAB_WORKER_NPROC");
    ck_assert(pl_session_sandboxed(s));
    pl_reply rep;
    pl_result r;
    /* who it is: the unprivileged uid, its own pid namespace, no seed */
    ck_assert(fake_ask(s, "spy", PL_REQ_CALL, 0, 10, &rep, &r));
    ck_assert_msg(strstr(rep.reason, "uid=65534 ") != NULL, "%s", rep.reason);
    ck_assert_msg(strstr(rep.reason, "seed=(none)") != NULL, "%s", rep.reason);
    ck_assert_msg(strstr(rep.reason, "home=/tmp") != NULL, "%s", rep.reason);
    int pid = atoi(strstr(rep.reason, "pid=") + 4);
    ck_assert_msg(pid < 10, "pid %d: not in its own pid namespace", pid);
    /* the kit: neither writable nor readable (its sources are hidden) */
    char target[4096];
    ck_assert_ptr_nonnull(getcwd(target, sizeof target - 32));
    strcat(target, "/build/tests/pwned");
    unlink(target);
    pl_shm_layout l = pl_shm_layout_for(1024, 1024, 0);
    unsigned char *shm = pl_session_shm(s, l.total);
    snprintf((char *)shm + l.in, 4096, "%s", target);
    pl_req q;
    memset(&q, 0, sizeof q);
    q.kind = PL_REQ_CALL;
    snprintf(q.part, sizeof q.part, "spy");
    q.n = 1, q.in_len = 1024, q.out_len = 1024;
    double wall;
    ck_assert(pl_session_request(s, &q, &rep, pl_now() + 10, &wall, &r));
    ck_assert_int_ne(access(target, F_OK), 0);
    /* nor the host's /dev/shm, a channel between students */
    unlink("/dev/shm/primlab-pwned-test");
    snprintf((char *)shm + l.in, 4096, "/dev/shm/primlab-pwned-test");
    ck_assert(pl_session_request(s, &q, &rep, pl_now() + 10, &wall, &r));
    ck_assert_int_ne(access("/dev/shm/primlab-pwned-test", F_OK), 0);
    char src[4096];
    ck_assert_ptr_nonnull(getcwd(src, sizeof src - 32));
    strcat(src, "/tests/test_cpu.c");
    snprintf((char *)shm + l.in, 4096, "%s", src);
    q.n = 2;
    ck_assert(pl_session_request(s, &q, &rep, pl_now() + 10, &wall, &r));
    ck_assert_msg(strstr(rep.reason, "No such file") != NULL, "the kit is visible: %s", rep.reason);
    /* a fork bomb stops at the process limit and the worker still serves */
    ck_assert(fake_ask(s, "bomb", PL_REQ_CALL, 1, 30, &rep, &r));
    ck_assert_msg(rep.ms < 64, "%g processes made under a limit of 64", rep.ms);
    ck_assert(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r));
    pl_session_close(s);
    for (int i = 0; i < 100 && fake_processes() > 0; i++)
        usleep(10000);
    ck_assert_int_eq(fake_processes(), 0);
}
END_TEST

/* ------------------------------------------- the pinned GPU's device files */

/* A driver listing like /proc/driver/nvidia/gpus in a fresh folder: GPUs
   given as "bus minor uuid model", one per string; returns the folder. */
static const char *fake_driver(const char *const *gpus, int n)
{
    static char root[64];
    snprintf(root, sizeof root, "/tmp/primlab-gpus-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    for (int i = 0; i < n; i++) {
        char bus[32], minor[16], uuid[64], model[64], path[256];
        ck_assert_int_eq(sscanf(gpus[i], "%31s %15s %63s %63[^\n]", bus, minor, uuid, model), 4);
        snprintf(path, sizeof path, "%s/%s", root, bus);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        strcat(path, "/information");
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "Model: \t\t %s\nIRQ:   \t\t 17\nGPU UUID: \t %s\nBus Type: \t PCIe\n"
                   "Bus Location: \t %s\nDevice Minor: \t %s\nGPU Excluded:\t No\n", model, uuid, bus, minor);
        fclose(f);
    }
    return root;
}

static void rm_fake_driver(const char *root)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

/* Three GPUs whose minors are not in bus order, as drivers number them. */
static const char *const three[] = {"0000:86:00.0 1 GPU-cccc3333-0000 NVIDIA H200",
                                    "0000:18:00.0 0 GPU-aaaa1111-0000 NVIDIA H200",
                                    "0000:3b:00.0 2 GPU-bbbb2222-0000 NVIDIA H200"};

START_TEST(pinned_gpus_from_the_driver)
{
    const char *root = fake_driver(three, 3);
    pl_pinned p;
    /* ordinals in bus order; the sandbox gets UUIDs */
    ck_assert(pl_pinned_gpus("1", "PCI_BUS_ID", root, &p));
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(p.minor[0], 2);
    ck_assert_str_eq(p.uuids, "GPU-bbbb2222-0000");
    ck_assert(pl_pinned_gpus("2,0", "PCI_BUS_ID", root, &p));
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(p.minor[0], 1);
    ck_assert_int_eq(p.minor[1], 0);
    ck_assert_str_eq(p.uuids, "GPU-cccc3333-0000,GPU-aaaa1111-0000");
    /* CUDA's default order, every GPU the same model: bus order too */
    ck_assert(pl_pinned_gpus("0", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 0);
    /* a UUID, or a prefix naming one GPU */
    ck_assert(pl_pinned_gpus("GPU-cccc3333-0000", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 1);
    ck_assert(pl_pinned_gpus("GPU-bb", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 2);
    /* not certain: nothing narrowed */
    const char *unsure[] = {"", "3", "-1", "1,1", "GPU-", "GPU-dddd", "MIG-1234", "x", "0,7"};
    for (size_t i = 0; i < sizeof unsure / sizeof unsure[0]; i++)
        ck_assert_msg(!pl_pinned_gpus(unsure[i], "PCI_BUS_ID", root, &p), "'%s' narrowed", unsure[i]);
    ck_assert(!pl_pinned_gpus(NULL, "PCI_BUS_ID", root, &p));
    ck_assert(!pl_pinned_gpus("0", "PCI_BUS_ID", "/nonexistent/gpus", &p));
    rm_fake_driver(root);
    /* mixed models: ordinals in CUDA's default order (fastest first) are not certain; PCI order and UUIDs are */
    const char *mixed[] = {"0000:18:00.0 0 GPU-aaaa1111-0000 NVIDIA H100 80GB HBM3",
                           "0000:3b:00.0 1 GPU-bbbb2222-0000 NVIDIA H200"};
    root = fake_driver(mixed, 2);
    ck_assert(!pl_pinned_gpus("0", NULL, root, &p));
    ck_assert(pl_pinned_gpus("0", "PCI_BUS_ID", root, &p));
    ck_assert(pl_pinned_gpus("GPU-bbbb2222", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 1);
    rm_fake_driver(root);
    /* an unreadable listing: nothing narrowed */
    const char *odd[] = {"0000:18:00.0 x GPU-aaaa1111-0000 NVIDIA H200"};
    root = fake_driver(odd, 1);
    ck_assert(!pl_pinned_gpus("0", "PCI_BUS_ID", root, &p));
    rm_fake_driver(root);
}
END_TEST

/* A worker pinned to one GPU: its sandbox has that GPU's device file alone
   (where the host has /dev/nvidia0 and the pin names another minor, it is
   gone) and CUDA_VISIBLE_DEVICES names it by UUID. */
START_TEST(sandbox_binds_only_the_pinned_gpu)
{
    if (!bwrap_works() || getenv("PRIMLAB_NO_SANDBOX")) {
        printf("SKIP: sandbox tests: bubblewrap is missing or cannot run here; not counted as passed\n");
        return;
    }
    const char *root = fake_driver(three, 3);
    setenv("PRIMLAB_NVIDIA_GPUS", root, 1);
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    pl_session *s = fake_session();
    unsetenv("PRIMLAB_NVIDIA_GPUS");
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CUDA_DEVICE_ORDER");
    pl_reply rep;
    pl_result r;
    ck_assert(fake_ask(s, "spy", PL_REQ_CALL, 0, 10, &rep, &r));
    pl_session_close(s);
    rm_fake_driver(root);
    ck_assert_msg(strstr(rep.reason, "cvd=GPU-bbbb2222-0000 ") != NULL, "%s", rep.reason);
    /* minor 2 is the pinned one: the host's nvidia0 and nvidia1, if any, stay out */
    ck_assert_msg(strstr(rep.reason, " nvidia0 ") == NULL && strstr(rep.reason, " nvidia1 ") == NULL, "%s",
                  rep.reason);
    if (access("/dev/nvidia2", F_OK) == 0)
        ck_assert_msg(strstr(rep.reason, " nvidia2 ") != NULL, "%s", rep.reason);
    /* unpinned: every GPU's file, as before */
    s = fake_session();
    ck_assert(fake_ask(s, "spy", PL_REQ_CALL, 0, 10, &rep, &r));
    pl_session_close(s);
    if (access("/dev/nvidia0", F_OK) == 0)
        ck_assert_msg(strstr(rep.reason, " nvidia0 ") != NULL, "%s", rep.reason);
}
END_TEST

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

/* -------------------------------------------------------------- rubric */

static const pl_part fake_parts[] = {
    {.id = "a", .title = "one block", .entry = "f_a", .max_n = 1024, .points = 1},
    {.id = "b", .title = "any n", .entry = "f_b", .points = 2, .bench = 1},
};
static const long fake_sizes[] = {0, 1, 1024, 1025, 1L << 20};
static const pl_perf fake_perf[] = {{.part = "b", .n = 1L << 24, .points = 3, .yardstick = PL_YARD_VENDOR, .full = 0.5, .zero = 0.1}};
static const pl_lab fake_lab = {.id = "99", .name = "fake", .parts = fake_parts, .nparts = 2,
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
        long hi = a[i].part->max_n ? a[i].part->max_n : 1L << 22;
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
    {.id = "a", .title = "one block", .entry = "f_a", .max_n = 1024, .points = 1},
    {.id = "b", .title = "any n", .entry = "f_b", .max_n = 2147483647, .points = 2, .bench = 1},
    {.id = "c", .title = "any n too", .entry = "f_c", .max_n = 2147483647, .points = 1},
    {.id = "d", .title = "near its sizes", .entry = "f_d", .max_n = (1L << 20) + 1000, .points = 1},
};
static const pl_lab limit_lab = {.id = "98", .name = "limits", .parts = limit_parts, .nparts = 4,
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

/* A limit test through a worker: one run, the verdict of a normal test, and
   the input and reference shared with the next limit test of a part that
   has the same ones (the fake worker's "ok" part answers input + 1). */
static int plus_one_calls;
static void plus_one(const int *in, int *out, size_t n)
{
    plus_one_calls++;
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] + 1;
}
static void minus_one(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] - 1;
}
static size_t no_scratch(long n) { return (void)n, 0; }
static const pl_part ok_parts[] = {
    {.id = "ok", .title = "plus one", .entry = "f_ok", .max_n = 3000000, .points = 1, .cpu = plus_one},
    {.id = "ok", .title = "plus one again", .entry = "f_ok", .max_n = 3000000, .points = 1, .cpu = plus_one},
    {.id = "ok", .title = "minus one", .entry = "f_ok", .max_n = 3000000, .points = 1, .cpu = minus_one},
};
static const pl_lab ok_lab = {.id = "97", .name = "ok", .parts = ok_parts, .nparts = 3, .test_sizes = fake_sizes,
                              .ntest_sizes = 5, .gen_lo = -100, .gen_hi = 100, .scratch_ints = no_scratch};

START_TEST(limit_test_runs_once_and_shares)
{
    pl_session *s = fake_session();
    pl_result r;
    long n = 2999500;
    plus_one_calls = 0;
    pl_lab_test_limit(s, &ok_lab, &ok_parts[0], n, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    pl_lab_test_limit(s, &ok_lab, &ok_parts[1], n, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 1); /* the reference ran once for both */
    /* another reference is not taken for the kept one */
    pl_lab_test_limit(s, &ok_lab, &ok_parts[2], n, NAN, 5, 30, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    /* a normal test in between: the next limit test computes afresh */
    pl_lab_test(s, &ok_lab, &ok_parts[0], 1025, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    plus_one_calls = 0;
    pl_lab_test_limit(s, &ok_lab, &ok_parts[0], n, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 1);
    /* another seed, another input */
    pl_lab_test_limit(s, &ok_lab, &ok_parts[1], n, NAN, 6, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 2);
    pl_session_close(s);
}
END_TEST

/* A stress part (pl_part's runs): every run on a fresh input, each judged;
   the fake worker's "flaky" part is wrong in every third call (index 0 off
   by one), "ok" never; a reference that is always wrong fails every run. */
static const pl_part stress_parts[] = {
    {.id = "flaky", .title = "flaky", .entry = "f_flaky", .max_n = 5000, .points = 1, .cpu = plus_one, .runs = 7},
    {.id = "ok", .title = "steady", .entry = "f_ok", .max_n = 5000, .points = 1, .cpu = plus_one, .runs = 7},
    {.id = "ok", .title = "always wrong", .entry = "f_ok", .max_n = 5000, .points = 1, .cpu = minus_one, .runs = 7},
};
static const pl_lab stress_lab = {.id = "96", .name = "stress", .parts = stress_parts, .nparts = 3,
                                  .test_sizes = fake_sizes, .ntest_sizes = 4, .gen_lo = -100, .gen_hi = 100,
                                  .scratch_ints = no_scratch};

START_TEST(stress_runs_count_the_wrong_ones)
{
    pl_session *s = fake_session();
    pl_result r;
    pl_lab_test(s, &stress_lab, &stress_parts[1], 1025, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    pl_lab_test(s, &stress_lab, &stress_parts[0], 1025, NAN, 5, 30, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    ck_assert_msg(strstr(r.reason, "wrong in 2 of 7 runs under load; run 3: ") != NULL, "%s", r.reason);
    ck_assert_msg(strstr(r.detail, "first mismatch at index 0") != NULL, "%s", r.detail);
    pl_lab_test(s, &stress_lab, &stress_parts[2], 1025, NAN, 5, 30, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    ck_assert_msg(strstr(r.reason, "wrong in 7 of 7 runs") != NULL, "%s", r.reason);
    pl_session_close(s);
}
END_TEST

START_TEST(scores_round_trip)
{
    char path[] = "/tmp/primlab-scores-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    const char *reason = "a \"quote\", a tab\there,\nand a backslash \\";
    char esc[256];
    pl_tsv_escape(reason, esc, sizeof esc);
    ck_assert_ptr_null(strchr(esc, '\t'));
    ck_assert_ptr_null(strchr(esc, '\n'));
    fprintf(f, "02\tsome test\tperformance\t1\tOK\t0.7500\t2\t1.250\t0.3100\t%s\t\n", esc);
    fprintf(f, "03\tother\tcorrectness\t0\tFAIL\t0\t1\t0.5\t\t\t\n");
    fclose(f);
    pl_scores s = {0};
    ck_assert_int_eq(pl_scores_read(&s, path), 0);
    unlink(path);
    ck_assert_int_eq(s.n, 2);
    ck_assert_str_eq(s.rows[0].lab, "02");
    ck_assert_str_eq(s.rows[0].reason, reason);
    ck_assert_int_eq(s.rows[0].hidden, 1);
    ck_assert_str_eq(s.rows[0].value, "0.3100");
    double got, max;
    pl_scores_total(&s, NULL, &got, &max);
    ck_assert_double_eq_tol(got, 0.75, 1e-12);
    ck_assert_double_eq_tol(max, 3, 1e-12);
    pl_scores_total(&s, "03", &got, &max);
    ck_assert_double_eq_tol(max, 1, 1e-12);
    pl_scores_free(&s);
}
END_TEST

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
                .n_in = pairs ? 2 * n : n, .sort = sort, .sort_pairs = pairs};
    return pl_compare_i32(&c, d);
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
    c.suspects[0] = (pl_suspect){"each row's last entry left out (a loop that stops one short?)", other, NULL};
    c.suspects[1] = (pl_suspect){"each row's last entry left out (a loop that stops one short?)", short_one, NULL};
    c.nsuspects = 2;
    d = real_cmp(&c);
    ck_assert(d.findings & PL_F_SUSPECT);
    ck_assert_ptr_nonnull(strstr(d.reason, "a loop that stops one short?"));
    c.nsuspects = 1;
    d = real_cmp(&c);
    ck_assert(!(d.findings & PL_F_SUSPECT));
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

Suite *check_suite(void)
{
    Suite *s = suite_create("cpu");
    TCase *t = tcase_create("rng");
    tcase_add_test(t, rng_same_seed_same_stream);
    tcase_add_test(t, rng_known_values);
    tcase_add_test(t, rng_seeds_differ);
    tcase_add_test(t, rng_range_bounds_and_coverage);
    suite_add_tcase(s, t);

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

    t = tcase_create("diagnose_real");
    tcase_add_test(t, real_within_tolerance_passes);
    tcase_add_test(t, real_poison_and_nan);
    tcase_add_test(t, real_rows_suspects_races_guards);
    suite_add_tcase(s, t);
    t = tcase_create("report");
    tcase_add_test(t, tsv_header_and_row);
    suite_add_tcase(s, t);

    t = tcase_create("grading");
    tcase_add_test(t, perf_points_are_linear_between_thresholds);
    tcase_add_test(t, test_list_public);
    tcase_add_test(t, test_list_hidden_from_seed);
    tcase_add_test(t, test_list_limits);
    tcase_add_test(t, limit_fit_from_probe);
    tcase_add_test(t, scores_round_trip);
    suite_add_tcase(s, t);

    t = tcase_create("banks");
    tcase_add_test(t, banks_basic_patterns);
    tcase_add_test(t, banks_stride_theory);
    tcase_add_test(t, banks_transpose_tiles);
    tcase_add_test(t, banks_scan_levels);
    tcase_add_test(t, stride_and_transpose_references);
    suite_add_tcase(s, t);

    tcase_add_test(t, compact_references_agree);

    t = tcase_create("radix");
    tcase_add_test(t, radix_sorts_like_qsort_and_stably);
    tcase_add_test(t, radix_key_maps_keep_order);
    tcase_add_test(t, diag_sort_unstable);
    tcase_add_test(t, diag_sort_values_astray);
    tcase_add_test(t, diag_sort_order_and_lost);
    tcase_add_test(t, diag_sort_wrong_key_order);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);

    t = tcase_create("worker_client");
    tcase_add_test(t, client_hello_names_one_line);
    tcase_add_test(t, client_round_trip);
    tcase_add_test(t, client_crashes_cost_one_request);
    tcase_add_test(t, client_output_is_capped_and_kept_apart);
    tcase_add_test(t, client_leaves_no_process);
    tcase_add_test(t, client_counts_cpu_time);
    tcase_add_test(t, sandbox_hides_and_protects);
    tcase_add_test(t, pinned_gpus_from_the_driver);
    tcase_add_test(t, sandbox_binds_only_the_pinned_gpu);
    tcase_add_test(t, limit_test_runs_once_and_shares);
    tcase_add_test(t, stress_runs_count_the_wrong_ones);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("references");
    tcase_add_test(t, ref_known_answers);
    tcase_add_test(t, ref_f32_scans);
    tcase_add_loop_test(t, ref_random_against_loop, 0, sizeof ref_sizes / sizeof ref_sizes[0]);
    tcase_add_loop_test(t, ref_omp_equals_serial_in_place, 0, sizeof ref_sizes / sizeof ref_sizes[0]);
    tcase_add_test(t, ref_wraps_like_int32);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
