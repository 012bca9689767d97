/* harness/worker/worker.cu: main() of a lab's worker, build/<impl>/labNN-worker.
 *
 * Linked from the student's (or the solution's) object and the worker side
 * of the harness, whose symbols are made local at link time so that student
 * code can neither call nor replace them (see the Makefile's worker core).
 * Started by the parent only (harness/parent/worker_client.c), under
 * bubblewrap, with the descriptors of wire/protocol.h; it serves one request at
 * a time until QUIT or the end of the request pipe. It holds one CUDA
 * context and keeps its device buffers between requests, so a small test
 * costs a few copies, not a process and a context.
 *
 * After a CUDA error it replies with the reason and exits: a sticky error
 * leaves the context unusable, and the parent starts a fresh worker.
 */
#include "../wire/protocol.h"
#include "allocs.h"
#include "gpu.h"
#include "ops.h"
#include "phases.h"

#include <cuda_runtime.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static pl_req req;
static pl_reply rep;
static unsigned char *shm;
static size_t shm_mapped;
static int gpu_ok, no_gpu;
static pl_dbuf din, dout, dscr, dtemp;
static size_t temp_bytes;
const int *pl_host_in;
long pl_host_in_len;

static void write_all(int fd, const void *p, size_t len)
{
    const char *c = (const char *)p;
    while (len) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(1); /* the parent is gone */
        c += w;
        len -= (size_t)w;
    }
}

static void send_reply(void)
{
    rep.magic = PL_PROTO_MAGIC;
    rep.nonce = req.nonce;
    write_all(PL_FD_REPLY, &rep, sizeof rep);
}

extern "C" void pl_worker_fail(int status, const char *reason)
{
    rep.status = (uint32_t)status;
    snprintf(rep.reason, sizeof rep.reason, "%s", reason);
    fflush(stdout);
    send_reply();
    _exit(0);
}

static void fail_request(int status, const char *reason)
{
    rep.status = (uint32_t)status;
    snprintf(rep.reason, sizeof rep.reason, "%s", reason);
}

static const pl_op *find_op(const char *id)
{
    const pl_ops *t = pl_worker_ops();
    for (int k = 0; k < t->nops; k++)
        if (!strncmp(t->ops[k].id, id, sizeof req.part))
            return &t->ops[k];
    return NULL;
}

/* The shared region only grows; map it again when it has.

   Pinned, the copies to and from the device run at full speed; but pinning
   faults in and locks every page it covers, and a region sized for the
   largest test holds slots a test never uses (a timed test fills the input
   and one output of four n-word slots, and the region is rounded up to a
   power of two). Pinned whole, a 2^28 test's 8 GiB region cost seconds in
   each worker's first STAGE, and again after every restart. So the region
   is pinned a block at a time: when a timed test's copies first reach it
   (its warm-up pays for the pinning, no timed repetition does), or when a
   copy covers the whole block (pages the parent has faulted in: on an H100
   host, 256 MiB pinned in 24 ms and copied in 5, against 40 ms pageable
   to the device and 80 ms back), else when copies reach it the second
   time (a block a small test touches in part: pinning its pages that no
   one has faulted in took about 1 ms a MiB); and no more than
   PL_PIN_MAX_BYTES in all (a limit test's region): the rest is copied
   pageable. */
#define PL_PIN_MAX_BYTES ((uint64_t)8 << 30)
#define PL_PIN_BLOCK ((size_t)64 << 20)

enum { PIN_NEW, PIN_SEEN, PIN_DONE, PIN_FAILED };
static unsigned char *pinned; /* per block */
static size_t pinned_bytes;

static void unpin_all(void)
{
    for (size_t b = 0; pinned && b * PL_PIN_BLOCK < shm_mapped; b++)
        if (pinned[b] == PIN_DONE)
            cudaHostUnregister(shm + b * PL_PIN_BLOCK);
    free(pinned);
    pinned = NULL;
    pinned_bytes = 0;
}

