/* tests/unit/test_class_report.c: Check tests of the class report
 * (harness/parent/class_report.c, build/primlab-report), run from the
 * repository's root by `make test`.
 *
 * The fixture tests/fixtures/class is a grading folder of seven students, worked out
 * by hand: amara full marks (graded twice, on two GPU models), bjorn the
 * stub (not_implemented everywhere), chidi block_boundary in 01.b, dagny
 * hang_empty in labs 01 and 02, eiko lab 02 not handed in, farid lab 01
 * not compiling and block_boundary in 02.b, gudrun not graded; two
 * performance tests with values and targets, and the solution's scores in
 * tests/fixtures/class/.reference-scores.tsv. Each test copies it into a scratch
 * folder (never writing into tests/), makes the report there and checks:
 *   - report.md's lines, from a table (EXPECT): counts, per-lab statistics,
 *     the census's rows, the performance table, the GPU-model warning;
 *   - --anon: no real name in either file, the same pages on a second run,
 *     a pseudonym per student;
 *   - report.html: no script, nothing fetched, balanced tables, every <svg>
 *     with a width and a height (skipped, saying so, without gnuplot), names
 *     escaped; without gnuplot a warning and a page that says so;
 *   - the command: status 2 and one line for a missing folder or a bad
 *     argument; a student whose scores cannot be read is listed;
 *   - a dry grading (PRIMLAB_NO_GPU) beside the GPU's: its lab's points
 *     still count, its seconds are no GPU's, it has no GPU model; a
 *     roster's student with no submission (lms-unmatched.txt) counted as
 *     not handing in any lab, and never linked to a report;
 *   - the pieces: SipHash's reference vectors, the statistics, SVG inlining.
 */
#define _GNU_SOURCE
#include "../../harness/parent/class_report.h"
#include "../lib/check_main.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIXTURE "tests/fixtures/class"
#define REFERENCE FIXTURE "/.reference-scores.tsv"

static char tmpdir[256];
static int have_gnuplot;

static const char *const NAMES[] = {"amara", "bjorn", "chidi", "dagny", "eiko", "farid", "gudrun"};
#define NNAMES ((int)(sizeof NAMES / sizeof *NAMES))

/* -------------------------------------------------------------- helpers */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    for (int c; (c = fgetc(f)) != EOF;)
        fputc(c, m);
    fclose(m);
    fclose(f);
    return buf;
}

/* A fresh copy of the fixture as tmpdir/name; its path in out. */
static void fresh(const char *name, char *out, size_t cap)
{
    char cmd[1024];
    snprintf(out, cap, "%s/%s", tmpdir, name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -a " FIXTURE " '%s'", out, out);
    ck_assert_int_eq(system(cmd), 0);
}

static void append(const char *dir, const char *file, const char *line)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs(line, f);
    fclose(f);
}

/* Makes the report of dir; the two pages into *md and *html. */
static void report(const char *dir, int anon, const char *reference, const char *gnuplot, char **md, char **html)
{
    char err[1024] = "", path[1024];
    pl_report_opts o = {.anon = anon, .reference = reference, .gnuplot = gnuplot};
    int rc = pl_class_report(dir, &o, err, sizeof err);
    ck_assert_msg(rc == 0, "report of %s: status %d: %s", dir, rc, err);
    snprintf(path, sizeof path, "%s/report.md", dir);
    *md = slurp(path);
    snprintf(path, sizeof path, "%s/report.html", dir);
    *html = slurp(path);
    ck_assert_ptr_nonnull(*md);
    ck_assert_ptr_nonnull(*html);
}

