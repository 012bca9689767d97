/* harness/serve/board.c: the leaderboard (see board.h).
 *
 * A board holds, per lab, its performance tests and its students, each
 * student with the best value of each test seen so far; ranking fills the
 * lab's rows from them. Students are found by a linear search, once per
 * lab of a job (its rows of a lab are together): a class of 1,000 has
 * 1,000 searches of at most 1,000 names per lab.
 */
#define _GNU_SOURCE /* strdup */
#include "board.h"

#include "../parent/bugs.h"
#include "../parent/class_report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct bstudent {
    char *student, *shown;
    int pseudonym, jobs;
    double *best; /* nbest of the lab's tests; the later ones have none yet */
    int nbest;
} bstudent;

typedef struct blab {
    char id[8];
    char **tests;
    int ntests, captests;
    bstudent *st;
    int nst, capst;
    pl_board_row *rows; /* the last ranking */
} blab;

struct pl_board {
    blab *labs;
    int nlabs, caplabs;
};

/* Room for one more element in *p (n used of *cap, each size bytes): 0,
   or -1 out of memory with *p as it was. */
static int grow(void *p, int n, int *cap, size_t size)
{
    void *old;
    memcpy(&old, p, sizeof old);
    if (n < *cap)
        return 0;
    int c = *cap ? 2 * *cap : 8;
    void *q = realloc(old, (size_t)c * size);
    if (!q)
        return -1;
    memcpy(p, &q, sizeof q);
    *cap = c;
    return 0;
}

pl_board *pl_board_new(void) { return calloc(1, sizeof(pl_board)); }

void pl_board_free(pl_board *b)
{
    if (!b)
        return;
    for (int l = 0; l < b->nlabs; l++) {
        blab *lb = &b->labs[l];
        for (int t = 0; t < lb->ntests; t++)
            free(lb->tests[t]);
        for (int i = 0; i < lb->nst; i++)
            free(lb->st[i].student), free(lb->st[i].shown), free(lb->st[i].best);
        free(lb->tests), free(lb->st), free(lb->rows);
    }
    free(b->labs);
    free(b);
}

static blab *lab_of(pl_board *b, const char *id, int add)
{
    for (int l = 0; l < b->nlabs; l++)
        if (!strcmp(b->labs[l].id, id))
            return &b->labs[l];
    if (!add || grow(&b->labs, b->nlabs, &b->caplabs, sizeof *b->labs))
        return NULL;
    blab *lb = &b->labs[b->nlabs++];
    memset(lb, 0, sizeof *lb);
    snprintf(lb->id, sizeof lb->id, "%s", id);
    return lb;
}

/* The student in lb (added when new); shown replaces the one kept. */
static bstudent *student_of(blab *lb, const char *student, const char *shown, int pseudonym)
{
    bstudent *s = NULL;
    for (int i = 0; i < lb->nst && !s; i++)
        if (!strcmp(lb->st[i].student, student))
            s = &lb->st[i];
    if (!s) {
        if (grow(&lb->st, lb->nst, &lb->capst, sizeof *lb->st))
            return NULL;
        s = &lb->st[lb->nst];
        memset(s, 0, sizeof *s);
        if (!(s->student = strdup(student)))
            return NULL;
        lb->nst++;
    }
    if (!s->shown || strcmp(s->shown, shown)) {
        char *copy = strdup(shown);
        if (!copy)
            return NULL;
        free(s->shown);
        s->shown = copy;
    }
    s->pseudonym = pseudonym;
    return s;
}

static int test_of(blab *lb, const char *name)
{
    for (int t = 0; t < lb->ntests; t++)
        if (!strcmp(lb->tests[t], name))
            return t;
    if (grow(&lb->tests, lb->ntests, &lb->captests, sizeof *lb->tests) || !(lb->tests[lb->ntests] = strdup(name)))
        return -1;
    return lb->ntests++;
}

/* The student's best of test t raised to v (v NAN: the test only made known). */
static int keep_best(bstudent *s, int t, double v)
{
    if (t >= s->nbest) {
        double *q = realloc(s->best, sizeof *q * (size_t)(t + 1));
        if (!q)
            return -1;
        for (int k = s->nbest; k <= t; k++)
            q[k] = NAN;
        s->best = q, s->nbest = t + 1;
    }
    if (!isnan(v) && (isnan(s->best[t]) || v > s->best[t]))
        s->best[t] = v;
    return 0;
}

/* A performance test worth points (a limit test this machine cannot hold
   has max 0). */
static int is_perf(const pl_score *r) { return !strcmp(r->kind, "performance") && r->max > 0; }

