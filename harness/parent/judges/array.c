/* harness/parent/judges/array.c: the array judge (see array.h). */
#include "array.h"

static const pl_input *array_input(const pl_judge *j) { return &((const pl_array_judge *)j->cfg)->in; }

static long array_out(const pl_judge *j, long n, double param)
{
    (void)param;
    const pl_array_judge *a = j->cfg;
    return a->out_len ? a->out_len(n) : n;
}

static int array_compare(const pl_judge *j, const pl_judged *r, pl_diag *d)
{
    const pl_array_judge *a = j->cfg;
    pl_cmp c = pl_judged_cmp(r, (size_t)array_out(j, r->n, r->param));
    c.hint_right = a->hint_right;
    c.hint_left = a->hint_left;
    c.known = a->known;
    c.known_in = r->in;
    c.known_n_in = r->in ? (size_t)r->in_words : 0;
    return pl_compare_i32(&c, d);
}

const pl_judge_kind pl_array_kind = {
    .name = "array",
    .input = array_input,
    .out_words = array_out,
    .compare = array_compare,
};

static const pl_array_judge plain = {{0}, NULL, NULL, NULL, NULL};
const pl_judge pl_array_plain = {&pl_array_kind, &plain};
