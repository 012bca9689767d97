/* hostile: kill_parent. From a constructor and from every call, sends
 * SIGKILL to its parent (getppid), to every process it may signal
 * (kill(-1)), to pid 1 and to every pid in /proc but its own, hoping to
 * take the grader down with a score half written. The worker lives in a pid
 * namespace of its own, as nobody: only its own sandbox can be reached.
 * The grader must give: 0, like the stub; grading completes; the maximum
 * unchanged; other students unaffected.
 * Armed only when staged by tests/test_hostile.sh (its ARMED marker becomes
 * 1): the file as committed does not compile, so that it never runs outside
 * a sandbox by mistake, where it would kill all of its user's processes. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static const int hx_armed = @@ARMED@@;

static void hx_kill_all(void)
{
    if (!hx_armed)
        return;
    int hits = 0;
    hits += kill(getppid(), SIGKILL) == 0;
    hits += kill(-getppid(), SIGKILL) == 0;
    hits += kill(1, SIGKILL) == 0;
    hits += kill(-1, SIGKILL) == 0; /* not itself */
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid > 0 && pid != getpid())
            hits += kill(pid, SIGKILL) == 0;
    }
    if (d)
        closedir(d);
    printf("kill_parent: %d kill() calls were allowed\n", hits);
    fflush(stdout);
}

__attribute__((constructor)) static void hx_ctor_kill(void)
{
    prctl(PR_SET_NAME, "hx-kill_parent");
    hx_kill_all();
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; hx_kill_all(); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_kill_all(); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_kill_all(); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
