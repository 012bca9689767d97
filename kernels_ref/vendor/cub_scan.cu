/* kernels_ref/vendor/cub_scan.cu: thin C wrappers over cub::DeviceScan. */
#include "cub_scan.h"

#include <cub/device/device_scan.cuh>

extern "C" size_t vendor_scan_temp_bytes(int n)
{
    size_t a = 0, b = 0;
    cub::DeviceScan::InclusiveSum(nullptr, a, (const int *)nullptr, (int *)nullptr, n);
    cub::DeviceScan::ExclusiveSum(nullptr, b, (const int *)nullptr, (int *)nullptr, n);
    return a > b ? a : b;
}

extern "C" int vendor_scan_inclusive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_out, n);
}

extern "C" int vendor_scan_exclusive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, n);
}

/* The scan the harness lends students (lab 04's contract): temporary storage
 * grows on the first calls and is kept, so warmed-up timed calls do not
 * allocate. */
extern "C" void primlab_scan_exclusive(const int *d_in, int *d_out, int n)
{
    static void *temp = nullptr;
    static size_t have = 0;
    if (n <= 0)
        return;
    size_t need = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n);
    if (need > have) {
        cudaFree(temp);
        if (cudaMalloc(&temp, need) != cudaSuccess) {
            temp = nullptr;
            have = 0;
            return; /* the launch error check reports the failed allocation */
        }
        have = need;
    }
    cub::DeviceScan::ExclusiveSum(temp, have, d_in, d_out, n);
}