static int timed_test; /* the last STAGE was a timed test's (PL_RQ_TIMED), or a benchmark's */

/* Copies between a device buffer and the shared region at offset off, a
   block at a time, pinning blocks as said above. */
static void shm_copy(void *dev, size_t off, size_t bytes, cudaMemcpyKind kind)
{
    while (bytes) {
        size_t b = off / PL_PIN_BLOCK, start = b * PL_PIN_BLOCK, len = shm_mapped - start;
        len = len < PL_PIN_BLOCK ? len : PL_PIN_BLOCK;
        size_t piece = start + len - off < bytes ? start + len - off : bytes;
        if (pinned && pinned[b] == PIN_NEW && !timed_test && piece < len) {
            pinned[b] = PIN_SEEN;
        } else if (pinned && pinned[b] < PIN_DONE && pinned_bytes + len <= PL_PIN_MAX_BYTES) {
            pinned[b] = cudaHostRegister(shm + start, len, cudaHostRegisterDefault) == cudaSuccess ? PIN_DONE
                                                                                                  : PIN_FAILED;
            if (pinned[b] == PIN_DONE)
                pinned_bytes += len;
            else
                cudaGetLastError();
        }
        if (kind == cudaMemcpyHostToDevice)
            CUDA_CHECK(cudaMemcpy(dev, shm + off, piece, kind));
        else
            CUDA_CHECK(cudaMemcpy(shm + off, dev, piece, kind));
        dev = (unsigned char *)dev + piece, off += piece, bytes -= piece;
    }
}

static int map_shm(void)
{
    if (req.shm_bytes <= shm_mapped)
        return 1;
    if (shm) {
        unpin_all();
        munmap(shm, shm_mapped);
    }
    shm = (unsigned char *)mmap(NULL, req.shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, PL_FD_SHM, 0);
    if (shm == MAP_FAILED) {
        shm = NULL;
        shm_mapped = 0;
        fail_request(PL_W_BAD, "cannot map the shared region");
        return 0;
    }
    shm_mapped = req.shm_bytes;
    pinned = (unsigned char *)calloc((shm_mapped + PL_PIN_BLOCK - 1) / PL_PIN_BLOCK, 1); /* NULL: none pinned */
    return 1;
}

/* ------------------------------------------------------------ requests */

static void do_hello(void)
{
    gpu_ok = !no_gpu && pl_describe_device(&rep);
    if (no_gpu)
        snprintf(rep.reason, sizeof rep.reason, "PRIMLAB_NO_GPU is set");
    rep.gpu_ok = gpu_ok;
    pl_vendor_version(rep.vendor, sizeof rep.vendor);
    const pl_ops *t = pl_worker_ops();
    for (int k = 0; k < t->nops && k < PL_MAX_PARTS; k++) {
        snprintf(rep.parts[k].id, sizeof rep.parts[k].id, "%s", t->ops[k].id);
        rep.parts[k].has_vendor = t->ops[k].vendor != NULL;
        rep.nparts = k + 1;
    }
}

