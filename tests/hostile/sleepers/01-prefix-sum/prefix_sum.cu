/* hostile: sleepers. A constructor starts 50 children (named hx-sleepers)
 * that each leave the session and process group (setsid), fork once more
 * (the grandchild is adopted by the namespace's init) and sleep for an
 * hour, hoping to outlive grading; then the worker carries on as the stub.
 * The grader must give: 0, like the stub; none of them alive once grading
 * is done.
 * Armed only when staged by tests/test_hostile.sh (its ARMED marker becomes
 * 1): the file as committed does not compile, so that it never runs outside
 * a sandbox by mistake. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static const int hx_armed = @@ARMED@@;

__attribute__((constructor)) static void hx_ctor_sleepers(void)
{
    if (!hx_armed)
        return;
    for (int k = 0; k < 50; k++) {
        if (fork() != 0)
            continue;
        setsid();
        signal(SIGHUP, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        if (fork() != 0)
            _exit(0);
        prctl(PR_SET_NAME, "hx-sleepers");
        sleep(3600);
        _exit(0);
    }
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
