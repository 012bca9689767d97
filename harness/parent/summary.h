/* harness/parent/summary.h: the report that `labNN check` prints, with
 * repeated outcomes folded into one group.
 *
 * A stub fails every test of a part for the same reason; printed one line
 * per test that is hundreds of near-identical lines hiding the few that
 * differ. Tests arrive in order; consecutive tests of one part with the same
 * outcome (same status and same diagnosis: reasons equal once every run of
 * decimal digits counts as one placeholder) form a group, printed in the
 * columns of a single test so OK/FAIL and the points line up:
 *
 *   01.b inclusive scan, any n: 11 of 11 tests                   FAIL      0.84s  0/11
 *       not implemented yet (the output was never written)
 *       n = 0, 1, 31, 32, 33, 1023, 1024, 1025, 65537, 4194307, 67108864
 *   01.c exclusive scan, any n: 11 of 11 tests                   OK        0.91s  11/11  n = 0 .. 67108864
 *
 * In a group's reason a number that differs between its tests shows as '#'.
 * A group of one, a performance test (never grouped: its reason holds the
 * measured ratio) and every test in verbose mode print as one test always
 * has: "%-60s %-7s %6.2fs  %s/%s", then, unless it passed a correctness
 * test, its reason and detail indented by four spaces.
 *
 * A test that could not run on this machine (no GPU: not_run) has neither
 * seconds nor points, and scores nothing either way: its line ends "not run
 * here" where the seconds and points would be, never "0/8":
 *
 *   01.a inclusive scan, one block: 8 of 8 tests                 SKIP    not run here
 *       no GPU (PRIMLAB_NO_GPU is set)
 *       n = 0, 1, 31, 32, 33, 1000, 1023, 1024
 *
 * Interface:
 *   s = pl_summary_new(stdout, verbose);   NULL if out of memory
 *   pl_summary_add(s, &test);              per test; strings are copied
 *   pl_summary_flush(s);                   prints the pending group, if any
 *   pl_summary_free(s);                    flushes, then frees
 * Output is fflush()ed after everything printed, so progress shows live.
 */
#ifndef PRIMLAB_SUMMARY_H
#define PRIMLAB_SUMMARY_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_sum_test {
    const char *group;  /* "01.b": tests group only within one part */
    const char *title;  /* "01.b inclusive scan, any n": the name less the size (NULL: group) */
    const char *name;   /* "01.b inclusive scan, any n, n=1025": printed for a single test */
    const char *size;   /* "n=1025" or "n=1025, keep=0.5": what varies within a part */
    const char *status; /* "OK", "FAIL", "ERROR", "CRASH", "TIMEOUT", "SKIP" */
    int perf;           /* a performance test: never grouped */
    int total_in_part;  /* the part's number of tests, for "11 of 11"; 0 if unknown */
    int not_run;        /* could not run on this machine (no GPU): no seconds, no points */
    double seconds, points, max;
    const char *reason, *detail; /* may be NULL or "" */
} pl_sum_test;

typedef struct pl_summary pl_summary;

pl_summary *pl_summary_new(FILE *out, int verbose);
/* Returns 0, or -1 when memory ran out: the test was still printed, alone. */
int pl_summary_add(pl_summary *s, const pl_sum_test *t);
void pl_summary_flush(pl_summary *s);
void pl_summary_free(pl_summary *s);

#ifdef __cplusplus
}
#endif

#endif
