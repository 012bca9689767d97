/* harness/parent/alg_rows.c: the algorithms' roofs of a lab's rows (see alg_rows.h). */
#include "alg_rows.h"
#include "report.h"
#include "roofs.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void pl_alg_notes(const pl_part *p, int which, char *buf, size_t cap, size_t *len)
{
    const pl_alg *a[2] = {which & PL_NOTE_CODE ? &p->alg : NULL,
                          which & PL_NOTE_VENDOR && p->vendor ? &p->vendor_alg : NULL};
    for (int v = 0; v < 2 && *len < cap; v++) {
        if (!a[v] || !a[v]->text)
            continue;
        int w = snprintf(buf + *len, cap - *len, "# alg_%s%s%s: %s\n", p->id, v ? "_" : "",
                         v ? (p->vendor_name ? p->vendor_name : "cub") : "", a[v]->text);
        if (w > 0 && (size_t)w < cap - *len)
            *len += (size_t)w;
        else /* a note cut short is no note */
            buf[*len] = '\0';
    }
}

int pl_row_kind(const pl_part *p, const char *variant)
{
    static const char *const code[] = {"solution", "student"}; /* pl_impl_variant's two values */
    if (!strcmp(variant, "cpu_serial") || !strcmp(variant, "cpu_omp"))
        return PL_ROW_CPU;
    if (p->vendor && !strcmp(variant, p->vendor_name ? p->vendor_name : "cub"))
        return PL_ROW_VENDOR;
    for (size_t i = 0; i < sizeof code / sizeof code[0]; i++) {
        size_t l = strlen(code[i]);
        if (!strncmp(variant, code[i], l) && (variant[l] == '\0' || variant[l] == ' '))
            return PL_ROW_CODE;
    }
    return PL_ROW_UNKNOWN;
}

double pl_row_alg_bytes(const pl_lab *lab, const pl_part *p, int kind, int on_gpu, long n, double param,
                        const char *param_label)
{
    if ((kind != PL_ROW_VENDOR && kind != PL_ROW_CODE) || !on_gpu)
        return 0;
    const pl_alg *a = kind == PL_ROW_VENDOR ? &p->vendor_alg : &p->alg;
    return lab->row_alg_bytes ? lab->row_alg_bytes(p, a, n, param, param_label) : pl_alg_bytes(a, n, param);
}

/* ------------------------------------------------------------ reading */

/* The line at text[*at..len): its start and length without the newline,
   and whether one ends it; *at moves past it. 0 at the end. */
static int next_line(const char *text, size_t len, size_t *at, const char **s, size_t *l, int *nl)
{
    if (*at >= len)
        return 0;
    *s = text + *at;
    const char *e = memchr(*s, '\n', len - *at);
    *l = e ? (size_t)(e - *s) : len - *at;
    *nl = e != NULL;
    *at += *l + (size_t)*nl;
    return 1;
}

#define MAX_FIELDS 64

/* The tab-separated fields of line[0..l), copied to buf (cap bytes, NUL
   after each); their count, or -1 when the line does not fit or has more
   than MAX_FIELDS. */
static int split(const char *line, size_t l, char *buf, size_t cap, char **f)
{
    if (l >= cap)
        return -1;
    memcpy(buf, line, l);
    buf[l] = '\0';
    int nf = 0;
    for (char *c = buf;; c++) {
        if (nf == MAX_FIELDS)
            return -1;
        f[nf++] = c;
        c = strchr(c, '\t');
        if (!c)
            return nf;
        *c = '\0';
    }
}

/* The columns the rows are read by: their index, or -1 where the file lacks one. */
enum { C_LAB, C_PART, C_VARIANT, C_N, C_TIME, C_COPY, C_PARAM, C_LABEL, C_ROOF, C_PCT_COPY, C_ALG, C_PCT_ALG, NCOLS };
static const char *const col_names[NCOLS] = {"lab",   "part",        "variant", "n",        "time_ms",   "copy_gbps",
                                             "param", "param_label", "roof",    "pct_copy", "alg_bytes", "pct_alg"};
#define NREQUIRED 6 /* lab .. copy_gbps */

static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && !*end && !errno;
}

/* One data row of the rows' lab: its part (*part), the formula it is
   timed against (*note: PL_NOTE_CODE, PL_NOTE_VENDOR, or 0 for none) and
   the two fields' inputs (*alg, *copy, *time); 0, or -1 with err. line_no
   names it. */
