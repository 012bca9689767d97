/* harness/parent/worker_client.c: start, talk to and replace the sandboxed
 * worker (see worker_client.h). */
#define _GNU_SOURCE
#include "worker_client.h"
#include "bugs.h"
#include "diagnose.h"
#include "gpu_nodes.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOG_CAP_TOTAL ((size_t)1 << 20)  /* the student's prints kept per lab */
#define LOG_CAP_TEST ((size_t)64 << 10)  /* ... and per test */
#define MAX_ARGS 160

struct pl_session {
    pl_session_opts o;
    char worker[PATH_MAX];   /* what runs: a private copy when the grader is root */
    char copy_dir[PATH_MAX]; /* that copy's folder, or "" */
    char origin[PATH_MAX];   /* the worker as built, in the kit */
    int shm_fd;
    unsigned char *shm;
    size_t shm_bytes;
    size_t shm_faulted; /* [0, this) of the mapping faulted in (pl_session_faulted) */
    int starts;         /* workers started (pl_session_starts) */
    pid_t pid;            /* bwrap, or the worker itself without a sandbox */
    int req_fd, rep_fd, out_fd;
    int alive, sandboxed;
    uint64_t nonce;
    pl_reply hello;
    FILE *log;
    size_t printed, logged, logged_test;
    char label[160];
    int label_pending;
    char tail[400];       /* the last bytes printed, for a worker that cannot start */
    char test_out[2048];  /* the last bytes printed since the test's label: why it died */
    int start_failures;   /* starts in a row that did not reach HELLO */
    char start_error[200];
};

double pl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int write_all(int fd, const void *p, size_t len)
{
    const char *c = p;
    while (len) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        len -= (size_t)w;
    }
    return 0;
}

/* ------------------------------------------------------------ the log */

/* Appends to a NUL-terminated buffer of cap bytes, keeping its last bytes. */
static void keep_last(char *dst, size_t cap, const char *buf, size_t len)
{
    size_t keep = len < cap - 1 ? len : cap - 1, have = strlen(dst);
    if (have + keep >= cap)
        memmove(dst, dst + (have + keep - (cap - 1)), cap - 1 - keep), have = cap - 1 - keep;
    memcpy(dst + have, buf + len - keep, keep);
    dst[have + keep] = '\0';
    for (size_t i = have; i < have + keep; i++) /* NULs would end the text early */
        if (!dst[i])
            dst[i] = ' ';
}

static void log_bytes(pl_session *s, const char *buf, size_t len)
{
    keep_last(s->test_out, sizeof s->test_out, buf, len);
    keep_last(s->tail, sizeof s->tail, buf, len);
    s->printed += len;
    if (!s->log)
        return;
    if (s->label_pending) {
        fprintf(s->log, "== %s\n", s->label);
        s->label_pending = 0;
    }
    size_t room_total = s->logged < LOG_CAP_TOTAL ? LOG_CAP_TOTAL - s->logged : 0;
    size_t room_test = s->logged_test < LOG_CAP_TEST ? LOG_CAP_TEST - s->logged_test : 0;
    size_t room = room_total < room_test ? room_total : room_test;
    size_t w = len < room ? len : room;
    fwrite(buf, 1, w, s->log);
    if (w < len && room > 0)
        fprintf(s->log, "\n[... more output not kept: the log keeps %zu KiB per test, %zu KiB per lab]\n",
                LOG_CAP_TEST >> 10, LOG_CAP_TOTAL >> 10);
    s->logged += w;
    s->logged_test += w;
    fflush(s->log);
}

static int drain_output(pl_session *s)
{
    char buf[65536];
    ssize_t r = read(s->out_fd, buf, sizeof buf);
    if (r > 0)
        log_bytes(s, buf, (size_t)r);
    return (int)r;
}

void pl_session_label(pl_session *s, const char *test_name)
{
    snprintf(s->label, sizeof s->label, "%s", test_name);
    s->label_pending = 1;
    s->logged_test = 0;
    s->test_out[0] = '\0';
}

size_t pl_session_printed(const pl_session *s) { return s->printed; }

static int proc_stat(int pid, int *ppid, double *cpu_ms);

