/* tests/gpu/gpu_suite.h: the setup of a GPU test binary, for the shared main of
 * tests/lib/check_main.h. It starts the suite's worker (the solution's, or one
 * with planted bugs) once, under the same sandbox as grading, and has every
 * test of the suite run through it in this process (CK_NOFORK: no CUDA and
 * no GPU code ever run here). Without a GPU it prints one SKIP line, runs
 * nothing and counts nothing as passed. The test file defines
 * gpu_suite_names (what the suite tests, for those lines, and the worker's
 * path) and check_suite. Header-only: each test binary includes it once. */
#ifndef PRIMLAB_TESTS_GPU_SUITE_H
#define PRIMLAB_TESTS_GPU_SUITE_H

#include "../../harness/parent/worker_client.h"
#include "../lib/check_main.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pl_session *suite_session; /* the worker every test of the suite uses */

/* what: "lab05 GPU suites (radix-sort solution)"; worker: its path. */
static void gpu_suite_names(char *what, size_t what_size, char *worker, size_t worker_size);

int check_setup(void)
{
    /* static: the session may keep pointers to the worker's and the log's paths */
    static char what[128], worker[128], log[4096];
    char why[256];
    gpu_suite_names(what, sizeof what, worker, sizeof worker);
    const char *no = getenv("PRIMLAB_NO_GPU");
    snprintf(log, sizeof log, "%s.log", worker);
    pl_session_opts o = {.worker = worker, .no_gpu = no && *no && strcmp(no, "0") != 0, .log = log, .start_s = 120};
    suite_session = pl_session_open(&o, why, sizeof why);
    if (!suite_session) {
        printf("FAIL: %s: %s\n", what, why);
        return EXIT_FAILURE;
    }
    const pl_reply *h = pl_session_hello(suite_session);
    if (!h->gpu_ok) {
        printf("SKIP: %s: no GPU (%s); not counted as passed\n", what, h->reason);
        pl_session_close(suite_session);
        return EXIT_SUCCESS;
    }
    printf("%s on %s%s\n", what, h->device, pl_session_sandboxed(suite_session) ? ", sandboxed" : "");
    main_fork_mode = CK_NOFORK;
    return CHECK_RUN;
}

void check_teardown(void) { pl_session_close(suite_session); }

#endif
