/* tests/gpu_suite.h: the main of a GPU test binary. It starts the suite's
 * worker (the solution's, or one with planted bugs) once, under the same
 * sandbox as grading, and runs every test of the suite through it in this
 * process (CK_NOFORK: no CUDA and no GPU code ever run here). Without a GPU
 * it prints one SKIP line, runs nothing and counts nothing as passed.
 * Header-only: each test binary includes it once. */
#ifndef PRIMLAB_TESTS_GPU_SUITE_H
#define PRIMLAB_TESTS_GPU_SUITE_H

#include "../harness/parent/worker_client.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pl_session *suite_session; /* the worker every test of the suite uses */

/* what: "lab05 GPU suites (radix-sort solution)"; make builds the suite. */
static int pl_gpu_suite_main(const char *what, const char *worker, Suite *(*make)(void))
{
    char why[256], log[4096];
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
    SRunner *sr = srunner_create(make());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    pl_session_close(suite_session);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
