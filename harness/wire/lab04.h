/* harness/wire/lab04.h: what lab 04's two sides must agree on (stream
 * compaction). The parent's table (harness/parent/labs/lab04.c) and the
 * worker's (harness/worker/labs/lab04.cu) both expand PL_LAB04_PARTS, with
 * the macros of parts.h, and both size parts ct and cte from the constant
 * below.
 *
 * The output of parts b, c, ct and cte is the kept elements, then the
 * count the entry point returned, one word after the n the input had
 * (d_out[n]): the parent asks for n + 1 words, the worker's op stores the
 * count there unless it is negative (the stub's -1), so that an untouched
 * output still reads as "not implemented yet".
 */
#ifndef PRIMLAB_WIRE_LAB04_H
#define PRIMLAB_WIRE_LAB04_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB04_PARTS(X) X(a) X(b) X(c) X(ct) X(cte)

/* Parts ct and cte, the block-size experiment: the request's size is the
   number of threads per block, the array a fixed length: CT_N elements
   for ct (not a multiple of any tile), fewer for cte. The worker reads
   the length from the staged input and reserves the vendor's scratch for
   CT_N whatever the size says. */
#define PL_LAB04_CT_N ((1 << 24) + 3)

#endif
