/* harness/wire/lab05.h: what lab 05's two sides must agree on (radix
 * sort). The parent's table (harness/parent/labs/lab05.c) expands
 * PL_LAB05_PARTS; the worker's (harness/worker/labs/lab05.cu) expands it
 * and PL_LAB05_EXTRA_OPS, with the macros of parts.h. Both size parts bt
 * and bte from the constant below.
 *
 * Keys travel as 32-bit words (unsigned, int or float bits, as the part
 * says); part c's input and output are n keys, then n values.
 */
#ifndef PRIMLAB_WIRE_LAB05_H
#define PRIMLAB_WIRE_LAB05_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB05_PARTS(X) X(a) X(b) X(bt) X(bte) X(c) X(di) X(df)

/* Ops no test grades: radix_sort_bits at a digit width of 1, 2 and 8 bits,
   which `lab05 passes` times beside parts a (1 bit) and b (4 bits). */
#define PL_LAB05_EXTRA_OPS(X) X(bits1) X(bits2) X(bits8)

/* Parts bt and bte, the block-size experiment: the request's size is the
   number of threads per block, the keys a fixed count: BT_N for bt (not a
   multiple of any tile, and small enough that the CPU sorts of six sizes
   stay cheap), fewer for bte. The worker reads the count from the staged
   input and reserves the vendor's scratch for BT_N whatever the size says. */
#define PL_LAB05_BT_N ((1 << 22) + 3)

#endif
