/* harness/parent/rubric.c: graded tests and points (see rubric.h, lab.h). */
#include "rubric.h"

#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const pl_part *pl_find_part(const pl_lab *lab, const char *id)
{
    for (int k = 0; id && k < lab->nparts; k++)
        if (!strcmp(lab->parts[k]->id, id))
            return lab->parts[k];
    return NULL;
}

/* Edges, around a warp and a block of 1024, and even sizes that are not
   powers of two (1000, 3 * 2^20): a padding test written as
   `size & (size - 1) != 0` (precedence: always size & 1) passes every odd
   size and every power of two. */
const long pl_scan_test_sizes[PL_SCAN_NTEST] = {0,    1,    31,   32,   33,       1000,           1023,
                                                1024, 1025, 65537, 3L << 20, (1L << 22) + 3, 1L << 26};
const long pl_scan_bench_sizes[PL_SCAN_NBENCH] = {1L << 20, 1L << 24, 1L << 28};

const long *pl_part_test_sizes(const pl_lab *lab, const pl_part *p, int *count)
{
    *count = p->sizes.test ? p->sizes.ntest : lab->ntest_sizes;
    return p->sizes.test ? p->sizes.test : lab->test_sizes;
}

const long *pl_part_bench_sizes(const pl_lab *lab, const pl_part *p, int *count)
{
    *count = p->sizes.bench ? p->sizes.nbench : lab->nbench_sizes;
    return p->sizes.bench ? p->sizes.bench : lab->bench_sizes;
}

const char *pl_part_size_name(const pl_part *p) { return p->sizes.name ? p->sizes.name : "n"; }

uint64_t pl_part_hash(const pl_part *p)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the part id */
    for (const char *c = p->id; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h;
}

double pl_perf_points(const pl_perf *perf, double ratio)
{
    if (!(ratio > perf->zero)) /* also NaN */
        return 0;
    if (ratio >= perf->full)
        return perf->points;
    return perf->points * (ratio - perf->zero) / (perf->full - perf->zero);
}

int pl_perf_vendor_timed(const pl_perf *perf)
{
    return perf->yardstick == PL_YARD_VENDOR || perf->yardstick == PL_YARD_ROOF;
}

double pl_perf_roof_fraction(double alg_bytes, double copy_gbps, double time_ms)
{
    double pct = pl_alg_pct(alg_bytes, copy_gbps, time_ms);
    return isnan(pct) ? NAN : pct >= 100 ? 1.0 : pct / 100;
}

static int add(pl_test *out, int k, int cap, const pl_part *p, const pl_perf *perf, long n, double param,
               int hidden, double max, const char *lab_id)
{
    if (k >= cap)
        return k;
    pl_test *t = &out[k];
    memset(t, 0, sizeof *t);
    t->part = p;
    t->perf = perf;
    t->n = n;
    t->param = p->params.n ? param : NAN;
    t->hidden = hidden;
    t->max = max;
    if (perf)
        snprintf(t->name, sizeof t->name, "%s.%s performance vs %s, %s=%ld", lab_id, p->id,
                 perf->yardstick == PL_YARD_VENDOR ? "the vendor library"
                 : perf->yardstick == PL_YARD_ROOF ? "its roof"
                                                   : "CPU OpenMP",
                 pl_part_size_name(p), n);
    else
        snprintf(t->name, sizeof t->name, "%s.%s %s, %s=%ld%s", lab_id, p->id, p->title,
                 pl_part_size_name(p), n, hidden ? " (hidden)" : "");
    if (p->params.n) {
        size_t len = strlen(t->name);
        const char *pname = p->params.name ? p->params.name : "param";
        if (p->params.labels)
            snprintf(t->name + len, sizeof t->name - len, ", %s=%s", pname, p->params.labels[(int)param]);
        else
            snprintf(t->name + len, sizeof t->name - len, ", %s=%g", pname, param);
    }
    return k + 1;
}

