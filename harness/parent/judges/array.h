/* harness/parent/judges/array.h: the array judge: int32 words compared
 * position by position with the part's CPU reference (the oracle); and the
 * scan judge, the same for a scan, which can also prove an output right
 * without the reference.
 *
 * The diagnosis is diagnose.h's: poison left, guard zones, a changed input,
 * a race between two runs, a shift by one (named by the hints: what a shift
 * means for this operation), errors from a block boundary, and the
 * part's own known mistakes, named when the wrong values are theirs.
 */
#ifndef PRIMLAB_JUDGES_ARRAY_H
#define PRIMLAB_JUDGES_ARRAY_H

#include "judge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A scan's shift hints (pl_array_judge's hint_right and hint_left). */
#define PL_SCAN_HINTS .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE

/* What the scan judge proves (pl_array_judge's scan). */
enum pl_scan_dir { PL_NOT_A_SCAN = 0, PL_SCAN_EXCLUSIVE, PL_SCAN_INCLUSIVE };

typedef struct pl_array_judge {
    pl_input in;
    long (*out_len)(long n);              /* the output's words; NULL: n */
    const char *hint_right, *hint_left;   /* what a shift by one means, or NULL */
    /* Known mistakes (pl_cmp's known, diagnose.h), or NULL. */
    int (*known)(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t first_bad,
                 char *why, size_t cap);
    /* The scan judge's: an exclusive or inclusive int32 sum of n words into
       n words (not for block-size parts, whose lengths differ). */
    int scan;
} pl_array_judge;

extern const pl_judge_kind pl_array_kind;
/* The array judge with a proof (judge.h's proven): an output whose first
   word is 0 (exclusive) or the input's first (inclusive), and each word
   the one before it plus the input word it adds, wrapping, is the scan:
   nothing else is. Its configuration's scan says which. */
extern const pl_judge_kind pl_scan_kind;
/* n words in and out, the lab's uniform input, no hints. */
extern const pl_judge pl_array_plain;
/* The scan judges of n words of the lab's uniform input, inclusive and
   exclusive, a shift by one named (PL_SCAN_HINTS). */
extern const pl_judge pl_scan_inclusive, pl_scan_exclusive;

#ifdef __cplusplus
}
#endif

#endif
