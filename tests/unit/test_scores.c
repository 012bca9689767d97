/* tests/unit/test_scores.c: Check tests of the scores module
 * (harness/parent/scores.c, the rows; harness/parent/results.c, what is
 * made from them): a row in, the exact TSV, results.json, Autolab line, TAP
 * and JUnit XML out; escaping of tabs, newlines and odd bytes; the rows of
 * a lab not graded and of tests not reached; what a run without a GPU
 * decides. Each test writes to memory and compares the text. Pure C:
 *
 *   cc -std=c11 -Wall -Wextra -g -fsanitize=address,undefined tests/unit/test_scores.c \
 *      harness/parent/scores.c harness/parent/results.c -o /tmp/test_scores \
 *      $(pkg-config --cflags --libs check) && /tmp/test_scores
 */
#define _POSIX_C_SOURCE 200809L
#include "../../harness/parent/bugs.h"
#include "../../harness/parent/diagnose.h"
#include "../../harness/parent/results.h"
#include "../../harness/parent/scores.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *text;
static size_t text_len;

/* The text a writer prints, in a static buffer of the test. */
#define CAPTURE(call)                                                                                                  \
    do {                                                                                                               \
        free(text);                                                                                                    \
        text = NULL;                                                                                                   \
        FILE *f = open_memstream(&text, &text_len);                                                                    \
        call;                                                                                                          \
        fclose(f);                                                                                                     \
    } while (0)

static pl_score row(const char *lab, const char *name, const char *status, double points, double max,
                    const char *reason, const char *detail, const char *cause)
{
    pl_score r = {.name = (char *)name, .reason = (char *)reason, .detail = (char *)detail, .points = points,
                  .max = max, .seconds = 0.25};
    snprintf(r.lab, sizeof r.lab, "%s", lab);
    snprintf(r.kind, sizeof r.kind, "correctness");
    snprintf(r.status, sizeof r.status, "%s", status);
    snprintf(r.cause, sizeof r.cause, "%s", cause);
    return r;
}

/* The rows as a scores file would give them back. */
static void round_trip(const pl_score *rows, int n, pl_scores *out)
{
    char path[] = "/tmp/primlab-test-scores-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    FILE *f = pl_scores_open(path);
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(pl_score_write(f, &rows[i]), 0);
    fclose(f);
    memset(out, 0, sizeof *out);
    ck_assert_int_eq(pl_scores_read(out, path), 0);
    unlink(path);
}

static void teardown(void)
{
    free(text);
    text = NULL;
}

/* ------------------------------------------------------------------ rows */

START_TEST(one_row_exact_tsv)
{
    pl_score r = row("01", "01.a scan, n=33", "FAIL", 0, 1, "shifted by one", "line 1\nline 2", "");
    CAPTURE(pl_score_write(f, &r));
    ck_assert_str_eq(text, "01\t01.a scan, n=33\tcorrectness\t0\tFAIL\t0.0000\t1\t0.250\t\tshifted by one\t"
                           "line 1\\nline 2\t\t\t\t\n");
}
END_TEST

/* The bug classes and a performance test's target go out and come back as
   fields: the class report counts by them, not by a reason's words. */
START_TEST(bugs_and_target_round_trip)
{
    pl_score r[2] = {row("01", "01.b scan, n=1025", "FAIL", 0, 1, "errors start at a block boundary", "", ""),
                     row("08", "08.c performance", "OK", 1.5, 2, "0.8 ms", "", "")};
    snprintf(r[0].bugs, sizeof r[0].bugs, "block_boundary,race");
    snprintf(r[1].kind, sizeof r[1].kind, "performance");
    snprintf(r[1].value, sizeof r[1].value, "0.8500");
    snprintf(r[1].target, sizeof r[1].target, "0.9");
    CAPTURE(pl_score_write(f, &r[0]));
    ck_assert_ptr_nonnull(strstr(text, "\tblock_boundary,race\t\t\n"));
    pl_scores s;
    round_trip(r, 2, &s);
    ck_assert_int_eq(s.n, 2);
    ck_assert_str_eq(s.rows[0].bugs, "block_boundary,race");
    ck_assert_str_eq(s.rows[0].target, "");
    ck_assert_str_eq(s.rows[1].bugs, "");
    ck_assert_str_eq(s.rows[1].target, "0.9");
    ck_assert_str_eq(s.rows[1].value, "0.8500");
    pl_scores_free(&s);
}
END_TEST

