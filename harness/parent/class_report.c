/* harness/parent/class_report.c: the class report (see class_report.h).
 *
 * One pass over the class: the record and the ungraded list give the
 * students; each student's scores file is read, folded into per-lab,
 * per-test and per-bug-class aggregates, and freed. The two pages are then
 * written by the same section functions through a small writer that knows
 * Markdown and HTML; the figures come from one gnuplot run over data files
 * in a temporary folder.
 */
#define _GNU_SOURCE /* mkstemp, mkdtemp, open_memstream, strdup, getline */
#include "class_report.h"

#include "../serve/board.h"
#include "bugs.h"
#include "scores.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LABS 64    /* lab ids seen in one class; "01".."99" in practice */
#define PART_CAP 24    /* a part id ("01.bte") with room to spare */
#define N_SLOWEST 5    /* students listed as the slowest to grade */
#define STRIP_MAX 2000 /* performance values drawn one by one up to this many */
#define PATH_CAP 4096  /* a folder's path; a file in it gets room for its name too */

/* ------------------------------------------------------------ containers */

typedef struct dvec {
    double *v;
    int n, cap;
} dvec;

typedef struct ivec {
    int *v;
    int n, cap;
} ivec;

/* The array p (n used of *cap elements of size bytes) with room for one
   more: p itself, or a larger copy (*cap updated); NULL out of memory, p
   then kept as it was. GROW(a, n, cap) is that for array a, 0 or -1. */
static void *grow(void *p, int n, int *cap, size_t size)
{
    if (n < *cap)
        return p;
    int c = *cap ? 2 * *cap : 16;
    void *q = realloc(p, (size_t)c * size);
    if (q)
        *cap = c;
    return q;
}

#define GROW(a, n, cap) grown((void *)&(a), grow((a), (n), &(cap), sizeof *(a)))

/* Stores q into the pointer at a (any object pointer type, written as
   bytes so that no type is punned): 0, or -1 for NULL. */
static int grown(void *a, void *q)
{
    if (!q)
        return -1;
    memcpy(a, &q, sizeof q);
    return 0;
}

static int dpush(dvec *d, double x)
{
    if (GROW(d->v, d->n, d->cap))
        return -1;
    d->v[d->n++] = x;
    return 0;
}

static int ipush(ivec *d, int x)
{
    if (GROW(d->v, d->n, d->cap))
        return -1;
    d->v[d->n++] = x;
    return 0;
}

/* ----------------------------------------------------------------- model */

typedef struct lab {
    char id[8];
    dvec scores; /* one per student with rows in this lab */
    double max;  /* the lab's points: the largest maximum a student had, run or not */
    int missing, nobuild;
    int graded; /* students with rows in it (one not handed in has a MISSING row) */
    int notrun; /* of them, those whose tests could not run (no GPU): compiled, never tested */
} lab;

typedef struct test {
    char *key;        /* lab "\t" name, owned */
    const char *name; /* inside key */
    int lab, order, hidden, perf;
    int n, pass; /* rows, and rows OK with full points */
    double points, max;
    dvec values;     /* a performance test's ratios */
    char target[16]; /* its full-marks ratio, as the rows give it */
    double solution; /* the solution's ratio, NAN when none */
} test;

/* Where a bug class was hit: a lab's part, with how many students. */
typedef struct place {
    int lab, n, last;
    char part[PART_CAP];
} place;

/* A bug class (or a cause) and the students who hit it; last is the last
   student counted, so that a student's many rows count once. */
typedef struct census {
    const char *code, *title, *hint;
    char *owned; /* the code of a class bugs.h does not know */
    int n, last;
    ivec students;
    place *places;
    int nplaces, cap;
} census;

typedef struct student {
    char *name, *shown;
    int record; /* a line in the record: graded */
    int stray;  /* results in GRADES but no record line */
    int err;    /* errno of reading scores.tsv; 0 when read */
    int dry;    /* the record's mode is dry (PRIMLAB_NO_GPU=1): no test ran, no score */
    int roster_only; /* on the LMS's roster, no submission (lms-unmatched.txt): no results */
    char *model, *host;
    double seconds;   /* NAN when the record does not say */
    char *when, *why; /* .ungraded.tsv's, or NULL */
} student;

typedef struct klass {
    const char *grades;
    const pl_report_opts *o;
    student *st;
    int nst, capst;
    lab labs[MAX_LABS];
    int nlabs, order[MAX_LABS]; /* order: the labs sorted by id */
    test *tests;
    int ntests, captests;
    int *slots, nslots; /* open-addressed table of test indices, -1 empty */
    census *cs;
    int ncs, capcs;
    census cause[2]; /* NOBUILD, MISSING */
    /* Rows of tests that ran, and of tests that could not for want of a GPU
       or of the kit's worker (NOGPU, NOWORKER): a class with none of the
       first and some of the second was a dry run, and scores nothing. */
    long rows_ran, rows_nogpu;
    int roster; /* the roster's students with no submission (student.roster_only) */
    char nogpu_why[160];
    dvec total;
    double total_max;
    int oom, too_many_labs;
    pl_board *board; /* the leaderboard (harness/serve/board.h), from the same rows */
} klass;

enum { CAUSE_NOBUILD, CAUSE_MISSING };

/* The part of a test: its name up to the first space ("01.b"). */
static void part_of(const char *name, char *out, size_t cap)
{
    size_t len = strcspn(name, " ");
    if (len >= cap)
        len = cap - 1;
    memcpy(out, name, len);
    out[len] = '\0';
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* ------------------------------------------------------------ statistics */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of sorted v, linear between neighbours. */
static double quantile(const double *v, int n, double q)
{
    double at = q * (n - 1);
    int i = (int)at;
    return i + 1 < n ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[n - 1];
}

void pl_stats_of(double *v, int n, pl_stats *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0)
        return;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    s->mean = sum / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - s->mean) * (v[i] - s->mean);
    s->sd = sqrt(sq / n);
    s->min = v[0], s->max = v[n - 1];
    s->median = quantile(v, n, 0.5);
    s->q1 = quantile(v, n, 0.25), s->q3 = quantile(v, n, 0.75);
}

/* -------------------------------------------------------------- siphash */

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                                       \
    do {                                                                                                               \
        v0 += v1, v1 = ROTL(v1, 13), v1 ^= v0, v0 = ROTL(v0, 32);                                                      \
        v2 += v3, v3 = ROTL(v3, 16), v3 ^= v2;                                                                         \
        v0 += v3, v3 = ROTL(v3, 21), v3 ^= v0;                                                                         \
        v2 += v1, v1 = ROTL(v1, 17), v1 ^= v2, v2 = ROTL(v2, 32);                                                      \
    } while (0)

static uint64_t le64(const unsigned char *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

uint64_t pl_siphash(const unsigned char key[16], const void *data, size_t len)
{
    uint64_t k0 = le64(key), k1 = le64(key + 8);
    uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
    uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
    const unsigned char *in = data;
    size_t end = len - len % 8;
    for (size_t i = 0; i < end; i += 8) {
        uint64_t m = le64(in + i);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)len << 56;
    for (size_t i = 0; i < len % 8; i++)
        b |= (uint64_t)in[end + i] << (8 * i);
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    for (int i = 0; i < 4; i++)
        SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* ------------------------------------------------------------- escaping */

void pl_html_puts(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c == '\'')
            fputs("&#39;", f);
        else
            fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
}

void pl_url_puts(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || strchr("._~-", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

void pl_md_puts(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '|' || c == '\\')
            fputc('\\', f);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
}

/* ------------------------------------------------------------- students */

static student *add_student(klass *c, const char *name)
{
    if (GROW(c->st, c->nst, c->capst))
        return NULL;
    student *s = &c->st[c->nst];
    memset(s, 0, sizeof *s);
    s->seconds = NAN;
    if (!(s->name = strdup(name)))
        return NULL;
    c->nst++;
    return s;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const student *)a)->name, ((const student *)b)->name);
}

static int cmp_shown(const void *a, const void *b)
{
    return strcmp(((const student *)a)->shown, ((const student *)b)->shown);
}

/* The student called name in c->st, sorted by name; NULL when none. */
static student *find_student(klass *c, const char *name)
{
    student key = {.name = (char *)name};
    return c->nst ? bsearch(&key, c->st, (size_t)c->nst, sizeof *c->st, cmp_name) : NULL;
}

/* The student called name, added when new; NULL out of memory. The
   students are sorted again after each new one: simple, and a class has
   hundreds. */
static student *student_named(klass *c, const char *name)
{
    student *s = find_student(c, name);
    if (s || !add_student(c, name))
        return s;
    qsort(c->st, (size_t)c->nst, sizeof *c->st, cmp_name);
    return find_student(c, name);
}

