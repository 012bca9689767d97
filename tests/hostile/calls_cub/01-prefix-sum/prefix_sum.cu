/* hostile: calls_cub. Every part is CUB's DeviceScan (the yardstick
 * itself), with its temporary storage allocated once and kept. The parts
 * are right and as fast as the vendor library; the Makefile lists the
 * vendor symbols found in the student's object (labNN-worker.vendor).
 * The grader must give: full correctness points, 0 performance points
 * ("no performance points: the submission uses the vendor library"). */
#include "prefix_sum.h"
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

static void *hx_temp(size_t need)
{
    static void *temp;
    static size_t have;
    if (need > have) {
        cudaFree(temp);
        temp = NULL, have = 0;
        if (cudaMalloc(&temp, need) == cudaSuccess)
            have = need;
    }
    return temp;
}

static void hx_cub_scan(const int *d_in, int *d_out, int n, int exclusive)
{
    if (n <= 0)
        return;
    size_t need = 0;
    if (exclusive) {
        cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n);
        cub::DeviceScan::ExclusiveSum(hx_temp(need), need, d_in, d_out, n);
    } else {
        cub::DeviceScan::InclusiveSum(nullptr, need, d_in, d_out, n);
        cub::DeviceScan::InclusiveSum(hx_temp(need), need, d_in, d_out, n);
    }
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { hx_cub_scan(d_in, d_out, n, 0); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_scratch; hx_cub_scan(d_in, d_out, n, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_scratch; hx_cub_scan(d_in, d_out, n, 1); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
