/* harness/proc.h: run one piece of work in a child process, with a time limit.
 *
 * CUDA and fork() do not mix: a process that has created a CUDA context
 * must not fork, and a child cannot use its parent's context. So the parent
 * (a grader, or Check's runner) never touches CUDA; every test and every
 * device probe runs in a child made here, which creates its own context.
 * A child that faults, aborts, hangs or calls exit() costs only its own
 * result, which comes back with a one-line reason naming the cause.
 *
 * This file uses no CUDA and is safe to call from any process.
 */
#ifndef PRIMLAB_PROC_H
#define PRIMLAB_PROC_H

#ifdef __cplusplus
extern "C" {
#endif

enum pl_status {
    PL_PASS = 0,
    PL_FAIL,      /* ran, wrong result; reason says how */
    PL_ERROR,     /* a CUDA call or the harness reported an error */
    PL_CRASH,     /* killed by a signal or exited before reporting */
    PL_TIMEOUT,   /* exceeded its time limit and was killed */
    PL_SKIP,      /* could not run here (no GPU, too large for the device) */
};

typedef struct pl_result {
    int status;          /* enum pl_status */
    double seconds;      /* wall time of the child, measured by the parent */
    char reason[200];    /* one line */
    char detail[2048];   /* more lines, each '\n'-terminated */
    unsigned findings;   /* diagnose.h's pl_finding bits, when compared */
    double score;        /* points earned, for tests that grade by degree */
    double value;        /* the measured ratio of a performance test */
    unsigned char payload[1024]; /* typed data a child hands back (device info) */
} pl_result;

typedef void (*pl_child_fn)(void *arg, pl_result *out);

/* Runs fn(arg, out) in a child. Returns res->status. timeout_s <= 0: none. */
int pl_run_isolated(pl_child_fn fn, void *arg, double timeout_s, pl_result *res);

/* In a child made by pl_run_isolated: report status and reason, end the child.
   Anywhere else: print the reason to stderr and exit(3). Never returns. */
void pl_child_abort(int status, const char *reason, const char *detail);

const char *pl_status_name(int status);

/* Seconds from an environment variable, or def when unset or malformed. */
double pl_env_seconds(const char *name, double def);

#ifdef __cplusplus
}
#endif

#endif
