/* hostile: forge_reply. Writes forged replies to the reply pipe (fd 4):
 * wire/protocol.h's struct with PL_PROTO_MAGIC, status OK, gpu_ok, a fake
 * device, and guessed nonces (0..7 and a few random ones), from a
 * constructor (before the worker's HELLO reply) and again from inside every
 * entry point (never reached: see forge_reply_call), hoping the parent
 * takes one for a verdict. Replies carry the nonce of the request they answer, which the
 * worker cannot guess; a reply that does not match ends that worker.
 * The grader must give: 0 (the worker did not start), the maximum
 * unchanged, grading goes on. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
/* @@INCLUDE wire/protocol.h@@ */

static void hx_forge(int status)
{
    static pl_reply r;
    memset(&r, 0, sizeof r);
    r.magic = PL_PROTO_MAGIC;
    r.status = (uint32_t)status;
    r.gpu_ok = 1;
    r.ms = 1e-6;
    snprintf(r.device, sizeof r.device, "forged GPU");
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (uint64_t k = 0; k < 12; k++) {
        r.nonce = k < 8 ? k : ((uint64_t)rand() << 32) ^ (uint64_t)rand();
        if (write(PL_FD_REPLY, &r, sizeof r) != (ssize_t)sizeof r)
            break;
    }
}

__attribute__((constructor)) static void hx_ctor_forge(void) { hx_forge(PL_W_OK); }

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; hx_forge(PL_W_OK); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_forge(PL_W_OK); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_forge(PL_W_OK); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
