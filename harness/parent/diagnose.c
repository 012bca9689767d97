/* harness/parent/diagnose.c: result comparison with diagnosis (see diagnose.h). */
#include "diagnose.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pl_guard_changed(const uint8_t *p, size_t bytes)
{
    size_t bad = 0;
    for (size_t i = 0; p && i < bytes; i++)
        bad += p[i] != PL_POISON_BYTE;
    return bad;
}

void pl_diag_add(pl_diag *d, const char *fmt, ...)
{
    size_t len = strlen(d->detail);
    if (len + 1 >= sizeof d->detail)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->detail + len, sizeof d->detail - len, fmt, ap);
    va_end(ap);
    len = strlen(d->detail);
    if (len + 1 < sizeof d->detail) {
        d->detail[len] = '\n';
        d->detail[len + 1] = '\0';
    }
}

static void fmt_value(char *buf, size_t cap, int v)
{
    if (v == PL_POISON_I32)
        snprintf(buf, cap, "poison");
    else
        snprintf(buf, cap, "%d", v);
}

/* A few values either side of index at, with the wrong ones marked. */
static void add_window(pl_diag *d, const pl_cmp *c, size_t at)
{
    size_t lo = at > 3 ? at - 3 : 0;
    size_t hi = at + 5 < c->n ? at + 5 : c->n;
    const int *got2 = d->race_diffs ? c->got2 : NULL; /* a second column only when it differs */
    if (got2)
        pl_diag_add(d, "    %12s %12s %12s %12s", "index", "expected", "got", "2nd run");
    else
        pl_diag_add(d, "    %12s %12s %12s", "index", "expected", "got");
    for (size_t i = lo; i < hi; i++) {
        char w[16], g[16], g2[16];
        fmt_value(w, sizeof w, c->want[i]);
        fmt_value(g, sizeof g, c->got[i]);
        int bad = c->got[i] != c->want[i] || (got2 && got2[i] != c->got[i]);
        if (got2) {
            fmt_value(g2, sizeof g2, got2[i]);
            pl_diag_add(d, "    %12zu %12s %12s %12s%s", i, w, g, g2, bad ? "  <" : "");
        } else {
            pl_diag_add(d, "    %12zu %12s %12s%s", i, w, g, bad ? "  <" : "");
        }
    }
}