/* Splits a TSV line in place into at most n fields; returns how many. */
static int split_tabs(char *line, char **field, int n)
{
    line[strcspn(line, "\r\n")] = '\0';
    int k = 0;
    for (char *p = line; p && k < n; k++) {
        field[k] = p;
        if ((p = strchr(p, '\t')))
            *p++ = '\0';
    }
    return k;
}

/* The record: one student per name, from the name's last line. */
static int read_record(klass *c, FILE *f)
{
    char *line = NULL, *fl[10];
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        int k = split_tabs(line, fl, 10);
        if (!*fl[0] || fl[0][0] == '#')
            continue;
        student *s = student_named(c, fl[0]);
        if (!s)
            break;
        free(s->model), free(s->host);
        s->record = 1;
        s->host = strdup(k > 3 ? fl[3] : "-");
        s->model = strdup(k > 5 ? fl[5] : "-");
        s->dry = k > 9 && !strcmp(fl[9], "dry");
        char *end = NULL;
        s->seconds = k > 8 ? strtod(fl[8], &end) : NAN;
        if (k > 8 && (end == fl[8] || *end))
            s->seconds = NAN;
        if (!s->host || !s->model)
            break;
    }
    int oom = !feof(f);
    free(line);
    return oom ? -1 : 0;
}

/* .ungraded.tsv: the student, the run's time and why. */
static int read_ungraded(klass *c, FILE *f)
{
    char *line = NULL, *fl[3];
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        int k = split_tabs(line, fl, 3);
        if (!*fl[0] || fl[0][0] == '#')
            continue;
        student *s = student_named(c, fl[0]);
        if (!s)
            break;
        free(s->when), free(s->why);
        s->when = strdup(k > 1 ? fl[1] : "");
        s->why = strdup(k > 2 ? fl[2] : "");
        if (!s->when || !s->why)
            break;
    }
    int oom = !feof(f);
    free(line);
    return oom ? -1 : 0;
}

/* lms-unmatched.txt (harness/lms.py, with ROSTER): the roster's students
   with no submission, one a line, indented by two spaces, under the line
   "lms: roster students with no submission (N):"; the next "lms:" line ends
   the list. Each is a student of the class who handed in no lab. */
static int read_roster_only(klass *c, FILE *f)
{
    static const char head[] = "lms: roster students with no submission";
    char *line = NULL;
    size_t cap = 0;
    int in = 0, oom = 0;
    while (!oom && getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, "lms:", 4))
            in = !strncmp(line, head, sizeof head - 1);
        else if (in && !strncmp(line, "  ", 2) && line[2] && !find_student(c, line + 2)) {
            student *s = student_named(c, line + 2);
            if (s)
                s->roster_only = 1;
            oom = !s;
        }
    }
    free(line);
    return oom ? -1 : 0;
}

/* Folders with results but no record line: listed, never counted. */
static int find_strays(klass *c, DIR *d)
{
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || find_student(c, e->d_name))
            continue;
        char path[PATH_CAP + 128];
        snprintf(path, sizeof path, "%s/%s/scores.tsv", c->grades, e->d_name);
        if (access(path, F_OK) != 0)
            continue;
        student *s = student_named(c, e->d_name);
        if (!s)
            return -1;
        s->stray = 1;
    }
    return 0;
}

/* --------------------------------------------------------------- anonymity */

/* The key of GRADES's pseudonyms: read from .anon-key (32 hex digits), or
   made from /dev/urandom and kept there. */
