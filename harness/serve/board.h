/* harness/serve/board.h: the leaderboard (issue 55 item 2), for the check
 * service's pages (/board/NN, /api/board/NN) and the class report (make
 * report): per lab, each student's best throughput ratio to the vendor
 * library (CUB; cuSPARSE for lab 06's SpMV) on each of the lab's
 * performance tests, over all the student's jobs, the geometric mean of
 * those bests, and a rank by it.
 *
 * Read from the jobs' scores files (harness/parent/scores.h, read with
 * pl_scores_read), the rows results.json's "leaderboard" entries are
 * written from (results.c): a performance row's ratio, the yardstick's
 * time over the code's, measured in the same run, is its `ratio` column
 * (its `value` in a file from before that column, pl_score_ratio); a test
 * scored by its roof has its fraction of the roof in `value`, which is
 * what earned its points and what its target is in. The scores
 * file is read rather than results.json because it is the kit's one data
 * file of results, with one reader, and it also says a row's lab, kind,
 * status, bugs and target, which results.json's entries do not (the kit
 * has no JSON reader in C, and needs none).
 *
 * Only correct work counts. A job (a scores file's rows of one lab) counts
 * on the board when it passed every correctness test it ran: each of its
 * correctness rows worth points (max above 0) has status OK and all its
 * points, and it has one such row at least. A ratio measured on code that
 * gets an answer wrong is not that code's performance: lab 01's planted
 * oob_fault (tests/fixtures/plants), a write out of bounds that fails one
 * correctness test, ranked first on a GPU when rows alone were looked at.
 * So a correctness row worth points that did not pass stops the whole job,
 * whatever its status: FAIL, ERROR, CRASH, TIMEOUT, NOTRUN (grading
 * stopped before it), MISSING or NOBUILD (the lab's one row), and SKIP
 * (no GPU, or too large for this device's memory): a test skipped did not
 * show the code correct, and a ratio is worth showing only from code that
 * did. A correctness row of max 0 is a limit test this machine cannot hold
 * (cause UNFIT): never run, it neither stops a job nor stands for a test
 * passed, so a job whose correctness rows are all such, or that has none,
 * does not count. A job that does not count is still one of the student's
 * jobs (their jobs column); its ratios are not kept, their other jobs' are.
 *
 * In a job that counts, a row counts when it is a performance test that ran
 * (status OK, no cause), its value is a number above 0, its bugs name
 * neither calls_vendor nor host_compute, and it earned points or its value
 * is below its target: a row with no points at a ratio that would earn
 * full marks was refused them (the vendor library linked in, the CPU doing
 * the work), and is no one's performance.
 *
 * Each (lab, student) keeps the best value of each test over all its
 * jobs, each test on its own. The lab's tests are every performance test
 * worth points (max above 0: not a limit test the GPU could not hold) that
 * a row of that lab names, counted or not, in the order first seen. A
 * student with a best on every one of them is ranked, by the geometric
 * mean of the bests (highest first; equal means share a rank, "1, 2, 2,
 * 4"), ties in the order of the shown names; a student lacking one is
 * listed after the ranked ones, unranked (a geometric mean over fewer
 * tests would reward a test left out); one with no ratio at all is not
 * listed.
 *
 * Names: a student is shown under the display name they chose, or else
 * under a pseudonym, "student-" and 8 hex digits: the high 32 bits of
 * SipHash-2-4 of the account under a 16-byte key (pl_siphash,
 * class_report.h; the key kept by the service, pl_board_key). The same
 * account gets the same pseudonym on every page made with that key (the
 * class report's ANON=1 shows the same, made with GRADES/.anon-key), and
 * the class list does not give the pseudonyms back without the key. A
 * display name is shown as given, cut to PL_BOARD_NAME_MAX bytes (at a
 * character's boundary), every control character a space; one that is
 * empty then is no name (pl_board_shown). The account itself is never
 * shown. A student learns their own pseudonym from the service's page,
 * signed in; nobody else's page ties it to them.
 *
 * Output: TSV (PL_BOARD_TSV), for /api/board/NN and scripts: a header
 * line "rank\tname\tpseudonym\tjobs\tgeomean" and a column per test, named
 * as the test, then a row per student: rank (empty when unranked), the
 * shown name (escaped as scores.h escapes text: \\ \t \n \r, \xHH),
 * pseudonym 1 or 0, the jobs read, the geometric mean and each best, %.3f
 * (empty where none). HTML (PL_BOARD_HTML_TABLE: one <table>, for a page
 * of the caller's; PL_BOARD_HTML_PAGE: a whole page with its own style):
 * every text escaped (pl_html_puts), no script, nothing fetched;
 * pseudonyms in italics, so that a display name cannot pass for one.
 */
