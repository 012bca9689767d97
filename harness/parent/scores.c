/* harness/parent/scores.c: the scores file's one writer and reader (see
 * scores.h). Pure C; unit-tested by tests/unit/test_scores.c. */
#define _POSIX_C_SOURCE 200809L
#include "scores.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NO_GPU_PREFIX "no GPU ("

static const char *str(const char *s) { return s ? s : ""; }

void pl_score_escape(const char *in, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t j = 0;
    if (!cap)
        return;
    for (const unsigned char *c = (const unsigned char *)str(in); *c; c++) {
        char esc[5];
        size_t k = 0;
        switch (*c) {
        case '\\': esc[k++] = '\\', esc[k++] = '\\'; break;
        case '\t': esc[k++] = '\\', esc[k++] = 't'; break;
        case '\n': esc[k++] = '\\', esc[k++] = 'n'; break;
        case '\r': esc[k++] = '\\', esc[k++] = 'r'; break;
        default:
            if (*c < 0x20 || *c == 0x7f) {
                esc[k++] = '\\', esc[k++] = 'x', esc[k++] = hex[*c >> 4], esc[k++] = hex[*c & 15];
            } else {
                esc[k++] = (char)*c;
            }
        }
        if (j + k >= cap)
            break; /* whole escapes only */
        memcpy(out + j, esc, k);
        j += k;
    }
    out[j] = '\0';
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *pl_score_unescape(const char *in)
{
    in = str(in);
    char *out = malloc(strlen(in) + 1), *o = out;
    if (!out)
        return NULL;
    for (; *in; in++) {
        if (*in != '\\' || !in[1]) {
            *o++ = *in;
            continue;
        }
        in++;
        if (*in == 'x' && hex_digit(in[1]) >= 0 && hex_digit(in[2]) >= 0) {
            *o++ = (char)(hex_digit(in[1]) * 16 + hex_digit(in[2]));
            in += 2;
        } else {
            *o++ = *in == 'n' ? '\n' : *in == 't' ? '\t' : *in == 'r' ? '\r' : *in;
        }
    }
    *o = '\0';
    return out;
}

void pl_score_not_graded(pl_score *r, const char *lab, const char *cause, double max, char *name, size_t cap,
                         const char *folder, const char *reason)
{
    memset(r, 0, sizeof *r);
    snprintf(name, cap, "lab %s (%s)", str(lab), str(folder));
    r->name = name;
    r->reason = (char *)str(reason);
    r->max = max;
    snprintf(r->lab, sizeof r->lab, "%s", str(lab));
    snprintf(r->kind, sizeof r->kind, "correctness");
    snprintf(r->status, sizeof r->status, "%s", str(cause));
    snprintf(r->cause, sizeof r->cause, "%s", str(cause));
}

void pl_score_not_run(pl_score *r, const char *lab, const char *name, int perf, int hidden, double max)
{
    memset(r, 0, sizeof *r);
    r->name = (char *)str(name);
    r->reason = "not run: grading stopped before this test (a time limit?)";
    r->hidden = hidden;
    r->max = max;
    snprintf(r->lab, sizeof r->lab, "%s", str(lab));
    snprintf(r->kind, sizeof r->kind, "%s", perf ? "performance" : "correctness");
    snprintf(r->status, sizeof r->status, "ERROR");
    snprintf(r->cause, sizeof r->cause, PL_CAUSE_NOTRUN);
}

FILE *pl_scores_open(const char *path)
{
    FILE *f = fopen(path, "a");
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && st.st_size == 0) {
        fprintf(f, "# %s\n", PL_SCORES_COLUMNS);
        fflush(f);
    }
    return f;
}

/* An escaped field on the heap (NULL out of memory). */
static char *escaped(const char *s)
{
    size_t cap = 4 * strlen(str(s)) + 1;
    char *e = malloc(cap);
    if (e)
        pl_score_escape(s, e, cap);
    return e;
}

int pl_score_write(FILE *f, const pl_score *r)
{
    char *name = escaped(r->name), *reason = escaped(r->reason), *detail = escaped(r->detail);
    int rc = -1;
    if (name && reason && detail) {
        fprintf(f, "%s\t%s\t%s\t%d\t%s\t%.4f\t%g\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r->lab, name, r->kind,
                r->hidden, r->status, r->points, r->max, r->seconds, r->value, reason, detail, r->cause, r->bugs,
                r->target, r->ratio);
        rc = fflush(f) == 0 && !ferror(f) ? 0 : -1;
    }
    free(name), free(reason), free(detail);
    return rc;
}

static void copy_field(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", str(src));
}

static void free_row(pl_score *r)
{
    free(r->name), free(r->reason), free(r->detail);
}

/* A new row at the end of s, zeroed; NULL out of memory. */
static pl_score *new_row(pl_scores *s)
{
    if (s->n == s->cap) {
        int ncap = s->cap ? 2 * s->cap : 64;
        pl_score *r = realloc(s->rows, sizeof *r * (size_t)ncap);
        if (!r)
            return NULL;
        s->rows = r;
        s->cap = ncap;
    }
    pl_score *r = &s->rows[s->n++];
    memset(r, 0, sizeof *r);
    return r;
}

