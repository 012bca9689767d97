/* harness/parent/timing.c: median and CPU timing (see timing.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "timing.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pl_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double pl_median_over(const double *clock, const double *ev, int n)
{
    double tmp[64];
    n = n < 64 ? n : 64;
    for (int k = 0; k < n; k++)
        tmp[k] = clock[k] - ev[k];
    return n > 0 ? pl_median(tmp, n) : 0;
}

void pl_clock_allowance(const pl_rep_times *y, double *call_over, double *window_over)
{
    int n = y->reps < 64 ? y->reps : 64;
    *call_over = *window_over = 0;
    if (n < 1)
        return;
    *call_over = pl_median_over(y->call, y->ev, n);
    for (int k = 0; k < n; k++) {
        double over = y->window[k] - y->ev[k];
        if (k == 0 || over > *window_over)
            *window_over = over;
    }
}

double pl_believed_ms(const pl_rep_times *code, const pl_rep_times *y, double *event_med, double *clock_med,
                      int *clock_used)
{
    double ev[64], in_call[64], call_b[64], win_b[64], call_over = 0, window_over = 0;
    int n = code->reps < 64 ? code->reps : 64;
    if (y)
        pl_clock_allowance(y, &call_over, &window_over);
    for (int k = 0; k < n; k++) {
        double b = code->call[k] - call_over - PL_CLOCK_SLACK_MS - PL_CLOCK_SLACK_FRAC * code->call[k];
        call_b[k] = b > 0 ? b : 0;
        ev[k] = code->ev[k];
        in_call[k] = ev[k] >= call_b[k] ? ev[k] : call_b[k];
        double w = code->window[k], bw = w - window_over - PL_CLOCK_SLACK_MS - PL_CLOCK_SLACK_FRAC * w;
        win_b[k] = y && bw > 0 ? bw : 0;
    }
    if (n < 1) {
        *event_med = *clock_med = 0, *clock_used = 0;
        return 0;
    }
    double t_call = pl_median(in_call, n), t_win = pl_median(win_b, n), cb = pl_median(call_b, n);
    double t = t_call >= t_win ? t_call : t_win;
    *event_med = pl_median(ev, n);
    *clock_used = t > *event_med;
    *clock_med = *clock_used ? t : cb >= t_win ? cb : t_win;
    return t;
}

double pl_fastest_ms(const pl_rep_times *t)
{
    double fastest = 0;
    for (int k = 0; k < t->reps && k < 64; k++)
        if (t->ev[k] > 0 && (fastest == 0 || t->ev[k] < fastest))
            fastest = t->ev[k];
    return fastest;
}

int pl_timing_disturbed(const pl_rep_times *t, double time_ms)
{
    double fastest = pl_fastest_ms(t);
    return fastest > 0 && time_ms > PL_DISTURBED * fastest;
}

double pl_time_cpu_ms(void (*call)(void *), void *arg, int reps, double budget_s, int *done)
{
    double v[256];
    if (reps > 256)
        reps = 256;
    if (reps < 1)
        reps = 1;
    double t_warm = omp_get_wtime();
    call(arg); /* warm-up: page faults, thread pool start */
    t_warm = omp_get_wtime() - t_warm;
    if (t_warm > budget_s) { /* one call is over the budget: it is the sample */
        if (done)
            *done = 1;
        return t_warm * 1e3;
    }
    int k = 0;
    double t_begin = omp_get_wtime();
    while (k < reps) {
        double t0 = omp_get_wtime();
        call(arg);
        v[k++] = (omp_get_wtime() - t0) * 1e3;
        if (k >= 3 && omp_get_wtime() - t_begin > budget_s)
            break;
    }
    if (done)
        *done = k;
    return pl_median(v, k);
}

/* The quota over the period, in CPUs, of one cgroup folder: v2's cpu.max
   ("max 100000": none), or v1's cpu.cfs_quota_us (-1: none) and
   cpu.cfs_period_us; 0 when there is none or it cannot be read. */