static int shifted(const pl_cmp *c, int dir)
{
    if (c->n < 2)
        return 0;
    for (size_t i = 1; i < c->n; i++) {
        int ok = dir > 0 ? c->got[i] == c->want[i - 1] : c->got[i - 1] == c->want[i];
        if (!ok)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------- shared by both kinds */

/* The guard zones and the input, whatever the element type. */
/* Above this many elements a comparison runs on every core: a judge of a
   2^28-element output took 0.46 s a repetition on one (an H100 host), the
   largest share of a performance test. */
#define PAR_FROM ((size_t)1 << 20)

/* memcmp(a, b, bytes) != 0, in parallel for large buffers */
static int differ(const void *a, const void *b, size_t bytes)
{
    const size_t chunk = (size_t)1 << 22;
    size_t nchunks = (bytes + chunk - 1) / chunk;
    int diff = 0;
    #pragma omp parallel for schedule(static) reduction(|| : diff) if (bytes >= 4 * PAR_FROM)
    for (size_t k = 0; k < nchunks; k++) {
        size_t at = k * chunk, len = bytes - at < chunk ? bytes - at : chunk;
        diff = diff || memcmp((const char *)a + at, (const char *)b + at, len) != 0;
    }
    return diff;
}

static void check_surroundings(pl_diag *d, const uint8_t *front, const uint8_t *back, size_t guard_bytes,
                               const void *in, const void *in_after, size_t in_bytes)
{
    d->guard_front_bad = pl_guard_changed(front, guard_bytes);
    d->guard_back_bad = pl_guard_changed(back, guard_bytes);
    if (d->guard_back_bad)
        d->findings |= PL_F_GUARD_BACK;
    if (d->guard_front_bad)
        d->findings |= PL_F_GUARD_FRONT;
    if (in && in_after && differ(in, in_after, in_bytes))
        d->findings |= PL_F_INPUT_CHANGED;
}

/* Errors that start at a multiple of 32 or more: a block boundary. */
static void check_block(pl_diag *d)
{
    size_t low = d->first_bad & (~d->first_bad + 1); /* largest power of two dividing it */
    if (d->first_bad >= 32 && low >= 32) {
        d->findings |= PL_F_BLOCK;
        d->block = low;
    }
}

/* Wrong values, whatever the element type: every position still poison (a
   stub), some of them, or written wrong. */
static void wrong_findings(pl_diag *d, size_t poison, size_t n)
{
    d->findings |= PL_F_MISMATCH;
    if (poison == n)
        d->findings |= PL_F_NOT_IMPLEMENTED;
    else if (d->unwritten)
        d->findings |= PL_F_UNWRITTEN;
}

/* The reason for the findings every kind of output shares; 0 for others. */
static int common_reason(unsigned chosen, const pl_diag *d, char *r, size_t rc)
{
    switch (chosen) {
    case PL_F_NOT_IMPLEMENTED:
        snprintf(r, rc, "not implemented yet (the output was never written)");
        return 1;
    case PL_F_GUARD_BACK:
        snprintf(r, rc, "wrote past the end of the output (%zu bytes of the guard zone after it changed)",
                 d->guard_back_bad);
        return 1;
    case PL_F_GUARD_FRONT:
        snprintf(r, rc, "wrote before the start of the output (%zu bytes of the guard zone before it changed)",
                 d->guard_front_bad);
        return 1;
    case PL_F_INPUT_CHANGED:
        snprintf(r, rc, "modified its input, which is read-only");
        return 1;
    }
    return 0;
}

/* The shared findings that were not the reason, as detail lines. */
static void common_also(pl_diag *d, unsigned chosen)
{
    unsigned f = d->findings;
    if (chosen != PL_F_GUARD_FRONT && (f & PL_F_GUARD_FRONT))
        pl_diag_add(d, "also wrote before the start of the output (%zu guard bytes changed)", d->guard_front_bad);
    if (chosen != PL_F_GUARD_BACK && (f & PL_F_GUARD_BACK))
        pl_diag_add(d, "also wrote past the end of the output (%zu guard bytes changed)", d->guard_back_bad);
    if (chosen != PL_F_INPUT_CHANGED && (f & PL_F_INPUT_CHANGED))
        pl_diag_add(d, "also modified its input, which is read-only");
}

/* ---------------------------------------------------------------- compare */

int pl_compare_i32(const pl_cmp *c, pl_diag *d)
{
    memset(d, 0, sizeof *d);
    size_t n = c->n, first_race = 0;

    size_t poison = 0; /* positions still poison; all of them: untouched output */
    size_t bad = 0, unwritten = 0, races = 0, first_bad = SIZE_MAX, first_r = SIZE_MAX;
    /* A right output (the usual case) is known by memcmp at memory speed;
       the loop below, which counts and places differences, only runs for
       a wrong one (poison is counted for a wrong output's findings only) */
    size_t bytes = n * sizeof *c->got;
    int same = !differ(c->got, c->want, bytes) && (!c->got2 || !differ(c->got2, c->got, bytes));
    #pragma omp parallel for schedule(static) if (n >= PAR_FROM) \
        reduction(+ : poison, bad, unwritten, races) reduction(min : first_bad, first_r)
    for (size_t i = 0; i < (same ? 0 : n); i++) { /* no iteration when same */
        poison += c->got[i] == PL_POISON_I32;
        if (c->got[i] != c->want[i]) {
            bad++;
            first_bad = i < first_bad ? i : first_bad;
            unwritten += c->got[i] == PL_POISON_I32;
        }
        if (c->got2 && c->got2[i] != c->got[i]) {
            races++;
            first_r = i < first_r ? i : first_r;
        }
    }
    d->mismatches = bad, d->unwritten = unwritten, d->race_diffs = races;
    d->first_bad = bad ? first_bad : 0;
    first_race = races ? first_r : 0;
    check_surroundings(d, c->guard_front, c->guard_back, c->guard_bytes, c->in, c->in_after,
                       (c->n_in ? c->n_in : n) * sizeof *c->in);
    if (d->race_diffs)
        d->findings |= PL_F_RACE;
    int shapes = !c->kind || !c->kind->no_shapes;
    if (d->mismatches) {
        wrong_findings(d, poison, n);
        if (!(d->findings & PL_F_NOT_IMPLEMENTED) && shapes) {
            if (shifted(c, +1))
                d->findings |= PL_F_SHIFT_RIGHT;
            else if (shifted(c, -1))
                d->findings |= PL_F_SHIFT_LEFT;
        }
        if (shapes && !(d->findings & (PL_F_SHIFT_RIGHT | PL_F_SHIFT_LEFT)))
            check_block(d);
        if (c->kind && c->kind->find && !(d->findings & PL_F_NOT_IMPLEMENTED))
            c->kind->find(c, d, c->kind_state);
    }
    /* A mistake the judge knows by name, when nothing worse is wrong */
    char named[sizeof d->reason] = "";
    const unsigned worse = PL_F_NOT_IMPLEMENTED | PL_F_GUARD_BACK | PL_F_GUARD_FRONT | PL_F_INPUT_CHANGED;
    if (c->known && d->mismatches && !(d->findings & worse) &&
        c->known(c->known_in, c->known_n_in, c->want, c->got, n, d->first_bad, named, sizeof named) && named[0])
        d->findings |= PL_F_SUSPECT;

    /* The reason is the most telling finding; the others follow as detail.
       A judge's own findings (pl_cmp_kind) have their places among them. */
    static const unsigned order[] = {
        PL_F_NOT_IMPLEMENTED, PL_F_GUARD_BACK,  PL_F_GUARD_FRONT, PL_F_INPUT_CHANGED, PL_F_SUSPECT, PL_F_KEPT_DROPPED,
        PL_F_COUNT,           PL_F_SORT_UNSTABLE, PL_F_SORT_ORDER, PL_F_SORT_VALUES,   PL_F_RACE,
        PL_F_SHIFT_RIGHT,     PL_F_SHIFT_LEFT,  PL_F_BLOCK,       PL_F_UNWRITTEN,     PL_F_SORT_LOST,
        PL_F_MISMATCH,
    };
    unsigned f = d->findings, chosen = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0] && !chosen; k++)
        chosen = f & order[k];
    d->chosen = chosen;
    char *r = d->reason;
    size_t rc = sizeof d->reason;
    switch (common_reason(chosen, d, r, rc) ? 0 : chosen) {
    case PL_F_SUSPECT:
        snprintf(r, rc, "%s", named);
        if (f & PL_F_BLOCK)
            pl_diag_add(d, "errors start at a block boundary: index %zu, a multiple of %zu", d->first_bad, d->block);
        break;
    case PL_F_RACE:
        snprintf(r, rc, "results differ between two runs at %zu positions (first at index %zu): a race?",
                 d->race_diffs, first_race);
        break;
    case PL_F_SHIFT_RIGHT:
        snprintf(r, rc, "shifted by one (out[i] == expected[i-1]): %s",
                 c->hint_right ? c->hint_right : "an off-by-one in the output index?");
        break;
    case PL_F_SHIFT_LEFT:
        snprintf(r, rc, "shifted by one (out[i] == expected[i+1]): %s",
                 c->hint_left ? c->hint_left : "an off-by-one in the output index?");
        break;
    case PL_F_BLOCK:
        snprintf(r, rc, "errors start at a block boundary: index %zu, a multiple of %zu; "
                 "are the earlier blocks' sums added back?", d->first_bad, d->block);
        break;
    case PL_F_UNWRITTEN:
        snprintf(r, rc, "output never written at %zu of %zu positions (first at index %zu)",
                 d->unwritten, n, d->first_bad);
        break;
    case PL_F_MISMATCH:
        snprintf(r, rc, "wrong value at %zu of %zu positions", d->mismatches, n);
        break;
    default: /* one of the judge's own findings */
        if (c->kind && c->kind->say)
            c->kind->say(c, d, chosen, c->kind_state);
        break;
    }

    common_also(d, chosen);
    if (chosen != PL_F_RACE && chosen != PL_F_READS_OUTPUT && (f & PL_F_RACE))
        pl_diag_add(d, "also: results differ between two runs at %zu positions", d->race_diffs);
    if (d->mismatches && !(f & PL_F_NOT_IMPLEMENTED)) {
        char w[16], g[16];
        fmt_value(w, sizeof w, c->want[d->first_bad]);
        fmt_value(g, sizeof g, c->got[d->first_bad]);
        pl_diag_add(d, "first mismatch at index %zu: expected %s, got %s; %zu of %zu positions wrong",
            d->first_bad, w, g, d->mismatches, n);
        if (chosen != PL_F_UNWRITTEN && d->unwritten)
            pl_diag_add(d, "%zu of them were never written (still poison)", d->unwritten);
        add_window(d, c, d->first_bad);
    } else if (f & PL_F_RACE) {
        add_window(d, c, first_race);
    }
    return f == 0;
}