static char *dup_str(const char *s)
{
    char *d = malloc(strlen(str(s)) + 1);
    if (d)
        strcpy(d, str(s));
    return d;
}

int pl_scores_add(pl_scores *s, const pl_score *src)
{
    pl_score *r = new_row(s);
    if (!r)
        return -1;
    *r = *src;
    r->name = dup_str(src->name), r->reason = dup_str(src->reason), r->detail = dup_str(src->detail);
    if (!r->name || !r->reason || !r->detail) {
        free_row(r);
        s->n--;
        return -1;
    }
    return 0;
}

int pl_scores_read(pl_scores *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        if (!*line || line[0] == '#')
            continue;
        char *field[15] = {0}, *p = line;
        for (int k = 0; k < 15 && p; k++) {
            field[k] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (!field[6]) /* not a scores row */
            continue;
        pl_score *r = new_row(s);
        if (!r) {
            rc = -1, errno = ENOMEM;
            break;
        }
        copy_field(r->lab, sizeof r->lab, field[0]);
        copy_field(r->kind, sizeof r->kind, field[2]);
        r->hidden = field[3] && atoi(field[3]);
        copy_field(r->status, sizeof r->status, field[4]);
        r->points = field[5] ? atof(field[5]) : 0;
        r->max = atof(field[6]);
        r->seconds = field[7] ? atof(field[7]) : 0;
        copy_field(r->value, sizeof r->value, field[8]);
        copy_field(r->cause, sizeof r->cause, field[11]);
        copy_field(r->bugs, sizeof r->bugs, field[12]);
        copy_field(r->target, sizeof r->target, field[13]);
        copy_field(r->ratio, sizeof r->ratio, field[14]);
        if (!r->cause[0] && (!strcmp(r->status, PL_CAUSE_MISSING) || !strcmp(r->status, PL_CAUSE_NOBUILD)))
            copy_field(r->cause, sizeof r->cause, r->status);
        r->name = pl_score_unescape(field[1]);
        r->reason = pl_score_unescape(field[9]);
        r->detail = pl_score_unescape(field[10]);
        if (!r->name || !r->reason || !r->detail) {
            free_row(r);
            s->n--;
            rc = -1, errno = ENOMEM;
            break;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

void pl_scores_free(pl_scores *s)
{
    for (int i = 0; i < s->n; i++)
        free_row(&s->rows[i]);
    free(s->rows);
    memset(s, 0, sizeof *s);
}

void pl_scores_total(const pl_scores *s, const char *lab, double *got, double *max)
{
    *got = *max = 0;
    for (int i = 0; i < s->n; i++)
        if (!lab || !strcmp(s->rows[i].lab, lab)) {
            *got += s->rows[i].points;
            *max += s->rows[i].max;
        }
}

double pl_score_ratio(const pl_score *r)
{
    const char *v = r->ratio[0] ? r->ratio : r->value;
    char *end;
    double x = strtod(v, &end);
    return *v && !*end && isfinite(x) ? x : NAN;
}

const pl_score *pl_scores_find_cause(const pl_scores *s, const char *lab, const char *cause)
{
    for (int i = 0; i < s->n; i++)
        if ((!lab || !strcmp(s->rows[i].lab, lab)) && !strcmp(s->rows[i].cause, cause))
            return &s->rows[i];
    return NULL;
}

void pl_reason_no_gpu(char *buf, size_t cap, const char *why)
{
    snprintf(buf, cap, NO_GPU_PREFIX "%.180s)", str(why));
}

void pl_no_gpu_why(const pl_score *r, char *buf, size_t cap)
{
    const char *reason = str(r->reason);
    size_t lp = strlen(NO_GPU_PREFIX), len = strlen(reason);
    if (strcmp(r->cause, PL_CAUSE_NOGPU) || strncmp(reason, NO_GPU_PREFIX, lp) || len <= lp || reason[len - 1] != ')') {
        snprintf(buf, cap, "%s", "");
        return;
    }
    snprintf(buf, cap, "%.*s", (int)(len - lp - 1), reason + lp);
}

char *pl_read_file(const char *path, size_t *len, const char *prog)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t cap = 0;
    for (*len = 0; f && !feof(f) && !ferror(f);) {
        char *more = *len + 1 < cap ? text : realloc(text, cap = 2 * cap + 65536);
        if (!more)
            break;
        text = more;
        *len += fread(text + *len, 1, cap - 1 - *len, f);
    }
    if (f && feof(f) && !ferror(f)) {
        fclose(f);
        text[*len] = '\0';
        return text;
    }
    if (prog)
        fprintf(stderr, "%s: cannot read '%s': %s\n", prog, path,
                f ? "a read error, or out of memory" : strerror(errno));
    if (f)
        fclose(f);
    free(text);
    return NULL;
}
