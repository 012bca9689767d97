/* harness/wire/lab07.h: what lab 07's two sides must agree on (segmented
 * SpMV-scan). The parent's table (harness/parent/labs/lab07.c) and the
 * worker's (harness/worker/labs/lab07.cu) both expand PL_LAB07_PARTS, with
 * the macros of parts.h.
 *
 * Every part's input is the whole problem packed into one buffer: the
 * parent makes it, the worker hands out pointers into it, reading the sizes
 * from the header of the input staged in host memory (so the parent must
 * write the header it describes, or the worker refuses the call). Words of
 * 4 bytes:
 *
 *   [0] rows  [1] cols  [2] n  [3] iters  [4] lanes (part b)  [5] threads (part a)
 *   s   rows + 1 ints (row starts, s[rows] = n)
 *   k   n ints (columns)
 *   a   n floats
 *   x   cols floats
 *
 * each array starting at a multiple of 32 words (128 bytes). The output is
 * a after the iterations, n floats.
 */
#ifndef PRIMLAB_WIRE_LAB07_H
#define PRIMLAB_WIRE_LAB07_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB07_PARTS(X) X(a) X(b) X(c) X(d)

#define LAB07_HEADER_WORDS 6 /* [0] to [5] above */

typedef struct lab07_at {
    long s, k, a, x, words; /* offsets in words, and the total */
} lab07_at;

static inline long lab07_align(long w) { return (w + 31) / 32 * 32; }

static inline lab07_at lab07_layout(long rows, long cols, long n)
{
    lab07_at at;
    at.s = lab07_align(LAB07_HEADER_WORDS);
    at.k = lab07_align(at.s + rows + 1);
    at.a = lab07_align(at.k + n);
    at.x = lab07_align(at.a + n);
    at.words = at.x + cols;
    return at;
}

#endif
