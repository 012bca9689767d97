/* harness/worker/ops.h: a lab's entry points, as the worker calls them.
 *
 * Each lab has one ops table (harness/worker/labs/labNN.cu): for each id
 * its wire header lists (harness/wire/labNN.h), the call into the
 * student's (or the solution's) code and the vendor yardstick. The lists
 * hold the parts the parent grades (harness/parent/labs/labNN.c) and, in a
 * second list, extra ops that only a lab's own commands call (timed or
 * counted there, never graded). The table is expanded from those lists, so
 * a listed id without its op does not compile; the parent still checks at
 * HELLO that the worker has every part it grades.
 */
#ifndef PRIMLAB_WORKER_OPS_H
#define PRIMLAB_WORKER_OPS_H

#include <stddef.h>

#include "../wire/parts.h"
#include "../wire/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0, or non-zero when the code says it does not support this call
   (an argument outside what the contract allows, such as a digit width). */
typedef int (*pl_gpu_op)(const int *d_in, int *d_out, int n, int *d_scratch);
/* Returns a cudaError_t. */
typedef int (*pl_vendor_op)(const int *d_in, int *d_out, int n, void *d_temp, size_t temp_bytes);

/* One op as a lab's table defines it, under the name op_<id> (PL_OP_ROW in
   harness/wire/parts.h adds the id). */
typedef struct pl_op_def {
    const char *entry;   /* the contract's function, for messages */
    pl_gpu_op gpu;
    pl_vendor_op vendor; /* NULL: none */
} pl_op_def;

typedef struct pl_op {
    const char *id;      /* as the wire header spells it */
    const char *entry;
    pl_gpu_op gpu;
    pl_vendor_op vendor;
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
   it (sizes in a header at its start, laid out by the lab's wire header).
   in_len words. */
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

/* The table pl_worker_ops returns, from the lab's ops array (expanded from
   its wire lists) and its vendor_temp_bytes. HELLO reports at most
   PL_MAX_PARTS ids, so a longer list does not compile. */
#define PL_OPS_TABLE(ops, temp_bytes)                                         \
    static_assert(sizeof ops / sizeof ops[0] <= PL_MAX_PARTS,                 \
                  "more ops than HELLO can report (PL_MAX_PARTS)");           \
    static const pl_ops pl_ops_table = {ops, sizeof ops / sizeof ops[0], temp_bytes}; \
    const pl_ops *pl_worker_ops(void) { return &pl_ops_table; }

#ifdef __cplusplus
}
#endif

#endif
