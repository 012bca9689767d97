/* kernels_ref/cpu/spmv.h: CPU references of lab 06's CSR sparse
 * matrix-vector product y = A x, float and double, and the tolerance a GPU
 * row is judged by. Tests: tests/unit/test_ref06.c.
 *
 * CSR as harness/parent/mtx.h reads it: row r holds the entries
 * row_ptr[r] .. row_ptr[r + 1] - 1, entry e being A[r][col[e]] = val[e];
 * x has an element for every column. Nothing is checked here
 * (pl_csr_check does that when the matrix is read).
 *
 *   pl_spmv_cpu_f32: y[r] in double. A product of two floats is exact in
 *       double; the products are summed with Sum2 (T. Ogita, S. M. Rump and
 *       S. Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6),
 *       2005: TwoSum, the rounding errors summed apart and added at the end):
 *       |y[r] - exact| <= 2^-53 |exact| + gamma_len(2^-53)^2 abs[r],
 *       len the row's entries (their Proposition 4.5).
 *   pl_spmv_cpu_f64: the same bound for double data by Dot2 (ibid.,
 *       Algorithm 5.3): each product split exactly into p + e by fma, then
 *       Sum2. (Products that underflow lose up to 2^-1075 each.)
 *   row_abs[r] = sum |A[r][j] x[j]| to the same accuracy, for the
 *       tolerance; row_abs may be NULL. A row with no entries gives y = 0
 *       and row_abs = 0 exactly.
 *   pl_spmv_omp_f32/f64: the rows shared among OpenMP threads, each row by
 *       the same code: bit-identical to the serial result.
 *
 * The tolerance (N. J. Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., SIAM 2002, section 3.1): a GPU row of len entries
 * rounds each product once and adds the len products in any order and
 * grouping (lanes' strided partials, then a shuffle tree) starting from 0:
 * every product lies below at most len additions, so
 * |y_gpu - exact| <= gamma_{len+1}(u) sum |A[r][j] x[j]|. Fusing a product
 * with an addition (fma, which nvcc does by default) only drops roundings.
 *   pl_spmv_row_tolerance(len, abs, u) returns that bound, plus what the
 *   reference's own error needs (the 2^-50 and gamma_len(2^-53)^2 of abs
 *   above), rounded so that it is never below the bound; plus, when u is
 *   2^-24 (float) or 2^-53 (double), 3 len u m, m the format's smallest
 *   normal: a product that underflows is off by up to half the smallest
 *   subnormal, u m, beyond the relative bound (on the GPU, and in Dot2's
 *   split of a double product). An empty row's tolerance is 0: its y must
 *   be 0. (len + 1) u >= 1/2 gives +inf. Judge a row with pl_within
 *   (reduce.h).
 */
#ifndef PRIMLAB_REF_SPMV_H
#define PRIMLAB_REF_SPMV_H

#ifdef __cplusplus
extern "C" {
#endif

void pl_spmv_cpu_f32(long rows, const long *row_ptr, const int *col, const float *val, const float *x, double *y,
                     double *row_abs);
void pl_spmv_omp_f32(long rows, const long *row_ptr, const int *col, const float *val, const float *x, double *y,
                     double *row_abs);
void pl_spmv_cpu_f64(long rows, const long *row_ptr, const int *col, const double *val, const double *x, double *y,
                     double *row_abs);
void pl_spmv_omp_f64(long rows, const long *row_ptr, const int *col, const double *val, const double *x, double *y,
                     double *row_abs);

double pl_spmv_row_tolerance(long len, double row_abs, double unit_roundoff);

#ifdef __cplusplus
}
#endif

#endif
