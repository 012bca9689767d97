/* kernels_ref/cpu/banks.h: CPU references of lab 03 (bank conflicts):
 * the stride microbenchmark's result and the matrix transpose.
 * Data are moved as 32-bit words (a float transpose is a bit-exact copy). */
#ifndef PRIMLAB_REF_BANKS_H
#define PRIMLAB_REF_BANKS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[g] for g < threads: reps times the word at (g % 32 * stride) mod
   words, of width 4 or 8 bytes (8: word w = in[2w] | in[2w + 1] << 32),
   keeping the low 32 bits; words counts 4-byte words. */
void stride_read_cpu(const int *in, int *out, size_t threads, int words, int reps, int stride, int width);

/* out[c * side + r] = in[r * side + c] */
void transpose_cpu(const int *in, int *out, size_t side);
void transpose_omp(const int *in, int *out, size_t side);

#ifdef __cplusplus
}
#endif

#endif
