/* harness/parent/results.h: what is made from the scores rows (scores.h):
 * the files and lines that course tools, CI and people read, and what
 * grading decides from the rows. Each writer takes the rows and nothing
 * else, so a result never disagrees with its rows.
 *
 *   pl_write_gradescope  Gradescope's results.json
 *   pl_write_autolab     Autolab's scores line: {"scores": {"LabNN": x, ...}, "scoreboard": [total, ...]}
 *   pl_write_tap         TAP (version 12): "1..N", then "ok|not ok K - name[: STATUS: reason]"
 *   pl_write_junit       JUnit XML: one testsuite per lab, a testcase per row
 *   pl_write_gradebook_row  "student,labNN,...,total", points as people read them
 *   pl_write_gradebook_max  the same with each lab's maximum: the points possible
 *   pl_write_score_line  "Score: x/y", or, when no test could run here, why there is none
 *   pl_write_subtotals   "labNN subtotal: x/y" per lab, as the lab binaries print them
 * and, for rows with no score (pl_scores_unscored), in their place:
 *   pl_write_no_score_line      "Score: none, no test could run on this machine: why"
 *   pl_write_gradescope_not_run results.json with no score and no scored test
 *   pl_write_gradebook_blank    "student,,...,": every cell blank
 *
 * A row passes when it earned all its points (points >= max). No test
 * could run when a row's cause is PL_CAUSE_NOGPU, or in a dry run (no GPU
 * asked for, PRIMLAB_NO_GPU=1): a 0 would read as a grade, so every file
 * made from such rows has no score at all (one answer: the Score line, the
 * summary, the gradebook and results.json all say "none", with the reason
 * once) and no Autolab line may be printed (pl_autolab_refused).
 */
#ifndef PRIMLAB_RESULTS_H
#define PRIMLAB_RESULTS_H

#include "scores.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Gradescope's results.json. extra: text added to the top-level output
   (e.g. the files of a submission that were ignored), or NULL. */
void pl_write_gradescope(FILE *f, const pl_scores *s, const char *extra);
void pl_write_autolab(FILE *f, const pl_scores *s, const char *const *labs, int nlabs);
/* The rows of lab (NULL: all). */
void pl_write_tap(FILE *f, const pl_scores *s, const char *lab);
void pl_write_junit(FILE *f, const pl_scores *s, const char *lab);
/* A gradebook row: the points of each lab of labs and their sum (the total
   of the labs listed; of every row when nlabs is 0). */
void pl_write_gradebook_row(FILE *f, const pl_scores *s, const char *student, const char *const *labs, int nlabs);
/* The same row of each lab's maximum (of rows as labNN fill writes them for
   every test: the points possible). */
void pl_write_gradebook_max(FILE *f, const pl_scores *s, const char *name, const char *const *labs, int nlabs);

void pl_write_subtotals(FILE *f, const pl_scores *s);

/* The row that says no test could run on this machine, or NULL. */
const pl_score *pl_scores_no_gpu(const pl_scores *s);
/* The Score line. nogpu_note: say when no test could run (make check's
   report) rather than print 0 of the maximum. */
void pl_write_score_line(FILE *f, const pl_scores *s, int nogpu_note);
#define PL_AUTOLAB_REFUSED "no scores for Autolab: no test could run on this machine (status 3)"
/* Why Autolab gets no scores line (a line for people, its status is 3), or
   NULL when it gets one. */
const char *pl_autolab_refused(const pl_scores *s);
/* The reason of a dry run that gives no score even where no test needed a
   GPU (every lab missing or not compiling): the lab binaries' own words. */
#define PL_DRY_REASON "no GPU (PRIMLAB_NO_GPU is set)"
/* Why these rows have no score, or NULL when they have one: the reason of
   the first row not run for want of a GPU; else, when dry (the run was asked
   to go without a GPU: PRIMLAB_NO_GPU=1, or a record line of mode dry),
   PL_DRY_REASON. */
const char *pl_scores_unscored(const pl_scores *s, int dry);
/* "Score: none, no test could run on this machine: WHY". */
void pl_write_no_score_line(FILE *f, const char *why);
/* Gradescope's results.json for rows with no score (why): no "score" and
   no test. Gradescope's spec makes the top-level "score" "optional, but
   required if not on each test case": it takes the score from there or
   sums the tests' scores. A 0 in either would be recorded as the grade;
   with neither there is no score to record: the submission gets no
   autograder score (at worst Gradescope calls the results malformed, which
   the staff see and rerun on a GPU), never a 0.
   "output", which the student sees, says the tests did not run and why,
   then each lab that was not graded (missing, not compiling) with its
   reason, then extra. */
void pl_write_gradescope_not_run(FILE *f, const pl_scores *s, const char *extra, const char *why);
/* A gradebook row for rows with no score: the student, then nlabs + 1
   blank cells (no lab score, no total). */
void pl_write_gradebook_blank(FILE *f, const char *student, int nlabs);
/* Full marks: the exit status 0 of grading. */
int pl_scores_full(const pl_scores *s);

/* Why lab's run stopped on the grading machine's account (the lab binary's
   status 3), from its rows, as the line check.sh prints after "check: ":
   "the grading machine has no GPU (not your code): ...". */
void pl_machine_fault(const pl_scores *s, const char *lab, char *buf, size_t cap);

/* A JSON string, quoted; bytes that are not UTF-8 become U+FFFD. */
void pl_json_string(FILE *f, const char *text);
/* XML character data or attribute text, escaped; bytes that are not UTF-8,
   and characters XML 1.0 cannot hold, become U+FFFD. */
void pl_xml_text(FILE *f, const char *text);

/* Points for people: "3", "0.55", "30.12" (a static buffer per slot 0..3). */
const char *pl_points_str(double v, int slot);

#ifdef __cplusplus
}
#endif

#endif
