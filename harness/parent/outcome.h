/* harness/parent/outcome.h: the outcome of one test, as the parent records it.
 *
 * Tests run in the sandboxed worker (worker_client.h); whatever happens
 * there, the parent records one status and a one-line reason per test.
 * Pure C; no CUDA.
 */
#ifndef PRIMLAB_OUTCOME_H
#define PRIMLAB_OUTCOME_H

#ifdef __cplusplus
extern "C" {
#endif

enum pl_status {
    PL_PASS = 0,
    PL_FAIL,      /* ran, wrong result; reason says how */
    PL_ERROR,     /* a CUDA call or the harness reported an error */
    PL_CRASH,     /* the worker was killed by a signal or exited before replying */
    PL_TIMEOUT,   /* exceeded its time limit and was killed */
    PL_SKIP,      /* could not run here (no GPU, too large for the device) */
};

typedef struct pl_result {
    int status;          /* enum pl_status */
    double seconds;      /* wall time of the test, measured by the parent */
    char reason[200];    /* one line */
    char detail[2048];   /* more lines, each '\n'-terminated */
    unsigned findings;   /* diagnose.h's pl_finding bits, when compared */
    double score;        /* points earned, for tests that grade by degree */
    double value;        /* what a performance test scored: its ratio, or its fraction of its roof (lab.h) */
    double ratio;        /* a performance test's ratio to its timed yardstick (= value unless roof-scored) */
    const char *cuda_error; /* a CUDA error the code printed as it exited (pl_find_cuda_error), or NULL */
    char bugs[96];       /* what went wrong, bugs.h codes comma-separated: the scores' bugs column */
} pl_result;

const char *pl_status_name(int status);

/* Seconds from an environment variable, or def when unset or malformed. */
double pl_env_seconds(const char *name, double def);

#ifdef __cplusplus
}
#endif

#endif
