/* harness/diagnose.h: compare a result with its reference and say what is wrong.
 *
 * "FAIL" teaches nothing; a diagnosis names the bug's likely shape:
 *   - output never written (poison left), everywhere ("not implemented yet")
 *     or at some positions;
 *   - writes past the end or before the start (guard zones changed);
 *   - the whole output shifted by one (inclusive vs exclusive);
 *   - errors that start at a block boundary (block sums not carried over);
 *   - a result that differs between two runs (a race);
 *   - for sorts: keys lost, out of order (or in the order of the raw bits),
 *     values parted from their keys, equal keys out of input order;
 *   - otherwise the first mismatch, with a window of values, and the count.
 * Pure C on host arrays, so every kind is unit-tested without a GPU.
 */
#ifndef PRIMLAB_DIAGNOSE_H
#define PRIMLAB_DIAGNOSE_H

#include "../protocol.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PL_POISON_BYTE (0xA5 in every byte) fills device buffers and their guard
   zones: protocol.h, which the worker shares. */

enum pl_finding {
    PL_F_NOT_IMPLEMENTED = 1u << 0, /* every output position still poison */
    PL_F_UNWRITTEN = 1u << 1,       /* some positions still poison */
    PL_F_GUARD_BACK = 1u << 2,      /* wrote past the end */
    PL_F_GUARD_FRONT = 1u << 3,     /* wrote before the start */
    PL_F_SHIFT_RIGHT = 1u << 4,     /* got[i] == want[i-1] */
    PL_F_SHIFT_LEFT = 1u << 5,      /* got[i] == want[i+1] */
    PL_F_BLOCK = 1u << 6,           /* errors start at a block boundary */
    PL_F_RACE = 1u << 7,            /* two runs disagree */
    PL_F_MISMATCH = 1u << 8,        /* wrong values */
    PL_F_INPUT_CHANGED = 1u << 9,   /* the const input was modified */
    PL_F_SORT_UNSTABLE = 1u << 10,  /* keys right, equal keys' values out of input order */
    PL_F_SORT_ORDER = 1u << 11,     /* every input key there, but not in order */
    PL_F_SORT_VALUES = 1u << 12,    /* keys right, a value not its key's */
    PL_F_SORT_LOST = 1u << 13,      /* keys missing or duplicated */
};

/* Sorts: how the keys compare (lab 05). */
enum pl_sort { PL_SORT_NONE, PL_SORT_U32, PL_SORT_I32, PL_SORT_F32 };

typedef struct pl_cmp {
    const int *want;  /* reference, n values */
    const int *got;   /* result, n values */
    size_t n;
    const int *got2;  /* the same call's result from a second run, or NULL */
    const uint8_t *guard_front, *guard_back; /* the output's guard zones, or NULL */
    size_t guard_bytes;
    const int *in, *in_after; /* the input before and after the call, or NULL */
    size_t n_in;              /* the input's length; 0: n */
    /* what a shift by one means for this operation, e.g.
       "an exclusive result where an inclusive one was asked" */
    const char *hint_right, *hint_left;
    /* A sort (enum pl_sort, or 0): want and got are keys in order, then,
       with sort_pairs, as many values, each the input position of its key
       (in[0 ..) holds the input keys). The diagnosis then tells lost keys,
       misordered keys (and keys sorted by the wrong order), values that left
       their keys, and an unstable order of equal keys. */
    int sort, sort_pairs;
} pl_cmp;

typedef struct pl_diag {
    unsigned findings;    /* enum pl_finding bits */
    size_t mismatches;    /* positions where got != want */
    size_t unwritten;     /* of those, positions still poison */
    size_t first_bad;     /* first mismatching index (valid if mismatches) */
    size_t guard_front_bad, guard_back_bad; /* changed bytes in each zone */
    size_t race_diffs;    /* positions where got != got2 */
    size_t block;         /* the block size when PL_F_BLOCK */
    char reason[160];     /* one line: the most telling finding */
    char detail[2048];    /* further lines, each indented, '\n'-terminated */
} pl_diag;

/* Fills d; returns 1 if the result is right (no finding), else 0. */
int pl_compare_i32(const pl_cmp *c, pl_diag *d);

/* Number of bytes in [p, p + bytes) that differ from PL_POISON_BYTE. */
size_t pl_guard_changed(const uint8_t *p, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
