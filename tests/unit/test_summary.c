/* tests/unit/test_summary.c: Check tests of the grouped check report
 * (harness/parent/summary.c): what is grouped, what never is, and that a
 * test printed alone looks exactly as it did before grouping. Each test
 * writes the report to memory and compares the text. Pure C:
 *
 *   cc -std=c11 -Wall -Wextra -g -fsanitize=address,undefined tests/unit/test_summary.c \
 *      harness/parent/summary.c harness/parent/results.c -o /tmp/test_summary \
 *      $(pkg-config --cflags --libs check) -lm && /tmp/test_summary
 */
#define _POSIX_C_SOURCE 200809L
#include "../../harness/parent/results.h"
#include "../../harness/parent/summary.h"
#include "../lib/check_main.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* The sizes of one part of lab 01, as `lab01 check` lists them. */
static const long SIZES[] = {0, 1, 31, 32, 33, 1023, 1024, 1025, 65537, 4194307, 67108864};
#define NSIZES ((int)(sizeof SIZES / sizeof SIZES[0]))
#define STUB_REASON "not implemented yet (the output was never written)"
#define STUB_DETAIL "out[0..n) still holds the poison 0x7f7f7f7f\nwrite every element"

static char *text;
static size_t text_len;
static int not_run; /* the tests add() adds could not run here (no GPU) */
static FILE *out;
static pl_summary *sum;

static void open_report(int verbose)
{
    out = open_memstream(&text, &text_len);
    ck_assert_ptr_nonnull(out);
    sum = pl_summary_new(out, verbose);
    ck_assert_ptr_nonnull(sum);
}

/* Frees the summary (which flushes it) and returns all it printed. */
static const char *report(void)
{
    pl_summary_free(sum);
    sum = NULL;
    fclose(out);
    return text;
}

static void teardown(void)
{
    free(text);
    text = NULL;
    not_run = 0;
}

/* Adds a test of part 01.<part>. Its strings live in buffers that are
   poisoned right after, so a summary that kept pointers would show it. */
static void add(const char *part, const char *size, const char *status, const char *reason,
                const char *detail, int perf)
{
    static char group[16], title[64], name[128], rs[512], ds[4096];
    snprintf(group, sizeof group, "01.%s", part);
    snprintf(title, sizeof title, "%s %s", group, perf ? "performance vs the vendor library" : "inclusive scan, any n");
    snprintf(name, sizeof name, "%s, %s", title, size);
    snprintf(rs, sizeof rs, "%s", reason ? reason : "");
    snprintf(ds, sizeof ds, "%s", detail ? detail : "");
    int ok = !strcmp(status, "OK");
    pl_sum_test t = {.group = group, .title = title, .name = name, .size = size, .status = status,
                     .perf = perf, .total_in_part = NSIZES, .not_run = not_run, .seconds = not_run ? 0 : 0.25,
                     .points = ok, .max = 1,
                     .reason = reason ? rs : NULL, .detail = detail ? ds : NULL};
    ck_assert_int_eq(pl_summary_add(sum, &t), 0);
    memset(group, 'X', sizeof group - 1);
    memset(title, 'X', sizeof title - 1);
    memset(name, 'X', sizeof name - 1);
    memset(rs, 'X', sizeof rs - 1);
    memset(ds, 'X', sizeof ds - 1);
}

static void add_n(const char *part, long n, const char *status, const char *reason, const char *detail)
{
    char size[32];
    snprintf(size, sizeof size, "n=%ld", n);
    add(part, size, status, reason, detail, 0);
}

/* The report's line for one test, as the driver printed it before grouping. */
static char *line(char *buf, size_t cap, const char *name, const char *status, double secs, double pts,
                  double max)
{
    snprintf(buf, cap, "%-60s %-7s %6.2fs  %s/%s\n", name, status, secs, pl_points_str(pts, 0),
             pl_points_str(max, 1));
    return buf;
}

