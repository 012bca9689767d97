/* harness/parent/roofs.c: algorithms' roofs (see roofs.h). */
#include "roofs.h"

#include <math.h>

double pl_alg_bytes(const pl_alg *a, long size, double param)
{
    return a && a->bytes ? a->bytes(size, param) : 0;
}

double pl_alg_pct(double bytes, double copy_gbps, double time_ms)
{
    if (!(bytes > 0) || !(copy_gbps > 0) || !(time_ms > 0) || isinf(bytes) || isinf(copy_gbps) || isinf(time_ms))
        return NAN;
    return 100.0 * (bytes / (copy_gbps * 1e9)) / (time_ms * 1e-3);
}

double pl_words_2n(long n, double param) { return (void)param, 2.0 * 4.0 * (double)n; }
double pl_words_3n(long n, double param) { return (void)param, 3.0 * 4.0 * (double)n; }
double pl_words_4n(long n, double param) { return (void)param, 4.0 * 4.0 * (double)n; }
