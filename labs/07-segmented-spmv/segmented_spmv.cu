/* labs/07-segmented-spmv/segmented_spmv.cu: YOUR lab 07 code (the
 * segmented SpMV-scan: a scan of a[l] * x[k[l]] restarted at each row of a
 * CSR matrix, on the CPU with OpenMP, a thread per row, a warp per row, and
 * load-balanced over the whole array).
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=07                          score every test
 *   build/labs/lab07 check --part d --n 1000   one test, with its diagnosis
 *   build/labs/lab07 run                       time it against the CPU and CUB
 */
#include "segmented_spmv.h"

#include <cuda_runtime.h>
#include <omp.h>

/* TODO(lab07): one gather kernel for parts (b), (c) and (d), xb[l] =
 * x[k[l]] into d_scratch, once per call. README section 4. */

/* Part (a): OpenMP on the CPU, host pointers. */
extern "C" void segspmv_omp(int rows, int n, const int *s, const int *k, const float *x, float *a, int iters,
                            int threads)
{
    /* TODO(lab07): gather x[k[l]] once into a buffer, then per iteration a
     * parallel loop a[l] *= xb[l] and a parallel loop over the rows, each
     * row scanned in place; #pragma omp parallel for num_threads(threads).
     * README section 3. */
    (void)rows, (void)n, (void)s, (void)k, (void)x, (void)a, (void)iters, (void)threads;
}

/* Part (b): a thread per row on `lanes` lanes of each warp. */
extern "C" void segspmv_naive(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                              int iters, int lanes, void *d_scratch)
{
    /* TODO(lab07): the gather, then per iteration a kernel where the working
     * lanes of warp w (lane 0; lanes 0 and 16; all 32) take rows
     * w * lanes + 0 .. lanes - 1 and scan them serially. README section 4. */
    (void)rows, (void)n, (void)d_s, (void)d_k, (void)d_x, (void)d_a, (void)iters, (void)lanes, (void)d_scratch;
}

/* Part (c): a warp per row, 32 entries at a time. */
extern "C" void segspmv_warp(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                             int iters, void *d_scratch)
{
    /* TODO(lab07): per iteration a kernel with a warp per row: a
     * Hillis-Steele scan with __shfl_up_sync(0xffffffff, v, d), the carry
     * to the next 32 from lane 31 by __shfl_sync. Every lane must reach
     * every shuffle. README section 5. */
    (void)rows, (void)n, (void)d_s, (void)d_k, (void)d_x, (void)d_a, (void)iters, (void)d_scratch;
}

/* Part (d): load-balanced, tiles of a fixed number of entries. */
extern "C" void segspmv_flat(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                             int iters, void *d_scratch)
{
    /* TODO(lab07): once per call the gather and the head flags (a row's
     * start marks its entry); per iteration a segmented scan of the
     * products over the whole array, the carries passed between tiles,
     * with (v1, f1) + (v2, f2) = (f2 ? v2 : v1 + v2, f1 | f2). Never
     * subtract prefixes. README section 6. */
    (void)rows, (void)n, (void)d_s, (void)d_k, (void)d_x, (void)d_a, (void)iters, (void)d_scratch;
}
