/* harness/worker/phases.h: per-phase GPU timing from marks in lab code.
 *
 * A lab's code calls primlab_phase("histogram") before each step of its
 * work (when its contract lends it). Between pl_phases_start and
 * pl_phases_stop each mark records a CUDA event, with no synchronisation;
 * outside that window a mark does nothing, so graded and timed runs pay
 * only a branch. A span runs from one mark to the next (the last one to
 * the stop) and takes the first mark's name; `pass` counts the earlier
 * spans of the same name, so the 3rd "scatter" span is pass 2.
 */
#ifndef PRIMLAB_PHASES_H
#define PRIMLAB_PHASES_H

#include "../wire/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

void primlab_phase(const char *name);
/* Starts recording (events on the default stream). */
void pl_phases_start(void);
/* Stops, waits for the device, and fills up to cap spans in order; returns
   how many, or -1 when more marks came than PL_MAX_SPANS. A lead-in shorter
   than 10 microseconds (a launch gap) is left out. */
int pl_phases_stop(pl_shm_span *spans, int cap);

#ifdef __cplusplus
}
#endif

#endif
