/* hostile: interpose_cudart. The stub, plus a definition of the CUDA
 * runtime's cudaEventElapsedTime reporting a microsecond for every call,
 * hoping the harness's timing reads through it. The worker links the static
 * runtime, so the name is defined twice.
 * The grader must give: "does not compile" (the link fails), 0 points. */
#include "prefix_sum.h"
#include <cuda_runtime.h>

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    (void)start, (void)end;
    *ms = 0.001f;
    return cudaSuccess;
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
