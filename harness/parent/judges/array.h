/* harness/parent/judges/array.h: the array judge: int32 words compared
 * position by position with the part's CPU reference (the oracle).
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

typedef struct pl_array_judge {
    pl_input in;
    long (*out_len)(long n);              /* the output's words; NULL: n */
    const char *hint_right, *hint_left;   /* what a shift by one means, or NULL */
    /* Known mistakes (pl_cmp's known, diagnose.h), or NULL. */
    int (*known)(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t first_bad,
                 char *why, size_t cap);
} pl_array_judge;

extern const pl_judge_kind pl_array_kind;
/* n words in and out, the lab's uniform input, no hints. */
extern const pl_judge pl_array_plain;

#ifdef __cplusplus
}
#endif

#endif
