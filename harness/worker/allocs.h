/* harness/worker/allocs.h: the CUDA runtime's allocation functions, counted
 * while a call of student code runs (issue 18).
 *
 * Every link of a worker core wraps them (ld --wrap, the Makefile's
 * ALLOC_WRAP): a call of cudaMalloc, cudaFree and their kin (wire/protocol.h,
 * enum pl_alloc_fn), by the student's object or by the harness, lands in
 * allocs.cu's __wrap_ function, which calls the runtime's own. Between
 * pl_alloc_watch_begin and pl_alloc_watch_end the wrappers count the calls
 * of each function and the host time spent in them; outside that window
 * (staging, fetching, the harness's own buffers) they only pass the call on.
 * The worker watches the CALL requests of the implementation, never the
 * vendor yardstick's.
 *
 * Counts are a performance note, not a verdict: student code shares the
 * address space and could change them, and gains nothing by it (the time is
 * in the measurement either way).
 */
#ifndef PRIMLAB_WORKER_ALLOCS_H
#define PRIMLAB_WORKER_ALLOCS_H

#include "../wire/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_alloc_tally {
    int32_t calls[PL_AF_COUNT]; /* calls of each function */
    double ms;                  /* host wall time in them */
} pl_alloc_tally;

/* Starts counting from zero. */
void pl_alloc_watch_begin(void);
/* Stops counting and returns what the window saw. */
void pl_alloc_watch_end(pl_alloc_tally *t);

/* The harness's own allocations inside a watched call (a lent function's
   storage, lend.cu) are not the student's: pause, allocate, resume. */
int pl_alloc_pause(void);
void pl_alloc_resume(int was_watching);

#ifdef __cplusplus
}
#endif

#endif
