/* kernels_ref/vendor/cub_sort.h: CUB's device-wide radix sorts with C linkage.
 *
 * The yardstick of lab 05. Device pointers; the caller provides temporary
 * storage of vendor_sort_temp_bytes(n) bytes (enough for every call here at
 * that n), so timed calls never allocate. All 32 bits are sorted. Calls are
 * asynchronous on the default stream and return the CUDA error code of the
 * launch (0 on success).
 *
 * Note: for float keys CUB treats -0.0 and +0.0 as equal (both keep their
 * input order), where lab 05's contract puts -0.0 first, as its bits say.
 */
#ifndef PRIMLAB_VENDOR_CUB_SORT_H
#define PRIMLAB_VENDOR_CUB_SORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t vendor_sort_temp_bytes(int n);
int vendor_sort_keys_u32(const unsigned *d_in, unsigned *d_out, int n, void *d_temp, size_t temp_bytes);
int vendor_sort_pairs_u32(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                          unsigned *d_vals_out, int n, void *d_temp, size_t temp_bytes);
int vendor_sort_keys_i32(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);
int vendor_sort_keys_f32(const float *d_in, float *d_out, int n, void *d_temp, size_t temp_bytes);

#ifdef __cplusplus
}
#endif

#endif
