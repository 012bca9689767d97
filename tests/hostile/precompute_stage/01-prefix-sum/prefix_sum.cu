/* hostile: precompute_stage. slow_honest's code behind its own relay of the
 * worker's pipes (_lib/relay.h). When the worker has answered a timed
 * STAGE (the input is on the device, the call not yet asked for), the relay
 * runs the whole slow scan of that input into a buffer of its own before
 * it lets the parent see the reply; the timed CALL that follows is then a
 * device-to-device copy of the ready result, as fast as the vendor
 * library. STAGE is not timed; only CALL is.
 * The grader must give: the solution's correctness points, and no more
 * performance points than slow_honest (same code, no attack). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
/* @@INCLUDE wire/protocol.h@@ */
/* @@INCLUDE relay.h@@ */
/* @@SOLUTION@@ */
/* @@INCLUDE slow.h@@ */

static const int *hx_known_in; /* the worker's input buffer, as the last call saw it */
static long hx_known_n;
static int *hx_ready_out, *hx_own_scratch;
static size_t hx_ready_cap;
static char hx_ready_part; /* 'b' or 'c' when hx_ready_out holds the staged input's scan */

static void hx_after_stage(const pl_req *q, pl_reply *r)
{
    static cudaStream_t side;
    if (q->kind != PL_REQ_STAGE || r->status != PL_W_OK || q->variant != PL_VAR_IMPL ||
        (q->flags & (PL_RQ_TIMED | PL_RQ_UPLOAD)) != (PL_RQ_TIMED | PL_RQ_UPLOAD) || !hx_known_in ||
        q->n != hx_known_n || (q->part[0] != 'b' && q->part[0] != 'c'))
        return;
    size_t n = (size_t)q->n;
    if (n > hx_ready_cap) {
        cudaFree(hx_ready_out), cudaFree(hx_own_scratch);
        if (cudaMalloc(&hx_ready_out, n * 4) != cudaSuccess || cudaMalloc(&hx_own_scratch, PS_SCRATCH_INTS(n) * 4) != cudaSuccess) {
            hx_ready_cap = 0;
            return;
        }
        hx_ready_cap = n;
    }
    if (!side)
        cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    hx_stream = side;
    hx_slow_scan(hx_known_in, hx_ready_out, (int)n, hx_own_scratch, q->part[0] == 'c');
    cudaStreamSynchronize(side);
    hx_stream = 0;
    hx_ready_part = q->part[0];
}

__attribute__((constructor)) static void hx_ctor_precompute_stage(void)
{
    hx_on_reply = hx_after_stage;
    hx_relay_start();
}

static void hx_scan(const int *d_in, int *d_out, int n, int *d_scratch, char part)
{
    int ready = hx_ready_part == part && d_in == hx_known_in && n == hx_known_n;
    hx_ready_part = 0;
    hx_known_in = d_in, hx_known_n = n;
    if (ready)
        cudaMemcpyAsync(d_out, hx_ready_out, (size_t)n * 4, cudaMemcpyDeviceToDevice, 0);
    else
        hx_slow_scan(d_in, d_out, n, d_scratch, part == 'c');
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_scan(d_in, d_out, n, d_scratch, 'b'); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { hx_scan(d_in, d_out, n, d_scratch, 'c'); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
