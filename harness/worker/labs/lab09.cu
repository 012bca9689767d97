/* harness/worker/labs/lab09.cu: lab 09's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab09.c,
 * the ids and the digit pass's packed input both sides share in
 * harness/wire/lab09.h.
 *
 * Yardsticks: CUB's DeviceRadixSort, all 32 bits for parts d and dp
 * (kernels_ref/vendor/cub_sort.h), and the 8 bits of the part's digit for
 * the digit passes b and c (a one-digit sort, defined here: only this lab
 * uses it). Part a has none.
 *
 * Part cs, the stress test of onesweep_pass_lookback, adds two things of
 * the kit's own around the call, as lab 08's part bs does (the noise below
 * is a copy of harness/worker/labs/lab08.cu's, so that each lab stays its
 * own files):
 *   - noise: just before the call, a kernel on a stream of its own, in one
 *     of two kinds chosen at random each call. Holding: each block takes a
 *     whole SM's shared memory for a random time, on a random quarter to
 *     all of the SMs, half of them hammering the L2 and DRAM with atomics.
 *     Sharing: small blocks without shared memory, up to four per SM, all
 *     hammering. The pass's tiles then start late and at random, and their
 *     status words travel through a busy memory system;
 *   - the tile counter: after the call, ((unsigned *)d_scratch)[0] is read
 *     and reported in d_out[n]: 1 when it is not 0, 0 when it is, left as
 *     poison when the call never wrote it (an untouched stub still reads as
 *     "not implemented yet"). n = 0 launches nothing: 1. */
#include "../../../kernels_ref/vendor/cub_sort.h"
#include "../../../labs/09-onesweep-sort/onesweep_sort.h"
#include "../../wire/lab09.h"
#include "../gpu.h"
#include "../noise.h"
#include "../ops.h"

#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#define U(p) ((unsigned *)(p))
#define CU(p) ((const unsigned *)(p))

/* The digit pass's shift, from the staged input's head (0 when there is
   none), one of 0, 8, 16, 24. */
static int staged_shift(void)
{
    if (!pl_host_in || pl_host_in_len < PL_LAB09_HEAD)
        return 0;
    int shift = pl_host_in[PL_LAB09_SHIFT];
    return shift == 8 || shift == 16 || shift == 24 ? shift : 0;
}
#define KEYS_OF(in) (CU(in) + PL_LAB09_HEAD)

PL_OP(a_gpu, onesweep_histogram(CU(in), n, U(out), scratch))
PL_OP(b_gpu, onesweep_pass_chained(KEYS_OF(in), U(out), n, staged_shift(), CU(in), scratch))
PL_OP(c_gpu, onesweep_pass_lookback(KEYS_OF(in), U(out), n, staged_shift(), CU(in), scratch))
PL_OP(d_gpu, onesweep_sort_keys(CU(in), U(out), n, scratch))
PL_OP(dp_gpu, onesweep_sort_pairs(CU(in), CU(in) + n, U(out), U(out) + n, n, scratch))

/* ------------------------------------------------------------ yardsticks */

/* CUB sorting by the part's digit only (begin_bit = shift, 8 bits). */
static size_t digit_temp_bytes(int n)
{
    size_t bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, (const unsigned *)nullptr, (unsigned *)nullptr, n, 0, 8);
    return bytes;
}
static int digit_cub(const int *in, int *out, int n, void *t, size_t b)
{
    int shift = staged_shift();
    return (int)cub::DeviceRadixSort::SortKeys(t, b, KEYS_OF(in), U(out), n, shift, shift + 8);
}
static int keys_cub(const int *in, int *out, int n, void *t, size_t b)
{
    return vendor_sort_keys_u32(CU(in), U(out), n, t, b);
}
static int pairs_cub(const int *in, int *out, int n, void *t, size_t b)
{
    return vendor_sort_pairs_u32(CU(in), CU(in) + n, U(out), U(out) + n, n, t, b);
}
static size_t temp_bytes(int n)
{
    size_t all = vendor_sort_temp_bytes(n), one = digit_temp_bytes(n);
    return all > one ? all : one;
}

/* ------------------------------------------------------- part cs: noise */

static int cs_gpu(const int *in, int *out, int n, int *scratch)
{
    return pl_stress_call(out, n, scratch,
                          [&] { onesweep_pass_lookback(KEYS_OF(in), U(out), n, staged_shift(), CU(in), scratch); });
}

static constexpr pl_op_def op_a = {"onesweep_histogram", a_gpu, NULL};
static constexpr pl_op_def op_b = {"onesweep_pass_chained", b_gpu, digit_cub};
static constexpr pl_op_def op_c = {"onesweep_pass_lookback", c_gpu, digit_cub};
static constexpr pl_op_def op_cs = {"onesweep_pass_lookback", cs_gpu, NULL};
static constexpr pl_op_def op_d = {"onesweep_sort_keys", d_gpu, keys_cub};
static constexpr pl_op_def op_dp = {"onesweep_sort_pairs", dp_gpu, pairs_cub};

static constexpr pl_op ops[] = {PL_LAB09_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
