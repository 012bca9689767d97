/* labs/06-shuffle-reduction/shuffle_reduction.h: the contract of lab 06,
 * warp-shuffle reduction. Do not edit: grading uses a pristine copy. The
 * handout is README.md beside it.
 *
 * Every reduction writes the sum of d_in[0 .. n) to d_out[0], one element,
 * in device memory. Every function:
 *   - takes device pointers; d_in is read-only and never aliases d_out;
 *   - must accept n = 0 (the sum is 0: write it), n = 1 and every n up to
 *     SR_MAX_N (the grader tests one within 1024 of it where the device's
 *     memory allows: compute indices and grid sizes so that they cannot
 *     overflow there);
 *   - may use d_scratch, at least SR_SCRATCH_BYTES(n) bytes aligned to 256
 *     bytes, and must not call cudaMalloc;
 *   - may add in any order. The grader compares with the exact sum, within
 *     a tolerance the README states (section "How results are judged"): on
 *     the graded inputs every partial sum is exact in float (or double), so
 *     the tolerance is zero there, and an element left out, counted twice
 *     or read from the wrong place shows at any size.
 */
#ifndef PRIMLAB_LAB06_SHUFFLE_REDUCTION_H
#define PRIMLAB_LAB06_SHUFFLE_REDUCTION_H

#include <stddef.h>

/* Room for one partial sum (a double) per block of 32 elements, however the
   blocks are arranged, and 64 KiB to spare. */
#define SR_SCRATCH_BYTES(n) ((size_t)(n) / 32 * sizeof(double) + 65536)
#define SR_MAX_N 2147483647

#ifdef __cplusplus
extern "C" {
#endif

/* (a) A shared-memory tree in each block: each thread adds up its share of
 *     the input, the block halves its partial sums in shared memory with a
 *     barrier between steps, and the block sums are reduced the same way. */
void reduce_tree_f32(const float *d_in, float *d_out, int n, void *d_scratch);
void reduce_tree_f64(const double *d_in, double *d_out, int n, void *d_scratch);

/* (b) The same with warp shuffles (__shfl_down_sync or __shfl_xor_sync)
 *     inside each warp: shared memory only to pass one value per warp. */
void reduce_shfl_f32(const float *d_in, float *d_out, int n, void *d_scratch);
void reduce_shfl_f64(const double *d_in, double *d_out, int n, void *d_scratch);

#ifdef __cplusplus
}
#endif

#endif
