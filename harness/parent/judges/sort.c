/* harness/parent/judges/sort.c: the sort judge (see sort.h). */
#include "sort.h"

#include "../../../kernels_ref/cpu/radix.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The key as an unsigned number in the sort's order. */
static unsigned order_key(int sort, unsigned k)
{
    if (sort == PL_SORT_I32)
        return radix_key_from_int((int)k);
    if (sort == PL_SORT_F32) {
        float f;
        memcpy(&f, &k, sizeof f);
        return radix_key_from_float(f);
    }
    return k;
}

/* First i with k[i] after k[i+1] in the sort's order, or n. */
static size_t first_unsorted(const unsigned *k, size_t n, int sort)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (order_key(sort, k[i]) > order_key(sort, k[i + 1]))
            return i;
    return n;
}

static void fmt_key(char *buf, size_t cap, int sort, unsigned k)
{
    float f;
    memcpy(&f, &k, sizeof f);
    if (sort == PL_SORT_F32)
        snprintf(buf, cap, "%g", (double)f);
    else if (sort == PL_SORT_I32)
        snprintf(buf, cap, "%d", (int)k);
    else
        snprintf(buf, cap, "%u", k);
}

/* What one comparison found, from find to say. */
typedef struct sort_info {
    int keys, pairs;  /* the judge's: enum pl_sort, and whether values follow */
    size_t at;        /* where the finding shows */
    unsigned missing; /* input keys not in the output */
    const char *why;  /* what an out-of-order result suggests: short, */
    const char *more; /* and in full */
} sort_info;

/* The keys of want and got sorted as numbers: equal when got holds the same
   keys. -1 when memory ran out (no finding), else 1 (same) or 0. */
static int same_keys(const unsigned *want, const unsigned *got, size_t n, unsigned *missing)
{
    unsigned *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    int same = -1;
    if (a && b) {
        memcpy(a, want, n * sizeof *a);
        memcpy(b, got, n * sizeof *b);
        if (radix_sort_cpu(a, NULL, n, 8) == 0 && radix_sort_cpu(b, NULL, n, 8) == 0) {
            size_t i = 0, j = 0;
            *missing = 0;
            while (i < n) { /* wanted keys with no match in got */
                if (j < n && a[i] == b[j])
                    i++, j++;
                else if (j < n && b[j] < a[i])
                    j++;
                else
                    i++, ++*missing;
            }
            same = *missing == 0;
        }
    }
    free(a), free(b);
    return same;
}

/* Keys lost, misordered or unstable; values astray. Only on an output
   written everywhere: poison left says more. */
static void sort_find(const pl_cmp *c, pl_diag *d, void *state)
{
    sort_info *si = state;
    if (d->unwritten)
        return;
    size_t k = si->pairs ? c->n / 2 : c->n;
    const unsigned *gk = (const unsigned *)c->got, *wk = (const unsigned *)c->want;
    int keys_right = memcmp(gk, wk, k * sizeof *gk) == 0;
    if (si->pairs && c->in) {
        /* Each value names the input position of its key; where it does,
           equal keys must hold increasing positions, whether or not the
           keys are in order. */
        const int *gv = c->got + k;
        size_t astray = k;
        for (size_t i = 0; i < k && astray == k; i++)
            if (gv[i] < 0 || (size_t)gv[i] >= k || (unsigned)c->in[gv[i]] != gk[i])
                astray = i;
        if (astray == k) {
            for (size_t i = 0; i + 1 < k; i++)
                if (gk[i] == gk[i + 1] && gv[i] > gv[i + 1]) {
                    d->findings |= PL_F_SORT_UNSTABLE;
                    si->at = i;
                    return;
                }
        } else if (keys_right) {
            d->findings |= PL_F_SORT_VALUES;
            si->at = astray;
            return;
        }
    }
    if (keys_right)
        return;
    int same = same_keys(wk, gk, k, &si->missing);
    if (same == 0) {
        d->findings |= PL_F_SORT_LOST;
        return;
    }
    if (same < 0)
        return;
    d->findings |= PL_F_SORT_ORDER;
    si->at = first_unsorted(gk, k, si->keys);
    si->why = "is every pass stable?";
    si->more = "LSD radix sort needs each pass to keep keys with equal digits in the order the last pass left them";
    if (si->keys != PL_SORT_U32 && first_unsorted(gk, k, PL_SORT_U32) == k) {
        si->why = "sorted as unsigned bits";
        si->more = si->keys == PL_SORT_I32 ? "flip the sign bit before taking digits"
                                           : "flip the sign bit of a positive float and every bit of a negative one";
    } else if (si->keys == PL_SORT_F32 && first_unsorted(gk, k, PL_SORT_I32) == k) {
        si->why = "negative floats in reverse";
        si->more = "flip every bit of a negative float, not only its sign";
    }
}

