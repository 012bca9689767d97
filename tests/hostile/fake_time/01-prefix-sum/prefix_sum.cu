/* hostile: fake_time. The solution, launched on a stream of its own
 * created cudaStreamNonBlocking, returning at once: the harness's CUDA
 * events on the default stream then enclose nothing, and the event time is
 * near zero. The harness synchronises the device after the call, and
 * believes the event time only down to its own clock around the request.
 * The grader must give: the solution's correctness points, and no more
 * performance points than the solution (only the real speed counts). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
/* @@SOLUTION@@ */

static void hx_side_stream(void)
{
    if (!hx_stream)
        cudaStreamCreateWithFlags(&hx_stream, cudaStreamNonBlocking);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_side_stream(); sol_scan_inclusive(d_in, d_out, n, d_scratch); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_side_stream(); sol_scan_exclusive(d_in, d_out, n, d_scratch); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
