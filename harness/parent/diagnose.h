/* harness/parent/diagnose.h: compare a result with its reference and say what is wrong.
 *
 * "FAIL" teaches nothing; a diagnosis names the bug's likely shape:
 *   - output never written (poison left), everywhere ("not implemented yet")
 *     or at some positions;
 *   - writes past the end or before the start (guard zones changed);
 *   - the whole output shifted by one (inclusive vs exclusive);
 *   - errors that start at a block boundary (block sums not carried over);
 *   - a result that differs between two runs (a race);
 *   - otherwise the first mismatch, with a window of values, and the count.
 * These are the findings every kind of result shares; a judge adds its own
 * (harness/parent/judges/: a sort's lost or misordered keys, a compaction's
 * count) through pl_cmp_kind. Pure C on host arrays, so every kind is
 * unit-tested without a GPU.
 */
#ifndef PRIMLAB_DIAGNOSE_H
#define PRIMLAB_DIAGNOSE_H

#include "../wire/protocol.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PL_POISON_BYTE (0xA5 in every byte) fills device buffers and their guard
   zones: wire/protocol.h, which the worker shares. */

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
    PL_F_NOT_FINITE = 1u << 14,     /* a NaN or an infinity where a number was expected */
    PL_F_SUSPECT = 1u << 15,        /* the wrong values are what a named mistake gives (a judge's known) */
    PL_F_READS_OUTPUT = 1u << 16,   /* right from the usual poison, NaN from a NaN one: adds into its output */
    PL_F_COUNT = 1u << 17,          /* a compaction's returned count is not the number of kept elements */
    PL_F_KEPT_DROPPED = 1u << 18,   /* a compaction kept elements its rule drops */
};

struct pl_cmp;
struct pl_diag;

/* A judge's own look at a wrong int32 result, between the findings every
   result shares and the reason (harness/parent/judges/: a sort's order, a
   compaction's count). */
typedef struct pl_cmp_kind {
    /* 1: the positions have no fixed place (a sort's equal keys), so no
       shift by one and no block boundary is looked for */
    int no_shapes;
    /* Adds the kind's findings to d; called when some position is wrong
       and the output was written. state: pl_cmp's kind_state. */
    void (*find)(const struct pl_cmp *c, struct pl_diag *d, void *state);
    /* The reason for chosen, one of the kind's findings, into d->reason,
       and detail lines (pl_diag_add). */
    void (*say)(const struct pl_cmp *c, struct pl_diag *d, unsigned chosen, void *state);
} pl_cmp_kind;

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
    /* Optional, a part's own known mistakes, or NULL:
       asked when the result is wrong and the output was written and kept
       within its bounds; first_bad is the first wrong position, in the
       input (known_n_in words, or NULL). Returns 1 with a one-line reason
       naming the mistake in why (PL_F_SUSPECT), else 0. */
    int (*known)(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t first_bad, char *why,
                 size_t cap);
    const int *known_in;
    size_t known_n_in;
    /* A judge's own findings (pl_cmp_kind), or NULL, and their state */
    const pl_cmp_kind *kind;
    void *kind_state;
} pl_cmp;

