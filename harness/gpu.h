/* harness/gpu.h: the harness's CUDA side: error checks, device probe,
 * guarded device buffers, GPU timing and the device's copy bandwidth.
 *
 * Everything here except pl_probe_device creates or uses a CUDA context, so
 * it may only run in a process that will not fork afterwards: a child made
 * by pl_run_isolated, or a single-process driver such as `labNN run`.
 */
#ifndef PRIMLAB_GPU_H
#define PRIMLAB_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Checks a CUDA runtime call; on failure reports the expression, file:line
   and the error's name and ends the process (or the isolated child). */
#define CUDA_CHECK(expr) pl_cuda_check((int)(expr), #expr, __FILE__, __LINE__)
void pl_cuda_check(int err, const char *expr, const char *file, int line);

/* After a call into student or solution code: collects a launch error or a
   kernel fault; on error ends the child with a reason naming the fault. */
void pl_check_call(const char *what);

typedef struct pl_devinfo {
    int ok;                /* 1: a usable device */
    char name[256];
    int cc_major, cc_minor, sms;
    long long l2_bytes, mem_bytes, free_bytes;
    char error[256];       /* why not, when !ok */
} pl_devinfo;

/* Probes device 0 in a child process (safe in a process that forks later).
   PRIMLAB_NO_GPU=1 makes it report no device. Returns d->ok. */
int pl_probe_device(pl_devinfo *d);
/* The same, in this process (creates the context). */
int pl_devinfo_here(pl_devinfo *d);

/* A device buffer with guard zones on both sides; every byte, guards
   included, starts as PL_POISON_BYTE. ptr is the usable region. */
#define PL_GUARD_BYTES ((size_t)64 * 1024)
typedef struct pl_dbuf {
    unsigned char *base;
    void *ptr;
    size_t bytes;
} pl_dbuf;

int pl_dbuf_alloc(pl_dbuf *b, size_t bytes);       /* 0 or a cudaError_t */
void pl_dbuf_poison(pl_dbuf *b);                    /* guards included; async */
void pl_dbuf_upload(pl_dbuf *b, const void *host);  /* b->bytes from host */
/* Copies the usable region and, if non-NULL, each guard zone (PL_GUARD_BYTES). */
void pl_dbuf_download(const pl_dbuf *b, void *host, uint8_t *front, uint8_t *back);
void pl_dbuf_free(pl_dbuf *b);

/* Median time in ms of reps calls of call(arg), timed with CUDA events after
   one warm-up call. Before each call prep(prep_arg) runs untimed (poison the
   outputs), then the L2 cache is flushed. */
typedef void (*pl_fn)(void *arg);
double pl_time_gpu_ms(pl_fn call, void *arg, pl_fn prep, void *prep_arg, int reps);

/* Writes one int to device memory (lab 04's returned counts, stored after the
   output so that the comparison checks them). */
void pl_store_int(int *d_slot, int value);

/* Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes
   written, from a copy of up to 1 GiB (median of several). */
double pl_copy_gbps(void);

#ifdef __cplusplus
}
#endif

#endif
