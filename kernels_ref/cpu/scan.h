/* kernels_ref/cpu/scan.h: CPU prefix sums the harness trusts.
 *
 * scan_cpu_*: one loop, the definition itself.
 * scan_omp_*: two passes over one contiguous chunk per OpenMP thread: each
 *             thread sums its chunk, the chunk totals are scanned serially,
 *             then each thread scans its chunk starting from its offset.
 *
 * Sums wrap modulo 2^32 like the GPU's int32 adds (computed in unsigned
 * arithmetic, so there is no signed-overflow undefined behaviour).
 * in and out may be the same array. n = 0 writes nothing.
 */
#ifndef PRIMLAB_REF_SCAN_H
#define PRIMLAB_REF_SCAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void scan_cpu_inclusive(const int *in, int *out, size_t n);
void scan_cpu_exclusive(const int *in, int *out, size_t n);
void scan_omp_inclusive(const int *in, int *out, size_t n);
void scan_omp_exclusive(const int *in, int *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
