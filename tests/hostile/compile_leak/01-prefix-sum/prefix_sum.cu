/* hostile: compile_leak. Reads a file of the grading machine at compile
 * time: #include of @@SECRET@@ (planted by the runner outside every hidden
 * folder: mode 0600, under /var/tmp, a random token only the grader may
 * read), whose lines the compiler then quotes in its errors, which the
 * grader shows the student ("does not compile ... First errors:"). The
 * design lets a submission reach, at compile time, its own file, its
 * contract and the harness's public headers only.
 * The grader must give: 0 ("does not compile"), and the token appears
 * nowhere the student can see (the report, results.json, the grade
 * output). */
#include "prefix_sum.h"
#include "@@SECRET@@"

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
