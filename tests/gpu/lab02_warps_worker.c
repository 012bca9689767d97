/* tests/gpu/lab02_warps_worker.c: a worker without CUDA for `lab02 warps`
 * (harness/parent/labs/lab02.c), so that its counting is tested on a machine
 * without a GPU. Built and run by tests/gpu/test_lab02_warps.sh.
 *
 * It speaks the protocol (harness/wire/protocol.h) with lab 02's warp parts,
 * computing each 32-element segment's inclusive scan on the CPU, its own way
 * (a running sum reset at each segment):
 *   w   always right;
 *   w0  right except on every third call, where one element is off by one
 *       (a race that shows now and then);
 *   w1  always off by one at the last element (a race that always shows).
 * Built with -DSTUB, w writes nothing, as an untouched stub does. */
#include "../lib/fake_protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const parts[] = {"a", "b", "bt", "c", "w", "w0", "w1"};

/* the device's buffers, as far as this worker has any */
static int *in, *out;
static int64_t len;

static void segmented_scan(void)
{
    unsigned sum = 0;
    for (int64_t i = 0; i < len; i++) {
        sum = (i % 32 == 0 ? 0u : sum) + (unsigned)in[i];
        out[i] = (int)sum;
    }
}

int main(void)
{
    unsigned char *shm = NULL;
    long calls_w0 = 0;
    while (next_request(parts, sizeof parts / sizeof parts[0], &shm)) {
        pl_shm_layout l = pl_shm_layout_for(q.in_len, q.out_len, q.reps);
        if (q.kind == PL_REQ_STAGE) {
            if (q.in_len != q.out_len) {
                rep.status = PL_W_BAD;
                snprintf(rep.reason, sizeof rep.reason, "in_len %lld != out_len %lld", (long long)q.in_len,
                         (long long)q.out_len);
            } else {
                len = q.in_len;
                in = realloc(in, (size_t)len * sizeof *in + 1);
                out = realloc(out, (size_t)len * sizeof *out + 1);
                if (q.flags & PL_RQ_UPLOAD)
                    memcpy(in, shm + l.in, (size_t)len * sizeof *in);
                memset(out, PL_POISON_BYTE, (size_t)len * sizeof *out);
            }
        } else if (q.kind == PL_REQ_CALL) {
            if (!strcmp(q.part, "w")) {
#ifndef STUB
                segmented_scan();
#endif
            } else if (!strcmp(q.part, "w0")) {
                segmented_scan();
                if (++calls_w0 % 3 == 0 && len > 0)
                    out[len / 2]++;
            } else if (!strcmp(q.part, "w1")) {
                segmented_scan();
                if (len > 0)
                    out[len - 1]++;
            } else {
                rep.status = PL_W_BAD;
                snprintf(rep.reason, sizeof rep.reason, "no such part in this worker");
            }
        } else if (q.kind == PL_REQ_FETCH) {
            memcpy(shm + l.out[q.slot & 1], out, (size_t)len * sizeof *out);
        }
        reply();
    }
    return 0;
}
