/* kernels_ref/vendor/cub_segscan.h: lab 07's segmented SpMV-scan done the
 * vendor's way, with C linkage: the yardstick of part d.
 *
 * The same problem and arguments as the contract
 * (labs/07-segmented-spmv/segmented_spmv.h): once per call, each entry's
 * row number (its key) and x[k[l]] into temporary storage; then, each
 * iteration, cub::DeviceScan::InclusiveScanByKey over the products a[l] *
 * x[k[l]] read through a transform iterator (so the multiply costs no pass
 * of its own), from a into a second buffer and back. Device pointers; the
 * caller provides vendor_segspmv_temp_bytes(n) bytes, so timed calls never
 * allocate. Asynchronous on the default stream; returns the CUDA error
 * code of the last launch (0 on success).
 */
#ifndef PRIMLAB_VENDOR_CUB_SEGSCAN_H
#define PRIMLAB_VENDOR_CUB_SEGSCAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t vendor_segspmv_temp_bytes(long n);
int vendor_segspmv(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a, int iters,
                   void *d_temp, size_t temp_bytes);

#ifdef __cplusplus
}
#endif

#endif
