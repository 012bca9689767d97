/* harness/worker/labs/lab06_csr.h: how lab 06's SpMV parts pack a CSR
 * matrix and its vector into one input, as the parent (labs/lab06.c, which
 * makes it) and the worker (labs/lab06.cu, which hands out pointers into
 * it) both read it. Words of 4 bytes:
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
#ifndef PRIMLAB_LAB06_CSR_H
#define PRIMLAB_LAB06_CSR_H

#define LAB06_HEADER_WORDS 4

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
