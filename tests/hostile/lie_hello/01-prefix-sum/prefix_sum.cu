/* hostile: lie_hello. A constructor reads the parent's first request (the
 * HELLO, on fd 3) and answers it itself, with its nonce: a GPU, and no
 * parts at all, hoping that a lab whose worker "has no tests" drops out of
 * the total instead of scoring 0 against its full maximum; then it exits.
 * The grader must give: 0, with the maximum unchanged (the lab's tests and
 * points are fixed before any student code runs). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <string.h>
#include <unistd.h>
/* @@INCLUDE wire/protocol.h@@ */

__attribute__((constructor)) static void hx_ctor_lie_hello(void)
{
    static pl_req q;
    static pl_reply r;
    size_t got = 0;
    while (got < sizeof q) {
        ssize_t k = read(PL_FD_REQ, (char *)&q + got, sizeof q - got);
        if (k <= 0)
            _exit(0);
        got += (size_t)k;
    }
    memset(&r, 0, sizeof r);
    r.magic = PL_PROTO_MAGIC;
    r.nonce = q.nonce;
    r.gpu_ok = 1;
    strcpy(r.device, "NVIDIA H100 80GB HBM3");
    r.nparts = 0;
    if (write(PL_FD_REPLY, &r, sizeof r) < 0)
        _exit(1);
    sleep(1);
    _exit(0);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
