/* harness/parent/timing.c: median and CPU timing (see timing.h). */
#include "timing.h"

#include <omp.h>
#include <stdlib.h>

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