/* A test scored by its roof: its fraction of the roof in value and target,
   its ratio to the vendor in the ratio column, last (scores.h). Back as
   fields; pl_score_ratio reads the ratio, and in a row from before the
   column (13 tabs), the value. results.json's leaderboard takes the ratio. */
START_TEST(ratio_column_round_trip)
{
    pl_score r[2] = {row("02", "02.b performance vs its roof, n=16777216", "OK", 2, 2, "59.6% of its roof", "", ""),
                     row("04", "04.c performance vs the vendor library, n=16777216, keep=0.5", "OK", 2, 2, "", "",
                         "")};
    for (int i = 0; i < 2; i++)
        snprintf(r[i].kind, sizeof r[i].kind, "performance");
    snprintf(r[0].value, sizeof r[0].value, "0.5955");
    snprintf(r[0].target, sizeof r[0].target, "0.22");
    snprintf(r[0].ratio, sizeof r[0].ratio, "0.6480");
    snprintf(r[1].value, sizeof r[1].value, "0.8500");
    snprintf(r[1].target, sizeof r[1].target, "0.5");
    snprintf(r[1].ratio, sizeof r[1].ratio, "0.8500");
    CAPTURE(pl_score_write(f, &r[0]));
    ck_assert_ptr_nonnull(strstr(text, "\t0.5955\t59.6% of its roof\t\t\t\t0.22\t0.6480\n"));
    pl_scores s;
    round_trip(r, 2, &s);
    ck_assert_int_eq(s.n, 2);
    ck_assert_str_eq(s.rows[0].value, "0.5955");
    ck_assert_str_eq(s.rows[0].target, "0.22");
    ck_assert_str_eq(s.rows[0].ratio, "0.6480");
    ck_assert_double_eq_tol(pl_score_ratio(&s.rows[0]), 0.648, 1e-12);
    ck_assert_double_eq_tol(pl_score_ratio(&s.rows[1]), 0.85, 1e-12);
    /* each lab correct, so that its ratios count on the boards (board.h) */
    pl_score ok[2] = {row("02", "02.a", "OK", 1, 1, "", "", ""), row("04", "04.a", "OK", 1, 1, "", "", "")};
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pl_scores_add(&s, &ok[i]), 0);
    CAPTURE(pl_write_gradescope(f, &s, NULL));
    ck_assert_ptr_nonnull(strstr(text, "{\"name\": \"02.b performance vs its roof, n=16777216\", \"value\": 0.6480, "));
    ck_assert_ptr_nonnull(strstr(text, "\"value\": 0.8500, \"order\""));
    pl_scores_free(&s);
    /* a file from before the column: its value is its ratio */
    char path[] = "/tmp/primlab-test-scores-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "01\t01.b performance vs the vendor library, n=16777216\tperformance\t0\tOK\t2.0000\t2\t1.200\t"
               "0.3000\t0.3000x the vendor library\t\t\t\t0.15\n");
    fprintf(f, "01\t01.c performance vs the vendor library, n=16777216\tperformance\t0\tFAIL\t0.0000\t2\t1.200\t"
               "\twrong\t\t\t\t0.15\n");
    fclose(f);
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(pl_scores_read(&s, path), 0);
    unlink(path);
    ck_assert_int_eq(s.n, 2);
    ck_assert_str_eq(s.rows[0].target, "0.15");
    ck_assert_str_eq(s.rows[0].ratio, "");
    ck_assert_double_eq_tol(pl_score_ratio(&s.rows[0]), 0.3, 1e-12);
    ck_assert(isnan(pl_score_ratio(&s.rows[1])));
    pl_scores_free(&s);
}
END_TEST

