/* harness/wire/lab08.h: what lab 08's two sides must agree on (the
 * single-pass scan). The parent's table (harness/parent/labs/lab08.c) and
 * the worker's (harness/worker/labs/lab08.cu) both expand PL_LAB08_PARTS,
 * with the macros of parts.h.
 *
 * Parts cf and cfi scan floats, passed as their bits in 32-bit words.
 *
 * Part bs, scan_lookback under the worker's noise, has one output word
 * more than its n elements: d_out[n], the worker's word on the tile
 * counter (the first word of the scratch) after the call. 1: the call
 * took tile ids from it (it is not 0); 0: it is 0; poison: the call never
 * wrote it; 1 for n = 0, which launches nothing. The parent asks for
 * n + 1 words and expects 1 there.
 */
#ifndef PRIMLAB_WIRE_LAB08_H
#define PRIMLAB_WIRE_LAB08_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB08_PARTS(X) X(a) X(b) X(bs) X(c) X(ci) X(cf) X(cfi)

#endif
