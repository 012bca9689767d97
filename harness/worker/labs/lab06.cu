/* harness/worker/labs/lab06.cu: lab 06's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab06.c.
 * The words of the buffers are floats or doubles: the part says which. */
#include "../../../kernels_ref/vendor/cub_reduce.h"
#include "../../../labs/06-shuffle-reduction/shuffle_reduction.h"
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

static const pl_op ops[] = {
    {"af", "reduce_tree_f32", af_gpu, sum_f32},
    {"ad", "reduce_tree_f64", ad_gpu, sum_f64},
    {"bf", "reduce_shfl_f32", bf_gpu, sum_f32},
    {"bd", "reduce_shfl_f64", bd_gpu, sum_f64},
};
static const pl_ops table = {ops, sizeof ops / sizeof ops[0], vendor_reduce_temp_bytes};
const pl_ops *pl_worker_ops(void) { return &table; }
