/* tests/unit/test_board.c: Check tests of the leaderboard
 * (harness/serve/board.c), run from the repository's root by `make test`.
 *
 * The fixture tests/fixtures/board holds one folder per job, each with its
 * scores.tsv and the results.json build/primlab-results made of it (the
 * entries name results.json, as the service's do). Worked out by hand,
 * lab 01 (tests 01.b and 01.c):
 *   ana   two jobs, bests 0.15 (2nd job) and 0.20 (2nd): 0.173
 *   ben   0.30 and 0.02 (no points, below the target: counted): 0.077
 *   cleo  0.20 and 0.20: 0.200; and a job of lab 02, not on lab 01's board
 *   dev   0.25, and 01.c failed (a value, status FAIL): unranked
 *   eve   1.0 with calls_vendor, 0.9 with no points at a ratio past the
 *         target (refused): no ratio, not listed
 *   fay   0.20 and 0.20 under a hostile display name: ties with cleo
 *   gus   0.11 and 0.11, and a limit test (max 0): no column of its own
 *   hal   a job not run yet (no scores): no ratio, not listed
 *   ivy   0.90 and 0.80 in a job that failed a correctness test (a CUDA
 *         error at n = 31): not counted; then a correct job, 0.12 and
 *         0.14: 0.130, two jobs
 *   jo    0.50 and 0.50 in a job with a correctness test skipped (too
 *         large for the device): not counted, not listed
 * so the ranks are 1, 1, 3, 4, 5, 6 and one unranked. It checks the TSV
 * whole, the HTML (escaped, self-contained, pseudonyms marked), the
 * pseudonyms (keyed, stable, no account shown), the parts
 * (pl_board_rank's numbers), the rule on correctness (a table of jobs, and
 * two real jobs of an H200 in tests/fixtures/board/h200-*: the solution
 * and lab 01's planted oob_fault) and the key file.
 */
#define _GNU_SOURCE
#include "../../harness/parent/class_report.h"
#include "../../harness/serve/board.h"
#include "../lib/check_main.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIXTURE "tests/fixtures/board"
#define B "01.b performance vs the vendor library, n=16777216"
#define C "01.c performance vs the vendor library, n=16777216"
#define HOSTILE "<script>alert('x')</script>\n\"quoted\" & co"

