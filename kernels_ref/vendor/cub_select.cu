/* kernels_ref/vendor/cub_select.cu: C wrappers over cub::DeviceSelect::If. */
#include "cub_select.h"

#include <cub/device/device_select.cuh>

struct positive {
    __host__ __device__ bool operator()(int x) const { return x > 0; }
};

extern "C" size_t vendor_select_temp_bytes(int n)
{
    size_t bytes = 0;
    cub::DeviceSelect::If(nullptr, bytes, (const int *)nullptr, (int *)nullptr, (int *)nullptr, n, positive());
    return bytes + 256;
}

extern "C" int vendor_select_positive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes, int *count)
{
    int *d_count = (int *)d_temp;
    size_t bytes = temp_bytes - 256;
    cudaError_t e = cub::DeviceSelect::If((void *)((char *)d_temp + 256), bytes, d_in, d_out, d_count, n, positive());
    if (e == cudaSuccess)
        e = cudaMemcpy(count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    return (int)e;
}