/* 1 when text holds line as a whole line. */
static int has_line(const char *text, const char *line)
{
    size_t len = strlen(line);
    for (const char *p = text; (p = strstr(p, line)); p++)
        if ((p == text || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
            return 1;
    return 0;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* ---------------------------------------------------- the fixture's report */

/* report.md's lines, worked out by hand from tests/fixtures/class (points: amara
   7 + 5, bjorn 0 + 0, chidi 4 + 5, dagny 5 + 3, eiko 6.6 + 0, farid 0 + 3.5). */
static const char *const EXPECT[] = {
    "Students: 6 graded, 1 not graded.",
    "| gudrun | 2025-03-04T09:40:02Z | not reached: grading stopped at the time limit (subs/gudrun.tar.gz waits "
    "for a rerun) |",
    "| lab 01 | 6 | 3.77 | 4.50 | 0.00 | 7.00 | 2.84 | 7 | 0 | 1 |",
    "| lab 02 | 6 | 2.75 | 3.25 | 0.00 | 5.00 | 2.08 | 5 | 1 | 0 |",
    "| total | 6 | 6.52 | 7.30 | 0.00 | 12.00 | 3.87 | 12 | 1 | 1 |",
    /* tests: 5 students ran lab 01 (farid's does not compile) */
    "| 01.b | 01.b performance vs the vendor library, n=16777216 | 5 | 2 | 40.0% | 1.32 | 2 |",
    "| 01.b | 01.b inclusive scan, any n, n=77777 (hidden) | 5 | 3 | 60.0% | 0.60 | 1 |",
    "| 01.a | 01.a inclusive scan, one block, n=1024 | 5 | 4 | 80.0% | 0.80 | 1 |",
    "| 02.a | 02.a exclusive scan, global memory, n=0 | 5 | 3 | 60.0% | 0.60 | 1 |",
    /* the census: students, not rows (chidi fails two tests of 01.b) */
    "| `hang_empty` | hangs at n = 0 | a loop or log2(n) that never ends on an empty input | 1 | 01.a (1), 01.b (1), "
    "02.a (1) | dagny |",
    "| `not_implemented` | output never written | the part not written yet | 1 | 01.a (1), 01.b (1), 02.a (1), "
    "02.b (1) | bjorn |",
    "| `block_boundary` | wrong from a block boundary on | the earlier blocks' sums not added back | 2 | 01.b (1), "
    "02.b (1) | chidi, farid |",
    "| `NOBUILD` | does not compile | the compiler's first error, in the student's report | 1 | lab 01 (1) | farid |",
    "| `MISSING` | not handed in | the lab's file not in the submission | 1 | lab 02 (1) | eiko |",
    /* performance, with the solution's ratios of .reference-scores.tsv */
    "| 01 | 01.b performance vs the vendor library, n=16777216 | 4 | 0.810 | 0.450 | 1.100 | 0.9 | 1.200 |",
    "| 02 | 02.b performance vs the vendor library, n=16777216 | 4 | 0.740 | 0.400 | 0.950 | 0.8 | 1.050 |",
    /* grading: amara's last line is on the H100 */
    "GPU models (each student's last grading): NVIDIA H100 80GB HBM3 (4 students), NVIDIA A100-SXM4-40GB (2 "
    "students).",
    "**Warning:** graded on 2 GPU models: performance points differ between them (each a ratio measured on its own "
    "GPU); regrade on one model to compare students fairly.",
    "Seconds of GPU grading per student: mean 400.2, median 105.2, max 1900.4 (6 students).",
    "| dagny | 1900.4 | NVIDIA H100 80GB HBM3 | gpu-h |",
    /* the leaderboard (harness/serve/board.h): one performance test a lab,
       so the geometric mean is its ratio; only a lab whose every
       correctness test passed counts (bjorn's performance test failed, eiko
       has no lab 02): not dagny's (hangs at n = 0 in both labs), chidi's lab
       01 and farid's lab 02 (block_boundary), whatever their ratios */
    "| rank | student | geomean | 01.b performance vs the vendor library, n=16777216 |",
    "| 1 | amara | 1.100 | 1.100 |",
    "| 2 | eiko | 0.720 | 0.720 |",
    "| 1 | amara | 0.950 | 0.950 |",
    "| 2 | chidi | 0.880 | 0.880 |",
};
#define NEXPECT ((int)(sizeof EXPECT / sizeof *EXPECT))

static char *md, *html; /* the fixture's report, made once per test */

static void make_fixture_report(void)
{
    char dir[512];
    fresh("plain", dir, sizeof dir);
    report(dir, 0, REFERENCE, "gnuplot", &md, &html);
}

static void free_report(void)
{
    free(md), free(html);
    md = html = NULL;
}

START_TEST(md_line) { ck_assert_msg(has_line(md, EXPECT[_i]), "report.md lacks the line\n%s\nin\n%s", EXPECT[_i], md); }
END_TEST

/* Lowest pass rate first: the performance test leads lab 01's table, and
   the census keeps bugs.h's order (hang_empty before block_boundary). */
START_TEST(md_order)
{
    const char *perf = strstr(md, "| 01.b | 01.b performance"),
               *a = strstr(md, "| 01.a | 01.a inclusive scan, one block, n=1024");
    ck_assert(perf && a && perf < a);
    const char *hang = strstr(md, "`hang_empty`"), *block = strstr(md, "`block_boundary`"),
               *nob = strstr(md, "`NOBUILD`");
    ck_assert(hang && block && nob && hang < block && block < nob);
    ck_assert_ptr_null(strstr(md, "`shift_by_one`")); /* no student hit it */
    ck_assert_int_eq(count(md, " (hidden) |"), 1);
    /* the leaderboard after performance, a table a lab, lab 01's first;
       bjorn (no ratio), dagny and farid (no lab that passed its correctness
       tests) on neither, chidi on lab 02's alone */
    const char *board = strstr(md, "## Leaderboard"), *perf2 = strstr(md, "## Performance"),
               *l1 = board ? strstr(board, "### lab 01\n\n| rank |") : NULL,
               *l2 = board ? strstr(board, "### lab 02\n\n| rank |") : NULL, *end = strstr(md, "## Grading");
    ck_assert(perf2 && board && l1 && l2 && end && perf2 < board && l1 < l2 && l2 < end);
    ck_assert(!memmem(board, (size_t)(end - board), "bjorn", 5));
    ck_assert(!memmem(board, (size_t)(end - board), "dagny", 5));
    ck_assert(!memmem(board, (size_t)(end - board), "farid", 5));
    ck_assert(!memmem(l1, (size_t)(l2 - l1), "chidi", 5) && memmem(l2, (size_t)(end - l2), "chidi", 5));
}
END_TEST

START_TEST(no_reference)
{
    char dir[512], *m, *h;
    fresh("noref", dir, sizeof dir);
    report(dir, 0, NULL, "gnuplot", &m, &h);
    ck_assert(has_line(
        m, "| 01 | 01.b performance vs the vendor library, n=16777216 | 4 | 0.810 | 0.450 | 1.100 | 0.9 | - |"));
    free(m), free(h);
}
END_TEST

START_TEST(html_self_contained)
{
    ck_assert_ptr_null(strstr(html, "<script"));
    ck_assert_ptr_null(strcasestr(html, "http"));
    ck_assert_ptr_null(strstr(html, "<link"));
    ck_assert_ptr_null(strstr(html, "<img"));
    ck_assert_int_eq(count(html, "<table"), count(html, "</table>"));
    ck_assert_int_eq(count(html, "<table"), 9);
    ck_assert_int_eq(count(html, "<tr>"), count(html, "</tr>"));
    ck_assert(strstr(html, "<!DOCTYPE html>") == html && strstr(html, "</html>\n"));
    ck_assert_ptr_nonnull(strstr(html, "<a href=\"farid/report.txt\">farid</a>"));
    ck_assert_ptr_nonnull(strstr(html, "class=\"warn\""));
}
END_TEST

START_TEST(html_figures)
{
    if (!have_gnuplot) {
        fprintf(stderr, "test_class_report: SKIP html_figures: gnuplot is not installed\n");
        return;
    }
    ck_assert_int_eq(count(html, "<svg"), 4); /* labs 01 and 02, all labs, performance */
    ck_assert_int_eq(count(html, "</svg>"), 4);
    ck_assert_ptr_null(strstr(html, "<?xml"));
    ck_assert_ptr_null(strstr(html, "xmlns"));
    for (const char *p = html; (p = strstr(p, "<svg")); p++) {
        const char *end = strchr(p, '>');
        int w = 0, h = 0;
        const char *wa = strstr(p, "width=\""), *ha = strstr(p, "height=\"");
        ck_assert(end && wa && ha && wa < end && ha < end);
        ck_assert_int_eq(sscanf(wa, "width=\"%d\"", &w), 1);
        ck_assert_int_eq(sscanf(ha, "height=\"%d\"", &h), 1);
        ck_assert(w > 0 && h > 0);
    }
    ck_assert_int_eq(count(html, "id='gpPt0'"), 0); /* every figure's ids prefixed */
    ck_assert_int_eq(count(html, "id='f64-gpPt0'"), 1);
}
END_TEST

/* Without gnuplot: a warning, the tables, a page that says why. */
START_TEST(without_gnuplot)
{
    char dir[512], err[512], *warn = NULL;
    size_t len = 0;
    fresh("nognuplot", dir, sizeof dir);
    FILE *w = open_memstream(&warn, &len);
    pl_report_opts o = {.reference = REFERENCE, .gnuplot = "primlab-no-such-gnuplot", .warn = w};
    ck_assert_int_eq(pl_class_report(dir, &o, err, sizeof err), 0);
    fclose(w);
    ck_assert_str_eq(warn, "primlab-report: warning: gnuplot not found ('primlab-no-such-gnuplot'; make bootstrap "
                           "installs it): report.html has its tables but no figures\n");
    free(warn);
    char path[600];
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *h = slurp(path);
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *m = slurp(path);
    ck_assert_ptr_null(strstr(h, "<svg"));
    ck_assert_ptr_nonnull(strstr(h, "<p>Figures left out: gnuplot not found"));
    ck_assert_int_eq(count(h, "<table"), 9);
    ck_assert_str_eq(strstr(m, "## The class"), strstr(md, "## The class")); /* no figures in Markdown */
    free(h), free(m);
}
END_TEST

/* --------------------------------------------------------------- anonymity */

START_TEST(anon_hides_names)
{
    char dir[512], *m1, *h1, *m2, *h2;
    fresh("anon", dir, sizeof dir);
    report(dir, 1, REFERENCE, "gnuplot", &m1, &h1);
    report(dir, 1, REFERENCE, "gnuplot", &m2, &h2);
    for (int i = 0; i < NNAMES; i++) {
        ck_assert_msg(!strcasestr(m1, NAMES[i]), "report.md names %s", NAMES[i]);
        ck_assert_msg(!strcasestr(h1, NAMES[i]), "report.html names %s", NAMES[i]);
    }
    ck_assert_ptr_null(strstr(h1, "report.txt"));
    ck_assert_str_eq(m1, m2); /* the same pseudonyms on every run */
    ck_assert_str_eq(h1, h2);
    /* one pseudonym per student: block_boundary's row names two others */
    const char *row = strstr(m1, "| `block_boundary` |");
    ck_assert_ptr_nonnull(row);
    char a[64], b[64];
    const char *who = strstr(row, "| 01.b (1), 02.b (1) | ");
    ck_assert_ptr_nonnull(who);
    ck_assert_int_eq(sscanf(who, "| 01.b (1), 02.b (1) | %63[a-z0-9-], %63[a-z0-9-] |", a, b), 2);
    ck_assert_int_eq((int)strlen(a), 16);
    ck_assert(!strncmp(a, "student-", 8) && !strncmp(b, "student-", 8) && strcmp(a, b));
    ck_assert_int_eq(count(m1, a) >= 2, 1); /* chidi is in the census and the grading table */
    ck_assert_ptr_nonnull(strstr(m1, "Students: 6 graded, 1 not graded."));
    free(m1), free(h1), free(m2), free(h2);
}
END_TEST

/* ------------------------------------------------------------ odd classes */

/* A name that is markup, a student whose scores are gone, a folder of
   results with no record line. */
START_TEST(odd_students)
{
    char dir[512], cmd[4096], *m, *h;
    fresh("odd", dir, sizeof dir);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/t<b>&q' && cp '%s/amara/scores.tsv' '%s/t<b>&q/' && mkdir '%s/zed' && "
             "cp '%s/bjorn/scores.tsv' '%s/zed/'",
             dir, dir, dir, dir, dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    append(dir, ".graded.tsv", "t<b>&q\tabc\t2025-03-04T09:50:00Z\tgpu-h\t0\tNVIDIA H100 80GB HBM3\t-\t-\t5000\n");
    append(dir, ".graded.tsv", "heidi\tabc\t2025-03-04T09:51:00Z\tgpu-h\t0\tNVIDIA H100 80GB HBM3\t-\t-\t-\n");
    report(dir, 0, NULL, "gnuplot", &m, &h);
    ck_assert(has_line(m, "Students: 8 graded, 1 not graded."));
    ck_assert(has_line(m, "Scores that cannot be read (not counted): heidi (No such file or directory)."));
    ck_assert(has_line(m, "Results without a line in the record (not counted): zed."));
    ck_assert(has_line(m, "| lab 01 | 7 | 4.23 | 5.00 | 0.00 | 7.00 | 2.86 | 7 | 0 | 1 |"));
    ck_assert_ptr_nonnull(strstr(h, "<a href=\"t%3Cb%3E%26q/report.txt\">t&lt;b&gt;&amp;q</a>"));
    ck_assert_ptr_null(strstr(h, "t<b>"));
    free(m), free(h);
}
END_TEST

/* hana graded dry (PRIMLAB_NO_GPU: her rows NOGPU, 3 s of no GPU), and
   Ida on the LMS's roster with no submission, beside the fixture's class. */
START_TEST(dry_and_roster)
{
    char dir[512], cmd[1024], *m, *h;
    fresh("dry", dir, sizeof dir);
    snprintf(cmd, sizeof cmd, "mkdir '%s/hana'", dir);
    ck_assert_int_eq(system(cmd), 0);
    append(dir, "hana/scores.tsv",
           "# lab\tname\tkind\thidden\tstatus\tpoints\tmax\tseconds\tvalue\treason\tdetail\tcause\tbugs\ttarget\n"
           "01\t01.a inclusive scan, one block, n=1024\tcorrectness\t0\tSKIP\t0\t1\t0\t\tno GPU (PRIMLAB_NO_GPU is set)"
           "\t\tNOGPU\t\t\n"
           "02\t02.a exclusive scan, global memory, n=0\tcorrectness\t0\tSKIP\t0\t1\t0\t\tno GPU (PRIMLAB_NO_GPU is "
           "set)\t\tNOGPU\t\t\n");
    append(dir, ".graded.tsv", "hana\tabc\t2025-03-04T09:52:00Z\tvm\t-\t-\t-\t-\t3.0\tdry\tpublic\t0.1.0+a\t01,02\n");
    append(dir, "lms-unmatched.txt",
           "lms: roster students with no submission (1):\n  Ives, Ida (ID 9)\nlms: submissions with no roster row (1):\n"
           "  hana (a plain folder: its name is no id of the roster)\n");
    report(dir, 0, NULL, NULL, &m, &h);
    static const char *const want[] = {
        "Students: 7 graded, 1 not graded, 1 on the roster with no submission.",
        "**Warning:** Some students' tests did not run on a GPU: those students have no points in the statistics.",
        "| lab 01 | 6 | 3.77 | 4.50 | 0.00 | 7.00 | 2.84 | 7 | 1 | 1 |",
        "| lab 02 | 6 | 2.75 | 3.25 | 0.00 | 5.00 | 2.08 | 5 | 2 | 0 |",
        "| `MISSING` | not handed in | the lab's file not in the submission | 2 | lab 01 (1), lab 02 (2) | eiko; Ives, "
        "Ida (ID 9) |",
        "GPU models (each student's last grading): NVIDIA H100 80GB HBM3 (4 students), NVIDIA A100-SXM4-40GB (2 "
        "students), none, a dry run without a GPU (1).",
        "Seconds of GPU grading per student: mean 400.2, median 105.2, max 1900.4 (6 students).",
        "Seconds of grading without a GPU per student (a dry run: no test ran): mean 3.0, median 3.0, max 3.0 (1 "
        "student).",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(has_line(m, want[i]), "report.md lacks the line\n%s\nin\n%s", want[i], m);
    ck_assert_int_eq(count(m, "hana"), 0); /* in no table: nothing scored, nothing found */
    ck_assert_ptr_nonnull(strstr(h, "<a href=\"eiko/report.txt\">eiko</a>; Ives, Ida (ID 9)</td>"));
    free(m), free(h);
}
END_TEST

/* The command: one line and status 2 for what it cannot read. */
static void run_cli(const char *args, int status, const char *line)
{
    char cmd[1024], path[512];
    snprintf(path, sizeof path, "%s/cli.err", tmpdir);
    snprintf(cmd, sizeof cmd, "build/primlab-report %s 2>'%s' >/dev/null", args, path);
    int st = system(cmd);
    ck_assert_msg(WIFEXITED(st), "%s: no exit", cmd);
    ck_assert_msg(WEXITSTATUS(st) == status, "%s: status %d, not %d", cmd, WEXITSTATUS(st), status);
    char *err = slurp(path);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, line);
    free(err);
}

START_TEST(cli_errors)
{
    ck_assert_msg(access("build/primlab-report", X_OK) == 0,
                  "build/primlab-report is not built (make build/primlab-report)");
    run_cli("/nonexistent/grades", 2, "primlab-report: cannot read '/nonexistent/grades': No such file or directory\n");
    run_cli("", 2,
            "primlab-report: no grading folder given (usage: primlab-report [--anon] [--reference SCORES] "
            "GRADES)\n");
    run_cli("--bogus " FIXTURE, 2,
            "primlab-report: bad argument '--bogus' (usage: primlab-report [--anon] "
            "[--reference SCORES] GRADES)\n");
    run_cli("tests", 2,
            "primlab-report: 'tests' is not a grading folder: it has no .graded.tsv (make grade writes "
            "it)\n");
    char dir[512], args[1200];
    fresh("cli", dir, sizeof dir);
    snprintf(args, sizeof args, "--reference /nonexistent.tsv '%s'", dir);
    run_cli(args, 2, "primlab-report: cannot read the reference '/nonexistent.tsv': No such file or directory\n");
    snprintf(args, sizeof args, "--anon --reference " REFERENCE " '%s'", dir);
    run_cli(args, 0,
            have_gnuplot ? ""
                         : "primlab-report: warning: gnuplot not found ('gnuplot'; make bootstrap "
                           "installs it): report.html has its tables but no figures\n");
}
END_TEST

/* ------------------------------------------------------------------ pieces */

/* SipHash-2-4's reference vectors (the paper's appendix A: key 00..0f,
   messages 00..len-1). */
START_TEST(siphash_vectors)
{
    unsigned char key[16], msg[64];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)i;
    for (int i = 0; i < 64; i++)
        msg[i] = (unsigned char)i;
    ck_assert_uint_eq(pl_siphash(key, msg, 0), 0x726fdb47dd0e0e31ull);
    ck_assert_uint_eq(pl_siphash(key, msg, 1), 0x74f839c593dc67fdull);
    ck_assert_uint_eq(pl_siphash(key, msg, 8), 0x93f5f5799a932462ull);
    ck_assert_uint_eq(pl_siphash(key, msg, 15), 0xa129ca6149be45e5ull);
    ck_assert_uint_eq(pl_siphash(key, msg, 63), 0x958a324ceb064572ull);
}
END_TEST

START_TEST(stats)
{
    double v[] = {3.5, 0, 9, 12, 6.6, 8};
    pl_stats s;
    pl_stats_of(v, 6, &s);
    ck_assert_int_eq(s.n, 6);
    ck_assert_double_eq_tol(s.mean, 39.1 / 6, 1e-12);
    ck_assert_double_eq_tol(s.median, 7.3, 1e-12);
    ck_assert_double_eq(s.min, 0);
    ck_assert_double_eq(s.max, 12);
    ck_assert_double_eq_tol(s.q1, 4.275, 1e-12);
    ck_assert_double_eq_tol(s.sd, 3.873163, 1e-6);
    pl_stats_of(v, 0, &s);
    ck_assert_int_eq(s.n, 0);
    ck_assert_double_eq(s.mean, 0);
}
END_TEST

START_TEST(svg_inlined)
{
    char path[512], *out = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/in.svg", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG "
          "1.1//EN\"\n \"x.dtd\">\n<svg \n width=\"360\" height=\"220\"\n xmlns=\"http://www.w3.org/2000/svg\"\n "
          "xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n<path id='gpPt0'/><use xlink:href='#gpPt0' "
          "fill='url(#grad)'/><g id=\"c\" grid='x'/></svg>\n",
          f);
    fclose(f);
    FILE *m = open_memstream(&out, &len);
    ck_assert_int_eq(pl_svg_inline(m, path, "f1-"), 0);
    fclose(m);
    ck_assert_str_eq(out, "<svg \n width=\"360\" height=\"220\"\n \n \n>\n<path id='f1-gpPt0'/><use "
                          "xlink:href='#f1-gpPt0' fill='url(#f1-grad)'/><g id=\"f1-c\" grid='x'/></svg>\n");
    free(out);
}
END_TEST

START_TEST(escapes)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    pl_html_puts(m, "a<b>&\"c'\td");
    fputc('|', m);
    pl_url_puts(m, "t<b> q/é");
    fputc('|', m);
    pl_md_puts(m, "a|b\\c\nd");
    fclose(m);
    ck_assert_str_eq(out, "a&lt;b&gt;&amp;&quot;c&#39; d|t%3Cb%3E%20q%2F%C3%A9|a\\|b\\\\c d");
    free(out);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("class_report");
    TCase *t = tcase_create("fixture");
    tcase_add_checked_fixture(t, make_fixture_report, free_report);
    tcase_add_loop_test(t, md_line, 0, NEXPECT);
    tcase_add_test(t, md_order);
    tcase_add_test(t, no_reference);
    tcase_add_test(t, html_self_contained);
    tcase_add_test(t, html_figures);
    tcase_add_test(t, without_gnuplot);
    tcase_add_test(t, anon_hides_names);
    tcase_add_test(t, odd_students);
    tcase_add_test(t, dry_and_roster);
    tcase_add_test(t, cli_errors);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("pieces");
    tcase_add_test(t, siphash_vectors);
    tcase_add_test(t, stats);
    tcase_add_test(t, svg_inlined);
    tcase_add_test(t, escapes);
    suite_add_tcase(s, t);
    return s;
}

int check_setup(void)
{
    if (access(FIXTURE "/.graded.tsv", R_OK)) {
        fprintf(stderr, "test_class_report: cannot read " FIXTURE "/.graded.tsv (run from the repository's root)\n");
        return EXIT_FAILURE;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_class_report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "test_class_report: cannot make a scratch folder: %s\n", strerror(errno));
        return EXIT_FAILURE;
    }
    have_gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;
    if (!have_gnuplot)
        fprintf(stderr, "test_class_report: gnuplot is not installed: the figure checks are skipped\n");
    return CHECK_RUN;
}

void check_teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_class_report: could not remove %s\n", tmpdir);
}
