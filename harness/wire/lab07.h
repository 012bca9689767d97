/* harness/worker/labs/lab07_seg.h: how lab 07 packs its problem into one
 * input, as the parent (labs/lab07.c, which makes it) and the worker
 * (labs/lab07.cu, which hands out pointers into it) both read it. Words of
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
#ifndef PRIMLAB_LAB07_SEG_H
#define PRIMLAB_LAB07_SEG_H

#define LAB07_HEADER_WORDS 6

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
