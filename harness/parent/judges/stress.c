/* harness/parent/judges/stress.c: the stress judge (see stress.h). Each run
 * is its inner judge's; this kind adds the count of runs and their verdict. */
#include "stress.h"

#include "array.h"

#include <stdio.h>

static const pl_judge *inner(const pl_judge *j)
{
    const pl_stress_judge *s = j->cfg;
    return s->inner ? s->inner : &pl_array_plain;
}

static const pl_input *stress_input(const pl_judge *j) { return inner(j)->kind->input(inner(j)); }

static long stress_out(const pl_judge *j, long n, double param) { return pl_judge_out_words(inner(j), n, param); }

static long stress_scratch(const pl_judge *j, long n, double param)
{
    return pl_judge_scratch_elems(inner(j), n, param);
}

static void stress_patch(const pl_judge *j, const int *in, long n, double param, long *lo, long *hi, long *step)
{
    pl_judge_patch(inner(j), in, n, param, lo, hi, step);
}

static void stress_expect(const pl_judge *j, const pl_part *p, const int *in, long n, double param, int *want)
{
    pl_judge_expect(inner(j), p, in, n, param, want);
}

static int stress_compare(const pl_judge *j, const pl_judged *r, pl_diag *d)
{
    return pl_judge_compare(inner(j), r, d);
}

static int stress_runs(const pl_judge *j) { return ((const pl_stress_judge *)j->cfg)->runs; }

static void stress_summarize(const pl_judge *j, const pl_tally *t, char *reason, size_t rcap, char *detail,
                             size_t dcap)
{
    (void)j;
    if (t->first_d.findings & PL_F_NOT_IMPLEMENTED)
        snprintf(reason, rcap, "%s", t->first_d.reason);
    else
        snprintf(reason, rcap, "wrong in %d of %d runs under load; run %d: %.120s", t->wrong, t->runs,
                 t->first + 1, t->first_d.reason);
    snprintf(detail, dcap, "run %d: %.160s\n%.1800s", t->first + 1, t->first_d.reason, t->first_d.detail);
}

static unsigned stress_second_stage(const pl_judge *j) { return pl_judge_second_stage(inner(j)); }

const pl_judge_kind pl_stress_kind = {
    .name = "stress",
    .input = stress_input,
    .out_words = stress_out,
    .scratch_elems = stress_scratch,
    .patch = stress_patch,
    .expect = stress_expect,
    .compare = stress_compare,
    .runs = stress_runs,
    .summarize = stress_summarize,
    .second_stage = stress_second_stage,
};

int pl_stress_counter_word(const int *got, size_t n, size_t b, char *why, size_t cap)
{
    if (n == 0 || b != n - 1)
        return 0;
    if (got[b] == PL_POISON_I32)
        snprintf(why, cap, "tile counter never written: tile ids not taken from it (ordered by blockIdx?)");
    else
        snprintf(why, cap, "tile counter still 0 after the call: tile ids not taken from it (ordered by "
                           "blockIdx, which can deadlock)");
    return 1;
}