static int read_row(const pl_lab *lab, char **f, const int *col, int line_no, int *part, int *note, double *alg,
                    double *copy, double *time, char *err, size_t cap)
{
    if (strcmp(f[col[C_LAB]], lab->id))
        return fail(err, cap, "line %d: a row of lab '%s': this is lab %s's table", line_no, f[col[C_LAB]], lab->id);
    const pl_part *p = NULL;
    for (int k = 0; k < lab->nparts && !p; k++)
        if (!strcmp(lab->parts[k]->id, f[col[C_PART]]))
            p = lab->parts[*part = k];
    if (!p)
        return fail(err, cap, "line %d: lab %s has no part '%s'", line_no, lab->id, f[col[C_PART]]);
    const char *variant = f[col[C_VARIANT]];
    int kind = pl_row_kind(p, variant);
    if (kind == PL_ROW_UNKNOWN)
        return fail(err, cap, "line %d: part %s has no variant '%s' (cpu_serial, cpu_omp, %s, solution, student)",
                    line_no, p->id, variant, p->vendor ? (p->vendor_name ? p->vendor_name : "cub") : "no vendor");
    char *end;
    errno = 0;
    long n = strtol(f[col[C_N]], &end, 10);
    if (end == f[col[C_N]] || *end || errno || n < 0)
        return fail(err, cap, "line %d: n '%s' is no size", line_no, f[col[C_N]]);
    double param = NAN;
    if (!number(f[col[C_TIME]], time) || !number(f[col[C_COPY]], copy) ||
        (col[C_PARAM] >= 0 && !number(f[col[C_PARAM]], &param)))
        return fail(err, cap, "line %d: time_ms, copy_gbps or param is no number", line_no);
    if (p->params.n && isnan(param))
        return fail(err, cap, "line %d: part %s takes a parameter (%s) and the row gives none", line_no, p->id,
                    p->params.name ? p->params.name : "param");
    const char *label = col[C_LABEL] >= 0 && strcmp(f[col[C_LABEL]], "nan") ? f[col[C_LABEL]] : NULL;
    int nlabels = p->params.nlabels ? p->params.nlabels : p->params.n;
    if (label && p->params.labels && !lab->row_alg_bytes &&
        !(param >= 0 && param < nlabels && !strcmp(p->params.labels[(int)param], label)))
        return fail(err, cap, "line %d: part %s's parameter %g is not '%s' in lab %s's table", line_no, p->id, param,
                    label, lab->id);
    /* where it ran, as the writer said: a roof ("copy", "smem") for a GPU
       row, "nan" for the others; files without the column, a % of copy */
    int on_gpu = kind != PL_ROW_CPU;
    if (col[C_ROOF] >= 0)
        on_gpu = strcmp(f[col[C_ROOF]], "nan") != 0;
    else if (col[C_PCT_COPY] >= 0)
        on_gpu = strcmp(f[col[C_PCT_COPY]], "nan") != 0;
    if (on_gpu && kind == PL_ROW_CPU)
        return fail(err, cap, "line %d: a CPU row (%s) with a GPU's roof", line_no, variant);
    *alg = pl_row_alg_bytes(lab, p, kind, on_gpu, n, param, label);
    *note = !on_gpu ? 0 : kind == PL_ROW_VENDOR ? PL_NOTE_VENDOR : PL_NOTE_CODE;
    return 0;
}

/* ------------------------------------------------------------ writing */

/* A file being derived: its text, where its header is and what it names,
   and what its rows need (read_rows), before a byte is written. */
typedef struct derivation {
    const pl_lab *lab;
    const char *text;
    size_t len;
    size_t header_at, rows_at; /* the header line's start; the line after it */
    int header_no;             /* its line number */
    int nf, col[NCOLS];        /* the header's fields; each column's index, or -1 */
    double *v;                 /* each data row's alg bytes, copy_gbps and time_ms */
    size_t nrows;
    char *seen;                /* each part's formulas its GPU rows use (PL_NOTE_*) */
} derivation;

static char fields[1 << 16]; /* one line's fields (split) */

/* The header: the first line that is neither a comment nor empty. */
static int read_header(derivation *d, char *err, size_t cap)
{
    char *f[MAX_FIELDS];
    const char *s;
    size_t l, at = 0;
    int nl, line_no = 0;
    for (d->nf = -1; d->nf < 0 && next_line(d->text, d->len, &at, &s, &l, &nl);) {
        line_no++;
        if (l && s[0] != '#' && (d->nf = split(s, l, fields, sizeof fields, f)) < 0)
            return fail(err, cap, "line %d: the header is too long", line_no);
        d->header_at = d->nf < 0 ? at : d->header_at;
    }
    if (d->nf < 0)
        return fail(err, cap, "no header line (lab, part, variant, ...)");
    d->rows_at = at, d->header_no = line_no;
    for (int c = 0; c < NCOLS; c++) {
        d->col[c] = -1;
        for (int i = 0; i < d->nf; i++)
            d->col[c] = strcmp(f[i], col_names[c]) ? d->col[c] : i;
        if (c < NREQUIRED && d->col[c] < 0)
            return fail(err, cap, "line %d: no column '%s' in the header", line_no, col_names[c]);
    }
    if (d->col[C_ALG] >= 0 || d->col[C_PCT_ALG] >= 0)
        return fail(err, cap, "line %d: it has the columns alg_bytes and pct_alg already (measured with them, or "
                              "derived before): nothing to add", line_no);
    return 0;
}

