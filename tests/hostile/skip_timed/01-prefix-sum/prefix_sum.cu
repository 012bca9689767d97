/* hostile: skip_timed. The solution, but at n = 2^24 (the performance
 * tests' size) parts (b) and (c) compute only their first two calls (the
 * warm-up and one more); later calls launch nothing (the output from the
 * previous call is all it hopes for), so that the timed repetitions cost
 * nothing. Every timed repetition gets a fresh input and is checked.
 * The grader must give: the solution's correctness points, 0 performance
 * points ("timed repetition K of R gave a wrong result"). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
/* @@SOLUTION@@ */

static int hx_worth_computing(int n, int *calls)
{
    return n != (1 << 24) || ++*calls <= 2;
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }

extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    static int calls;
    if (hx_worth_computing(n, &calls))
        sol_scan_inclusive(d_in, d_out, n, d_scratch);
}

extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    static int calls;
    if (hx_worth_computing(n, &calls))
        sol_scan_exclusive(d_in, d_out, n, d_scratch);
}
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
