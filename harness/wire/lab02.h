/* harness/wire/lab02.h: what lab 02's two sides must agree on (the
 * Blelloch scan). The parent's table (harness/parent/labs/lab02.c) expands
 * PL_LAB02_PARTS; the worker's (harness/worker/labs/lab02.cu) expands it and
 * PL_LAB02_EXTRA_OPS, with the macros of parts.h. Both size parts bt and
 * bte from the constant below.
 */
#ifndef PRIMLAB_WIRE_LAB02_H
#define PRIMLAB_WIRE_LAB02_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB02_PARTS(X) X(a) X(b) X(bt) X(bte) X(c) X(w)

/* Ops no test grades: the unsafe warp scans the stub gives (w0: volatile,
   no barrier; w1: neither), which `lab02 warps` runs beside part w. */
#define PL_LAB02_EXTRA_OPS(X) X(w0) X(w1)

/* Parts bt and bte, the block-size experiment: the request's size is the
   number of threads per block, the array a fixed length: BT_N elements
   for bt (not a multiple of any tile), fewer for bte. The worker reads
   the length from the staged input and reserves the vendor's scratch for
   BT_N whatever the size says. */
#define PL_LAB02_BT_N ((1 << 24) + 3)

#endif