static int count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* --------------------------------------------------------------- core */

START_TEST(stub_failures_are_one_group)
{
    open_report(0);
    for (int i = 0; i < NSIZES; i++)
        add_n("b", SIZES[i], "FAIL", STUB_REASON, STUB_DETAIL);
    char want[1024], head[128];
    line(head, sizeof head, "01.b inclusive scan, any n: 11 of 11 tests", "FAIL", 0.25 * NSIZES, 0, NSIZES);
    snprintf(want, sizeof want, "%s    %s\n    n = 0, 1, 31, 32, 33, 1023, 1024, 1025, 65537, 4194307, 67108864\n",
             head, STUB_REASON);
    const char *got = report();
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(count(got, STUB_REASON), 1);
    ck_assert_int_eq(count(got, "poison"), 0); /* the shared detail is not repeated */
}
END_TEST

START_TEST(numbers_do_not_split_a_group)
{
    open_report(0);
    char r[128];
    for (int i = 5; i < NSIZES; i++) {
        snprintf(r, sizeof r, "first mismatch at index %ld: got 7, want %ld", SIZES[i] - 1, SIZES[i] * 3);
        add_n("b", SIZES[i], "FAIL", r, "window");
    }
    const char *got = report();
    ck_assert_int_eq(count(got, "\n"), 3);
    ck_assert_ptr_nonnull(strstr(got, "01.b inclusive scan, any n: 6 tests "));
    /* numbers shared by the whole group stay; the others are placeholders */
    ck_assert_ptr_nonnull(strstr(got, "\n    first mismatch at index #: got 7, want #\n"));
    ck_assert_ptr_nonnull(strstr(got, "\n    n = 1023, 1024, 1025, 65537, 4194307, 67108864\n"));
}
END_TEST

/* Two failures of one part: grouped exactly when their diagnoses match. */
static const struct {
    const char *a, *b;
    int same;
} DIAGNOSES[] = {
    {"first mismatch at index 1024", "first mismatch at index 2048", 1},
    {"never written at 2 of 4096 positions", "never written at 17 of 65537 positions", 1},
    {"a1b22c", "a333b4c", 1},
    {"", NULL, 1},
    {"not implemented yet", "wrote past the end", 0},
    {"ratio 0.5", "ratio 12", 0},  /* "#.#" is not "#" */
    {"index 7", "index 7 ", 0},
    {"index 7", "index", 0},
    {"got 1", "got -1", 0},
};

START_TEST(diagnoses_group_up_to_numbers)
{
    open_report(0);
    add_n("b", 1, "FAIL", DIAGNOSES[_i].a, NULL);
    add_n("b", 2, "FAIL", DIAGNOSES[_i].b, NULL);
    const char *got = report();
    ck_assert_msg(!strstr(got, "2 tests") == !DIAGNOSES[_i].same, "'%s' vs '%s':\n%s", DIAGNOSES[_i].a,
                  DIAGNOSES[_i].b, got);
}
END_TEST

START_TEST(different_reasons_print_alone)
{
    open_report(0);
    add_n("b", 0, "FAIL", "not implemented yet", "d1");
    add_n("b", 1, "FAIL", "wrote past the end (2 bytes)", "d2");
    char a[128], b[128], want[512];
    line(a, sizeof a, "01.b inclusive scan, any n, n=0", "FAIL", 0.25, 0, 1);
    line(b, sizeof b, "01.b inclusive scan, any n, n=1", "FAIL", 0.25, 0, 1);
    snprintf(want, sizeof want, "%s    not implemented yet\n    d1\n%s    wrote past the end (2 bytes)\n    d2\n", a,
             b);
    ck_assert_str_eq(report(), want);
}
END_TEST