double pl_session_cpu_ms(const pl_session *s)
{
    if (!s->alive)
        return 0;
    /* the worker's processes: s->pid and its descendants (pids grow, but a
       few rounds over the table settle any order) */
    enum { MAXP = 4096 };
    static int pid[MAXP], ppid[MAXP], mine[MAXP];
    static double cpu[MAXP];
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < MAXP) {
        int p = atoi(e->d_name);
        if (p > 0 && proc_stat(p, &ppid[n], &cpu[n])) {
            pid[n] = p;
            mine[n++] = p == s->pid;
        }
    }
    if (d)
        closedir(d);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n && !mine[i]; j++)
                if (mine[j] && ppid[i] == pid[j])
                    mine[i] = changed = 1;
    }
    double ms = 0;
    for (int i = 0; i < n; i++)
        ms += mine[i] ? cpu[i] : 0;
    return ms;
}
const pl_reply *pl_session_hello(const pl_session *s) { return &s->hello; }
int pl_session_sandboxed(const pl_session *s) { return s->sandboxed; }

/* --------------------------------------------------------- the sandbox */

/* A folder, not a link to one (hiding the folder it points to hides it). */
static int is_dir(const char *p)
{
    struct stat st;
    return p && *p == '/' && lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Never hide the system's own folders, whatever HOME or a caller says. */
static int hideable(const char *p)
{
    static const char *const keep[] = {"/", "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/dev", "/proc",
                                       "/sys", "/tmp", "/var", "/opt"};
    if (!is_dir(p))
        return 0;
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        if (!strcmp(p, keep[i]))
            return 0;
    return 1;
}

static int profiling(void);

/* Whether uid 65534 may run path: the file and every folder above it open
   to others (the worker drops to that uid before it runs bwrap). */
static int others_can_run(const char *path)
{
    char p[PATH_MAX];
    struct stat st;
    snprintf(p, sizeof p, "%s", path);
    for (char *slash = p + strlen(p); slash > p; slash = strrchr(p, '/')) {
        if (stat(p, &st) != 0 || !(st.st_mode & S_IXOTH))
            return 0;
        *slash = '\0';
    }
    return 1;
}

static int usable_bwrap(const char *path)
{
    return access(path, X_OK) == 0 && (geteuid() != 0 || profiling() || others_can_run(path));
}

/* bwrap on PATH (the grader's, not the student's), else in the usual places. */
static const char *find_bwrap(void)
{
    static char found[PATH_MAX];
    const char *path = getenv("PATH");
    for (const char *p = path; p && *p;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len > 0 && len < sizeof found - 8) {
            snprintf(found, sizeof found, "%.*s/bwrap", (int)len, p);
            if (found[0] == '/' && usable_bwrap(found))
                return found;
        }
        p = c ? c + 1 : p + len;
    }
    static const char *const where[] = {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"};
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
        if (usable_bwrap(where[i]))
            return where[i];
    return NULL;
}

/* The sandbox, as one command line (see worker_client.h). store keeps the
   strings argv points to. */
static int host_dev(void)
{
    const char *dev = getenv("PRIMLAB_SANDBOX_DEV");
    return dev && !strcmp(dev, "host");
}

/* Whether a file name of /dev is a GPU's own, /dev/nvidia<number>, and
   which number. */
static int gpu_node(const char *name, int *minor)
{
    if (strncmp(name, "nvidia", 6) || name[6] < '0' || name[6] > '9')
        return 0;
    char *end;
    long m = strtol(name + 6, &end, 10);
    *minor = (int)m;
    return !*end;
}

/* Whether this process may open the pinned GPUs' device files: where a
   cgroup (Slurm's ConstrainDevices) denies one, CUDA_VISIBLE_DEVICES counts
   the allowed GPUs only, so its ordinals are not the driver's, and nothing
   is narrowed (the cgroup guards the GPUs). A file the host lacks is no
   reason: there is nothing to bind or to reach. */
static int pinned_nodes_open(const pl_pinned *pin)
{
    for (int i = 0; i < pin->n; i++) {
        char path[64];
        snprintf(path, sizeof path, "/dev/nvidia%d", pin->minor[i]);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd >= 0)
            close(fd);
        else if (errno != ENOENT)
            return 0;
    }
    return 1;
}