/* The class list: codes unique and well formed, findings mapped, the
   comma-separated list kept without repeats. */
START_TEST(bug_classes)
{
    int n;
    const pl_bug_class *c = pl_bug_classes(&n);
    ck_assert_int_gt(n, 20);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(strspn(c[i].code, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(c[i].code), "%s",
                      c[i].code);
        ck_assert_ptr_eq(pl_bug_class_find(c[i].code), &c[i]);
        ck_assert(c[i].title && *c[i].title && c[i].hint && *c[i].hint);
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(c[i].code, c[j].code);
    }
    ck_assert_ptr_null(pl_bug_class_find("no_such_class"));
    ck_assert_str_eq(pl_bug_of_finding(PL_F_BLOCK), "block_boundary");
    ck_assert_str_eq(pl_bug_of_finding(PL_F_SHIFT_LEFT), "shift_by_one");
    ck_assert_str_eq(pl_bug_of_finding(PL_F_KEPT_DROPPED), "kept_dropped");
    ck_assert_ptr_null(pl_bug_of_finding(0));
    char list[24] = "";
    pl_bug_add(list, sizeof list, "hang_empty");
    pl_bug_add(list, sizeof list, "race");
    pl_bug_add(list, sizeof list, "hang_empty");
    pl_bug_add(list, sizeof list, "block_boundary"); /* does not fit: left out whole */
    ck_assert_str_eq(list, "hang_empty,race");
    ck_assert(pl_bug_has(list, "race") && !pl_bug_has(list, "rac") && !pl_bug_has(list, "hang"));
}
END_TEST

START_TEST(header_once_and_skipped)
{
    char path[] = "/tmp/primlab-test-scores-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    pl_score r = row("02", "t", "OK", 1, 1, "", "", "");
    for (int k = 0; k < 2; k++) { /* two lab binaries, one after the other */
        FILE *f = pl_scores_open(path);
        pl_score_write(f, &r);
        fclose(f);
    }
    FILE *f = fopen(path, "r");
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "# " PL_SCORES_COLUMNS "\n");
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        ck_assert_int_ne(line[0], '#');
        n++;
    }
    fclose(f);
    ck_assert_int_eq(n, 2);
    pl_scores s = {0};
    ck_assert_int_eq(pl_scores_read(&s, path), 0);
    unlink(path);
    ck_assert_int_eq(s.n, 2);
    pl_scores_free(&s);
}
END_TEST

/* Every byte a reason can hold comes back as it went in, and the TSV line
   stays one line of fourteen fields. */
static const char *const ODD[] = {
    "a tab\there, a newline\nthere",
    "a backslash \\ and \\n that is not a newline",
    "a carriage return\r, a bell \a, an escape \x1b[31m and DEL \x7f",
    "UTF-8 \xc3\xa9\xe2\x82\xac and bytes that are not: \xff\xfe\x80",
    "\\x41 is not an A",
};

START_TEST(odd_bytes_round_trip)
{
    pl_score r = row("03", ODD[_i], "FAIL", 0, 2, ODD[_i], ODD[_i], "");
    CAPTURE(pl_score_write(f, &r));
    int tabs = 0, newlines = 0;
    for (const char *c = text; *c; c++) {
        tabs += *c == '\t', newlines += *c == '\n';
        ck_assert_msg(*c == '\t' || *c == '\n' || (unsigned char)*c >= 0x20, "raw byte 0x%02x", (unsigned char)*c);
        ck_assert_int_ne((unsigned char)*c, 0x7f);
    }
    ck_assert_int_eq(tabs, 14); /* 15 columns */
    ck_assert_int_eq(newlines, 1);
    pl_scores s;
    round_trip(&r, 1, &s);
    ck_assert_int_eq(s.n, 1);
    ck_assert_str_eq(s.rows[0].name, ODD[_i]);
    ck_assert_str_eq(s.rows[0].reason, ODD[_i]);
    ck_assert_str_eq(s.rows[0].detail, ODD[_i]);
    pl_scores_free(&s);
}
END_TEST

