/* harness/wire/lab03.h: what lab 03's two sides must agree on (shared-memory
 * bank conflicts). The parent's table (harness/parent/labs/lab03.c) and the
 * worker's (harness/worker/labs/lab03.cu) both expand PL_LAB03_PARTS, with
 * the macros of parts.h. The request's size is the stride for the strided
 * reads (a4, a8), the side of the square for the transposes (b0 to b3),
 * the length for the scans (c0, c).
 */
#ifndef PRIMLAB_WIRE_LAB03_H
#define PRIMLAB_WIRE_LAB03_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB03_PARTS(X) X(a4) X(a8) X(b0) X(b1) X(b2) X(b3) X(c0) X(c)

#endif