START_TEST(part_or_status_change_splits)
{
    open_report(0);
    for (int i = 0; i < 3; i++)
        add_n("a", SIZES[i], "FAIL", STUB_REASON, NULL);
    for (int i = 0; i < 3; i++)
        add_n("b", SIZES[i], "FAIL", STUB_REASON, NULL);
    for (int i = 3; i < 5; i++)
        add_n("b", SIZES[i], "CRASH", STUB_REASON, NULL);
    const char *got = report();
    ck_assert_int_eq(count(got, "\n"), 9);
    ck_assert_int_eq(count(got, STUB_REASON), 3);
    ck_assert_ptr_nonnull(strstr(got, "01.a inclusive scan, any n: 3 tests "));
    ck_assert_ptr_nonnull(strstr(got, "01.b inclusive scan, any n: 3 tests "));
    ck_assert_ptr_nonnull(strstr(got, "01.b inclusive scan, any n: 2 tests "));
    ck_assert_ptr_nonnull(strstr(got, " CRASH "));
}
END_TEST

START_TEST(performance_tests_never_group)
{
    open_report(0);
    add_n("b", 1, "FAIL", STUB_REASON, NULL);
    add_n("b", 2, "FAIL", STUB_REASON, NULL);
    for (int i = 0; i < 3; i++)
        add("b", "n=67108864", "FAIL", "0.00x the vendor library (needs 0.50x for any points)", "t", 1);
    add_n("b", 3, "FAIL", STUB_REASON, NULL);
    add_n("b", 4, "FAIL", STUB_REASON, NULL);
    const char *got = report();
    char perf[128];
    line(perf, sizeof perf, "01.b performance vs the vendor library, n=67108864", "FAIL", 0.25, 0, 1);
    ck_assert_int_eq(count(got, perf), 3);
    ck_assert_int_eq(count(got, "    0.00x the vendor library (needs 0.50x for any points)\n    t\n"), 3);
    ck_assert_int_eq(count(got, ": 2 tests "), 2); /* a performance test ends a group */
}
END_TEST

START_TEST(performance_pass_shows_its_reason)
{
    open_report(0);
    add("b", "n=67108864", "OK", "0.91x the vendor library", NULL, 1);
    char want[256];
    line(want, sizeof want, "01.b performance vs the vendor library, n=67108864", "OK", 0.25, 1, 1);
    strcat(want, "    0.91x the vendor library\n");
    ck_assert_str_eq(report(), want);
}
END_TEST

START_TEST(single_failure_prints_as_before)
{
    open_report(0);
    add_n("b", 1025, "FAIL", "first mismatch at index 1024", "got 5\nwant 6\n");
    char want[512];
    line(want, sizeof want, "01.b inclusive scan, any n, n=1025", "FAIL", 0.25, 0, 1);
    strcat(want, "    first mismatch at index 1024\n    got 5\n    want 6\n");
    ck_assert_str_eq(report(), want);
}
END_TEST

/* No GPU: a group and a performance test that could not run say so where
   the seconds and points would be; never "0.00s  0/3", which reads as a
   score of zero. A test that ran next to them keeps its own group. */
START_TEST(not_run_says_not_run_here)
{
    open_report(0);
    not_run = 1;
    for (int i = 0; i < 3; i++)
        add_n("b", SIZES[i], "SKIP", "no GPU (PRIMLAB_NO_GPU is set)", NULL);
    add("b", "n=67108864", "SKIP", "no GPU (PRIMLAB_NO_GPU is set)", NULL, 1);
    not_run = 0;
    add_n("c", 5, "SKIP", "no GPU (PRIMLAB_NO_GPU is set)", NULL);
    char want[1024], ran[256];
    snprintf(want, sizeof want,
             "%-60s %-7s not run here\n    no GPU (PRIMLAB_NO_GPU is set)\n    n = 0, 1, 31\n"
             "%-60s %-7s not run here\n    no GPU (PRIMLAB_NO_GPU is set)\n",
             "01.b inclusive scan, any n: 3 tests", "SKIP", "01.b performance vs the vendor library, n=67108864", "SKIP");
    strcat(want, line(ran, sizeof ran, "01.c inclusive scan, any n, n=5", "SKIP", 0.25, 0, 1));
    strcat(want, "    no GPU (PRIMLAB_NO_GPU is set)\n");
    const char *got = report();
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(count(got, "0/3"), 0);
}
END_TEST