static int anon_key(const char *grades, unsigned char key[16], char *err, size_t cap)
{
    char path[PATH_CAP + 128], hex[40] = "";
    snprintf(path, sizeof path, "%s/.anon-key", grades);
    FILE *f = fopen(path, "r");
    if (f) {
        int ok = fgets(hex, sizeof hex, f) != NULL;
        fclose(f);
        for (int i = 0; ok && i < 16; i++)
            ok = sscanf(hex + 2 * i, "%2hhx", &key[i]) == 1;
        if (ok)
            return 0;
        snprintf(err, cap, "'%s' is not a key of 32 hex digits: remove it to make a new one", path);
        return -1;
    }
    f = fopen("/dev/urandom", "r");
    int ok = f && fread(key, 1, 16, f) == 16;
    if (f)
        fclose(f);
    int fd = ok ? open(path, O_WRONLY | O_CREAT | O_EXCL, 0600) : -1;
    if (fd >= 0) {
        for (int i = 0; i < 16; i++)
            snprintf(hex + 2 * i, 3, "%02x", key[i]);
        hex[32] = '\n';
        ok = write(fd, hex, 33) == 33;
        ok = close(fd) == 0 && ok;
    }
    if (fd < 0 || !ok) {
        snprintf(err, cap, "cannot make the pseudonyms' key '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* "student-" and 8 hex digits of the keyed hash, 16 when two names share
   the first 8, and "-2", "-3" after a (never seen) full collision, in name
   order: unique within the class, and the same in every report of it. */
static int pseudonyms(klass *c, const unsigned char key[16])
{
    uint64_t *h = malloc(sizeof *h * (size_t)(c->nst + 1)), *sorted = malloc(sizeof *h * (size_t)(c->nst + 1));
    if (!h || !sorted) {
        free(h), free(sorted);
        return -1;
    }
    for (int i = 0; i < c->nst; i++)
        sorted[i] = h[i] = pl_siphash(key, c->st[i].name, strlen(c->st[i].name));
    qsort(sorted, (size_t)c->nst, sizeof *sorted, cmp_u64);
    for (int i = 0; i < c->nst; i++) {
        int at = (int)((uint64_t *)bsearch(&h[i], sorted, (size_t)c->nst, sizeof *sorted, cmp_u64) - sorted);
        while (at > 0 && sorted[at - 1] == h[i])
            at--;
        int same8 =
            (at > 0 && sorted[at - 1] >> 32 == h[i] >> 32) || (at + 1 < c->nst && sorted[at + 1] >> 32 == h[i] >> 32);
        int dup = 0; /* earlier names (in name order) with the same full hash */
        for (int j = 0; j < i; j++)
            dup += h[j] == h[i];
        char buf[48];
        int len = snprintf(buf, sizeof buf, "student-%016llx", (unsigned long long)h[i]);
        if (!same8)
            len = 8 + 8;
        buf[len] = '\0';
        if (dup)
            snprintf(buf + len, sizeof buf - (size_t)len, "-%d", dup + 1);
        if (!(c->st[i].shown = strdup(buf)))
            break;
    }
    free(h), free(sorted);
    return c->nst && !c->st[c->nst - 1].shown ? -1 : 0;
}

/* text with every name in it replaced by shown (a reason may quote a path
   that holds the student's name); malloc'd. */
static char *replace_all(const char *text, const char *name, const char *shown)
{
    char *out = NULL;
    size_t len = 0, nl = strlen(name);
    FILE *m = open_memstream(&out, &len);
    if (!m)
        return NULL;
    for (const char *p = text; *p;) {
        const char *hit = nl ? strstr(p, name) : NULL;
        if (!hit) {
            fputs(p, m);
            break;
        }
        fwrite(p, 1, (size_t)(hit - p), m);
        fputs(shown, m);
        p = hit + nl;
    }
    fclose(m);
    return out;
}

/* ------------------------------------------------------------ aggregates */

/* The index of lab id, added when new; -1 past MAX_LABS. */
static int lab_index(klass *c, const char *id)
{
    for (int i = 0; i < c->nlabs; i++)
        if (!strcmp(c->labs[i].id, id))
            return i;
    if (c->nlabs == MAX_LABS) {
        c->too_many_labs = 1;
        return -1;
    }
    lab *l = &c->labs[c->nlabs];
    memset(l, 0, sizeof *l);
    snprintf(l->id, sizeof l->id, "%s", id);
    return c->nlabs++;
}

/* The test table twice as large (at least 1024 slots), kept at most half
   full so that a probe ends soon. */
static int rehash(klass *c)
{
    int n = c->nslots ? 2 * c->nslots : 1024;
    int *s = malloc(sizeof *s * (size_t)n);
    if (!s)
        return -1;
    for (int i = 0; i < n; i++)
        s[i] = -1;
    for (int t = 0; t < c->ntests; t++) {
        uint64_t h = fnv1a(c->tests[t].key) & (uint64_t)(n - 1);
        while (s[h] >= 0)
            h = (h + 1) & (uint64_t)(n - 1);
        s[h] = t;
    }
    free(c->slots);
    c->slots = s, c->nslots = n;
    return 0;
}

/* The test of lab l called name, made when new; NULL out of memory. */
static test *test_get(klass *c, int l, const char *name)
{
    char key[1024];
    snprintf(key, sizeof key, "%s\t%s", c->labs[l].id, name);
    if (2 * (c->ntests + 1) > c->nslots && rehash(c))
        return NULL;
    uint64_t mask = (uint64_t)(c->nslots - 1), h = fnv1a(key) & mask;
    for (; c->slots[h] >= 0; h = (h + 1) & mask)
        if (!strcmp(c->tests[c->slots[h]].key, key))
            return &c->tests[c->slots[h]];
    if (GROW(c->tests, c->ntests, c->captests))
        return NULL;
    test *t = &c->tests[c->ntests];
    memset(t, 0, sizeof *t);
    if (!(t->key = strdup(key)))
        return NULL;
    t->name = t->key + strlen(c->labs[l].id) + 1;
    t->lab = l, t->order = c->ntests, t->solution = NAN;
    c->slots[h] = c->ntests++;
    return t;
}

/* The census entry of code: bugs.h's class, or a new entry for a code this
   report does not know (a newer kit's), kept after them. */
static census *census_of(klass *c, const char *code)
{
    for (int i = 0; i < c->ncs; i++)
        if (!strcmp(c->cs[i].code, code))
            return &c->cs[i];
    if (GROW(c->cs, c->ncs, c->capcs))
        return NULL;
    census *e = &c->cs[c->ncs];
    memset(e, 0, sizeof *e);
    if (!(e->owned = strdup(code)))
        return NULL;
    e->code = e->owned, e->title = "(a class this report does not know)", e->hint = "", e->last = -1;
    c->ncs++;
    return e;
}

/* Counts student si once for e, and once for e's place (lab l, part). */
static int census_hit(census *e, int si, int l, const char *part)
{
    if (e->last != si) {
        e->last = si, e->n++;
        if (ipush(&e->students, si))
            return -1;
    }
    place *p = NULL;
    for (int i = 0; i < e->nplaces && !p; i++)
        if (e->places[i].lab == l && !strcmp(e->places[i].part, part))
            p = &e->places[i];
    if (!p) {
        if (GROW(e->places, e->nplaces, e->cap))
            return -1;
        p = &e->places[e->nplaces++];
        memset(p, 0, sizeof *p);
        p->lab = l, p->last = -1;
        snprintf(p->part, sizeof p->part, "%s", part);
    }
    if (p->last != si)
        p->last = si, p->n++;
    return 0;
}

static int fold_bugs(klass *c, int si, int l, const pl_score *r)
{
    char part[PART_CAP], code[sizeof r->bugs];
    part_of(r->name ? r->name : "", part, sizeof part);
    for (const char *p = r->bugs; *p;) {
        size_t len = strcspn(p, ",");
        memcpy(code, p, len);
        code[len] = '\0';
        p += len + (p[len] == ',');
        census *e = len ? census_of(c, code) : NULL;
        if (len && (!e || census_hit(e, si, l, part)))
            return -1;
    }
    return 0;
}

static int fold_test(klass *c, int l, const pl_score *r)
{
    test *t = test_get(c, l, r->name ? r->name : "");
    if (!t)
        return -1;
    t->n++;
    t->pass += !strcmp(r->status, "OK") && r->points >= r->max - 1e-9;
    t->points += r->points;
    t->max = fmax(t->max, r->max);
    t->hidden |= r->hidden;
    if (strcmp(r->kind, "performance"))
        return 0;
    t->perf = 1;
    if (!t->target[0])
        snprintf(t->target, sizeof t->target, "%s", r->target);
    char *end;
    double v = strtod(r->value, &end);
    return r->value[0] && !*end && isfinite(v) ? dpush(&t->values, v) : 0;
}

/* One student's rows into the aggregates. */
static int fold_student(klass *c, int si, const pl_scores *s)
{
    double got[MAX_LABS] = {0}, max[MAX_LABS] = {0}, sum = 0, summax = 0;
    char seen[MAX_LABS] = {0}, notrun[MAX_LABS] = {0}, any_notrun = 0;
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        int l = lab_index(c, r->lab);
        if (l < 0)
            return -1;
        seen[l] = 1, got[l] += r->points, max[l] += r->max;
        int k = !strcmp(r->cause, PL_CAUSE_NOBUILD)   ? CAUSE_NOBUILD
                : !strcmp(r->cause, PL_CAUSE_MISSING) ? CAUSE_MISSING
                                                      : -1;
        if (k >= 0) {
            k == CAUSE_NOBUILD ? c->labs[l].nobuild++ : c->labs[l].missing++;
            if (census_hit(&c->cause[k], si, l, ""))
                return -1;
            continue;
        }
        if (!strcmp(r->cause, PL_CAUSE_NOGPU) || !strcmp(r->cause, PL_CAUSE_NOWORKER) || c->st[si].dry) {
            /* not run: no score for this lab, nor a total for the student */
            c->rows_nogpu++, any_notrun = 1, notrun[l] = 1;
            if (!c->nogpu_why[0])
                pl_no_gpu_why(r, c->nogpu_why, sizeof c->nogpu_why);
            continue;
        }
        c->rows_ran++;
        if (fold_test(c, l, r) || fold_bugs(c, si, l, r))
            return -1;
    }
    if (c->st[si].dry && !any_notrun) { /* a dry grading none of whose labs compiled: not run either */
        c->rows_nogpu++, any_notrun = 1;
        if (!c->nogpu_why[0])
            snprintf(c->nogpu_why, sizeof c->nogpu_why, "PRIMLAB_NO_GPU is set");
    }
    /* a lab's points are its table's, scored or not (a dry run's too) */
    for (int l = 0; l < c->nlabs; l++)
        if (seen[l]) {
            summax += max[l];
            c->labs[l].max = fmax(c->labs[l].max, max[l]);
            c->labs[l].graded++, c->labs[l].notrun += notrun[l];
        }
    c->total_max = fmax(c->total_max, summax);
    if (any_notrun)
        return 0;
    for (int l = 0; l < c->nlabs; l++)
        if (seen[l]) {
            sum += got[l];
            if (dpush(&c->labs[l].scores, got[l]))
                return -1;
        }
    return dpush(&c->total, sum);
}

static int read_students(klass *c)
{
    for (int i = 0; i < c->nst; i++) {
        if (!c->st[i].record)
            continue;
        char path[PATH_CAP + 128];
        snprintf(path, sizeof path, "%s/%s/scores.tsv", c->grades, c->st[i].name);
        pl_scores s = {0};
        errno = 0;
        if (pl_scores_read(&s, path)) {
            c->st[i].err = errno ? errno : EIO;
            if (errno == ENOMEM)
                c->oom = 1;
        } else if (fold_student(c, i, &s)) {
            c->oom = !c->too_many_labs;
        } else if (pl_board_add(c->board, c->st[i].name, c->st[i].shown, c->o->anon, &s)) {
            c->oom = 1;
        }
        pl_scores_free(&s);
        if (c->oom || c->too_many_labs)
            return -1;
    }
    for (int i = 0; i < c->nst; i++) { /* on the roster, no submission: no lab handed in */
        if (!c->st[i].roster_only)
            continue;
        c->roster++;
        for (int l = 0; l < c->nlabs; l++) {
            c->labs[l].missing++;
            if (census_hit(&c->cause[CAUSE_MISSING], i, l, ""))
                return c->oom = 1, -1;
        }
    }
    if (c->rows_nogpu && !c->rows_ran) { /* a dry run scores nothing, not even a lab left out */
        for (int l = 0; l < c->nlabs; l++)
            c->labs[l].scores.n = 0;
        c->total.n = 0;
    }
    return 0;
}

/* The solution's ratio of each performance test the class has. */
static int read_reference(klass *c, const char *path)
{
    pl_scores s = {0};
    if (pl_scores_read(&s, path))
        return -1;
    for (int i = 0; i < s.n; i++) {
        const pl_score *r = &s.rows[i];
        char *end;
        double v = strtod(r->value, &end);
        if (strcmp(r->kind, "performance") || !r->value[0] || *end)
            continue;
        for (int t = 0; t < c->ntests; t++)
            if (!strcmp(c->labs[c->tests[t].lab].id, r->lab) && !strcmp(c->tests[t].name, r->name ? r->name : ""))
                c->tests[t].solution = v;
    }
    pl_scores_free(&s);
    return 0;
}

static int cmp_lab_order(const void *a, const void *b, void *ctx)
{
    const klass *c = ctx;
    return strcmp(c->labs[*(const int *)a].id, c->labs[*(const int *)b].id);
}

static void sort_labs(klass *c)
{
    for (int i = 0; i < c->nlabs; i++)
        c->order[i] = i;
    qsort_r(c->order, (size_t)c->nlabs, sizeof *c->order, cmp_lab_order, c);
}

static void free_class(klass *c)
{
    for (int i = 0; i < c->nst; i++) {
        student *s = &c->st[i];
        free(s->name), free(s->shown), free(s->model), free(s->host), free(s->when), free(s->why);
    }
    free(c->st);
    for (int i = 0; i < c->nlabs; i++)
        free(c->labs[i].scores.v);
    for (int t = 0; t < c->ntests; t++)
        free(c->tests[t].key), free(c->tests[t].values.v);
    free(c->tests), free(c->slots);
    for (int i = 0; i < c->ncs; i++)
        free(c->cs[i].owned), free(c->cs[i].students.v), free(c->cs[i].places);
    for (int k = 0; k < 2; k++)
        free(c->cause[k].students.v), free(c->cause[k].places);
    free(c->cs), free(c->total.v);
    pl_board_free(c->board);
}

static int init_census(klass *c)
{
    int n;
    const pl_bug_class *b = pl_bug_classes(&n);
    for (int i = 0; i < n; i++) {
        if (GROW(c->cs, c->ncs, c->capcs))
            return -1;
        census *e = &c->cs[c->ncs++];
        memset(e, 0, sizeof *e);
        e->code = b[i].code, e->title = b[i].title, e->hint = b[i].hint, e->last = -1;
    }
    c->cause[CAUSE_NOBUILD] = (census){.code = PL_CAUSE_NOBUILD,
                                       .title = "does not compile",
                                       .hint = "the compiler's first error, in the student's report",
                                       .last = -1};
    c->cause[CAUSE_MISSING] = (census){
        .code = PL_CAUSE_MISSING, .title = "not handed in", .hint = "the lab's file not in the submission", .last = -1};
    return 0;
}

/* ---------------------------------------------------------------- figures */

/* The performance tests, in lab order then first-seen order, into idx. */
static int perf_tests(const klass *c, int *idx)
{
    int n = 0;
    for (int o = 0; o < c->nlabs; o++)
        for (int t = 0; t < c->ntests; t++)
            if (c->tests[t].perf && c->tests[t].lab == c->order[o])
                idx[n++] = t;
    return n;
}

/* A figure's file in the figures' folder: "hist-01.svg", "perf.svg". */
enum { FIG_TOTAL = MAX_LABS, FIG_PERF, NFIG };

static void fig_name(const klass *c, int fig, char *buf, size_t cap, const char *ext)
{
    if (fig < MAX_LABS)
        snprintf(buf, cap, "hist-%s.%s", c->labs[fig].id, ext);
    else
        snprintf(buf, cap, "%s.%s", fig == FIG_TOTAL ? "hist-total" : "perf", ext);
}

/* A string in a gnuplot script, single-quoted ('' for a quote). */
static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        *s == '\'' ? fputs("''", f) : fputc(*s, f);
    fputc('\'', f);
}

/* A histogram of scores (in ten bins of max / 10) into the script. */
static int histogram(FILE *gp, const char *dir, const char *svg, const char *dat, const char *title, const dvec *v,
                     double max)
{
    int count[10] = {0}, top = 0;
    char path[PATH_CAP + 128];
    snprintf(path, sizeof path, "%s/%s", dir, dat);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (int i = 0; i < v->n; i++) {
        int b = (int)(v->v[i] / (max / 10));
        count[b < 0 ? 0 : b > 9 ? 9 : b]++;
    }
    for (int b = 0; b < 10; b++) {
        fprintf(f, "%.6g %d\n", (b + 0.5) * max / 10, count[b]);
        top = count[b] > top ? count[b] : top;
    }
    if (fclose(f))
        return -1;
    fprintf(gp, "set output '%s'\nset title ", svg);
    gp_str(gp, title);
    fprintf(gp, "\nset xrange [0:%.6g]\nset yrange [0:%d]\nset ytics %s\nset boxwidth %.6g absolute\n", max,
            top < 1 ? 1 : top + (top + 9) / 10, top <= 10 ? "1" : "autofreq", 0.9 * max / 10);
    fprintf(gp, "set xlabel 'points'\nset ylabel 'students'\n");
    fprintf(gp, "plot '%s' using 1:2 with boxes lc rgb '#4a7ab5' notitle\n", dat);
    return 0;
}

/* A performance test's tick: its part, and the end of its name ("n=2^24")
   when another test of the figure has the same part. */
static void tick_label(FILE *gp, const klass *c, const int *idx, int n, int k)
{
    char part[PART_CAP], other[PART_CAP], label[PART_CAP + 64];
    part_of(c->tests[idx[k]].name, part, sizeof part);
    int shared = 0;
    for (int j = 0; j < n && !shared; j++) {
        part_of(c->tests[idx[j]].name, other, sizeof other);
        shared = j != k && !strcmp(part, other) && c->tests[idx[j]].lab == c->tests[idx[k]].lab;
    }
    const char *tail = strrchr(c->tests[idx[k]].name, ',');
    snprintf(label, sizeof label, "%s%s%.60s", part, shared && tail ? " " : "",
             shared && tail ? tail + 1 + (tail[1] == ' ') : "");
    gp_str(gp, label);
}

/* The performance figure: per test a box (quartiles, whiskers from min to
   max) and its median, the full-marks target as a dashed bar, the
   solution's ratio as a dot; each student's ratio too for a small class. */
static int perf_figure(FILE *gp, const klass *c, const char *dir, int *idx, int n)
{
    char path[PATH_CAP + 128];
    const char *names[] = {"perf-box.dat", "perf-target.dat", "perf-solution.dat", "perf-strip.dat"};
    FILE *f[4];
    int rows[4] = {0}, values = 0;
    for (int k = 0; k < n; k++)
        values += c->tests[idx[k]].values.n;
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (!(f[i] = fopen(path, "w"))) {
            while (i--)
                fclose(f[i]);
            return -1;
        }
    }
    for (int k = 0; k < n; k++) {
        test *t = &c->tests[idx[k]];
        pl_stats s;
        pl_stats_of(t->values.v, t->values.n, &s);
        if (s.n)
            rows[0] += fprintf(f[0], "%d %.6g %.6g %.6g %.6g %.6g\n", k + 1, s.min, s.q1, s.median, s.q3, s.max) > 0;
        if (t->target[0])
            rows[1] += fprintf(f[1], "%d %s\n", k + 1, t->target) > 0;
        if (!isnan(t->solution))
            rows[2] += fprintf(f[2], "%d %.6g\n", k + 1, t->solution) > 0;
        for (int i = 0; values <= STRIP_MAX && i < t->values.n; i++) /* spread over the box's width */
            rows[3] += fprintf(f[3], "%.4f %.6g\n", k + 1 + 0.3 * (fmod(i * 0.618034, 1.0) - 0.5), t->values.v[i]) > 0;
    }
    int bad = 0;
    for (int i = 0; i < 4; i++)
        bad |= fclose(f[i]) != 0;
    if (bad)
        return -1;
    fprintf(gp, "set output 'perf.svg'\nset title 'ratio to the vendor library: box from quartile to quartile, "
                "whiskers from min to max'\n");
    fprintf(gp,
            "set xrange [0.5:%d.5]\nset yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\nset ytics autofreq\n"
            "set boxwidth 0.5 absolute\nset style fill solid 0.35 border -1\n",
            n);
    fprintf(gp, "set xlabel 'test'\nset ylabel 'ratio, or fraction of its roof'\nset xtics rotate by -30 (");
    for (int k = 0; k < n; k++) {
        fprintf(gp, "%s", k ? ", " : "");
        tick_label(gp, c, idx, n, k);
        fprintf(gp, " %d", k + 1);
    }
    fprintf(gp, ")\nset key outside bottom center horizontal\nplot ");
    const char *plot[] = {
        "'perf-box.dat' using 1:3:2:6:5 with candlesticks whiskerbars lc rgb '#4a7ab5' title 'class', "
        "'' using 1:4:4:4:4 with candlesticks lc rgb '#1b365d' lw 2 title 'median'",
        "'perf-target.dat' using ($1-0.35):2:(0.7):(0) with vectors nohead dt 2 lw 2 lc rgb '#c0392b' "
        "title 'full marks'",
        "'perf-solution.dat' using 1:2 with points pt 7 ps 1.2 lc rgb '#1e8449' title 'solution'",
        "'perf-strip.dat' using 1:2 with points pt 7 ps 0.6 lc rgb '#222222' title 'a student'"};
    int first = 1;
    for (int i = 0; i < 4; i++)
        if (rows[i]) {
            fprintf(gp, "%s%s", first ? "" : ", ", plot[i]);
            first = 0;
        }
    fprintf(gp, "\nunset xtics\nset xtics autofreq norotate\nset key default\n");
    return 0;
}

