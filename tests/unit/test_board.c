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
 * so the ranks are 1, 1, 3, 4, 5 and one unranked. It checks the TSV
 * whole, the HTML (escaped, self-contained, pseudonyms marked), the
 * pseudonyms (keyed, stable, no account shown), the parts
 * (pl_board_rank's numbers) and the key file.
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
};
#define NENTRIES (sizeof ENTRIES / sizeof *ENTRIES)

/* The board of lab as format, into a string (malloc'd). */
static char *board(const char *lab, int format, const unsigned char *key)
{
    char *buf = NULL, why[256] = "";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    int rc = pl_board_write(f, lab, ENTRIES, NENTRIES, format, key, why, sizeof why);
    fclose(f);
    ck_assert_msg(rc == 0, "pl_board_write: %s", why);
    return buf;
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
    fprintf(w, "4\tGus\t0\t1\t0.110\t0.110\t0.110\n");
    fprintf(w, "5\t%s\t1\t1\t0.077\t0.300\t0.020\n", pseudonym("ben"));
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
    ck_assert_int_eq(t.nrows, 6); /* not eve, not hal */
    static const int rank[] = {1, 1, 3, 4, 5, 0};
    for (int i = 0; i < t.nrows; i++)
        ck_assert_int_eq(t.rows[i].rank, rank[i]);
    /* ana: best of each test over two jobs, each on its own */
    ck_assert_str_eq(t.rows[2].shown, "Ana");
    ck_assert_int_eq(t.rows[2].jobs, 2);
    ck_assert_double_eq_tol(t.rows[2].best[0], 0.15, 1e-12);
    ck_assert_double_eq_tol(t.rows[2].best[1], 0.20, 1e-12);
    ck_assert_double_eq_tol(t.rows[2].geomean, sqrt(0.15 * 0.20), 1e-12);
    /* ben: a ratio below the target with no points still counts */
    ck_assert_double_eq_tol(t.rows[4].geomean, sqrt(0.30 * 0.02), 1e-12);
    ck_assert_int_eq(t.rows[4].pseudonym, 1);
    /* dev: 01.c failed, its value does not count: unranked, no mean */
    ck_assert_str_eq(t.rows[5].shown, "Dev the first");
    ck_assert(isnan(t.rows[5].geomean) && isnan(t.rows[5].best[1]));
    for (int i = 0; i < t.nrows; i++)
        ck_assert_msg(strcmp(t.rows[i].shown, "Eve") && strcmp(t.rows[i].shown, "Hal"), "%s is listed",
                      t.rows[i].shown);
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
    ck_assert_int_eq(count(page, "<tr>"), 7); /* the header and 6 students */
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
    t = tcase_create("pieces");
    tcase_add_test(t, best_of_each_test);
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
