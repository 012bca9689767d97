/* kernels_ref/cpu/scan.c: serial and OpenMP prefix sums (see scan.h). */
#include "scan.h"

#include <omp.h>
#include <stdlib.h>

void scan_cpu_inclusive(const int *in, int *out, size_t n)
{
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc += (unsigned)in[i];
        out[i] = (int)acc;
    }
}

void scan_cpu_exclusive(const int *in, int *out, size_t n)
{
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned x = (unsigned)in[i]; /* read before write: in may be out */
        out[i] = (int)acc;
        acc += x;
    }
}

/* Below this size a parallel region costs more than it saves. */
#define OMP_MIN_N 32768

static void scan_omp(const int *in, int *out, size_t n, int inclusive)
{
    if (n < OMP_MIN_N) {
        (inclusive ? scan_cpu_inclusive : scan_cpu_exclusive)(in, out, n);
        return;
    }
    int nt = omp_get_max_threads();
    unsigned *offset = calloc((size_t)nt + 1, sizeof *offset);
    if (!offset) { /* no memory for 64 counters: still give the right answer */
        (inclusive ? scan_cpu_inclusive : scan_cpu_exclusive)(in, out, n);
        return;
    }
    #pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num();
        int team = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)team;
        size_t hi = n * (size_t)(t + 1) / (size_t)team;

        unsigned sum = 0; /* pass 1: this chunk's total */
        for (size_t i = lo; i < hi; i++)
            sum += (unsigned)in[i];
        offset[t + 1] = sum;
        #pragma omp barrier
        #pragma omp single
        for (int k = 1; k <= team; k++)
            offset[k] += offset[k - 1];
        /* implicit barrier after single: offset[t] now holds the prefix */

        unsigned acc = offset[t]; /* pass 2: scan the chunk from its offset */
        if (inclusive) {
            for (size_t i = lo; i < hi; i++) {
                acc += (unsigned)in[i];
                out[i] = (int)acc;
            }
        } else {
            for (size_t i = lo; i < hi; i++) {
                unsigned x = (unsigned)in[i];
                out[i] = (int)acc;
                acc += x;
            }
        }
    }
    free(offset);
}

void scan_omp_inclusive(const int *in, int *out, size_t n) { scan_omp(in, out, n, 1); }
void scan_omp_exclusive(const int *in, int *out, size_t n) { scan_omp(in, out, n, 0); }

/* ------------------------------------------------------------ float (lab 08) */

void scan_cpu_inclusive_f32(const float *in, float *out, size_t n)
{
    float acc = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = acc += in[i];
}

void scan_cpu_exclusive_f32(const float *in, float *out, size_t n)
{
    float acc = 0;
    for (size_t i = 0; i < n; i++) {
        float x = in[i]; /* read before write: in may be out */
        out[i] = acc;
        acc += x;
    }
}

static void scan_omp_f32(const float *in, float *out, size_t n, int inclusive)
{
    int nt = omp_get_max_threads();
    float *offset = n < OMP_MIN_N ? NULL : calloc((size_t)nt + 1, sizeof *offset);
    if (!offset) {
        (inclusive ? scan_cpu_inclusive_f32 : scan_cpu_exclusive_f32)(in, out, n);
        return;
    }
    #pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)team, hi = n * (size_t)(t + 1) / (size_t)team;
        float sum = 0;
        for (size_t i = lo; i < hi; i++)
            sum += in[i];
        offset[t + 1] = sum;
        #pragma omp barrier
        #pragma omp single
        for (int k = 1; k <= team; k++)
            offset[k] += offset[k - 1];
        float acc = offset[t];
        for (size_t i = lo; i < hi; i++) {
            float x = in[i];
            out[i] = inclusive ? acc + x : acc;
            acc += x;
        }
    }
    free(offset);
}

void scan_omp_inclusive_f32(const float *in, float *out, size_t n) { scan_omp_f32(in, out, n, 1); }
void scan_omp_exclusive_f32(const float *in, float *out, size_t n) { scan_omp_f32(in, out, n, 0); }

void scan_exact_f32(const float *in, double *out, size_t n, int inclusive)
{
    double acc = 0;
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = inclusive ? acc + x : acc;
        acc += x;
    }
}