#ifndef PRIMLAB_SERVE_BOARD_H
#define PRIMLAB_SERVE_BOARD_H

#include "../parent/scores.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PL_BOARD_NAME_MAX 64 /* bytes of a display name shown */

enum pl_board_format { PL_BOARD_TSV, PL_BOARD_HTML_TABLE, PL_BOARD_HTML_PAGE };

/* One job of one student, as the service knows it. */
typedef struct pl_board_entry {
    const char *student; /* the account (never shown) */
    const char *name;    /* the display name, or NULL or "" for the pseudonym */
    const char *results; /* the job's folder, or a file in it (results.json,
                            scores.tsv): its scores.tsv is read */
    const char *lab;     /* "01" */
} pl_board_entry;

/* The whole board of lab, from the entries (those of other labs are
   skipped), written to out as format. A job whose scores cannot be read
   counts as a job with no ratio (a job still running has none yet). key:
   the pseudonyms' key (pl_board_key), not NULL. Returns 0; -1 with one
   line in why (out of memory, a write error). */
int pl_board_write(FILE *out, const char *lab, const pl_board_entry *e, size_t n, int format,
                   const unsigned char key[16], char *why, size_t cap);

/* ------------------------------------------------- the parts, for callers
   that render the numbers themselves (the class report) */

typedef struct pl_board pl_board;

typedef struct pl_board_row {
    const char *shown; /* the display name or the pseudonym */
    int pseudonym;     /* 1 when shown is a pseudonym */
    int rank;          /* 1, 2, ...; 0 unranked (a test without a ratio) */
    int jobs;          /* jobs of this lab read for this student, correct or not */
    double geomean;    /* NAN when unranked */
    const double *best; /* one per test of the lab, NAN where none */
} pl_board_row;

typedef struct pl_board_lab {
    const char *lab;
    int ntests;
    const char *const *tests; /* the tests' names */
    int nrows;
    const pl_board_row *rows; /* ranked first, by rank, then the unranked */
} pl_board_lab;

pl_board *pl_board_new(void);
void pl_board_free(pl_board *b);
/* Adds the rows of one job of student (every lab its rows name, each lab's
   ratios only when it passed its correctness tests), shown as shown (a
   pseudonym when pseudonym is 1). The last shown given for a
   student is the one shown. 0, or -1 out of memory. */
int pl_board_add(pl_board *b, const char *student, const char *shown, int pseudonym, const pl_scores *s);
/* Row i of s as the board counts it: its ratio when it is a performance
   test worth points, its own rules let it count and its job (s's rows of
   its lab) passed its correctness tests; else NAN. results.json's
   leaderboard entries (harness/parent/results.c) are these, so that
   Gradescope's leaderboard, the service's and the class report's give
   the same numbers. */
double pl_board_value(const pl_scores *s, int i);
/* Adds one entry: its scores read (when they cannot be, one job with no
   ratio), its name or pseudonym under key. 0, or -1 out of memory. */
int pl_board_add_entry(pl_board *b, const pl_board_entry *e, const unsigned char key[16]);
/* The labs with at least one student, sorted, at most cap (their count
   returned); valid until the board changes. */
int pl_board_labs(const pl_board *b, const char **labs, int cap);
/* Lab's table, ranked, into *out (pointing into the board: valid until it
   changes or is freed; an unknown lab has no tests and no rows). 0, or -1
   out of memory. */
int pl_board_rank(pl_board *b, const char *lab, pl_board_lab *out);
/* Writes a ranked table as format. */
void pl_board_print(FILE *out, const pl_board_lab *t, int format);

/* The pseudonym of student under key: "student-" and 8 hex digits. */
void pl_board_pseudonym(const unsigned char key[16], const char *student, char *out, size_t cap);
/* How student is shown on a board under the display name name (NULL or
   "": none) and key, into out (PL_BOARD_NAME_MAX + 1 bytes hold it): the
   name as shown, or the pseudonym when that leaves nothing. Returns 1 for
   the pseudonym, else 0. The service's page tells a student so. */
int pl_board_shown(const unsigned char key[16], const char *student, const char *name, char *out, size_t cap);
/* The key in path (32 hex digits and a line break), made from the
   kernel's random source, mode 0600, when the file does not exist. 0, or
   -1 with one line in why. */
int pl_board_key(const char *path, unsigned char key[16], char *why, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
