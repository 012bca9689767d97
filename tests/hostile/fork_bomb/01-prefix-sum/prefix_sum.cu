/* hostile: fork_bomb. A constructor forks until fork fails; every child
 * (named hx-fork_bomb) sleeps forever; then the worker carries on as the
 * stub. The worker runs with RLIMIT_NPROC, as nobody, in a pid namespace
 * that dies with it.
 * The grader must give: 0, like the stub, within the time limit; no process
 * of it is left once grading is done.
 * Armed only when staged by tests/test_hostile.sh (its ARMED marker becomes
 * 1): the file as committed does not compile, so that it never runs outside
 * a sandbox by mistake. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

static const int hx_armed = @@ARMED@@;

__attribute__((constructor)) static void hx_ctor_fork_bomb(void)
{
    if (!hx_armed)
        return;
    prctl(PR_SET_NAME, "hx-fork_bomb");
    long made = 0;
    for (; made < 100000; made++) {
        pid_t p = fork();
        if (p < 0)
            break;
        if (p == 0)
            for (;;)
                pause();
    }
    printf("fork_bomb: %ld children before fork failed\n", made);
    fflush(stdout);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