/* Every data row after the header read and checked (read_row). */
static int read_rows(derivation *d, char *err, size_t cap)
{
    char *f[MAX_FIELDS];
    const char *s;
    size_t l, at = d->rows_at, room = 0;
    int nl, nf, line_no = d->header_no;
    if (!(d->seen = calloc((size_t)d->lab->nparts + 1, 1)))
        return fail(err, cap, "out of memory");
    while (next_line(d->text, d->len, &at, &s, &l, &nl)) {
        line_no++;
        if (!l || s[0] == '#')
            continue;
        if ((nf = split(s, l, fields, sizeof fields, f)) != d->nf)
            return nf < 0 ? fail(err, cap, "line %d: too long, or more than %d fields", line_no, MAX_FIELDS)
                          : fail(err, cap, "line %d: %d fields, the header has %d", line_no, nf, d->nf);
        double *more = d->nrows < room ? d->v : realloc(d->v, (room = 2 * room + 256) * 3 * sizeof *d->v);
        if (!more)
            return fail(err, cap, "out of memory at line %d", line_no);
        d->v = more;
        double *r = d->v + 3 * d->nrows++;
        int part = 0, note = 0;
        if (read_row(d->lab, f, d->col, line_no, &part, &note, &r[0], &r[1], &r[2], err, cap) != 0)
            return -1;
        d->seen[part] |= (char)note;
    }
    return 0;
}

/* Whether the lines text[0..len) hold line (with its newline) whole. */
static int has_line(const char *text, size_t len, const char *line, size_t l)
{
    for (size_t at = 0; at + l <= len;) {
        if (!memcmp(text + at, line, l))
            return 1;
        const char *e = memchr(text + at, '\n', len - at);
        if (!e)
            return 0;
        at = (size_t)(e - text) + 1;
    }
    return 0;
}

/* The lines before the header as they are, then the formulas' lines of
   the rows that those lack, then the line saying where the columns came
   from. */
static void write_head(const derivation *d, FILE *out, const char *by, const char *date)
{
    fwrite(d->text, 1, d->header_at, out);
    for (int k = 0; k < d->lab->nparts; k++) {
        char notes[2048] = "";
        size_t nl = 0;
        pl_alg_notes(d->lab->parts[k], d->seen[k], notes, sizeof notes, &nl);
        for (const char *c = notes; *c;) {
            const char *e = strchr(c, '\n') + 1;
            if (!has_line(d->text, d->header_at, c, (size_t)(e - c)))
                fwrite(c, 1, (size_t)(e - c), out);
            c = e;
        }
    }
    fprintf(out,
            "# derived: alg_bytes and pct_alg added %s by %s, from each row's own time_ms, copy_gbps, n and "
            "param and its part's formula (the alg_ lines); the rows were not measured again\n",
            date, by);
}

/* The header and every line after it, each data row with its two fields. */
static void write_rows(const derivation *d, FILE *out)
{
    const char *s = d->text;
    size_t l = 0, at = d->header_at, r = 0;
    int nl = 0;
    next_line(d->text, d->len, &at, &s, &l, &nl);
    fprintf(out, "%.*s\t%s%s", (int)l, s, PL_TSV_ALG_COLUMNS, nl ? "\n" : "");
    while (next_line(d->text, d->len, &at, &s, &l, &nl)) {
        fwrite(s, 1, l, out);
        if (l && s[0] != '#') {
            fputc('\t', out);
            pl_tsv_alg(out, d->v[3 * r], d->v[3 * r + 1], d->v[3 * r + 2]);
            r++;
        }
        if (nl)
            fputc('\n', out);
    }
}

int pl_alg_derive(const pl_lab *lab, const char *text, size_t len, const char *by, const char *date, FILE *out,
                  char *err, size_t cap)
{
    derivation d = {.lab = lab, .text = text, .len = len};
    int rc = read_header(&d, err, cap) == 0 && read_rows(&d, err, cap) == 0 ? 0 : -1;
    if (rc == 0) { /* every row read: nothing is written before */
        write_head(&d, out, by, date);
        write_rows(&d, out);
    }
    free(d.v);
    free(d.seen);
    return rc;
}