START_TEST(verbose_prints_every_test)
{
    open_report(1);
    for (int i = 0; i < NSIZES; i++)
        add_n("b", SIZES[i], i < 4 ? "OK" : "FAIL", i < 4 ? NULL : STUB_REASON, i < 4 ? NULL : STUB_DETAIL);
    char want[4096] = "", one[128], name[96];
    for (int i = 0; i < NSIZES; i++) {
        snprintf(name, sizeof name, "01.b inclusive scan, any n, n=%ld", SIZES[i]);
        strcat(want, line(one, sizeof one, name, i < 4 ? "OK" : "FAIL", 0.25, i < 4, 1));
        if (i >= 4)
            strcat(want, "    " STUB_REASON "\n    out[0..n) still holds the poison 0x7f7f7f7f\n    write every element\n");
    }
    ck_assert_str_eq(report(), want);
}
END_TEST

START_TEST(passing_tests_group)
{
    open_report(0);
    for (int i = 0; i < NSIZES; i++)
        add_n("b", SIZES[i], "OK", NULL, NULL);
    add_n("c", 5, "OK", NULL, NULL);
    char want[512], head[128];
    line(head, sizeof head, "01.b inclusive scan, any n: 11 of 11 tests", "OK", 0.25 * NSIZES, NSIZES, NSIZES);
    head[strlen(head) - 1] = '\0';
    snprintf(want, sizeof want, "%s  n = 0 .. 67108864\n", head);
    line(head, sizeof head, "01.c inclusive scan, any n, n=5", "OK", 0.25, 1, 1); /* alone: as before */
    strcat(want, head);
    ck_assert_str_eq(report(), want);
}
END_TEST

START_TEST(passes_then_failures_of_one_part)
{
    open_report(0);
    for (int i = 0; i < NSIZES; i++)
        add_n("b", SIZES[i], SIZES[i] <= 1024 ? "OK" : "FAIL", SIZES[i] <= 1024 ? NULL : "block sums lost",
              NULL);
    const char *got = report();
    ck_assert_int_eq(count(got, "\n"), 4);
    ck_assert_ptr_nonnull(strstr(got, "01.b inclusive scan, any n: 7 tests "));
    ck_assert_ptr_nonnull(strstr(got, " OK        1.75s  7/7  n = 0 .. 1024\n"));
    ck_assert_ptr_nonnull(strstr(got, " FAIL      1.00s  0/4\n    block sums lost\n    n = 1025, 65537, 4194307, 67108864\n"));
}
END_TEST

START_TEST(empty_flush_prints_nothing)
{
    open_report(0);
    pl_summary_flush(sum);
    pl_summary_flush(sum);
    ck_assert_str_eq(report(), "");
    ck_assert_uint_eq(text_len, 0);
    pl_summary_free(NULL);
}
END_TEST

START_TEST(flush_prints_pending_group_once)
{
    open_report(0);
    add_n("b", 1, "FAIL", STUB_REASON, NULL);
    add_n("b", 2, "FAIL", STUB_REASON, NULL);
    ck_assert_uint_eq(text_len, 0); /* the group may still grow */
    pl_summary_flush(sum);
    size_t printed = text_len;
    ck_assert_uint_gt(printed, 0); /* flushed to the stream, so visible at once */
    pl_summary_flush(sum);
    ck_assert_uint_eq(text_len, printed);
    const char *got = report();
    ck_assert_int_eq(count(got, "2 of 2") + count(got, "2 tests"), 1);
}
END_TEST

/* ------------------------------------------------------------- limits */

