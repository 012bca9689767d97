/* harness/parent/judges/real.c: the real-valued judge (see real.h). */
#include "real.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pl_input *real_input(const pl_judge *j) { return &((const pl_real_judge *)j->cfg)->in; }

static long real_elems(const pl_real_judge *r, long n) { return r->out_elems ? r->out_elems(n) : n; }

static long real_out(const pl_judge *j, long n, double param)
{
    (void)param;
    const pl_real_judge *r = j->cfg;
    return real_elems(r, n) * (r->elem == PL_ELEM_F64 ? 2 : 1);
}

/* A double stays whole: the patched word comes from the same half of
   another element, so the element remains a finite double. */
static void real_patch(const pl_judge *j, const int *in, long n, double param, long *lo, long *hi, long *step)
{
    const pl_real_judge *r = j->cfg;
    pl_input_span(&r->in, in, n, param, lo, hi);
    *step = r->elem == PL_ELEM_F64 ? 2 : 1;
}

/* The reference is computed when the result is compared, in double. */
static void real_expect(const pl_judge *j, const pl_part *p, const int *in, long n, double param, int *want)
{
    (void)j, (void)p, (void)in, (void)n, (void)param, (void)want;
}

static int real_compare(const pl_judge *j, const pl_judged *v, pl_diag *d)
{
    const pl_real_judge *r = j->cfg;
    static double *want, *tol;
    static size_t cap;
    size_t m = (size_t)real_elems(r, v->n), words = (size_t)real_out(j, v->n, v->param);
    if (m > cap) {
        free(want), free(tol);
        want = malloc(m * sizeof *want), tol = malloc(m * sizeof *tol);
        cap = want && tol ? m : 0;
        if (!cap) {
            memset(d, 0, sizeof *d);
            snprintf(d->reason, sizeof d->reason, "out of host memory in the grader for the reference");
            d->findings = PL_F_MISMATCH;
            return 0;
        }
    }
    pl_cmp_real c;
    memset(&c, 0, sizeof c);
    c.elem = r->elem, c.n = m, c.want = want, c.tol = tol;
    c.got = v->got, c.got2 = v->got2;
    c.got2_nan_start = v->got2 != NULL; /* pl_real_kind's second_stage */
    c.guard_front = v->front, c.guard_back = v->back, c.guard_bytes = v->front ? PL_GUARD_BYTES : 0;
    if (v->in_after)
        c.in = v->in, c.in_after = v->in_after, c.in_bytes = (size_t)v->in_words * sizeof *v->in;
    if (pl_all_poison(v->got, words)) /* needs no reference (the stubs' many tests) */
        memset(want, 0, m * sizeof *want), memset(tol, 0, m * sizeof *tol);
    else
        r->expect(v->in, v->n, v->param, want, tol, &c);
    return pl_compare_real(&c, d);
}

static unsigned real_second_stage(const pl_judge *j) { return (void)j, PL_RQ_POISON_NAN; }

const pl_judge_kind pl_real_kind = {
    .name = "real",
    .input = real_input,
    .out_words = real_out,
    .patch = real_patch,
    .expect = real_expect,
    .compare = real_compare,
    .second_stage = real_second_stage,
};
