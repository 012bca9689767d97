/* tests/lib/check_main.h: the one main() of the project's Check test binaries.
 * A test file includes this header once and defines
 *     Suite *check_suite(void);      the suite it runs
 * and, only where it needs them,
 *     int check_setup(void);         run first: CHECK_RUN to go on, else the
 *                                    exit status (a SKIP, or a failed setup)
 *     void check_teardown(void);     run after the suite, pass or fail
 * The suite runs with the verbosity of CK_VERBOSITY and the fork mode of
 * CK_FORK, unless check_setup sets main_fork_mode (the GPU suites of
 * tests/gpu/gpu_suite.h run in this process, CK_NOFORK); main exits non-zero
 * when a test failed. Header-only, like gpu_suite.h, so that the link rule
 * of every test binary stays as it is. */
#ifndef PRIMLAB_TESTS_CHECK_MAIN_H
#define PRIMLAB_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define CHECK_RUN (-1)

Suite *check_suite(void);
int check_setup(void) __attribute__((weak));
void check_teardown(void) __attribute__((weak));

/* CK_FORK_GETENV: Check's default, the environment's CK_FORK decides. */
static enum fork_status main_fork_mode = CK_FORK_GETENV;

int main(void)
{
    int status = check_setup ? check_setup() : CHECK_RUN;
    if (status != CHECK_RUN)
        return status;
    SRunner *sr = srunner_create(check_suite());
    if (main_fork_mode != CK_FORK_GETENV)
        srunner_set_fork_status(sr, main_fork_mode);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (check_teardown)
        check_teardown();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
