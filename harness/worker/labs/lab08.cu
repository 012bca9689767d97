/* harness/worker/labs/lab08.cu: lab 08's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab08.c,
 * the ids and part bs's output layout both sides share in harness/wire/lab08.h.
 *
 * Part bs, the stress test of scan_lookback, adds two things of the kit's
 * own around the call, without the student's code knowing:
 *   - noise: just before the call, a kernel on a stream of its own
 *     (non-blocking, so it runs beside the default stream's work), in one
 *     of two kinds, chosen at random each call. Holding: each block takes a
 *     whole SM's shared memory, so that no block of the scan (which uses
 *     some) can share that SM, for a random time, on a random quarter to
 *     all of the SMs; half of them meanwhile hammer the L2 and DRAM with
 *     atomics at random addresses of a buffer larger than the L2. Sharing:
 *     small blocks without shared memory, up to four per SM, all hammering,
 *     beside the scan's blocks. The scan's tiles then start on some SMs
 *     late and at random, run at uneven speeds, and their status words
 *     travel through a busy memory system: a flag published before its
 *     value, or without a fence, is read early more often than on an idle
 *     device;
 *   - the tile counter: after the call, ((unsigned *)d_scratch)[0] is read
 *     and reported in the word after the output, d_out[n]: 1 when the call
 *     took tile ids from it (it is not 0), 0 when it is 0, and left as poison
 *     when the call never wrote it (so that an untouched stub still reads as
 *     "not implemented yet"). n = 0 launches nothing: 1. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/08-single-pass-scan/single_pass_scan.h"
#include "../../wire/lab08.h"
#include "../gpu.h"
#include "../noise.h"
#include "../ops.h"

#include <cuda_runtime.h>

PL_OP(a_gpu, scan_chained(in, out, n, scratch))
PL_OP(b_gpu, scan_lookback(in, out, n, scratch))
PL_OP(c_gpu, scan_tuned_exclusive(in, out, n, scratch))
PL_OP(ci_gpu, scan_tuned_inclusive(in, out, n, scratch))
PL_OP(cf_gpu, scan_tuned_exclusive_f32((const float *)in, (float *)out, n, scratch))
PL_OP(cfi_gpu, scan_tuned_inclusive_f32((const float *)in, (float *)out, n, scratch))

/* ------------------------------------------------------- part bs: noise */

static int bs_gpu(const int *in, int *out, int n, int *scratch)
{
    return pl_stress_call(out, n, scratch, [&] { scan_lookback(in, out, n, scratch); });
}

static size_t temp_bytes(int n) { return vendor_scan_temp_bytes(n); }

static constexpr pl_op_def op_a = {"scan_chained", a_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_b = {"scan_lookback", b_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_bs = {"scan_lookback", bs_gpu, NULL};
static constexpr pl_op_def op_c = {"scan_tuned_exclusive", c_gpu, vendor_scan_exclusive};
static constexpr pl_op_def op_ci = {"scan_tuned_inclusive", ci_gpu, vendor_scan_inclusive};
static constexpr pl_op_def op_cf = {"scan_tuned_exclusive_f32", cf_gpu, vendor_scan_exclusive_f32};
static constexpr pl_op_def op_cfi = {"scan_tuned_inclusive_f32", cfi_gpu, vendor_scan_inclusive_f32};

static constexpr pl_op ops[] = {PL_LAB08_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
