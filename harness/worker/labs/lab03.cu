/* harness/worker/labs/lab03.cu: lab 03's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab03.c.
 * Strided reads take the stride as the size; transposes the side. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/03-bank-conflicts/bank_conflicts.h"
#include "../ops.h"

PL_OP(a4_gpu, stride_read32(in, out, n))
PL_OP(a8_gpu, stride_read64(in, out, n))
PL_OP(b0_gpu, transpose_naive((const float *)in, (float *)out, n))
PL_OP(b1_gpu, transpose_tiled((const float *)in, (float *)out, n))
PL_OP(b2_gpu, transpose_padded((const float *)in, (float *)out, n))
PL_OP(b3_gpu, transpose_swizzled((const float *)in, (float *)out, n))
PL_OP(c0_gpu, scan_unpadded(in, out, n, scratch))
PL_OP(c_gpu, scan_padded(in, out, n, scratch))

static const pl_op ops[] = {
    {"a4", "stride_read32", a4_gpu, NULL},
    {"a8", "stride_read64", a8_gpu, NULL},
    {"b0", "transpose_naive", b0_gpu, NULL},
    {"b1", "transpose_tiled", b1_gpu, NULL},
    {"b2", "transpose_padded", b2_gpu, NULL},
    {"b3", "transpose_swizzled", b3_gpu, NULL},
    {"c0", "scan_unpadded", c0_gpu, vendor_scan_exclusive},
    {"c", "scan_padded", c_gpu, vendor_scan_exclusive},
};
static const pl_ops table = {ops, sizeof ops / sizeof ops[0], vendor_scan_temp_bytes};
const pl_ops *pl_worker_ops(void) { return &table; }
