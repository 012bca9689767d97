/* kernels_ref/cpu/radix.c: CPU radix sorts and key maps (see radix.h). */
#include "radix.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

unsigned radix_key_from_int(int x) { return (unsigned)x ^ 0x80000000u; }
int radix_int_from_key(unsigned k) { return (int)(k ^ 0x80000000u); }

/* Positive floats order as their bits once the sign bit is set; negative ones
   order backwards, so all their bits flip. */
unsigned radix_key_from_float(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

float radix_float_from_key(unsigned k)
{
    unsigned u = k & 0x80000000u ? k & 0x7fffffffu : ~k;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* One stable counting pass on digit (key >> shift) & mask, src -> dst. */
static void pass(const unsigned *ks, const unsigned *vs, unsigned *kd, unsigned *vd, size_t n, int shift,
                 unsigned mask, size_t *count)
{
    memset(count, 0, ((size_t)mask + 1) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[(ks[i] >> shift) & mask]++;
    size_t sum = 0;
    for (size_t d = 0; d <= mask; d++) { /* exclusive scan: each digit's first slot */
        size_t c = count[d];
        count[d] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++) { /* in input order: equal digits keep their order */
        size_t at = count[(ks[i] >> shift) & mask]++;
        kd[at] = ks[i];
        if (vs)
            vd[at] = vs[i];
    }
}

int radix_sort_cpu(unsigned *keys, unsigned *vals, size_t n, int bits)
{
    if (bits < 1 || bits > 16)
        return -1;
    if (n < 2)
        return 0;
    unsigned mask = (1u << bits) - 1;
    unsigned *kt = malloc(n * sizeof *kt), *vt = vals ? malloc(n * sizeof *vt) : NULL;
    size_t *count = malloc(((size_t)mask + 1) * sizeof *count);
    if (!kt || (vals && !vt) || !count) {
        free(kt), free(vt), free(count);
        return -1;
    }
    unsigned *ks = keys, *vs = vals, *kd = kt, *vd = vt;
    for (int shift = 0; shift < 32; shift += bits) {
        pass(ks, vs, kd, vd, n, shift, shift + bits > 32 ? mask >> (shift + bits - 32) : mask, count);
        unsigned *t = ks; ks = kd; kd = t;
        t = vs; vs = vd; vd = t;
    }
    if (ks != keys) { /* an odd number of passes ended in the scratch */
        memcpy(keys, ks, n * sizeof *keys);
        if (vals)
            memcpy(vals, vs, n * sizeof *vals);
    }
    free(kt), free(vt), free(count);
    return 0;
}

#define OMP_DIGITS 256

/* The scratch of radix_sort_omp, kept between calls: a fresh 64 MiB each
   call costs its page faults every call, which is not sorting. */
static unsigned *omp_kt, *omp_vt;
static size_t omp_kcap, omp_vcap;

/* *buf holds at least n words afterwards; 0 when out of memory. */
static int scratch(unsigned **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 1;
    free(*buf);
    *buf = malloc(n * sizeof **buf);
    *cap = *buf ? n : 0;
    return *buf != NULL;
}

int radix_sort_omp(unsigned *keys, unsigned *vals, size_t n)
{
    if (n < 65536)
        return radix_sort_cpu(keys, vals, n, 8);
    if (!scratch(&omp_kt, &omp_kcap, n) || (vals && !scratch(&omp_vt, &omp_vcap, n)))
        return -1;
    int nt = omp_get_max_threads();
    size_t *count = malloc((size_t)nt * OMP_DIGITS * sizeof *count); /* count[t][d] */
    if (!count)
        return -1;
    unsigned *ks = keys, *vs = vals, *kd = omp_kt, *vd = vals ? omp_vt : NULL;
    for (int shift = 0; shift < 32; shift += 8) {
        int same = 0; /* every key has the same digit: the pass would move nothing */
        #pragma omp parallel num_threads(nt)
        {
            int t = omp_get_thread_num(), team = omp_get_num_threads();
            size_t lo = n * (size_t)t / (size_t)team, hi = n * (size_t)(t + 1) / (size_t)team;
            size_t *mine = count + (size_t)t * OMP_DIGITS;
            memset(mine, 0, OMP_DIGITS * sizeof *mine);
            for (size_t i = lo; i < hi; i++)
                mine[(ks[i] >> shift) & 0xff]++;
            #pragma omp barrier
            #pragma omp single
            { /* digit-major scan: digit d of thread t goes after digit d of threads < t */
                size_t sum = 0;
                for (int d = 0; d < OMP_DIGITS; d++) {
                    size_t before = sum;
                    for (int u = 0; u < team; u++) {
                        size_t c = count[(size_t)u * OMP_DIGITS + d];
                        count[(size_t)u * OMP_DIGITS + d] = sum;
                        sum += c;
                    }
                    same |= sum - before == n;
                }
            }
            if (!same)
                for (size_t i = lo; i < hi; i++) {
                    size_t at = mine[(ks[i] >> shift) & 0xff]++;
                    kd[at] = ks[i];
                    if (vs)
                        vd[at] = vs[i];
                }
        }
        if (same)
            continue;
        unsigned *t = ks; ks = kd; kd = t;
        t = vs; vs = vd; vd = t;
    }
    if (ks != keys) { /* an odd number of passes moved the keys: back into keys */
        memcpy(keys, ks, n * sizeof *keys);
        if (vals)
            memcpy(vals, vs, n * sizeof *vals);
    }
    free(count);
    return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

void sort_qsort(unsigned *keys, size_t n) { qsort(keys, n, sizeof *keys, cmp_unsigned); }
