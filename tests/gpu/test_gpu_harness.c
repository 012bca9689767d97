/* tests/gpu/test_gpu_harness.c: the harness on a real device. Planted bugs
 * (tests/gpu/wrong_scans.cu, each a part of build/tests/wrong-scans-worker, see
 * tests/gpu/wrong_scans_ops.cu) go through the same test procedure and the same
 * sandboxed worker as a student's code, and each must come back with its own
 * diagnosis; a correct scan must pass; after a fault or a hang the next
 * test passes on a fresh worker. Skipped, with one line, without a GPU. */
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/judges/array.h"
#include "../../harness/parent/lab.h"
#include "../../kernels_ref/cpu/scan.h"
#include "gpu_suite.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "planted";

static size_t scratch_ints(long n) { return (size_t)n / 16 + 4096; }
static const pl_lab lab = {.id = "hx", .name = "harness", .gen_lo = 0, .gen_hi = 7, .scratch_ints = scratch_ints};

static const pl_array_judge scan_cfg = {.hint_right = "exclusive?", .hint_left = "inclusive?"};
static const pl_judge scan = {&pl_array_kind, &scan_cfg};

/* One test of the planted part `id` (its name in wrong_scans_ops.cu) at n. */
static pl_result run(const char *id, long n, double timeout)
{
    pl_part part = {.id = id, .title = "planted", .entry = "planted", .points = 1, .cpu = scan_cpu_inclusive,
                    .omp = scan_omp_inclusive, .judge = &scan};
    pl_result r;
    pl_lab_test(suite_session, &lab, &part, n, NAN, 1, timeout, &r);
    return r;
}

#define EXPECT(r, st, finding, words)                                                                      \
    do {                                                                                                   \
        ck_assert_msg((r).status == (st), "status %s, want %s: %s", pl_status_name((r).status),            \
                      pl_status_name(st), (r).reason);                                                     \
        ck_assert_msg(((r).findings & (finding)) == (finding), "findings %#x lack %#x: %s", (r).findings, \
                      (unsigned)(finding), (r).reason);                                                    \
        ck_assert_msg(strstr((r).reason, words) != NULL, "reason '%s' lacks '%s'", (r).reason, words);     \
    } while (0)

START_TEST(correct_passes)
{
    pl_result r = run("correct", 3000, 60);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    r = run("correct", 0, 60);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
}
END_TEST

START_TEST(unwritten_last)
{
    pl_result r = run("skip_last", 3000, 60);
    EXPECT(r, PL_FAIL, PL_F_UNWRITTEN, "never written at 1 of 3000 positions (first at index 2999)");
}
END_TEST

START_TEST(exclusive_for_inclusive)
{
    pl_result r = run("exclusive", 3000, 60);
    EXPECT(r, PL_FAIL, PL_F_SHIFT_RIGHT, "exclusive?");
}
END_TEST

START_TEST(block_sums_not_carried)
{
    pl_result r = run("no_carry", 5000, 60);
    EXPECT(r, PL_FAIL, PL_F_BLOCK, "block boundary: index 1024");
}
END_TEST

START_TEST(guard_zone_after)
{
    pl_result r = run("past_end", 1000, 60);
    EXPECT(r, PL_FAIL, PL_F_GUARD_BACK, "wrote past the end");
    r = run("past_end", 0, 60); /* n = 0 must write nothing */
    EXPECT(r, PL_FAIL, PL_F_GUARD_BACK, "wrote past the end");
}
END_TEST

START_TEST(guard_zone_before)
{
    pl_result r = run("before_start", 1000, 60);
    EXPECT(r, PL_FAIL, PL_F_GUARD_FRONT, "wrote before the start");
}
END_TEST

START_TEST(kernel_fault_is_named)
{
    pl_result r = run("fault", 100, 60);
    EXPECT(r, PL_ERROR, 0, "kernel fault in planted: an illegal memory access");
    /* the device is usable again, in a fresh worker */
    r = run("correct", 100, 60);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
}
END_TEST

START_TEST(hung_kernel_times_out)
{
    pl_result r = run("hang", 100, 5);
    EXPECT(r, PL_TIMEOUT, 0, "timed out after 5 s");
    r = run("correct", 100, 60);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
}
END_TEST

START_TEST(zero_blocks_launch_is_an_error)
{
    pl_result r = run("zero_launch", 0, 60);
    /* CUDA 12 calls it an invalid configuration, CUDA 13 an invalid argument */
    EXPECT(r, PL_ERROR, 0, "CUDA error while launching planted");
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("gpu_harness");
    TCase *t = tcase_create("planted");
    tcase_add_test(t, correct_passes);
    tcase_add_test(t, unwritten_last);
    tcase_add_test(t, exclusive_for_inclusive);
    tcase_add_test(t, block_sums_not_carried);
    tcase_add_test(t, guard_zone_after);
    tcase_add_test(t, guard_zone_before);
    tcase_add_test(t, kernel_fault_is_named);
    tcase_add_test(t, hung_kernel_times_out);
    tcase_add_test(t, zero_blocks_launch_is_an_error);
    suite_add_tcase(s, t);
    return s;
}

static void gpu_suite_names(char *what, size_t what_size, char *worker, size_t worker_size)
{
    snprintf(what, what_size, "harness GPU suite (planted bugs)");
    snprintf(worker, worker_size, "build/tests/wrong-scans-worker");
}
