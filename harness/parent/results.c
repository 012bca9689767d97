/* harness/parent/results.c: results.json, the Autolab line, TAP, JUnit XML,
 * the gradebook row and the Score line, from the scores rows (see
 * results.h). Pure C; unit-tested by tests/unit/test_scores.c. */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "../serve/board.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const char *s) { return s ? s : ""; }

static int passed(const pl_score *r) { return r->points >= r->max - 1e-9; }

static int in_lab(const pl_score *r, const char *lab) { return !lab || !strcmp(r->lab, lab); }

/* The length of the UTF-8 sequence at c (1 to 4), or 0 when it is not one. */
static int utf8_len(const unsigned char *c)
{
    int n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c[0] < 0x80)
        return 1;
    if (c[0] >= 0xc2 && c[0] <= 0xdf)
        n = 2;
    else if (c[0] >= 0xe0 && c[0] <= 0xef)
        n = 3, lo = c[0] == 0xe0 ? 0xa0 : 0x80, hi = c[0] == 0xed ? 0x9f : 0xbf;
    else if (c[0] >= 0xf0 && c[0] <= 0xf4)
        n = 4, lo = c[0] == 0xf0 ? 0x90 : 0x80, hi = c[0] == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (c[1] < lo || c[1] > hi)
        return 0;
    for (int k = 2; k < n; k++)
        if (c[k] < 0x80 || c[k] > 0xbf)
            return 0;
    return n;
}

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

void pl_json_string(FILE *f, const char *t)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)str(t); *c;) {
        int n = utf8_len(c);
        switch (*c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (!n)
                fputs("\\ufffd", f);
            else if (*c < 0x20)
                fprintf(f, "\\u%04x", *c);
            else
                fwrite(c, 1, (size_t)n, f);
        }
        c += n ? n : 1;
    }
    fputc('"', f);
}

void pl_xml_text(FILE *f, const char *t)
{
    for (const unsigned char *c = (const unsigned char *)str(t); *c;) {
        int n = utf8_len(c);
        switch (*c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        case '\r': fputs("&#13;", f); break;
        default:
            /* XML 1.0 holds no other control character, nor U+FFFE/U+FFFF */
            if (!n || *c < 0x20 || (n == 3 && c[0] == 0xef && c[1] == 0xbf && c[2] >= 0xbe))
                fputs(REPLACEMENT, f);
            else
                fwrite(c, 1, (size_t)n, f);
        }
        c += n ? n : 1;
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
                r->points, r->max, passed(r) && r->max > 0 ? "passed" : "failed");
        pl_json_string(f, r->name);
        fprintf(f, ", \"number\": \"%s.%d\", \"output\": ", r->lab, i + 1);
        char *text = NULL;
        size_t tl = 0;
        FILE *t = open_memstream(&text, &tl);
        fprintf(t, "%s (%.2fs)", r->status, r->seconds);
        if (*str(r->reason))
            fprintf(t, "\n%s", r->reason);
        if (*str(r->detail))
            fprintf(t, "\n%s", r->detail);
        fclose(t);
        pl_json_string(f, text);
        free(text);
        fprintf(f, ", \"tags\": [\"lab%s\", \"%s\"], \"visibility\": \"%s\"}", r->lab, r->kind,
                r->hidden ? "after_due_date" : "visible");
    }
    /* The leaderboard: each performance test's ratio as the boards count it
       (board.h: only from a lab whose correctness tests all passed), then
       each lab's geometric mean when every one of its tests counts. */
    fprintf(f, "\n  ],\n  \"leaderboard\": [");
    int first = 1;
    for (int k = 0; k < nl; k++) {
        double logs = 0;
        int tests = 0, counted = 0;
        for (int i = 0; i < s->n; i++) {
            const pl_score *r = &s->rows[i];
            if (strcmp(r->lab, labs[k]) || strcmp(r->kind, "performance") || r->max <= 0)
                continue;
            tests++;
            double v = pl_board_value(s, i);
            if (isnan(v))
                continue;
            counted++, logs += log(v);
            fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
            pl_json_string(f, r->name);
            /* the ratio to the yardstick, also of a test scored by its
               roof (scores.h) */
            fprintf(f, ", \"value\": %s, \"order\": \"desc\"}", r->ratio[0] ? r->ratio : r->value);
            first = 0;
        }
        if (tests && counted == tests) {
            fprintf(f, "%s\n    {\"name\": \"lab%s geometric mean\", \"value\": %.4f, \"order\": \"desc\"}",
                    first ? "" : ",", labs[k], exp(logs / tests));
            first = 0;
        }
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

/* TAP's description: one line, and no '#' that a reader would take for a
   directive (SKIP, TODO). */
static void tap_text(FILE *f, const char *t)
{
    for (const char *c = str(t); *c; c++) {
        if (*c == '#')
            fputs("\\#", f);
        else
            fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    }
}

void pl_write_tap(FILE *f, const pl_scores *s, const char *lab)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += in_lab(&s->rows[i], lab);
    fprintf(f, "1..%d\n", n);
    for (int i = 0, k = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        if (!in_lab(r, lab))
            continue;
        fprintf(f, "%s %d - ", passed(r) ? "ok" : "not ok", ++k);
        tap_text(f, r->name);
        if (!passed(r)) {
            fprintf(f, ": %s: ", r->status);
            tap_text(f, r->reason);
        }
        fputc('\n', f);
    }
}

