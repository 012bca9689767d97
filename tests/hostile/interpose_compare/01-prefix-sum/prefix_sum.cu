/* hostile: interpose_compare. The stub, plus C-linkage definitions of the
 * grader's comparison and verdict functions (pl_compare_i32 saying "pass",
 * pl_diagnose, pl_status_name, pl_perf_points...), hoping the harness calls
 * these instead of its own. The parent compares and is never linked with
 * student code; the worker's core has every harness symbol made local.
 * The grader must give: it links (a student may name a helper anything),
 * and it scores 0, like the stub. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <string.h>

extern "C" int pl_compare_i32(const void *cmp, void *diag)
{
    (void)cmp;
    if (diag)
        memset(diag, 0, 64);
    return 1; /* "pass" */
}
extern "C" int pl_diagnose(const void *cmp, void *diag) { return pl_compare_i32(cmp, diag); }
extern "C" const char *pl_status_name(int status) { (void)status; return "OK"; }
extern "C" double pl_perf_points(const void *perf, double ratio) { (void)perf, (void)ratio; return 1e9; }
extern "C" int pl_check_call(const char *what) { (void)what; return 0; }

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
