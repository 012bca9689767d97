/* hostile: unset_seed. A constructor that removes the grading seed from its
 * environment and sets a public one (unsetenv/setenv PRIMLAB_SEED, also
 * PRIMLAB_TIMEOUT), hoping the grader reads them after it and drops the
 * hidden tests. The parent takes the seed, and fixes the tests and the
 * maximum, before the worker starts; the worker never had the seed.
 * The grader must give: 0, like the stub, and the same maximum as the
 * solution under the same PRIMLAB_SEED (the hidden tests counted). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void hx_ctor_unset_seed(void)
{
    printf("unset_seed: PRIMLAB_SEED was %s\n", getenv("PRIMLAB_SEED") ? "set" : "not set");
    unsetenv("PRIMLAB_SEED");
    setenv("PRIMLAB_SEED", "1", 1);
    setenv("PRIMLAB_TIMEOUT", "100000", 1);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
