/* harness/worker/gpu.h: the worker's CUDA helpers: error checks, the device
 * description, guarded device buffers, GPU timing, copy bandwidth.
 *
 * Worker side only: everything here creates or uses the worker's one CUDA
 * context. An error ends the current request with a reply that names it,
 * then the worker (see worker.cu, pl_worker_fail).
 */
#ifndef PRIMLAB_WORKER_GPU_H
#define PRIMLAB_WORKER_GPU_H

#include "../wire/protocol.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ends the current request with status and reason, then the worker: after a
   CUDA error the context may be unusable, so the parent starts a fresh one. */
void pl_worker_fail(int status, const char *reason);

/* Checks a CUDA runtime call; on failure fails the request naming the
   expression, file:line and the error's name. */
#define CUDA_CHECK(expr) pl_cuda_check((int)(expr), #expr, __FILE__, __LINE__)
void pl_cuda_check(int err, const char *expr, const char *file, int line);

/* After a call into student or solution code: collects a launch error or a
   kernel fault, and fails the request with a reason naming it. */
void pl_check_call(const char *what);

/* Fills the HELLO reply's device fields; 0 with rep->reason when there is no
   usable device. */
int pl_describe_device(pl_reply *rep);

/* The vendor library the yardsticks are built with, as benchmark rows name
   it: "CCCL 3.0.1" (CUB and Thrust, from the toolkit's headers). */
void pl_vendor_version(char *out, size_t cap);

/* A device buffer with guard zones on both sides, kept between requests and
   grown when a request needs more. ptr is the usable region of bytes. */
typedef struct pl_dbuf {
    unsigned char *base;
    void *ptr;
    size_t bytes, cap;
} pl_dbuf;

int pl_dbuf_reserve(pl_dbuf *b, size_t bytes);     /* 0 or a cudaError_t */
void pl_dbuf_poison(pl_dbuf *b);                    /* guards included; async */
void pl_dbuf_free(pl_dbuf *b);

/* A buffer twice the L2's size is written, so that no input is cached. */
void pl_flush_l2(void);

/* Holds the GPU for PL_HOLD_US microseconds: a kernel whose blocks fill
   every SM spin on the GPU's clock, so that the timed call's launches,
   enqueued meanwhile, start back to back after it. A timing then measures
   the GPU's work, not the host's launches and library set-up (CUB's
   queries before its first kernel moved its 2^24 scan from 0.065 to
   0.067-0.093 ms on an H100, and its ratios with it). Filling the SMs, not
   just the stream, keeps work on a stream of the submission's own from
   running during the hold, where neither the events nor the parent's
   clock bound would charge it. A call that waits for the device inside (a
   count read back) waits out the hold, then is timed as it goes. Record
   the start event right after. */
#define PL_HOLD_US 200
void pl_hold_gpu(void);

/* CUDA-event time of call(arg) in ms, after prep(prep_arg), an L2 flush
   and a hold (pl_hold_gpu), all untimed. */
typedef void (*pl_fn)(void *arg);
double pl_time_gpu_once(pl_fn call, void *arg, pl_fn prep, void *prep_arg);

/* CUDA-event time of call(arg) in ms, from the end of a hold
   (pl_hold_gpu) to its last work: the stop event on the default stream,
   or, when the device was still busy more than PL_DRAIN_US after it (work
   on a stream of the call's own that the default stream does not wait
   for: tests/fixtures/hostile/fake_time_slow), an event recorded once the device
   has finished everything. That event comes after the host has woken
   from its wait (blocking sync: 60-100 us after an honest call on an H100
   host), so only a device busy longer than that counts; below it, the
   parent's clock bound around the CALL is what charges such work, as it
   did before the hold. Collects the call's errors (pl_check_call, naming
   who). */
#define PL_DRAIN_US 250
double pl_time_call(pl_fn call, void *arg, const char *who);

/* Device-to-device copy bandwidth in GB/s, counting bytes read plus written,
   from a copy of up to 1 GiB (the best of several). */
double pl_copy_gbps(void);

/* Shared-memory read bandwidth in GB/s, all SMs together: the best of a few
   conflict-free read kernels (4- and 16-byte words, two block sizes), each
   the best of several runs. The roof of the rows of shared-memory parts;
   at most SMs x 32 banks x 4 bytes x the SM clock. */
double pl_smem_gbps(void);

#ifdef __cplusplus
}
#endif

#endif