/* Runs the figures' script in dir; 0, or -1 with why. */
static int run_gnuplot(const char *cmd, const char *dir, char *why, size_t cap)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, cap, "cannot start gnuplot: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY), log = chdir(dir) ? -1 : open("gnuplot.log", O_WRONLY | O_CREAT, 0600);
        if (in < 0 || log < 0)
            _exit(126);
        dup2(in, 0), dup2(log, 1), dup2(log, 2);
        execlp(cmd, cmd, "figures.gp", (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return snprintf(why, cap, "gnuplot: %s", strerror(errno)), -1;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        snprintf(why, cap, "gnuplot not found ('%s'; make bootstrap installs it)", cmd);
        return -1;
    }
    char path[PATH_CAP + 128], line[256] = "";
    snprintf(path, sizeof path, "%s/gnuplot.log", dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f) && !strpbrk(line, "abcdefghijklmnopqrstuvwxyz"))
        ;
    if (f)
        fclose(f);
    line[strcspn(line, "\n")] = '\0';
    snprintf(why, cap, "gnuplot failed: %s", line[0] ? line : "no message");
    return -1;
}

typedef struct figures {
    char dir[PATH_CAP];
    int have[NFIG];
    char why[PATH_CAP + 256]; /* why there are none, or "" */
} figures;