START_TEST(escape_truncates_whole)
{
    char out[6];
    pl_score_escape("ab\tc", out, sizeof out); /* "ab\t" is 4 bytes, "c" would fit, "\t" not whole */
    ck_assert_str_eq(out, "ab\\tc");
    pl_score_escape("abcd\n", out, sizeof out);
    ck_assert_str_eq(out, "abcd");
}
END_TEST

/* Rows from before the cause column: a lab not graded is told by its
   status. */
START_TEST(rows_without_cause)
{
    char path[] = "/tmp/primlab-test-scores-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "02\tlab 02 (02-blelloch-scan)\tcorrectness\t0\tNOBUILD\t0\t43\t0\t\tdoes not compile\t\n");
    fprintf(f, "01\t01.a, n=0\tcorrectness\t1\tOK\t1.0000\t1\t0.1\t\t\t\n");
    fclose(f);
    pl_scores s = {0};
    ck_assert_int_eq(pl_scores_read(&s, path), 0);
    unlink(path);
    ck_assert_int_eq(s.n, 2);
    ck_assert_str_eq(s.rows[0].cause, PL_CAUSE_NOBUILD);
    ck_assert_str_eq(s.rows[1].cause, "");
    ck_assert_int_eq(s.rows[1].hidden, 1);
    ck_assert_ptr_eq(pl_scores_find_cause(&s, "02", PL_CAUSE_NOBUILD), &s.rows[0]);
    ck_assert_ptr_null(pl_scores_find_cause(&s, "01", PL_CAUSE_NOBUILD));
    double got, max;
    pl_scores_total(&s, NULL, &got, &max);
    ck_assert_double_eq_tol(got, 1, 1e-12);
    ck_assert_double_eq_tol(max, 44, 1e-12);
    pl_scores_free(&s);
}
END_TEST

START_TEST(not_graded_row)
{
    pl_score r;
    char name[64];
    pl_score_not_graded(&r, "04", PL_CAUSE_MISSING, 57, name, sizeof name, "04-compaction",
                        "subs/04-compaction/compaction.cu: missing");
    CAPTURE(pl_score_write(f, &r));
    ck_assert_str_eq(text, "04\tlab 04 (04-compaction)\tcorrectness\t0\tMISSING\t0.0000\t57\t0.000\t\t"
                           "subs/04-compaction/compaction.cu: missing\t\tMISSING\t\t\t\n");
    pl_score_not_graded(&r, "05", PL_CAUSE_NOBUILD, 80.5, name, sizeof name, "05-radix-sort",
                        "x.cu: does not compile: hint\twith a tab");
    pl_scores s;
    round_trip(&r, 1, &s);
    ck_assert_str_eq(s.rows[0].status, "NOBUILD");
    ck_assert_str_eq(s.rows[0].cause, "NOBUILD");
    ck_assert_str_eq(s.rows[0].reason, "x.cu: does not compile: hint\twith a tab");
    ck_assert_double_eq_tol(s.rows[0].max, 80.5, 1e-12);
    CAPTURE(pl_write_score_line(f, &s, 1));
    ck_assert_str_eq(text, "Score: 0/80.50\n");
    pl_scores_free(&s);
}
END_TEST

START_TEST(not_run_row)
{
    pl_score r;
    pl_score_not_run(&r, "01", "01.c performance vs the vendor library, n=16777216", 1, 1, 2);
    CAPTURE(pl_score_write(f, &r));
    ck_assert_str_eq(text, "01\t01.c performance vs the vendor library, n=16777216\tperformance\t1\tERROR\t0.0000\t2\t"
                           "0.000\t\tnot run: grading stopped before this test (a time limit?)\t\tNOTRUN\t\t\t\n");
}
END_TEST

