/* harness/proc.c: isolated child runs with a time limit (see proc.h). */
#define _POSIX_C_SOURCE 200809L
#include "proc.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int child_fd = -1; /* write end of the result pipe, in a child only */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *pl_status_name(int status)
{
    static const char *names[] = {"OK", "FAIL", "ERROR", "CRASH", "TIMEOUT", "SKIP"};
    return status >= 0 && status <= PL_SKIP ? names[status] : "?";
}

double pl_env_seconds(const char *name, double def)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return def;
    double v = strtod(s, &end);
    return (*end || v < 0) ? def : v;
}

static void write_all(int fd, const void *p, size_t len)
{
    const char *c = p;
    while (len) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        c += w;
        len -= (size_t)w;
    }
}

void pl_child_abort(int status, const char *reason, const char *detail)
{
    if (child_fd < 0) {
        fprintf(stderr, "%s\n%s", reason, detail ? detail : "");
        exit(3);
    }
    pl_result r;
    memset(&r, 0, sizeof r);
    r.status = status;
    snprintf(r.reason, sizeof r.reason, "%s", reason);
    if (detail)
        snprintf(r.detail, sizeof r.detail, "%s", detail);
    write_all(child_fd, &r, sizeof r);
    _exit(1);
}

static const char *signal_words(int sig)
{
    switch (sig) {
    case SIGSEGV: return "segmentation fault in host code (a bad pointer, or a device pointer used on the host?)";
    case SIGBUS: return "bus error in host code";
    case SIGABRT: return "aborted (an assert or abort() fired)";
    case SIGFPE: return "arithmetic exception in host code (integer division by zero?)";
    case SIGILL: return "illegal instruction";
    case SIGKILL: return "killed (out of memory?)";
    default: return strsignal(sig);
    }
}

int pl_run_isolated(pl_child_fn fn, void *arg, double timeout_s, pl_result *res)
{
    memset(res, 0, sizeof *res);
    int fds[2];
    if (pipe(fds) != 0) {
        res->status = PL_ERROR;
        snprintf(res->reason, sizeof res->reason, "cannot make a pipe: %s", strerror(errno));
        return res->status;
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        res->status = PL_ERROR;
        snprintf(res->reason, sizeof res->reason, "cannot fork: %s", strerror(errno));
        return res->status;
    }
    if (pid == 0) {
        close(fds[0]);
        child_fd = fds[1];
        pl_result r;
        memset(&r, 0, sizeof r);
        r.status = PL_PASS;
        fn(arg, &r);
        fflush(stdout);
        write_all(child_fd, &r, sizeof r);
        _exit(0);
    }
    close(fds[1]);

    /* Read the child's report until EOF (the child exited) or the deadline. */
    size_t got = 0;
    int timed_out = 0;
    for (;;) {
        int wait_ms = -1;
        if (timeout_s > 0) {
            double left = t0 + timeout_s - now();
            if (left <= 0) {
                timed_out = 1;
                break;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int k = poll(&p, 1, wait_ms);
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0)
            continue; /* the loop re-checks the deadline */
        ssize_t rd = got < sizeof *res ? read(fds[0], (char *)res + got, sizeof *res - got)
                                       : read(fds[0], &(char){0}, 1);
        if (rd < 0 && errno == EINTR)
            continue;
        if (rd <= 0)
            break;
        if (got < sizeof *res)
            got += (size_t)rd;
    }
    close(fds[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    double secs = now() - t0;

    if (timed_out) {
        memset(res, 0, sizeof *res);
        res->status = PL_TIMEOUT;
        snprintf(res->reason, sizeof res->reason,
                 "timed out after %.0f s and was killed (a kernel or loop that never finishes?)", timeout_s);
    } else if (got < sizeof *res) {
        memset(res, 0, sizeof *res);
        res->status = PL_CRASH;
        if (WIFSIGNALED(wstatus))
            snprintf(res->reason, sizeof res->reason, "crashed: %s", signal_words(WTERMSIG(wstatus)));
        else
            snprintf(res->reason, sizeof res->reason,
                     "exited with status %d before reporting a result (exit() called?)",
                     WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    }
    res->reason[sizeof res->reason - 1] = '\0';
    res->detail[sizeof res->detail - 1] = '\0';
    res->seconds = secs;
    return res->status;
}
