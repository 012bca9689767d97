/* labs/08-single-pass-scan/single_pass_scan.cu: YOUR lab 08 code (the
 * single-pass scan: tiles that pass their prefixes to one another through
 * status words, first in a chain, then by decoupled look-back, then tuned
 * to race CUB).
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=08                            score every test
 *   build/labs/lab08 check --part b --n 65537    one test, with its diagnosis
 *   build/labs/lab08 check --part bs             the stress test of part (b)
 *   build/labs/lab08 run --part c                time it against the CPU and CUB
 */
#include "single_pass_scan.h"

#include <cuda/atomic>
#include <cuda_runtime.h>

/* TODO(lab08): the pieces every part shares: a block that takes its tile id
 * from the counter in d_scratch (atomicAdd, never blockIdx.x), loads its
 * tile, scans it (each thread its own run of elements, a warp scan of the
 * threads' sums with __shfl_up_sync, a scan of the warps' sums), and writes
 * it back with the tile's prefix added. README sections 3 and 5. */

/* Part (a): the chained scan. */
extern "C" void scan_chained(const int *d_in, int *d_out, int n, void *d_scratch)
{
    /* TODO(lab08): clear the counter and the flags (cudaMemsetAsync), then a
     * kernel where each block, once its tile is scanned, waits for flag
     * t - 1, reads value t - 1, and publishes value t, __threadfence(), flag
     * t. Both accesses volatile (or cuda::atomic_ref). README section 4. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (b): decoupled look-back, one 64-bit status word per tile. */
extern "C" void scan_lookback(const int *d_in, int *d_out, int n, void *d_scratch)
{
    /* TODO(lab08): publish the tile's aggregate (A) as soon as it is known,
     * then let one warp read the status words of the 32 tiles before it,
     * wait while one it needs is not ready (X), add the aggregates down to
     * the nearest inclusive prefix (P) or slide the window back 32 tiles,
     * and publish P. Flag and value in one word, stored and loaded whole.
     * README section 6. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (c): tuned, exclusive and inclusive, int and float. */
extern "C" void scan_tuned_exclusive(const int *d_in, int *d_out, int n, void *d_scratch)
{
    /* TODO(lab08): part (b) made fast: 16-byte loads and stores, several
     * elements per thread, the block size and tile size measured, the
     * look-back's spinning measured. README section 8. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void scan_tuned_inclusive(const int *d_in, int *d_out, int n, void *d_scratch)
{
    /* TODO(lab08): the same kernel, each element's own value included.
     * README section 8. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void scan_tuned_exclusive_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    /* TODO(lab08): the same kernel for floats (a template on the element
     * type); the status word carries the float's bits. README section 9. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void scan_tuned_inclusive_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    /* TODO(lab08): as above, inclusive. README section 9. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}
