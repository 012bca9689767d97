/* kernels_ref/cpu/spmv.c: CSR y = A x in compensated double, and the
 * tolerance of a GPU row (see spmv.h). */
#include "spmv.h"

#include "reduce.h"

#include <float.h>
#include <math.h>

/* Sum2 needs every double operation rounded to double. */
#if FLT_EVAL_METHOD != 0
#error "spmv.c needs FLT_EVAL_METHOD 0 (SSE arithmetic, not x87)"
#endif

/* Knuth's TwoSum: s + e == a + b exactly, s = fl(a + b). */
static inline void two_sum(double a, double b, double *s, double *e)
{
    double t = a + b, z = t - a;
    *e = (a - (t - z)) + (b - z);
    *s = t;
}

/* One row of floats: products exact in double, summed by Sum2; |p| likewise. */
static void row_f32(long lo, long hi, const int *col, const float *val, const float *x, double *y, double *abs)
{
    double s = 0, q = 0, sa = 0, qa = 0, e;
    for (long k = lo; k < hi; k++) {
        double p = (double)val[k] * (double)x[col[k]]; /* 24 + 24 bits: exact */
        two_sum(s, p, &s, &e);
        q += e;
        two_sum(sa, fabs(p), &sa, &e);
        qa += e;
    }
    *y = s + q;
    *abs = sa + qa;
}

/* One row of doubles: Dot2, each product p + ep exactly (fma), then Sum2. */
static void row_f64(long lo, long hi, const int *col, const double *val, const double *x, double *y, double *abs)
{
    double s = 0, q = 0, sa = 0, qa = 0, e;
    for (long k = lo; k < hi; k++) {
        double a = val[k], b = x[col[k]];
        double p = a * b, ep = fma(a, b, -p);
        two_sum(s, p, &s, &e);
        q += e + ep;
        two_sum(sa, fabs(p), &sa, &e);
        qa += e + (p < 0 ? -ep : ep); /* |a b| = |p| + sign(p) ep */
    }
    *y = s + q;
    *abs = sa + qa;
}

/* Every row, on this thread (parallel = 0: the serial reference, the
   oracle) or on OpenMP's threads; the same loop either way. */
static void rows_f32(long rows, const long *row_ptr, const int *col, const float *val, const float *x, double *y,
                     double *row_abs, int parallel)
{
    #pragma omp parallel for schedule(dynamic, 256) if (parallel && rows >= 1024)
    for (long r = 0; r < rows; r++) {
        double unused;
        row_f32(row_ptr[r], row_ptr[r + 1], col, val, x, &y[r], row_abs ? &row_abs[r] : &unused);
    }
}

static void rows_f64(long rows, const long *row_ptr, const int *col, const double *val, const double *x, double *y,
                     double *row_abs, int parallel)
{
    #pragma omp parallel for schedule(dynamic, 256) if (parallel && rows >= 1024)
    for (long r = 0; r < rows; r++) {
        double unused;
        row_f64(row_ptr[r], row_ptr[r + 1], col, val, x, &y[r], row_abs ? &row_abs[r] : &unused);
    }
}

void pl_spmv_cpu_f32(long rows, const long *row_ptr, const int *col, const float *val, const float *x, double *y,
                     double *row_abs)
{
    rows_f32(rows, row_ptr, col, val, x, y, row_abs, 0);
}

void pl_spmv_omp_f32(long rows, const long *row_ptr, const int *col, const float *val, const float *x, double *y,
                     double *row_abs)
{
    rows_f32(rows, row_ptr, col, val, x, y, row_abs, 1);
}

void pl_spmv_cpu_f64(long rows, const long *row_ptr, const int *col, const double *val, const double *x, double *y,
                     double *row_abs)
{
    rows_f64(rows, row_ptr, col, val, x, y, row_abs, 0);
}

void pl_spmv_omp_f64(long rows, const long *row_ptr, const int *col, const double *val, const double *x, double *y,
                     double *row_abs)
{
    rows_f64(rows, row_ptr, col, val, x, y, row_abs, 1);
}

/* While gamma_{len+1}(u) <= 1, the 2^-50 + 2 g^2 covers the reference's
   error (2^-53 |y| + g^2 abs, g = gamma_len(2^-53)), that of row_abs (the
   same) and the roundings of this function. */
double pl_spmv_row_tolerance(long len, double row_abs, double unit_roundoff)
{
    if (len <= 0)
        return 0;
    double k = (double)len + 1;
    if (k * unit_roundoff >= 0.5)
        return INFINITY;
    double g = pl_gamma((double)len, 0x1p-53);
    double tiny = unit_roundoff == 0x1p-24 ? FLT_MIN : unit_roundoff == 0x1p-53 ? DBL_MIN : 0;
    return (pl_gamma(k, unit_roundoff) + 0x1p-50 + 2 * g * g) * row_abs + 3 * (double)len * unit_roundoff * tiny;
}
