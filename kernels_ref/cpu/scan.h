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

/* Float scans (lab 08). scan_cpu_*_f32 add left to right in float;
 * scan_omp_*_f32 in the chunks above, each chunk left to right from its
 * offset, so where sums round they differ from the serial ones (the graded
 * inputs are sums that never round: multiples of 2^-6 of moderate size).
 * scan_exact_f32: the definition in double, the oracle of the float parts;
 * exact whenever every partial sum of the input is exact in double (any
 * 2^29 floats that are multiples of 2^-6 below 2^20 in magnitude). */
void scan_cpu_inclusive_f32(const float *in, float *out, size_t n);
void scan_cpu_exclusive_f32(const float *in, float *out, size_t n);
void scan_omp_inclusive_f32(const float *in, float *out, size_t n);
void scan_omp_exclusive_f32(const float *in, float *out, size_t n);
void scan_exact_f32(const float *in, double *out, size_t n, int inclusive);

#ifdef __cplusplus
}
#endif

#endif
