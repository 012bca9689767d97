/* tests/lib/fake_protocol.h: the protocol side the tests' CUDA-free workers
 * share (tests/unit/fake_worker.c, tests/gpu/lab02_warps_worker.c): the request and
 * reply, the shared region, and HELLO. Each worker includes it once and
 * handles the other requests itself:
 *
 *   unsigned char *shm;
 *   while (next_request(parts, nparts, &shm)) { ... q ...; reply(); }
 */
#ifndef PRIMLAB_TESTS_FAKE_PROTOCOL_H
#define PRIMLAB_TESTS_FAKE_PROTOCOL_H

#include "../../harness/wire/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static pl_req q;
static pl_reply rep;

static void reply(void)
{
    rep.magic = PL_PROTO_MAGIC;
    rep.nonce = q.nonce;
    if (write(PL_FD_REPLY, &rep, sizeof rep) != (ssize_t)sizeof rep)
        _exit(1);
}

/* Reads the next request into q (rep cleared), maps the shared region as it
   grows, answers HELLO with parts; 0 at QUIT or when the parent is gone. */
static int next_request(const char *const *parts, size_t nparts, unsigned char **shm)
{
    static size_t mapped;
    for (;;) {
        size_t got = 0;
        while (got < sizeof q) {
            ssize_t r = read(PL_FD_REQ, (char *)&q + got, sizeof q - got);
            if (r <= 0)
                return 0;
            got += (size_t)r;
        }
        memset(&rep, 0, sizeof rep);
        if (q.kind == PL_REQ_QUIT)
            return 0;
        if (q.shm_bytes > mapped) {
            if (*shm)
                munmap(*shm, mapped);
            *shm = mmap(NULL, q.shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, PL_FD_SHM, 0);
            mapped = q.shm_bytes;
        }
        if (q.kind != PL_REQ_HELLO)
            return 1;
        rep.gpu_ok = 1;
        /* FAKE_DEVICE, FAKE_VENDOR: names a hostile worker might send */
        snprintf(rep.device, sizeof rep.device, "%s", getenv("FAKE_DEVICE") ? getenv("FAKE_DEVICE") : "fake device");
        if (getenv("FAKE_VENDOR"))
            snprintf(rep.vendor, sizeof rep.vendor, "%s", getenv("FAKE_VENDOR"));
        for (size_t k = 0; k < nparts && k < PL_MAX_PARTS; k++) {
            snprintf(rep.parts[k].id, sizeof rep.parts[k].id, "%s", parts[k]);
            rep.nparts = (int)k + 1;
        }
        reply();
    }
}

#endif
