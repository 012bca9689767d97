/* harness/worker/labs/lab06.cu: lab 06's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab06.c.
 * The words of the buffers are floats or doubles: the part says which. The
 * SpMV parts' input is a packed CSR matrix and its vector, laid out as
 * harness/wire/lab06.h says (with the ids both sides share); its sizes are
 * read from the header of the staged input in host memory. */
#include <cuda_runtime.h>

#include "../../../kernels_ref/vendor/cub_reduce.h"
#include "../../../kernels_ref/vendor/cusparse_spmv.h"
#include "../../../labs/06-shuffle-reduction/shuffle_reduction.h"
#include "../../wire/lab06.h"
#include "../ops.h"

#define F32(p) ((float *)(p))
#define F64(p) ((double *)(p))
PL_OP(af_gpu, reduce_tree_f32(F32(in), F32(out), n, scratch))
PL_OP(ad_gpu, reduce_tree_f64(F64(in), F64(out), n, scratch))
PL_OP(bf_gpu, reduce_shfl_f32(F32(in), F32(out), n, scratch))
PL_OP(bd_gpu, reduce_shfl_f64(F64(in), F64(out), n, scratch))
static int sum_f32(const int *in, int *out, int n, void *temp, size_t bytes)
{
    return vendor_reduce_sum_f32(F32(in), F32(out), n, temp, bytes);
}
static int sum_f64(const int *in, int *out, int n, void *temp, size_t bytes)
{
    return vendor_reduce_sum_f64(F64(in), F64(out), n, temp, bytes);
}

/* The matrix in the device input d, from the header the parent wrote; 0
   when the header does not describe an input of this length (not a
   matrix of this part). */
struct csr {
    int rows, cols, nnz, group;
    const int *row_ptr, *col;
    const void *val, *x;
};
static int csr_of(const int *d, int n, int elem_words, csr *m)
{
    const int *h = pl_host_in;
    if (!h || pl_host_in_len < LAB06_HEADER_WORDS || h[0] != n || h[1] < 0 || h[2] < 0)
        return 0;
    lab06_csr_at at = lab06_csr_layout(h[0], h[1], h[2], elem_words);
    if (at.words != pl_host_in_len)
        return 0;
    *m = {h[0], h[1], h[2], h[3], d + at.row_ptr, d + at.col, d + at.val, d + at.x};
    return 1;
}

#define SPMV_OPS(T, suffix, words)                                                                     \
    static int c##suffix##_gpu(const int *in, int *out, int n, int *scratch)                           \
    {                                                                                                  \
        (void)scratch;                                                                                 \
        csr m;                                                                                         \
        if (!csr_of(in, n, words, &m))                                                                 \
            return 1;                                                                                  \
        spmv_scalar_##suffix(m.rows, m.nnz, m.row_ptr, m.col, (const T *)m.val, (const T *)m.x, (T *)out); \
        return 0;                                                                                      \
    }                                                                                                  \
    static int d##suffix##_gpu(const int *in, int *out, int n, int *scratch)                           \
    {                                                                                                  \
        (void)scratch;                                                                                 \
        csr m;                                                                                         \
        if (!csr_of(in, n, words, &m))                                                                 \
            return 1;                                                                                  \
        spmv_vector_##suffix(m.rows, m.nnz, m.row_ptr, m.col, (const T *)m.val, (const T *)m.x, (T *)out, \
                             m.group);                                                                 \
        return 0;                                                                                      \
    }                                                                                                  \
    static int spmv_##suffix(const int *in, int *out, int n, void *temp, size_t bytes)                 \
    {                                                                                                  \
        csr m;                                                                                         \
        if (!csr_of(in, n, words, &m))                                                                 \
            return (int)cudaErrorInvalidValue;                                                         \
        return vendor_spmv_##suffix(m.rows, m.cols, m.nnz, m.row_ptr, m.col, (const T *)m.val,         \
                                    (const T *)m.x, (T *)out, temp, bytes);                            \
    }
SPMV_OPS(float, f32, 1)
SPMV_OPS(double, f64, 2)

static size_t temp_bytes(int n)
{
    size_t a = vendor_reduce_temp_bytes(n), b = vendor_spmv_temp_bytes(n);
    return a > b ? a : b;
}

static constexpr pl_op_def op_af = {"reduce_tree_f32", af_gpu, sum_f32};
static constexpr pl_op_def op_ad = {"reduce_tree_f64", ad_gpu, sum_f64};
static constexpr pl_op_def op_bf = {"reduce_shfl_f32", bf_gpu, sum_f32};
static constexpr pl_op_def op_bd = {"reduce_shfl_f64", bd_gpu, sum_f64};
static constexpr pl_op_def op_cf = {"spmv_scalar_f32", cf32_gpu, spmv_f32};
static constexpr pl_op_def op_cd = {"spmv_scalar_f64", cf64_gpu, spmv_f64};
static constexpr pl_op_def op_df = {"spmv_vector_f32", df32_gpu, spmv_f32};
static constexpr pl_op_def op_dd = {"spmv_vector_f64", df64_gpu, spmv_f64};

static constexpr pl_op ops[] = {PL_LAB06_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