static int sandbox_argv(const pl_session *s, const char *bwrap, char **argv, char store[][PATH_MAX],
                        const pl_pinned *pin)
{
    int a = 0, k = 0;
#define ARG(x) (argv[a++] = (char *)(x))
    ARG(bwrap);
    ARG("--die-with-parent");
    ARG("--new-session");
    ARG("--unshare-all"); /* user, pid, net, ipc, uts, cgroup */
    ARG("--uid"), ARG("65534"), ARG("--gid"), ARG("65534");
    ARG("--ro-bind"), ARG("/"), ARG("/");
    /* A /dev of its own (null, zero, urandom...) with a private /dev/shm, and
       the GPU's device files, /dev/nvidia*, from the host's: of the GPUs'
       own (/dev/nvidia<N>), only the pinned GPUs' where the worker is
       pinned (pin), so that its code cannot reach another grader's GPU.
       PRIMLAB_SANDBOX_DEV=host binds the host's whole /dev instead (its
       /dev/shm still private), for a driver that needs more. */
    int whole = host_dev();
    if (whole)
        ARG("--dev-bind"), ARG("/dev"), ARG("/dev");
    else
        ARG("--dev"), ARG("/dev");
    ARG("--tmpfs"), ARG("/dev/shm");
    DIR *d = whole ? NULL : opendir("/dev");
    struct dirent *e;
    while (d && (e = readdir(d)) && k < 24)
        if (!strncmp(e->d_name, "nvidia", 6)) {
            int minor, mine = !pin;
            if (pin && gpu_node(e->d_name, &minor))
                for (int i = 0; i < pin->n; i++)
                    mine |= pin->minor[i] == minor;
            else
                mine = 1; /* nvidiactl, nvidia-uvm, nvidia-caps...: every GPU's */
            if (!mine)
                continue;
            snprintf(store[k], PATH_MAX, "/dev/%s", e->d_name);
            ARG("--dev-bind"), ARG(store[k]), ARG(store[k]);
            k++;
        }
    if (d)
        closedir(d);
    ARG("--proc"), ARG("/proc");
    ARG("--tmpfs"), ARG("/tmp"); /* the worker's scratch */
    /* Hidden: the kit (the folder that holds build/), $HOME, the caller's
       list (make grade: the submissions and the grades), and where other
       programs keep their sockets (--unshare-net leaves unix sockets that
       have a path reachable). */
    const char *hide[48];
    int nh = 0;
    hide[nh++] = "/run";
    hide[nh++] = "/var/run";
    hide[nh++] = "/var/tmp";
    char *b = strstr(s->origin, "/build/");
    if (b) {
        snprintf(store[k], PATH_MAX, "%.*s", (int)(b - s->origin), s->origin);
        hide[nh++] = store[k++];
    }
    if (getcwd(store[k], PATH_MAX))
        hide[nh++] = store[k++];
    hide[nh++] = getenv("HOME");
    const char *extra = getenv("PRIMLAB_SANDBOX_HIDE");
    for (const char *p = extra; p && *p && nh < 44 && k < 60;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        snprintf(store[k], PATH_MAX, "%.*s", (int)len, p);
        hide[nh++] = store[k++];
        p = c ? c + 1 : p + len;
    }
    for (int i = 0; i < nh; i++)
        if (hideable(hide[i]))
            ARG("--tmpfs"), ARG(hide[i]);
    ARG("--ro-bind"), ARG(s->worker), ARG(s->worker);
    ARG("--chdir"), ARG("/tmp");
    ARG("--");
    ARG(s->worker);
    ARG("--serve");
    if (s->o.no_gpu)
        ARG("--no-gpu");
    argv[a] = NULL;
#undef ARG
    return a;
}

/* name's value times unit, or def times unit when unset or malformed */
/* `make profile`: the kit's own code under Nsight Compute, which reaches the
   worker through its environment; so no sandbox, no change of user, the
   whole environment. Never while grading. */
static int profiling(void)
{
    const char *p = getenv("PRIMLAB_WORKER_PROFILE"), *g = getenv("PRIMLAB_REQUIRE_SANDBOX");
    return p && *p && strcmp(p, "0") != 0 && !(g && *g && strcmp(g, "0") != 0);
}

static rlim_t env_limit(const char *name, rlim_t def, rlim_t unit)
{
    const char *v = getenv(name);
    char *end;
    unsigned long long x = v && *v ? strtoull(v, &end, 10) : def;
    return (v && *v && *end ? def : (rlim_t)x) * unit;
}

static void set_limit(int what, rlim_t v)
{
    struct rlimit l = {v, v};
    setrlimit(what, &l);
}

