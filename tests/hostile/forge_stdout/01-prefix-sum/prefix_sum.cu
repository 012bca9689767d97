/* hostile: forge_stdout. Prints what a grader's output looks like, hoping
 * a script scrapes it: Autolab's last-line JSON with 42 points, "Score:
 * 42/42", "lab01 subtotal: 42/42", grade.sh's own last line, on stdout and
 * stderr, from a constructor, from every call and at exit; then is the
 * stub. The student's prints go to a capped log, never to the report or
 * the grader's output, and are never parsed.
 * The grader must give: 0, and the last line of make check / make grade
 * (and check.sh's Autolab line) is still the grader's own. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static void hx_forge_lines(void)
{
    const char *lines = "lab01 subtotal: 42/42\nScore: 42/42\n"
                        "{\"scores\": {\"Lab01\": 42}, \"scoreboard\": [42], \"hx\": \"hxforged\"}\n"
                        "graded 1, skipped 0; gradebook: /hxforged/gradebook.csv\n";
    fputs(lines, stdout);
    fputs(lines, stderr);
    fflush(stdout);
}

static void hx_at_exit(void) { hx_forge_lines(); }

__attribute__((constructor)) static void hx_ctor_forge_stdout(void)
{
    hx_forge_lines();
    atexit(hx_at_exit);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; hx_forge_lines(); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_forge_lines(); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_forge_lines(); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
