/* harness/parent/roofs.h: an algorithm's roof (docs/roofs.md): the bytes the
 * algorithm a part teaches must move through DRAM in one call, and the
 * fraction of that roof a measured time reaches. Pure arithmetic; no CUDA.
 *
 * A part states its algorithm's bytes (pl_part.alg, lab.h) as a function of
 * its size and parameter, with the formula as the handout writes it, and the
 * bytes of its vendor yardstick's own algorithm (pl_part.vendor_alg). The
 * roof is the device's copy bandwidth, measured in the same run, applied to
 * those bytes: the least time they can take. A row's "% of its roof" is that
 * time over the row's time:
 *
 *     pct = 100 * (bytes / (copy_gbps * 1e9)) / (time_ms * 1e-3)
 *
 * which is its "% of copy" times the algorithm's bytes over the bytes the
 * row's GB/s counts (the least any algorithm for the problem moves). 100 %
 * means the code moves its algorithm's bytes at the copy's speed: nothing
 * left to gain but by moving fewer bytes, that is, by another algorithm.
 * Above 100 %: fewer bytes reached DRAM than the count says (the L2 cache
 * held some between passes, at sizes near its own), or the code moves fewer
 * than its algorithm must (it is another algorithm).
 */
#ifndef PRIMLAB_ROOFS_H
#define PRIMLAB_ROOFS_H

#ifdef __cplusplus
extern "C" {
#endif

/* An algorithm's bytes: a function of a part's size and parameter (NULL:
   none stated) and the formula for people, which the handout explains
   ("3n words: the input read twice, the output written once"). */
typedef struct pl_alg {
    double (*bytes)(long size, double param);
    const char *text;
} pl_alg;

/* a's bytes at (size, param); 0 when a states none. */
double pl_alg_bytes(const pl_alg *a, long size, double param);

/* The percentage of its roof that bytes moved in time_ms reach at the copy
   bandwidth copy_gbps (read + write, GB/s); NaN unless all three are
   positive and finite. */
double pl_alg_pct(double bytes, double copy_gbps, double time_ms);

/* The scans' formulas, in 4-byte words of n elements: one pass (each
   element read once and written once), reduce-then-scan (the input read
   twice), scan-then-add (the output read and written again). */
double pl_words_2n(long n, double param);
double pl_words_3n(long n, double param);
double pl_words_4n(long n, double param);
#define PL_ALG_ONE_PASS {pl_words_2n, "2n words: each element read once and written once (one pass)"}
#define PL_ALG_REDUCE_THEN_SCAN                                                                                    \
    {pl_words_3n, "3n words: the input read twice (reduce, then scan), the output written once"}
#define PL_ALG_SCAN_THEN_ADD                                                                                       \
    {pl_words_4n, "4n words: the scan pass reads and writes each element, the add pass reads and writes it again"}
/* CUB's DeviceScan: one pass, tiles chained by decoupled look-back */
#define PL_ALG_CUB_SCAN {pl_words_2n, "2n words: one pass (decoupled look-back)"}

#ifdef __cplusplus
}
#endif

#endif