/* ------------------------------------------------------ float and double */

int pl_is_poison_f32(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b == (uint32_t)PL_POISON_I32;
}

int pl_is_poison_f64(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b == 0xA5A5A5A5A5A5A5A5ull;
}

static double real_at(int elem, const void *p, size_t i)
{
    return elem == PL_ELEM_F64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static int poison_at(int elem, const void *p, size_t i)
{
    return elem == PL_ELEM_F64 ? pl_is_poison_f64(((const double *)p)[i]) : pl_is_poison_f32(((const float *)p)[i]);
}

/* snprintf that may cut a long reason short: the reason is one line of 160. */
__attribute__((format(printf, 3, 4))) static void say(char *r, size_t rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r, rc, fmt, ap);
    va_end(ap);
}

static double tol_at(const pl_cmp_real *c, size_t i) { return c->tol ? c->tol[i] : c->tol_all; }

/* Within tolerance: finite, and no further from want than allowed. */
static int real_ok(const pl_cmp_real *c, double got, size_t i)
{
    return isfinite(got) && fabs(got - c->want[i]) <= tol_at(c, i);
}

static void fmt_real(char *buf, size_t cap, int elem, const void *p, size_t i)
{
    if (poison_at(elem, p, i))
        snprintf(buf, cap, "poison");
    else
        snprintf(buf, cap, "%.*g", elem == PL_ELEM_F64 ? 17 : 9, real_at(elem, p, i));
}

