/* labs/06-shuffle-reduction/shuffle_reduction.h: the contract of lab 06,
 * warp-shuffle reduction and CSR SpMV. Do not edit: grading uses a pristine copy. The
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

/* CSR sparse matrix-vector products y = A x (parts c and d).
 *
 * A has `rows` rows and nnz = d_row_ptr[rows] entries: row r holds the
 * entries d_row_ptr[r] .. d_row_ptr[r + 1] - 1, entry e being
 * A[r][d_col[e]] = d_val[e]; d_row_ptr[0] = 0, columns are in range for d_x
 * and increasing within a row; a row may be empty (its y is 0: write it).
 * Every function:
 *   - takes device pointers; the matrix and d_x are read-only, and d_y
 *     (rows elements) aliases none of them;
 *   - must accept rows = 0 (nothing to write), 1, and every rows up to
 *     SPMV_MAX_ROWS with nnz up to SPMV_MAX_NNZ: there the thread count
 *     rows * group reaches 2^31 and an entry index stepping by group
 *     passes 2^31 - 1 (row * group + lane itself stays below 2^31), so
 *     compute them in 64 bits;
 *   - must not call cudaMalloc, and must not call cuSPARSE (the yardstick);
 *   - may add a row's products in any order. The grader compares each y[r]
 *     with the exact dot product, within the bound of a sum of the row's
 *     products in any order (README, "How results are judged").
 */
#define SPMV_MAX_ROWS (1 << 26)
#define SPMV_MAX_NNZ 2147483647
/* The group sizes of the vector kernel (d); 0 asks the kernel to choose. */
#define SPMV_GROUP_AUTO 0

/* (c) Scalar CSR: one thread per row. */
void spmv_scalar_f32(int rows, int nnz, const int *d_row_ptr, const int *d_col, const float *d_val,
                     const float *d_x, float *d_y);
void spmv_scalar_f64(int rows, int nnz, const int *d_row_ptr, const int *d_col, const double *d_val,
                     const double *d_x, double *d_y);

/* (d) Vector CSR: a group of `group` consecutive lanes of a warp per row
 *     (2, 4, 8, 16 or 32), each lane adding every group-th product of the
 *     row, the group's partial sums then added with shuffles among the
 *     group's lanes only. group = SPMV_GROUP_AUTO: choose it from the mean
 *     row length nnz / rows (README section 6). */
void spmv_vector_f32(int rows, int nnz, const int *d_row_ptr, const int *d_col, const float *d_val,
                     const float *d_x, float *d_y, int group);
void spmv_vector_f64(int rows, int nnz, const int *d_row_ptr, const int *d_col, const double *d_val,
                     const double *d_x, double *d_y, int group);

#ifdef __cplusplus
}
#endif

#endif
