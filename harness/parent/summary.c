/* harness/parent/summary.c: the check report with repeated outcomes grouped
 * (see summary.h). Pure C, no GPU; unit-tested by tests/unit/test_summary.c. */
#include "summary.h"
#include "results.h"

#include <stdlib.h>
#include <string.h>

enum {
    NAME_WIDTH = 60,   /* the name column of a test line, as before grouping */
    SIZES_WIDTH = 300, /* a group's sizes line ends in ", ..." past this */
};

/* The pending group. Invariant: n == 0, or first is a copy of the group's
   first test (its strings in one block, store), sizes[0..n) hold each
   member's size label, and every member shares first's part, status, passing
   and reason up to its numbers; varies[k] says whether the k-th run of
   digits in first.reason differs between members. */
struct pl_summary {
    FILE *out;
    int verbose;
    int n, cap;
    pl_sum_test first;
    char *store;
    int passing;
    double seconds, points, max;
    char **sizes;
    unsigned char *varies;
};

static const char *str(const char *s) { return s ? s : ""; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int passed(const pl_sum_test *t)
{
    return !strcmp(str(t->status), "OK") && t->points >= t->max - 1e-9;
}

static void print_indented(FILE *f, const char *text)
{
    for (const char *s = str(text); *s;) {
        const char *nl = strchr(s, '\n');
        int len = nl ? (int)(nl - s) : (int)strlen(s);
        fprintf(f, "    %.*s\n", len, s);
        s = nl ? nl + 1 : s + len;
    }
}

/* A test line's end: its seconds and points, or that it did not run here. */
static void print_tail(FILE *f, const pl_sum_test *t, double seconds, double points, double max)
{
    if (t->not_run)
        fputs("not run here", f);
    else
        fprintf(f, "%6.2fs  %s/%s", seconds, pl_points_str(points, 0), pl_points_str(max, 1));
}

/* Exactly the line (and reason and detail) of the report before grouping. */
static void print_single(FILE *f, const pl_sum_test *t)
{
    fprintf(f, "%-*s %-7s ", NAME_WIDTH, str(t->name), str(t->status));
    print_tail(f, t, t->seconds, t->points, t->max);
    fputc('\n', f);
    if (strcmp(str(t->status), "OK") || t->perf) {
        print_indented(f, t->reason);
        print_indented(f, t->detail);
    }
}

/* Equal once each run of digits counts as one placeholder: the same
   diagnosis at another size ("index 1024" and "index 2048"). */
static int same_diagnosis(const char *a, const char *b)
{
    a = str(a);
    b = str(b);
    while (*a || *b) {
        if (is_digit(*a) && is_digit(*b)) {
            while (is_digit(*a))
                a++;
            while (is_digit(*b))
                b++;
        } else if (*a++ != *b++) {
            return 0;
        }
    }
    return 1;
}

static int digit_runs(const char *s)
{
    int k = 0;
    for (; *s; s++)
        k += is_digit(*s) && !is_digit(s[1]);
    return k;
}

/* b has the diagnosis of first.reason; mark the numbers in which they differ. */
static void mark_varying(pl_summary *s, const char *b)
{
    const char *a = s->first.reason;
    b = str(b);
    for (int k = 0; *a;) {
        if (!is_digit(*a)) {
            a++, b++;
            continue;
        }
        size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
        if (la != lb || memcmp(a, b, la))
            s->varies[k] = 1;
        a += la, b += lb, k++;
    }
}

/* Copies t into s->first, its strings into one block. */
static int copy_first(pl_summary *s, const pl_sum_test *t)
{
    const char *src[7] = {t->group, t->title ? t->title : t->group, t->name, t->size,
                          t->status, t->reason, t->detail};
    size_t len[7], total = 0;
    for (int i = 0; i < 7; i++)
        total += (len[i] = strlen(str(src[i]))) + 1;
    if (!(s->store = malloc(total)))
        return -1;
    const char *dst[7];
    char *p = s->store;
    for (int i = 0; i < 7; i++) {
        memcpy(p, str(src[i]), len[i] + 1);
        dst[i] = p;
        p += len[i] + 1;
    }
    s->first = *t;
    s->first.group = dst[0], s->first.title = dst[1], s->first.name = dst[2];
    s->first.size = dst[3], s->first.status = dst[4];
    s->first.reason = dst[5], s->first.detail = dst[6];
    return 0;
}

static int push_size(pl_summary *s, const char *size)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        char **grown = realloc(s->sizes, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        s->sizes = grown;
        s->cap = cap;
    }
    size_t len = strlen(str(size)) + 1;
    if (!(s->sizes[s->n] = malloc(len)))
        return -1;
    memcpy(s->sizes[s->n++], str(size), len);
    return 0;
}

static void clear(pl_summary *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->sizes[i]);
    free(s->store);
    free(s->varies);
    s->store = NULL;
    s->varies = NULL;
    s->n = 0;
}

/* ------------------------------------------------------- a group's lines */

/* Length of the "name=" that every size label starts with, so that it is
   printed once ("n = 0, 1, 31"); 0 when they differ or when a label holds a
   comma ("n=1, keep=0.5"), which the factored list would make ambiguous. */
static size_t common_key(const pl_summary *s)
{
    const char *l = s->sizes[0];
    size_t k = strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    if (k == 0 || l[k] != '=')
        return 0;
    for (int i = 0; i < s->n; i++)
        if (strncmp(s->sizes[i], l, k + 1) || strchr(s->sizes[i], ','))
            return 0;
    return k + 1;
}

