/* harness/parent/labs/lab03_banks.h: lab 03's bank-conflict analyzer, on the
 * CPU.
 *
 * Shared memory has 32 banks of 4-byte words; word k lives in bank k % 32.
 * One warp instruction is served in passes ("wavefronts"): a pass serves at
 * most one distinct word per bank, so the passes needed are the largest
 * number of distinct words any bank is asked for. Lanes reading the same word
 * share it (a broadcast, no conflict). 8-byte accesses are served half a warp
 * (16 lanes, 128 bytes) at a time, each 8-byte word covering two banks.
 *
 * Used by the tests (index functions of lab 03's kernels), by
 * `lab03 analyze` (tables for the handout, data for the stride figure), and
 * beside Nsight Compute's counters in `make profile LAB=03`.
 */
#ifndef PRIMLAB_LAB03_BANKS_H
#define PRIMLAB_LAB03_BANKS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PL_BANKS 32

/* Passes for one warp instruction: addr[i] is the byte address lane i
   accesses (lanes <= 32 active lanes), width 4 or 8 bytes. */
int pl_bank_passes(const uint64_t *addr, int lanes, int width);
/* Ways of conflict: passes over the fewest possible for the width (1 for
   4-byte accesses, 2 for a full warp of 8-byte ones). */
int pl_bank_degree(const uint64_t *addr, int lanes, int width);

/* Lab 03's access patterns. */
int pl_stride_degree(int stride, int width);            /* lane l reads word l * stride */
/* The Blelloch tree over `slots` ints, 2 per thread: the worst degree over
   the warps and the two loads of one level (0 = the leaves' level; the
   up-sweep and the down-sweep use the same index pairs), without or with
   padding. */
int pl_scan_level_degree(int slots, int level, int padded);
int pl_scan_levels(int slots);
/* Reading one column of a 32 x 32 float tile: 0 plain [32][32], 1 padded
   [32][33], 2 swizzled (column ^ row). */
int pl_tile_column_degree(int layout);
/* The index of element (row, col) in each layout's tile, in words. */
int pl_tile_index(int layout, int row, int col);
/* GPU Gems 3's padding for 32 banks: i + (i >> 5) + (i >> 10). */
int pl_padded_index(int i);

/* Tables for people and rows for gnuplot (`lab03 analyze`). */
void pl_banks_report(FILE *table, FILE *tsv, int slots);

#ifdef __cplusplus
}
#endif

#endif