/* Writes every figure's data and one script, runs gnuplot once. */
static void draw_figures(const klass *c, figures *fg)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(fg->dir, sizeof fg->dir, "%s/primlab-report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fg->dir)) {
        snprintf(fg->why, sizeof fg->why, "cannot make a folder for the figures' data: %s", strerror(errno));
        fg->dir[0] = '\0';
        return;
    }
    char path[PATH_CAP + 128], svg[64], dat[64], title[128];
    snprintf(path, sizeof path, "%s/figures.gp", fg->dir);
    FILE *gp = fopen(path, "w");
    int bad = !gp, want[NFIG] = {0};
    if (gp)
        fprintf(gp, "set terminal svg size 360,220 fixed font 'sans,10' background '#ffffff'\nset termoption "
                    "noenhanced\nset style fill solid 0.75 border -1\nset format y '%%g'\nset grid ytics\n");
    for (int o = 0; gp && o <= c->nlabs; o++) {
        int l = o < c->nlabs ? c->order[o] : FIG_TOTAL;
        const dvec *v = l == FIG_TOTAL ? &c->total : &c->labs[l].scores;
        double max = l == FIG_TOTAL ? c->total_max : c->labs[l].max;
        if (max <= 0 || !v->n)
            continue;
        fig_name(c, l, svg, sizeof svg, "svg"), fig_name(c, l, dat, sizeof dat, "dat");
        if (l == FIG_TOTAL)
            snprintf(title, sizeof title, "all labs: students by points (out of %g)", max);
        else
            snprintf(title, sizeof title, "lab %s: students by points (out of %g)", c->labs[l].id, max);
        bad |= histogram(gp, fg->dir, svg, dat, title, v, max), want[l] = 1;
    }
    int *idx = malloc(sizeof *idx * (size_t)(c->ntests + 1)), n = idx ? perf_tests(c, idx) : 0;
    if (gp && n) {
        fprintf(gp, "set terminal svg size %d,380 fixed font 'sans,10' background '#ffffff'\n",
                n > 8 ? 60 * n + 160 : 720);
        bad |= perf_figure(gp, c, fg->dir, idx, n), want[FIG_PERF] = 1;
    }
    free(idx);
    if (gp)
        bad |= fclose(gp) != 0;
    if (bad) {
        snprintf(fg->why, sizeof fg->why, "cannot write the figures' data in '%s'", fg->dir);
        return;
    }
    if (run_gnuplot(c->o->gnuplot, fg->dir, fg->why, sizeof fg->why))
        return;
    for (int k = 0; k < NFIG; k++) {
        struct stat sb;
        if (!want[k])
            continue;
        fig_name(c, k, svg, sizeof svg, "svg");
        snprintf(path, sizeof path, "%s/%s", fg->dir, svg);
        fg->have[k] = stat(path, &sb) == 0 && sb.st_size > 0;
    }
}

static void remove_figures(figures *fg)
{
    if (!fg->dir[0])
        return;
    DIR *d = opendir(fg->dir);
    struct dirent *e;
    char path[PATH_CAP + 256];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", fg->dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(fg->dir);
}

/* Writes s up to len bytes, the ids in it prefixed. */
static void svg_ids(FILE *f, const char *s, size_t len, const char *prefix)
{
    static const char *const refs[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    for (size_t i = 0; i < len;) {
        size_t hit = 0;
        for (size_t r = 0; !hit && r < sizeof refs / sizeof *refs; r++)
            if (!strncmp(s + i, refs[r], strlen(refs[r])) && (i == 0 || !isalnum((unsigned char)s[i - 1])))
                hit = strlen(refs[r]);
        if (hit) {
            fwrite(s + i, 1, hit, f);
            fputs(prefix, f);
            i += hit;
        } else {
            fputc(s[i++], f);
        }
    }
}

int pl_svg_inline(FILE *f, const char *path, const char *prefix)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int doctype = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        if (!strncmp(line, "<?xml", 5) || (doctype = doctype || !strncmp(line, "<!DOCTYPE", 9))) {
            doctype = doctype && !strchr(line, '>');
            continue;
        }
        char *p = line, *x;
        while ((x = strstr(p, "xmlns"))) { /* xmlns="..." and xmlns:xlink="..." */
            char *q = strchr(x, '"');
            q = q ? strchr(q + 1, '"') : NULL;
            if (!q)
                break;
            svg_ids(f, p, (size_t)(x - p), prefix);
            p = q + 1;
        }
        svg_ids(f, p, strlen(p), prefix);
    }
    free(line);
    int err = ferror(in);
    fclose(in);
    return err ? -1 : 0;
}

/* ------------------------------------------------------------------ writer */

/* One page being written: Markdown or HTML, from the same calls. */
typedef struct out {
    FILE *f;
    int html;
    const klass *c;
    const figures *fg;
    char align[16]; /* a table's columns: 'l' or 'r' */
    int col;
} out;

static void text(out *w, const char *s) { w->html ? pl_html_puts(w->f, s) : pl_md_puts(w->f, s); }

