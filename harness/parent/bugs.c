/* harness/parent/bugs.c: the bug classes' codes and titles (see bugs.h). */
#include "bugs.h"

#include "diagnose.h"

#include <stdio.h>
#include <string.h>

/* The order of a report's census: what stops a test first, then the wrong
   results by shape, then what a performance test finds. */
static const pl_bug_class list[] = {
    {PL_BUG_HANG_EMPTY, "hangs at n = 0",
     "a loop or log2(n) that never ends on an empty input"},
    {PL_BUG_HANG, "hangs", "a kernel or loop that never finishes"},
    {PL_BUG_HEAP, "host heap corrupted",
     "more copied into a host buffer than it holds, or a double free"},
    {PL_BUG_CUDA_ERROR, "the code's own CUDA error",
     "a launch configuration or an access the size breaks"},
    {PL_BUG_CRASH, "crashes",
     "a host pointer used as a device one, or the reverse"},
    {PL_BUG_EXIT, "exits before answering",
     "exit() in the code, or an error check that gives up"},
    {"not_implemented", "output never written", "the part not written yet"},
    {"past_end", "writes past the end",
     "threads of the last block not bounded by n"},
    {"before_start", "writes before the start", "an index i - 1 at i = 0"},
    {"input_changed", "changes its input", "the input used as scratch"},
    {"reads_output", "adds into its output",
     "an output read before it is written"},
    {"known_mistake", "a named mistake", "the reason names it"},
    {"kept_dropped", "keeps values the contract drops",
     "the keep rule inverted or widened (x != 0?)"},
    {"count_wrong", "returns a wrong count",
     "a count off by one, or the last block's left out"},
    {"sort_unstable", "sort not stable",
     "equal keys' order lost within a pass"},
    {"sort_order", "keys out of order",
     "a digit pass or a bucket's offset wrong"},
    {"sort_values", "values not their keys'",
     "values not moved with their keys"},
    {"sort_lost", "keys lost or duplicated", "two keys written to one place"},
    {"race", "a race: runs disagree",
     "a missing __syncthreads or an unguarded shared read"},
    {"not_finite", "NaN or infinity", "a value read from memory never written"},
    {"shift_by_one", "shifted by one", "inclusive and exclusive mixed up"},
    {"block_boundary", "wrong from a block boundary on",
     "the earlier blocks' sums not added back"},
    {"unwritten", "output partly never written",
     "a grid too small for n, or a tail left out"},
    {"wrong_values", "wrong values",
     "the first mismatch and its window say more"},
    {PL_BUG_TIMED_WRONG, "wrong in a timed repetition",
     "state kept from one call to the next"},
    {PL_BUG_FLAKY, "wrong in some runs", "a race that shows on some inputs"},
    {PL_BUG_ALLOC, "allocates in every call",
     "allocate once, or use the scratch the contract lends"},
    {PL_BUG_HOST, "computes on the host",
     "the result made on the CPU, not the GPU"},
    {PL_BUG_VENDOR, "calls the vendor library",
     "a routine the part's contract does not lend"},
};

/* The diagnose.h finding each class names, or 0 (set by the runner). */
static const unsigned finding_of[] = {
    0,
    0,
    0,
    0,
    0,
    0,
    PL_F_NOT_IMPLEMENTED,
    PL_F_GUARD_BACK,
    PL_F_GUARD_FRONT,
    PL_F_INPUT_CHANGED,
    PL_F_READS_OUTPUT,
    PL_F_SUSPECT,
    PL_F_KEPT_DROPPED,
    PL_F_COUNT,
    PL_F_SORT_UNSTABLE,
    PL_F_SORT_ORDER,
    PL_F_SORT_VALUES,
    PL_F_SORT_LOST,
    PL_F_RACE,
    PL_F_NOT_FINITE,
    PL_F_SHIFT_RIGHT | PL_F_SHIFT_LEFT,
    PL_F_BLOCK,
    PL_F_UNWRITTEN,
    PL_F_MISMATCH,
    0,
    0,
    0,
    0,
    0,
};

#define NCLASSES ((int)(sizeof list / sizeof list[0]))
_Static_assert(sizeof list / sizeof list[0] ==
                   sizeof finding_of / sizeof finding_of[0],
               "one finding per class");

const pl_bug_class *pl_bug_classes(int *n) {
  *n = NCLASSES;
  return list;
}

const pl_bug_class *pl_bug_class_find(const char *code) {
  for (int i = 0; code && i < NCLASSES; i++)
    if (!strcmp(list[i].code, code))
      return &list[i];
  return NULL;
}

const char *pl_bug_of_finding(unsigned finding) {
  for (int i = 0; finding && i < NCLASSES; i++)
    if (finding_of[i] & finding)
      return list[i].code;
  return NULL;
}

int pl_bug_has(const char *list, const char *code) {
  size_t len = strlen(code);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t l = end ? (size_t)(end - p) : strlen(p);
    if (l == len && !strncmp(p, code, len))
      return 1;
    p = end ? end + 1 : NULL;
  }
  return 0;
}

void pl_bug_add(char *buf, size_t cap, const char *code) {
  if (!code || !*code || pl_bug_has(buf, code))
    return;
  size_t have = strlen(buf), need = strlen(code) + (have ? 1 : 0);
  if (have + need + 1 > cap)
    return;
  snprintf(buf + have, cap - have, "%s%s", have ? "," : "", code);
}
