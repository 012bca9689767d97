/* harness/parent/judges/compact.h: the compaction judge: the elements a rule
 * keeps, in input order, and the count the code returned.
 *
 * The output is the input's length plus one word: the kept elements, then
 * untouched poison, and last the count the code returned (the worker's op
 * stores it there; the CPU reference leaves the tail as poison, as the
 * contract requires of the GPU code). The count is judged first, and kept
 * elements that the rule drops are named as such ("kept zeros ... a test
 * of x >= 0?").
 */
#ifndef PRIMLAB_JUDGES_COMPACT_H
#define PRIMLAB_JUDGES_COMPACT_H

#include "judge.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_compact_judge {
    pl_input in;
    int (*keeps)(int x); /* whether the contract keeps x */
    const char *rule;    /* the same in words: "x > 0" */
} pl_compact_judge;

extern const pl_judge_kind pl_compact_kind;

/* c's want and got as compactions under keeps (rule in words): the last
   of the n words is the count. Fills d; 1 when right. */
int pl_compare_compacted(const pl_cmp *c, int (*keeps)(int x), const char *rule, pl_diag *d);

#ifdef __cplusplus
}
#endif

#endif