static void do_stage(void)
{
    size_t ib = (size_t)req.in_len * 4, ob = (size_t)req.out_len * 4, sb = (size_t)req.scratch_len * 4;
    size_t tb = req.variant == PL_VAR_VENDOR ? pl_worker_ops()->vendor_temp_bytes((int)req.n) : 0;
    int e = 0;
    if ((e = pl_dbuf_reserve(&din, ib)) || (e = pl_dbuf_reserve(&dout, ob)) || (e = pl_dbuf_reserve(&dscr, sb)) ||
        (e = pl_dbuf_reserve(&dtemp, tb))) {
        size_t free_b = 0, total_b = 0;
        pl_dbuf_free(&din), pl_dbuf_free(&dout), pl_dbuf_free(&dscr), pl_dbuf_free(&dtemp);
        cudaMemGetInfo(&free_b, &total_b);
        char why[200];
        snprintf(why, sizeof why, "%s = %lld does not fit: %.1f MiB of device buffers failed (%s), %.1f MiB free",
                 "n", (long long)req.n, (double)(ib + ob + sb + tb) / (1 << 20), cudaGetErrorName((cudaError_t)e),
                 (double)free_b / (1 << 20));
        fail_request(PL_W_NOFIT, why);
        return;
    }
    temp_bytes = tb;
    timed_test = (req.flags & PL_RQ_TIMED) || req.reps > 0;
    if (req.flags & PL_RQ_UPLOAD) {
        pl_shm_layout l = pl_shm_layout_for(req.in_len, req.out_len, req.reps);
        if (ib)
            shm_copy(din.ptr, l.in, ib, cudaMemcpyHostToDevice);
    }
    pl_dbuf_poison(&dout);
    pl_dbuf_poison(&dscr);
    if ((req.flags & PL_RQ_POISON_NAN) && dout.bytes) /* the guards keep the usual poison */
        CUDA_CHECK(cudaMemsetAsync(dout.ptr, 0xFF, dout.bytes));
    if (req.flags & PL_RQ_TIMED)
        pl_flush_l2();
    CUDA_CHECK(cudaDeviceSynchronize());
}

struct call_arg {
    const pl_op *op;
    int variant, rc;
};

static void call_op(void *p)
{
    call_arg *a = (call_arg *)p;
    if (a->variant == PL_VAR_VENDOR)
        CUDA_CHECK(a->op->vendor((const int *)din.ptr, (int *)dout.ptr, (int)req.n, dtemp.ptr, temp_bytes));
    else
        a->rc = a->op->gpu((const int *)din.ptr, (int *)dout.ptr, (int)req.n, (int *)dscr.ptr);
}

/* A CALL's call: the implementation's calls of the allocation functions
   are counted into the reply (allocs.h), the yardstick's are not. With
   PL_RQ_PHASES the primlab_phase marks start here: in a timed call, after
   pl_time_call's hold, so the first span does not hold the hold. */
static void watched_call(void *p)
{
    call_arg *a = (call_arg *)p;
    if (req.flags & PL_RQ_PHASES)
        pl_phases_start();
    if (a->variant != PL_VAR_IMPL) {
        call_op(a);
        return;
    }
    pl_alloc_tally t;
    pl_alloc_watch_begin();
    call_op(a);
    pl_alloc_watch_end(&t);
    for (int f = 0; f < PL_AF_COUNT; f++)
        rep.allocs[f] = t.calls[f];
    rep.alloc_ms = t.ms;
}

static void poison_outputs(void *p)
{
    (void)p;
    pl_dbuf_poison(&dout);
    pl_dbuf_poison(&dscr);
}

static void do_call(const pl_op *op)
{
    call_arg a = {op, req.variant, 0};
    const char *who = req.variant == PL_VAR_VENDOR ? "the vendor library" : op->entry;
    int lent0 = pl_lent_calls;
    pl_shm_layout l = pl_shm_layout_for(req.in_len, req.out_len, req.reps);
    pl_host_in = (const int *)(shm + l.in), pl_host_in_len = (long)req.in_len;
    if ((req.flags & PL_RQ_PATCH) && req.patch_at >= 0 && req.patch_at < req.in_len)
        CUDA_CHECK(cudaMemcpy((int *)din.ptr + req.patch_at, &req.patch_value, sizeof req.patch_value,
                              cudaMemcpyHostToDevice));
    if (req.flags & PL_RQ_TIMED) {
        rep.ms = pl_time_call(watched_call, &a, who);
    } else {
        watched_call(&a);
        pl_check_call(who);
    }
    if (req.flags & PL_RQ_PHASES)
        rep.nspans = pl_phases_stop((pl_shm_span *)(shm + l.spans), PL_MAX_SPANS);
    rep.lent_calls = pl_lent_calls - lent0;
    if (a.rc != 0) {
        char why[200];
        snprintf(why, sizeof why, "%s returned %d: not supported", who, a.rc);
        fail_request(PL_W_BAD, why);
    }
}

