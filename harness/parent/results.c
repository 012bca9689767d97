/* harness/parent/results.c: scores files and LMS formats (see results.h). */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *unescape(const char *in)
{
    char *out = malloc(strlen(in) + 1), *o = out;
    if (!out)
        return NULL;
    for (; *in; in++) {
        if (*in == '\\' && in[1]) {
            in++;
            *o++ = *in == 'n' ? '\n' : *in == 't' ? '\t' : *in;
        } else {
            *o++ = *in;
        }
    }
    *o = '\0';
    return out;
}

static void copy_field(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

int pl_scores_read(pl_scores *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        if (!*line || line[0] == '#')
            continue;
        char *field[11] = {0}, *p = line;
        for (int k = 0; k < 11 && p; k++) {
            field[k] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (!field[6]) /* not a scores row */
            continue;
        if (s->n == s->cap) {
            int ncap = s->cap ? 2 * s->cap : 64;
            pl_score *r = realloc(s->rows, sizeof *r * (size_t)ncap);
            if (!r)
                break;
            s->rows = r;
            s->cap = ncap;
        }
        pl_score *r = &s->rows[s->n++];
        memset(r, 0, sizeof *r);
        copy_field(r->lab, sizeof r->lab, field[0]);
        char *name = unescape(field[1]);
        copy_field(r->name, sizeof r->name, name);
        free(name);
        copy_field(r->kind, sizeof r->kind, field[2]);
        r->hidden = field[3] && atoi(field[3]);
        copy_field(r->status, sizeof r->status, field[4]);
        r->points = field[5] ? atof(field[5]) : 0;
        r->max = field[6] ? atof(field[6]) : 0;
        r->seconds = field[7] ? atof(field[7]) : 0;
        copy_field(r->value, sizeof r->value, field[8]);
        r->reason = unescape(field[9] ? field[9] : "");
        r->detail = unescape(field[10] ? field[10] : "");
    }
    free(line);
    fclose(f);
    return 0;
}

void pl_scores_free(pl_scores *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->rows[i].reason), free(s->rows[i].detail);
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

const char *pl_points_str(double v, int slot)
{
    static char buf[4][32];
    char *b = buf[slot & 3];
    double r = v < 0 ? -v : v;
    if (r - (double)(long long)r < 0.005 || r - (double)(long long)r > 0.995)
        snprintf(b, sizeof buf[0], "%.0f", v);
    else
        snprintf(b, sizeof buf[0], "%.2f", v);
    return b;
}

void pl_json_string(FILE *f, const char *t)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)(t ? t : ""); *c; c++) {
        switch (*c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*c < 0x20)
                fprintf(f, "\\u%04x", *c);
            else
                fputc(*c, f);
        }
    }
    fputc('"', f);
}

/* The distinct labs in row order, at most cap. */
static int labs_of(const pl_scores *s, const char **out, int cap)
{
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= !strcmp(out[k], s->rows[i].lab);
        if (!seen && n < cap)
            out[n++] = s->rows[i].lab;
    }
    return n;
}

void pl_write_gradescope(FILE *f, const pl_scores *s, const char *extra)
{
    double got, max, secs = 0;
    pl_scores_total(s, NULL, &got, &max);
    for (int i = 0; i < s->n; i++)
        secs += s->rows[i].seconds;

    /* The top-level output: one subtotal line per lab, then the extra text. */
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    const char *labs[64];
    int nl = labs_of(s, labs, 64);
    for (int k = 0; k < nl; k++) {
        double g, m;
        pl_scores_total(s, labs[k], &g, &m);
        fprintf(o, "lab%s: %s/%s\n", labs[k], pl_points_str(g, 0), pl_points_str(m, 1));
    }
    fprintf(o, "total: %s/%s\n", pl_points_str(got, 0), pl_points_str(max, 1));
    if (extra && *extra)
        fprintf(o, "%s", extra);
    fclose(o);

    fprintf(f, "{\n  \"score\": %.4f,\n  \"execution_time\": %.1f,\n  \"output\": ", got, secs);
    pl_json_string(f, out);
    fprintf(f, ",\n  \"output_format\": \"text\",\n  \"visibility\": \"visible\",\n"
               "  \"stdout_visibility\": \"hidden\",\n  \"tests\": [");
    free(out);
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        fprintf(f, "%s\n    {\"score\": %.4f, \"max_score\": %g, \"status\": \"%s\", \"name\": ", i ? "," : "",
                r->points, r->max, r->points >= r->max - 1e-9 && r->max > 0 ? "passed" : "failed");
        pl_json_string(f, r->name);
        fprintf(f, ", \"number\": \"%s.%d\", \"output\": ", r->lab, i + 1);
        char *text = NULL;
        size_t tl = 0;
        FILE *t = open_memstream(&text, &tl);
        fprintf(t, "%s (%.2fs)", r->status, r->seconds);
        if (*r->reason)
            fprintf(t, "\n%s", r->reason);
        if (*r->detail)
            fprintf(t, "\n%s", r->detail);
        fclose(t);
        pl_json_string(f, text);
        free(text);
        fprintf(f, ", \"tags\": [\"lab%s\", \"%s\"], \"visibility\": \"%s\"}", r->lab, r->kind,
                r->hidden ? "after_due_date" : "visible");
    }
    fprintf(f, "\n  ],\n  \"leaderboard\": [");
    int first = 1;
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        if (!*r->value)
            continue;
        fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
        pl_json_string(f, r->name);
        fprintf(f, ", \"value\": %s, \"order\": \"desc\"}", r->value);
        first = 0;
    }
    fprintf(f, "%s]\n}\n", first ? "" : "\n  ");
}

void pl_write_autolab(FILE *f, const pl_scores *s, const char *const *labs, int nlabs)
{
    double total, max;
    pl_scores_total(s, NULL, &total, &max);
    fprintf(f, "{\"scores\": {");
    for (int k = 0; k < nlabs; k++) {
        double g, m;
        pl_scores_total(s, labs[k], &g, &m);
        fprintf(f, "%s\"Lab%s\": %g", k ? ", " : "", labs[k], g);
    }
    fprintf(f, "}, \"scoreboard\": [%g", total);
    for (int k = 0; k < nlabs; k++) {
        double g, m;
        pl_scores_total(s, labs[k], &g, &m);
        fprintf(f, ", %g", g);
    }
    fprintf(f, "]}\n");
}
