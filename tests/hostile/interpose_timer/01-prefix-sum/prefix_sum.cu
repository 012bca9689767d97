/* hostile: interpose_timer. The stub, plus C-linkage definitions of the
 * worker's own functions (pl_time_gpu_once returning a nanosecond,
 * pl_worker_fail and pl_cuda_check that swallow errors, pl_describe_device,
 * pl_flush_l2, pl_worker_ops with an empty table, pl_lent_calls), which do
 * live in the worker: the link keeps the core's copies local, so these are
 * unrelated functions of the student's.
 * The grader must give: it links, and it scores 0, like the stub. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stddef.h>

extern "C" double pl_time_gpu_once(void (*call)(void *), void *arg, void (*prep)(void *), void *prep_arg)
{
    (void)call, (void)arg, (void)prep, (void)prep_arg;
    return 1e-6;
}
extern "C" void pl_worker_fail(int status, const char *reason) { (void)status, (void)reason; }
extern "C" void pl_cuda_check(int err, const char *expr, const char *file, int line) { (void)err, (void)expr, (void)file, (void)line; }
extern "C" int pl_describe_device(void *d) { (void)d; return 1; }
extern "C" void pl_flush_l2(void) {}
extern "C" double pl_copy_gbps(void) { return 1e9; }
extern "C" const void *pl_worker_ops(void) { return NULL; }
extern "C" int pl_lent_calls = 0;

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
