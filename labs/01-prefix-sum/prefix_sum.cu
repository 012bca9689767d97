/* labs/01-prefix-sum/prefix_sum.cu: YOUR lab 01 code (Hillis-Steele scan).
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=01                          score every test
 *   build/labs/lab01 check --part a --n 33     one test, with its diagnosis
 *   build/labs/lab01 run                       time it against the CPU and CUB
 *   build/labs/lab01 run --part bt             the block-size sweep (size = threads)
 */
#include "prefix_sum.h"

#include <cuda_runtime.h>

/* TODO(lab01): write your kernels here, e.g. a block-level Hillis-Steele
 * scan with two shared-memory buffers (README section 4.4 "Double buffering"). */

/* Part (a): one block, n <= PS_BLOCK_MAX. */
extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    /* TODO(lab01): launch one block of a Hillis-Steele scan kernel.
     * README sections 4 and 7. */
    (void)d_in, (void)d_out, (void)n;
}

/* Part (b): any n. */
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab01): scan every block and record its total in d_scratch, scan
     * the totals (recursively), then add them back.
     * README section 5 "Beyond one block". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (b) with a chosen block size: the block-size experiment. */
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    /* TODO(lab01): part (b) with blocks of `threads` elements, a power of
     * two from 32 to 1024; at 32 the scratch holds one array of block totals
     * per level, so scan them in place. README section 9.1 "The block-size
     * experiment". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch, (void)threads;
}

/* Part (c): any n, exclusive. */
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab01): the same as (b), with the input shifted by one on load.
     * README section 6 "Exclusive from inclusive". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}
