/* labs/01-prefix-sum/prefix_sum.h: the contract of lab 01 (prefix sum,
 * Hillis-Steele). Do not edit: grading uses a pristine copy of this file.
 * The handout is README.md beside it.
 *
 * Every function:
 *   - takes device pointers; d_in holds n ints and is read-only; d_out has
 *     room for exactly n ints and never aliases d_in;
 *   - must accept n = 0 (write nothing, launch nothing that fails) and
 *     every n up to PS_MAX_N (the grader tests one within 1024 of it where
 *     the device's memory allows: a block count (n + 1023) / 1024 computed
 *     in int overflows there, so compute sizes and offsets in long or size_t);
 *   - may launch work asynchronously on the default stream; the harness
 *     synchronises afterwards and reports any launch error or fault;
 *   - computes sums in int, wrapping like the hardware does.
 */
#ifndef PRIMLAB_LAB01_PREFIX_SUM_H
#define PRIMLAB_LAB01_PREFIX_SUM_H

#include <stddef.h>

/* Part (a) must handle n up to this: one thread block's worth. */
#define PS_BLOCK_MAX 1024

/* Parts (b) and (c) must handle n up to this: the largest int. */
#define PS_MAX_N 2147483647

/* Device scratch the harness hands parts (b) and (c): at least this many
   ints, aligned to 256 bytes. With blocks of B >= 64 elements that is room
   for two arrays per level of the hierarchy (the block sums and their scan,
   n/B + n/B^2 + ... each); with B = 32, for one array per level only (scan
   the sums in place). Use it instead of calling cudaMalloc. */
#define PS_SCRATCH_INTS(n) ((size_t)(n) / 16 + 4096)

#ifdef __cplusplus
extern "C" {
#endif

/* (a) Inclusive scan of 0 <= n <= PS_BLOCK_MAX elements with ONE thread
 *     block: d_out[i] = d_in[0] + ... + d_in[i]. */
void scan_inclusive_block(const int *d_in, int *d_out, int n);

/* (b) Inclusive scan of any n >= 0 elements. */
void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch);

/* (b) The same with blocks of `threads` threads (a power of two from 32 to
 *     1024): the block-size experiment of the handout. Only these values
 *     are called; the scratch is still PS_SCRATCH_INTS(n), which at 32
 *     threads holds one array of block sums per level (see above). */
void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads);

/* (c) Exclusive scan of any n >= 0 elements:
 *     d_out[0] = 0, d_out[i] = d_in[0] + ... + d_in[i-1]. */
void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch);

#ifdef __cplusplus
}
#endif

#endif