/* "row 17 (12 entries)" or "element 17" */
static void fmt_pos(char *buf, size_t cap, const pl_cmp_real *c, size_t i)
{
    const char *name = c->pos_name ? c->pos_name : "element";
    if (c->seg)
        snprintf(buf, cap, "%s %zu (%ld entries)", name, i, c->seg[i + 1] - c->seg[i]);
    else
        snprintf(buf, cap, "%s %zu", name, i);
}

static void add_real_window(pl_diag *d, const pl_cmp_real *c, size_t at)
{
    size_t lo = at > 2 ? at - 2 : 0, hi = at + 4 < c->n ? at + 4 : c->n;
    pl_diag_add(d, "    %12s %24s %24s %12s %12s", "index", "expected", "got", "error", "allowed");
    for (size_t i = lo; i < hi; i++) {
        char g[32];
        fmt_real(g, sizeof g, c->elem, c->got, i);
        double e = fabs(real_at(c->elem, c->got, i) - c->want[i]);
        pl_diag_add(d, "    %12zu %24.17g %24s %12.3g %12.3g%s", i, c->want[i], g, e, tol_at(c, i),
            real_ok(c, real_at(c->elem, c->got, i), i) ? "" : "  <");
    }
}

int pl_compare_real(const pl_cmp_real *c, pl_diag *d)
{
    memset(d, 0, sizeof *d);
    size_t n = c->n, poison = 0, nonfinite = 0, first_race = 0;
    size_t bad = 0, unwritten = 0, races = 0, first_bad = SIZE_MAX, first_r = SIZE_MAX;
    unsigned reads_output = 0;
    #pragma omp parallel for schedule(static) if (n >= PAR_FROM) reduction(+ : poison, nonfinite, bad, unwritten, \
        races) reduction(min : first_bad, first_r) reduction(| : reads_output)
    for (size_t i = 0; i < n; i++) {
        int p = poison_at(c->elem, c->got, i);
        double g = real_at(c->elem, c->got, i);
        poison += p;
        if (!p && !isfinite(g))
            nonfinite++;
        if (p || !real_ok(c, g, i)) {
            bad++;
            first_bad = i < first_bad ? i : first_bad;
            unwritten += p;
        } else if (c->got2 && !real_ok(c, real_at(c->elem, c->got2, i), i)) {
            races++; /* right the first time, wrong the second */
            first_r = i < first_r ? i : first_r;
            if (c->got2_nan_start && isnan(real_at(c->elem, c->got2, i)))
                reads_output = 1;
        }
    }
    d->mismatches = bad, d->unwritten = unwritten, d->race_diffs = races;
    d->first_bad = bad ? first_bad : 0;
    first_race = races ? first_r : 0;
    if (reads_output)
        d->findings |= PL_F_READS_OUTPUT;
    check_surroundings(d, c->guard_front, c->guard_back, c->guard_bytes, c->in, c->in_after, c->in_bytes);
    if (d->race_diffs && !(d->findings & PL_F_READS_OUTPUT))
        d->findings |= PL_F_RACE;

    /* A named mistake: every wrong position holds the suspect's value. */
    const pl_suspect *sus = NULL;
    if (d->mismatches) {
        wrong_findings(d, poison, n);
        if (nonfinite)
            d->findings |= PL_F_NOT_FINITE;
        static pl_suspect cand[2 * PL_MAX_SUSPECTS];
        int ns = c->nsuspects;
        memcpy(cand, c->suspects, (size_t)ns * sizeof *cand);
        for (int k = 0; !sus && !d->unwritten && !nonfinite; k++) {
            if (k == ns) { /* the next of the part's own, made only now */
                if (!c->more_suspects || ns >= 2 * PL_MAX_SUSPECTS ||
                    !c->more_suspects(cand + ns, ns - c->nsuspects))
                    break;
                ns++;
            }
            int all = 1;
            for (size_t i = d->first_bad; i < n && all; i++) {
                double g = real_at(c->elem, c->got, i);
                double tol = cand[k].tol ? cand[k].tol[i] : tol_at(c, i);
                all = real_ok(c, g, i) || fabs(g - cand[k].values[i]) <= tol;
            }
            if (all)
                sus = &cand[k];
        }
        if (sus)
            d->findings |= PL_F_SUSPECT;
        if (!sus && n > 1)
            check_block(d);
    }

    static const unsigned order[] = {
        PL_F_NOT_IMPLEMENTED, PL_F_GUARD_BACK, PL_F_GUARD_FRONT, PL_F_INPUT_CHANGED, PL_F_READS_OUTPUT, PL_F_SUSPECT,
        PL_F_RACE,            PL_F_NOT_FINITE, PL_F_BLOCK,       PL_F_UNWRITTEN,     PL_F_MISMATCH,
    };
    unsigned f = d->findings, chosen = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0] && !chosen; k++)
        chosen = f & order[k];
    d->chosen = chosen;
    char *r = d->reason, pos[64], g[32];
    size_t rc = sizeof d->reason;
    fmt_pos(pos, sizeof pos, c, d->mismatches ? d->first_bad : first_race);
    switch (common_reason(chosen, d, r, rc) ? 0 : chosen) {
    case PL_F_SUSPECT:
        if (n == 1) /* one output (a sum): nothing to count */
            say(r, rc, "%.100s", sus->what);
        else
            say(r, rc, "%.100s; %zu of %zu positions wrong, first %.48s", sus->what, d->mismatches, n, pos);
        break;
    case PL_F_RACE:
        say(r, rc, "right in the first run, out of tolerance in the second at %zu positions (first %.48s): a race?",
                 d->race_diffs, pos);
        break;
    case PL_F_READS_OUTPUT:
        say(r, rc, "reads its output before writing it: right when the output starts near 0, NaN at %zu positions "
                   "(first %.48s) when it starts as NaN (an add into the output, += or atomicAdd, not a write?)",
            d->race_diffs, pos);
        break;
    case PL_F_NOT_FINITE:
        fmt_real(g, sizeof g, c->elem, c->got, d->first_bad);
        say(r, rc, "%.48s is %.24s, not a number: a read of memory never written, or a division by zero?", pos, g);
        break;
    case PL_F_BLOCK:
        say(r, rc, "errors start at a block boundary: %.48s, a multiple of %zu", pos, d->block);
        break;
    case PL_F_UNWRITTEN:
        say(r, rc, "output never written at %zu of %zu positions (first %.48s)", d->unwritten, n, pos);
        break;
    case PL_F_MISMATCH:
        fmt_real(g, sizeof g, c->elem, c->got, d->first_bad);
        if (n == 1)
            say(r, rc, "the %.48s is %.24s, expected %.9g (allowed %.3g)", c->pos_name ? c->pos_name : "result", g,
                c->want[0], tol_at(c, 0));
        else
            say(r, rc, "out of tolerance at %zu of %zu positions: %.48s is %.24s, expected %.9g (allowed %.3g)",
                d->mismatches, n, pos, g, c->want[d->first_bad], tol_at(c, d->first_bad));
        break;
    }
    common_also(d, chosen);
    if (chosen != PL_F_RACE && (f & PL_F_RACE))
        pl_diag_add(d, "also: out of tolerance in a second run at %zu positions", d->race_diffs);
    if (d->mismatches && !(f & PL_F_NOT_IMPLEMENTED)) {
        fmt_real(g, sizeof g, c->elem, c->got, d->first_bad);
        pl_diag_add(d, "first wrong: %s: expected %.17g, got %s; %zu of %zu positions out of tolerance", pos,
            c->want[d->first_bad], g, d->mismatches, n);
        add_real_window(d, c, d->first_bad);
    } else if (f & (PL_F_RACE | PL_F_READS_OUTPUT)) {
        add_real_window(d, c, first_race);
    }
    /* what the suspect also stands for, when it holds everywhere: the
       grading driver reads it (a part that writes nothing), the report
       keeps the suspect's own words */
    if (sus && sus->whole) {
        int same = 1;
        #pragma omp parallel for schedule(static) if (n >= PAR_FROM) reduction(&& : same)
        for (size_t i = 0; i < n; i++)
            same = same && real_at(c->elem, c->got, i) == sus->values[i];
        if (same)
            d->findings |= sus->whole;
    }
    return f == 0;
}