int pl_lab_tests(const pl_lab *lab, const pl_part *only, const long *sizes, int nsizes, int hidden,
                 uint64_t seed, pl_test *out, int cap)
{
    int k = 0;
    for (int i = 0; i < lab->nparts; i++) {
        const pl_part *p = lab->parts[i];
        if (only && p != only)
            continue;
        int nsz = nsizes;
        const long *sz = nsizes > 0 ? sizes : pl_part_test_sizes(lab, p, &nsz);
        int np = p->params.n ? p->params.n : 1;
        for (int s = 0; s < nsz; s++)
            for (int q = 0; q < np; q++)
                if (nsizes > 0 || !p->sizes.max || sz[s] <= p->sizes.max)
                    k = add(out, k, cap, p, NULL, sz[s], p->params.n ? p->params.values[q] : NAN, 0, p->points, lab->id);
        /* Hidden sizes: anywhere from 2 to the part's limit or 2^22,
           whichever is smaller, so that an answer kept for the public sizes
           cannot pass. Parts whose size is a parameter (a stride, a block
           size) keep their sizes; the secret seed still changes their
           inputs. */
        for (int h = 0; hidden && nsizes == 0 && !p->sizes.test && h < lab->hidden_per_part; h++) {
            long hi = p->sizes.max && p->sizes.max < 1L << 22 ? p->sizes.max : 1L << 22;
            long n = 2 + (long)(pl_seed_mix(seed, pl_part_hash(p), 1000 + (uint64_t)h) % (uint64_t)(hi - 1));
            if (h == 0) { /* one even size that is not a power of two */
                n &= ~1L;
                if ((n & (n - 1)) == 0)
                    n = n > 4 ? n - 2 : 6;
            }
            k = add(out, k, cap, p, NULL, n, p->params.n ? p->params.values[h % p->params.n] : NAN, 1, p->points, lab->id);
        }
    }
    for (int i = 0; nsizes == 0 && i < lab->nperf; i++) {
        const pl_part *p = pl_find_part(lab, lab->perf[i].part);
        if (p && (!only || p == only))
            k = add(out, k, cap, p, &lab->perf[i], lab->perf[i].n, lab->perf[i].param, 0, lab->perf[i].points, lab->id);
    }
    for (int i = 0; nsizes == 0 && pl_limits_on(hidden) && i < lab->nparts; i++) {
        const pl_part *p = lab->parts[i];
        long n = pl_part_limit_n(lab, p, seed);
        if (n > 0 && (!only || p == only) && k < cap) {
            k = add(out, k, cap, p, NULL, n, p->params.n ? p->params.bench : NAN, 0, p->points, lab->id);
            out[k - 1].limit = 1;
            size_t len = strlen(out[k - 1].name);
            snprintf(out[k - 1].name + len, sizeof out[k - 1].name - len, " (limit)");
        }
    }
    return k;
}

int pl_limits_on(int hidden)
{
    const char *v = getenv("PRIMLAB_LIMITS");
    if (v && *v)
        return strcmp(v, "0") != 0;
    return hidden;
}

long pl_part_limit_n(const pl_lab *lab, const pl_part *p, uint64_t seed)
{
    int count;
    const long *sz = pl_part_test_sizes(lab, p, &count);
    long top = 0;
    for (int s = 0; s < count; s++)
        top = sz[s] > top ? sz[s] : top;
    if (p->sizes.max <= 0 || p->sizes.max - 1024 <= top)
        return 0; /* no stated limit, or the tests already reach it */
    /* from the seed and the limit alone: parts with one limit test one size,
       and those with one input and one reference share them (lab_run.c) */
    return p->sizes.max - (long)(pl_seed_mix(seed, (uint64_t)p->sizes.max, 0x6c696d6974ull) % 1024);
}

void pl_tsv_escape(const char *in, char *out, size_t cap)
{
    size_t j = 0;
    for (; in && *in && j + 2 < cap; in++) {
        char c = *in;
        if (c == '\\' || c == '\t' || c == '\n') {
            out[j++] = '\\';
            out[j++] = c == '\\' ? '\\' : c == '\t' ? 't' : 'n';
        } else {
            out[j++] = c;
        }
    }
    out[j] = '\0';
}
