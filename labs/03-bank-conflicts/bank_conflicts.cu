/* labs/03-bank-conflicts/bank_conflicts.cu: YOUR lab 03 code, shared-memory
 * bank conflicts.
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=03                          score every test
 *   build/labs/lab03 check --part b2 --n 33    one test (for b*, n is the side)
 *   build/labs/lab03 run --part a4             time per stride
 *   build/labs/lab03 analyze                   the analyzer's predictions
 */
#include "bank_conflicts.h"

#include <cuda_runtime.h>

/* (a) README section "Part (a): the stride microbenchmark". */
extern "C" void stride_read32(const int *d_in, int *d_out, int stride)
{
    /* TODO(lab03): stage d_in[0 .. BC_SMEM_WORDS) in shared memory, then
     * each thread reads word (lane * stride) % BC_SMEM_WORDS BC_REPS times
     * through a volatile pointer and writes the sum. */
    (void)d_in, (void)d_out, (void)stride;
}

extern "C" void stride_read64(const int *d_in, int *d_out, int stride)
{
    /* TODO(lab03): the same with 8-byte words (unsigned long long). */
    (void)d_in, (void)d_out, (void)stride;
}

/* (b) README section "Part (b): transposes". */
extern "C" void transpose_naive(const float *d_in, float *d_out, int side)
{
    /* TODO(lab03): global memory only: coalesced reads, strided writes. */
    (void)d_in, (void)d_out, (void)side;
}

extern "C" void transpose_tiled(const float *d_in, float *d_out, int side)
{
    /* TODO(lab03): through a float tile[32][32] in shared memory. */
    (void)d_in, (void)d_out, (void)side;
}

extern "C" void transpose_padded(const float *d_in, float *d_out, int side)
{
    /* TODO(lab03): the same with tile[32][33]. */
    (void)d_in, (void)d_out, (void)side;
}

extern "C" void transpose_swizzled(const float *d_in, float *d_out, int side)
{
    /* TODO(lab03): tile[32][32], element (r, c) stored at column c ^ r. */
    (void)d_in, (void)d_out, (void)side;
}

/* (c) README section "Part (c): a conflict-free scan". */
extern "C" void scan_unpadded(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab03): your lab 02 shared-memory exclusive scan, as it was. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void scan_padded(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab03): the same with every shared index i replaced by
     * i + CONFLICT_FREE_OFFSET(i), the correct macro. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}