/* "n = 0, 1, 31, ...": every size, up to SIZES_WIDTH characters. */
static void print_sizes(const pl_summary *s)
{
    size_t key = common_key(s), width = 0;
    const char *sep = ", ";
    for (int i = 0; i < s->n; i++)
        if (strchr(s->sizes[i], ','))
            sep = "; ";
    fputs("    ", s->out);
    if (key)
        fprintf(s->out, "%.*s = ", (int)key - 1, s->sizes[0]);
    for (int i = 0; i < s->n; i++) {
        const char *label = s->sizes[i] + key;
        width += (i ? 2 : 0) + strlen(label);
        if (i && width > SIZES_WIDTH) {
            fprintf(s->out, "%s...", sep);
            break;
        }
        fprintf(s->out, "%s%s", i ? sep : "", label);
    }
    fputc('\n', s->out);
}

/* "n = 0 .. 67108864": smallest and largest when every size is a number,
   else the first and the last. */
static void print_range(const pl_summary *s)
{
    size_t key = common_key(s);
    int lo = 0, hi = s->n - 1, numeric = 1;
    double vlo = 0, vhi = 0;
    for (int i = 0; i < s->n && numeric; i++) {
        char *end;
        double v = strtod(s->sizes[i] + key, &end);
        numeric = end != s->sizes[i] + key && !*end;
        if (i == 0 || v < vlo)
            vlo = v, lo = i;
        if (i == 0 || v > vhi)
            vhi = v, hi = i;
    }
    if (!numeric)
        lo = 0, hi = s->n - 1;
    if (key)
        fprintf(s->out, "%.*s = ", (int)key - 1, s->sizes[0]);
    fprintf(s->out, "%s .. %s", s->sizes[lo] + key, s->sizes[hi] + key);
}

/* The shared reason, each number that differs within the group as '#'. */
static void print_reason(const pl_summary *s)
{
    const char *r = s->first.reason;
    char *out = malloc(strlen(r) + 1), *o = out;
    if (!out) { /* still say what went wrong, numbers of the first test */
        print_indented(s->out, r);
        return;
    }
    for (int k = 0; *r;) {
        if (!is_digit(*r)) {
            *o++ = *r++;
            continue;
        }
        size_t len = strspn(r, "0123456789");
        if (s->varies[k++])
            *o++ = '#';
        else
            memcpy(o, r, len), o += len;
        r += len;
    }
    *o = '\0';
    print_indented(s->out, out);
    free(out);
}

static void print_group(const pl_summary *s)
{
    const pl_sum_test *t = &s->first;
    int w = t->total_in_part == s->n
                ? fprintf(s->out, "%s: %d of %d tests", t->title, s->n, s->n)
                : fprintf(s->out, "%s: %d tests", t->title, s->n);
    fprintf(s->out, "%*s %-7s ", w < NAME_WIDTH ? NAME_WIDTH - w : 0, "", t->status);
    print_tail(s->out, t, s->seconds, s->points, s->max);
    if (s->passing) {
        fputs("  ", s->out);
        print_range(s);
        fputc('\n', s->out);
        return;
    }
    fputc('\n', s->out);
    print_reason(s);
    print_sizes(s);
}

/* ---------------------------------------------------------- interface */

pl_summary *pl_summary_new(FILE *out, int verbose)
{
    pl_summary *s = calloc(1, sizeof *s);
    if (s) {
        s->out = out;
        s->verbose = verbose;
    }
    return s;
}

void pl_summary_flush(pl_summary *s)
{
    if (!s->n)
        return;
    if (s->n == 1)
        print_single(s->out, &s->first);
    else
        print_group(s);
    clear(s);
    fflush(s->out);
}

static int belongs(const pl_summary *s, const pl_sum_test *t)
{
    if (!s->n || strcmp(s->first.group, str(t->group)) || strcmp(s->first.status, str(t->status)) ||
        s->passing != passed(t) || !s->first.not_run != !t->not_run)
        return 0;
    /* a pass's reason is never printed, so it cannot split a group */
    return s->passing || same_diagnosis(s->first.reason, t->reason);
}

/* Starts a group with t; -1 (and nothing pending) when memory ran out. */
static int start(pl_summary *s, const pl_sum_test *t)
{
    if (copy_first(s, t) || !(s->varies = calloc((size_t)digit_runs(s->first.reason) + 1, 1)) ||
        push_size(s, t->size)) {
        clear(s);
        return -1;
    }
    s->passing = passed(t);
    s->seconds = t->seconds;
    s->points = t->points;
    s->max = t->max;
    return 0;
}

int pl_summary_add(pl_summary *s, const pl_sum_test *t)
{
    if (s->verbose || t->perf) {
        pl_summary_flush(s);
        print_single(s->out, t);
        fflush(s->out);
        return 0;
    }
    if (belongs(s, t) && push_size(s, t->size) == 0) {
        mark_varying(s, t->reason);
        s->seconds += t->seconds;
        s->points += t->points;
        s->max += t->max;
        return 0;
    }
    pl_summary_flush(s);
    if (start(s, t) == 0)
        return 0;
    print_single(s->out, t);
    fflush(s->out);
    return -1;
}

void pl_summary_free(pl_summary *s)
{
    if (!s)
        return;
    pl_summary_flush(s);
    free(s->sizes);
    free(s);
}
