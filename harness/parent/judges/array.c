/* harness/parent/judges/array.c: the array judge and the scan judge (see
 * array.h). */
#include "array.h"

#include <stdint.h>

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

/* One pass over in and out, on every core when large: each word against
   the one before it. The words read are those the runner copied out of
   the worker's reach (expect_from in lab_run.c). */
static int scan_proven(const pl_judge *j, const int *in, long n, double param, const int *out)
{
    const pl_array_judge *a = j->cfg;
    if (a->scan != PL_SCAN_EXCLUSIVE && a->scan != PL_SCAN_INCLUSIVE)
        return 0;
    if (pl_input_words(&a->in, n, param) != n || array_out(j, n, param) != n)
        return 0; /* the proof is of n words into n */
    if (n <= 0)
        return 1;
    const uint32_t *x = (const uint32_t *)in, *y = (const uint32_t *)out;
    const int incl = a->scan == PL_SCAN_INCLUSIVE;
    if (y[0] != (incl ? x[0] : 0u))
        return 0;
    const size_t chunk = (size_t)1 << 20, len = (size_t)n, nchunks = (len + chunk - 1) / chunk;
    int ok = 1;
#pragma omp parallel for schedule(static) reduction(&& : ok) if (nchunks > 4)
    for (size_t c = 0; c < nchunks; c++) {
        size_t lo = c ? c * chunk : 1, hi = len - c * chunk < chunk ? len : (c + 1) * chunk;
        uint32_t bad = 0;
        for (size_t i = lo; i < hi; i++) /* y[i] adds x[i] (inclusive) or x[i - 1] */
            bad |= y[i] ^ (y[i - 1] + x[i - 1 + incl]);
        ok = ok && bad == 0;
    }
    return ok;
}

const pl_judge_kind pl_scan_kind = {
    .name = "scan",
    .input = array_input,
    .out_words = array_out,
    .proven = scan_proven,
    .compare = array_compare,
};

static const pl_array_judge plain = {{0}, NULL, NULL, NULL, NULL, PL_NOT_A_SCAN};
const pl_judge pl_array_plain = {&pl_array_kind, &plain};

static const pl_array_judge incl = {PL_SCAN_HINTS, .scan = PL_SCAN_INCLUSIVE};
static const pl_array_judge excl = {PL_SCAN_HINTS, .scan = PL_SCAN_EXCLUSIVE};
const pl_judge pl_scan_inclusive = {&pl_scan_kind, &incl};
const pl_judge pl_scan_exclusive = {&pl_scan_kind, &excl};