/* --------------------------------------------------------- derived files */

START_TEST(gradescope_exact)
{
    pl_score r[2] = {row("01", "01.a scan \"q\", n=9", "FAIL", 0, 1, "shifted\tby one", "d\\e", ""),
                     row("01", "01.b perf", "OK", 1.5, 2, "0.8x", "", "")};
    r[1].hidden = 1;
    snprintf(r[1].kind, sizeof r[1].kind, "performance");
    snprintf(r[1].value, sizeof r[1].value, "0.8000");
    pl_scores s;
    round_trip(r, 2, &s);
    CAPTURE(pl_write_gradescope(f, &s, "ignored: notes.txt\n"));
    ck_assert_str_eq(text,
                     "{\n  \"score\": 1.5000,\n  \"execution_time\": 0.5,\n"
                     "  \"output\": \"lab01: 1.50/3\\ntotal: 1.50/3\\nignored: notes.txt\\n\",\n"
                     "  \"output_format\": \"text\",\n  \"visibility\": \"visible\",\n"
                     "  \"stdout_visibility\": \"hidden\",\n  \"tests\": [\n"
                     "    {\"score\": 0.0000, \"max_score\": 1, \"status\": \"failed\", \"name\": \"01.a scan \\\"q\\\", n=9\", "
                     "\"number\": \"01.1\", \"output\": \"FAIL (0.25s)\\nshifted\\tby one\\nd\\\\e\", "
                     "\"tags\": [\"lab01\", \"correctness\"], \"visibility\": \"visible\"},\n"
                     "    {\"score\": 1.5000, \"max_score\": 2, \"status\": \"failed\", \"name\": \"01.b perf\", "
                     "\"number\": \"01.2\", \"output\": \"OK (0.25s)\\n0.8x\", "
                     "\"tags\": [\"lab01\", \"performance\"], \"visibility\": \"after_due_date\"}\n  ],\n"
                     "  \"leaderboard\": []\n}\n");
    pl_scores_free(&s);
}
END_TEST

/* results.json's leaderboard is the boards' (harness/serve/board.h): a
   lab's ratios only when its correctness tests all passed, none of a row
   that called the vendor library, and the lab's geometric mean when every
   one of its tests counts. */
START_TEST(gradescope_leaderboard)
{
    pl_score r[] = {row("01", "01.a", "OK", 1, 1, "", "", ""),   row("01", "01.b perf", "OK", 1.5, 2, "", "", ""),
                    row("01", "01.c perf", "OK", 1, 2, "", "", ""), row("02", "02.a", "FAIL", 0, 1, "", "", ""),
                    row("02", "02.b perf", "OK", 2, 2, "", "", ""), row("03", "03.a", "OK", 1, 1, "", "", ""),
                    row("03", "03.b perf", "OK", 0, 2, "", "", ""), row("03", "03.c perf", "OK", 2, 2, "", "", "")};
    const char *value[] = {"", "0.8000", "0.5000", "", "0.9000", "", "7.0000", "0.6000"};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (*value[i]) {
            snprintf(r[i].kind, sizeof r[i].kind, "performance");
            snprintf(r[i].value, sizeof r[i].value, "%s", value[i]);
        }
    snprintf(r[6].bugs, sizeof r[6].bugs, "calls_vendor");
    pl_scores s;
    round_trip(r, sizeof r / sizeof r[0], &s);
    CAPTURE(pl_write_gradescope(f, &s, ""));
    const char *lb = strstr(text, "\"leaderboard\"");
    ck_assert_ptr_nonnull(lb);
    ck_assert_str_eq(lb, "\"leaderboard\": [\n"
                         "    {\"name\": \"01.b perf\", \"value\": 0.8000, \"order\": \"desc\"},\n"
                         "    {\"name\": \"01.c perf\", \"value\": 0.5000, \"order\": \"desc\"},\n"
                         "    {\"name\": \"lab01 geometric mean\", \"value\": 0.6325, \"order\": \"desc\"},\n"
                         "    {\"name\": \"03.c perf\", \"value\": 0.6000, \"order\": \"desc\"}\n  ]\n}\n");
    pl_scores_free(&s);
}
END_TEST

