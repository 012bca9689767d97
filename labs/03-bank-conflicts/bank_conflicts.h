/* labs/03-bank-conflicts/bank_conflicts.h: the contract of lab 03,
 * shared-memory bank conflicts. Do not edit: grading uses a pristine copy.
 * The handout is README.md beside it.
 *
 * All pointers are device pointers; inputs are read-only and never alias
 * outputs; calls may run asynchronously on the default stream.
 */
#ifndef PRIMLAB_LAB03_BANK_CONFLICTS_H
#define PRIMLAB_LAB03_BANK_CONFLICTS_H

#include <stddef.h>

/* ---- (a) the stride microbenchmark --------------------------------------
 * Each block first copies d_in[0 .. BC_SMEM_WORDS) into shared memory. Then
 * thread g (global index, g < BC_STRIDE_THREADS) reads BC_REPS times the
 * shared word at index (lane * stride) mod W, where lane = g % 32, and writes
 * the sum of its reads to d_out[g]. The reads must really happen each time
 * (read through a volatile pointer): the time is the lesson.
 *   stride_read32: 4-byte words, W = BC_SMEM_WORDS, d_out[g] = BC_REPS * word
 *   stride_read64: 8-byte words, word w is d_in[2w] (low half) and
 *                  d_in[2w + 1] (high half), W = BC_SMEM_WORDS / 2, and
 *                  d_out[g] = the low 32 bits of BC_REPS * word
 * stride is 1 .. 64. Sums wrap like unsigned integers. */
#define BC_SMEM_WORDS 4096
#define BC_REPS 256
#define BC_STRIDE_THREADS (1 << 20)

/* ---- (b) transposes of a side x side float matrix ------------------------
 * d_out[c * side + r] = d_in[r * side + c] for 0 <= side <= BC_MAX_SIDE (0
 * writes nothing); tiles are 32 x 32, the last ones partial. BC_MAX_SIDE is
 * the largest side whose side * side still fits in an int (46340^2 =
 * 2147395600 < 2^31 - 1 < 46341^2), so that r * side + c never overflows;
 * the grader tests a side within 1024 of it where memory allows. */
#define BC_TILE 32
#define BC_MAX_SIDE 46340

/* ---- (c) the scan of lab 02 (exclusive, 0 <= n <= BC_MAX_N), without and
 * with padding; d_scratch holds at least BC_SCRATCH_INTS(n) ints, aligned to
 * 256 bytes. */
#define BC_MAX_N 2147483647
#define BC_SCRATCH_INTS(n) ((size_t)(n) / 16 + 4096)

#ifdef __cplusplus
extern "C" {
#endif

void stride_read32(const int *d_in, int *d_out, int stride);              /* (a4) */
void stride_read64(const int *d_in, int *d_out, int stride);              /* (a8) */

void transpose_naive(const float *d_in, float *d_out, int side);          /* (b0) global memory only */
void transpose_tiled(const float *d_in, float *d_out, int side);          /* (b1) tile[32][32] */
void transpose_padded(const float *d_in, float *d_out, int side);         /* (b2) tile[32][33] */
void transpose_swizzled(const float *d_in, float *d_out, int side);       /* (b3) tile[32][32], column ^ row */

void scan_unpadded(const int *d_in, int *d_out, int n, int *d_scratch);   /* (c0) lab 02's shared scan */
void scan_padded(const int *d_in, int *d_out, int n, int *d_scratch);     /* (c) conflict-free padding */

#ifdef __cplusplus
}
#endif

#endif
