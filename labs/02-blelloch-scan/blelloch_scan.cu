/* labs/02-blelloch-scan/blelloch_scan.cu: YOUR lab 02 code, the
 * work-efficient (Blelloch) scan.
 *
 * This is the only file you edit and submit. Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=02                          score every test
 *   build/labs/lab02 check --part b --n 1025   one test, with its diagnosis
 *   build/labs/lab02 run                       time it against lab 01, the CPU and CUB
 */
#include "blelloch_scan.h"

#include <cuda_runtime.h>

/* Part (a): global memory, one launch per tree level. */
extern "C" void scan_blelloch_global(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab02): copy d_in into d_scratch padded with zeros to a power of
     * two, up-sweep, clear the root, down-sweep, copy n results to d_out.
     * README section "Part (a)". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (b): shared memory, with a chosen number of threads per block. */
extern "C" void scan_blelloch_shared_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    /* TODO(lab02): a kernel that scans a tile of 2 * threads elements in
     * shared memory (up-sweep and down-sweep), the tile totals scanned
     * recursively, and added back. README section "Part (b)". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch, (void)threads;
}

/* Part (b) with your best block size. */
extern "C" void scan_blelloch_shared(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab02): call scan_blelloch_shared_threads with the block size your
     * block-size experiment found best. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Part (c): inclusive, from (b). */
extern "C" void scan_blelloch_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab02): README section "Part (c)". */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}
