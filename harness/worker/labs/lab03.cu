/* harness/worker/labs/lab03.cu: lab 03's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab03.c,
 * their ids in harness/wire/lab03.h.
 * Strided reads take the stride as the size; transposes the side. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/03-bank-conflicts/bank_conflicts.h"
#include "../../wire/lab03.h"
#include "../ops.h"

PL_OP(a4_gpu, stride_read32(in, out, n))
PL_OP(a8_gpu, stride_read64(in, out, n))
PL_OP(b0_gpu, transpose_naive((const float *)in, (float *)out, n))
PL_OP(b1_gpu, transpose_tiled((const float *)in, (float *)out, n))
PL_OP(b2_gpu, transpose_padded((const float *)in, (float *)out, n))
PL_OP(b3_gpu, transpose_swizzled((const float *)in, (float *)out, n))
PL_OP(c0_gpu, scan_unpadded(in, out, n, scratch))
PL_OP(c_gpu, scan_padded(in, out, n, scratch))

static constexpr pl_op_def op_a4 = {"stride_read32", a4_gpu, NULL};
static constexpr pl_op_def op_a8 = {"stride_read64", a8_gpu, NULL};
static constexpr pl_op_def op_b0 = {"transpose_naive", b0_gpu, NULL};
static constexpr pl_op_def op_b1 = {"transpose_tiled", b1_gpu, NULL};
static constexpr pl_op_def op_b2 = {"transpose_padded", b2_gpu, NULL};
static constexpr pl_op_def op_b3 = {"transpose_swizzled", b3_gpu, NULL};
static constexpr pl_op_def op_c0 = {"scan_unpadded", c0_gpu, vendor_scan_exclusive};
static constexpr pl_op_def op_c = {"scan_padded", c_gpu, vendor_scan_exclusive};

static constexpr pl_op ops[] = {PL_LAB03_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, vendor_scan_temp_bytes)