/* ------------------------------------------- what the code printed as it died */

static const struct {
    const char *name, *text;
} cuda_errors[] = {
    {"cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {"cudaErrorInvalidValue", "invalid argument"},
    {"cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {"cudaErrorMemoryAllocation", "out of memory"},
    {"cudaErrorMisalignedAddress", "misaligned address"},
    {"cudaErrorLaunchFailure", "unspecified launch failure"},
    {"cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {"cudaErrorAssert", "device-side assert triggered"},
    {"cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {"cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {"cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {"cudaErrorInvalidDeviceFunction", "invalid device function"},
    {"cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {"cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {"cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
};

const char *pl_find_cuda_error(const char *text)
{
    for (size_t k = 0; text && k < sizeof cuda_errors / sizeof cuda_errors[0]; k++)
        if (strstr(text, cuda_errors[k].text) || strstr(text, cuda_errors[k].name))
            return cuda_errors[k].text;
    return NULL;
}

/* The line of text around at: [*start, *end). */
static void line_around(const char *text, const char *at, const char **start, const char **end)
{
    *start = *end = at;
    while (*start > text && (*start)[-1] != '\n')
        (*start)--;
    while (**end && **end != '\n')
        (*end)++;
}

void pl_cuda_error_place(const char *text, const char *err, char *place, size_t cap)
{
    const char *at = text && err ? strstr(text, err) : NULL, *start, *end;
    place[0] = '\0';
    if (!at || cap < 2)
        return;
    line_around(text, at, &start, &end);
    /* a name.cu:N (or .cuh, .c, .cpp, .h) token; its folder left out */
    for (const char *p = start; p < end; p++) {
        if (*p != ':' || p + 1 >= end || p[1] < '0' || p[1] > '9')
            continue;
        const char *b = p;
        while (b > start && (isalnum((unsigned char)b[-1]) || b[-1] == '_' || b[-1] == '.' || b[-1] == '-'))
            b--;
        const char *dot = memchr(b, '.', (size_t)(p - b));
        if (!dot || dot == b)
            continue;
        const char *e = p + 1;
        while (e < end && *e >= '0' && *e <= '9' && e - p < 8)
            e++;
        snprintf(place, cap, "%.*s", (int)(e - b), b);
        return;
    }
}

int pl_find_heap_error(const char *text, char *msg, size_t cap)
{
    /* glibc's malloc checks and the stack protector, as they print */
    static const char *const marks[] = {
        "corrupted size vs. prev_size", "double free or corruption", "corrupted double-linked list",
        "free(): ", "malloc(): ", "realloc(): ", "munmap_chunk(): ", "malloc_consolidate(): ",
        "corrupted top size", "*** stack smashing detected ***",
    };
    for (size_t k = 0; text && k < sizeof marks / sizeof marks[0]; k++) {
        const char *at = strstr(text, marks[k]);
        if (!at)
            continue;
        size_t len = strlen(marks[k]);
        const char *e = at + len;
        while (*e && (islower((unsigned char)*e) || *e == ' ' || *e == '(' || *e == ')') && e - at < 60)
            e++;
        while (e > at + len && e[-1] == ' ')
            e--;
        snprintf(msg, cap, "%.*s", (int)(e - at), at);
        return 1;
    }
    return 0;
}

void pl_cuda_error_hint(const char *err, long n, const char *size_name, char *out, size_t cap)
{
    const char *v = size_name ? size_name : "n";
    int large = n >= (1L << 24), small = n <= 1024;
    out[0] = '\0';
    if (!err)
        return;
    if (!strcmp(err, "invalid configuration argument") || !strcmp(err, "invalid argument")) {
        if (n <= 1)
            snprintf(out, cap, "at %s = %ld: a launch of zero blocks (%s / blockDim rounded down), or of a size "
                     "computed from log2(%s)?", v, n, v, v);
        else if (small)
            snprintf(out, cap, "at %s = %ld: a grid of zero blocks (%s / blockDim rounded down?) or a block of more "
                     "than 1024 threads?", v, n, v);
        else if (large)
            snprintf(out, cap, "at a large %s = %ld: a grid, block or shared-memory size past the device's limits, or "
                     "a size computed in int that overflowed?", v, n);
        else
            snprintf(out, cap, "at %s = %ld: a launch whose grid or block is empty or too large, or a pointer that is "
                     "not the device's?", v, n);
    } else if (!strcmp(err, "misaligned address")) {
        snprintf(out, cap, "a vector load or store (int2, int4, float4) at an address that is not a multiple of its "
                 "size?");
    } else if (!strcmp(err, "an illegal memory access was encountered") || !strcmp(err, "unspecified launch failure") ||
               !strcmp(err, "invalid device pointer")) {
        if (large)
            snprintf(out, cap, "at a large %s = %ld: an index or byte count computed in int that overflows (n * "
                     "sizeof(int) past 2^31?), or a buffer sized for a smaller %s?", v, n, v);
        else
            snprintf(out, cap, "at %s = %ld: an index past the end of an array (a missing `if (i < %s)`?), or a host "
                     "pointer used on the device?", v, n, v);
    } else if (!strcmp(err, "out of memory")) {
        snprintf(out, cap, "at %s = %ld: more device memory than the GPU has: memory allocated in every call and "
                 "never freed, or a size computed wrongly?", v, n);
    } else if (!strcmp(err, "too many resources requested for launch")) {
        snprintf(out, cap, "a block too large for the kernel's registers: fewer threads per block, or "
                 "__launch_bounds__?");
    } else if (!strcmp(err, "device-side assert triggered")) {
        snprintf(out, cap, "an assert() in a kernel failed at %s = %ld", v, n);
    }
}
