/* hostile: exit_ctor. exit(0) in a constructor, before the worker can
 * answer anything, hoping a worker that leaves "cleanly" reads as a pass or
 * makes the lab's tests vanish from the total.
 * The grader must give: 0 with a reason (the worker did not start), the
 * maximum unchanged. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void hx_ctor_exit(void)
{
    puts("exit_ctor: all tests passed");
    exit(0);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
