/* kernels_ref/cpu/segscan.h: CPU reference of lab 07's segmented SpMV-scan,
 * with the bound each element of a float computation is judged by. Tests:
 * tests/unit/test_ref07.c (suite segscan).
 *
 * The problem (labs/07-segmented-spmv/segmented_spmv.h): rows r = 0 ..
 * rows - 1 hold entries s[r] .. s[r + 1] - 1; one iteration sets
 * a[j] = sum over l from j's row start to j of a[l] * x[k[l]]; `iters`
 * iterations.
 *
 *   pl_segspmv_ref: the iterations in double, from the float inputs, into
 *       want (n doubles; a float product is exact in double, the sums are
 *       serial in double). With bound != NULL, bound[j] is what a float
 *       computation of the same iterations may be off by at j, by running
 *       error analysis (N. J. Higham, Accuracy and Stability of Numerical
 *       Algorithms, 2nd ed., SIAM 2002, sections 3.1 and 3.3): if the
 *       float a entering an iteration is off by at most E[l] at l, its
 *       result at j, the m products of j's row prefix each rounded once
 *       and added in any order and grouping, is off by at most
 *           sum_l E[l] |xb[l]|  +  gamma_{m+1}(2^-24) sum_l (|a[l]| + E[l]) |xb[l]|
 *       (xb[l] = x[k[l]], l over the prefix), plus m 2^-125 for products
 *       and sums that underflow (flushed to zero or not), plus what the
 *       double reference may be off by itself (gamma_m(2^-53) times the
 *       same sum, a 1% margin on top). E starts at 0. A fused multiply-add
 *       only drops roundings, so it stays inside.
 *   variant: how the iterations run. PL_SEG_RIGHT is the contract; the
 *       others are known mistakes, for the diagnosis (the bound is not
 *       computed for them: pass NULL): an exclusive scan; rows never
 *       restarted (one scan over the whole array); x[l] in place of
 *       x[k[l]] (NaN where l >= cols); the sum restarted at every multiple
 *       of `tile` too (a carry dropped between blocks of tile entries).
 *   iters: the number of iterations to run (the mistakes "one too few" and
 *       "one too many" are this with iters - 1 and iters + 1).
 *   parallel: rows shared among OpenMP threads; each row is computed by
 *       the same code, so the result is bit-identical to the serial one
 *       (PL_SEG_NO_RESTART is always serial).
 */
#ifndef PRIMLAB_REF_SEGSCAN_H
#define PRIMLAB_REF_SEGSCAN_H

#ifdef __cplusplus
extern "C" {
#endif

enum pl_seg_variant { PL_SEG_RIGHT, PL_SEG_EXCLUSIVE, PL_SEG_NO_RESTART, PL_SEG_NO_GATHER, PL_SEG_TILE };

void pl_segspmv_ref(long rows, const int *s, const int *k, const float *x, long cols, const float *a, int iters,
                    int variant, long tile, int parallel, double *want, double *bound);

#ifdef __cplusplus
}
#endif

#endif
