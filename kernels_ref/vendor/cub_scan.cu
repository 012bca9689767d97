/* kernels_ref/vendor/cub_scan.cu: thin C wrappers over cub::DeviceScan. */
#include "cub_scan.h"

#include <cub/device/device_scan.cuh>

extern "C" size_t vendor_scan_temp_bytes(int n)
{
    size_t a = 0, b = 0, c = 0, d = 0;
    cub::DeviceScan::InclusiveSum(nullptr, a, (const int *)nullptr, (int *)nullptr, n);
    cub::DeviceScan::ExclusiveSum(nullptr, b, (const int *)nullptr, (int *)nullptr, n);
    cub::DeviceScan::InclusiveSum(nullptr, c, (const float *)nullptr, (float *)nullptr, n);
    cub::DeviceScan::ExclusiveSum(nullptr, d, (const float *)nullptr, (float *)nullptr, n);
    size_t ab = a > b ? a : b, cd = c > d ? c : d;
    return ab > cd ? ab : cd;
}

extern "C" int vendor_scan_inclusive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_out, n);
}

extern "C" int vendor_scan_exclusive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, n);
}

extern "C" int vendor_scan_inclusive_f32(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, (const float *)d_in, (float *)d_out, n);
}

extern "C" int vendor_scan_exclusive_f32(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, (const float *)d_in, (float *)d_out, n);
}
