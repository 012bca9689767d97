/* harness/wire/lab06.h: what lab 06's two sides must agree on (shuffle
 * reduction and CSR SpMV). The parent's table (harness/parent/labs/lab06.c)
 * and the worker's (harness/worker/labs/lab06.cu) both expand
 * PL_LAB06_PARTS, with the macros of parts.h.
 *
 * The words of the buffers are floats or doubles, as the part's last
 * letter says (f, d): one word per float, two per double.
 *
 * The SpMV parts (c, d) pack a CSR matrix and its vector into one input:
 * the parent makes it, the worker hands out pointers into it, reading the
 * sizes from the header of the input staged in host memory (so the parent
 * must write the header it describes, or the worker refuses the call).
 * Words of 4 bytes:
 *
 *   [0] rows  [1] cols  [2] nnz  [3] group (the vector kernel's; 0: its choice)
 *   row_ptr   rows + 1 ints
 *   col       nnz ints
 *   val       nnz floats or doubles
 *   x         cols floats or doubles
 *
 * each array starting at a multiple of 32 words (128 bytes, a cache line:
 * the device buffer itself is 256-byte aligned). The output is y, rows
 * elements.
 */
#ifndef PRIMLAB_WIRE_LAB06_H
#define PRIMLAB_WIRE_LAB06_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB06_PARTS(X) X(af) X(ad) X(bf) X(bd) X(cf) X(cd) X(df) X(dd)

#define LAB06_HEADER_WORDS 4 /* [0] to [3] above */

typedef struct lab06_csr_at {
    long row_ptr, col, val, x, words; /* offsets in words, and the total */
} lab06_csr_at;

static inline long lab06_align(long w) { return (w + 31) / 32 * 32; }

/* elem_words: 1 for float, 2 for double */
static inline lab06_csr_at lab06_csr_layout(long rows, long cols, long nnz, int elem_words)
{
    lab06_csr_at a;
    a.row_ptr = lab06_align(LAB06_HEADER_WORDS);
    a.col = lab06_align(a.row_ptr + rows + 1);
    a.val = lab06_align(a.col + nnz);
    a.x = lab06_align(a.val + nnz * elem_words);
    a.words = a.x + cols * elem_words;
    return a;
}

#endif
