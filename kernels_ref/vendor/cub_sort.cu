/* kernels_ref/vendor/cub_sort.cu: C wrappers over cub::DeviceRadixSort. */
#include "cub_sort.h"

#include <cub/device/device_radix_sort.cuh>

template <class K> static size_t keys_bytes(int n)
{
    size_t bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, (const K *)nullptr, (K *)nullptr, n);
    return bytes;
}

extern "C" size_t vendor_sort_temp_bytes(int n)
{
    size_t most = keys_bytes<unsigned>(n), b = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, b, (const unsigned *)nullptr, (unsigned *)nullptr,
                                    (const unsigned *)nullptr, (unsigned *)nullptr, n);
    most = b > most ? b : most;
    most = keys_bytes<int>(n) > most ? keys_bytes<int>(n) : most;
    most = keys_bytes<float>(n) > most ? keys_bytes<float>(n) : most;
    return most;
}

extern "C" int vendor_sort_keys_u32(const unsigned *d_in, unsigned *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_in, d_out, n);
}

extern "C" int vendor_sort_pairs_u32(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                                     unsigned *d_vals_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_vals_in, d_vals_out, n);
}

extern "C" int vendor_sort_keys_i32(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_in, d_out, n);
}

extern "C" int vendor_sort_keys_f32(const float *d_in, float *d_out, int n, void *d_temp, size_t temp_bytes)
{
    return (int)cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_in, d_out, n);
}
