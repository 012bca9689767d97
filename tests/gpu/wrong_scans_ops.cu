/* tests/gpu/wrong_scans_ops.cu: the ops table of build/tests/wrong-scans-worker:
 * each wrong scan of tests/gpu/wrong_scans.cu as a part, named for its bug. */
#include "../../harness/worker/ops.h"

extern "C" {
void planted_correct(const int *, int *, int, int *);
void planted_skip_last(const int *, int *, int, int *);
void planted_exclusive(const int *, int *, int, int *);
void planted_no_carry(const int *, int *, int, int *);
void planted_past_end(const int *, int *, int, int *);
void planted_before_start(const int *, int *, int, int *);
void planted_fault(const int *, int *, int, int *);
void planted_hang(const int *, int *, int, int *);
void planted_zero_launch(const int *, int *, int, int *);
}

#define PLANT(name) PL_OP(name##_op, planted_##name(in, out, n, scratch))
PLANT(correct)
PLANT(skip_last)
PLANT(exclusive)
PLANT(no_carry)
PLANT(past_end)
PLANT(before_start)
PLANT(fault)
PLANT(hang)
PLANT(zero_launch)

static const pl_op ops[] = {
    {"correct", "planted", correct_op, NULL},         {"skip_last", "planted", skip_last_op, NULL},
    {"exclusive", "planted", exclusive_op, NULL},     {"no_carry", "planted", no_carry_op, NULL},
    {"past_end", "planted", past_end_op, NULL},       {"before_start", "planted", before_start_op, NULL},
    {"fault", "planted", fault_op, NULL},             {"hang", "planted", hang_op, NULL},
    {"zero_launch", "planted", zero_launch_op, NULL},
};
static size_t no_temp(int n) { return (void)n, 0; }
static const pl_ops table = {ops, sizeof ops / sizeof ops[0], no_temp};
const pl_ops *pl_worker_ops(void) { return &table; }
