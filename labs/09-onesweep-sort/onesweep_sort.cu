/* labs/09-onesweep-sort/onesweep_sort.cu: YOUR lab 09 code (the onesweep
 * radix sort: one histogram of all four digits, then one pass per digit in
 * which tiles find where their keys go through per-digit status words).
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=09                            score every test
 *   build/labs/lab09 check --part c --n 65537    one test, with its diagnosis
 *   build/labs/lab09 check --part cs             the stress test of part (c)
 *   build/labs/lab09 run --part d                time the sort against CUB
 */
#include "onesweep_sort.h"

#include <cuda/atomic>
#include <cuda_runtime.h>

/* TODO(lab09): the pieces the digit passes share: a block that takes its
 * tile id from its pass's counter in d_scratch (atomicAdd, never
 * blockIdx.x), loads its tile's keys warp-striped, ranks them within each
 * warp (__match_any_sync, or ballots over the 8 bits) into a shared
 * histogram per warp, scans the 256 digit counts, and scatters the keys
 * through shared memory in tile-sorted order. README sections 3 and 5. */

/* Part (a): the four digit histograms in one pass, then their bases. */
extern "C" void onesweep_histogram(const unsigned *d_keys, int n, unsigned *d_bases, void *d_scratch)
{
    /* TODO(lab09): clear 4 x 256 counts in d_scratch (past word 3), a
     * kernel whose blocks read the keys as uint4, count every digit in
     * shared histograms and add them into the counts (mind the n % 4 keys
     * at the end), then one block that writes the exclusive bases of each
     * digit's 256 counts to d_bases. README section 4. */
    (void)d_keys, (void)n, (void)d_bases, (void)d_scratch;
}

/* Part (b): one digit pass, tiles chained. */
extern "C" void onesweep_pass_chained(const unsigned *d_keys_in, unsigned *d_keys_out, int n, int shift,
                                      const unsigned *d_bases, void *d_scratch)
{
    /* TODO(lab09): clear the counter and the status words
     * (cudaMemsetAsync), then one block per tile: rank, wait for tile
     * t - 1's inclusive count of each digit (flag P), publish your own, and
     * scatter each key to d_bases[digit] + prefix + its rank in the tile.
     * README section 5. */
    (void)d_keys_in, (void)d_keys_out, (void)n, (void)shift, (void)d_bases, (void)d_scratch;
}

/* Part (c): one digit pass, decoupled look-back per digit. */
extern "C" void onesweep_pass_lookback(const unsigned *d_keys_in, unsigned *d_keys_out, int n, int shift,
                                       const unsigned *d_bases, void *d_scratch)
{
    /* TODO(lab09): publish each digit's count in the tile (flag A) as soon
     * as the ranking is done; then one thread per digit looks back over
     * tiles t - 1, t - 2, ... adding counts until it meets a P, and
     * publishes P with its inclusive count. Flag and count in one 32-bit
     * word, stored and loaded whole (volatile or cuda::atomic_ref). README
     * section 6. */
    (void)d_keys_in, (void)d_keys_out, (void)n, (void)shift, (void)d_bases, (void)d_scratch;
}

/* Part (d): the whole sort, keys only. */
extern "C" void onesweep_sort_keys(const unsigned *d_in, unsigned *d_out, int n, void *d_scratch)
{
    /* TODO(lab09): part (a) into the scratch, then four passes of part (c)
     * from the lowest digit, d_in -> buffer -> d_out -> buffer -> d_out
     * (OS_BUFFER_OFFSET), each with its own counter. README sections 7, 8. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (d): the whole sort, key-value pairs. */
extern "C" void onesweep_sort_pairs(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                                    unsigned *d_vals_out, int n, void *d_scratch)
{
    /* TODO(lab09): as onesweep_sort_keys, each value written where its key
     * goes (the scratch's second array holds the values between passes).
     * README section 7. */
    (void)d_keys_in, (void)d_vals_in, (void)d_keys_out, (void)d_vals_out, (void)n, (void)d_scratch;
}