static void do_fetch(void)
{
    pl_shm_layout l = pl_shm_layout_for(req.in_len, req.out_len, req.reps);
    int slot = req.slot >= 0 && req.slot < PL_MAX_RUNS ? req.slot : 0;
    if (dout.bytes)
        shm_copy(dout.ptr, l.out[slot], dout.bytes, cudaMemcpyDeviceToHost);
    if (req.flags & PL_RQ_GUARDS) {
        shm_copy(dout.base, l.guard_front, PL_GUARD_BYTES, cudaMemcpyDeviceToHost);
        shm_copy(dout.base + PL_GUARD_BYTES + dout.bytes, l.guard_back, PL_GUARD_BYTES, cudaMemcpyDeviceToHost);
    }
    if ((req.flags & PL_RQ_IN_AFTER) && din.bytes)
        shm_copy(din.ptr, l.in_after, din.bytes, cudaMemcpyDeviceToHost);
}

/* Benchmarks (`run`, `sweep`): reps calls on the staged input, each from
   poisoned outputs and a flushed L2. Not graded: graded timing goes through
   CALL, one fresh input per repetition. */
static void do_time(const pl_op *op)
{
    call_arg a = {op, req.variant, 0};
    pl_shm_layout l = pl_shm_layout_for(req.in_len, req.out_len, req.reps);
    double *times = (double *)(shm + l.times);
    pl_host_in = (const int *)(shm + l.in), pl_host_in_len = (long)req.in_len;
    call_op(&a); /* warm-up */
    pl_check_call(req.variant == PL_VAR_VENDOR ? "the vendor library" : op->entry);
    for (int r = 0; r < req.reps; r++)
        times[r] = pl_time_gpu_once(call_op, &a, poison_outputs, NULL);
}

static int read_request(void)
{
    size_t got = 0;
    while (got < sizeof req) {
        ssize_t r = read(PL_FD_REQ, (char *)&req + got, sizeof req - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    return req.magic == PL_PROTO_MAGIC;
}

static void serve(void)
{
    while (read_request()) {
        memset(&rep, 0, sizeof rep);
        rep.status = PL_W_OK;
        if (req.kind == PL_REQ_QUIT)
            break;
        if (req.kind == PL_REQ_HELLO) {
            do_hello();
            send_reply();
            continue;
        }
        const pl_op *op = find_op(req.part);
        if (!gpu_ok)
            fail_request(PL_W_BAD, "no GPU");
        else if (req.kind == PL_REQ_COPY_BW)
            rep.ms = pl_copy_gbps();
        else if (req.kind == PL_REQ_SMEM_BW)
            rep.ms = pl_smem_gbps();
        else if (req.kind != PL_REQ_FETCH && (!op || (req.variant == PL_VAR_VENDOR && !op->vendor)))
            fail_request(PL_W_BAD, "no such part in this worker");
        else if (req.in_len < 0 || req.out_len < 0 || req.scratch_len < 0 || req.reps < 0 || req.n < 0 ||
                 req.n > INT_MAX)
            fail_request(PL_W_BAD, "bad lengths");
        else if (pl_shm_layout_for(req.in_len, req.out_len, req.reps).total > req.shm_bytes)
            fail_request(PL_W_BAD, "the shared region is smaller than the request's layout");
        else if (map_shm()) {
            switch (req.kind) {
            case PL_REQ_STAGE: do_stage(); break;
            case PL_REQ_CALL: do_call(op); break;
            case PL_REQ_FETCH: do_fetch(); break;
            case PL_REQ_TIME: do_time(op); break;
            default: fail_request(PL_W_BAD, "unknown request"); break;
            }
        }
        fflush(stdout);
        send_reply();
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--serve") != 0) {
        fprintf(stderr, "%s: a grading worker, started by its lab binary (run labNN without -worker)\n", argv[0]);
        return 2;
    }
    no_gpu = argc > 2 && !strcmp(argv[2], "--no-gpu");
    serve();
    return 0;
}