/* In the child, before exec: descriptors, limits, a clean environment. */
static void child_exec(pl_session *s, int req_rd, int rep_wr, int out_wr, const char *bwrap)
{
    setsid();
    /* The GPUs CUDA_VISIBLE_DEVICES pins the worker to (make grade JOBS,
       Slurm), read off the driver while this process may still read it: in
       the sandbox, their device files alone, named by UUID (the sandbox's
       CUDA may number the GPUs it can open from 0). PRIMLAB_NVIDIA_GPUS
       stands in for /proc/driver/nvidia/gpus in tests. */
    static pl_pinned pin;
    const char *root = getenv("PRIMLAB_NVIDIA_GPUS");
    int pinned = bwrap && !host_dev() && !profiling() &&
                 pl_pinned_gpus(getenv("CUDA_VISIBLE_DEVICES"), getenv("CUDA_DEVICE_ORDER"),
                                root && *root ? root : "/proc/driver/nvidia/gpus", &pin) &&
                 pinned_nodes_open(&pin);
    int devnull = open("/dev/null", O_RDONLY);
    /* move everything above the protocol's numbers first, so dup2 cannot clobber */
    int fds[5] = {fcntl(req_rd, F_DUPFD, 10), fcntl(rep_wr, F_DUPFD, 10), fcntl(s->shm_fd, F_DUPFD, 10),
                  fcntl(out_wr, F_DUPFD, 10), fcntl(devnull, F_DUPFD, 10)};
    dup2(fds[4], 0);
    dup2(fds[3], 1);
    dup2(fds[3], 2);
    dup2(fds[0], PL_FD_REQ);
    dup2(fds[1], PL_FD_REPLY);
    dup2(fds[2], PL_FD_SHM);
    for (int fd = PL_FD_SHM + 1; fd < 4096; fd++)
        close(fd);
    /* A root process ignores RLIMIT_NPROC, in a user namespace too: the
       worker runs as nobody, so that the process limit holds. */
    if (geteuid() == 0 && !profiling() && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) {
        dprintf(2, "cannot drop to uid 65534: %s\n", strerror(errno));
        _exit(127);
    }
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_FSIZE, env_limit("PRIMLAB_WORKER_FSIZE_MB", 64, 1 << 20));
    set_limit(RLIMIT_NOFILE, 1024);
    set_limit(RLIMIT_NPROC, env_limit("PRIMLAB_WORKER_NPROC", 512, 1));
    set_limit(RLIMIT_CPU, env_limit("PRIMLAB_WORKER_CPU_S", 3600, 1));
    /* Only what CUDA needs; never PRIMLAB_SEED or anything of the grader's. */
    static char env_store[6][PATH_MAX + 32];
    char *envp[10];
    int e = 0;
    static const char *const pass[] = {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                       "NVIDIA_VISIBLE_DEVICES"};
    for (size_t i = 0; i < sizeof pass / sizeof pass[0]; i++) {
        const char *v = getenv(pass[i]);
        if (pinned && !strcmp(pass[i], "CUDA_VISIBLE_DEVICES"))
            v = pin.uuids;
        if (v && strlen(v) < PATH_MAX) {
            snprintf(env_store[e], sizeof env_store[e], "%s=%s", pass[i], v);
            envp[e] = env_store[e];
            e++;
        }
    }
    envp[e++] = "HOME=/tmp";
    /* glibc's fatal messages ("free(): invalid next size", "stack smashing
       detected") go to /dev/tty without this: past the grader, to the
       instructor's terminal, unlabelled. On stderr they reach the log and
       the diagnosis (pl_find_heap_error). */
    envp[e++] = "LIBC_FATAL_STDERR_=1";
    envp[e] = NULL;
    char *argv[MAX_ARGS];
    static char store[64][PATH_MAX];
    if (bwrap) {
        sandbox_argv(s, bwrap, argv, store, pinned ? &pin : NULL);
    } else {
        argv[0] = s->worker, argv[1] = "--serve", argv[2] = s->o.no_gpu ? "--no-gpu" : NULL, argv[3] = NULL;
    }
    /* Address space (CUDA ran under 16 GiB on an H100) and heap, 0: none;
       last, since this process may hold more (a sanitizer's shadow) */
    rlim_t as = env_limit("PRIMLAB_WORKER_AS_GB", 256, (rlim_t)1 << 30);
    rlim_t data = env_limit("PRIMLAB_WORKER_DATA_GB", 64, (rlim_t)1 << 30);
    if (as)
        set_limit(RLIMIT_AS, as);
    if (data)
        set_limit(RLIMIT_DATA, data);
    extern char **environ;
    execve(argv[0], argv, profiling() ? environ : envp);
    dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* /proc/pid/stat: the parent's pid, and the CPU time in ms of the process
   and of its reaped children. 0 when the process is gone. */
