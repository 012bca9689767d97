/* harness/wire/lab01.h: what lab 01's two sides must agree on (prefix sum,
 * Hillis-Steele). The parent's table (harness/parent/labs/lab01.c) and the
 * worker's (harness/worker/labs/lab01.cu) both expand PL_LAB01_PARTS, with
 * the macros of parts.h, and both size parts bt and bte from the constant
 * below: the parent makes and checks the input, the worker sizes the
 * vendor's scratch before any input arrives.
 */
#ifndef PRIMLAB_WIRE_LAB01_H
#define PRIMLAB_WIRE_LAB01_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB01_PARTS(X) X(a) X(b) X(bt) X(bte) X(c)

/* Parts bt and bte, the block-size experiment: the request's size is the
   number of threads per block, the array a fixed length: BT_N elements
   for bt (not a multiple of any block), fewer for bte. The worker reads
   the length from the staged input and reserves the vendor's scratch for
   BT_N whatever the size says. */
#define PL_LAB01_BT_N ((1 << 24) + 3)

#endif
