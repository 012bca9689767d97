/* harness/worker/labs/lab02.cu: lab 02's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab02.c.
 * w0 and w1, the unsafe warp scans the stub gives, are not parts of the
 * table: only `lab02 warps` calls them, and nothing grades them. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/02-blelloch-scan/blelloch_scan.h"
#include "../ops.h"

/* Parts bt and bte: the size is the number of threads per block, the array
   the input staged (a fixed length: the parent's table says which), at most
   BT_N elements. */
#define BT_N ((1 << 24) + 3)
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

static const pl_op ops[] = {
    {"a", "scan_blelloch_global", a_gpu, vendor_scan_exclusive},
    {"b", "scan_blelloch_shared", b_gpu, vendor_scan_exclusive},
    {"bt", "scan_blelloch_shared_threads", bt_gpu, bt_vendor},
    {"bte", "scan_blelloch_shared_threads", bt_gpu, bt_vendor},
    {"c", "scan_blelloch_inclusive", c_gpu, vendor_scan_inclusive},
    {"w", "scan_warp_safe", w_gpu, NULL},
    {"w0", "scan_warp_unsafe", w0_gpu, NULL},
    {"w1", "scan_warp_unsafe_novolatile", w1_gpu, NULL},
};
/* CUB's scratch for a call of size n, and for bt's BT_N whatever its size
   (a thread count) says */
static size_t temp_bytes(int n) { return vendor_scan_temp_bytes(n > BT_N ? n : BT_N); }
static const pl_ops table = {ops, sizeof ops / sizeof ops[0], temp_bytes};
const pl_ops *pl_worker_ops(void) { return &table; }