static const unsigned char KEY[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static char tmpdir[256];

static const pl_board_entry ENTRIES[] = {
    {"ana", "Ana", FIXTURE "/ana-1/results.json", "01"},
    {"ben", NULL, FIXTURE "/ben-1/results.json", "01"},
    {"cleo", "", FIXTURE "/cleo-1/results.json", "01"},
    {"ana", "Ana", FIXTURE "/ana-2/results.json", "01"},
    {"cleo", "", FIXTURE "/cleo-2/results.json", "02"},
    {"dev", "  Dev\tthe\nfirst  ", FIXTURE "/dev-1/results.json", "01"},
    {"eve", "Eve", FIXTURE "/eve-1/results.json", "01"},
    {"fay", HOSTILE, FIXTURE "/fay-1/results.json", "01"},
    {"gus", "Gus", FIXTURE "/gus-1", "01"},
    {"hal", "Hal", FIXTURE "/hal-1/results.json", "01"},
    {"ivy", "Ivy", FIXTURE "/ivy-1/results.json", "01"},
    {"ivy", "Ivy", FIXTURE "/ivy-2/results.json", "01"},
    {"jo", "Jo", FIXTURE "/jo-1/results.json", "01"},
};
#define NENTRIES (sizeof ENTRIES / sizeof *ENTRIES)

/* The board of lab from n entries e as format, into a string (malloc'd). */
static char *board_of(const pl_board_entry *e, size_t n, const char *lab, int format, const unsigned char *key)
{
    char *buf = NULL, why[256] = "";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    int rc = pl_board_write(f, lab, e, n, format, key, why, sizeof why);
    fclose(f);
    ck_assert_msg(rc == 0, "pl_board_write: %s", why);
    return buf;
}

static char *board(const char *lab, int format, const unsigned char *key)
{
    return board_of(ENTRIES, NENTRIES, lab, format, key);
}

static char *pseudonym(const char *student)
{
    static char buf[4][32];
    static int k;
    char *p = buf[k++ & 3];
    pl_board_pseudonym(KEY, student, p, sizeof buf[0]);
    return p;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* --------------------------------------------------------------- TSV */

START_TEST(tsv_whole)
{
    char *tsv = board("01", PL_BOARD_TSV, KEY), *want = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&want, &len);
    fprintf(w, "rank\tname\tpseudonym\tjobs\tgeomean\t" B "\t" C "\n");
    /* the tie: fay's name sorts before cleo's pseudonym ('<' < 's') */
    fprintf(w, "1\t<script>alert('x')</script> \"quoted\" & co\t0\t1\t0.200\t0.200\t0.200\n");
    fprintf(w, "1\t%s\t1\t1\t0.200\t0.200\t0.200\n", pseudonym("cleo"));
    fprintf(w, "3\tAna\t0\t2\t0.173\t0.150\t0.200\n");
    fprintf(w, "4\tIvy\t0\t2\t0.130\t0.120\t0.140\n"); /* not 0.90 and 0.80: that job failed 01.a */
    fprintf(w, "5\tGus\t0\t1\t0.110\t0.110\t0.110\n");
    fprintf(w, "6\t%s\t1\t1\t0.077\t0.300\t0.020\n", pseudonym("ben"));
    fprintf(w, "\tDev the first\t0\t1\t\t0.250\t\n");
    fclose(w);
    ck_assert_str_eq(tsv, want);
    free(tsv), free(want);
}
END_TEST

/* Lab 02 from the same entries: cleo's job alone; another lab, none. */
START_TEST(other_labs)
{
    char *tsv = board("02", PL_BOARD_TSV, KEY), want[512];
    snprintf(want, sizeof want,
             "rank\tname\tpseudonym\tjobs\tgeomean\t02.b performance vs the vendor library, n=16777216\n"
             "1\t%s\t1\t1\t0.500\t0.500\n",
             pseudonym("cleo"));
    ck_assert_str_eq(tsv, want);
    free(tsv);
    tsv = board("07", PL_BOARD_TSV, KEY);
    ck_assert_str_eq(tsv, "rank\tname\tpseudonym\tjobs\tgeomean\n");
    free(tsv);
    char *html = board("07", PL_BOARD_HTML_TABLE, KEY);
    ck_assert_ptr_nonnull(strstr(html, "No student has a ratio on this lab yet."));
    free(html);
}
END_TEST

/* ----------------------------------------------------------- the parts */

START_TEST(ranked_numbers)
{
    pl_board *b = pl_board_new();
    for (size_t i = 0; i < NENTRIES; i++)
        ck_assert_int_eq(pl_board_add_entry(b, &ENTRIES[i], KEY), 0);
    const char *labs[8];
    ck_assert_int_eq(pl_board_labs(b, labs, 8), 2);
    ck_assert_str_eq(labs[0], "01");
    ck_assert_str_eq(labs[1], "02");
    pl_board_lab t;
    ck_assert_int_eq(pl_board_rank(b, "01", &t), 0);
    ck_assert_int_eq(t.ntests, 2); /* not gus's limit test: max 0 */
    ck_assert_str_eq(t.tests[0], B);
    ck_assert_str_eq(t.tests[1], C);
    ck_assert_int_eq(t.nrows, 7); /* not eve, not hal, not jo */
    static const int rank[] = {1, 1, 3, 4, 5, 6, 0};
    for (int i = 0; i < t.nrows; i++)
        ck_assert_int_eq(t.rows[i].rank, rank[i]);
    /* ana: best of each test over two jobs, each on its own */
    ck_assert_str_eq(t.rows[2].shown, "Ana");
    ck_assert_int_eq(t.rows[2].jobs, 2);
    ck_assert_double_eq_tol(t.rows[2].best[0], 0.15, 1e-12);
    ck_assert_double_eq_tol(t.rows[2].best[1], 0.20, 1e-12);
    ck_assert_double_eq_tol(t.rows[2].geomean, sqrt(0.15 * 0.20), 1e-12);
    /* ivy: the job that failed a correctness test is one of her jobs, but
       its ratios (0.90, 0.80) are no one's best; the correct job's are */
    ck_assert_str_eq(t.rows[3].shown, "Ivy");
    ck_assert_int_eq(t.rows[3].jobs, 2);
    ck_assert_double_eq_tol(t.rows[3].best[0], 0.12, 1e-12);
    ck_assert_double_eq_tol(t.rows[3].best[1], 0.14, 1e-12);
    /* ben: a ratio below the target with no points still counts */
    ck_assert_double_eq_tol(t.rows[5].geomean, sqrt(0.30 * 0.02), 1e-12);
    ck_assert_int_eq(t.rows[5].pseudonym, 1);
    /* dev: 01.c failed, its value does not count: unranked, no mean */
    ck_assert_str_eq(t.rows[6].shown, "Dev the first");
    ck_assert(isnan(t.rows[6].geomean) && isnan(t.rows[6].best[1]));
    for (int i = 0; i < t.nrows; i++)
        ck_assert_msg(strcmp(t.rows[i].shown, "Eve") && strcmp(t.rows[i].shown, "Hal") && strcmp(t.rows[i].shown, "Jo"),
                      "%s is listed", t.rows[i].shown);
    ck_assert_int_eq(pl_board_rank(b, "99", &t), 0);
    ck_assert_int_eq(t.ntests + t.nrows, 0);
    pl_board_free(b);
}
END_TEST

/* A student's later job that is better replaces one test's best only. */
START_TEST(best_of_each_test)
{
    pl_board *b = pl_board_new();
    pl_scores s = {0};
    pl_score r = {.lab = "01", .kind = "performance", .status = "OK", .target = "0.15", .max = 2, .points = 1};
    r.name = (char *)B;
    strcpy(r.value, "0.1");
    ck_assert_int_eq(pl_scores_add(&s, &r), 0);
    r.name = (char *)C;
    strcpy(r.value, "0.3");
    ck_assert_int_eq(pl_scores_add(&s, &r), 0);
    pl_score ok = {.lab = "01", .kind = "correctness", .status = "OK", .max = 1, .points = 1, .name = (char *)"01.a"};
    ck_assert_int_eq(pl_scores_add(&s, &ok), 0); /* a correct job: its ratios count */
    ck_assert_int_eq(pl_board_add(b, "zed", "Zed", 0, &s), 0);
    strcpy(s.rows[0].value, "0.2"), strcpy(s.rows[1].value, "0.1");
    ck_assert_int_eq(pl_board_add(b, "zed", "Zed", 0, &s), 0);
    pl_board_lab t;
    ck_assert_int_eq(pl_board_rank(b, "01", &t), 0);
    ck_assert_int_eq(t.nrows, 1);
    ck_assert_int_eq(t.rows[0].jobs, 2);
    ck_assert_double_eq_tol(t.rows[0].best[0], 0.2, 1e-12);
    ck_assert_double_eq_tol(t.rows[0].best[1], 0.3, 1e-12);
    ck_assert_double_eq_tol(t.rows[0].geomean, sqrt(0.06), 1e-12);
    pl_scores_free(&s);
    pl_board_free(b);
}
END_TEST

/* ------------------------------------------------- correct work alone */

/* A job's correctness rows (status, points, max) and whether its ratios
   count (board.h): the rule of the job, whatever its performance rows. */
static const struct job_case {
    const char *what;
    struct {
        const char *status;
        double points, max;
    } rows[3]; /* up to the first without a status */
    int counts;
} JOBS[] = {
    {"every correctness test passed", {{"OK", 1, 1}, {"OK", 2, 2}}, 1},
    {"one failed", {{"OK", 1, 1}, {"FAIL", 0, 1}}, 0},
    {"one a CUDA error (lab 01's oob_fault)", {{"ERROR", 0, 1}, {"OK", 1, 1}}, 0},
    {"one crashed", {{"OK", 1, 1}, {"CRASH", 0, 1}}, 0},
    {"one timed out", {{"TIMEOUT", 0, 1}, {"OK", 1, 1}}, 0},
    {"OK short of its points", {{"OK", 0.5, 1}}, 0},
    {"its points as written, %.4f of a max %g", {{"OK", 0.3333, 0.333333}}, 1},
    {"one skipped (no GPU, or too large for the device)", {{"OK", 1, 1}, {"SKIP", 0, 1}}, 0},
    {"a limit test this machine cannot hold (max 0) beside a pass", {{"OK", 1, 1}, {"SKIP", 0, 0}}, 1},
    {"only limit tests this machine cannot hold", {{"SKIP", 0, 0}}, 0},
    {"no correctness row", {{NULL, 0, 0}}, 0},
    {"the lab does not compile (its one row)", {{"NOBUILD", 0, 7}}, 0},
};
#define NJOBS ((int)(sizeof JOBS / sizeof *JOBS))

/* The scores of one job of lab: JOBS[k]'s correctness rows, then two
   performance rows at ratio v with their points. */
static void job_rows(pl_scores *s, const char *lab, int k, const char *v)
{
    for (int i = 0; i < 3 && JOBS[k].rows[i].status; i++) {
        pl_score r = {.kind = "correctness", .points = JOBS[k].rows[i].points, .max = JOBS[k].rows[i].max};
        snprintf(r.lab, sizeof r.lab, "%s", lab);
        snprintf(r.status, sizeof r.status, "%s", JOBS[k].rows[i].status);
        r.name = (char *)"a correctness test";
        ck_assert_int_eq(pl_scores_add(s, &r), 0);
    }
    for (int i = 0; i < 2; i++) {
        pl_score r = {.kind = "performance", .status = "OK", .target = "0.15", .points = 2, .max = 2};
        snprintf(r.lab, sizeof r.lab, "%s", lab);
        snprintf(r.value, sizeof r.value, "%s", v);
        r.name = (char *)(i ? C : B);
        ck_assert_int_eq(pl_scores_add(s, &r), 0);
    }
}

START_TEST(job_rule)
{
    pl_board *b = pl_board_new();
    pl_scores s = {0};
    job_rows(&s, "01", _i, "0.5");
    ck_assert_int_eq(pl_board_add(b, "zed", "Zed", 0, &s), 0);
    pl_board_lab t;
    ck_assert_int_eq(pl_board_rank(b, "01", &t), 0);
    ck_assert_int_eq(t.ntests, 2); /* the lab's tests, counted or not */
    ck_assert_msg(t.nrows == JOBS[_i].counts, "%s: %s", JOBS[_i].what,
                  JOBS[_i].counts ? "not on the board" : "on the board");
    if (t.nrows) {
        ck_assert_int_eq(t.rows[0].rank, 1);
        ck_assert_double_eq_tol(t.rows[0].geomean, 0.5, 1e-12);
    }
    pl_scores_free(&s);
    pl_board_free(b);
}
END_TEST

/* The rule is each lab's of a scores file (the class report's, one a
   student, with every lab): lab 01 failed does not stop lab 02; and a
   later job that fails takes nothing from the bests of an earlier one. */
START_TEST(job_rule_per_lab)
{
    pl_board *b = pl_board_new();
    pl_scores s = {0}, later = {0};
    job_rows(&s, "01", 1, "0.9");  /* one failed */
    job_rows(&s, "02", 0, "0.4");  /* every one passed */
    ck_assert_int_eq(pl_board_add(b, "zed", "Zed", 0, &s), 0);
    job_rows(&later, "02", 1, "0.8"); /* failed, faster */
    ck_assert_int_eq(pl_board_add(b, "zed", "Zed", 0, &later), 0);
    pl_board_lab t;
    ck_assert_int_eq(pl_board_rank(b, "01", &t), 0);
    ck_assert_int_eq(t.nrows, 0);
    ck_assert_int_eq(pl_board_rank(b, "02", &t), 0);
    ck_assert_int_eq(t.nrows, 1);
    ck_assert_int_eq(t.rows[0].jobs, 2);
    ck_assert_double_eq_tol(t.rows[0].geomean, 0.4, 1e-12);
    pl_scores_free(&s), pl_scores_free(&later);
    pl_board_free(b);
}
END_TEST

/* Tests scored by their roof (scores.h): value is the fraction of the
   roof, what earned the points and what target is in; the board ranks by
   the ratio to the vendor, the ratio column. A row with no points at a
   value past its target was refused them (the vendor library, the CPU),
   whatever its ratio: not counted. */
START_TEST(roof_rows_rank_by_ratio)
{
    pl_board *b = pl_board_new();
    pl_scores s = {0}, refused = {0};
    /* each job correct (board.h), so that the rows alone decide */
    pl_score c = {.lab = "03", .kind = "correctness", .status = "OK", .points = 1, .max = 1};
    c.name = (char *)"03.a a correctness test";
    ck_assert_int_eq(pl_scores_add(&s, &c), 0);
    ck_assert_int_eq(pl_scores_add(&refused, &c), 0);
    pl_score r = {.lab = "03", .kind = "performance", .status = "OK", .target = "0.22", .max = 2, .points = 2};
    r.name = "03.c performance vs its roof, n=16777216";
    strcpy(r.value, "0.6700"), strcpy(r.ratio, "0.7400");
    ck_assert_int_eq(pl_scores_add(&s, &r), 0);
    ck_assert_int_eq(pl_board_add(b, "ivy", "Ivy", 0, &s), 0);
    r.points = 0;
    strcpy(r.ratio, "0.9000");
    ck_assert_int_eq(pl_scores_add(&refused, &r), 0);
    ck_assert_int_eq(pl_board_add(b, "jon", "Jon", 0, &refused), 0);
    pl_board_lab t;
    ck_assert_int_eq(pl_board_rank(b, "03", &t), 0);
    ck_assert_int_eq(t.ntests, 1);
    ck_assert_int_eq(t.nrows, 1);
    ck_assert_str_eq(t.rows[0].shown, "Ivy");
    ck_assert_double_eq_tol(t.rows[0].best[0], 0.74, 1e-12);
    pl_scores_free(&s), pl_scores_free(&refused);
    pl_board_free(b);
}
END_TEST

/* Two real jobs of lab 01 on an H200 (tests/bench/bench_serve.sh, jobs 1
   and 3): the solution, and the planted oob_fault (a kernel fault at
   n = 31: 01.c at n = 31 an ERROR, the other 45 correctness tests OK).
   The fault's ratios beat the solution's, so it ranked first when rows
   alone were looked at; now the solution is alone on the board. */
START_TEST(h200_planted_bug)
{
    static const pl_board_entry h200[] = {
        {"sol", "solution", FIXTURE "/h200-solution/results.json", "01"},
        {"oob", "oob_fault", FIXTURE "/h200-oob_fault/results.json", "01"},
    };
    double mean[2];
    for (int k = 0; k < 2; k++) {
        pl_scores s = {0};
        char path[256];
        snprintf(path, sizeof path, "%.*s/scores.tsv", (int)(strlen(h200[k].results) - strlen("/results.json")),
                 h200[k].results);
        ck_assert_int_eq(pl_scores_read(&s, path), 0);
        double logs = 0;
        int perf = 0;
        for (int i = 0; i < s.n; i++)
            if (!strcmp(s.rows[i].kind, "performance"))
                logs += log(strtod(s.rows[i].value, NULL)), perf++;
        ck_assert_int_eq(perf, 2);
        mean[k] = exp(logs / perf);
        pl_scores_free(&s);
    }
    ck_assert_msg(mean[1] > mean[0], "the fixture no longer shows the bug: oob_fault %.4f, solution %.4f", mean[1],
                  mean[0]);
    char *tsv = board_of(h200, 2, "01", PL_BOARD_TSV, KEY);
    ck_assert_str_eq(tsv, "rank\tname\tpseudonym\tjobs\tgeomean\t" B "\t" C "\n"
                          "1\tsolution\t0\t1\t0.261\t0.260\t0.261\n");
    free(tsv);
}
END_TEST

/* -------------------------------------------------------------- HTML */

START_TEST(html_escaped)
{
    char *page = board("01", PL_BOARD_HTML_PAGE, KEY), *table = board("01", PL_BOARD_HTML_TABLE, KEY);
    ck_assert_ptr_null(strstr(page, "<script"));
    ck_assert_ptr_nonnull(strstr(page, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;quoted&quot; &amp; co"));
    ck_assert_ptr_null(strcasestr(page, "http"));
    ck_assert_ptr_null(strstr(page, "<link"));
    ck_assert_ptr_null(strstr(page, "<img"));
    ck_assert(strstr(page, "<!DOCTYPE html>") == page && strstr(page, "</html>\n"));
    ck_assert_int_eq(count(page, "<tr>"), 8); /* the header and 7 students */
    ck_assert_int_eq(count(page, "<tr>"), count(page, "</tr>"));
    ck_assert_int_eq(count(page, "<td"), count(page, "</td>"));
    /* each row on one line: no line break of the name's got through */
    for (const char *p = page; (p = strstr(p, "<tr><td")); p++) {
        const char *end = strstr(p, "</tr>"), *nl = strchr(p, '\n');
        ck_assert(end && nl && end < nl);
    }
    /* pseudonyms in italics: a display name cannot pass for one */
    char want[128];
    snprintf(want, sizeof want, "<td class=\"pseudonym\">%s</td>", pseudonym("ben"));
    ck_assert_ptr_nonnull(strstr(page, want));
    ck_assert_int_eq(count(page, "<td class=\"pseudonym\">"), 2);
    /* the table alone is the page's table */
    ck_assert(strstr(table, "<table class=\"board\">") == table);
    ck_assert_ptr_nonnull(strstr(page, table));
    ck_assert_ptr_null(strstr(table, "<html"));
    free(page), free(table);
}
END_TEST

/* ---------------------------------------------------------- pseudonyms */

START_TEST(pseudonyms_keyed)
{
    char *a = pseudonym("ben"), *b2 = pseudonym("ben"), other[32];
    ck_assert_str_eq(a, b2);
    ck_assert_int_eq((int)strlen(a), 16);
    ck_assert(strncmp(a, "student-", 8) == 0 && strspn(a + 8, "0123456789abcdef") == 8);
    ck_assert_str_ne(pseudonym("ben"), pseudonym("cleo"));
    unsigned char key2[16] = {0};
    pl_board_pseudonym(key2, "ben", other, sizeof other);
    ck_assert_str_ne(a, other);
    /* the high 32 bits of SipHash-2-4, as the class report's */
    char want[32];
    snprintf(want, sizeof want, "student-%08llx", (unsigned long long)(pl_siphash(KEY, "ben", 3) >> 32));
    ck_assert_str_eq(a, want);
    /* no account anywhere on the board, whatever the format */
    static const int formats[] = {PL_BOARD_TSV, PL_BOARD_HTML_PAGE};
    static const char *const accounts[] = {"ben", "cleo", "dev", "fay"};
    for (int f = 0; f < 2; f++) {
        char *text = board("01", formats[f], KEY);
        for (int k = 0; k < 4; k++)
            ck_assert_msg(!strstr(text, accounts[k]), "the account '%s' is shown", accounts[k]);
        free(text);
    }
    /* what the service's page tells a student they are shown as */
    char shown[PL_BOARD_NAME_MAX + 1];
    ck_assert_int_eq(pl_board_shown(KEY, "ben", NULL, shown, sizeof shown), 1);
    ck_assert_str_eq(shown, pseudonym("ben"));
    ck_assert_int_eq(pl_board_shown(KEY, "ben", " \t ", shown, sizeof shown), 1); /* blank: no name */
    ck_assert_str_eq(shown, pseudonym("ben"));
    ck_assert_int_eq(pl_board_shown(KEY, "dev", "  Dev\tthe\nfirst  ", shown, sizeof shown), 0);
    ck_assert_str_eq(shown, "Dev the first");
    char why[64];
    ck_assert_int_eq(pl_board_write(stdout, "01", ENTRIES, NENTRIES, PL_BOARD_TSV, NULL, why, sizeof why), -1);
}
END_TEST

START_TEST(key_file)
{
    char path[512], why[512];
    unsigned char k1[16], k2[16];
    snprintf(path, sizeof path, "%s/board-key", tmpdir);
    unlink(path);
    ck_assert_int_eq(pl_board_key(path, k1, why, sizeof why), 0);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq((int)st.st_size, 33);
    ck_assert_int_eq(pl_board_key(path, k2, why, sizeof why), 0);
    ck_assert_mem_eq(k1, k2, 16);
    FILE *f = fopen(path, "w");
    fputs("not a key\n", f);
    fclose(f);
    ck_assert_int_eq(pl_board_key(path, k2, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "is not a key of 32 hex digits"));
    snprintf(path, sizeof path, "%s/no/such/folder/key", tmpdir);
    ck_assert_int_eq(pl_board_key(path, k2, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "cannot make the pseudonyms' key"));
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("board");
    TCase *t = tcase_create("fixture");
    tcase_add_test(t, tsv_whole);
    tcase_add_test(t, other_labs);
    tcase_add_test(t, ranked_numbers);
    tcase_add_test(t, html_escaped);
    tcase_add_test(t, pseudonyms_keyed);
    suite_add_tcase(s, t);
    t = tcase_create("correct work alone");
    tcase_add_loop_test(t, job_rule, 0, NJOBS);
    tcase_add_test(t, job_rule_per_lab);
    tcase_add_test(t, h200_planted_bug);
    suite_add_tcase(s, t);
    t = tcase_create("pieces");
    tcase_add_test(t, best_of_each_test);
    tcase_add_test(t, roof_rows_rank_by_ratio);
    tcase_add_test(t, key_file);
    suite_add_tcase(s, t);
    return s;
}

int check_setup(void)
{
    if (access(FIXTURE "/ana-1/scores.tsv", R_OK)) {
        fprintf(stderr, "test_board: cannot read " FIXTURE "/ana-1/scores.tsv (run from the repository's root)\n");
        return EXIT_FAILURE;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_board.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "test_board: cannot make a scratch folder: %s\n", strerror(errno));
        return EXIT_FAILURE;
    }
    return CHECK_RUN;
}

void check_teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_board: could not remove %s\n", tmpdir);
}
