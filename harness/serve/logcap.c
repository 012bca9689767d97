/* harness/serve/logcap.c: a runner's log with a cap (serve.h, log_capped):
 * JOBDIR/runner.log keeps the first SERVE_LOG_MAX bytes a runner writes,
 * then one line saying how many more it wrote, which are read and
 * dropped (a runner that is stopped writing is a runner stuck).
 *
 * The runner writes into a pipe; a process of its own drains it into the
 * file. That process is forked from the service and runs no program: it
 * is no child of the service (the child that forks it exits at once and
 * is reaped: no zombie), it closes every descriptor but the pipe and the
 * file (the listening socket, the database, other jobs' pipes: a pipe it
 * held would never end), it is in a session of its own (a Ctrl-C at make
 * serve reaches the service, which stops its runners, not the log under
 * them), and it ends when the last writer is gone: the runner's process
 * group is killed when its job ends, so it writes its line then. */
#define _GNU_SOURCE
#include "serve.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* All N bytes of BUF to FD (what cannot be written is lost). */
static void put(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        buf += w;
        n -= (size_t)w;
    }
}

/* V in decimal at the end of the text at *end (moved back to its start). */
static char *decimal(char *end, long long v)
{
    *--end = '\0';
    do
        *--end = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    return end;
}

/* The drainer: async-signal-safe calls only (it was forked from threads). */
static _Noreturn void drain(int in, int out, long max)
{
    static char buf[1 << 16];
    long long kept = 0, more = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        long long keep = n < max - kept ? n : max - kept;
        put(out, buf, (size_t)keep);
        kept += keep;
        more += n - keep;
    }
    if (more) {
        char a[24], b[24];
        const char *parts[] = {"\n... cut at ", decimal(a + sizeof a, max), " bytes (SERVE_LOG_MAX): ",
                               decimal(b + sizeof b, more), " bytes more not kept\n"};
        for (int i = 0; i < 5; i++) {
            size_t len = 0;
            while (parts[i][len])
                len++;
            put(out, parts[i], len);
        }
    }
    _exit(0);
}

int log_capped(const char *path, long max)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600), p[2];
    if (fd < 0)
        return -1;
    if (pipe2(p, O_CLOEXEC) != 0) {
        close(fd);
        return -1;
    }
    struct rlimit nofile = {1024, 1024};
    getrlimit(RLIMIT_NOFILE, &nofile);
    int top = nofile.rlim_cur > 65536 ? 65536 : (int)nofile.rlim_cur;
    pid_t pid = fork();
    if (pid == 0) {
        if (fork() != 0)
            _exit(0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setsid();
        prctl(PR_SET_NAME, "primlab-log", 0, 0, 0);
        if (dup2(p[0], 0) < 0 || dup2(fd, 1) < 0)
            _exit(127);
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 2, ~0U, 0) == 0)
            top = 0;
#endif
        for (int i = 2; i < top; i++) /* a kernel before 5.9 */
            close(i);
        drain(0, 1, max);
    }
    close(p[0]);
    close(fd);
    if (pid < 0) {
        close(p[1]);
        return -1;
    }
    waitpid(pid, NULL, 0);
    return p[1];
}
