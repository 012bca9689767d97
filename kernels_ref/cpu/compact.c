/* kernels_ref/cpu/compact.c: CPU compaction (see compact.h). */
#include "compact.h"

#include "scan.h"

#include <omp.h>
#include <stdlib.h>

/* Branch-free: every element is stored at the cursor, which moves only past
   kept ones (a branch on random data mispredicts half the time). */
static size_t keep_positive(const int *in, int *out, size_t lo, size_t hi, size_t k)
{
    for (size_t i = lo; i < hi; i++) {
        int x = in[i];
        out[k] = x;
        k += x > 0;
    }
    return k;
}

size_t compact_cpu(const int *in, int *out, size_t n) { return keep_positive(in, out, 0, n, 0); }

size_t compact_cpu_scan(const int *in, int *out, size_t n)
{
    if (n == 0)
        return 0;
    int *flags = malloc(n * sizeof *flags), *pos = malloc(n * sizeof *pos);
    if (!flags || !pos) { /* no room for the scan's arrays: the plain loop */
        free(flags), free(pos);
        return compact_cpu(in, out, n);
    }
    for (size_t i = 0; i < n; i++)
        flags[i] = in[i] > 0;
    scan_cpu_exclusive(flags, pos, n);
    for (size_t i = 0; i < n; i++)
        if (flags[i])
            out[pos[i]] = in[i];
    size_t k = (size_t)pos[n - 1] + (size_t)flags[n - 1];
    free(flags), free(pos);
    return k;
}

size_t compact_omp(const int *in, int *out, size_t n)
{
    if (n < 32768)
        return compact_cpu(in, out, n);
    int nt = omp_get_max_threads();
    size_t *offset = calloc((size_t)nt + 1, sizeof *offset);
    if (!offset)
        return compact_cpu(in, out, n);
    #pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)team, hi = n * (size_t)(t + 1) / (size_t)team, c = 0;
        for (size_t i = lo; i < hi; i++)
            c += in[i] > 0;
        offset[t + 1] = c;
        #pragma omp barrier
        #pragma omp single
        for (int k = 1; k <= team; k++)
            offset[k] += offset[k - 1];
        /* branch-free like keep_positive, but never past this chunk's
           slots, which belong to the next thread (k < end is predictable) */
        size_t k = offset[t], end = offset[t + 1];
        for (size_t i = lo; i < hi; i++) {
            int x = in[i];
            if (k < end)
                out[k] = x;
            k += x > 0;
        }
    }
    size_t total = offset[nt];
    free(offset);
    return total;
}
