/* harness/parent/bugs.h: the classes of bug the grader names, as codes.
 *
 * A test that fails gets a reason for people (one line, worded for the
 * case) and the class of what went wrong as a short code, for programs:
 * the scores file's `bugs` column (scores.h) holds the codes of a test,
 * comma-separated, and the class report (make report) counts students by
 * them. A code never changes once a scores file may hold it; a new kind of
 * diagnosis gets a new code. The codes of a comparison follow the finding
 * its reason names (diagnose.h's pl_diag.chosen); the others are set where
 * the runner decides them (a time limit, a crash, a performance test's
 * verdict).
 */
#ifndef PRIMLAB_BUGS_H
#define PRIMLAB_BUGS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_bug_class {
  const char *code;  /* "block_boundary": lower case, digits and '_' */
  const char *title; /* "errors start at a block boundary" */
  const char *hint;  /* what to look at in the code, one phrase */
} pl_bug_class;

/* Every class, in the order a report lists them; *n gets the count. */
const pl_bug_class *pl_bug_classes(int *n);
/* The class of code, or NULL. */
const pl_bug_class *pl_bug_class_find(const char *code);
/* The code of a comparison's named finding (one diagnose.h pl_finding bit),
   or NULL for none. */
const char *pl_bug_of_finding(unsigned finding);
/* Appends code to a comma-separated list in buf (cap bytes), unless it is
   there already or does not fit. */
void pl_bug_add(char *buf, size_t cap, const char *code);
/* 1 when the comma-separated list holds code. */
int pl_bug_has(const char *list, const char *code);

/* Codes set outside a comparison. */
#define PL_BUG_HANG_EMPTY "hang_empty" /* timed out at n = 0 */
#define PL_BUG_HANG "hang"             /* timed out at another size */
#define PL_BUG_HEAP "heap_corrupt" /* the C library found its heap corrupted   \
                                    */
#define PL_BUG_CUDA_ERROR                                                      \
  "cuda_error"               /* the code's own CUDA error, or a kernel fault */
#define PL_BUG_CRASH "crash" /* a signal, no more said */
#define PL_BUG_EXIT "exit"   /* exited before answering */
#define PL_BUG_ALLOC "alloc_every_call" /* a timed call allocates memory */
#define PL_BUG_HOST "host_compute"      /* the part computed on the CPU */
#define PL_BUG_VENDOR                                                          \
  "calls_vendor" /* called a vendor routine its contract does not lend */
#define PL_BUG_TIMED_WRONG                                                     \
  "timed_wrong"              /* right once, wrong in a timed repetition */
#define PL_BUG_FLAKY "flaky" /* wrong in some of a stress test's runs */

#ifdef __cplusplus
}
#endif

#endif
