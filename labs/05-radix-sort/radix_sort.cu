/* labs/05-radix-sort/radix_sort.cu: YOUR lab 05 code, radix sort.
 *
 * This is the file you edit and submit; files of your own may sit beside it
 * (docs/student-guide.md, "Several files"). Read README.md beside it first.
 * Until you fill a function in it returns without writing, and the harness
 * reports "not implemented yet".
 *
 *   make check LAB=05                                     score every test
 *   build/labs/lab05 check --part c --n 1025 --param few  one test (param: the key distribution)
 *   build/labs/lab05 run                                  time it against the CPU and CUB
 *   build/labs/lab05 passes                               time each phase of each pass
 *   build/labs/lab05 run --part bt                        the block-size sweep (size = threads)
 */
#include "radix_sort.h"

#include <cuda_runtime.h>

/* (a) README section 3 "Part (a): one bit at a time". */
extern "C" void radix_sort_split(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch)
{
    /* TODO(lab05): for each bit from 0 to 31: flags (bit is 0) into
     * d_scratch, primlab_scan_exclusive of them, a scatter kernel; ping-pong
     * between d_out and a second buffer in d_scratch so that the last pass
     * lands in d_out. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* (b) README section 4 "Part (b): four bits at a time". */
extern "C" void radix_sort_4bit(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch)
{
    /* TODO(lab05): 8 passes of: per-block digit histograms (digit-major),
     * primlab_scan_exclusive over them, a scatter that ranks each key within
     * its block in shared memory. Call primlab_phase("histogram") etc.
     * before each step to see them in `lab05 passes`. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* (b) with a chosen block size: README section 8, part (bt), and section
 * 10 "The block-size experiment". */
extern "C" void radix_sort_4bit_threads(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch, int threads)
{
    /* TODO(lab05): part (b) with `threads` threads per block, a power of two
     * from 32 to 1024: the tile, the per-warp counts and the shared arrays
     * all follow from it (a template parameter and a switch over the six
     * values is one way). */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch, (void)threads;
}

/* (c) README section 5 "Part (c): pairs". */
extern "C" void radix_sort_pairs(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                                 unsigned *d_vals_out, int n, unsigned *d_scratch)
{
    /* TODO(lab05): part (b) with the values moving alongside their keys. */
    (void)d_keys_in, (void)d_vals_in, (void)d_keys_out, (void)d_vals_out, (void)n, (void)d_scratch;
}

/* (d) README section 6 "Part (d): signed and float keys". */
extern "C" void radix_sort_int(const int *d_in, int *d_out, int n, unsigned *d_scratch)
{
    /* TODO(lab05): part (b), taking digits from the key with its sign bit flipped. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

extern "C" void radix_sort_float(const float *d_in, float *d_out, int n, unsigned *d_scratch)
{
    /* TODO(lab05): part (b), taking digits from the key's bits with the sign
     * bit flipped when it is 0 and every bit flipped when it is 1. */
    (void)d_in, (void)d_out, (void)n, (void)d_scratch;
}

/* Optional, not graded: README section 7 "Digit width". */
extern "C" int radix_sort_bits(const unsigned *d_in, unsigned *d_out, int n, int bits, unsigned *d_scratch)
{
    (void)d_in, (void)d_out, (void)n, (void)bits, (void)d_scratch;
    return -1; /* no width supported yet */
}
