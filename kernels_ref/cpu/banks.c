/* kernels_ref/cpu/banks.c: lab 03's CPU references (see banks.h). */
#include "banks.h"

#include <stdint.h>

void stride_read_cpu(const int *in, int *out, size_t threads, int words, int reps, int stride, int width)
{
    int count = width == 8 ? words / 2 : words;
    for (size_t g = 0; g < threads; g++) {
        size_t w = (size_t)(g % 32) * (size_t)stride % (size_t)count;
        uint64_t word = width == 8 ? (uint32_t)in[2 * w] | (uint64_t)(uint32_t)in[2 * w + 1] << 32 : (uint32_t)in[w];
        out[g] = (int)(uint32_t)(word * (uint64_t)reps);
    }
}

void transpose_cpu(const int *in, int *out, size_t side)
{
    for (size_t r = 0; r < side; r++)
        for (size_t c = 0; c < side; c++)
            out[c * side + r] = in[r * side + c];
}

void transpose_omp(const int *in, int *out, size_t side)
{
    /* 32 x 32 blocks, so that both matrices are walked a cache line at a time */
    long s = (long)side;
    #pragma omp parallel for schedule(static)
    for (long rb = 0; rb < s; rb += 32)
        for (long cb = 0; cb < s; cb += 32)
            for (long r = rb; r < rb + 32 && r < s; r++)
                for (long c = cb; c < cb + 32 && c < s; c++)
                    out[c * s + r] = in[r * s + c];
}
