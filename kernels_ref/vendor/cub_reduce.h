/* kernels_ref/vendor/cub_reduce.h: CUB's device-wide sums with C linkage.
 *
 * The yardstick of lab 06's reductions. Device pointers; the caller
 * provides temporary storage of vendor_reduce_temp_bytes(n) bytes (enough
 * for float and double), so timed calls never allocate. Asynchronous on the
 * default stream; returns the CUDA error code of the launch (0 on success).
 */
#ifndef PRIMLAB_VENDOR_CUB_REDUCE_H
#define PRIMLAB_VENDOR_CUB_REDUCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t vendor_reduce_temp_bytes(int n);
int vendor_reduce_sum_f32(const float *d_in, float *d_out, int n, void *d_temp, size_t temp_bytes);
int vendor_reduce_sum_f64(const double *d_in, double *d_out, int n, void *d_temp, size_t temp_bytes);

#ifdef __cplusplus
}
#endif

#endif
