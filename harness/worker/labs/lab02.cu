/* harness/worker/labs/lab02.cu: lab 02's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab02.c,
 * the ids and sizes both sides share in harness/wire/lab02.h. w0 and w1,
 * the unsafe warp scans the stub gives, are extra ops, not parts: only
 * `lab02 warps` calls them, and nothing grades them. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/02-blelloch-scan/blelloch_scan.h"
#include "../../wire/lab02.h"
#include "../ops.h"

/* Parts bt and bte: the size is the number of threads per block, the array
   the input staged (a fixed length: the parent's table says which), at most
   PL_LAB02_BT_N elements. */
#define BT_LEN ((int)pl_host_in_len)
PL_OP(a_gpu, scan_blelloch_global(in, out, n, scratch))
PL_OP(b_gpu, scan_blelloch_shared(in, out, n, scratch))
PL_OP(bt_gpu, scan_blelloch_shared_threads(in, out, BT_LEN, scratch, n))
PL_OP(c_gpu, scan_blelloch_inclusive(in, out, n, scratch))
PL_OP(w_gpu, scan_warp_safe(in, out, n))
PL_OP(w0_gpu, scan_warp_unsafe(in, out, n))
PL_OP(w1_gpu, scan_warp_unsafe_novolatile(in, out, n))
static int bt_vendor(const int *in, int *out, int threads, void *temp, size_t bytes)
{
    (void)threads;
    return vendor_scan_exclusive(in, out, BT_LEN, temp, bytes);
}

static constexpr pl_op_def op_a = {"scan_blelloch_global", a_gpu, vendor_scan_exclusive};
static constexpr pl_op_def op_b = {"scan_blelloch_shared", b_gpu, vendor_scan_exclusive};
static constexpr pl_op_def op_bt = {"scan_blelloch_shared_threads", bt_gpu, bt_vendor};
static constexpr pl_op_def op_bte = {"scan_blelloch_shared_threads", bt_gpu, bt_vendor};
static constexpr pl_op_def op_c = {"scan_blelloch_inclusive", c_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_w = {"scan_warp_safe", w_gpu, NULL};
static constexpr pl_op_def op_w0 = {"scan_warp_unsafe", w0_gpu, NULL};
static constexpr pl_op_def op_w1 = {"scan_warp_unsafe_novolatile", w1_gpu, NULL};

static constexpr pl_op ops[] = {PL_LAB02_PARTS(PL_OP_ROW) PL_LAB02_EXTRA_OPS(PL_OP_ROW)};
/* CUB's scratch for a call of size n, and for bt's PL_LAB02_BT_N whatever
   its size (a thread count) says */
static size_t temp_bytes(int n) { return vendor_scan_temp_bytes(n > PL_LAB02_BT_N ? n : PL_LAB02_BT_N); }
PL_OPS_TABLE(ops, temp_bytes)
