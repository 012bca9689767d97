/* harness/parent/worker_client.h: the parent's end of the worker protocol
 * (harness/wire/protocol.h): start a lab's worker in the sandbox, send it
 * requests with a deadline, and replace it when it crashes, hangs, sends
 * something that is not a reply to the request, or exits.
 *
 * The sandbox (bubblewrap, built in one function, sandbox_argv): the whole
 * file system read-only, the kit, $HOME and PRIMLAB_SANDBOX_HIDE's paths
 * hidden (only the worker's own executable shows), a private /tmp as its
 * scratch, no network, its own pid namespace (killing its first process
 * kills every process it started), uid 65534, a clean environment, and
 * rlimits (PRIMLAB_WORKER_NPROC 512 processes, _FSIZE_MB 64, _AS_GB 256,
 * _DATA_GB 64, _CPU_S 3600, and 1024 open files); as root it drops to uid
 * 65534 first, since a root-owned process ignores the process limit.
 * Without bwrap the worker runs as a plain child with a warning, unless
 * PRIMLAB_REQUIRE_SANDBOX=1 (make grade), where that is an error.
 * PRIMLAB_SANDBOX_DEV=host binds the host's /dev (the worker's own /dev
 * holds only /dev/nvidia* of it otherwise). PRIMLAB_NO_SANDBOX=1 asks for no sandbox; PRIMLAB_WORKER_PROFILE=1 (make
 * profile) also keeps the user and the environment, so that a profiler
 * follows the worker; grading refuses both.
 *
 * The student's stdout and stderr go to a log file, capped, labelled per
 * test, never parsed. Pure C; no CUDA.
 */
#ifndef PRIMLAB_WORKER_CLIENT_H
#define PRIMLAB_WORKER_CLIENT_H

#include "../wire/protocol.h"
#include "outcome.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_session pl_session;

typedef struct pl_session_opts {
    const char *worker;  /* the worker executable */
    int no_gpu;          /* tell the worker not to touch CUDA */
    const char *log;     /* the student's prints go here (NULL: discarded) */
    double start_s;      /* time limit to start and answer HELLO */
} pl_session_opts;

/* Starts the worker and asks HELLO. NULL with why on failure (the worker
   could not start, or its sandbox could not). */
pl_session *pl_session_open(const pl_session_opts *o, char *why, size_t cap);
void pl_session_close(pl_session *s); /* QUIT, then the namespace killed */

/* The HELLO reply of the current (or last) worker: device and parts. */
const pl_reply *pl_session_hello(const pl_session *s);
/* 1 when this worker runs under bubblewrap. */
int pl_session_sandboxed(const pl_session *s);

/* The shared region, grown to at least bytes (it never shrinks). NULL when
   it cannot grow. */
unsigned char *pl_session_shm(pl_session *s, size_t bytes);

/* How far from its start the current mapping of the region has been
   faulted in by this process (lab_run.c's prefault, which moves it): a
   second pass over pages already there walks them all again, 15-30 ms for
   256 MiB. A new mapping starts at 0. */
size_t *pl_session_faulted(pl_session *s);

/* Labels the student's prints that follow in the log. */
void pl_session_label(pl_session *s, const char *test_name);

/* Starts the worker if none is running (a first test, or one after a crash):
   1 when it is up, else 0 with r saying why. A test's time limit starts
   after this, so that the start (a CUDA context: 0.3 s or more) is not the
   code's. */
int pl_session_start(pl_session *s, pl_result *r);

/* Sends q and waits for its reply until deadline (seconds on the monotonic
   clock, pl_now()). Returns 1 with rep filled when the worker answered this
   request, whatever its status. Otherwise 0 with r->status and r->reason
   (CRASH: the worker died or exited; TIMEOUT: killed at the deadline;
   ERROR: it could not start, or the reply was not a reply to q), and the
   worker is gone: the next request starts a fresh one. wall_ms: the
   parent's clock from sending q to reading its reply. */
int pl_session_request(pl_session *s, pl_req *q, pl_reply *rep, double deadline, double *wall_ms, pl_result *r);

/* Kills the current worker's namespace (after a reply that said the context
   is lost); the next request starts a fresh one. */
void pl_session_restart(pl_session *s);

/* How many workers the session has started, the first one included. */
int pl_session_starts(const pl_session *s);

/* CPU time, in ms, used so far by every process of the current worker (its
   sandbox included), as the kernel counts it: the worker's own word on it
   is worth nothing. Clock-tick resolution; 0 when there is no worker. */
double pl_session_cpu_ms(const pl_session *s);

/* Bytes the student's code printed so far. */
size_t pl_session_printed(const pl_session *s);

double pl_now(void);

#ifdef __cplusplus
}
#endif

#endif