START_TEST(json_odd_bytes)
{
    CAPTURE(pl_json_string(f, "\x01 \xc3\xa9 \xff \xe2\x82 \xed\xa0\x80 \xf0\x9f\x98\x80"));
    /* a control byte as \u, UTF-8 kept, a stray byte, a cut sequence and a
       surrogate each as U+FFFD */
    ck_assert_str_eq(text, "\"\\u0001 \xc3\xa9 \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd \xf0\x9f\x98\x80\"");
}
END_TEST

START_TEST(autolab_subtotals_and_gradebook)
{
    pl_score r[3] = {row("01", "a", "OK", 1, 1, "", "", ""), row("02", "b", "OK", 0.5, 1, "", "", ""),
                     row("02", "c", "FAIL", 0, 2, "", "", "")};
    pl_scores s;
    round_trip(r, 3, &s);
    const char *labs[] = {"01", "02"};
    CAPTURE(pl_write_autolab(f, &s, labs, 2));
    ck_assert_str_eq(text, "{\"scores\": {\"Lab01\": 1, \"Lab02\": 0.5}, \"scoreboard\": [1.5, 1, 0.5]}\n");
    CAPTURE(pl_write_subtotals(f, &s));
    ck_assert_str_eq(text, "lab01 subtotal: 1/1\nlab02 subtotal: 0.50/3\n");
    CAPTURE(pl_write_gradebook_row(f, &s, "alice", labs, 2));
    ck_assert_str_eq(text, "alice,1,0.50,1.50\n");
    CAPTURE(pl_write_score_line(f, &s, 1));
    ck_assert_str_eq(text, "Score: 1.50/4\n");
    ck_assert_int_eq(pl_scores_full(&s), 0);
    ck_assert_ptr_null(pl_autolab_refused(&s));
    pl_scores_free(&s);
}
END_TEST

START_TEST(tap_exact)
{
    pl_score r[3] = {row("01", "01.a, n=0", "OK", 1, 1, "", "", ""),
                     row("01", "01.a, n=1", "FAIL", 0, 1, "wrong # of elements\n(2)", "", ""),
                     row("02", "02.a, n=0", "OK", 1, 1, "", "", "")};
    pl_scores s;
    round_trip(r, 3, &s);
    CAPTURE(pl_write_tap(f, &s, "01"));
    ck_assert_str_eq(text, "1..2\nok 1 - 01.a, n=0\nnot ok 2 - 01.a, n=1: FAIL: wrong \\# of elements (2)\n");
    pl_scores_free(&s);
}
END_TEST

START_TEST(junit_exact)
{
    pl_score r[4] = {row("01", "01.a, n=0", "OK", 1, 1, "", "", ""),
                     row("01", "01.a <n=1> & \"more\"", "FAIL", 0, 1, "off by one\xff", "index 3\n", ""),
                     row("01", "01.b, n=5", "SKIP", 0, 1, "no GPU (none)", "", PL_CAUSE_NOGPU),
                     row("02", "02.a", "OK", 1, 1, "", "", "")};
    pl_scores s;
    round_trip(r, 4, &s);
    CAPTURE(pl_write_junit(f, &s, "01"));
    ck_assert_str_eq(text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                           "<testsuites name=\"primlab\" tests=\"3\" failures=\"1\" skipped=\"1\" time=\"0.750\">\n"
                           "  <testsuite name=\"lab01\" tests=\"3\" failures=\"1\" skipped=\"1\" time=\"0.750\">\n"
                           "    <testcase classname=\"lab01\" name=\"01.a, n=0\" time=\"0.250\"/>\n"
                           "    <testcase classname=\"lab01\" name=\"01.a &lt;n=1&gt; &amp; &quot;more&quot;\" "
                           "time=\"0.250\">\n"
                           "      <failure type=\"FAIL\" message=\"off by one\xef\xbf\xbd\">index 3&#10;</failure>\n"
                           "    </testcase>\n"
                           "    <testcase classname=\"lab01\" name=\"01.b, n=5\" time=\"0.250\">\n"
                           "      <skipped message=\"no GPU (none)\"/>\n"
                           "    </testcase>\n"
                           "  </testsuite>\n"
                           "</testsuites>\n");
    pl_scores_free(&s);
}
END_TEST