static void textf(out *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void textf(out *w, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text(w, buf);
}

/* Markup: the HTML or the Markdown of it. */
static void mark(out *w, const char *html, const char *md) { fputs(w->html ? html : md, w->f); }

static void heading(out *w, int level, const char *title)
{
    if (w->html)
        fprintf(w->f, "<h%d>", level);
    else
        fprintf(w->f, "%.*s ", level, "####");
    text(w, title);
    if (w->html)
        fprintf(w->f, "</h%d>\n", level);
    else
        fputs("\n\n", w->f);
}

static void para(out *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void para(out *w, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    mark(w, "<p>", "");
    text(w, buf);
    mark(w, "</p>\n", "\n\n");
}

static void warning(out *w, const char *s)
{
    mark(w, "<p class=\"warn\"><strong>Warning:</strong> ", "**Warning:** ");
    text(w, s);
    mark(w, "</p>\n", "\n\n");
}

/* A table of these columns, '|'-separated; a column named with a leading
   '>' holds numbers (right-aligned). */
static void table(out *w, const char *cols)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", cols);
    int n = 0;
    mark(w, "<table>\n<tr>", "|");
    for (char *save, *c = strtok_r(buf, "|", &save); c && n < (int)sizeof w->align - 1;
         c = strtok_r(NULL, "|", &save)) {
        w->align[n++] = *c == '>' ? 'r' : 'l';
        c += *c == '>';
        mark(w, w->align[n - 1] == 'r' ? "<th class=\"n\">" : "<th>", " ");
        text(w, c);
        mark(w, "</th>", " |");
    }
    w->align[n] = '\0';
    mark(w, "</tr>\n", "\n|");
    for (int i = 0; !w->html && i < n; i++)
        fputs(w->align[i] == 'r' ? "---:|" : "---|", w->f);
    mark(w, "", "\n");
}

static void table_end(out *w) { mark(w, "</table>\n", "\n"); }
static void row(out *w) { w->col = 0, mark(w, "<tr>", "|"); }
static void row_end(out *w) { mark(w, "</tr>\n", "\n"); }

static void cell_begin(out *w)
{
    mark(w, w->align[w->col] == 'r' ? "<td class=\"n\">" : "<td>", " ");
    w->col++;
}

static void cell_end(out *w) { mark(w, "</td>", " |"); }

static void cell(out *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cell(out *w, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cell_begin(w);
    text(w, buf);
    cell_end(w);
}

/* A student's name; in HTML a link to their report, unless anonymous. */
static void student_ref(out *w, int si)
{
    const student *s = &w->c->st[si];
    if (w->html && !w->c->o->anon && !s->roster_only) { /* (a roster's student has no report) */
        fputs("<a href=\"", w->f);
        pl_url_puts(w->f, s->name);
        fputs("/report.txt\">", w->f);
        text(w, s->name);
        fputs("</a>", w->f);
    } else {
        text(w, s->shown);
    }
}

static void student_list(out *w, const ivec *ids)
{
    const char *sep = ", "; /* "; " between names that hold commas (a roster's "Doe, Dana") */
    for (int i = 0; i < ids->n; i++)
        if (strchr(w->c->st[ids->v[i]].shown, ','))
            sep = "; ";
    for (int i = 0; i < ids->n; i++) {
        if (i)
            text(w, sep);
        student_ref(w, ids->v[i]);
    }
}

static void figure(out *w, int fig, const char *caption)
{
    char name[64], path[PATH_CAP + 128], prefix[32];
    if (!w->html || !w->fg->have[fig])
        return;
    fig_name(w->c, fig, name, sizeof name, "svg");
    snprintf(path, sizeof path, "%s/%s", w->fg->dir, name);
    snprintf(prefix, sizeof prefix, "f%d-", fig);
    fputs("<figure>", w->f);
    pl_svg_inline(w->f, path, prefix);
    fputs("<figcaption>", w->f);
    text(w, caption);
    fputs("</figcaption></figure>\n", w->f);
}

/* ---------------------------------------------------------------- sections */

static void lab_row(out *w, const char *name, const dvec *v, double max, int missing, int nobuild)
{
    double *copy = malloc(sizeof *copy * (size_t)(v->n + 1));
    pl_stats s = {0};
    if (copy) {
        if (v->n)
            memcpy(copy, v->v, sizeof *copy * (size_t)v->n);
        pl_stats_of(copy, v->n, &s);
        free(copy);
    }
    row(w);
    cell(w, "%s", name);
    cell(w, "%d", s.n);
    if (s.n) {
        cell(w, "%.2f", s.mean), cell(w, "%.2f", s.median), cell(w, "%.2f", s.min), cell(w, "%.2f", s.max);
        cell(w, "%.2f", s.sd);
    } else { /* nothing scored (a dry run): no statistics */
        for (int k = 0; k < 5; k++)
            cell(w, "-");
    }
    cell(w, "%g", max), cell(w, "%d", missing), cell(w, "%d", nobuild);
    row_end(w);
}

static void not_graded(out *w)
{
    const klass *c = w->c;
    table(w, "not graded|when|why");
    for (int i = 0; i < c->nst; i++) {
        const student *s = &c->st[i];
        if (!s->why)
            continue;
        char *why = c->o->anon ? replace_all(s->why, s->name, s->shown) : NULL;
        row(w);
        cell(w, "%s", s->shown), cell(w, "%s", s->when);
        cell_begin(w); /* a reason may be long: not through cell's buffer */
        text(w, why ? why : c->o->anon ? "" : s->why);
        text(w, s->record ? " (an earlier grade is counted)" : "");
        cell_end(w);
        row_end(w);
        free(why);
    }
    table_end(w);
}

static void section_class(out *w)
{
    const klass *c = w->c;
    int graded = 0, ungraded = 0, why = 0, unread = 0, stray = 0, roster = 0;
    for (int i = 0; i < c->nst; i++) {
        graded += c->st[i].record, ungraded += !c->st[i].record && c->st[i].why;
        why += c->st[i].why != NULL, unread += c->st[i].err != 0, stray += c->st[i].stray;
        roster += c->st[i].roster_only;
    }
    heading(w, 2, "The class");
    if (roster)
        para(w, "Students: %d graded, %d not graded, %d on the roster with no submission.", graded, ungraded, roster);
    else
        para(w, "Students: %d graded, %d not graded.", graded, ungraded);
    if (c->rows_nogpu && !c->rows_ran)
        warning(w, "No test ran on a GPU (a dry run): no points are given, and no test could find a bug. What "
                   "grading decides without a GPU is counted below: who handed in which lab (MISSING), and whose "
                   "lab does not compile (NOBUILD).");
    else if (c->rows_nogpu)
        warning(w, "Some students' tests did not run on a GPU: those students have no points in the statistics.");
    if (c->nogpu_why[0])
        para(w, "Why no test ran: %s.", c->nogpu_why);
    if (why)
        not_graded(w);
    if (unread) {
        mark(w, "<p>", "");
        text(w, "Scores that cannot be read (not counted): ");
        for (int i = 0, k = 0; i < c->nst; i++)
            if (c->st[i].err)
                text(w, k++ ? ", " : ""), text(w, c->st[i].shown), textf(w, " (%s)", strerror(c->st[i].err));
        mark(w, ".</p>\n", ".\n\n");
    }
    if (roster) {
        mark(w, "<p>", "");
        text(w, "On the roster with no submission (lms-unmatched.txt; every lab counted as not handed in): ");
        for (int i = 0, k = 0; i < c->nst; i++)
            if (c->st[i].roster_only)
                text(w, k++ ? "; " : ""), text(w, c->st[i].shown);
        mark(w, ".</p>\n", ".\n\n");
    }
    if (stray) {
        mark(w, "<p>", "");
        text(w, "Results without a line in the record (not counted): ");
        for (int i = 0, k = 0; i < c->nst; i++)
            if (c->st[i].stray)
                text(w, k++ ? ", " : ""), text(w, c->st[i].shown);
        mark(w, ".</p>\n", ".\n\n");
    }
    para(w, "Points per lab, over the students with scores in it (sd: the class's standard deviation; a lab "
            "not handed in or that does not compile scores 0).");
    table(w, "lab|>students|>mean|>median|>min|>max|>sd|>out of|>not handed in|>does not compile");
    for (int o = 0; o < c->nlabs; o++) {
        const lab *l = &c->labs[c->order[o]];
        char name[16];
        snprintf(name, sizeof name, "lab %s", l->id);
        lab_row(w, name, &l->scores, l->max, l->missing, l->nobuild);
    }
    lab_row(w, "total", &c->total, c->total_max, c->cause[CAUSE_MISSING].n, c->cause[CAUSE_NOBUILD].n);
    table_end(w);
    if (!w->html)
        return;
    mark(w, "<div class=\"figs\">\n", "");
    char cap[64];
    for (int o = 0; o < c->nlabs; o++) {
        snprintf(cap, sizeof cap, "lab %s", c->labs[c->order[o]].id);
        figure(w, c->order[o], cap);
    }
    figure(w, FIG_TOTAL, "all labs");
    mark(w, "</div>\n", "");
}

/* A test's place in its lab's table: parts by their lowest pass rate,
   then tests by theirs, ties in the order first seen. */
typedef struct test_key {
    double part_rate, rate;
    char part[PART_CAP];
    int order, t;
} test_key;

static int cmp_test_key(const void *a, const void *b)
{
    const test_key *x = a, *y = b;
    int p = strcmp(x->part, y->part);
    if (x->part_rate != y->part_rate)
        return x->part_rate < y->part_rate ? -1 : 1;
    if (p)
        return p;
    if (x->rate != y->rate)
        return x->rate < y->rate ? -1 : 1;
    return x->order - y->order;
}

static int cmp_part(const void *a, const void *b)
{
    return strcmp(((const test_key *)a)->part, ((const test_key *)b)->part);
}

static void lab_tests(out *w, int l, test_key *k)
{
    const klass *c = w->c;
    int n = 0;
    for (int t = 0; t < c->ntests; t++)
        if (c->tests[t].lab == l) {
            test_key *e = &k[n++];
            e->t = t, e->order = c->tests[t].order, e->rate = (double)c->tests[t].pass / c->tests[t].n;
            part_of(c->tests[t].name, e->part, sizeof e->part);
        }
    qsort(k, (size_t)n, sizeof *k, cmp_part);
    for (int i = 0, j; i < n; i = j) { /* each part's lowest rate */
        double low = k[i].rate;
        for (j = i; j < n && !strcmp(k[j].part, k[i].part); j++)
            low = fmin(low, k[j].rate);
        for (int m = i; m < j; m++)
            k[m].part_rate = low;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_test_key);
    char title[32];
    snprintf(title, sizeof title, "lab %s", c->labs[l].id);
    heading(w, 3, title);
    const lab *lb = &c->labs[l];
    int handed_in = lb->graded - (lb->missing - c->roster); /* (missing counts the roster's students too) */
    if (!n && lb->notrun) {
        para(w, "No test ran: a dry run without a GPU (%s); %d of the %d handed in compiled.",
             c->nogpu_why[0] ? c->nogpu_why : "no GPU", handed_in - lb->nobuild, handed_in);
        return;
    }
    if (!n) {
        para(w, "No test ran (no student handed in a lab that compiles).");
        return;
    }
    table(w, "part|test|>students|>passed|>pass rate|>mean points|>out of");
    for (int i = 0; i < n; i++) {
        const test *t = &c->tests[k[i].t];
        row(w);
        cell(w, "%s", k[i].part);
        cell_begin(w);
        text(w, t->name);
        if (t->hidden)
            mark(w, " <span class=\"hidden\">(hidden)</span>", " (hidden)");
        cell_end(w);
        cell(w, "%d", t->n), cell(w, "%d", t->pass), cell(w, "%.1f%%", 100.0 * t->pass / t->n);
        cell(w, "%.2f", t->points / t->n), cell(w, "%g", t->max);
        row_end(w);
    }
    table_end(w);
}

static void section_tests(out *w)
{
    const klass *c = w->c;
    heading(w, 2, "Tests");
    para(w, "Passed: status OK with full points. In each lab, the parts with the lowest pass rate come first, "
            "and in each part the tests with the lowest; (hidden): a test only the grading seed adds.");
    test_key *k = malloc(sizeof *k * (size_t)(c->ntests + 1));
    if (!k) {
        para(w, "(out of memory: the tests are left out)");
        return;
    }
    for (int o = 0; o < c->nlabs; o++)
        lab_tests(w, c->order[o], k);
    free(k);
}

static int cmp_place(const void *a, const void *b, void *ctx)
{
    const klass *c = ctx;
    const place *x = a, *y = b;
    int l = strcmp(c->labs[x->lab].id, c->labs[y->lab].id);
    return l ? l : strcmp(x->part, y->part);
}

static void census_row(out *w, census *e)
{
    qsort_r(e->places, (size_t)e->nplaces, sizeof *e->places, cmp_place, (void *)w->c);
    row(w);
    cell_begin(w);
    mark(w, "<code>", "`");
    text(w, e->code);
    mark(w, "</code>", "`");
    cell_end(w);
    cell(w, "%s", e->title), cell(w, "%s", e->hint), cell(w, "%d", e->n);
    cell_begin(w);
    for (int i = 0; i < e->nplaces; i++) {
        const place *p = &e->places[i];
        if (p->part[0])
            textf(w, "%s%s (%d)", i ? ", " : "", p->part, p->n);
        else
            textf(w, "%slab %s (%d)", i ? ", " : "", w->c->labs[p->lab].id, p->n);
    }
    cell_end(w);
    cell_begin(w);
    student_list(w, &e->students);
    cell_end(w);
    row_end(w);
}

static void section_census(out *w)
{
    klass *c = (klass *)w->c;
    int any = c->cause[0].n + c->cause[1].n;
    for (int i = 0; i < c->ncs; i++)
        any += c->cs[i].n;
    heading(w, 2, "Bug classes");
    if (!any) {
        para(w, "No student hit a class of bug.");
        return;
    }
    para(w, "The classes of bug the grader named (bugs.h), in its order, with how many students hit each: a "
            "student counts once per class, and once per part where it was hit.");
    table(w, "class|what|hint|>students|where|who");
    for (int i = 0; i < c->ncs; i++)
        if (c->cs[i].n)
            census_row(w, &c->cs[i]);
    for (int k = 0; k < 2; k++)
        if (c->cause[k].n)
            census_row(w, &c->cause[k]);
    table_end(w);
}

static void section_perf(out *w)
{
    const klass *c = w->c;
    heading(w, 2, "Performance");
    int *idx = malloc(sizeof *idx * (size_t)(c->ntests + 1)), n = idx ? perf_tests(c, idx) : 0;
    if (!n) {
        para(w, "No performance tests.");
        free(idx);
        return;
    }
    para(w,
         "Each performance test's value, over the students who have one (a test that failed has none): its "
         "ratio to the vendor library, or for a test scored by its roof (\"vs its roof\", docs/roofs.md) its "
         "fraction of that roof, 1 at 100 %%. Full marks at the target; the solution's value %s.",
         c->o->reference ? "from the reference scores" : "is not known (no --reference)");
    figure(w, FIG_PERF, "ratio to the vendor library, or fraction of the roof, per test (labelled by part)");
    table(w, "lab|test|>students|>median|>min|>max|>full marks at|>solution's");
    for (int k = 0; k < n; k++) {
        const test *t = &c->tests[idx[k]];
        double *copy = malloc(sizeof *copy * (size_t)(t->values.n + 1));
        pl_stats s = {0};
        if (copy) {
            if (t->values.n)
                memcpy(copy, t->values.v, sizeof *copy * (size_t)t->values.n);
            pl_stats_of(copy, t->values.n, &s);
            free(copy);
        }
        row(w);
        cell(w, "%s", c->labs[t->lab].id), cell(w, "%s", t->name), cell(w, "%d", s.n);
        if (s.n)
            cell(w, "%.3f", s.median), cell(w, "%.3f", s.min), cell(w, "%.3f", s.max);
        else
            cell(w, "-"), cell(w, "-"), cell(w, "-");
        cell(w, "%s", t->target[0] ? t->target : "-");
        if (isnan(t->solution))
            cell(w, "-");
        else
            cell(w, "%.3f", t->solution);
        row_end(w);
    }
    table_end(w);
    free(idx);
}

/* The leaderboard of each lab with performance tests: the numbers of the
   check service's (harness/serve/board.h), each student's one grading. */
static void section_board(out *w)
{
    klass *c = (klass *)w->c;
    heading(w, 2, "Leaderboard");
    int any = 0;
    for (int o = 0; o < c->nlabs; o++) {
        pl_board_lab t;
        if (pl_board_rank(c->board, c->labs[c->order[o]].id, &t)) {
            para(w, "(out of memory: the leaderboard is left out)");
            return;
        }
        if (!t.nrows)
            continue;
        if (!any++)
            para(w, "Per lab, the students ranked by the geometric mean of their ratios to the vendor library over "
                    "its performance tests (the check service's leaderboard); unranked (-): a test without a ratio. "
                    "A ratio counts only from a grading of the lab that passed every correctness test, and from a "
                    "test that ran and kept its right to points: not one that called the vendor library or "
                    "computed on the CPU.");
        char cols[512];
        int len = snprintf(cols, sizeof cols, ">rank|student|>geomean");
        for (int k = 0; k < t.ntests && len < (int)sizeof cols; k++)
            len += snprintf(cols + len, sizeof cols - (size_t)len, "|>%s", t.tests[k]);
        char title[32];
        snprintf(title, sizeof title, "lab %s", t.lab);
        heading(w, 3, title);
        table(w, cols);
        for (int i = 0; i < t.nrows; i++) {
            const pl_board_row *r = &t.rows[i];
            row(w);
            r->rank ? cell(w, "%d", r->rank) : cell(w, "-");
            cell(w, "%s", r->shown);
            r->rank ? cell(w, "%.3f", r->geomean) : cell(w, "-");
            for (int k = 0; k < t.ntests; k++)
                isnan(r->best[k]) ? cell(w, "-") : cell(w, "%.3f", r->best[k]);
            row_end(w);
        }
        table_end(w);
    }
    if (!any)
        para(w, "No student has a ratio to the vendor library.");
}

static int cmp_slow(const void *a, const void *b, void *ctx)
{
    const klass *c = ctx;
    double x = c->st[*(const int *)a].seconds, y = c->st[*(const int *)b].seconds;
    return x != y ? (x < y ? 1 : -1) : *(const int *)a - *(const int *)b;
}

static const char *model_of(const student *s)
{
    return s->model && *s->model && strcmp(s->model, "-") ? s->model : NULL;
}

/* The GPU models of the students' last gradings, with how many each. */
static void gpu_models(out *w)
{
    const klass *c = w->c;
    int known = 0, unknown = 0, dry = 0;
    mark(w, "<p>", "");
    text(w, "GPU models (each student's last grading): ");
    for (int i = 0; i < c->nst; i++) {
        const student *s = &c->st[i];
        const char *m = s->record && !s->dry ? model_of(s) : NULL;
        int first = 1, n = 0;
        unknown += s->record && !s->dry && !m, dry += s->record && s->dry;
        for (int j = 0; m && j < c->nst; j++)
            if (c->st[j].record && !c->st[j].dry && model_of(&c->st[j]) && !strcmp(model_of(&c->st[j]), m))
                first &= j >= i, n++;
        if (m && first)
            textf(w, "%s%s (%d student%s)", known++ ? ", " : "", m, n, n == 1 ? "" : "s");
    }
    if (unknown)
        textf(w, "%snot recorded (%d)", known ? ", " : "", unknown);
    if (dry)
        textf(w, "%snone, a dry run without a GPU (%d)", known || unknown ? ", " : "", dry);
    mark(w, ".</p>\n", ".\n\n");
    if (known > 1) {
        char buf[256];
        snprintf(buf, sizeof buf,
                 "graded on %d GPU models: performance points differ between them (each a ratio "
                 "measured on its own GPU); regrade on one model to compare students fairly.",
                 known);
        warning(w, buf);
    }
}

static void section_grading(out *w)
{
    const klass *c = w->c;
    heading(w, 2, "Grading");
    gpu_models(w);
    int *idx = malloc(sizeof *idx * (size_t)(c->nst + 1)), n = 0, ndry = 0;
    double *sec = malloc(sizeof *sec * (size_t)(c->nst + 1)), *dry = malloc(sizeof *dry * (size_t)(c->nst + 1));
    for (int i = 0; idx && sec && dry && i < c->nst; i++) /* a dry grading's seconds are no GPU's */
        if (c->st[i].record && !isnan(c->st[i].seconds) && c->st[i].dry)
            dry[ndry++] = c->st[i].seconds;
        else if (c->st[i].record && !isnan(c->st[i].seconds))
            sec[n] = c->st[i].seconds, idx[n++] = i;
    pl_stats s;
    pl_stats_of(sec, n, &s);
    if (ndry) {
        pl_stats d;
        pl_stats_of(dry, ndry, &d);
        para(w, "%sSeconds of grading without a GPU per student (a dry run: no test ran): mean %.1f, median %.1f, "
                "max %.1f (%d student%s).", n ? "" : "No GPU grading. ", d.mean, d.median, d.max, ndry,
             ndry == 1 ? "" : "s");
    }
    if (!n && !ndry) {
        para(w, "The record gives no grading times.");
    } else if (n) {
        para(w, "Seconds of GPU grading per student: mean %.1f, median %.1f, max %.1f (%d students).", s.mean, s.median,
             s.max, n);
        qsort_r(idx, (size_t)n, sizeof *idx, cmp_slow, (void *)c);
        table(w, "slowest to grade|>seconds|GPU model|host");
        for (int k = 0; k < n && k < N_SLOWEST; k++) {
            const student *st = &c->st[idx[k]];
            row(w);
            cell_begin(w);
            student_ref(w, idx[k]);
            cell_end(w);
            cell(w, "%.1f", st->seconds), cell(w, "%s", st->model), cell(w, "%s", st->host);
            row_end(w);
        }
        table_end(w);
    }
    free(idx), free(sec), free(dry);
}

static const char *const STYLE =
    "body{font:14px/1.45 sans-serif;color:#111;max-width:72em;margin:1.5em auto;padding:0 1em}\n"
    "h2{border-bottom:2px solid #4a7ab5;padding-bottom:.1em;margin-top:1.8em}\n"
    "table{border-collapse:collapse;margin:.4em 0 1.2em}\n"
    "th,td{border:1px solid #bbb;padding:.15em .5em;text-align:left;vertical-align:top}\n"
    "th{background:#e8eef6}\n"
    ".n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".hidden{color:#666;font-style:italic}\n"
    ".warn{border-left:5px solid #c0392b;background:#fdecea;padding:.4em .8em}\n"
    "figure{display:inline-block;margin:.3em .6em .3em 0}\n"
    "figcaption{font-size:90%;color:#444;text-align:center}\n"
    "svg{max-width:100%;height:auto}\n"
    "@media print{body{max-width:none;margin:0;font-size:11px}h2{break-before:page}"
    "tr,figure{break-inside:avoid}a{color:inherit;text-decoration:none}}\n";

static void write_page(out *w)
{
    const klass *c = w->c;
    if (w->html) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<title>primlab class report</title>\n<style>\n",
              w->f);
        fputs(STYLE, w->f);
        fputs("</style>\n</head>\n<body>\n", w->f);
    }
    heading(w, 1, "primlab class report");
    para(w, "Made by primlab-report from %s%s.", c->grades, c->o->anon ? ", students under pseudonyms" : "");
    if (w->html && w->fg->why[0])
        para(w, "Figures left out: %s.", w->fg->why);
    /* what a glance wants first; every test's line, the longest part, last */
    section_class(w);
    section_census(w);
    section_perf(w);
    section_board(w);
    section_grading(w);
    section_tests(w);
    if (w->html)
        fputs("</body>\n</html>\n", w->f);
}

/* ----------------------------------------------------------------- the run */

/* A new file in dir for name, with the mode a new file gets; NULL on error. */
static FILE *open_temp(const char *dir, const char *name, char *tmp, size_t cap)
{
    snprintf(tmp, cap, "%s/.%s.XXXXXX", dir, name);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return NULL;
    mode_t mask = umask(0);
    umask(mask);
    FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        close(fd);
        unlink(tmp);
    }
    return f;
}

