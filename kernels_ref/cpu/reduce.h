/* kernels_ref/cpu/reduce.h: CPU references of lab 06 (warp-shuffle
 * reduction): the oracle sums, the tolerance a GPU sum is judged by, and the
 * lecture's summation-error experiment (serial vs tree order in float).
 * Tests: tests/unit/test_ref06.c (`make build/tests/test_ref06`).
 *
 * The oracle
 *   pl_reduce_cpu_f32/f64: the sum of x[0 .. n) and of |x[i]|, each the
 *       double nearest the exact value (ties to even): |ref - S| <= 2^-53 |S|.
 *       The sum is accumulated exactly (integer bins, one per exponent: every
 *       finite float and double is an integer multiple of 2^-1074) and
 *       rounded once at the end, so no order, cancellation, overflow of a
 *       partial sum or count of elements can spoil it. Zero sums are +0.
 *       A NaN in x, or +inf with -inf, gives NaN; otherwise an infinity
 *       gives that infinity; a finite exact sum beyond DBL_MAX gives inf.
 *       sum_abs may be NULL.
 *   pl_reduce_omp_f32/f64: the same from one chunk per OpenMP thread; the
 *       bins are integers, so the result is bit-identical to the serial one
 *       for every thread count.
 *
 * The tolerance (N. J. Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., SIAM 2002, ch. 3 and 4)
 *   In floating point with unit roundoff u, every sum of two numbers is
 *   fl(a + b) = (a + b)(1 + d), |d| <= u (also when the result underflows:
 *   such additions are exact). A summation is a binary tree whose leaves are
 *   the x_i; if leaf i lies below k_i additions, the computed sum is
 *   sum x_i (1 + t_i) with |t_i| <= gamma_{k_i}, gamma_k = k u / (1 - k u)
 *   (Higham Lemma 3.1), so |computed - S| <= gamma_K sum |x_i| with
 *   K = max k_i (Higham (4.3)). A GPU reduction in which each thread adds at
 *   most `chunk` values serially into its own partial (chunk additions,
 *   counting the one into a 0 start) and the partials are then combined by
 *   a tree of depth <= ceil(log2 n) puts every leaf below at most
 *   K = chunk + ceil(log2 n) additions, whatever the tree's shape, the
 *   order inside a chunk, or the thread count. Warp shuffles (xor or down),
 *   shared-memory halving, and a second pass over block sums are all such
 *   trees. A kernel that finishes with atomicAdd of G block sums adds a
 *   serial chain of G: pass chunk + G. Flushing subnormals to zero
 *   (--use_fast_math) is outside the model.
 *
 *   pl_sum_tolerance returns (gamma_K(u) + 2^-50) sum_abs, rounded so that
 *   it is never below the bound: the 2^-50 covers the oracle's own rounding
 *   (<= 2^-53 |S|) and the rounding of sum_abs and of this computation.
 *   Judge a GPU sum by |got - ref| <= tol with ref, sum_abs from the oracle.
 *   K u >= 1/2 (gamma_K >= 1: a bound that says nothing) gives +inf.
 *
 * The summation-error experiment (float data, float arithmetic)
 *   pl_sum_serial_f32:   one accumulator, left to right: leaf i lies below
 *                        n - i additions; error bound gamma_{n-1}, and the
 *                        rounding errors of a growing sum, ~ sqrt(n) u
 *                        typically (a random walk).
 *   pl_sum_pairwise_f32: halves summed recursively, serial below
 *                        PL_PAIRWISE_BASE elements: depth ~ log2 n.
 *   pl_sum_tree_f32:     a GPU's order: blocks of `block` elements (a power
 *                        of two, 2 .. PL_TREE_MAX_BLOCK) each summed as a
 *                        binary tree with sequential addressing (stride
 *                        block/2, block/4, .., 1; missing elements are 0),
 *                        then the block sums the same way, level after
 *                        level, like repeated kernel launches.
 *   pl_sum_uniform_f32:  the inputs: uniform in [0, 1), multiples of 2^-24,
 *                        element i from splitmix64 of (seed, i) alone, so any
 *                        thread count gives the same array.
 *   pl_sum_error_row:    one row of the experiment for n and a seed.
 */
#ifndef PRIMLAB_REF_REDUCE_H
#define PRIMLAB_REF_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PL_PAIRWISE_BASE 8
#define PL_TREE_MAX_BLOCK 1024

double pl_reduce_cpu_f32(const float *x, size_t n, double *sum_abs);
double pl_reduce_omp_f32(const float *x, size_t n, double *sum_abs);
double pl_reduce_cpu_f64(const double *x, size_t n, double *sum_abs);
double pl_reduce_omp_f64(const double *x, size_t n, double *sum_abs);

/* gamma_k(u) = k u / (1 - k u), +inf when k u >= 1 */
double pl_gamma(double k, double unit_roundoff);

/* (gamma_{chunk + ceil(log2 n)}(u) + 2^-50) sum_abs; chunk 0 counts as 1.
   u: 0x1p-24 for float, 0x1p-53 for double. */
double pl_sum_tolerance(size_t n, double sum_abs, double unit_roundoff, size_t chunk);

/* Whether got passes against ref: equal (infinities included), or within
   tol; a NaN ref is matched by a NaN only. */
int pl_within(double got, double ref, double tol);

float pl_sum_serial_f32(const float *x, size_t n);
float pl_sum_pairwise_f32(const float *x, size_t n);
/* NaN when block is not a power of two in 2 .. PL_TREE_MAX_BLOCK */
float pl_sum_tree_f32(const float *x, size_t n, int block);

/* The most additions any element lies below in each order (the K of the
   bounds above): n - 1; PL_PAIRWISE_BASE - 1 + halvings; levels x log2 block. */
size_t pl_sum_depth_serial(size_t n);
size_t pl_sum_depth_pairwise(size_t n);
size_t pl_sum_depth_tree(size_t n, int block);

void pl_sum_uniform_f32(float *x, size_t n, uint64_t seed);

/* One row of the experiment: its inputs, the oracle, the three float sums,
   their errors relative to the oracle, |sum - S| / |S|, and what to expect:
   the worst-case bounds to first order, K u sum|x| / |S| with each order's
   K (~ n u and ~ log2(n) u; sum|x| = |S| for these inputs; gamma_K, the
   exact bound, is K u (1 + K u + ..), infinite for serial order once
   n >= 2^24), and the random-walk estimates sqrt(n) u and sqrt(log2 n) u. */
typedef struct pl_sum_error {
    size_t n;
    uint64_t seed;
    int block;
    double exact, sum_abs;
    float serial, pairwise, tree;
    double err_serial, err_pairwise, err_tree;
    double bound_serial, bound_pairwise, bound_tree;
    double walk_serial, walk_tree;
} pl_sum_error;

/* Fills *row for n uniform inputs from seed, summed in blocks of `block`
   for the tree. Returns 0, or -1 (row untouched) when block is invalid or
   the n floats cannot be allocated. */
int pl_sum_error_row(size_t n, uint64_t seed, int block, pl_sum_error *row);

#ifdef __cplusplus
}
#endif

#endif