static void sort_say(const pl_cmp *c, pl_diag *d, unsigned chosen, void *state)
{
    const sort_info *si = state;
    char *r = d->reason;
    size_t rc = sizeof d->reason, k = c->n / 2;
    char a[24], b[24];
    switch (chosen) {
    case PL_F_SORT_UNSTABLE:
        snprintf(r, rc, "not stable: out[%zu] and out[%zu] have equal keys but hold input elements %d and %d, "
                 "the reverse of their input order", si->at, si->at + 1, c->got[k + si->at], c->got[k + si->at + 1]);
        pl_diag_add(d, "a stable sort keeps equal keys in input order; LSD radix sort needs every pass stable");
        break;
    case PL_F_SORT_ORDER:
        fmt_key(a, sizeof a, si->keys, (unsigned)c->got[si->at]);
        fmt_key(b, sizeof b, si->keys, (unsigned)c->got[si->at + 1]);
        snprintf(r, rc, "keys out of order (%s before %s at index %zu), though every input key is there: %s", a, b,
                 si->at, si->why);
        pl_diag_add(d, "%s", si->more);
        break;
    case PL_F_SORT_VALUES:
        fmt_key(a, sizeof a, si->keys, (unsigned)c->got[si->at]);
        snprintf(r, rc, "keys right, but the value at index %zu (%d) is not the value of its key %s: "
                 "do the values move with the keys?", si->at, c->got[k + si->at], a);
        break;
    case PL_F_SORT_LOST:
        snprintf(r, rc, "keys lost: %u of the input's keys are not in the output (two keys written to one slot?)",
                 si->missing);
        break;
    }
}

static const pl_cmp_kind sorted = {1, sort_find, sort_say};

int pl_compare_sorted(const pl_cmp *c, int keys, int pairs, pl_diag *d)
{
    sort_info si = {keys, pairs, 0, 0, NULL, NULL};
    pl_cmp cc = *c;
    cc.kind = &sorted;
    cc.kind_state = &si;
    return pl_compare_i32(&cc, d);
}

/* ------------------------------------------------------------ the kind */

static const pl_input *sort_input(const pl_judge *j) { return &((const pl_sort_judge *)j->cfg)->in; }

/* The contract sizes a pairs sort's scratch by its keys. */
static long sort_scratch(const pl_judge *j, long n, double param)
{
    const pl_sort_judge *s = j->cfg;
    long words = pl_input_words(&s->in, n, param);
    return s->pairs ? n : words;
}

/* Graded timing patches keys, never values (each names its key's place). */
static void sort_patch(const pl_judge *j, const int *in, long n, double param, long *lo, long *hi, long *step)
{
    const pl_sort_judge *s = j->cfg;
    (void)step;
    if (s->pairs)
        *lo = 0, *hi = n;
    else
        pl_input_span(&s->in, in, n, param, lo, hi);
}

/* Two 64-bit keys no worker can know (each lab binary draws its own), for
   the keyed sums below; 0 when none could be drawn (then nothing is proven). */
static int hash_keys(uint64_t k[2])
{
    static uint64_t keys[2];
    static int state; /* 0 not drawn, 1 drawn, -1 failed */
    if (!state) {
        FILE *f = fopen("/dev/urandom", "rb");
        state = f && fread(keys, sizeof keys, 1, f) == 1 ? 1 : -1;
        if (f)
            fclose(f);
    }
    k[0] = keys[0], k[1] = keys[1];
    return state == 1;
}

/* A keyed mix of a key word: the seeds' own mix (rng.h), keyed by k. */
static uint64_t keyed(uint64_t x, uint64_t k) { return pl_seed_mix(k, x, 0); }

/* The output is the stable sort of the input, checked in two passes where
   the reference would sort (each correctness test of a sorting lab):
   - the keys in order (the sort's order), and with pairs, equal keys'
     values rising;
   - the input's keys (with pairs, its (key, value) pairs), as two sums of
     a keyed mix over input and output, with keys the worker cannot know: a
     different multiset agrees on both with a chance of about 2^-128.
   With pairs the input's values must be its positions (checked): then
   rising values within equal keys are the input's order, stability, and
   the output is the one right answer. A proof that fails says nothing:
   the reference is computed then. */