/* One page into a new file beside its place (its name in tmp); 0 or 1. */
static int write_temp(klass *c, const figures *fg, int html, char *tmp, size_t tcap, char *err, size_t cap)
{
    out w = {.html = html, .c = c, .fg = fg};
    if (!(w.f = open_temp(c->grades, html ? "report.html" : "report.md", tmp, tcap))) {
        snprintf(err, cap, "cannot write in '%s': %s", c->grades, strerror(errno));
        return 1;
    }
    write_page(&w);
    if (ferror(w.f) | fclose(w.f)) {
        snprintf(err, cap, "cannot write '%s': %s", tmp, strerror(errno));
        unlink(tmp);
        return 1;
    }
    return 0;
}

/* Both pages written in full before either is renamed into place. */
static int write_reports(klass *c, const figures *fg, char *err, size_t cap)
{
    char md[PATH_CAP + 128], html[PATH_CAP + 128], path[PATH_CAP + 128];
    if (write_temp(c, fg, 0, md, sizeof md, err, cap))
        return 1;
    if (write_temp(c, fg, 1, html, sizeof html, err, cap))
        return unlink(md), 1;
    snprintf(path, sizeof path, "%s/report.md", c->grades);
    int bad = rename(md, path);
    if (!bad)
        snprintf(path, sizeof path, "%s/report.html", c->grades), bad = rename(html, path);
    if (bad) {
        snprintf(err, cap, "cannot write '%s': %s", path, strerror(errno));
        unlink(md), unlink(html);
        return 1;
    }
    return 0;
}

