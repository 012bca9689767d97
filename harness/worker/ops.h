/* harness/worker/ops.h: a lab's entry points, as the worker calls them.
 *
 * Each lab has one ops table (harness/worker/labs/labNN.cu): for each part
 * id of its parent-side table (harness/parent/labs/labNN.c), the call into
 * the student's (or the solution's) code and the vendor yardstick. The
 * parent sends part ids; the worker checks at HELLO that it has every part
 * the parent grades. Extra entries (lab 05's radix_sort_bits widths) are
 * parts the parent times but does not grade.
 */
#ifndef PRIMLAB_WORKER_OPS_H
#define PRIMLAB_WORKER_OPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0, or non-zero when the code says it does not support this call
   (radix_sort_bits with an unsupported width). */
typedef int (*pl_gpu_op)(const int *d_in, int *d_out, int n, int *d_scratch);
/* Returns a cudaError_t. */
typedef int (*pl_vendor_op)(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);

typedef struct pl_op {
    const char *id;
    const char *entry;   /* the contract's function, for messages */
    pl_gpu_op gpu;
    pl_vendor_op vendor; /* NULL: none */
} pl_op;

typedef struct pl_ops {
    const pl_op *ops;
    int nops;
    /* device scratch the vendor yardstick needs for a call of size n */
    size_t (*vendor_temp_bytes)(int n);
} pl_ops;

const pl_ops *pl_worker_ops(void);

/* The input as the parent staged it, in host memory (the shared region),
   during a CALL or TIME request: for ops whose host-side arguments are in
   it (lab 06's matrix sizes, a header at its start). in_len words. */
extern const int *pl_host_in;
extern long pl_host_in_len;

/* Calls of the functions a contract lends (primlab_scan_exclusive), counted
   so that the parent can tell when a part used one. */
extern int pl_lent_calls;

/* An op for an entry point that returns nothing: PL_OP(name, call). */
#define PL_OP(name, call)                                                     \
    static int name(const int *in, int *out, int n, int *scratch)             \
    {                                                                         \
        (void)in, (void)out, (void)n, (void)scratch;                          \
        call;                                                                 \
        return 0;                                                             \
    }

#ifdef __cplusplus
}
#endif

#endif
