/* harness/parent/judges/judge.c: the judge interface's defaults and what the
 * kinds share (see judge.h). */
#include "judge.h"

#include "../rng.h"
#include "array.h"

#include <stdio.h>
#include <string.h>

const pl_judge *pl_part_judge(const pl_part *p) { return p->judge ? p->judge : &pl_array_plain; }

long pl_input_words(const pl_input *in, long n, double param) { return in->words ? in->words(n, param) : n; }

void pl_input_span(const pl_input *in, const int *a, long n, double param, long *lo, long *hi)
{
    *lo = 0, *hi = pl_input_words(in, n, param);
    if (in->span)
        in->span(a, n, param, lo, hi);
}

long pl_judge_in_words(const pl_judge *j, long n, double param)
{
    return pl_input_words(j->kind->input(j), n, param);
}

long pl_judge_out_words(const pl_judge *j, long n, double param)
{
    return j->kind->out_words ? j->kind->out_words(j, n, param) : pl_judge_in_words(j, n, param);
}

long pl_judge_scratch_elems(const pl_judge *j, long n, double param)
{
    if (j->kind->scratch_elems)
        return j->kind->scratch_elems(j, n, param);
    long in = pl_judge_in_words(j, n, param), out = pl_judge_out_words(j, n, param);
    return in > out ? in : out;
}

void pl_judge_make_input(const pl_judge *j, const pl_lab *lab, int *a, long len, long n, double param,
                         uint64_t seed)
{
    const pl_input *in = j->kind->input(j);
    if (in->make)
        in->make(a, n, param, seed);
    else if (in->gen)
        in->gen(a, (size_t)len, seed, param);
    else
        pl_gen_ints(a, (size_t)len, seed, lab->gen_lo, lab->gen_hi);
}

void pl_judge_patch(const pl_judge *j, const int *in, long n, double param, long *lo, long *hi, long *step)
{
    *step = 1;
    if (j->kind->patch)
        j->kind->patch(j, in, n, param, lo, hi, step);
    else
        pl_input_span(j->kind->input(j), in, n, param, lo, hi);
}

/* The serial reference is the oracle; above a million input words the
   OpenMP one gives the same answer sooner (words of the input: a
   transpose's size is its side). */
#define OMP_ORACLE_FROM (1L << 20)
pl_cpu_op pl_part_oracle(const pl_part *p, long in_words)
{
    return p->omp && in_words >= OMP_ORACLE_FROM ? p->omp : p->cpu;
}

void pl_judge_expect(const pl_judge *j, const pl_part *p, const int *in, long n, double param, int *want)
{
    if (j->kind->expect)
        j->kind->expect(j, p, in, n, param, want);
    else
        pl_part_oracle(p, pl_judge_in_words(j, n, param))(in, want, (size_t)n);
}

int pl_judge_can_prove(const pl_judge *j) { return j->kind->proven != NULL; }

int pl_judge_proven(const pl_judge *j, const int *in, long n, double param, const int *out)
{
    return j->kind->proven ? j->kind->proven(j, in, n, param, out) : 0;
}

int pl_judge_compare(const pl_judge *j, const pl_judged *r, pl_diag *d) { return j->kind->compare(j, r, d); }

int pl_judge_runs(const pl_judge *j)
{
    int runs = j->kind->runs ? j->kind->runs(j) : 1;
    return runs > 1 ? runs : 1;
}

void pl_judge_summarize(const pl_judge *j, const pl_tally *t, char *reason, size_t rcap, char *detail,
                        size_t dcap)
{
    if (j->kind->summarize) {
        j->kind->summarize(j, t, reason, rcap, detail, dcap);
        return;
    }
    snprintf(reason, rcap, "%s", t->first_d.reason);
    snprintf(detail, dcap, "%s", t->first_d.detail);
}

unsigned pl_judge_second_stage(const pl_judge *j) { return j->kind->second_stage ? j->kind->second_stage(j) : 0; }

/* A written output usually shows it in its first or last word; a stub's
   must be read whole, on every core when large (2^26 words took 45 ms on one
   of an H100 host's, each of a stub check's 130 large tests). */
int pl_all_poison(const int *got, size_t len)
{
    if (len == 0 || got[0] != PL_POISON_I32 || got[len - 1] != PL_POISON_I32)
        return 0;
    const size_t chunk = (size_t)1 << 20;
    size_t nchunks = (len + chunk - 1) / chunk;
    int written = 0;
#pragma omp parallel for schedule(static) reduction(|| : written) if (nchunks > 4)
    for (size_t c = 0; c < nchunks; c++) {
        size_t k = c * chunk, end = len - k < chunk ? len : k + chunk;
        while (!written && k < end)
            written = got[k++] != PL_POISON_I32;
    }
    return !written;
}

pl_cmp pl_judged_cmp(const pl_judged *r, size_t out_words)
{
    pl_cmp c;
    memset(&c, 0, sizeof c);
    c.want = r->want;
    c.got = r->got;
    c.got2 = r->got2;
    c.n = out_words;
    c.guard_front = r->front;
    c.guard_back = r->back;
    c.guard_bytes = r->front ? PL_GUARD_BYTES : 0;
    if (r->in_after) {
        c.in = r->in;
        c.in_after = r->in_after;
        c.n_in = (size_t)r->in_words;
    }
    return c;
}
