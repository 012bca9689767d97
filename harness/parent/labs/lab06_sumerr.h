/* harness/parent/labs/lab06_sumerr.h: lab 06 part (e), the summation-error
 * experiment, as the lab's command (declared in lab06.c's table)
 *
 *   build/labs/lab06 sumerr [--n LIST] [--reps SEEDS] [--out FILE]
 *
 * For each n (default 2^4, 2^5, .., 2^26) and each seed 1 .. SEEDS (default
 * 10), n floats uniform in [0, 1) are summed in float three ways (serial,
 * pairwise, a GPU-shaped tree of blocks of PL_SUMERR_BLOCK) and each sum is
 * compared with the exact one (pl_sum_error_row, kernels_ref/cpu/reduce.h).
 * CPU only: the worker is not started. The rows do not depend on the
 * machine (IEEE float additions in a fixed order), so they are data for
 * the handout's figure, plots/lab06_sumerr.gp.
 *
 * Output: TSV to FILE (written whole or not at all) or, without --out, to
 * stdout; a table of the means over seeds goes to stderr either way, so
 * stdout stays clean TSV. The file: '# ' metadata lines, first
 * "# primlab summation-error rows", then a header line and one row per
 * (n, seed), in the order of the sizes:
 *
 *   n seed block exact err_serial err_pairwise err_tree bound_serial
 *   bound_pairwise bound_tree walk_serial walk_tree serial pairwise tree
 *
 * exact: the exact sum S; err_*: |sum - S| / S; bound_*: the first-order
 * worst-case bounds K u with each order's K (n - 1; log2 n + 4; 10 per
 * level of 1024-blocks); walk_*: the random-walk estimates sqrt(n) u and
 * sqrt(log2 n) u; serial, pairwise, tree: the float sums themselves
 * (u = 2^-24). Tests: tests/unit/test_sumerr.c.
 *
 * One tree block size only: a block of 1024 is the GPU's largest, and 256
 * gives the same error curve to within the seeds' spread (depth 8 per level
 * instead of 10), so a second one would only crowd the figure. */
#ifndef PRIMLAB_LAB06_SUMERR_H
#define PRIMLAB_LAB06_SUMERR_H

#include "../lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PL_SUMERR_LO 4       /* default sizes 2^LO .. 2^HI */
#define PL_SUMERR_HI 26
#define PL_SUMERR_SEEDS 10   /* default seeds 1 .. SEEDS: about 10 s in all */
#define PL_SUMERR_BLOCK 1024 /* elements per block of the tree order */
#define PL_SUMERR_MAX_N (1L << 30)
#define PL_SUMERR_MAX_SEEDS 1000

/* Runs the experiment for o->sizes (o->nsizes of them; none: the default
   sizes) and o->reps seeds (0: the default), writing to o->out or stdout.
   Returns 0; 2 after one line on stderr when an option is out of range or
   the output cannot be written; 1 when n floats cannot be allocated. */
int pl_sumerr_command(const pl_cmd_opts *o);

#ifdef __cplusplus
}
#endif

#endif
