/* harness/parent/judges/stress.h: the stress judge: another judge's test made
 * `runs` times, each run on a fresh input, every result judged.
 *
 * What loads the device meanwhile is the worker op's business. One wrong
 * run fails the test, whose reason says how many were wrong ("wrong in 3 of
 * 100 runs under load") and gives the first one's diagnosis; an output
 * never written says only that (a stub: one run says it all).
 */
#ifndef PRIMLAB_JUDGES_STRESS_H
#define PRIMLAB_JUDGES_STRESS_H

#include "judge.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_stress_judge {
    const pl_judge *inner; /* each run's judge; NULL: pl_array_plain */
    int runs;              /* runs per test */
} pl_stress_judge;

extern const pl_judge_kind pl_stress_kind;

/* The tile counter's word, for a stress part whose worker op reports after
   the n outputs whether the call took its tile ids from the counter in the
   scratch (harness/worker/noise.h, pl_stress_call; its CPU references
   write 1 there). When the first wrong position b is that word (b == n - 1,
   n counting it), says why in why and returns 1; else 0. */
int pl_stress_counter_word(const int *got, size_t n, size_t b, char *why, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
