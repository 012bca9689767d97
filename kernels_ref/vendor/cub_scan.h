/* kernels_ref/vendor/cub_scan.h: CUB's device-wide scans with C linkage.
 *
 * The yardstick every scan lab is timed against. Device pointers; the
 * caller provides temporary storage of vendor_scan_temp_bytes(n) bytes
 * (enough for every scan here, int or float), so timed calls never
 * allocate. Calls are asynchronous on the default stream and return the
 * CUDA error code of the launch (0 on success).
 */
#ifndef PRIMLAB_VENDOR_CUB_SCAN_H
#define PRIMLAB_VENDOR_CUB_SCAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t vendor_scan_temp_bytes(int n);
int vendor_scan_inclusive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);
int vendor_scan_exclusive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);
/* The same sums of floats (lab 08), through the int32 words the harness
   passes: d_in and d_out hold float bits. */
int vendor_scan_inclusive_f32(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);
int vendor_scan_exclusive_f32(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);

#ifdef __cplusplus
}
#endif

#endif
