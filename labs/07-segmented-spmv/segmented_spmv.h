/* labs/07-segmented-spmv/segmented_spmv.h: the contract of lab 07, the
 * segmented SpMV-scan. Do not edit: grading uses a pristine copy. The
 * handout is README.md beside it.
 *
 * The problem. A sparse matrix in CSR form with `rows` rows and n entries:
 * row r holds entries s[r] .. s[r + 1] - 1, entry l being in column k[l]
 * with value a[l]; s[0] = 0, s[rows] = n, and every row holds at least one
 * entry (s is strictly increasing: no segment is empty). x has one value
 * per column (k[l] indexes it). One iteration computes, for every entry j
 * of row r,
 *
 *     b[j] = a[s[r]] * x[k[s[r]]] + ... + a[j] * x[k[j]]
 *
 * (an inclusive scan of the products, restarted at each row: a segmented
 * scan), then sets a = b. A call runs `iters` iterations in place on a:
 * iters = 0 leaves a as it is. x[k[l]] does not change between
 * iterations: gather it once per call (into scratch), not once per
 * iteration.
 *
 * Every function:
 *   - must accept rows = 0 (n = 0: nothing to do), 1, and every size up to
 *     SS_MAX_ROWS rows and SS_MAX_N entries; a row may hold one entry, or
 *     all n of them;
 *   - reads s, k and x and never writes them, and updates a in place; none
 *     of them alias;
 *   - may add the products of a row's prefix in any order. The grader
 *     compares each a[j] with the exact result, within a bound computed
 *     for that element from its row's length, the magnitudes of its terms
 *     and the errors carried from earlier iterations (README, "How
 *     results are judged"). A scan of the whole array minus each row's
 *     starting prefix exceeds it: do not subtract;
 *   - may use d_scratch, at least SS_SCRATCH_BYTES(n) bytes aligned
 *     to 256 bytes, and must not call cudaMalloc (nor CUB or Thrust: the
 *     yardstick);
 *   - is asynchronous on the default stream, as a kernel launch is (part
 *     a, on the host, returns when it is done).
 */
#ifndef PRIMLAB_LAB07_SEGMENTED_SPMV_H
#define PRIMLAB_LAB07_SEGMENTED_SPMV_H

#include <stddef.h>

#define SS_MAX_ROWS (1 << 26)
#define SS_MAX_N (1 << 28)
/* The gathered x (n floats), a flag or key per entry (n ints), and 16
   bytes per 256 entries for carries between blocks, with 64 KiB to spare. */
#define SS_SCRATCH_BYTES(n) ((size_t)(n) * 8 + ((size_t)(n) / 256 + 1) * 16 + 65536)

/* The lanes of a warp that part b lets work, one row each. */
#define SS_LANES_ONE 1  /* lane 0 only: 1 of 32 */
#define SS_LANES_HALF 2 /* lanes 0 and 16: one per half-warp */
#define SS_LANES_ALL 32 /* every lane */

#ifdef __cplusplus
extern "C" {
#endif

/* (a) The CPU version with OpenMP, on host pointers: the products in a
 *     parallel loop, the rows' scans in a parallel loop over rows, with
 *     `threads` OpenMP threads (1 to 256). */
void segspmv_omp(int rows, int n, const int *s, const int *k, const float *x, float *a, int iters, int threads);

/* (b) Naive GPU: one thread per row, scanning it in a loop; `lanes` of the
 *     32 lanes of each warp have a row (SS_LANES_ONE, _HALF or _ALL), the
 *     others idle. */
void segspmv_naive(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a, int iters,
                   int lanes, void *d_scratch);

/* (c) Intra-warp: one warp per row, 32 elements at a time, a Hillis-Steele
 *     scan with __shfl_up_sync, the running total carried from one group
 *     of 32 to the next by the last lane. */
void segspmv_warp(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a, int iters,
                  void *d_scratch);

/* (d) Load-balanced: a segmented scan over the whole array of n products,
 *     each block a fixed share of the entries whatever the rows' lengths,
 *     a row's start marked by a head flag, carries passed between blocks. */
void segspmv_flat(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a, int iters,
                  void *d_scratch);

#ifdef __cplusplus
}
#endif

#endif
