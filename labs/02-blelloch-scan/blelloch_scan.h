/* labs/02-blelloch-scan/blelloch_scan.h: the contract of lab 02, the
 * work-efficient (Blelloch) scan. Do not edit: grading uses a pristine copy.
 * The handout is README.md beside it.
 *
 * Every function:
 *   - takes device pointers; d_in holds n ints and is read-only; d_out has
 *     room for exactly n ints and never aliases d_in;
 *   - must accept n = 0 (write nothing, launch nothing that fails) and
 *     every n up to BS_MAX_N (the grader tests one within 1024 of it where
 *     the device's memory allows: n padded to a power of two, a block
 *     count or a byte count computed in int overflows there);
 *   - may work asynchronously on the default stream; the harness
 *     synchronises afterwards and reports any launch error or fault;
 *   - computes sums in int, wrapping like the hardware does;
 *   - may use d_scratch, when it takes one, which holds at least
 *     BS_SCRATCH_INTS(n) ints and is aligned to 256 bytes, and must not call
 *     cudaMalloc.
 */
#ifndef PRIMLAB_LAB02_BLELLOCH_SCAN_H
#define PRIMLAB_LAB02_BLELLOCH_SCAN_H

#include <stddef.h>

/* The largest n of every part: the largest int. */
#define BS_MAX_N 2147483647

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
 *     the up-sweep and the down-sweep in one kernel, and the tiles are
 *     combined hierarchically for any n. The textbook tile is two elements
 *     per thread; more per thread (each thread first sums its own run
 *     serially) is allowed, and is what makes it fast. */
void scan_blelloch_shared(const int *d_in, int *d_out, int n, int *d_scratch);

/* (b) The same with `threads` threads per block (a power of two from 32 to
 *     1024): the block-size experiment of the handout. */
void scan_blelloch_shared_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads);

/* (c) Inclusive scan, d_out[i] = d_in[0] + ... + d_in[i], built on (b). */
void scan_blelloch_inclusive(const int *d_in, int *d_out, int n, int *d_scratch);

/* Warp-synchronous code (the handout's section "Part (w)"). Each function
 * below scans every segment of BS_SEGMENT consecutive elements on its own,
 * one warp per segment, inclusively:
 *     d_out[i] = d_in[s] + ... + d_in[i],  s = BS_SEGMENT * (i / BS_SEGMENT),
 * for any n (the last segment may be partial). They take no scratch. */
#define BS_SEGMENT 32

/* (w) The segmented scan written so that no lane of a warp reads a value
 *     another lane writes without __syncwarp() (or a shuffle) ordering the
 *     two. Graded for correctness only. */
void scan_warp_safe(const int *d_in, int *d_out, int n);

/* Given in full in the stub and never graded: the pre-Volta textbook code,
 * which assumes that the 32 lanes of a warp run in lockstep (volatile shared
 * memory, no barrier), and the same code without `volatile`. Both have data
 * races; `lab02 warps` runs them many times and counts the wrong results. */
void scan_warp_unsafe(const int *d_in, int *d_out, int n);
void scan_warp_unsafe_novolatile(const int *d_in, int *d_out, int n);

#ifdef __cplusplus
}
#endif

#endif
