/* hostile: fake_time_slow. fake_time's attack on slow_honest's code: parts
 * (b) and (c) run on a stream of their own, created
 * cudaStreamNonBlocking, and return at once, so that the harness's CUDA
 * events enclose nothing. The parent then uses its own clock around the
 * request, less a slack it allows for the round trip (0.25 ms + 5%): a
 * call whose events say zero is charged less than the wall time an honest
 * call of the same speed is charged.
 * The grader must give: the solution's correctness points, and no more
 * performance points than slow_honest (same code, no attack). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
/* @@SOLUTION@@ */
/* @@INCLUDE slow.h@@ */

static void hx_side_stream(void)
{
    if (!hx_stream)
        cudaStreamCreateWithFlags(&hx_stream, cudaStreamNonBlocking);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_side_stream(); hx_slow_scan(d_in, d_out, n, d_scratch, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_side_stream(); hx_slow_scan(d_in, d_out, n, d_scratch, 1); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