/* The row's ratio when it counts on the board (board.h), else NAN. */
static double counted(const pl_score *r)
{
    char *end;
    double v = strtod(r->value, &end);
    if (!is_perf(r) || strcmp(r->status, "OK") || r->cause[0] || end == r->value || *end || !isfinite(v) || v <= 0)
        return NAN;
    if (pl_bug_has(r->bugs, PL_BUG_VENDOR) || pl_bug_has(r->bugs, PL_BUG_HOST))
        return NAN;
    double target = r->target[0] ? strtod(r->target, &end) : NAN;
    if (r->points <= 0 && !isnan(target) && v >= target)
        return NAN; /* refused its points: the vendor library or the CPU */
    return pl_score_ratio(r); /* value is a fraction of the roof in a test scored by it (scores.h) */
}

/* The job (s's rows of lab) passed every correctness test it ran, and ran
   one at least (board.h). Points are written %.4f and max %g: equal
   within the last digit of %.4f. */
static int job_correct(const pl_scores *s, const char *lab)
{
    int ran = 0;
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        if (strcmp(r->lab, lab) || strcmp(r->kind, "correctness") || r->max <= 0)
            continue; /* max 0: a limit test this machine cannot hold, not run */
        if (strcmp(r->status, "OK") || r->points < r->max - 1e-4)
            return 0;
        ran++;
    }
    return ran > 0;
}

double pl_board_value(const pl_scores *s, int i)
{
    const pl_score *r = &s->rows[i];
    return is_perf(r) && job_correct(s, r->lab) ? counted(r) : NAN;
}

int pl_board_add(pl_board *b, const char *student, const char *shown, int pseudonym, const pl_scores *s)
{
    blab *lb = NULL;
    bstudent *st = NULL;
    int correct = 0;
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        if (!lb || strcmp(lb->id, r->lab)) {
            /* a lab's rows are together: a lab met again is the same job */
            int seen = 0;
            for (int k = 0; k < i && !seen; k++)
                seen = !strcmp(s->rows[k].lab, r->lab);
            if (!(lb = lab_of(b, r->lab, 1)) || !(st = student_of(lb, student, shown, pseudonym)))
                return -1;
            st->jobs += !seen;
            correct = job_correct(s, r->lab);
        }
        if (!is_perf(r))
            continue;
        /* the test is the lab's even when this job's ratio does not count */
        int t = test_of(lb, r->name);
        if (t < 0 || keep_best(st, t, correct ? counted(r) : NAN))
            return -1;
    }
    return 0;
}

/* The display name as shown (board.h) into out; "" when none. */
static void display_name(const char *name, char *out, size_t cap)
{
    size_t len = 0, max = cap - 1 < PL_BOARD_NAME_MAX ? cap - 1 : PL_BOARD_NAME_MAX;
    const unsigned char *c = (const unsigned char *)(name ? name : "");
    while (c[len] && len < max)
        len++;
    if (c[len]) /* cut: not inside a character */
        while (len > 0 && (c[len] & 0xc0) == 0x80)
            len--;
    size_t a = 0, z = len;
    for (size_t k = 0; k < len; k++)
        out[k] = c[k] < 0x20 || c[k] == 0x7f ? ' ' : (char)c[k];
    while (a < z && out[a] == ' ')
        a++;
    while (z > a && out[z - 1] == ' ')
        z--;
    memmove(out, out + a, z - a);
    out[z - a] = '\0';
}

