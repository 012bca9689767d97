/* labs/04-compaction/compaction.h: the contract of lab 04, stream
 * compaction. Do not edit: grading uses a pristine copy. The handout is
 * README.md beside it.
 *
 * Compaction keeps the elements of d_in that are greater than zero, in their
 * original order, packed at the front of d_out. Every function:
 *   - takes device pointers; d_in holds n ints and is read-only; d_out has
 *     room for n ints and never aliases d_in;
 *   - must accept n = 0 and every n up to CP_MAX_N (the grader tests one
 *     within 1024 of it where the device's memory allows: a tile count
 *     (n + TILE - 1) / TILE computed in int overflows there);
 *   - leaves d_out[count .. n) untouched (writing there is a bug the
 *     harness reports);
 *   - may use d_scratch, at least CP_SCRATCH_INTS(n) ints aligned to 256
 *     bytes (so 8-byte words may live there), and must not call cudaMalloc.
 */
#ifndef PRIMLAB_LAB04_COMPACTION_H
#define PRIMLAB_LAB04_COMPACTION_H

#include <stddef.h>

#define CP_MAX_N 2147483647
#define CP_SCRATCH_INTS(n) (2 * (size_t)(n) + 65536)

#ifdef __cplusplus
extern "C" {
#endif

/* (a) The map: d_flags[i] = 1 if d_in[i] > 0, else 0. */
void compact_flags(const int *d_in, int *d_flags, int n);

/* (b) Map, scan, scatter: flags, their exclusive scan (the output index of
 *     each kept element), then every kept element written to its index.
 *     Returns the number kept (the stub returns -1: not implemented). */
int compact_scan(const int *d_in, int *d_out, int n, int *d_scratch);

/* (c) One pass over the input: each warp finds its kept elements with a
 *     vote (__ballot_sync) and ranks them with __popc; each block gets one
 *     offset into d_out from the blocks before it. Returns the number kept
 *     (the stub returns -1). */
int compact_warp(const int *d_in, int *d_out, int n, int *d_scratch);

/* (c) The same with `threads` threads per block (a multiple of 32 from 32 to
 *     1024; the harness calls it with the powers of two): the block-size
 *     experiment of the handout. Returns the number kept (the stub returns
 *     -1). The scratch is still CP_SCRATCH_INTS(n). */
int compact_warp_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads);

/* Provided by the harness, for part (b): an exclusive scan of n ints
 * (d_out may equal d_in), CUB underneath. You may use your own scan from
 * lab 01 or 02 instead. */
void primlab_scan_exclusive(const int *d_in, int *d_out, int n);

#ifdef __cplusplus
}
#endif

#endif
