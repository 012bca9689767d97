/* harness/parent/timing.c: median and CPU timing (see timing.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "timing.h"

#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The quota over the period of a cgroup v2 cpu.max ("max 100000": none), or
   of v1's two files; 0 when there is none or it cannot be read. */
static double cgroup_cpus(void)
{
    long long quota = 0, period = 0;
    char word[32];
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f) {
        if (fscanf(f, "%31s %lld", word, &period) == 2 && strcmp(word, "max") != 0)
            quota = atoll(word);
        fclose(f);
    } else if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r"))) {
        if (fscanf(f, "%lld", &quota) != 1)
            quota = 0;
        fclose(f);
        if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r"))) {
            if (fscanf(f, "%lld", &period) != 1)
                period = 0;
            fclose(f);
        }
    }
    return quota > 0 && period > 0 ? (double)quota / (double)period : 0;
}

int pl_cpu_budget(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    double q = cgroup_cpus();
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
