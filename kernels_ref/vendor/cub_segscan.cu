/* kernels_ref/vendor/cub_segscan.cu: see cub_segscan.h. */
#include "cub_segscan.h"

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

/* a[l] * x[k[l]], x[k[l]] gathered once */
struct product {
    const float *a, *xb;
    __host__ __device__ float operator()(long l) const { return a[l] * xb[l]; }
};
typedef thrust::transform_iterator<product, thrust::counting_iterator<long>> product_it;

/* each entry's row, found by binary search in s; and its x */
__global__ void keys_k(const int *s, int rows, const int *k, const float *x, int *key, float *xb, long n)
{
    for (long l = blockIdx.x * (long)blockDim.x + threadIdx.x; l < n; l += (long)gridDim.x * blockDim.x) {
        int lo = 0, hi = rows - 1; /* the last r with s[r] <= l */
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            if (s[mid] <= l)
                lo = mid;
            else
                hi = mid - 1;
        }
        key[l] = lo;
        xb[l] = x[k[l]];
    }
}

size_t align256(size_t b) { return (b + 255) / 256 * 256; }

size_t cub_bytes(long n)
{
    size_t b = 0;
    product_it in(thrust::counting_iterator<long>(0), product{nullptr, nullptr});
    cub::DeviceScan::InclusiveScanByKey(nullptr, b, (const int *)nullptr, in, (float *)nullptr,
                                        ::cuda::std::plus<float>{}, (int)n, ::cuda::std::equal_to<int>{});
    return b;
}

} // namespace

extern "C" size_t vendor_segspmv_temp_bytes(long n)
{
    return align256((size_t)n * 4) * 3 + align256(cub_bytes(n)) + 256;
}

extern "C" int vendor_segspmv(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                              int iters, void *d_temp, size_t temp_bytes)
{
    if (rows <= 0 || n <= 0 || iters <= 0)
        return 0;
    if (temp_bytes < vendor_segspmv_temp_bytes(n))
        return (int)cudaErrorInvalidValue;
    char *t = (char *)d_temp;
    size_t words = align256((size_t)n * 4);
    int *key = (int *)t;
    float *xb = (float *)(t + words), *other = (float *)(t + 2 * words);
    void *cub_temp = t + 3 * words;
    size_t cub_size = cub_bytes(n);
    long blocks = ((long)n + 255) / 256;
    keys_k<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256>>>(d_s, rows, d_k, d_x, key, xb, n);
    float *src = d_a, *dst = other;
    cudaError_t e = cudaGetLastError();
    for (int it = 0; it < iters && e == cudaSuccess; it++) {
        product_it in(thrust::counting_iterator<long>(0), product{src, xb});
        e = cub::DeviceScan::InclusiveScanByKey(cub_temp, cub_size, key, in, dst, ::cuda::std::plus<float>{}, n,
                                                ::cuda::std::equal_to<int>{});
        float *tmp = src;
        src = dst, dst = tmp;
    }
    if (e == cudaSuccess && src != d_a)
        e = cudaMemcpyAsync(d_a, src, (size_t)n * 4, cudaMemcpyDeviceToDevice);
    return (int)e;
}