START_TEST(long_inputs)
{
    enum { N = 600 };
    char reason[201], detail[2049], size[32];
    memset(detail, 'd', sizeof detail - 1);
    detail[sizeof detail - 1] = '\0';
    open_report(0);
    for (int i = 0; i < N; i++) {
        memset(reason, 'r', sizeof reason - 1);
        snprintf(reason + 190, 11, " at %06u", (unsigned)i % 1000000u);
        snprintf(size, sizeof size, "n=%d", 1000 + i);
        add("b", size, "FAIL", reason, detail, 0);
    }
    add("c", "n=1", "FAIL", reason, detail, 0);
    const char *got = report();
    ck_assert_ptr_nonnull(strstr(got, ": 600 tests "));
    ck_assert_int_eq(count(got, "\n"), 6);
    const char *sizes = strstr(got, "\n    n = 1000, 1001,");
    ck_assert_ptr_nonnull(sizes);
    size_t len = strcspn(sizes + 1, "\n");
    ck_assert_uint_le(len, 4 + 4 + 300 + 5);
    ck_assert_int_eq(strncmp(sizes + 1 + len - 5, ", ...", 5), 0);
    ck_assert_int_eq(count(got, detail), 1); /* the single test's, whole */
    ck_assert_ptr_nonnull(strstr(got, " at #\n"));
}
END_TEST

START_TEST(sizes_with_params)
{
    open_report(0);
    add("b", "n=1, keep=0.5", "FAIL", STUB_REASON, NULL, 0);
    add("b", "n=2, keep=0.5", "FAIL", STUB_REASON, NULL, 0);
    add("c", "n=1, keep=0.5", "OK", NULL, NULL, 0);
    add("c", "n=2, keep=0.9", "OK", NULL, NULL, 0);
    add("d", "n=7 (hidden)", "OK", NULL, NULL, 0);
    add("d", "n=3 (hidden)", "OK", NULL, NULL, 0);
    add("e", "m=8", "OK", NULL, NULL, 0);
    add("e", "m=2", "OK", NULL, NULL, 0);
    add("e", "m=5", "OK", NULL, NULL, 0);
    const char *got = report();
    ck_assert_ptr_nonnull(strstr(got, "\n    n=1, keep=0.5; n=2, keep=0.5\n"));
    ck_assert_ptr_nonnull(strstr(got, "  n=1, keep=0.5 .. n=2, keep=0.9\n"));
    ck_assert_ptr_nonnull(strstr(got, "  n = 7 (hidden) .. 3 (hidden)\n")); /* not numbers: in order */
    ck_assert_ptr_nonnull(strstr(got, "  m = 2 .. 8\n"));
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("summary");
    TCase *t = tcase_create("core");
    tcase_add_checked_fixture(t, NULL, teardown);
    tcase_add_test(t, stub_failures_are_one_group);
    tcase_add_test(t, numbers_do_not_split_a_group);
    tcase_add_loop_test(t, diagnoses_group_up_to_numbers, 0, sizeof DIAGNOSES / sizeof DIAGNOSES[0]);
    tcase_add_test(t, different_reasons_print_alone);
    tcase_add_test(t, part_or_status_change_splits);
    tcase_add_test(t, performance_tests_never_group);
    tcase_add_test(t, performance_pass_shows_its_reason);
    tcase_add_test(t, single_failure_prints_as_before);
    tcase_add_test(t, not_run_says_not_run_here);
    tcase_add_test(t, verbose_prints_every_test);
    tcase_add_test(t, passing_tests_group);
    tcase_add_test(t, passes_then_failures_of_one_part);
    tcase_add_test(t, empty_flush_prints_nothing);
    tcase_add_test(t, flush_prints_pending_group_once);
    suite_add_tcase(s, t);

    t = tcase_create("limits");
    tcase_add_checked_fixture(t, NULL, teardown);
    tcase_add_test(t, long_inputs);
    tcase_add_test(t, sizes_with_params);
    suite_add_tcase(s, t);
    return s;
}