/* ------------------------------------------------------------- decisions */

START_TEST(no_gpu_has_no_score)
{
    char reason[200];
    pl_reason_no_gpu(reason, sizeof reason, "PRIMLAB_NO_GPU is set");
    ck_assert_str_eq(reason, "no GPU (PRIMLAB_NO_GPU is set)");
    pl_score r[2] = {row("01", "a", "SKIP", 0, 1, reason, "", PL_CAUSE_NOGPU),
                     row("02", "lab 02 (02-x)", "NOBUILD", 0, 5, "x.cu: does not compile", "", PL_CAUSE_NOBUILD)};
    pl_scores s;
    round_trip(r, 2, &s);
    ck_assert_ptr_eq(pl_scores_no_gpu(&s), &s.rows[0]);
    CAPTURE(pl_write_score_line(f, &s, 1));
    ck_assert_str_eq(text, "Score: none, no test could run on this machine: no GPU (PRIMLAB_NO_GPU is set)\n");
    CAPTURE(pl_write_score_line(f, &s, 0)); /* a class's summary keeps 0 of the maximum */
    ck_assert_str_eq(text, "Score: 0/6\n");
    ck_assert_str_eq(pl_autolab_refused(&s), "no scores for Autolab: no test could run on this machine (status 3)");
    char why[64];
    pl_no_gpu_why(&s.rows[0], why, sizeof why);
    ck_assert_str_eq(why, "PRIMLAB_NO_GPU is set");
    pl_no_gpu_why(&s.rows[1], why, sizeof why);
    ck_assert_str_eq(why, "");
    pl_scores_free(&s);
}
END_TEST

/* Rows with no score give one answer: the Score line, results.json (no
   score, no test, the reason and the labs not graded in its output), the
   gradebook row (blank); a dry run has none even where no lab compiled. */
START_TEST(no_score_one_answer)
{
    pl_score r[2] = {row("01", "a", "SKIP", 0, 1, "no GPU (nvidia-smi lists none)", "", PL_CAUSE_NOGPU),
                     row("02", "lab 02 (02-x)", "NOBUILD", 0, 5, "02-x/x.cu: does not compile", "", PL_CAUSE_NOBUILD)};
    pl_scores s;
    round_trip(r, 2, &s);
    ck_assert_str_eq(pl_scores_unscored(&s, 0), "no GPU (nvidia-smi lists none)");
    ck_assert_str_eq(pl_scores_unscored(&s, 1), "no GPU (nvidia-smi lists none)");
    CAPTURE(pl_write_no_score_line(f, pl_scores_unscored(&s, 0)));
    ck_assert_str_eq(text, "Score: none, no test could run on this machine: no GPU (nvidia-smi lists none)\n");
    CAPTURE(pl_write_gradescope_not_run(f, &s, "graded: x.cu\n", pl_scores_unscored(&s, 0)));
    ck_assert_str_eq(text, "{\n  \"execution_time\": 0.0,\n"
                           "  \"output\": \"No score: the tests did not run on the grading machine: no GPU (nvidia-smi "
                           "lists none).\\nlab02: 02-x/x.cu: does not compile\\ngraded: x.cu\\n\",\n"
                           "  \"output_format\": \"text\",\n  \"visibility\": \"visible\",\n"
                           "  \"stdout_visibility\": \"hidden\",\n  \"tests\": [],\n  \"leaderboard\": []\n}\n");
    CAPTURE(pl_write_gradebook_blank(f, "alice", 2));
    ck_assert_str_eq(text, "alice,,,\n");
    pl_scores_free(&s);
    /* nothing compiled, so no test needed a GPU: scored, unless dry */
    round_trip(&r[1], 1, &s);
    ck_assert_ptr_null(pl_scores_unscored(&s, 0));
    ck_assert_str_eq(pl_scores_unscored(&s, 1), PL_DRY_REASON);
    pl_scores_free(&s);
}
END_TEST