static double quota_at(const char *dir, int v1)
{
    char path[PATH_MAX], word[32];
    long long quota = 0, period = 0;
    FILE *f;
    if (!v1) {
        snprintf(path, sizeof path, "%s/cpu.max", dir);
        if (!(f = fopen(path, "r")))
            return 0;
        if (fscanf(f, "%31s %lld", word, &period) == 2 && strcmp(word, "max") != 0)
            quota = atoll(word);
        fclose(f);
    } else {
        snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
        if (!(f = fopen(path, "r")))
            return 0;
        if (fscanf(f, "%lld", &quota) != 1)
            quota = 0;
        fclose(f);
        snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%lld", &period) != 1)
                period = 0;
            fclose(f);
        }
    }
    return quota > 0 && period > 0 ? (double)quota / (double)period : 0;
}

/* Whether the comma-separated list has the word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *c = list;; c++) {
        if (!strncmp(c, word, n) && (c[n] == ',' || c[n] == '\0'))
            return 1;
        if (!(c = strchr(c, ',')))
            return 0;
    }
}

/* The smallest quota of `dir` and of every folder above it up to `base`. */
static double quota_up(const char *base, const char *rel, int v1, double best)
{
    char dir[PATH_MAX];
    size_t bl = strlen(base);
    if (snprintf(dir, sizeof dir, "%s%s%s", base, *rel == '/' ? "" : "/", rel) >= (int)sizeof dir)
        return best;
    for (;;) {
        double q = quota_at(dir, v1);
        if (q > 0 && (best == 0 || q < best))
            best = q;
        char *slash = strlen(dir) > bl ? strrchr(dir + bl, '/') : NULL;
        if (!slash)
            return best;
        *slash = '\0';
    }
}

double pl_cgroup_cpus(const char *root, const char *self)
{
    double best = 0;
    char line[PATH_MAX + 64], base[PATH_MAX];
    FILE *f = fopen(self, "r");
    if (!f) { /* no /proc: the hierarchy's top only, v2 then v1's cpu controller */
        snprintf(base, sizeof base, "%s/cpu", root);
        best = quota_at(root, 0);
        return best > 0 ? best : quota_at(base, 1);
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *ctrl = strchr(line, ':'), *rel = ctrl ? strchr(ctrl + 1, ':') : NULL;
        if (!rel)
            continue;
        *ctrl++ = '\0', *rel++ = '\0';
        if (!*ctrl) { /* v2: "0::/path" */
            best = quota_up(root, rel, 0, best);
        } else if (has_word(ctrl, "cpu")) { /* v1: "4:cpu,cpuacct:/path", mounted under either name */
            struct stat st;
            snprintf(base, sizeof base, "%s/%s", root, ctrl);
            if (stat(base, &st) != 0 || !S_ISDIR(st.st_mode))
                snprintf(base, sizeof base, "%s/cpu", root);
            best = quota_up(base, rel, 1, best);
        }
    }
    fclose(f);
    return best;
}

int pl_cpu_budget(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    double q = pl_cgroup_cpus("/sys/fs/cgroup", "/proc/self/cgroup");
    if (q > 0 && q < n)
        n = (int)ceil(q);
    return n > 0 ? n : 1;
}

int pl_omp_team_fit(void)
{
    const char *env = getenv("OMP_NUM_THREADS");
    if (!env || !*env)
        omp_set_num_threads(pl_cpu_budget());
    return omp_get_max_threads();
}

int pl_threads_running(void)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return -1;
    long self = syscall(SYS_gettid);
    int running = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || atol(e->d_name) == self)
            continue;
        char path[64], buf[256];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue; /* the thread has just gone */
        ssize_t got = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (got <= 0)
            continue;
        buf[got] = 0;
        const char *paren = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
        running += paren && paren[1] == ' ' && paren[2] == 'R';
    }
    closedir(dir);
    return running;
}

int pl_settle_threads(double cap_s)
{
    double end = omp_get_wtime() + cap_s;
    for (;;) {
        int running = pl_threads_running();
        if (running == 0)
            return 1;
        double left = end - omp_get_wtime();
        if (left <= 0)
            return 0;
        if (running < 0 || left < 200e-6) {
            struct timespec rest = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
            nanosleep(&rest, NULL);
            return 0;
        }
        struct timespec poll = {0, 200 * 1000};
        nanosleep(&poll, NULL);
    }
}

int pl_quiet_threads(double cap_s)
{
#if !defined(__GNUC__) || defined(__clang__) || __GNUC__ >= 10 /* OpenMP 5.0's pause: GCC 10 and later */
    omp_pause_resource_all(omp_pause_soft);
#endif
    return pl_settle_threads(cap_s);
}