static int sort_proven(const pl_judge *j, const int *in, long n, double param, const int *out)
{
    const pl_sort_judge *s = j->cfg;
    long words = pl_input_words(&s->in, n, param);
    uint64_t hk[2];
    if (words < 0 || (s->pairs && words % 2) || !hash_keys(hk))
        return 0;
    size_t k = (size_t)(s->pairs ? words / 2 : words);
    const unsigned *ki = (const unsigned *)in, *ko = (const unsigned *)out;
    const unsigned *vi = ki + k, *vo = ko + k;
    int ok = 1, sort = s->keys, pairs = s->pairs;
    uint64_t si0 = 0, si1 = 0, so0 = 0, so1 = 0;
#pragma omp parallel for schedule(static) reduction(&& : ok) reduction(+ : si0, si1, so0, so1) if (k > 65536)
    for (size_t i = 0; i < k; i++) {
        uint64_t a = ki[i], b = ko[i];
        if (i > 0) {
            unsigned before = order_key(sort, ko[i - 1]), here = order_key(sort, ko[i]);
            if (before > here || (pairs && before == here && vo[i - 1] >= vo[i]))
                ok = 0;
        }
        if (pairs) {
            if (vi[i] != i)
                ok = 0;
            a = a << 32 | vi[i], b = b << 32 | vo[i];
        }
        si0 += keyed(a, hk[0]), si1 += keyed(a, hk[1]);
        so0 += keyed(b, hk[0]), so1 += keyed(b, hk[1]);
    }
    return ok && si0 == so0 && si1 == so1;
}

static int sort_compare(const pl_judge *j, const pl_judged *r, pl_diag *d)
{
    const pl_sort_judge *s = j->cfg;
    pl_cmp c = pl_judged_cmp(r, (size_t)pl_input_words(&s->in, r->n, r->param));
    return pl_compare_sorted(&c, s->keys, s->pairs, d);
}

const pl_judge_kind pl_sort_kind = {
    .name = "sort",
    .input = sort_input,
    .scratch_elems = sort_scratch,
    .patch = sort_patch,
    .proven = sort_proven,
    .compare = sort_compare,
};

/* ------------------------------------------------- the CPU references */

void pl_sort_must(int rc)
{
    if (rc != 0) {
        fprintf(stderr, "the CPU reference sort ran out of host memory\n");
        exit(2);
    }
}

void pl_sort_keys_cpu(const int *in, int *out, size_t n)
{
    memcpy(out, in, n * sizeof *in);
    pl_sort_must(radix_sort_cpu((unsigned *)out, NULL, n, 8));
}

void pl_sort_keys_omp(const int *in, int *out, size_t n)
{
    memcpy(out, in, n * sizeof *in);
    pl_sort_must(radix_sort_omp((unsigned *)out, NULL, n));
}

void pl_sort_pairs_cpu(const int *in, int *out, size_t n)
{
    memcpy(out, in, 2 * n * sizeof *in);
    pl_sort_must(radix_sort_cpu((unsigned *)out, (unsigned *)out + n, n, 8));
}

void pl_sort_pairs_omp(const int *in, int *out, size_t n)
{
    memcpy(out, in, 2 * n * sizeof *in);
    pl_sort_must(radix_sort_omp((unsigned *)out, (unsigned *)out + n, n));
}

/* ------------------------------------------------- the keys of the labs */

const char *const pl_keys_dist_names[PL_KEYS_DISTS] = {"random", "equal", "sorted", "reversed", "few", "high"};
const double pl_keys_dists[PL_KEYS_DISTS] = {PL_KEYS_RANDOM,   PL_KEYS_EQUAL, PL_KEYS_SORTED,
                                             PL_KEYS_REVERSED, PL_KEYS_FEW,   PL_KEYS_HIGH};

unsigned pl_keys_word(pl_rng *r) { return (unsigned)(pl_rng_next(r) >> 32); }

struct keys_ctx {
    unsigned *k;
    size_t n;
    int dist;
    unsigned one, few[8];
};

static void fill_keys(pl_rng *r, size_t lo, size_t hi, void *p)
{
    struct keys_ctx *c = p;
    for (size_t i = lo; i < hi; i++)
        switch (c->dist) {
        case PL_KEYS_EQUAL: c->k[i] = c->one; break;
        case PL_KEYS_SORTED: c->k[i] = (unsigned)(i * 61); break;
        case PL_KEYS_REVERSED: c->k[i] = (unsigned)((c->n - 1 - i) * 61); break;
        case PL_KEYS_FEW: c->k[i] = c->few[pl_rng_next(r) >> 61]; break;
        case PL_KEYS_HIGH: c->k[i] = pl_keys_word(r) >> 24 << 24; break;
        default: c->k[i] = pl_keys_word(r); break;
        }
}

void pl_keys_u32(unsigned *k, size_t n, uint64_t seed, int dist)
{
    struct keys_ctx c = {k, n, dist, 0, {0}};
    pl_rng r;
    pl_rng_seed(&r, pl_seed_mix(seed, 0x6f6e6365ull /* "once" */, 0));
    c.one = pl_keys_word(&r);
    for (int j = 0; j < 8; j++)
        c.few[j] = pl_keys_word(&r);
    pl_gen_chunks(n, seed, fill_keys, &c);
}