static int proc_stat(int pid, int *ppid, double *cpu_ms)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    char *c = strrchr(buf, ')'); /* the name may hold anything, ')' too */
    unsigned long long ut, st, cut, cst;
    /* after the name: state ppid pgrp session tty tpgid flags minflt cminflt
       majflt cmajflt utime stime cutime cstime */
    if (!c || sscanf(c + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", ppid, &ut, &st, &cut,
                     &cst) != 5)
        return 0;
    *cpu_ms = (double)(ut + st + cut + cst) * 1e3 / (double)sysconf(_SC_CLK_TCK);
    return 1;
}

/* Without a sandbox there is no pid namespace to take a worker's children
   with it: this process is their subreaper (pl_session_open), so whatever
   the worker left is re-parented here, and is killed and reaped here. */
static void kill_orphans(void)
{
    for (int round = 0; round < 50; round++) {
        int found = 0, ppid;
        double cpu;
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            int pid = atoi(e->d_name);
            if (pid > 0 && proc_stat(pid, &ppid, &cpu) && ppid == (int)getpid()) {
                kill(pid, SIGKILL);
                found = 1;
            }
        }
        if (d)
            closedir(d);
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (!found)
            return;
        usleep(10000);
    }
}

static void kill_worker(pl_session *s)
{
    if (!s->alive)
        return;
    /* bwrap's death takes its pid namespace with it (--die-with-parent);
       without a sandbox, the worker's process group */
    kill(s->pid, SIGKILL);
    if (!s->sandboxed)
        kill(-s->pid, SIGKILL);
    close(s->req_fd);
    close(s->rep_fd);
    double until = pl_now() + 1.0; /* what it printed last */
    struct pollfd p = {.fd = s->out_fd, .events = POLLIN};
    while (pl_now() < until && poll(&p, 1, 100) > 0 && drain_output(s) > 0)
        ;
    close(s->out_fd);
    int st;
    while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!s->sandboxed)
        kill_orphans();
    s->alive = 0;
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
    case SIGXCPU: return "killed at the worker's CPU time limit";
    case SIGXFSZ: return "killed at the worker's file size limit (writing a huge file?)";
    default: return strsignal(sig);
    }
}

/* Reaps a worker that closed its reply channel, and says why it went. */
static void worker_died(pl_session *s, pl_result *r)
{
    int st = 0;
    close(s->req_fd);
    close(s->rep_fd);
    double until = pl_now() + 2.0;
    struct pollfd p = {.fd = s->out_fd, .events = POLLIN};
    while (pl_now() < until && poll(&p, 1, 100) > 0 && drain_output(s) > 0)
        ;
    pid_t w;
    until = pl_now() + 2.0;
    while ((w = waitpid(s->pid, &st, WNOHANG)) == 0 && pl_now() < until)
        usleep(2000);
    if (w == 0) { /* its first process lives on: end it, and everything it started */
        kill(s->pid, SIGKILL);
        if (!s->sandboxed)
            kill(-s->pid, SIGKILL);
        waitpid(s->pid, &st, 0);
    }
    if (!s->sandboxed)
        kill_orphans(); /* what it forked */
    close(s->out_fd);
    s->alive = 0;
    r->status = PL_CRASH;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : (s->sandboxed && code > 128 && code < 160) ? code - 128 : 0;
    /* what it printed on its way out, when it says more than the status:
       only the kit's own words for it, and a source file's name and line,
       go into the report (the code's prints stay in the log) */
    char msg[80], place[64];
    const char *cuda = pl_find_cuda_error(s->test_out);
    if (pl_find_heap_error(s->test_out, msg, sizeof msg)) {
        pl_bug_add(r->bugs, sizeof r->bugs, PL_BUG_HEAP);
        snprintf(r->reason, sizeof r->reason,
                 "crashed: the C library found its heap corrupted (\"%s\"): host code wrote past the end of a "
                 "malloc'd buffer?", msg);
        snprintf(r->detail, sizeof r->detail,
                 "  more elements copied into a host buffer than it holds (a padded size copied into a buffer of "
                 "n?), or a buffer freed twice\n");
    } else if (cuda && (code > 0 || sig)) {
        pl_cuda_error_place(s->test_out, cuda, place, sizeof place);
        r->cuda_error = cuda;
        pl_bug_add(r->bugs, sizeof r->bugs, PL_BUG_CUDA_ERROR);
        snprintf(r->reason, sizeof r->reason, "%s after printing a CUDA error, \"%s\"",
                 sig ? "crashed" : "exited", cuda);
        snprintf(r->detail, sizeof r->detail, "  %s%s, then %s %d\n", place[0] ? "reported at " : "its own check",
                 place, sig ? "signal" : "exit status", sig ? sig : code);
    } else if (sig) {
        pl_bug_add(r->bugs, sizeof r->bugs, PL_BUG_CRASH);
        snprintf(r->reason, sizeof r->reason, "crashed: %s", signal_words(sig));
    } else {
        pl_bug_add(r->bugs, sizeof r->bugs, PL_BUG_EXIT);
        snprintf(r->reason, sizeof r->reason, "exited with status %d before reporting a result (exit() called?)",
                 code);
    }
}

