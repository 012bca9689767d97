/* labs/09-onesweep-sort/onesweep_sort.h: the contract of lab 09, the
 * onesweep radix sort (Adinets and Merrill, 2022): one histogram of all
 * four 8-bit digits, then one pass per digit in which every tile ranks its
 * keys and finds where they go by a decoupled look-back over per-digit
 * status words, as lab 08's scan does over one sum. Do not edit: grading
 * uses a pristine copy. The handout is README.md beside it.
 *
 * Keys are 32-bit unsigned, sorted ascending and stably (keys that compare
 * equal keep their input order; with pairs, their values show it). A digit
 * is 8 bits: digit p of key k is (k >> 8p) & 255, pass p sorts by it.
 *
 * Every function:
 *   - takes device pointers; inputs are read-only, never alias outputs, and
 *     are aligned to 256 bytes (16-byte vector loads of whole groups of
 *     four are fine; the last group may be partial);
 *   - must accept n = 0 (write nothing, launch nothing that fails) and every
 *     n up to OS_MAX_N (the grader tests one within 1024 of it where the
 *     device's memory allows: compute element offsets in long or size_t);
 *   - is asynchronous on the default stream (kernel launches,
 *     cudaMemsetAsync); the harness synchronises afterwards and reports any
 *     launch error or fault;
 *   - must not call cudaMalloc, nor CUB or Thrust (the yardstick).
 *
 * Scratch. d_scratch holds at least OS_SCRATCH_BYTES(n) bytes, aligned to
 * 256 bytes, with undefined contents at every call (the harness poisons it
 * between calls): initialise what you read, in every call. Its layout:
 *   - bytes [0, 16): the tile counters, ((unsigned *)d_scratch)[p] for
 *     digit pass p; parts (b) and (c) use word 0 whatever their shift.
 *     Every block of a digit pass takes its tile id from its pass's counter
 *     with atomicAdd(counter, 1), never from blockIdx.x (README section 5).
 *     Set it to 0 before the kernel that takes ids and leave it as the call
 *     left it: the stress test (part cs) reads word 0 after each call, and a
 *     counter still 0, or never written, after a call with n >= 1 fails as
 *     "tiles ordered by blockIdx";
 *   - bytes [16, OS_STATUS_OFFSET): yours, for the histograms and bases;
 *   - bytes [OS_STATUS_OFFSET, + OS_STATUS_BYTES(n)): yours, the status
 *     words of one digit pass: 256 words of 4 bytes per tile, for tiles of
 *     OS_MIN_TILE keys or more (clear them before each pass);
 *   - then, from OS_BUFFER_OFFSET(n) (a multiple of 256), two arrays of n
 *     words, yours: the ping-pong copy of the keys and of the values
 *     between the passes of part (d).
 */
#ifndef PRIMLAB_LAB09_ONESWEEP_SORT_H
#define PRIMLAB_LAB09_ONESWEEP_SORT_H

#include <stddef.h>

/* The largest n of every part: 2^30 keys (4 GiB each way). A status word
   keeps a count in 30 bits, enough for every prefix a tile reads (README
   section 6 says why 2^30 itself still fits). */
#define OS_MAX_N (1 << 30)

/* The smallest tile the scratch has status words for. */
#define OS_MIN_TILE 1024

/* The bits of a digit, its values. */
#define OS_DIGIT_BITS 8
#define OS_RADIX 256

/* Where the status words start in d_scratch, and their bytes: 256 words per
   tile of OS_MIN_TILE keys, with 64 tiles to spare. */
#define OS_STATUS_OFFSET 16384
#define OS_STATUS_BYTES(n) (4 * (size_t)OS_RADIX * ((size_t)(n) / OS_MIN_TILE + 64))

/* Where the ping-pong arrays start: after the status words, rounded up to
   256 bytes. The keys' copy there, the values' n words after it (rounded
   up to 64 words). */
#define OS_BUFFER_OFFSET(n) (((size_t)OS_STATUS_OFFSET + OS_STATUS_BYTES(n) + 255) / 256 * 256)
#define OS_SCRATCH_BYTES(n) (OS_BUFFER_OFFSET(n) + 8 * (((size_t)(n) + 63) / 64 * 64))

#ifdef __cplusplus
extern "C" {
#endif

/* (a) The histogram of every digit in one pass over the keys, then their
 *     exclusive bases: d_bases[256 * p + d] = the number of keys whose digit
 *     p is below d (so d_bases[256 * p] = 0), for p = 0 .. 3: 1024 words,
 *     every one written (n = 0 too: all zeros). README section 4. */
void onesweep_histogram(const unsigned *d_keys, int n, unsigned *d_bases, void *d_scratch);

/* (b) One digit pass, the chained version: d_keys_out holds d_keys_in
 *     stably sorted by the digit (d_keys_in[i] >> shift) & 255, shift one of
 *     0, 8, 16, 24. d_bases holds that digit's 256 exclusive bases (part
 *     (a)'s row for it), read-only. Tile t waits until tile t - 1 has
 *     published its inclusive per-digit counts, adds its own and publishes
 *     them (README section 5). */
void onesweep_pass_chained(const unsigned *d_keys_in, unsigned *d_keys_out, int n, int shift,
                           const unsigned *d_bases, void *d_scratch);

/* (c) The same pass with a decoupled look-back: each tile publishes its
 *     count of every digit at once (flag A) and its inclusive counts when it
 *     knows them (flag P), flag and count in one 32-bit word per digit
 *     (README section 6). Part cs runs it many times while other kernels
 *     hold SMs and load the memory system. */
void onesweep_pass_lookback(const unsigned *d_keys_in, unsigned *d_keys_out, int n, int shift,
                            const unsigned *d_bases, void *d_scratch);

/* (d) The whole sort: (a), then four passes of (c), from the lowest digit,
 *     between d_out and the scratch's arrays; keys only, and key-value pairs
 *     (the values move with their keys). Raced against CUB's
 *     DeviceRadixSort (README section 8). */
void onesweep_sort_keys(const unsigned *d_in, unsigned *d_out, int n, void *d_scratch);
void onesweep_sort_pairs(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                         unsigned *d_vals_out, int n, void *d_scratch);

#ifdef __cplusplus
}
#endif

#endif
