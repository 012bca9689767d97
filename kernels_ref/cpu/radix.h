/* kernels_ref/cpu/radix.h: CPU sorting references for lab 05 (radix sort).
 *
 *   radix_sort_cpu: serial LSD radix sort of 32-bit unsigned keys, `bits`
 *                   bits per pass (1 .. 16), stable; values (or NULL) move
 *                   with their keys
 *   radix_sort_omp: the same with 8-bit digits, each pass by OpenMP threads:
 *                   per-thread digit histograms, one scan, stable scatter
 *   sort_qsort:     the C library's sort, for comparison (keys only)
 *   radix_key_*:    order-preserving maps of int and float to unsigned keys
 *                   (flip the sign bit; for negative floats, every bit), and
 *                   back
 * All take scratch from malloc; on failure they return -1 and leave the
 * data as it was, else 0.
 */
#ifndef PRIMLAB_REF_RADIX_H
#define PRIMLAB_REF_RADIX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int radix_sort_cpu(unsigned *keys, unsigned *vals, size_t n, int bits);
int radix_sort_omp(unsigned *keys, unsigned *vals, size_t n);
void sort_qsort(unsigned *keys, size_t n);

unsigned radix_key_from_int(int x);
int radix_int_from_key(unsigned k);
unsigned radix_key_from_float(float f);
float radix_float_from_key(unsigned k);

#ifdef __cplusplus
}
#endif

#endif
