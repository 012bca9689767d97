/* harness/wire/parts.h: the macros that turn a lab's list of part ids
 * (harness/wire/labNN.h) into each side's table, so that the two sides
 * cannot disagree on which parts a lab has.
 *
 * Why the wire headers: the worker runs student code in its own address
 * space, so nothing it says can be trusted: the parent reads only the
 * shared region and the replies, as data it checks itself. What the two
 * must agree on (the ids a part is called by, the fixed lengths, the
 * layout of a packed input or of a word after the output) is therefore
 * settled when both are built, from one header each side compiles, and
 * never taken from the other side at run time. The parent includes
 * nothing of the worker's folder, and the worker nothing of the parent's.
 *
 * A lab's wire header lists its ids once, as an X-macro:
 *
 *   #define PL_LABNN_PARTS(X) X(a) X(b) X(c)
 *
 * and each side expands that list over names it must define, one per id.
 * An id in the list whose definition is missing on either side is an
 * undeclared name, so the build of that side fails and names it; a
 * misspelt definition leaves the listed name undefined the same way. The
 * run-time check of HELLO (harness/parent/driver.c) stays behind it, for a
 * worker built from another version of the kit.
 *
 * Every id is a C identifier: it is pasted into names and turned into the
 * string the request carries (pl_req.part, at most 15 characters).
 */
#ifndef PRIMLAB_WIRE_PARTS_H
#define PRIMLAB_WIRE_PARTS_H

/* The parent (harness/parent/labs/labNN.c) defines each graded part as
   `static const pl_part part_<id> = {...};` and lists them with
       static const pl_part *const parts[] = {PL_LABNN_PARTS(PL_PART_REF)};
   The part's .id string is what the parent sends; the worker looks it up
   among the ids its own table was expanded from. */
#define PL_PART_REF(id) &part_##id,

/* The worker (harness/worker/labs/labNN.cu) defines each op, graded part
   or extra op alike, as
       static constexpr pl_op_def op_<id> = {"entry_point", gpu, vendor};
   and builds the table HELLO reports from the lists, e.g.
       static constexpr pl_op ops[] = {PL_LABNN_PARTS(PL_OP_ROW)};
   The id HELLO sends is #id, the list's own spelling, so it is the one
   the parent's part_<id> was listed under. */
#define PL_OP_ROW(id) {#id, op_##id.entry, op_##id.gpu, op_##id.vendor},

#endif
