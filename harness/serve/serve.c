/* harness/serve/serve.c: build/primlab-serve, the check service (issue 55;
 * docs/check-service.md). make serve starts it.
 *
 *   primlab-serve              settings from the environment (serve.h:
 *                              SERVE_ADDR, SERVE_DIR, SERVE_GPUS, ...)
 *
 * It takes SERVE_DIR for itself (a lock: one service a folder), recovers
 * what a service that died left (claim_recover), listens on SERVE_ADDR,
 * prints one line "primlab-serve: listening on http://HOST:PORT" (also in
 * SERVE_DIR/serve.addr) and serves until SIGTERM or SIGINT; then it stops
 * taking requests, hands each running job back to the queue and exits 0.
 * A setting it cannot use: one line, exit 2. */
#define _GNU_SOURCE
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

serve_config cfg;

static pl_queue *queue;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;

pl_queue *db_lock(void)
{
    pthread_mutex_lock(&queue_lock);
    return queue;
}

void db_unlock(void) { pthread_mutex_unlock(&queue_lock); }

static void vlog(const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    fprintf(stderr, "primlab-serve: %s\n", line);
}

void serve_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void pathf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static _Noreturn void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
    exit(2);
}

/* ------------------------------------------------------------- settings */

static const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

/* A whole number from NAME in [lo, hi], or dflt when unset. */
static long env_long(const char *name, long dflt, long lo, long hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || n < lo || n > hi)
        die("%s='%s' is not a whole number from %ld to %ld", name, v, lo, hi);
    return n;
}

/* The GPUs: SERVE_GPUS ("0 1", "0,1"; "none": no claimer, jobs wait), else
   two slots for a dry run, else every GPU nvidia-smi lists; with the
   models nvidia-smi names. On a Slurm cluster (SERVE_SLURM=1) slots, not
   GPUs: SERVE_SLOTS jobs at once (2; 0: none runs), each given its GPU by
   Slurm. */
