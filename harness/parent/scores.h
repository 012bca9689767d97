/* harness/parent/scores.h: the per-test scores, as data: the one writer
 * and the one reader of a scores file (TSV), and its rows in memory.
 *
 * A lab binary appends one row per graded test (`labNN check --scores
 * FILE`); `labNN fill` appends the rows of tests a stopped run did not reach,
 * and the one row of a lab that is missing or does not compile. Everything
 * else (results.json, the Autolab line, TAP, JUnit XML, the gradebook, the
 * Score line) is made from these rows by results.h. Scripts read the fields;
 * none reads a reason's wording.
 *
 * The file: a first line "# " PL_SCORES_COLUMNS when the writer found it
 * empty (readers skip lines starting with '#'), then one row per test, these
 * columns separated by tabs:
 *   lab      "01": the lab's number
 *   name     the test's name, unique within its lab
 *   kind     correctness | performance
 *   hidden   1 for a test that only the grading seed adds, else 0
 *   status   OK | FAIL | ERROR | CRASH | TIMEOUT | SKIP (outcome.h), or for a
 *            lab that was not graded MISSING | NOBUILD
 *   points   earned, %.4f
 *   max      the test's points, %g (0 for a test the machine cannot hold)
 *   seconds  the test's wall time, %.3f
 *   value    a performance test's measured ratio, or empty
 *   reason   one line for people
 *   detail   more lines for people
 *   cause    why the test did not run as a code, or empty when it ran (a
 *            failure then is the code's own): PL_CAUSE_*
 *   bugs     the classes of what went wrong, as bugs.h codes separated by
 *            commas ("block_boundary", "hang_empty,cuda_error"), or empty
 *   target   a performance test's full-marks value (%g), or empty
 *   ratio    a performance test's throughput ratio to the yardstick it was
 *            timed against (the vendor library, or CPU OpenMP), or empty
 * A performance test scored by its roof (PL_YARD_ROOF, lab.h; its name
 * says "performance vs its roof") has its fraction of its algorithm's
 * roof in value and target (0.22: 22 %), and its ratio to the vendor
 * library in ratio; any other has its ratio in both value and ratio.
 * Readers that rank by ratio read ratio, and value where it is empty
 * (pl_score_ratio). Columns are only ever appended.
 * name, reason and detail are escaped: backslash, tab, newline and carriage
 * return as \\ \t \n \r, every other byte below 0x20 and 0x7f as \xHH. A
 * file from before the cause column reads with cause empty, or MISSING /
 * NOBUILD from the status; one from before the bugs and target columns, with
 * them empty; one from before the ratio column, with it empty.
 */
#ifndef PRIMLAB_SCORES_H
#define PRIMLAB_SCORES_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PL_SCORES_COLUMNS                                                                                          \
    "lab\tname\tkind\thidden\tstatus\tpoints\tmax\tseconds\tvalue\treason\tdetail\tcause\tbugs\ttarget\tratio"

/* The cause column. */
#define PL_CAUSE_MISSING "MISSING"   /* the lab's file was not handed in: the lab scores 0 */
#define PL_CAUSE_NOBUILD "NOBUILD"   /* the lab's file does not compile: the lab scores 0 */
#define PL_CAUSE_NOGPU "NOGPU"       /* no GPU on this machine (or PRIMLAB_NO_GPU): not run */
#define PL_CAUSE_NOWORKER "NOWORKER" /* the kit's own worker (the yardstick's) did not start */
#define PL_CAUSE_UNFIT "UNFIT"       /* a limit test this machine cannot hold: max 0 */
#define PL_CAUSE_NOTRUN "NOTRUN"     /* grading stopped (a time limit) before this test */

typedef struct pl_score {
    char lab[8], kind[16], status[12], cause[12], value[32], target[16], ratio[32];
    char bugs[96]; /* bugs.h codes, comma-separated */
    char *name, *reason, *detail; /* unescaped, owned by the row (NULL reads as "") */
    int hidden;
    double points, max, seconds;
} pl_score;

typedef struct pl_scores {
    pl_score *rows;
    int n, cap;
} pl_scores;

/* The row of a lab that was not graded (cause MISSING or NOBUILD): name
   "lab NN (NN-name)" from the lab's number and folder name, 0 of max
   points (every test's, hidden ones included). Points into name and reason. */
void pl_score_not_graded(pl_score *r, const char *lab, const char *cause, double max, char *name, size_t cap,
                         const char *folder, const char *reason);
/* The row of a test a stopped run did not reach (cause NOTRUN): 0 points,
   status ERROR. Points into name. */
void pl_score_not_run(pl_score *r, const char *lab, const char *name, int perf, int hidden, double max);

/* Opens path for appending rows, with the column line first when the file
   is empty; NULL with errno. */
FILE *pl_scores_open(const char *path);
/* Writes one row (escaped), then flushes. Returns 0, or -1 on a write error. */
int pl_score_write(FILE *f, const pl_score *r);

/* Appends a copy of r (its strings copied) to s; 0, or -1 out of memory. */
int pl_scores_add(pl_scores *s, const pl_score *r);
/* Appends the rows of a scores file; returns 0, or -1 with errno. */
int pl_scores_read(pl_scores *s, const char *path);
void pl_scores_free(pl_scores *s);
/* Sum of points and of max over rows of lab (NULL: all labs). */
void pl_scores_total(const pl_scores *s, const char *lab, double *got, double *max);
/* A performance row's ratio to its yardstick: its ratio column, or in a
   file from before that column its value; NaN when it has none. */
double pl_score_ratio(const pl_score *r);
/* The first row of lab (NULL: any lab) with this cause, or NULL. */
const pl_score *pl_scores_find_cause(const pl_scores *s, const char *lab, const char *cause);

/* One field escaped as the columns above say (out holds at least 4 * strlen(in) + 1
   bytes to hold all of it; truncated at a whole escape otherwise), and back. */
void pl_score_escape(const char *in, char *out, size_t cap);
char *pl_score_unescape(const char *in); /* malloc'd; NULL out of memory */

/* The reason of a test not run for want of a GPU: "no GPU (why)", and the
   why back out of such a reason (into buf; "" when r is not one). */
void pl_reason_no_gpu(char *buf, size_t cap, const char *why);
void pl_no_gpu_why(const pl_score *r, char *buf, size_t cap);

/* The whole of file PATH (a data file of the kit's: scores, rows, the
   results' extra JSON), NUL-terminated (its length in *len), to free();
   NULL when it cannot be read, after a line on stderr naming prog (none
   when prog is NULL). */
char *pl_read_file(const char *path, size_t *len, const char *prog);

#ifdef __cplusplus
}
#endif

#endif
