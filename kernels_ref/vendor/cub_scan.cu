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
