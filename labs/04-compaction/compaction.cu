/* labs/04-compaction/compaction.cu: YOUR lab 04 code, stream compaction.
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing (and a count of
 * -1), and the harness reports "not implemented yet".
 *
 *   make check LAB=04                                      score every test
 *   build/labs/lab04 check --part c --n 1025 --param 0.5   one test (param: the keep fraction)
 *   build/labs/lab04 run                                   time it against the CPU and CUB
 *   build/labs/lab04 run --part ct                         the block-size sweep (size = threads)
 */
#include "compaction.h"

#include <cuda_runtime.h>

/* (a) README section 4 "Parts (a) and (b)". */
extern "C" void compact_flags(const int *d_in, int *d_flags, int n)
{
    /* TODO(lab04): d_flags[i] = d_in[i] > 0. */
    (void)d_in, (void)d_flags, (void)n;
}

/* (b) README section 4, with the scan of section 3.2. */
extern "C" int compact_scan(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab04): flags into d_scratch, primlab_scan_exclusive of them, a
     * scatter kernel; return the count (last scanned value + last flag). */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
    return -1; /* not implemented */
}

/* (c) README section 6 "Part (c): one pass". */
extern "C" int compact_warp(const int *d_in, int *d_out, int n, int *d_scratch)
{
    /* TODO(lab04): one pass: __ballot_sync and __popc within each warp, one
     * offset per block from the blocks before it. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
    return -1; /* not implemented */
}

/* (c) with a chosen block size: README section 8, part (ct), and section
 * 10 "The block-size experiment". */
extern "C" int compact_warp_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads)
{
    /* TODO(lab04): part (c) with `threads` threads per block (a multiple of
     * 32 up to 1024): derive the warps per block, the tile and the shared
     * arrays from it. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch, (void)threads;
    return -1; /* not implemented */
}