/* The scores file of an entry's results (board.h) into out. */
static void scores_path(const char *results, char *out, size_t cap)
{
    struct stat st;
    const char *slash = strrchr(results, '/');
    if (stat(results, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(out, cap, "%s/scores.tsv", results);
    else if (!strcmp(slash ? slash + 1 : results, "scores.tsv"))
        snprintf(out, cap, "%s", results);
    else if (slash)
        snprintf(out, cap, "%.*s/scores.tsv", (int)(slash - results), results);
    else
        snprintf(out, cap, "scores.tsv");
}

int pl_board_add_entry(pl_board *b, const pl_board_entry *e, const unsigned char key[16])
{
    char shown[PL_BOARD_NAME_MAX + 1], path[4096];
    int pseudonym = pl_board_shown(key, e->student, e->name, shown, sizeof shown);
    pl_scores s = {0};
    scores_path(e->results, path, sizeof path);
    int rc;
    if (pl_scores_read(&s, path) == 0 && s.n > 0) {
        rc = pl_board_add(b, e->student, shown, pseudonym, &s);
    } else { /* no scores (yet): a job of its lab with no ratio */
        blab *lb = lab_of(b, e->lab, 1);
        bstudent *st = lb ? student_of(lb, e->student, shown, pseudonym) : NULL;
        rc = st ? (st->jobs++, 0) : -1;
    }
    pl_scores_free(&s);
    return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int pl_board_labs(const pl_board *b, const char **labs, int cap)
{
    int n = 0;
    for (int l = 0; l < b->nlabs; l++)
        if (b->labs[l].nst && n < cap)
            labs[n++] = b->labs[l].id;
    qsort(labs, (size_t)n, sizeof *labs, cmp_str);
    return n;
}

static int cmp_row(const void *a, const void *b)
{
    const pl_board_row *x = a, *y = b;
    if (!x->rank != !y->rank)
        return x->rank ? -1 : 1;
    if (x->rank && x->geomean != y->geomean)
        return x->geomean > y->geomean ? -1 : 1;
    return strcmp(x->shown, y->shown);
}

int pl_board_rank(pl_board *b, const char *lab, pl_board_lab *out)
{
    blab *lb = lab_of(b, lab, 0);
    memset(out, 0, sizeof *out);
    out->lab = lab;
    if (!lb)
        return 0;
    free(lb->rows);
    if (!(lb->rows = calloc((size_t)lb->nst + 1, sizeof *lb->rows)))
        return -1;
    int n = 0;
    for (int i = 0; i < lb->nst; i++) {
        bstudent *s = &lb->st[i];
        if (lb->ntests && keep_best(s, lb->ntests - 1, NAN))
            return -1;
        int have = 0;
        double logs = 0;
        for (int t = 0; t < lb->ntests; t++)
            if (!isnan(s->best[t]))
                have++, logs += log(s->best[t]);
        if (!have) /* no ratio: not on the board */
            continue;
        pl_board_row *r = &lb->rows[n++];
        r->shown = s->shown, r->pseudonym = s->pseudonym, r->jobs = s->jobs, r->best = s->best;
        r->rank = have == lb->ntests; /* 1 for now: ranked */
        r->geomean = r->rank ? exp(logs / lb->ntests) : NAN;
    }
    qsort(lb->rows, (size_t)n, sizeof *lb->rows, cmp_row);
    for (int k = 0; k < n && lb->rows[k].rank; k++)
        lb->rows[k].rank = k && lb->rows[k].geomean == lb->rows[k - 1].geomean ? lb->rows[k - 1].rank : k + 1;
    out->lab = lb->id;
    out->ntests = lb->ntests;
    out->tests = (const char *const *)lb->tests;
    out->nrows = n;
    out->rows = lb->rows;
    return 0;
}

/* ------------------------------------------------------------- writing */

static void tsv_text(FILE *f, const char *s)
{
    size_t cap = 4 * strlen(s) + 1;
    char *buf = malloc(cap);
    if (!buf)
        return;
    pl_score_escape(s, buf, cap);
    fputs(buf, f);
    free(buf);
}

static void print_tsv(FILE *f, const pl_board_lab *t)
{
    fputs("rank\tname\tpseudonym\tjobs\tgeomean", f);
    for (int k = 0; k < t->ntests; k++)
        fputc('\t', f), tsv_text(f, t->tests[k]);
    fputc('\n', f);
    for (int i = 0; i < t->nrows; i++) {
        const pl_board_row *r = &t->rows[i];
        if (r->rank)
            fprintf(f, "%d", r->rank);
        fputc('\t', f), tsv_text(f, r->shown);
        fprintf(f, "\t%d\t%d\t", r->pseudonym, r->jobs);
        if (r->rank)
            fprintf(f, "%.3f", r->geomean);
        for (int k = 0; k < t->ntests; k++)
            isnan(r->best[k]) ? fputc('\t', f) : fprintf(f, "\t%.3f", r->best[k]);
        fputc('\n', f);
    }
}

static const char *const STYLE =
    "body{font:14px/1.45 sans-serif;color:#111;max-width:72em;margin:1.5em auto;padding:0 1em}\n"
    "table.board{border-collapse:collapse;margin:.4em 0 1.2em}\n"
    ".board th,.board td{border:1px solid #bbb;padding:.15em .5em;text-align:left;vertical-align:top}\n"
    ".board th{background:#e8eef6}\n"
    ".board caption{text-align:left;padding:.2em 0;color:#444}\n"
    ".board .n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".board .pseudonym{font-style:italic;color:#444}\n";

static void print_html(FILE *f, const pl_board_lab *t, int page)
{
    if (page) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>primlab leaderboard: lab ",
              f);
        pl_html_puts(f, t->lab);
        fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>Lab ", STYLE);
        pl_html_puts(f, t->lab);
        fputs(": leaderboard</h1>\n", f);
    }
    fputs("<table class=\"board\">\n<caption>Lab ", f);
    pl_html_puts(f, t->lab);
    fputs(": each student's best throughput as a ratio to the vendor library's, measured in the same run, "
          "and the geometric mean of those bests (ranked: a ratio on every test); only from jobs that passed "
          "every correctness test.</caption>\n"
          "<thead><tr><th class=\"n\">rank</th><th>student</th><th class=\"n\">geomean</th>",
          f);
    for (int k = 0; k < t->ntests; k++) {
        fputs("<th class=\"n\">", f);
        pl_html_puts(f, t->tests[k]);
        fputs("</th>", f);
    }
    fputs("<th class=\"n\">jobs</th></tr></thead>\n<tbody>\n", f);
    for (int i = 0; i < t->nrows; i++) {
        const pl_board_row *r = &t->rows[i];
        fputs("<tr><td class=\"n\">", f);
        r->rank ? fprintf(f, "%d", r->rank) : fputs("-", f);
        fputs(r->pseudonym ? "</td><td class=\"pseudonym\">" : "</td><td>", f);
        pl_html_puts(f, r->shown);
        fputs("</td><td class=\"n\">", f);
        r->rank ? fprintf(f, "%.3f", r->geomean) : fputs("-", f);
        for (int k = 0; k < t->ntests; k++)
            isnan(r->best[k]) ? fputs("</td><td class=\"n\">-", f) : fprintf(f, "</td><td class=\"n\">%.3f", r->best[k]);
        fprintf(f, "</td><td class=\"n\">%d</td></tr>\n", r->jobs);
    }
    if (!t->nrows)
        fprintf(f, "<tr><td colspan=\"%d\">No student has a ratio on this lab yet.</td></tr>\n", t->ntests + 4);
    fputs("</tbody>\n</table>\n", f);
    if (page)
        fputs("</body>\n</html>\n", f);
}

void pl_board_print(FILE *out, const pl_board_lab *t, int format)
{
    if (format == PL_BOARD_TSV)
        print_tsv(out, t);
    else
        print_html(out, t, format == PL_BOARD_HTML_PAGE);
}

int pl_board_write(FILE *out, const char *lab, const pl_board_entry *e, size_t n, int format,
                   const unsigned char key[16], char *why, size_t cap)
{
    if (!key) {
        snprintf(why, cap, "no key for the pseudonyms");
        return -1;
    }
    pl_board *b = pl_board_new();
    int rc = b ? 0 : -1;
    for (size_t i = 0; !rc && i < n; i++)
        if (e[i].lab && e[i].student && e[i].results && !strcmp(e[i].lab, lab))
            rc = pl_board_add_entry(b, &e[i], key);
    pl_board_lab t;
    if (!rc)
        rc = pl_board_rank(b, lab, &t);
    if (rc) {
        snprintf(why, cap, "out of memory");
    } else {
        pl_board_print(out, &t, format);
        if (fflush(out) || ferror(out))
            rc = -1, snprintf(why, cap, "cannot write the board: %s", strerror(errno));
    }
    pl_board_free(b);
    return rc;
}

/* ---------------------------------------------------------- pseudonyms */

void pl_board_pseudonym(const unsigned char key[16], const char *student, char *out, size_t cap)
{
    uint64_t h = pl_siphash(key, student, strlen(student));
    snprintf(out, cap, "student-%08llx", (unsigned long long)(h >> 32));
}

int pl_board_shown(const unsigned char key[16], const char *student, const char *name, char *out, size_t cap)
{
    display_name(name, out, cap);
    if (out[0])
        return 0;
    pl_board_pseudonym(key, student, out, cap);
    return 1;
}

int pl_board_key(const char *path, unsigned char key[16], char *why, size_t cap)
{
    char hex[40] = "";
    for (int attempt = 0; attempt < 2; attempt++) {
        FILE *f = fopen(path, "r");
        if (f) {
            int ok = fgets(hex, sizeof hex, f) != NULL && strlen(hex) >= 32;
            fclose(f);
            for (int i = 0; ok && i < 16; i++)
                ok = sscanf(hex + 2 * i, "%2hhx", &key[i]) == 1;
            if (ok)
                return 0;
            snprintf(why, cap, "'%s' is not a key of 32 hex digits: remove it to make a new one", path);
            return -1;
        }
        if (errno != ENOENT)
            break;
        f = fopen("/dev/urandom", "r");
        int ok = f && fread(key, 1, 16, f) == 16;
        if (f)
            fclose(f);
        if (!ok)
            break;
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0 && errno == EEXIST)
            continue; /* made meanwhile by another process: read it */
        if (fd < 0)
            break;
        for (int i = 0; i < 16; i++)
            snprintf(hex + 2 * i, 3, "%02x", key[i]);
        hex[32] = '\n';
        ok = write(fd, hex, 33) == 33;
        if (close(fd) == 0 && ok)
            return 0;
        unlink(path);
        break;
    }
    snprintf(why, cap, "cannot make the pseudonyms' key '%s': %s", path, strerror(errno));
    return -1;
}
