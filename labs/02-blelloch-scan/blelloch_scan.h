/* labs/02-blelloch-scan/blelloch_scan.h: the contract of lab 02, the
 * work-efficient (Blelloch) scan. Do not edit: grading uses a pristine copy.
 * The handout is README.md beside it.
 *
 * Every function:
 *   - takes device pointers; d_in holds n ints and is read-only; d_out has
 *     room for exactly n ints and never aliases d_in;
 *   - must accept n = 0 (write nothing, launch nothing that fails);
 *   - may work asynchronously on the default stream; the harness
 *     synchronises afterwards and reports any launch error or fault;
 *   - computes sums in int, wrapping like the hardware does;
 *   - may use d_scratch, which holds at least BS_SCRATCH_INTS(n) ints, and
 *     must not call cudaMalloc.
 */
#ifndef PRIMLAB_LAB02_BLELLOCH_SCAN_H
#define PRIMLAB_LAB02_BLELLOCH_SCAN_H

#include <stddef.h>

/* Enough for part (a) to pad n up to a power of two, and for the block sums
   of every level in parts (b) and (c). */
#define BS_SCRATCH_INTS(n) (2 * (size_t)(n) + 4096)

#ifdef __cplusplus
extern "C" {
#endif

/* (a) Exclusive scan in global memory: the up-sweep and the down-sweep, one
 *     kernel launch per tree level, for any n (not only powers of two). */
void scan_blelloch_global(const int *d_in, int *d_out, int n, int *d_scratch);

/* (b) Exclusive scan through shared memory: each block scans its tile with
 *     the up-sweep and the down-sweep in one kernel, two elements per thread,
 *     and the tiles are combined hierarchically for any n. */
void scan_blelloch_shared(const int *d_in, int *d_out, int n, int *d_scratch);

/* (b) The same with `threads` threads per block (a power of two from 32 to
 *     1024): the block-size experiment of the handout. */
void scan_blelloch_shared_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads);

/* (c) Inclusive scan, d_out[i] = d_in[0] + ... + d_in[i], built on (b). */
void scan_blelloch_inclusive(const int *d_in, int *d_out, int n, int *d_scratch);

#ifdef __cplusplus
}
#endif

#endif
