/* hostile: interpose_gen. The stub, plus C-linkage definitions of the
 * grader's input generators and seed functions (pl_gen_ints filling zeros,
 * so that a poisoned or untouched output might look right; pl_seed_mix,
 * pl_rng_next), hoping the harness generates inputs with them. Inputs are
 * made by the parent, never linked with student code.
 * The grader must give: it links, and it scores 0, like the stub. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern "C" void pl_gen_ints(int *a, size_t len, uint64_t seed, int lo, int hi)
{
    (void)seed, (void)lo, (void)hi;
    memset(a, 0, len * sizeof *a);
}
extern "C" uint64_t pl_seed_mix(uint64_t seed, uint64_t a, uint64_t b) { (void)seed, (void)a, (void)b; return 1; }
extern "C" uint64_t pl_rng_next(void *state) { (void)state; return 0; }
extern "C" void pl_dbuf_poison(void *b) { (void)b; } /* the worker's: outputs left unpoisoned? */

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