static void find_gpus(void)
{
    if (cfg.slurm) {
        cfg.ngpus = (int)env_long("SERVE_SLOTS", 2, 0, SERVE_MAX_GPUS);
        for (int i = 0; i < cfg.ngpus; i++) {
            cfg.gpus[i] = i;
            snprintf(cfg.models[i], sizeof cfg.models[i], "Slurm");
        }
        return;
    }
    char models[SERVE_MAX_GPUS][64] = {{0}};
    FILE *p = cfg.dry ? NULL : popen("nvidia-smi --query-gpu=index,name --format=csv,noheader 2>/dev/null", "r");
    int listed[SERVE_MAX_GPUS], nlisted = 0;
    char line[256];
    while (p && fgets(line, sizeof line, p)) {
        int i;
        char name[128] = "";
        if (sscanf(line, "%d, %127[^\n]", &i, name) >= 1 && i >= 0 && i < SERVE_MAX_GPUS) {
            snprintf(models[i], sizeof models[i], "%s", name);
            if (nlisted < SERVE_MAX_GPUS)
                listed[nlisted++] = i;
        }
    }
    if (p)
        pclose(p);
    const char *want = getenv("SERVE_GPUS");
    if (want && *want) {
        if (!strcmp(want, "none"))
            return;
        char copy[256];
        snprintf(copy, sizeof copy, "%s", want);
        for (char *save, *t = strtok_r(copy, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
            char *end;
            long g = strtol(t, &end, 10);
            if (*end || g < 0 || g >= SERVE_MAX_GPUS || cfg.ngpus == SERVE_MAX_GPUS)
                die("SERVE_GPUS='%s': GPU indices 0 to %d, a space between (or none)", want, SERVE_MAX_GPUS - 1);
            cfg.gpus[cfg.ngpus++] = (int)g;
        }
    } else if (cfg.dry) {
        cfg.gpus[cfg.ngpus++] = 0;
        cfg.gpus[cfg.ngpus++] = 1;
    } else {
        for (int i = 0; i < nlisted; i++)
            cfg.gpus[cfg.ngpus++] = listed[i];
        if (!cfg.ngpus)
            die("no GPU: nvidia-smi lists none here (SERVE_GPUS=\"0 1\" names them, SERVE_DRY=1 runs dry, "
                "SERVE_GPUS=none queues without running)");
    }
    for (int i = 0; i < cfg.ngpus; i++) {
        const char *m = cfg.dry ? "dry run (no GPU)" : models[cfg.gpus[i]][0] ? models[cfg.gpus[i]] : "GPU";
        snprintf(cfg.models[i], sizeof cfg.models[i], "%s", m);
    }
}

/* SERVE_LABS, else the kit's labs/NN-name folders. */
static void find_labs(void)
{
    const char *v = getenv("SERVE_LABS");
    if (v && *v) {
        snprintf(cfg.labs, sizeof cfg.labs, "%s", v);
        return;
    }
    FILE *p = popen("ls -d labs/[0-9][0-9]-*/ 2>/dev/null | cut -c 6-7", "r");
    char line[64];
    while (p && fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        size_t n = strlen(cfg.labs);
        snprintf(cfg.labs + n, sizeof cfg.labs - n, "%s%s", n ? " " : "", line);
    }
    if (p)
        pclose(p);
    if (!cfg.labs[0])
        die("no lab: SERVE_LABS is empty and there is no labs/NN-name folder here (make serve runs from the kit)");
}

static void read_config(void)
{
    const char *home = env_or("HOME", "/tmp");
    char dflt[PATH_MAX];
    pathf(dflt, sizeof dflt, "%s/.local/share/primlab", home);
    const char *dir = env_or("SERVE_DIR", dflt);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        die("SERVE_DIR='%s': %s", dir, strerror(errno));
    char real[PATH_MAX];
    if (!realpath(dir, real))
        die("SERVE_DIR='%s': %s", dir, strerror(errno));
    if (strlen(real) >= SERVE_DIR_MAX)
        die("SERVE_DIR='%s': a path of at most %d bytes", dir, SERVE_DIR_MAX - 1);
    snprintf(cfg.dir, sizeof cfg.dir, "%s", real);
    char db[PATH_MAX + 16];
    pathf(db, sizeof db, "%s/serve.db", cfg.dir);
    snprintf(cfg.db, sizeof cfg.db, "%s", env_or("SERVE_DB", db));
    snprintf(cfg.addr, sizeof cfg.addr, "%s", env_or("SERVE_ADDR", "127.0.0.1:8750"));
    /* a kit with solutions/ grades in its grading kit (make serve makes it
       current first), a handout or a grading kit in itself */
    const char *runner = env_or("SERVE_RUNNER", access("solutions", F_OK) == 0
                                                    ? "build/grade-kit/harness/serve/run-job.sh"
                                                    : "harness/serve/run-job.sh");
    errno = 0;
    if (!realpath(runner, cfg.runner) || access(cfg.runner, X_OK) != 0)
        die("SERVE_RUNNER='%s': %s (the runner of one job, the grading kit's harness/serve/run-job.sh: make serve, "
            "or harness/grade.sh --kit, makes the kit)",
            runner, errno ? strerror(errno) : "not executable");
    cfg.dry = (int)env_long("SERVE_DRY", 0, 0, 1);
    cfg.slurm = (int)env_long("SERVE_SLURM", 0, 0, 1);
    cfg.max_upload = env_long("SERVE_MAX_UPLOAD", 1L << 20, 64, 1L << 30);
    cfg.job_timeout = (int)env_long("SERVE_JOB_TIMEOUT", 1200, 1, 7 * 86400);
    cfg.busy_pause = (int)env_long("SERVE_BUSY_PAUSE", 30, 1, 3600);
    cfg.log_max = env_long("SERVE_LOG_MAX", 1L << 20, 1024, 1L << 30);
    cfg.lim.per_hour = (int)env_long("SERVE_PER_HOUR", 12, 0, 1000000);
    cfg.lim.cap = (int)env_long("SERVE_CAP", 1000, 0, 10000000);
    cfg.rate = (double)env_long("SERVE_RATE", 10, 0, 100000);
    cfg.burst = (int)env_long("SERVE_BURST", 40, 1, 1000000);
    cfg.header_s = (int)env_long("SERVE_HEADER_S", 10, 1, 3600);
    cfg.request_s = (int)env_long("SERVE_REQUEST_S", 60, 1, 86400);
    cfg.conns = (int)env_long("SERVE_CONNS", 512, 1, 100000);
    cfg.threads = (int)env_long("SERVE_THREADS", 4, 1, 256);
    cfg.trust_proxy = (int)env_long("SERVE_TRUST_PROXY", 0, 0, 1);
    /* behind a proxy every connection comes from its address: the proxy
       limits each client's connections */
    cfg.per_ip = (int)env_long("SERVE_PER_IP", cfg.trust_proxy ? 0 : 32, 0, 100000);
    find_labs();
    find_gpus();
    FILE *b = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!b || !fgets(cfg.boot_id, sizeof cfg.boot_id, b))
        snprintf(cfg.boot_id, sizeof cfg.boot_id, "unknown");
    cfg.boot_id[strcspn(cfg.boot_id, "\n")] = '\0';
    if (b)
        fclose(b);
}

