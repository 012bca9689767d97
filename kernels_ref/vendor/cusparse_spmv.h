/* kernels_ref/vendor/cusparse_spmv.h: cuSPARSE's CSR SpMV (the generic
 * API, cusparseSpMV) with C linkage, the yardstick of lab 06's SpMV parts.
 *
 * y = A x for a rows x cols CSR matrix with nnz entries (int32 indices,
 * 0-based), in device memory. The caller provides temporary storage of
 * vendor_spmv_temp_bytes(rows) bytes, so timed calls never allocate (but
 * the first call creates the library's handle). The handle and the
 * descriptors of the last matrix are kept between calls. Asynchronous on
 * the default stream; returns 0, or a CUDA error code (cudaErrorUnknown for
 * a cuSPARSE failure, with one line on stderr).
 */
#ifndef PRIMLAB_VENDOR_CUSPARSE_SPMV_H
#define PRIMLAB_VENDOR_CUSPARSE_SPMV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t vendor_spmv_temp_bytes(int rows);
int vendor_spmv_f32(int rows, int cols, int nnz, const int *row_ptr, const int *col, const float *val, const float *x,
                    float *y, void *d_temp, size_t temp_bytes);
int vendor_spmv_f64(int rows, int cols, int nnz, const int *row_ptr, const int *col, const double *val,
                    const double *x, double *y, void *d_temp, size_t temp_bytes);

#ifdef __cplusplus
}
#endif

#endif
