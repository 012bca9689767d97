/* harness/worker/labs/lab04.cu: lab 04's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab04.c,
 * the ids, sizes and output layout both sides share in harness/wire/lab04.h.
 *
 * The returned count is checked as one more output word: the ops store it at
 * d_out[n]. A negative count (the stub's -1) is not stored, so an untouched
 * output still reads as "not implemented yet". */
#include "../../../kernels_ref/vendor/cub_select.h"
#include "../../../labs/04-compaction/compaction.h"
#include "../../wire/lab04.h"
#include "../gpu.h"
#include "../ops.h"

#include <cuda_runtime.h>

static void store_count(int *out, int n, int k)
{
    if (k >= 0)
        CUDA_CHECK(cudaMemcpy(out + n, &k, sizeof k, cudaMemcpyHostToDevice));
}
PL_OP(a_gpu, compact_flags(in, out, n))
PL_OP(b_gpu, store_count(out, n, compact_scan(in, out, n, scratch)))
PL_OP(c_gpu, store_count(out, n, compact_warp(in, out, n, scratch)))
/* Parts ct and cte: the size is the number of threads per block, the array
   the input staged (a fixed length: the parent's table says which), at most
   PL_LAB04_CT_N elements. */
#define CT_LEN ((int)pl_host_in_len)
PL_OP(ct_gpu, store_count(out, CT_LEN, compact_warp_threads(in, out, CT_LEN, scratch, n)))
static int ref_cub(const int *in, int *out, int n, void *temp, size_t bytes)
{
    int k = 0, e = vendor_select_positive(in, out, n, temp, bytes, &k);
    if (e == 0)
        store_count(out, n, k);
    return e;
}
static int ct_cub(const int *in, int *out, int threads, void *temp, size_t bytes)
{
    (void)threads;
    return ref_cub(in, out, CT_LEN, temp, bytes);
}
/* The worker sizes CUB's temporary storage from the request's size, which
   for parts ct and cte is a thread count: room for PL_LAB04_CT_N elements
   whatever the size. */
static size_t temp_bytes(int n) { return vendor_select_temp_bytes(n > PL_LAB04_CT_N ? n : PL_LAB04_CT_N); }

static constexpr pl_op_def op_a = {"compact_flags", a_gpu, NULL};
static constexpr pl_op_def op_b = {"compact_scan", b_gpu, ref_cub};
static constexpr pl_op_def op_c = {"compact_warp", c_gpu, ref_cub};
static constexpr pl_op_def op_ct = {"compact_warp_threads", ct_gpu, ct_cub};
static constexpr pl_op_def op_cte = {"compact_warp_threads", ct_gpu, ct_cub};

static constexpr pl_op ops[] = {PL_LAB04_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