static int start_worker(pl_session *s, pl_result *r)
{
    int req[2], rep[2], out[2];
    if (pipe2(req, O_CLOEXEC) || pipe2(rep, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "cannot make a pipe: %s", strerror(errno));
        return 0;
    }
    const char *bwrap = find_bwrap();
    const char *req_env = getenv("PRIMLAB_REQUIRE_SANDBOX");
    int required = req_env && *req_env && strcmp(req_env, "0") != 0;
    const char *nosb = getenv("PRIMLAB_NO_SANDBOX");
    if (((nosb && *nosb && strcmp(nosb, "0") != 0) || profiling()) && !required)
        bwrap = NULL;
    if (!bwrap && required) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason,
                 "bubblewrap (bwrap) is not installed, and grading needs the sandbox: apt-get install bubblewrap");
        return 0;
    }
    static int warned;
    if (!bwrap && !profiling() && !warned++)
        fprintf(stderr, "warning: the student's code runs without a sandbox (bubblewrap missing or "
                        "PRIMLAB_NO_SANDBOX set): fine for your own code, never for grading others'\n");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "cannot fork: %s", strerror(errno));
        return 0;
    }
    if (pid == 0)
        child_exec(s, req[0], rep[1], out[1], bwrap);
    close(req[0]);
    close(rep[1]);
    close(out[1]);
    s->pid = pid;
    s->req_fd = req[1];
    s->rep_fd = rep[0];
    s->out_fd = out[0];
    s->alive = 1;
    s->starts++;
    s->sandboxed = bwrap != NULL;
    s->tail[0] = '\0';
    fcntl(s->out_fd, F_SETFL, O_NONBLOCK);
    return 1;
}

/* The worker's HELLO, after a start. */
static int greet(pl_session *s, pl_result *r)
{
    pl_req q;
    memset(&q, 0, sizeof q);
    q.kind = PL_REQ_HELLO;
    pl_reply rep;
    double wall;
    if (!pl_session_request(s, &q, &rep, pl_now() + s->o.start_s, &wall, r)) {
        /* The student's prints stay in the log; only bubblewrap's own
           complaint (the sandbox could not start) is worth a reason. */
        char why[sizeof r->reason];
        char *t = strstr(s->tail, "bwrap: ");
        if (t)
            t[strcspn(t, "\n")] = '\0';
        if (r->status == PL_TIMEOUT) {
            /* Nothing of the kit's runs before its HELLO but the loader and
               CUDA's registration (under a second on an H100 host): what
               took the limit is the code's, before main. */
            snprintf(why, sizeof why,
                     "did not start within %g s (PRIMLAB_TIMEOUT, a test's limit) and was killed: code that runs "
                     "before main, such as a static constructor, is the likely cause",
                     s->o.start_s);
        } else {
            snprintf(why, sizeof why, "the worker did not start (%.80s)%s%.100s", r->reason, t ? ": " : "",
                     t ? t : "");
            r->status = PL_ERROR;
        }
        memcpy(r->reason, why, sizeof why);
        memcpy(s->start_error, why, sizeof why);
        s->start_failures++;
        return 0;
    }
    s->start_failures = 0;
    s->hello = rep;
    return 1;
}

