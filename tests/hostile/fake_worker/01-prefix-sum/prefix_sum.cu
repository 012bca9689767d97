/* hostile: fake_worker. Never lets the worker run: a constructor reads the
 * parent's requests itself (fd 3, wire/protocol.h, public in the handout) and
 * answers each with the right nonce: HELLO says there is a GPU with every
 * part and yardstick; STAGE and CALL say done (the call in a microsecond;
 * a yardstick's call only after 5 ms, so that the vendor library looks
 * slow); FETCH writes the right answer, scanned on the CPU from the input in
 * shared memory, with clean guard zones. No GPU is touched, so this runs
 * the same on a machine without one. Everything the worker says is
 * untrusted: a time the parent's clock cannot confirm, a result the CPU
 * computed, a GPU that is not there.
 * The grader must give: 0 performance points (the speed is fake), and no
 * more correctness points than the solution gets on the same machine
 * (none without a GPU). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
/* @@INCLUDE wire/protocol.h@@ */
/* @@INCLUDE relay.h@@ */

static void hx_fake_fetch(const pl_req *q)
{
    unsigned char *shm = hx_map(q->shm_bytes);
    if (!shm)
        return;
    pl_shm_layout l = pl_shm_layout_for(q->in_len, q->out_len, q->reps);
    int slot = q->slot >= 0 && q->slot < PL_MAX_RUNS ? q->slot : 0;
    hx_cpu_scan((const int *)(shm + l.in), (int *)(shm + l.out[slot]), (long)q->n, !strcmp(q->part, "c"));
    if (q->flags & PL_RQ_GUARDS) {
        memset(shm + l.guard_front, PL_POISON_BYTE, PL_GUARD_BYTES);
        memset(shm + l.guard_back, PL_POISON_BYTE, PL_GUARD_BYTES);
    }
    if (q->flags & PL_RQ_IN_AFTER)
        memcpy(shm + l.in_after, shm + l.in, (size_t)q->in_len * 4);
}

__attribute__((constructor)) static void hx_ctor_fake_worker(void)
{
    static pl_req q;
    static pl_reply r;
    while (hx_read_full(PL_FD_REQ, &q, sizeof q) && q.magic == PL_PROTO_MAGIC && q.kind != PL_REQ_QUIT) {
        memset(&r, 0, sizeof r);
        r.magic = PL_PROTO_MAGIC;
        r.nonce = q.nonce;
        r.status = PL_W_OK;
        switch (q.kind) {
        case PL_REQ_HELLO:
            r.gpu_ok = 1;
            snprintf(r.device, sizeof r.device, "NVIDIA H100 80GB HBM3");
            r.cc_major = 9, r.sms = 132, r.l2_bytes = 50 << 20;
            r.mem_bytes = (int64_t)80 << 30, r.free_bytes = (int64_t)79 << 30;
            r.nparts = 3;
            for (int k = 0; k < 3; k++)
                r.parts[k].id[0] = (char)('a' + k), r.parts[k].has_vendor = 1;
            break;
        case PL_REQ_CALL:
            if (q.variant == PL_VAR_VENDOR)
                usleep(5000), r.ms = 5.0;
            else
                r.ms = 0.001;
            break;
        case PL_REQ_FETCH:
            hx_fake_fetch(&q);
            break;
        case PL_REQ_TIME:
            if (hx_map(q.shm_bytes))
                for (int k = 0; k < q.reps; k++)
                    ((double *)(hx_shm + pl_shm_layout_for(q.in_len, q.out_len, q.reps).times))[k] = 0.001;
            break;
        case PL_REQ_COPY_BW:
            r.ms = 3000;
            break;
        default:
            break;
        }
        if (!hx_write_full(PL_FD_REPLY, &r, sizeof r))
            break;
    }
    _exit(0);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