/* One testsuite's counts over the rows of lab. */
static void junit_counts(const pl_scores *s, const char *lab, int *tests, int *failures, int *skipped,
                         double *secs)
{
    *tests = *failures = *skipped = 0;
    *secs = 0;
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        if (!in_lab(r, lab))
            continue;
        ++*tests;
        *secs += r->seconds;
        if (!passed(r) && !strcmp(r->status, "SKIP"))
            ++*skipped;
        else if (!passed(r))
            ++*failures;
    }
}

void pl_write_junit(FILE *f, const pl_scores *s, const char *lab)
{
    int tests, failures, skipped;
    double secs;
    const char *labs[64];
    int nl = labs_of(s, labs, 64);
    junit_counts(s, lab, &tests, &failures, &skipped, &secs);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<testsuites name=\"primlab\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
            tests, failures, skipped, secs);
    for (int k = 0; k < nl; k++) {
        if (lab && strcmp(labs[k], lab))
            continue;
        junit_counts(s, labs[k], &tests, &failures, &skipped, &secs);
        fprintf(f, "  <testsuite name=\"lab");
        pl_xml_text(f, labs[k]);
        fprintf(f, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.3f\">\n", tests, failures, skipped, secs);
        for (int i = 0; i < s->n; i++) {
            const pl_score *r = &s->rows[i];
            if (strcmp(r->lab, labs[k]))
                continue;
            fprintf(f, "    <testcase classname=\"lab");
            pl_xml_text(f, r->lab);
            fprintf(f, "\" name=\"");
            pl_xml_text(f, r->name);
            fprintf(f, "\" time=\"%.3f\"", r->seconds);
            if (passed(r)) {
                fprintf(f, "/>\n");
                continue;
            }
            const char *tag = !strcmp(r->status, "SKIP") ? "skipped" : "failure";
            fprintf(f, ">\n      <%s", tag);
            if (strcmp(tag, "skipped"))
                fprintf(f, " type=\"%s\"", r->status);
            fprintf(f, " message=\"");
            pl_xml_text(f, r->reason);
            if (*str(r->detail)) {
                fprintf(f, "\">");
                pl_xml_text(f, r->detail);
                fprintf(f, "</%s>\n", tag);
            } else {
                fprintf(f, "\"/>\n");
            }
            fprintf(f, "    </testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
}

/* One gradebook line: name, then per lab of labs its points (or, with
   max, its maximum), then their sum; without labs, the sum of every row. */
static void gradebook_line(FILE *f, const pl_scores *s, const char *name, const char *const *labs, int nlabs, int max)
{
    double sum = 0, g, m;
    fprintf(f, "%s", name);
    for (int k = 0; k < nlabs; k++) {
        pl_scores_total(s, labs[k], &g, &m);
        fprintf(f, ",%s", pl_points_str(max ? m : g, 0));
        sum += max ? m : g;
    }
    if (!nlabs) {
        pl_scores_total(s, NULL, &g, &m);
        sum = max ? m : g;
    }
    fprintf(f, ",%s\n", pl_points_str(sum, 0));
}

void pl_write_gradebook_row(FILE *f, const pl_scores *s, const char *student, const char *const *labs, int nlabs)
{
    gradebook_line(f, s, student, labs, nlabs, 0);
}

void pl_write_gradebook_max(FILE *f, const pl_scores *s, const char *name, const char *const *labs, int nlabs)
{
    gradebook_line(f, s, name, labs, nlabs, 1);
}

void pl_write_subtotals(FILE *f, const pl_scores *s)
{
    const char *labs[64];
    int nl = labs_of(s, labs, 64);
    for (int k = 0; k < nl; k++) {
        double g, m;
        pl_scores_total(s, labs[k], &g, &m);
        fprintf(f, "lab%s subtotal: %s/%s\n", labs[k], pl_points_str(g, 0), pl_points_str(m, 1));
    }
}

const pl_score *pl_scores_no_gpu(const pl_scores *s)
{
    return pl_scores_find_cause(s, NULL, PL_CAUSE_NOGPU);
}

void pl_write_score_line(FILE *f, const pl_scores *s, int nogpu_note)
{
    const pl_score *none = nogpu_note ? pl_scores_no_gpu(s) : NULL;
    double got, max;
    pl_scores_total(s, NULL, &got, &max);
    if (none)
        fprintf(f, "Score: none, no test could run on this machine: %s\n", str(none->reason));
    else
        fprintf(f, "Score: %s/%s\n", pl_points_str(got, 0), pl_points_str(max, 1));
}

const char *pl_scores_unscored(const pl_scores *s, int dry)
{
    const pl_score *r = pl_scores_no_gpu(s);
    if (r)
        return *str(r->reason) ? r->reason : PL_DRY_REASON;
    return dry ? PL_DRY_REASON : NULL;
}

void pl_write_no_score_line(FILE *f, const char *why)
{
    fprintf(f, "Score: none, no test could run on this machine: %s\n", str(why));
}

void pl_write_gradescope_not_run(FILE *f, const pl_scores *s, const char *extra, const char *why)
{
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    fprintf(o, "No score: the tests did not run on the grading machine: %s.\n", str(why));
    for (int i = 0; i < s->n; i++) {
        const pl_score *r = &s->rows[i];
        if (!strcmp(r->cause, PL_CAUSE_MISSING) || !strcmp(r->cause, PL_CAUSE_NOBUILD))
            fprintf(o, "lab%s: %s\n", r->lab, str(r->reason));
    }
    if (extra && *extra)
        fprintf(o, "%s", extra);
    fclose(o);
    fprintf(f, "{\n  \"execution_time\": 0.0,\n  \"output\": ");
    pl_json_string(f, out);
    fprintf(f, ",\n  \"output_format\": \"text\",\n  \"visibility\": \"visible\",\n"
               "  \"stdout_visibility\": \"hidden\",\n  \"tests\": [],\n  \"leaderboard\": []\n}\n");
    free(out);
}

void pl_write_gradebook_blank(FILE *f, const char *student, int nlabs)
{
    fprintf(f, "%s", student);
    for (int k = 0; k <= nlabs; k++)
        fputc(',', f);
    fputc('\n', f);
}

const char *pl_autolab_refused(const pl_scores *s)
{
    return pl_scores_no_gpu(s) ? PL_AUTOLAB_REFUSED : NULL;
}

int pl_scores_full(const pl_scores *s)
{
    double got, max;
    pl_scores_total(s, NULL, &got, &max);
    return max > 0 && got >= max - 1e-9;
}

void pl_machine_fault(const pl_scores *s, const char *lab, char *buf, size_t cap)
{
    const pl_score *r = pl_scores_find_cause(s, lab, PL_CAUSE_NOGPU);
    char why[256];
    if (r) {
        pl_no_gpu_why(r, why, sizeof why);
        snprintf(buf, cap, "the grading machine has no GPU (not your code): %s; PRIMLAB_NO_GPU=1 runs without one, a practice run with no scores",
                 *why ? why : str(r->reason));
        return;
    }
    r = pl_scores_find_cause(s, lab, PL_CAUSE_NOWORKER);
    snprintf(buf, cap, "the grading machine cannot start the kit's worker of lab%s (not your code): %s", str(lab),
             r && *str(r->reason) ? r->reason : "the lab binary says so (status 3)");
}
