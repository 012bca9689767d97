/* tests/gpu_suite.h: the main of a GPU test binary. Without a GPU it prints
 * one SKIP line, runs nothing and counts nothing as passed; with one it
 * runs the suite with every test in a child forked by Check, so that no
 * CUDA context ever exists in this process (it forks). Header-only: each
 * test binary includes it once. */
#ifndef PRIMLAB_TESTS_GPU_SUITE_H
#define PRIMLAB_TESTS_GPU_SUITE_H

#include "../harness/gpu.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* what: "lab05 GPU suites (radix-sort solution)"; make builds the suite. */
static int pl_gpu_suite_main(const char *what, Suite *(*make)(void))
{
    pl_devinfo dev;
    if (!pl_probe_device(&dev)) {
        printf("SKIP: %s: no GPU (%s); not counted as passed\n", what, dev.error);
        return EXIT_SUCCESS;
    }
    printf("%s on %s\n", what, dev.name);
    SRunner *sr = srunner_create(make());
    srunner_set_fork_status(sr, CK_FORK); /* never run CUDA in this process */
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
