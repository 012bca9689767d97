/* harness/worker/labs/lab01.cu: lab 01's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab01.c,
 * the ids and sizes both sides share in harness/wire/lab01.h. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/01-prefix-sum/prefix_sum.h"
#include "../../wire/lab01.h"
#include "../ops.h"

/* Parts bt and bte: the size is the number of threads per block, the array
   the input staged (a fixed length: the parent's table says which), at most
   PL_LAB01_BT_N elements. */
#define BT_LEN ((int)pl_host_in_len)
PL_OP(a_gpu, scan_inclusive_block(in, out, n)) /* part (a) has no scratch in its contract */
PL_OP(b_gpu, scan_inclusive(in, out, n, scratch))
PL_OP(bt_gpu, scan_inclusive_threads(in, out, BT_LEN, scratch, n))
PL_OP(c_gpu, scan_exclusive(in, out, n, scratch))
static int bt_vendor(const int *in, int *out, int threads, void *temp, size_t bytes)
{
    (void)threads;
    return vendor_scan_inclusive(in, out, BT_LEN, temp, bytes);
}
/* The worker sizes CUB's temporary storage from the request's size, which
   for parts bt and bte is a thread count: room for PL_LAB01_BT_N elements
   whatever the size. */
static size_t temp_bytes(int n) { return vendor_scan_temp_bytes(n > PL_LAB01_BT_N ? n : PL_LAB01_BT_N); }

static constexpr pl_op_def op_a = {"scan_inclusive_block", a_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_b = {"scan_inclusive", b_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_bt = {"scan_inclusive_threads", bt_gpu, bt_vendor};
static constexpr pl_op_def op_bte = {"scan_inclusive_threads", bt_gpu, bt_vendor};
static constexpr pl_op_def op_c = {"scan_exclusive", c_gpu, vendor_scan_exclusive};

static constexpr pl_op ops[] = {PL_LAB01_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
