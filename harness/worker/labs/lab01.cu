/* harness/worker/labs/lab01.cu: lab 01's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab01.c. */
#include "../../../kernels_ref/vendor/cub_scan.h"
#include "../../../labs/01-prefix-sum/prefix_sum.h"
#include "../ops.h"

PL_OP(a_gpu, scan_inclusive_block(in, out, n)) /* part (a) has no scratch in its contract */
PL_OP(b_gpu, scan_inclusive(in, out, n, scratch))
PL_OP(c_gpu, scan_exclusive(in, out, n, scratch))

static const pl_op ops[] = {
    {"a", "scan_inclusive_block", a_gpu, vendor_scan_inclusive},
    {"b", "scan_inclusive", b_gpu, vendor_scan_inclusive},
    {"c", "scan_exclusive", c_gpu, vendor_scan_exclusive},
};
static const pl_ops table = {ops, sizeof ops / sizeof ops[0], vendor_scan_temp_bytes};
const pl_ops *pl_worker_ops(void) { return &table; }