/* ------------------------------------------------------------ the start */

/* SERVE_DIR is this service's alone: a lock held while it runs (not by its
   runners: the descriptor closes on exec). */
static void take_dir(void)
{
    char path[PATH_MAX + 16];
    pathf(path, sizeof path, "%s/serve.lock", cfg.dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        die("'%s': %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        die("another primlab-serve (pid %s) serves SERVE_DIR '%s'", pid[0] ? pid : "?", cfg.dir);
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
        die("'%s': %s", path, strerror(errno));
    /* fd stays open: the lock lasts as long as the process */
    static const char *const subs[] = {"uploads", "jobs"};
    for (int i = 0; i < 2; i++) {
        pathf(path, sizeof path, "%s/%s", cfg.dir, subs[i]);
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            die("'%s': %s", path, strerror(errno));
    }
}

/* The listening socket for SERVE_ADDR (host:port, [v6]:port), its port
   into *port. */
static int listen_on(int *port)
{
    char host[128], *colon;
    snprintf(host, sizeof host, "%s", cfg.addr);
    colon = strrchr(host, ':');
    if (!colon)
        die("SERVE_ADDR='%s' is not HOST:PORT (127.0.0.1:8750)", cfg.addr);
    *colon = '\0';
    const char *service = colon + 1, *h = host;
    if (h[0] == '[' && colon[-1] == ']') {
        colon[-1] = '\0';
        h++;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    int rc = getaddrinfo(*h ? h : NULL, service, &hints, &res);
    if (rc != 0)
        die("SERVE_ADDR='%s': %s", cfg.addr, gai_strerror(rc));
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 128) != 0)
        die("SERVE_ADDR='%s': %s", cfg.addr, strerror(errno));
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &len);
    *port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                           : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        (void)argv;
        fprintf(stderr, "usage: primlab-serve (its settings in the environment: make serve; "
                        "docs/check-service.md)\n");
        return 2;
    }
    /* the threads are born with these blocked: main waits for them */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stderr, NULL, _IOLBF, 0);

    read_config();
    take_dir();
    char why[512];
    queue = pl_queue_open(cfg.db, 20000, why, sizeof why);
    if (!queue)
        die("%s", why);
    if (claim_recover(why, sizeof why) != 0 || board_start(why, sizeof why) != 0)
        die("%s", why);
    int port, fd = listen_on(&port);
    if (claim_start(why, sizeof why) != 0)
        die("%s", why);
    struct MHD_Daemon *d = http_start(fd, why, sizeof why);
    if (!d)
        die("%s", why);

    char host[128], url[192], path[PATH_MAX + 16];
    snprintf(host, sizeof host, "%s", cfg.addr);
    *strrchr(host, ':') = '\0';
    snprintf(url, sizeof url, "http://%s:%d", host, port);
    pathf(path, sizeof path, "%s/serve.addr", cfg.dir);
    FILE *a = fopen(path, "w");
    if (a) {
        fprintf(a, "%s\n", url);
        fclose(a);
    }
    serve_log("%d %s slot%s%s, labs %s, SERVE_DIR %s, runner %s", cfg.ngpus, cfg.slurm ? "Slurm" : "GPU",
              cfg.ngpus == 1 ? "" : "s",
              cfg.dry ? " (dry run)" : "", cfg.labs, cfg.dir, cfg.runner);
    serve_log("listening on %s", url);

    int sig = 0;
    sigwait(&stop, &sig);
    serve_log("%s: stopping", strsignal(sig));
    http_stop(d);
    int back = claim_stop();
    db_lock();
    pl_queue_close(queue);
    queue = NULL;
    db_unlock();
    serve_log("stopped (%d running job%s handed back to the queue)", back, back == 1 ? "" : "s");
    return 0;
}
