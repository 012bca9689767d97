/* harness/wire/lab09.h: what lab 09's two sides must agree on (the onesweep
 * radix sort). The parent's table (harness/parent/labs/lab09.c) and the
 * worker's (harness/worker/labs/lab09.cu) both expand PL_LAB09_PARTS, with
 * the macros of parts.h.
 *
 * Keys and values travel as 32-bit words. Part a's output is 1024 words
 * (the bases of the four digits). Part dp's input and output are n keys,
 * then n values.
 *
 * Parts b, c and cs, one digit pass, take a packed input of
 * PL_LAB09_HEAD + n words: the digit's 256 exclusive bases at words
 * [0, 256), the digit's shift (0, 8, 16 or 24) at word PL_LAB09_SHIFT, the
 * rest of the head zero, then the n keys (256-byte aligned, as the contract
 * promises). The worker reads the shift from the staged input on the host.
 *
 * Part cs, onesweep_pass_lookback under the worker's noise, has one output
 * word more than its n keys: d_out[n], the worker's word on the tile
 * counter (the first word of the scratch) after the call. 1: the call took
 * tile ids from it (it is not 0); 0: it is 0; poison: the call never wrote
 * it; 1 for n = 0, which launches nothing.
 */
#ifndef PRIMLAB_WIRE_LAB09_H
#define PRIMLAB_WIRE_LAB09_H

#include "parts.h"

/* The graded parts, in the order the parent tests and reports them. */
#define PL_LAB09_PARTS(X) X(a) X(b) X(c) X(cs) X(d) X(dp)

/* Part a's output: 4 digits x 256 bases. */
#define PL_LAB09_BASES 1024

/* The head of a digit pass's input: bases, shift, padding to 2 KiB. */
#define PL_LAB09_HEAD 512
#define PL_LAB09_SHIFT 256

#endif
