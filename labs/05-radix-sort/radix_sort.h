/* labs/05-radix-sort/radix_sort.h: the contract of lab 05, radix sort.
 * Do not edit: grading uses a pristine copy. The handout is README.md
 * beside it.
 *
 * Every sort puts n keys in ascending order, stably (keys that compare equal
 * keep their input order). Every function:
 *   - takes device pointers; inputs are read-only and never alias outputs;
 *   - must accept n = 0, n = 1 and every n up to RS_MAX_N (the grader tests
 *     one within 1024 of it where the device's memory allows; compute tile
 *     counts and histogram offsets so that they cannot overflow there);
 *   - may use d_scratch, at least RS_SCRATCH_INTS(n) 32-bit words aligned to
 *     256 bytes, and must not call cudaMalloc;
 *   - sorts the keys as the type says: unsigned for (a)-(c), signed for
 *     radix_sort_int, IEEE-754 float for radix_sort_float (no NaN in the
 *     inputs; -0.0 sorts just before +0.0, as its bits say).
 */
#ifndef PRIMLAB_LAB05_RADIX_SORT_H
#define PRIMLAB_LAB05_RADIX_SORT_H

#include <stddef.h>

/* Room for: a second copy of the keys and of the values (ping-pong between
   passes), the flags and scanned positions of part (a), or per-block digit
   histograms of up to n/2 words, and 64 Ki words to spare. */
#define RS_SCRATCH_INTS(n) (4 * (size_t)(n) + 65536)
#define RS_MAX_N 2147483647

#ifdef __cplusplus
extern "C" {
#endif

/* (a) One bit per pass, 32 passes from the lowest bit: flags (bit is 0), an
 *     exclusive scan of the flags, then a scatter that puts the 0s first and
 *     the 1s after them, each group in input order ("split"). */
void radix_sort_split(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch);

/* (b) Four bits per pass, 8 passes: per-block digit histograms, one
 *     exclusive scan over all of them (digit-major), then a stable scatter
 *     that ranks each key within its block in shared memory. */
void radix_sort_4bit(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch);

/* (b) The same with `threads` threads per block (a power of two from 32 to
 *     1024): the block-size experiment of the handout. Graded, so it
 *     returns nothing, like (b): only these values are called (unlike
 *     radix_sort_bits, which may refuse a width). The scratch is still
 *     RS_SCRATCH_INTS(n). */
void radix_sort_4bit_threads(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch, int threads);

/* (c) Pairs: the values move with their keys; equal keys keep the input
 *     order of their values. */
void radix_sort_pairs(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                      unsigned *d_vals_out, int n, unsigned *d_scratch);

/* (d) Signed and float keys, by an order-preserving flip of their bits. */
void radix_sort_int(const int *d_in, int *d_out, int n, unsigned *d_scratch);
void radix_sort_float(const float *d_in, float *d_out, int n, unsigned *d_scratch);

/* Optional: the part (b) sort with `bits` bits per pass, for the figure of
 * time against digit width (`lab05 passes`). Return 0 when sorted, or -1
 * when this width is not supported (the stub supports none). Not graded. */
int radix_sort_bits(const unsigned *d_in, unsigned *d_out, int n, int bits, unsigned *d_scratch);

/* Provided by the harness: an exclusive scan of n ints (d_out may equal
 * d_in), CUB underneath. Use it in (a) and (b), or your own from lab 02. */
void primlab_scan_exclusive(const int *d_in, int *d_out, int n);

/* Provided by the harness: marks the start of a phase of your sort, e.g.
 * primlab_phase("histogram") before each histogram launch. `lab05 passes`
 * times each phase of each pass from these marks (CUDA events, no
 * synchronisation); elsewhere it does nothing. name must be a literal. */
void primlab_phase(const char *name);

#ifdef __cplusplus
}
#endif

#endif
