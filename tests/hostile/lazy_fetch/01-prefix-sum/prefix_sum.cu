/* hostile: lazy_fetch. The stub (its calls launch nothing and take no time)
 * behind its own relay of the worker's pipes (_lib/relay.h): when the
 * worker has answered a FETCH, and before the parent sees that reply, the
 * relay scans the input in shared memory on the CPU and writes the right
 * answer over the output the worker copied there. The timed CALL is empty;
 * the work happens in FETCH, which nobody times.
 * The grader must give: 0 performance points (no GPU work at all, the
 * result computed on the CPU outside the timed call), and no more
 * correctness points than the solution. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <string.h>
/* @@INCLUDE wire/protocol.h@@ */
/* @@INCLUDE relay.h@@ */

static void hx_after_fetch(const pl_req *q, pl_reply *r)
{
    if (q->kind != PL_REQ_FETCH || r->status != PL_W_OK || q->variant != PL_VAR_IMPL)
        return;
    unsigned char *shm = hx_map(q->shm_bytes);
    if (!shm)
        return;
    pl_shm_layout l = pl_shm_layout_for(q->in_len, q->out_len, q->reps);
    int slot = q->slot >= 0 && q->slot < PL_MAX_RUNS ? q->slot : 0;
    hx_cpu_scan((const int *)(shm + l.in), (int *)(shm + l.out[slot]), (long)q->n, !strcmp(q->part, "c"));
}

__attribute__((constructor)) static void hx_ctor_lazy_fetch(void)
{
    hx_on_reply = hx_after_fetch;
    hx_relay_start();
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
