/* kernels_ref/vendor/cub_select.h: CUB's DeviceSelect with C linkage, the
 * yardstick of lab 04: keep the elements > 0, in order. d_temp holds
 * vendor_select_temp_bytes(n) bytes (the count goes in its first 256). Writes
 * the count to *count (host) and returns the CUDA error code. */
#ifndef PRIMLAB_VENDOR_CUB_SELECT_H
#define PRIMLAB_VENDOR_CUB_SELECT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t vendor_select_temp_bytes(int n);
int vendor_select_positive(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes, int *count);

#ifdef __cplusplus
}
#endif

#endif
