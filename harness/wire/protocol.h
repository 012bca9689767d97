/* harness/wire/protocol.h: what the grading parent and the sandboxed worker
 * say to each other. With each lab's own wire header (harness/wire/labNN.h:
 * its part ids, layouts and constants) and the expansion macros of
 * harness/wire/parts.h, the only headers both sides include.
 *
 * The parent (harness/parent/: the lab table, inputs, CPU references,
 * verdicts, scores) never runs CUDA or student code. The worker
 * (harness/worker/: the student's object, the vendor yardsticks, CUDA)
 * runs calls the parent asks for and nothing else. It never learns the
 * grading seed, the expected results, the list of tests or their points.
 *
 * Channels, set up by the parent before it execs the worker:
 *   fd PL_FD_REQ    requests, parent -> worker (fixed-size pl_req)
 *   fd PL_FD_REPLY  replies, worker -> parent (fixed-size pl_reply)
 *   fd PL_FD_SHM    a memfd both map: inputs in, outputs out (pl_shm_layout)
 *   stdout, stderr  the student's prints: a capped log, never parsed
 *
 * Everything the worker sends is untrusted: student code shares its address
 * space and can write anything to any of its descriptors. The parent reads
 * replies as data to check (a nonce per request, outputs compared with its
 * own references, times checked against its own clock), never as verdicts.
 */
#ifndef PRIMLAB_PROTOCOL_H
#define PRIMLAB_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define PL_FD_REQ 3
#define PL_FD_REPLY 4
#define PL_FD_SHM 5

#define PL_PROTO_MAGIC 0x31626c70u /* "plb1" */

/* Device buffers have guard zones on both sides; every byte starts as
   PL_POISON_BYTE, so an output position never written reads as poison. */
#define PL_POISON_BYTE 0xA5
#define PL_POISON_I32 ((int)0xA5A5A5A5)
#define PL_GUARD_BYTES ((size_t)64 * 1024)

#define PL_MAX_RUNS 2    /* output slots: two runs show a race */
#define PL_MAX_PARTS 16
#define PL_MAX_SPANS 512 /* phase marks kept per call (a lab's per-pass timing) */

enum pl_req_kind {
    PL_REQ_HELLO = 1, /* describe the device and the parts */
    PL_REQ_STAGE,     /* size the device buffers, upload the input, poison the outputs */
    PL_REQ_CALL,      /* one call of a part (or its yardstick) on the staged buffers */
    PL_REQ_FETCH,     /* copy the output (and guards, the input) into shared memory */
    PL_REQ_TIME,      /* reps timed calls on the staged input, for benchmarks */
    PL_REQ_COPY_BW,   /* the device's copy bandwidth, GB/s in reply.ms */
    PL_REQ_QUIT,
    PL_REQ_SMEM_BW,   /* the device's shared-memory read bandwidth, GB/s in reply.ms */
};

/* A graded test is STAGE, CALL, FETCH, then STAGE (no upload), CALL, FETCH
   again to catch races. A graded timing is, per repetition, a fresh input:
   STAGE, then CALL timed by both the worker's CUDA events and the parent's
   clock around the request, then FETCH and the parent's check. */

enum pl_variant { PL_VAR_IMPL = 0, PL_VAR_VENDOR = 1 };

enum pl_req_flags {
    PL_RQ_UPLOAD = 1u << 0,   /* STAGE: copy the input from shared memory */
    PL_RQ_TIMED = 1u << 1,    /* STAGE: flush L2; CALL: CUDA events around it */
    PL_RQ_GUARDS = 1u << 2,   /* FETCH: the output's guard zones too */
    PL_RQ_IN_AFTER = 1u << 3, /* FETCH: the input as the call left it */
    PL_RQ_PHASES = 1u << 4,   /* CALL: record primlab_phase marks (spans in shm) */
    PL_RQ_PATCH = 1u << 5,    /* CALL: patch the staged input first (patch_at) */
    PL_RQ_POISON_NAN = 1u << 6, /* STAGE: the output starts as 0xFF bytes (a NaN in float and double) */
};

typedef struct pl_req {
    uint32_t magic, kind;
    uint64_t nonce;        /* echoed by the reply */
    char part[16];         /* the part's id, "a", "di" */
    int32_t variant;       /* enum pl_variant */
    uint32_t flags;        /* enum pl_req_flags */
    int32_t slot;          /* FETCH: which output slot (0 .. PL_MAX_RUNS-1) */
    int32_t reps;          /* TIME: timed calls */
    /* CALL with PL_RQ_PATCH: before the call, input word patch_at becomes patch_value.
       Graded timing patches the staged input at random, so that no result
       made before the CALL (from the input in shared memory) is right. */
    int64_t patch_at;
    int32_t patch_value;
    int64_t n;             /* the size handed to the entry point */
    int64_t in_len, out_len, scratch_len; /* in 32-bit words */
    uint64_t shm_bytes;    /* the shared region's size now (it only grows) */
} pl_req;