/* A worker started and greeted. bwrap may fail to make the sandbox's
   namespaces for want of processes (EAGAIN): every sandbox on this host
   runs as uid 65534 and counts in one RLIMIT_NPROC, which sandboxes
   starting side by side (JOBS, the tests) or another student's fork bomb,
   until its time limit, can fill for a while. No fault of this code's: it
   starts again, after 0.25, 0.5, ... 8 s (about 16 s in all). */
static int start_greeted(pl_session *s, pl_result *r)
{
    for (unsigned wait_ms = 250;; wait_ms *= 2) {
        if (!start_worker(s, r))
            return 0;
        if (greet(s, r))
            return 1;
        if (wait_ms > 8000 || !strstr(s->start_error, "namespace failed: Resource temporarily unavailable"))
            return 0;
        s->start_failures--;
        usleep(wait_ms * 1000);
    }
}

/* -------------------------------------------------------------- session */

/* The worker runs as nobody (child_exec), which may not reach the kit's
   folders: it runs a copy in a folder of its own that nobody can read. */
static int private_copy(pl_session *s, char *why, size_t cap)
{
    snprintf(s->copy_dir, sizeof s->copy_dir, "/tmp/primlab-worker-XXXXXX");
    int in = open(s->worker, O_RDONLY | O_CLOEXEC), out = -1;
    struct stat st;
    if (!mkdtemp(s->copy_dir) || chmod(s->copy_dir, 0711) != 0 || in < 0 || fstat(in, &st) != 0) {
        snprintf(why, cap, "cannot copy the worker for the sandbox: %s", strerror(errno));
        goto fail;
    }
    const char *base = strrchr(s->worker, '/');
    char dst[PATH_MAX];
    snprintf(dst, sizeof dst, "%.3000s/%.1000s", s->copy_dir, base ? base + 1 : s->worker);
    out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    off_t off = 0;
    while (out >= 0 && off < st.st_size && sendfile(out, in, &off, (size_t)(st.st_size - off)) > 0)
        ;
    if (out < 0 || off != st.st_size || fchmod(out, 0755) != 0) {
        snprintf(why, cap, "cannot copy the worker for the sandbox: %s", strerror(errno));
        goto fail;
    }
    close(in);
    close(out);
    snprintf(s->worker, sizeof s->worker, "%s", dst);
    return 1;
fail:
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return 0;
}

static void remove_copy(pl_session *s)
{
    if (!s->copy_dir[0])
        return;
    unlink(s->worker);
    rmdir(s->copy_dir);
}

unsigned char *pl_session_shm(pl_session *s, size_t bytes)
{
    if (bytes <= s->shm_bytes)
        return s->shm;
    size_t grow = s->shm_bytes ? s->shm_bytes : (size_t)16 << 20;
    while (grow < bytes)
        grow *= 2;
    if (ftruncate(s->shm_fd, (off_t)grow) != 0)
        return NULL;
    void *p = mmap(NULL, grow, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm_fd, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (s->shm)
        munmap(s->shm, s->shm_bytes);
    s->shm = p;
    s->shm_bytes = grow;
    s->shm_faulted = 0; /* a new mapping: its page tables are empty */
    return s->shm;
}

size_t *pl_session_faulted(pl_session *s) { return &s->shm_faulted; }

int pl_session_starts(const pl_session *s) { return s->starts; }

pl_session *pl_session_open(const pl_session_opts *o, char *why, size_t cap)
{
    signal(SIGPIPE, SIG_IGN); /* a dead worker is seen as EPIPE */
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* see kill_orphans */
    pl_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    s->o = *o;
    if (s->o.start_s <= 0)
        s->o.start_s = 60;
    if (!realpath(o->worker, s->origin) || !realpath(o->worker, s->worker)) {
        snprintf(why, cap, "no worker '%s': %s", o->worker, strerror(errno));
        free(s);
        return NULL;
    }
    if (geteuid() == 0 && !profiling() && !private_copy(s, why, cap)) {
        free(s);
        return NULL;
    }
    s->shm_fd = memfd_create("primlab-shm", MFD_CLOEXEC);
    if (s->shm_fd < 0 || !pl_session_shm(s, (size_t)16 << 20)) {
        snprintf(why, cap, "cannot make the shared region: %s", strerror(errno));
        free(s);
        return NULL;
    }
    if (o->log && !(s->log = fopen(o->log, "w")))
        fprintf(stderr, "warning: cannot write the log '%s': %s\n", o->log, strerror(errno));
    /* nonces no worker can guess ahead */
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd < 0 || read(fd, &s->nonce, sizeof s->nonce) != (ssize_t)sizeof s->nonce)
        s->nonce = (uint64_t)pl_now() * 2654435761u ^ (uint64_t)getpid();
    if (fd >= 0)
        close(fd);
    pl_result r;
    memset(&r, 0, sizeof r);
    if (!start_greeted(s, &r)) {
        snprintf(why, cap, "%s", r.reason);
        pl_session_close(s);
        return NULL;
    }
    return s;
}

