/* kernels_ref/cpu/segscan.c: see segscan.h. */
#include "segscan.h"

#include <math.h>
#include <stdlib.h>

#define U_F32 0x1p-24
#define U_F64 0x1p-53
#define UNDERFLOW_PER_TERM 0x1p-125

static double gamma_of(double m, double u) { return m * u >= 0.5 ? INFINITY : m * u / (1 - m * u); }

/* One row, [lo, hi), one iteration, in place on cur (and E). */
static void row_step(long lo, long hi, const double *xb, double *cur, double *E, int variant, long tile)
{
    double sum = 0, abs_sum = 0, carried = 0;
    long m = 0;
    for (long j = lo; j < hi; j++) {
        if (variant == PL_SEG_TILE && tile > 0 && j > lo && j % tile == 0)
            sum = 0, abs_sum = 0, carried = 0, m = 0;
        double p = cur[j] * xb[j];
        m++;
        if (E) {
            double e = E[j] * fabs(xb[j]);
            carried += e;
            abs_sum += fabs(p) + e;
            E[j] = (carried + gamma_of((double)m + 1, U_F32) * abs_sum +
                    gamma_of((double)m, U_F64) * abs_sum + (double)m * UNDERFLOW_PER_TERM) * 1.01;
        }
        if (variant == PL_SEG_EXCLUSIVE) {
            cur[j] = sum;
            sum += p;
        } else {
            sum += p;
            cur[j] = sum;
        }
    }
}

void pl_segspmv_ref(long rows, const int *s, const int *k, const float *x, long cols, const float *a, int iters,
                    int variant, long tile, int parallel, double *want, double *bound)
{
    long n = rows > 0 ? s[rows] : 0;
    if (n <= 0)
        return;
    double *xb = malloc((size_t)n * sizeof *xb);
    if (!xb) { /* no reference: every element fails, and says so */
        for (long j = 0; j < n; j++)
            want[j] = NAN;
        return;
    }
#pragma omp parallel for schedule(static) if (parallel && n > 65536)
    for (long j = 0; j < n; j++) {
        long c = variant == PL_SEG_NO_GATHER ? j : k[j];
        xb[j] = c >= 0 && c < cols ? (double)x[c] : NAN;
        want[j] = a[j];
        if (bound)
            bound[j] = 0;
    }
    for (int t = 0; t < iters; t++) {
        if (variant == PL_SEG_NO_RESTART) {
            row_step(0, n, xb, want, bound, variant, tile);
            continue;
        }
#pragma omp parallel for schedule(dynamic, 64) if (parallel && rows > 1)
        for (long r = 0; r < rows; r++)
            row_step(s[r], s[r + 1], xb, want, bound, variant, tile);
    }
    free(xb);
}