/* The students: the record's, the ungraded list's and the strays. */
static int load_students(klass *c, char *err, size_t cap)
{
    char path[PATH_CAP + 128];
    DIR *d = opendir(c->grades);
    if (!d) {
        snprintf(err, cap, "cannot read '%s': %s", c->grades, strerror(errno));
        return 2;
    }
    snprintf(path, sizeof path, "%s/.graded.tsv", c->grades);
    FILE *rec = fopen(path, "r");
    int e = errno, rc = 0;
    snprintf(path, sizeof path, "%s/.ungraded.tsv", c->grades);
    FILE *ung = fopen(path, "r");
    snprintf(path, sizeof path, "%s/lms-unmatched.txt", c->grades);
    FILE *lms = fopen(path, "r");
    if (!rec && (e != ENOENT || !ung)) {
        if (e == ENOENT)
            snprintf(err, cap, "'%s' is not a grading folder: it has no .graded.tsv (make grade writes it)", c->grades);
        else
            snprintf(err, cap, "cannot read '%s/.graded.tsv': %s", c->grades, strerror(e));
        rc = 2;
    } else if ((rec && read_record(c, rec)) || (ung && read_ungraded(c, ung)) || find_strays(c, d) ||
               (lms && read_roster_only(c, lms))) {
        snprintf(err, cap, "out of memory reading '%s'", c->grades);
        rc = 1;
    }
    if (rec)
        fclose(rec);
    if (ung)
        fclose(ung);
    if (lms)
        fclose(lms);
    closedir(d);
    return rc;
}

/* Each student's shown name, and the students sorted by it. */
static int name_students(klass *c, char *err, size_t cap)
{
    unsigned char key[16];
    if (c->o->anon && anon_key(c->grades, key, err, cap))
        return 2;
    if (c->o->anon ? pseudonyms(c, key) : 0)
        return snprintf(err, cap, "out of memory"), 1;
    for (int i = 0; !c->o->anon && i < c->nst; i++)
        if (!(c->st[i].shown = strdup(c->st[i].name)))
            return snprintf(err, cap, "out of memory"), 1;
    qsort(c->st, (size_t)c->nst, sizeof *c->st, cmp_shown);
    return 0;
}

static int load(klass *c, char *err, size_t cap)
{
    int rc = load_students(c, err, cap);
    if (!rc && c->o->reference && access(c->o->reference, R_OK))
        rc = 2, snprintf(err, cap, "cannot read the reference '%s': %s", c->o->reference, strerror(errno));
    if (!rc && (init_census(c) || !(c->board = pl_board_new())))
        rc = 1, snprintf(err, cap, "out of memory");
    if (!rc)
        rc = name_students(c, err, cap);
    if (!rc && read_students(c)) {
        if (c->too_many_labs)
            snprintf(err, cap, "more than %d labs in the scores of '%s'", MAX_LABS, c->grades);
        else
            snprintf(err, cap, "out of memory reading the scores of '%s'", c->grades);
        rc = c->too_many_labs ? 2 : 1;
    }
    if (!rc && c->o->reference && read_reference(c, c->o->reference))
        rc = 2, snprintf(err, cap, "cannot read the reference '%s': %s", c->o->reference, strerror(errno));
    sort_labs(c);
    return rc;
}

int pl_class_report(const char *grades, const pl_report_opts *o, char *err, size_t cap)
{
    klass c = {.grades = grades, .o = o};
    figures fg = {0};
    int rc = load(&c, err, cap);
    if (!rc && o->gnuplot)
        draw_figures(&c, &fg);
    else if (!rc)
        snprintf(fg.why, sizeof fg.why, "no figures asked for");
    if (!rc && fg.why[0] && o->gnuplot && o->warn)
        fprintf(o->warn, "primlab-report: warning: %s: report.html has its tables but no figures\n", fg.why);
    if (!rc)
        rc = write_reports(&c, &fg, err, cap);
    remove_figures(&fg);
    free_class(&c);
    return rc;
}
