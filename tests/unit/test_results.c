/* tests/unit/test_results.c: Check tests of the scores file
 * (harness/parent/results.h): escaped reasons read back, totals per lab. */
#define _GNU_SOURCE
#include "../../harness/parent/results.h"
#include "../../harness/parent/rubric.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The gradebook's rows: the points, or the maximum, of each lab listed and
   their sum; a lab not listed counts in neither. */
START_TEST(gradebook_rows)
{
    pl_scores s = {0};
    pl_score r[] = {{.lab = "01", .points = 1, .max = 2}, {.lab = "01", .points = 0.5, .max = 3},
                    {.lab = "02", .points = 4, .max = 4}, {.lab = "03", .points = 7, .max = 9}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        pl_scores_add(&s, &r[i]);
    const char *labs[] = {"01", "02"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pl_write_gradebook_row(f, &s, "ann", labs, 2);
    pl_write_gradebook_max(f, &s, "Points Possible", labs, 2);
    pl_write_gradebook_row(f, &s, "all", NULL, 0);
    fclose(f);
    ck_assert_str_eq(buf, "ann,1.50,4,5.50\nPoints Possible,5,4,9\nall,12.50\n");
    free(buf);
    pl_scores_free(&s);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("results");
    TCase *t;
    t = tcase_create("results");
    tcase_add_test(t, scores_round_trip);
    tcase_add_test(t, gradebook_rows);
    suite_add_tcase(s, t);
    return s;
}
