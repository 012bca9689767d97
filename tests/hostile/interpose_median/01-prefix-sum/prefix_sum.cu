/* hostile: interpose_median. The stub, plus C-linkage definitions of the
 * grader's statistics (pl_median returning a nanosecond, pl_now frozen),
 * hoping timings or the parent's clock read through them.
 * The grader must give: it links, and it scores 0, like the stub. */
#include "prefix_sum.h"
#include <cuda_runtime.h>

extern "C" double pl_median(double *v, int n) { (void)v, (void)n; return 1e-6; }
extern "C" double pl_now(void) { return 0.0; }
extern "C" double pl_env_seconds(const char *name, double def) { (void)name, (void)def; return 1e9; }

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
