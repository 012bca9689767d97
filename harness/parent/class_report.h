/* harness/parent/class_report.h: the class report (make report), made from
 * a grading folder's data, never from its reports for people.
 *
 * Reads GRADES (the folder make grade writes):
 *   .graded.tsv    the record: student, sha256, UTC time, host, GPU index,
 *                  GPU model, Slurm task, UTC start, seconds, mode (a
 *                  "dry" grading, PRIMLAB_NO_GPU=1, has no score: its
 *                  student is shown as not run); the last line of a
 *                  student is the current one
 *   .ungraded.tsv  (may be absent) student, UTC time, why
 *   lms-unmatched.txt  (with ROSTER; may be absent) harness/lms.py's list of
 *                  the roster's students with no submission, two spaces
 *                  and the student a line under "lms: roster students with
 *                  no submission (N):": counted as handing in no lab
 *   <student>/scores.tsv, read with pl_scores_read (scores.h) one student
 *                  at a time and folded into aggregates, then freed: a class
 *                  of 1,000 students of 1,600 rows each reads in a few
 *                  seconds and holds per test and per bug class, not per row
 * and writes, each to a temporary file renamed into place:
 *   GRADES/report.html  one self-contained page (no script, nothing
 *                       fetched; inline SVG figures drawn by one gnuplot run)
 *   GRADES/report.md    the same tables in Markdown, for a terminal
 * Sections: the class (who is graded, scores per lab), the bug-class census
 * (bugs.h), performance (the class's ratios against the full-marks target
 * and the solution's), the leaderboard (a table per lab: the students
 * ranked by the geometric mean of their ratios, the check service's
 * numbers, harness/serve/board.h; pseudonyms with anon), grading (GPU
 * models and seconds), and last, as the longest, the tests (pass rate,
 * lowest first).
 *
 * Anonymous (anon): every student is shown as "student-" and 8 or more hex
 * digits of SipHash-2-4 of the name, keyed by GRADES/.anon-key (16 random
 * bytes, made on first use and kept): the same name gets the same pseudonym
 * in every report of that folder, and a class list does not give the
 * pseudonyms back without the key. No links to students' reports then.
 */
#ifndef PRIMLAB_CLASS_REPORT_H
#define PRIMLAB_CLASS_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_report_opts {
    int anon;              /* pseudonyms, no links */
    const char *reference; /* the solution's scores.tsv (its performance values), or NULL */
    const char *gnuplot;   /* the command that draws figures ("gnuplot"), or NULL for none */
    FILE *warn;            /* where warnings go (a line each), or NULL */
} pl_report_opts;

/* Writes GRADES/report.html and GRADES/report.md. Returns 0; 2 when GRADES
   or the reference cannot be read, 1 when a report cannot be written; err
   (cap bytes) then holds one line saying why. A student whose scores cannot
   be read is listed as such in the report, not an error. */
int pl_class_report(const char *grades, const pl_report_opts *o, char *err, size_t cap);

/* Summary statistics of n values (sorted in place): population standard
   deviation; all 0 for n = 0. */
typedef struct pl_stats {
    int n;
    double mean, median, min, max, sd, q1, q3;
} pl_stats;
void pl_stats_of(double *v, int n, pl_stats *s);

/* SipHash-2-4 of len bytes under a 16-byte key. */
uint64_t pl_siphash(const unsigned char key[16], const void *data, size_t len);

/* Text written into HTML (& < > " ' as entities, control bytes as spaces),
   into a URL path segment (every byte but [A-Za-z0-9._~-] as %XX), and
   into a Markdown table cell (| and \ escaped, control bytes as spaces). */
void pl_html_puts(FILE *f, const char *s);
void pl_url_puts(FILE *f, const char *s);
void pl_md_puts(FILE *f, const char *s);

/* Copies gnuplot's SVG file path into f as inline SVG: the <?xml and
   <!DOCTYPE lines and the xmlns attributes dropped (HTML needs neither),
   every id and reference to one prefixed with prefix so that several
   figures on one page keep their ids apart. Returns 0, or -1 with errno. */
int pl_svg_inline(FILE *f, const char *path, const char *prefix);

#ifdef __cplusplus
}
#endif

#endif