/* A reason that merely reads like a missing GPU decides nothing: only the
   cause does. */
START_TEST(no_gpu_is_the_cause_not_the_words)
{
    pl_score r = row("01", "a", "SKIP", 0, 1, "no GPU (said the code)", "", "");
    pl_scores s;
    round_trip(&r, 1, &s);
    ck_assert_ptr_null(pl_scores_no_gpu(&s));
    CAPTURE(pl_write_score_line(f, &s, 1));
    ck_assert_str_eq(text, "Score: 0/1\n");
    pl_scores_free(&s);
}
END_TEST

START_TEST(machine_fault_lines)
{
    pl_score r[3] = {row("01", "a", "SKIP", 0, 1, "no GPU (no usable CUDA driver (libcuda missing))", "", PL_CAUSE_NOGPU),
                     row("02", "b", "ERROR", 0, 1, "the yardstick's worker (build/vendor/lab02-worker) did not start",
                         "", PL_CAUSE_NOWORKER),
                     row("03", "c", "ERROR", 0, 1, "the worker did not start", "", "")};
    pl_scores s;
    round_trip(r, 3, &s);
    char line[512];
    pl_machine_fault(&s, "01", line, sizeof line);
    ck_assert_str_eq(line, "the grading machine has no GPU (not your code): no usable CUDA driver (libcuda missing); "
                           "PRIMLAB_NO_GPU=1 runs without one, a practice run with no scores");
    pl_machine_fault(&s, "02", line, sizeof line);
    ck_assert_str_eq(line, "the grading machine cannot start the kit's worker of lab02 (not your code): the "
                           "yardstick's worker (build/vendor/lab02-worker) did not start");
    pl_machine_fault(&s, "03", line, sizeof line);
    ck_assert_str_eq(line, "the grading machine cannot start the kit's worker of lab03 (not your code): the lab "
                           "binary says so (status 3)");
    pl_scores_free(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scores");
    TCase *t = tcase_create("rows");
    tcase_add_checked_fixture(t, NULL, teardown);
    tcase_add_test(t, one_row_exact_tsv);
    tcase_add_test(t, bugs_and_target_round_trip);
    tcase_add_test(t, ratio_column_round_trip);
    tcase_add_test(t, bug_classes);
    tcase_add_test(t, header_once_and_skipped);
    tcase_add_loop_test(t, odd_bytes_round_trip, 0, sizeof ODD / sizeof ODD[0]);
    tcase_add_test(t, escape_truncates_whole);
    tcase_add_test(t, rows_without_cause);
    tcase_add_test(t, not_graded_row);
    tcase_add_test(t, not_run_row);
    suite_add_tcase(s, t);

    t = tcase_create("derived");
    tcase_add_checked_fixture(t, NULL, teardown);
    tcase_add_test(t, gradescope_exact);
    tcase_add_test(t, gradescope_leaderboard);
    tcase_add_test(t, json_odd_bytes);
    tcase_add_test(t, autolab_subtotals_and_gradebook);
    tcase_add_test(t, tap_exact);
    tcase_add_test(t, junit_exact);
    suite_add_tcase(s, t);

    t = tcase_create("decisions");
    tcase_add_checked_fixture(t, NULL, teardown);
    tcase_add_test(t, no_gpu_has_no_score);
    tcase_add_test(t, no_gpu_is_the_cause_not_the_words);
    tcase_add_test(t, no_score_one_answer);
    tcase_add_test(t, machine_fault_lines);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
