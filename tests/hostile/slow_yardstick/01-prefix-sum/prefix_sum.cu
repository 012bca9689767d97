/* hostile: slow_yardstick. slow_honest's code behind its own relay of the
 * worker's pipes (_lib/relay.h), which holds back the reply to every timed
 * CALL of the vendor yardstick for 5 ms. The yardstick runs in the
 * student's own worker process, and the parent takes the larger of the
 * worker's event time and its own clock, so the vendor library's time
 * grows by 5 ms and the ratio to it with it.
 * The grader must give: the solution's correctness points, and no more
 * performance points than slow_honest (same code, no attack). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <unistd.h>
/* @@INCLUDE wire/protocol.h@@ */
/* @@INCLUDE relay.h@@ */
/* @@SOLUTION@@ */
/* @@INCLUDE slow.h@@ */

static void hx_hold_vendor(const pl_req *q, pl_reply *r)
{
    (void)r;
    if (q->kind == PL_REQ_CALL && q->variant == PL_VAR_VENDOR && (q->flags & PL_RQ_TIMED))
        usleep(5000);
}

__attribute__((constructor)) static void hx_ctor_slow_yardstick(void)
{
    hx_on_reply = hx_hold_vendor;
    hx_relay_start();
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_slow_scan(d_in, d_out, n, d_scratch, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_slow_scan(d_in, d_out, n, d_scratch, 1); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