typedef struct pl_diag {
    unsigned findings;    /* enum pl_finding bits */
    unsigned chosen;      /* the one finding the reason names (0: none); bugs.h's class */
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

/* Appends one printf-formatted line to d->detail (indented by the caller,
   '\n' added), silently truncating: for a pl_cmp_kind's say. */
void pl_diag_add(pl_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------ float and double
 *
 * Outputs of float or double are compared with a reference
 * computed in higher precision, within a tolerance per position that the lab
 * states (an error bound that every correct order of the additions meets;
 * kernels_ref/cpu/reduce.h derives them). Bit equality is not asked for: two
 * correct kernels that add in different orders round differently, and so
 * may two runs of one kernel that uses atomics. So a second run that differs
 * is a race only when it is out of tolerance and the first was not.
 *
 * Known mistakes are named by suspects: for each, the value every position
 * would hold under that mistake (the last partial warp left out of a sum, a
 * row loop that stops one short). When every wrong position holds its
 * suspect's value, within tolerance, the reason names the mistake. */
enum pl_elem { PL_ELEM_I32 = 0, PL_ELEM_F32, PL_ELEM_F64 };

typedef struct pl_suspect {
    const char *what;      /* "the last 5 elements (a partial warp) left out" */
    const double *values;  /* n values: what each position would hold */
    const double *tol;     /* n tolerances of the mistake's own float computation (NULL: the
                              right result's; a scan that runs on over every row sums far more terms) */
    unsigned whole;        /* a finding this suspect also stands for when every position, right or
                              wrong, holds exactly its value (lab 07's a as it went in: nothing
                              written, PL_F_NOT_IMPLEMENTED); added to the findings, not chosen */
} pl_suspect;

#define PL_MAX_SUSPECTS 10

typedef struct pl_cmp_real {
    int elem;              /* PL_ELEM_F32 or PL_ELEM_F64: got's element type */
    size_t n;
    const double *want;    /* reference, n values */
    const double *tol;     /* n allowed |got - want| (NULL: tol_all everywhere) */
    double tol_all;
    const void *got, *got2; /* n elements; got2: a second run's, or NULL */
    int got2_nan_start;     /* the second run's output started as NaN (PL_RQ_POISON_NAN) */
    const uint8_t *guard_front, *guard_back;
    size_t guard_bytes;
    const void *in, *in_after; /* the input before and after the call, or NULL */
    size_t in_bytes;
    const char *pos_name;  /* what a position is called: "row", "element" (NULL) */
    const long *seg;       /* with pos_name "row": row_ptr, to say a row's length */
    pl_suspect suspects[PL_MAX_SUSPECTS];
    int nsuspects;
    /* Optional: more suspects, made only when a position is wrong, and one
       at a time until one fits (each may cost as much as the reference, so
       a right result never pays for them, and a stub's output that the
       first one names pays for that one): fills out[0] with suspect number
       k of its list (from 0) and returns 1, or 0 past the list's end. */
    int (*more_suspects)(pl_suspect *out, int k);
} pl_cmp_real;

/* Fills d (reason and detail as pl_compare_i32's, values printed in full
   precision with the error and the tolerance); returns 1 if the result is
   within tolerance everywhere and nothing else is wrong. */
int pl_compare_real(const pl_cmp_real *c, pl_diag *d);

/* The poison pattern read as each type: a float output never written holds
   PL_POISON_I32's bits; a double one, 0xA5A5A5A5A5A5A5A5. */
int pl_is_poison_f32(float x);
int pl_is_poison_f64(double x);

/* Number of bytes in [p, p + bytes) that differ from PL_POISON_BYTE. */
size_t pl_guard_changed(const uint8_t *p, size_t bytes);

/* ------------------------------------------- what the code printed as it died
 *
 * A worker that exits or aborts mid-test often said why on its way out: the
 * C library's heap checks ("free(): invalid next size (fast)"), or the
 * student's own error-checking macro printing a CUDA error before exit(1).
 * These read the test's output (text) for them. */

/* The CUDA error text (cudaGetErrorString's words, or found by its enum name)
   in text, as a static string, or NULL. */
const char *pl_find_cuda_error(const char *text);
/* One of the C library's messages about a corrupted heap or stack in text,
   into msg: its fixed words and what follows them of lowercase words and
   parentheses ("free(): invalid next size (fast)"); 0 when there is none.
   Nothing else of the line: what the code prints stays out of the report. */
int pl_find_heap_error(const char *text, char *msg, size_t cap);
/* Where the code says err happened, from the line of text that holds it: a
   source file's name and line ("scan.cu:272"), into place; "" if none. */
void pl_cuda_error_place(const char *text, const char *err, char *place, size_t cap);
/* What a CUDA error most likely means at this size: one phrase, or "". */
void pl_cuda_error_hint(const char *err, long n, const char *size_name, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
