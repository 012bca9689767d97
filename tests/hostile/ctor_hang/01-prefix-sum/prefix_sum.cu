/* hostile: ctor_hang. Sleeps 20 s in a constructor (named hx-ctor_hang),
 * before the worker can answer its first request, hoping to stall grading
 * or have the lab's tests dropped from the total. tests/test_hostile.sh
 * grades it with PRIMLAB_TIMEOUT=10.
 * The grader must give: 0, cut off by the time limit (PRIMLAB_TIMEOUT,
 * with a reason), the maximum unchanged, other labs and students
 * unaffected. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <sys/prctl.h>
#include <unistd.h>

__attribute__((constructor)) static void hx_ctor_hang(void)
{
    prctl(PR_SET_NAME, "hx-ctor_hang");
    sleep(20);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
