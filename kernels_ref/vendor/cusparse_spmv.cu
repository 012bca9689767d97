/* kernels_ref/vendor/cusparse_spmv.cu: thin C wrappers over cusparseSpMV
 * (CSR, CUSPARSE_SPMV_ALG_DEFAULT), descriptors kept for the last matrix. */
#include "cusparse_spmv.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>

extern "C" size_t vendor_spmv_temp_bytes(int rows) { return ((size_t)4 << 20) + 16 * (size_t)(rows > 0 ? rows : 0); }

/* The descriptors of the last call, rebuilt when any argument changes. */
static struct {
    cusparseHandle_t h;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t x, y;
    int rows, cols, nnz;
    cudaDataType type;
    const void *row_ptr, *col, *val, *xp, *yp;
} last;

static int fail(const char *what, cusparseStatus_t st)
{
    fprintf(stderr, "cusparse: %s: %s\n", what, cusparseGetErrorString(st));
    return (int)cudaErrorUnknown;
}

static void drop(void)
{
    if (last.a)
        cusparseDestroySpMat(last.a);
    if (last.x)
        cusparseDestroyDnVec(last.x);
    if (last.y)
        cusparseDestroyDnVec(last.y);
    last.a = NULL, last.x = last.y = NULL;
}

static int spmv(int rows, int cols, int nnz, const int *row_ptr, const int *col, const void *val, const void *x,
                void *y, cudaDataType type, void *d_temp, size_t temp_bytes)
{
    cusparseStatus_t st;
    if (!last.h && (st = cusparseCreate(&last.h)) != CUSPARSE_STATUS_SUCCESS)
        return fail("cusparseCreate", st);
    if (rows == 0)
        return 0; /* nothing to write; cuSPARSE refuses empty matrices */
    if (!last.a || last.rows != rows || last.cols != cols || last.nnz != nnz || last.type != type ||
        last.row_ptr != row_ptr || last.col != col || last.val != val || last.xp != x || last.yp != y) {
        drop();
        if ((st = cusparseCreateCsr(&last.a, rows, cols, nnz, (void *)row_ptr, (void *)col, (void *)val,
                                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type)) ||
            (st = cusparseCreateDnVec(&last.x, cols, (void *)x, type)) ||
            (st = cusparseCreateDnVec(&last.y, rows, y, type))) {
            drop();
            return fail("creating the descriptors", st);
        }
        last.rows = rows, last.cols = cols, last.nnz = nnz, last.type = type;
        last.row_ptr = row_ptr, last.col = col, last.val = val, last.xp = x, last.yp = y;
    }
    double one = 1, zero = 0;
    float onef = 1, zerof = 0;
    const void *alpha = type == CUDA_R_64F ? (const void *)&one : (const void *)&onef;
    const void *beta = type == CUDA_R_64F ? (const void *)&zero : (const void *)&zerof;
    size_t need = 0;
    if ((st = cusparseSpMV_bufferSize(last.h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, last.a, last.x, beta, last.y,
                                      type, CUSPARSE_SPMV_ALG_DEFAULT, &need)))
        return fail("cusparseSpMV_bufferSize", st);
    if (need > temp_bytes) {
        fprintf(stderr, "cusparse: SpMV wants %zu bytes of buffer, %zu provided\n", need, temp_bytes);
        return (int)cudaErrorMemoryAllocation;
    }
    if ((st = cusparseSpMV(last.h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, last.a, last.x, beta, last.y, type,
                           CUSPARSE_SPMV_ALG_DEFAULT, d_temp)))
        return fail("cusparseSpMV", st);
    return 0;
}

extern "C" int vendor_spmv_f32(int rows, int cols, int nnz, const int *row_ptr, const int *col, const float *val,
                               const float *x, float *y, void *d_temp, size_t temp_bytes)
{
    return spmv(rows, cols, nnz, row_ptr, col, val, x, y, CUDA_R_32F, d_temp, temp_bytes);
}

extern "C" int vendor_spmv_f64(int rows, int cols, int nnz, const int *row_ptr, const int *col, const double *val,
                               const double *x, double *y, void *d_temp, size_t temp_bytes)
{
    return spmv(rows, cols, nnz, row_ptr, col, val, x, y, CUDA_R_64F, d_temp, temp_bytes);
}
