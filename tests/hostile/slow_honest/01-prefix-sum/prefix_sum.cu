/* hostile: slow_honest. Not an attack: the yardstick of the timing attacks.
 * The solution, with parts (b) and (c) made slower by a fixed 0.3 ms spin
 * on the GPU per call (_lib/slow.h). fake_time_slow, slow_yardstick,
 * yardstick_hog and precompute_stage run this same code and add one attack
 * each; none may earn more performance points than this does.
 * The grader must give: the solution's correctness points, and
 * performance points for its (lower) speed. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
/* @@SOLUTION@@ */
/* @@INCLUDE slow.h@@ */

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_slow_scan(d_in, d_out, n, d_scratch, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_slow_scan(d_in, d_out, n, d_scratch, 1); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