void pl_session_restart(pl_session *s) { kill_worker(s); }

void pl_session_close(pl_session *s)
{
    if (!s)
        return;
    if (s->alive) {
        pl_req q;
        memset(&q, 0, sizeof q);
        q.magic = PL_PROTO_MAGIC;
        q.kind = PL_REQ_QUIT;
        write_all(s->req_fd, &q, sizeof q);
        kill_worker(s); /* whatever it started goes with it */
    }
    if (s->log)
        fclose(s->log);
    remove_copy(s);
    if (s->shm)
        munmap(s->shm, s->shm_bytes);
    close(s->shm_fd);
    free(s);
}

int pl_session_start(pl_session *s, pl_result *r)
{
    if (s->alive)
        return 1;
    if (s->start_failures >= 2) { /* it will not start: no more waiting for it */
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "%s", s->start_error);
        return 0;
    }
    return start_greeted(s, r);
}

/* Control bytes of a name a worker sent, '?' in their place. */
static void one_line(char *name)
{
    for (char *c = name; *c; c++)
        *c = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
}


int pl_session_request(pl_session *s, pl_req *q, pl_reply *rep, double deadline, double *wall_ms, pl_result *r)
{
    if (!pl_session_start(s, r))
        return 0;
    q->magic = PL_PROTO_MAGIC;
    q->nonce = ++s->nonce;
    q->shm_bytes = s->shm_bytes;
    double t0 = pl_now();
    size_t got = 0;
    if (write_all(s->req_fd, q, sizeof *q) != 0) {
        worker_died(s, r);
        return 0;
    }
    for (;;) {
        double left = deadline - pl_now();
        if (left <= 0) {
            kill_worker(s);
            r->status = PL_TIMEOUT;
            snprintf(r->reason, sizeof r->reason,
                     "timed out and was killed (a kernel or loop that never finishes?)");
            return 0;
        }
        struct pollfd p[2] = {{.fd = s->rep_fd, .events = POLLIN}, {.fd = s->out_fd, .events = POLLIN}};
        int k = poll(p, 2, (int)(left * 1000) + 1);
        if (k < 0 && errno != EINTR) {
            kill_worker(s);
            r->status = PL_ERROR;
            snprintf(r->reason, sizeof r->reason, "poll: %s", strerror(errno));
            return 0;
        }
        if (k <= 0)
            continue;
        if (p[1].revents)
            drain_output(s);
        if (p[0].revents) {
            ssize_t n = read(s->rep_fd, (char *)rep + got, sizeof *rep - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                worker_died(s, r);
                return 0;
            }
            got += (size_t)n;
            if (got == sizeof *rep)
                break;
        }
    }
    *wall_ms = (pl_now() - t0) * 1e3;
    if (rep->magic != PL_PROTO_MAGIC || rep->nonce != q->nonce) {
        kill_worker(s);
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason,
                 "the worker sent something that is not the answer to its request (its reply channel was "
                 "written by other code?)");
        return 0;
    }
    rep->reason[sizeof rep->reason - 1] = '\0';
    rep->device[sizeof rep->device - 1] = '\0';
    rep->vendor[sizeof rep->vendor - 1] = '\0';
    /* The names go into data files' comment lines, one line each: a worker
       (the submission's) gets no line break or control byte into them. */
    one_line(rep->device);
    one_line(rep->vendor);
    if (rep->status == PL_W_CALL_ERROR)
        kill_worker(s); /* it exits after such a reply; make sure of it */
    return 1;
}
