/* harness/parent/judges/compact.c: the compaction judge (see compact.h). */
#include "compact.h"

#include <stdio.h>
#include <string.h>

/* What one comparison found, from find to say. */
typedef struct kept_info {
    int (*keeps)(int x);
    const char *rule;
    int want, got;        /* the counts */
    size_t upto;          /* elements comparable: the smaller count */
    size_t dropped, negative, zero; /* of got[0 .. upto): what the rule drops */
    size_t first_dropped;
    size_t first_bad;     /* first wrong element below upto, or upto */
} kept_info;

static void kept_find(const pl_cmp *c, pl_diag *d, void *state)
{
    kept_info *k = state;
    size_t m = c->n - 1;
    k->want = c->want[m], k->got = c->got[m];
    long g = k->got == PL_POISON_I32 || k->got < 0 || (size_t)k->got > m ? k->want : k->got;
    k->upto = (size_t)(g < k->want ? g : k->want);
    k->first_bad = k->upto;
    for (size_t i = 0; i < k->upto; i++) {
        int x = c->got[i];
        if (x != c->want[i] && k->first_bad == k->upto)
            k->first_bad = i;
        if (x == PL_POISON_I32 || k->keeps(x))
            continue;
        if (k->dropped++ == 0)
            k->first_dropped = i;
        k->negative += x < 0;
        k->zero += x == 0;
    }
    if (k->dropped)
        d->findings |= PL_F_KEPT_DROPPED;
    if (k->got != k->want)
        d->findings |= PL_F_COUNT;
}

static void count_reason(const kept_info *k, size_t m, char *r, size_t rc)
{
    long diff = (long)k->got - k->want;
    if (k->got == PL_POISON_I32)
        snprintf(r, rc, "returned no count (its place after the output still holds the poison); expected %d", k->want);
    else if (k->got < 0 || (size_t)k->got > m)
        snprintf(r, rc, "returned a count of %d, outside 0 .. %zu; expected %d", k->got, m, k->want);
    else if (diff == 1 || diff == -1)
        snprintf(r, rc, "returned %d elements, expected %d: one too %s", k->got, k->want, diff > 0 ? "many" : "few");
    else
        snprintf(r, rc, "returned %d elements, expected %d: %ld too %s", k->got, k->want, diff > 0 ? diff : -diff,
                 diff > 0 ? "many" : "few");
}

static void kept_say(const pl_cmp *c, pl_diag *d, unsigned chosen, void *state)
{
    const kept_info *ki = state;
    char *r = d->reason;
    size_t rc = sizeof d->reason, n = c->n;
    if (chosen == PL_F_KEPT_DROPPED) {
        const char *what = !ki->zero ? "negative values" : !ki->negative ? "zeros" : "zeros and negative values";
        const char *hint = !ki->zero ? "; a test of x != 0?" : !ki->negative ? "; a test of x >= 0?" : "";
        snprintf(r, rc, "kept %s, which the contract drops (it keeps %s%s): %zu of the first %zu elements, "
                 "first out[%zu] = %d", what, ki->rule ? ki->rule : "fewer", hint, ki->dropped, ki->upto,
                 ki->first_dropped, c->got[ki->first_dropped]);
        if (d->findings & PL_F_COUNT) {
            char cr[120];
            count_reason(ki, n - 1, cr, sizeof cr);
            pl_diag_add(d, "and so %s", cr);
        }
    } else if (chosen == PL_F_COUNT) {
        count_reason(ki, n - 1, r, rc);
        if (ki->first_bad < ki->upto)
            pl_diag_add(d, "the elements differ too: out[%zu] = %d, expected %d", ki->first_bad, c->got[ki->first_bad],
                        c->want[ki->first_bad]);
        else if (ki->upto)
            pl_diag_add(d, "the first %zu elements are right: only the count (and what follows them) is wrong",
                        ki->upto);
    }
}

static const pl_cmp_kind compacted = {0, kept_find, kept_say};

int pl_compare_compacted(const pl_cmp *c, int (*keeps)(int x), const char *rule, pl_diag *d)
{
    kept_info ki;
    memset(&ki, 0, sizeof ki);
    ki.keeps = keeps, ki.rule = rule;
    pl_cmp cc = *c;
    cc.kind = &compacted;
    cc.kind_state = &ki;
    return pl_compare_i32(&cc, d);
}

/* ------------------------------------------------------------ the kind */

static const pl_input *compact_input(const pl_judge *j) { return &((const pl_compact_judge *)j->cfg)->in; }

/* The kept elements' room, and the count after it. */
static long compact_out(const pl_judge *j, long n, double param)
{
    return pl_input_words(compact_input(j), n, param) + 1;
}

static int compact_compare(const pl_judge *j, const pl_judged *r, pl_diag *d)
{
    const pl_compact_judge *k = j->cfg;
    pl_cmp c = pl_judged_cmp(r, (size_t)compact_out(j, r->n, r->param));
    return pl_compare_compacted(&c, k->keeps, k->rule, d);
}

const pl_judge_kind pl_compact_kind = {
    .name = "compact",
    .input = compact_input,
    .out_words = compact_out,
    .compare = compact_compare,
};