enum pl_reply_status {
    PL_W_OK = 0,
    PL_W_CALL_ERROR, /* a launch error or a kernel fault: reason says which */
    PL_W_NOFIT,      /* the buffers do not fit in device memory */
    PL_W_BAD,        /* a request the worker cannot serve (no such part) */
};

/* The CUDA runtime's allocation functions whose calls the worker counts
   while the implementation's code runs a CALL (harness/worker/allocs.cu):
   pl_reply.allocs holds one count per function (the _ptsz symbols of the
   stream-ordered ones count as theirs). */
enum pl_alloc_fn {
    PL_AF_MALLOC,
    PL_AF_FREE,
    PL_AF_MALLOC_ASYNC,
    PL_AF_FREE_ASYNC,
    PL_AF_MALLOC_POOL,
    PL_AF_MALLOC_MANAGED,
    PL_AF_MALLOC_PITCH,
    PL_AF_MALLOC_3D,
    PL_AF_MALLOC_HOST,
    PL_AF_HOST_ALLOC,
    PL_AF_FREE_HOST,
    PL_AF_COUNT
};

static inline const char *pl_alloc_fn_name(int f)
{
    static const char *const names[PL_AF_COUNT] = {
        "cudaMalloc",        "cudaFree",        "cudaMallocAsync", "cudaFreeAsync",  "cudaMallocFromPoolAsync",
        "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D",    "cudaMallocHost", "cudaHostAlloc",
        "cudaFreeHost",
    };
    return f >= 0 && f < PL_AF_COUNT ? names[f] : "?";
}

/* 1 for the functions that allocate host memory (pinned), not device memory. */
static inline int pl_alloc_fn_host(int f)
{
    return f == PL_AF_MALLOC_HOST || f == PL_AF_HOST_ALLOC || f == PL_AF_FREE_HOST;
}

typedef struct pl_part_info {
    char id[16];
    int32_t has_vendor;
} pl_part_info;

typedef struct pl_reply {
    uint32_t magic, status;
    uint64_t nonce;
    char reason[200];
    /* CALL: the CUDA-event time (PL_RQ_TIMED), ms. TIME: the times go to
       shared memory (doubles at pl_shm_layout.times). */
    double ms;
    int32_t lent_calls; /* CALL: calls of the lent primlab_ functions */
    int32_t nspans;     /* CALL with PL_RQ_PHASES: spans in shared memory, -1 overflow */
    /* CALL of the implementation (never the vendor's): the calls it made of
       each allocation function (enum pl_alloc_fn), and the host time spent
       in them, ms (a free's wait for the device's work left out) */
    int32_t allocs[PL_AF_COUNT];
    double alloc_ms;
    /* HELLO */
    int32_t gpu_ok;
    char device[256];
    int32_t cc_major, cc_minor, sms;
    int32_t clock_khz;     /* the SMs' peak clock */
    int64_t l2_bytes, mem_bytes, free_bytes;
    int32_t nparts;
    pl_part_info parts[PL_MAX_PARTS];
    char vendor[64];       /* HELLO: the vendor library the yardsticks were built with, "CCCL 3.0.1" */
} pl_reply;

/* A phase span, as the worker writes it to shared memory. */
typedef struct pl_shm_span {
    char name[48];
    int32_t pass;
    double ms;
} pl_shm_span;

/* Where things live in the shared region, in bytes from its start. */
typedef struct pl_shm_layout {
    size_t in, out[PL_MAX_RUNS], guard_front, guard_back, in_after, times, spans, total;
} pl_shm_layout;

static inline size_t pl_shm_align(size_t x) { return (x + 4095) & ~(size_t)4095; }

static inline pl_shm_layout pl_shm_layout_for(int64_t in_len, int64_t out_len, int32_t reps)
{
    pl_shm_layout l;
    size_t ib = pl_shm_align((size_t)in_len * 4), ob = pl_shm_align((size_t)out_len * 4);
    size_t at = 0;
    l.in = at, at += ib;
    for (int r = 0; r < PL_MAX_RUNS; r++)
        l.out[r] = at, at += ob;
    l.guard_front = at, at += PL_GUARD_BYTES;
    l.guard_back = at, at += PL_GUARD_BYTES;
    l.in_after = at, at += ib;
    l.times = at, at += pl_shm_align(sizeof(double) * (size_t)(reps > 0 ? reps : 1));
    l.spans = at, at += pl_shm_align(sizeof(pl_shm_span) * PL_MAX_SPANS);
    l.total = at;
    return l;
}

#endif
