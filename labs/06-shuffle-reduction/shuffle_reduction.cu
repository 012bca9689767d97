/* labs/06-shuffle-reduction/shuffle_reduction.cu: YOUR lab 06 code
 * (reductions with shared memory and with warp shuffles, CSR SpMV).
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=06                          score every test
 *   build/labs/lab06 check --part bf --n 33    one test, with its diagnosis
 *   build/labs/lab06 run                       time it against the CPU and CUB
 */
#include "shuffle_reduction.h"

#include <cuda_runtime.h>

/* TODO(lab06): write one kernel template for both element types, e.g.
 * template <typename T> __global__ void block_sums(const T *in, T *partial, long n). */

/* Part (a): a shared-memory tree in each block, float and double. */
extern "C" void reduce_tree_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    /* TODO(lab06): block sums into d_scratch, then the sum of those into
     * d_out[0]. n = 0: write 0. README section 3. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void reduce_tree_f64(const double *d_in, double *d_out, int n, void *d_scratch)
{
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (b): shuffles inside each warp. */
extern "C" void reduce_shfl_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    /* TODO(lab06): as (a), with __shfl_down_sync(0xffffffff, v, offset) for
     * offsets 16, 8, 4, 2, 1 inside each warp. README section 4. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void reduce_shfl_f64(const double *d_in, double *d_out, int n, void *d_scratch)
{
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (c): scalar CSR SpMV, one thread per row. */
extern "C" void spmv_scalar_f32(int rows, int nnz, const int *d_row_ptr, const int *d_col, const float *d_val,
                                const float *d_x, float *d_y)
{
    /* TODO(lab06): thread r adds d_val[e] * d_x[d_col[e]] over its row's
     * entries and writes d_y[r] (0 for an empty row). README section 5. */
    (void)rows, (void)nnz, (void)d_row_ptr, (void)d_col, (void)d_val, (void)d_x, (void)d_y;
}

extern "C" void spmv_scalar_f64(int rows, int nnz, const int *d_row_ptr, const int *d_col, const double *d_val,
                                const double *d_x, double *d_y)
{
    (void)rows, (void)nnz, (void)d_row_ptr, (void)d_col, (void)d_val, (void)d_x, (void)d_y;
}

/* Part (d): vector CSR SpMV, a group of `group` lanes per row. */
extern "C" void spmv_vector_f32(int rows, int nnz, const int *d_row_ptr, const int *d_col, const float *d_val,
                                const float *d_x, float *d_y, int group)
{
    /* TODO(lab06): one kernel template per group size G (2 .. 32); lane k
     * of a group adds entries k, k + G, ... of its row, then the group adds
     * its partials with __shfl_down_sync(mask, v, offset, G). group == 0:
     * choose G from the mean row length nnz / rows. README section 6. */
    (void)rows, (void)nnz, (void)d_row_ptr, (void)d_col, (void)d_val, (void)d_x, (void)d_y, (void)group;
}

extern "C" void spmv_vector_f64(int rows, int nnz, const int *d_row_ptr, const int *d_col, const double *d_val,
                                const double *d_x, double *d_y, int group)
{
    (void)rows, (void)nnz, (void)d_row_ptr, (void)d_col, (void)d_val, (void)d_x, (void)d_y, (void)group;
}
