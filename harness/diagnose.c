/* harness/diagnose.c: result comparison with diagnosis (see diagnose.h). */
#include "diagnose.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

size_t pl_guard_changed(const uint8_t *p, size_t bytes)
{
    size_t bad = 0;
    for (size_t i = 0; p && i < bytes; i++)
        bad += p[i] != PL_POISON_BYTE;
    return bad;
}

/* Appends one printf-formatted line to d->detail, silently truncating. */
static void add(pl_diag *d, const char *fmt, ...)
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
        add(d, "    %12s %12s %12s %12s", "index", "expected", "got", "2nd run");
    else
        add(d, "    %12s %12s %12s", "index", "expected", "got");
    for (size_t i = lo; i < hi; i++) {
        char w[16], g[16], g2[16];
        fmt_value(w, sizeof w, c->want[i]);
        fmt_value(g, sizeof g, c->got[i]);
        int bad = c->got[i] != c->want[i] || (got2 && got2[i] != c->got[i]);
        if (got2) {
            fmt_value(g2, sizeof g2, got2[i]);
            add(d, "    %12zu %12s %12s %12s%s", i, w, g, g2, bad ? "  <" : "");
        } else {
            add(d, "    %12zu %12s %12s%s", i, w, g, bad ? "  <" : "");
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

int pl_compare_i32(const pl_cmp *c, pl_diag *d)
{
    memset(d, 0, sizeof *d);
    size_t n = c->n, first_race = 0;

    size_t poison = 0; /* positions still poison; all of them: untouched output */
    for (size_t i = 0; i < n; i++) {
        poison += c->got[i] == PL_POISON_I32;
        if (c->got[i] != c->want[i]) {
            if (d->mismatches++ == 0)
                d->first_bad = i;
            d->unwritten += c->got[i] == PL_POISON_I32;
        }
        if (c->got2 && c->got2[i] != c->got[i] && d->race_diffs++ == 0)
            first_race = i;
    }
    d->guard_front_bad = pl_guard_changed(c->guard_front, c->guard_bytes);
    d->guard_back_bad = pl_guard_changed(c->guard_back, c->guard_bytes);

    if (d->guard_back_bad)
        d->findings |= PL_F_GUARD_BACK;
    if (d->guard_front_bad)
        d->findings |= PL_F_GUARD_FRONT;
    if (c->in && c->in_after && memcmp(c->in, c->in_after, (c->n_in ? c->n_in : n) * sizeof *c->in) != 0)
        d->findings |= PL_F_INPUT_CHANGED;
    if (d->race_diffs)
        d->findings |= PL_F_RACE;
    if (d->mismatches) {
        d->findings |= PL_F_MISMATCH;
        if (poison == n)
            d->findings |= PL_F_NOT_IMPLEMENTED;
        else if (d->unwritten)
            d->findings |= PL_F_UNWRITTEN;
        if (!(d->findings & PL_F_NOT_IMPLEMENTED)) {
            if (shifted(c, +1))
                d->findings |= PL_F_SHIFT_RIGHT;
            else if (shifted(c, -1))
                d->findings |= PL_F_SHIFT_LEFT;
        }
        size_t low = d->first_bad & (~d->first_bad + 1); /* largest power of two dividing it */
        if (d->first_bad >= 32 && low >= 32 && !(d->findings & (PL_F_SHIFT_RIGHT | PL_F_SHIFT_LEFT))) {
            d->findings |= PL_F_BLOCK;
            d->block = low;
        }
    }

    /* The reason is the most telling finding; the others follow as detail. */
    static const unsigned order[] = {
        PL_F_NOT_IMPLEMENTED, PL_F_GUARD_BACK, PL_F_GUARD_FRONT, PL_F_INPUT_CHANGED, PL_F_RACE,
        PL_F_SHIFT_RIGHT, PL_F_SHIFT_LEFT, PL_F_BLOCK, PL_F_UNWRITTEN, PL_F_MISMATCH,
    };
    unsigned f = d->findings, chosen = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0] && !chosen; k++)
        chosen = f & order[k];
    char *r = d->reason;
    size_t rc = sizeof d->reason;
    switch (chosen) {
    case PL_F_NOT_IMPLEMENTED:
        snprintf(r, rc, "not implemented yet (the output was never written)");
        break;
    case PL_F_GUARD_BACK:
        snprintf(r, rc, "wrote past the end of the output (%zu bytes of the guard zone after it changed)",
                 d->guard_back_bad);
        break;
    case PL_F_GUARD_FRONT:
        snprintf(r, rc, "wrote before the start of the output (%zu bytes of the guard zone before it changed)",
                 d->guard_front_bad);
        break;
    case PL_F_INPUT_CHANGED:
        snprintf(r, rc, "modified its input, which is read-only");
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
    }

    if (chosen != PL_F_GUARD_FRONT && (f & PL_F_GUARD_FRONT))
        add(d, "also wrote before the start of the output (%zu guard bytes changed)", d->guard_front_bad);
    if (chosen != PL_F_GUARD_BACK && (f & PL_F_GUARD_BACK))
        add(d, "also wrote past the end of the output (%zu guard bytes changed)", d->guard_back_bad);
    if (chosen != PL_F_RACE && (f & PL_F_RACE))
        add(d, "also: results differ between two runs at %zu positions", d->race_diffs);
    if (chosen != PL_F_INPUT_CHANGED && (f & PL_F_INPUT_CHANGED))
        add(d, "also modified its input, which is read-only");
    if (d->mismatches && !(f & PL_F_NOT_IMPLEMENTED)) {
        char w[16], g[16];
        fmt_value(w, sizeof w, c->want[d->first_bad]);
        fmt_value(g, sizeof g, c->got[d->first_bad]);
        add(d, "first mismatch at index %zu: expected %s, got %s; %zu of %zu positions wrong",
            d->first_bad, w, g, d->mismatches, n);
        if (chosen != PL_F_UNWRITTEN && d->unwritten)
            add(d, "%zu of them were never written (still poison)", d->unwritten);
        add_window(d, c, d->first_bad);
    } else if (f & PL_F_RACE) {
        add_window(d, c, first_race);
    }
    return f == 0;
}
