/* labs/08-single-pass-scan/single_pass_scan.h: the contract of lab 08, the
 * capstone: a single-pass scan whose blocks pass their prefixes to one
 * another through per-tile status words (a chained scan, then Merrill and
 * Garland's decoupled look-back, then a tuned one raced against CUB). Do not
 * edit: grading uses a pristine copy. The handout is README.md beside it.
 *
 * Every function:
 *   - takes device pointers: d_in holds n elements and is read-only; d_out
 *     has room for exactly n and never aliases d_in; both are aligned to
 *     256 bytes (16-byte vector loads and stores of whole groups of four are
 *     fine; the last group of a tile may be partial);
 *   - must accept n = 0 (write nothing, launch nothing that fails) and every
 *     n up to SPS_MAX_N (the grader tests one within 1024 of it where the
 *     device's memory allows: compute element offsets in long or size_t);
 *   - int sums wrap like the hardware's int32 adds (add as unsigned);
 *   - is asynchronous on the default stream (a kernel launch, a
 *     cudaMemsetAsync); the harness synchronises afterwards and reports any
 *     launch error or fault;
 *   - must not call cudaMalloc, nor CUB or Thrust (the yardstick).
 *
 * Scratch. d_scratch holds at least SPS_SCRATCH_BYTES(n) bytes, aligned to
 * 256 bytes, with undefined contents at every call (the harness poisons it
 * between calls): initialise what you read, in every call. Its layout:
 *   - bytes [0, 4): the tile counter, ((unsigned *)d_scratch)[0]. Every
 *     block takes its tile id from it with atomicAdd(counter, 1), never
 *     from blockIdx.x (README section 5: a block may only wait for tiles
 *     that a running block holds). Set it to 0 at the start of each call
 *     (before the kernel that takes ids) and leave it as the call left it:
 *     the stress test (part bs) reads it after each call, and a counter
 *     still 0, or never written, after a call with n >= 1 fails the test
 *     as "tiles ordered by blockIdx";
 *   - bytes [SPS_STATUS_OFFSET, SPS_SCRATCH_BYTES(n)): yours, 8 bytes per
 *     tile for tiles of SPS_MIN_TILE elements or more, with room to spare:
 *     the tiles' status words (one 64-bit word each in parts b and c; part
 *     a may keep a value array and a flag array there instead).
 *
 * Floats (part c's _f32 entry points). The graded inputs are multiples of
 * 2^-6 in [-1, 1], whose partial sums are all exact in float: every correct
 * order of the additions gives the exact sums, and results are compared
 * with them exactly (README section 9 on what order your code adds in, and
 * why it is not CUB's).
 */
#ifndef PRIMLAB_LAB08_SINGLE_PASS_SCAN_H
#define PRIMLAB_LAB08_SINGLE_PASS_SCAN_H

#include <stddef.h>

/* The largest n of every part: 2^30 elements (4 GiB of int32 each way). */
#define SPS_MAX_N (1 << 30)

/* The smallest tile the scratch has status words for. */
#define SPS_MIN_TILE 128

/* Where the status words start in d_scratch (after the tile counter). */
#define SPS_STATUS_OFFSET 256

/* The tile counter and 8 bytes per SPS_MIN_TILE elements, with 64 tiles'
   worth to spare. */
#define SPS_SCRATCH_BYTES(n) ((size_t)SPS_STATUS_OFFSET + 8 * ((size_t)(n) / SPS_MIN_TILE + 64))

#ifdef __cplusplus
extern "C" {
#endif

/* (a) The chained scan, inclusive: d_out[i] = d_in[0] + ... + d_in[i].
 *     Each block scans its tile, waits until its predecessor's inclusive
 *     prefix is published, adds it, and publishes its own: a value, then,
 *     after a fence, a flag (README section 4). */
void scan_chained(const int *d_in, int *d_out, int n, void *d_scratch);

/* (b) Decoupled look-back, inclusive: each tile publishes its aggregate at
 *     once (status A), then its inclusive prefix (status P), flag and value
 *     packed into one 64-bit word written and read whole; a warp looks back
 *     over 32 predecessors at a time, adding aggregates until it meets an
 *     inclusive prefix (README section 6). Part bs runs it many
 *     times while other kernels hold SMs and load the memory system. */
void scan_lookback(const int *d_in, int *d_out, int n, void *d_scratch);

/* (c) The tuned single-pass scan, exclusive (d_out[0] = 0, d_out[i] =
 *     d_in[0] + ... + d_in[i-1]) and inclusive, raced against CUB's
 *     DeviceScan at 2^28 (README section 8). */
void scan_tuned_exclusive(const int *d_in, int *d_out, int n, void *d_scratch);
void scan_tuned_inclusive(const int *d_in, int *d_out, int n, void *d_scratch);

/* (c) The same for floats: sums of floats, in whatever order your kernel
 *     adds them (see "Floats" above). */
void scan_tuned_exclusive_f32(const float *d_in, float *d_out, int n, void *d_scratch);
void scan_tuned_inclusive_f32(const float *d_in, float *d_out, int n, void *d_scratch);

#ifdef __cplusplus
}
#endif

#endif
