/* harness/parent/mtx.c: the Matrix Market reader; mtx.h states the rules.
 *
 * One pass over the lines checks the banner and the size line, then reads
 * each entry into a growing array of (row, col, value), checking it as it
 * goes. At the end of the file: the count, the empty-row limit, a sort by
 * (row, col) that puts duplicates side by side, and the CSR built by
 * counting, mirrored entries included. Every word is copied into a small
 * NUL-terminated buffer before strtol or strtod sees it, because the input
 * is not NUL-terminated (the fuzzer hands over raw bytes). */
#define _POSIX_C_SOURCE 200809L
#include "mtx.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(sizeof(long) >= 8, "the reader counts entries and places (up to 2^62) in long");

enum field { FIELD_REAL, FIELD_INTEGER, FIELD_PATTERN };
enum symmetry { SYM_GENERAL, SYM_SYMMETRIC, SYM_SKEW };
static const char *const SYM_NAME[] = {"general", "symmetric", "skew-symmetric"};
static const char *const FIELD_NAME[] = {"real", "integer", "pattern"};

#define INT_VALUE_MAX (1L << 53) /* integers beyond are not all exact in a double */
#define QUOTE_MAX 40             /* bytes of a word quoted in a message */

typedef struct {
    int r, c; /* 0-based */
    double v;
} entry;

typedef struct {
    const char *p;
    size_t n;
} word;

/* The input, the start of the next line, the number of the line last
   returned (0 before the first), and where messages go. */
typedef struct {
    const char *end, *next;
    long line;
    const char *name;
    char *err;
    size_t cap;
} scan;

/* ------------------------------------------------------------ messages */

/* Writes "name:line: message" (line 0: "name: message") to s->err, every
   control character replaced so that it stays one line; returns -1. */
__attribute__((format(printf, 3, 4))) static int fail(const scan *s, long line, const char *fmt, ...)
{
    if (!s->err || s->cap == 0)
        return -1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(s->err, s->cap, "%s:%ld: %s", s->name, line, msg);
    else
        snprintf(s->err, s->cap, "%s: %s", s->name, msg);
    for (char *q = s->err; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    return -1;
}

/* w for a message: its first QUOTE_MAX bytes, NULs shown as '?', "..." when cut. */
static const char *quote(word w, char buf[QUOTE_MAX + 4])
{
    size_t n = w.n > QUOTE_MAX ? QUOTE_MAX : w.n;
    for (size_t i = 0; i < n; i++)
        buf[i] = w.p[i] ? w.p[i] : '?';
    strcpy(buf + n, w.n > QUOTE_MAX ? "..." : "");
    return buf;
}

/* --------------------------------------------------------- lines, words */

/* The next line as [*p, *p + *n), without its "\n" or "\r\n"; 0 at the end. */
static int next_line(scan *s, const char **p, size_t *n)
{
    if (s->next >= s->end)
        return 0;
    const char *b = s->next, *nl = memchr(b, '\n', (size_t)(s->end - b));
    const char *e = nl ? nl : s->end;
    s->next = nl ? nl + 1 : s->end;
    if (e > b && e[-1] == '\r')
        e--;
    s->line++;
    *p = b;
    *n = (size_t)(e - b);
    return 1;
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }
static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Splits a line at blanks: keeps the first max words in w, returns how
   many there are in all. */
static long split(const char *p, size_t n, word *w, int max)
{
    const char *e = p + n;
    long k = 0;
    for (;;) {
        while (p < e && is_blank(*p))
            p++;
        if (p == e)
            return k;
        const char *b = p;
        while (p < e && !is_blank(*p))
            p++;
        if (k < max)
            w[k] = (word){b, (size_t)(p - b)};
        k++;
    }
}

/* A line with no words, or whose first word starts with '%'. */
static int skippable(long k, const word *w) { return k == 0 || w[0].p[0] == '%'; }

/* The banner's keywords are case-insensitive: w equals lower-case s. */
static int word_is(word w, const char *s)
{
    size_t n = strlen(s);
    if (w.n != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = w.p[i];
        if ((ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch) != s[i])
            return 0;
    }
    return 1;
}

/* -------------------------------------------------------------- numbers */

enum { NUM_OK, NUM_BAD, NUM_LONG, NUM_RANGE, NUM_NONFINITE };

/* The word as a C string in buf (PL_MTX_MAX_WORD + 1 bytes), or NUM_LONG. */
static int word_cstr(word w, char *buf)
{
    if (w.n > PL_MTX_MAX_WORD)
        return NUM_LONG;
    memcpy(buf, w.p, w.n);
    buf[w.n] = '\0';
    return NUM_OK;
}

/* An optional sign and decimal digits, nothing else; NUM_RANGE past long. */
static int parse_long(word w, long *out)
{
    char buf[PL_MTX_MAX_WORD + 1];
    if (word_cstr(w, buf) != NUM_OK)
        return NUM_LONG;
    size_t i = buf[0] == '+' || buf[0] == '-';
    if (i == w.n)
        return NUM_BAD;
    for (; i < w.n; i++)
        if (!is_digit(buf[i]))
            return NUM_BAD;
    errno = 0;
    long v = strtol(buf, NULL, 10);
    if (errno == ERANGE)
        return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

/* A decimal number as strtod reads it, whole; hex floats are NUM_BAD,
   NaN and Inf NUM_NONFINITE, overflow NUM_RANGE (underflow reads as the
   nearest double). */
static int parse_double(word w, double *out)
{
    char buf[PL_MTX_MAX_WORD + 1];
    if (word_cstr(w, buf) != NUM_OK)
        return NUM_LONG;
    /* strtod skips leading white space (\v, \f, \r are not our blanks)
       and reads hex: the word must start like a decimal number, NaN or Inf. */
    const char *d = buf + (buf[0] == '+' || buf[0] == '-');
    if (!(is_digit(*d) || *d == '.' || *d == 'n' || *d == 'N' || *d == 'i' || *d == 'I'))
        return NUM_BAD;
    for (size_t i = 0; i < w.n; i++)
        if (buf[i] == 'x' || buf[i] == 'X' || buf[i] == '\0')
            return NUM_BAD;
    errno = 0;
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + w.n)
        return NUM_BAD;
    if (!isfinite(v))
        return errno == ERANGE ? NUM_RANGE : NUM_NONFINITE;
    *out = v;
    return NUM_OK;
}

/* A size on the size line: an integer in 0..max. */
static int read_count(const scan *s, word w, const char *what, long max, const char *why, long *out)
{
    char q[QUOTE_MAX + 4];
    int r = parse_long(w, out);
    if (r == NUM_LONG)
        return fail(s, s->line, "%s '%s' is too long for a number (over %d characters)", what, quote(w, q),
                    PL_MTX_MAX_WORD);
    if (r == NUM_BAD)
        return fail(s, s->line, "%s '%s' is not an integer", what, quote(w, q));
    if (w.p[0] == '-' && (r == NUM_RANGE || *out < 0))
        return fail(s, s->line, "%s '%s' is negative", what, quote(w, q));
    if (r == NUM_RANGE || *out > max)
        return fail(s, s->line, "%s '%s' is more than the reader's limit %ld%s", what, quote(w, q), max, why);
    return 0;
}

/* A 1-based index in 1..max, returned 1-based. */
static int read_index(const scan *s, word w, const char *what, long max, long *out)
{
    char q[QUOTE_MAX + 4];
    int r = parse_long(w, out);
    if (r == NUM_LONG)
        return fail(s, s->line, "%s '%s' is too long for a number (over %d characters)", what, quote(w, q),
                    PL_MTX_MAX_WORD);
    if (r == NUM_BAD)
        return fail(s, s->line, "%s '%s' is not an integer", what, quote(w, q));
    if (r == NUM_RANGE || *out < 1 || *out > max)
        return fail(s, s->line, "%s '%s' is out of range 1..%ld", what, quote(w, q), max);
    return 0;
}

static int read_value(const scan *s, word w, enum field field, double *v)
{
    char q[QUOTE_MAX + 4];
    if (w.n > PL_MTX_MAX_WORD)
        return fail(s, s->line, "value '%s' is too long for a number (over %d characters)", quote(w, q),
                    PL_MTX_MAX_WORD);
    if (field == FIELD_INTEGER) {
        long x = 0;
        int r = parse_long(w, &x);
        if (r == NUM_BAD)
            return fail(s, s->line, "value '%s' is not an integer (the file's field is integer)", quote(w, q));
        if (r == NUM_RANGE || x < -INT_VALUE_MAX || x > INT_VALUE_MAX)
            return fail(s, s->line, "value '%s' is out of range: integer values lie within -2^53..2^53, exact in a double",
                        quote(w, q));
        *v = (double)x;
        return 0;
    }
    switch (parse_double(w, v)) {
    case NUM_OK:
        return 0;
    case NUM_NONFINITE:
        return fail(s, s->line, "value '%s' is not finite: NaN and Inf are refused", quote(w, q));
    case NUM_RANGE:
        return fail(s, s->line, "value '%s' is out of the range of double", quote(w, q));
    default:
        return fail(s, s->line, "value '%s' is not a decimal number", quote(w, q));
    }
}

/* --------------------------------------------------------------- header */

typedef struct {
    enum field field;
    enum symmetry sym;
    long rows, cols, entries;
    long size_line;         /* its number */
    const char *data;       /* where the line after it starts */
} header;

static int read_banner(scan *s, header *h)
{
    const char *p;
    size_t n;
    word w[5];
    char q[QUOTE_MAX + 4];
    if (!next_line(s, &p, &n))
        return fail(s, 1, "empty file: a Matrix Market file starts with %%%%MatrixMarket");
    long k = split(p, n, w, 5);
    if (k == 0 || w[0].p != p || !word_is(w[0], "%%matrixmarket"))
        return fail(s, 1, "not a Matrix Market file: line 1 does not start with %%%%MatrixMarket");
    if (k != 5)
        return fail(s, 1, "the banner has %ld words after %%%%MatrixMarket, expected 4: matrix coordinate FIELD SYMMETRY",
                    k - 1);
    if (!word_is(w[1], "matrix"))
        return fail(s, 1, "object '%s' is not supported: only 'matrix'", quote(w[1], q));
    if (!word_is(w[2], "coordinate"))
        return fail(s, 1, "format '%s' is not supported: only 'coordinate' (sparse)", quote(w[2], q));
    if (word_is(w[3], "real") || word_is(w[3], "double"))
        h->field = FIELD_REAL;
    else if (word_is(w[3], "integer"))
        h->field = FIELD_INTEGER;
    else if (word_is(w[3], "pattern"))
        h->field = FIELD_PATTERN;
    else
        return fail(s, 1, "field '%s' is not supported: only real, integer and pattern", quote(w[3], q));
    if (word_is(w[4], "general"))
        h->sym = SYM_GENERAL;
    else if (word_is(w[4], "symmetric"))
        h->sym = SYM_SYMMETRIC;
    else if (word_is(w[4], "skew-symmetric"))
        h->sym = SYM_SKEW;
    else
        return fail(s, 1, "symmetry '%s' is not supported: only general, symmetric and skew-symmetric", quote(w[4], q));
    if (h->field == FIELD_PATTERN && h->sym == SYM_SKEW)
        return fail(s, 1, "a pattern matrix cannot be skew-symmetric: its entries have no sign to flip");
    return 0;
}

/* The size line: the first line after the banner that is neither blank
   nor a comment. Refuses a header that lies about what can fit. */
static int read_size(scan *s, header *h)
{
    const char *p;
    size_t n;
    word w[3];
    long k;
    do {
        if (!next_line(s, &p, &n))
            return fail(s, s->line + 1, "truncated: the file ends before its size line");
        k = split(p, n, w, 3);
    } while (skippable(k, w));
    h->size_line = s->line;
    h->data = s->next;
    if (k != 3)
        return fail(s, s->line, "the size line must be 3 integers (rows, columns, entries), it has %ld words", k);
    if (read_count(s, w[0], "the row count", PL_MTX_MAX_DIM, " (indices are int)", &h->rows) ||
        read_count(s, w[1], "the column count", PL_MTX_MAX_DIM, " (indices are int)", &h->cols) ||
        read_count(s, w[2], "the entry count", PL_MTX_MAX_NNZ, "", &h->entries))
        return -1;
    if (h->sym != SYM_GENERAL && h->rows != h->cols)
        return fail(s, s->line, "a %s matrix must be square, the size line says %ld x %ld", SYM_NAME[h->sym], h->rows,
                    h->cols);
    /* rows, cols <= 2^31 - 1: the products fit in a long */
    long places = h->sym == SYM_GENERAL     ? h->rows * h->cols
                  : h->sym == SYM_SYMMETRIC ? h->rows * (h->rows + 1) / 2
                                            : h->rows * (h->rows - 1) / 2;
    if (h->entries > places)
        return fail(s, s->line, "%ld entries cannot fit in a %ld x %ld %s matrix: it has places for %ld", h->entries,
                    h->rows, h->cols, SYM_NAME[h->sym], places);
    return 0;
}

/* --------------------------------------------------------------- entries */

/* One entry line of k words, checked against the header. */
static int read_entry(const scan *s, const header *h, const word *w, long k, entry *e)
{
    char q[QUOTE_MAX + 4];
    long i, j;
    double v = 1.0;
    if (read_index(s, w[0], "row index", h->rows, &i))
        return -1;
    if (k < 2)
        return fail(s, s->line, "the entry has no column index");
    if (read_index(s, w[1], "column index", h->cols, &j))
        return -1;
    if (h->sym == SYM_SYMMETRIC && i < j)
        return fail(s, s->line, "entry (%ld, %ld) is above the diagonal: a symmetric file stores only the entries on and below it",
                    i, j);
    if (h->sym == SYM_SKEW && i <= j)
        return fail(s, s->line, "entry (%ld, %ld) is %s the diagonal: a skew-symmetric file stores only the entries below it", i,
                    j, i == j ? "on" : "above");
    int words = h->field == FIELD_PATTERN ? 2 : 3;
    if (h->field != FIELD_PATTERN) {
        if (k < 3)
            return fail(s, s->line, "entry (%ld, %ld) has no value", i, j);
        if (read_value(s, w[2], h->field, &v))
            return -1;
    }
    if (k > words)
        return fail(s, s->line, "trailing '%s' after the entry", quote(w[words], q));
    *e = (entry){(int)(i - 1), (int)(j - 1), v};
    return 0;
}

static int by_row_col(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    return (x->c > y->c) - (x->c < y->c);
}

/* The first two lines holding entry (i, j), 1-based, for the duplicate's
   message: a second scan of the entries, all of them valid by now. */
static void entry_lines(const scan *s0, const header *h, long i, long j, long line[2])
{
    scan s = *s0;
    s.next = h->data;
    s.line = h->size_line;
    const char *p;
    size_t n;
    int found = 0;
    line[0] = line[1] = 0;
    while (found < 2 && next_line(&s, &p, &n)) {
        word w[2];
        long k = split(p, n, w, 2), a = 0, b = 0;
        if (skippable(k, w) || k < 2 || parse_long(w[0], &a) || parse_long(w[1], &b))
            continue;
        if (a == i && b == j)
            line[found++] = s.line;
    }
}

/* ------------------------------------------------------------------ CSR */

/* The CSR of n sorted entries, mirrored ones added for symmetric files.
   Row x receives its stored entries (x, c <= x) when the loop reaches
   row x, in increasing c, and its mirrored ones (from (r > x, x)) later,
   in increasing r > x: each row comes out sorted without a second sort. */
static int build_csr(const entry *e, long n, long nnz, const header *h, pl_csr *m)
{
    m->row_ptr = calloc((size_t)h->rows + 1, sizeof *m->row_ptr);
    m->col = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->val);
    if (!m->row_ptr || !m->col || !m->val)
        return -1;
    int mirror = h->sym != SYM_GENERAL;
    double sign = h->sym == SYM_SKEW ? -1.0 : 1.0;
    long *next = m->row_ptr; /* next[r]: where row r's next entry goes */
    for (long t = 0; t < n; t++) {
        m->row_ptr[e[t].r + 1]++;
        if (mirror && e[t].r != e[t].c)
            m->row_ptr[e[t].c + 1]++;
    }
    for (long r = 0; r < h->rows; r++)
        m->row_ptr[r + 1] += m->row_ptr[r];
    for (long t = 0; t < n; t++) {
        long a = next[e[t].r]++;
        m->col[a] = e[t].c;
        m->val[a] = e[t].v;
        if (mirror && e[t].r != e[t].c) {
            long b = next[e[t].c]++;
            m->col[b] = e[t].r;
            m->val[b] = sign * e[t].v;
        }
    }
    /* each next[r] now holds the end of row r: shift back to the starts */
    for (long r = h->rows; r > 0; r--)
        m->row_ptr[r] = m->row_ptr[r - 1];
    m->row_ptr[0] = 0;
    m->rows = h->rows;
    m->cols = h->cols;
    m->nnz = nnz;
    m->stored = n;
    snprintf(m->field, sizeof m->field, "%s", FIELD_NAME[h->field]);
    snprintf(m->symmetry, sizeof m->symmetry, "%s", SYM_NAME[h->sym]);
    return 0;
}

/* ------------------------------------------------------------------ API */

static int parse(scan *s, pl_csr *m)
{
    header h;
    if (read_banner(s, &h) || read_size(s, &h))
        return -1;

    /* The entries, in an array that grows as they are read (never from
       the size line alone), up to the declared count. */
    entry *e = NULL;
    long n = 0, cap = 0, nnz = 0;
    int rc = -1;
    const char *p;
    size_t len;
    while (next_line(s, &p, &len)) {
        word w[4];
        long k = split(p, len, w, 4);
        if (skippable(k, w))
            continue;
        if (n == h.entries) {
            fail(s, s->line, "more entries than the size line says (%ld)", h.entries);
            goto out;
        }
        entry x;
        if (read_entry(s, &h, w, k, &x))
            goto out;
        if (n == cap) {
            long grown = cap ? (cap > h.entries / 2 ? h.entries : 2 * cap) : (h.entries < 1024 ? h.entries : 1024);
            entry *bigger = realloc(e, (size_t)grown * sizeof *e);
            if (!bigger) {
                fail(s, s->line, "out of memory after %ld entries", n);
                goto out;
            }
            e = bigger;
            cap = grown;
        }
        e[n++] = x;
        nnz += h.sym != SYM_GENERAL && x.r != x.c ? 2 : 1;
        if (nnz > PL_MTX_MAX_NNZ) {
            fail(s, s->line, "the expanded matrix has more than the reader's limit of %ld entries", PL_MTX_MAX_NNZ);
            goto out;
        }
    }
    if (n < h.entries) {
        fail(s, s->line + 1, "truncated: the size line says %ld entries, the file has %ld", h.entries, n);
        goto out;
    }
    if (h.rows - nnz > PL_MTX_MAX_EMPTY_ROWS) {
        fail(s, h.size_line, "%ld rows: at least %ld would be empty, more than the reader's limit of %ld", h.rows,
             h.rows - nnz, PL_MTX_MAX_EMPTY_ROWS);
        goto out;
    }
    if (n > 1)
        qsort(e, (size_t)n, sizeof *e, by_row_col);
    for (long t = 1; t < n; t++)
        if (e[t].r == e[t - 1].r && e[t].c == e[t - 1].c) {
            long line[2];
            entry_lines(s, &h, e[t].r + 1L, e[t].c + 1L, line);
            fail(s, line[1], "duplicate entry (%ld, %ld): also on line %ld", e[t].r + 1L, e[t].c + 1L, line[0]);
            goto out;
        }
    if (build_csr(e, n, nnz, &h, m)) {
        pl_csr_free(m);
        fail(s, 0, "out of memory for a %ld x %ld matrix of %ld entries", h.rows, h.cols, nnz);
        goto out;
    }
    rc = 0;
out:
    free(e);
    return rc;
}

int pl_mtx_parse(const char *text, size_t len, const char *name, pl_csr *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    if (err && cap)
        err[0] = '\0';
    if (!text) /* NULL + 0 is undefined: read it as "" */
        text = "", len = 0;
    scan s = {.end = text + len, .next = text, .name = name ? name : "<memory>", .err = err, .cap = cap};
    return parse(&s, m);
}

int pl_mtx_read(const char *path, pl_csr *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    scan s = {.name = path, .err = err, .cap = cap};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(&s, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(&s, 0, "cannot read: %s", strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return fail(&s, 0, "cannot read: it is a directory");
    }
    if (S_ISREG(st.st_mode) && st.st_size > PL_MTX_MAX_FILE_BYTES) {
        close(fd);
        return fail(&s, 0, "%lld bytes: more than the reader's limit of %ld", (long long)st.st_size,
                    PL_MTX_MAX_FILE_BYTES);
    }
    /* The whole file in memory: its size from fstat (+1 to see the end
       without growing), or growing as bytes arrive (a pipe). */
    size_t want = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, len = 0;
    char *buf = malloc(want);
    int rc = -1;
    if (!buf) {
        fail(&s, 0, "out of memory for a file of %zu bytes", want - 1);
        goto out;
    }
    for (;;) {
        if (len == want) {
            if (want > (size_t)PL_MTX_MAX_FILE_BYTES) {
                fail(&s, 0, "more than the reader's limit of %ld bytes", PL_MTX_MAX_FILE_BYTES);
                goto out;
            }
            size_t grown = 2 * want > (size_t)PL_MTX_MAX_FILE_BYTES ? (size_t)PL_MTX_MAX_FILE_BYTES + 1 : 2 * want;
            char *bigger = realloc(buf, grown);
            if (!bigger) {
                fail(&s, 0, "out of memory after %zu bytes", len);
                goto out;
            }
            buf = bigger;
            want = grown;
        }
        ssize_t got = read(fd, buf + len, want - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            fail(&s, 0, "cannot read: %s", strerror(errno));
            goto out;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    rc = pl_mtx_parse(buf, len, path, m, err, cap);
out:
    free(buf);
    close(fd);
    return rc;
}

void pl_csr_free(pl_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- check */

int pl_mtx_error(char *err, size_t cap, const char *fmt, ...)
{
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
        for (char *q = err; *q; q++)
            if ((unsigned char)*q < 0x20)
                *q = '?';
    }
    return -1;
}

long pl_csr_find(const pl_csr *m, long r, long c)
{
    long lo = m->row_ptr[r], hi = m->row_ptr[r + 1];
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (m->col[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->row_ptr[r + 1] && m->col[lo] == c ? lo : -1;
}

int pl_csr_check(const pl_csr *m, char *err, size_t cap)
{
    int sym = !strcmp(m->symmetry, "symmetric") ? SYM_SYMMETRIC : !strcmp(m->symmetry, "skew-symmetric") ? SYM_SKEW : -1;
    int field = !strcmp(m->field, "real") ? FIELD_REAL : !strcmp(m->field, "integer") ? FIELD_INTEGER
                : !strcmp(m->field, "pattern")                                         ? FIELD_PATTERN
                                                                                       : -1;
    if (sym < 0 && strcmp(m->symmetry, "general"))
        return pl_mtx_error(err, cap, "unknown symmetry '%.15s'", m->symmetry);
    if (field < 0)
        return pl_mtx_error(err, cap, "unknown field '%.7s'", m->field);
    if (m->rows < 0 || m->cols < 0 || m->rows > PL_MTX_MAX_DIM || m->cols > PL_MTX_MAX_DIM || m->nnz < 0 ||
        m->nnz > PL_MTX_MAX_NNZ)
        return pl_mtx_error(err, cap, "sizes out of range: %ld x %ld, nnz %ld", m->rows, m->cols, m->nnz);
    if (sym >= 0 && m->rows != m->cols)
        return pl_mtx_error(err, cap, "a %s matrix of %ld x %ld", m->symmetry, m->rows, m->cols);
    if (!m->row_ptr || (m->nnz > 0 && (!m->col || !m->val)))
        return pl_mtx_error(err, cap, "missing arrays");
    if (m->row_ptr[0] != 0 || m->row_ptr[m->rows] != m->nnz)
        return pl_mtx_error(err, cap, "row_ptr runs from %ld to %ld, expected 0 to nnz = %ld", m->row_ptr[0], m->row_ptr[m->rows],
                   m->nnz);
    for (long r = 0; r < m->rows; r++)
        if (m->row_ptr[r + 1] < m->row_ptr[r])
            return pl_mtx_error(err, cap, "row_ptr decreases at row %ld", r);
    for (long r = 0; r < m->rows; r++)
        for (long t = m->row_ptr[r]; t < m->row_ptr[r + 1]; t++) {
            long c = m->col[t];
            double v = m->val[t];
            if (c < 0 || c >= m->cols)
                return pl_mtx_error(err, cap, "row %ld: column %ld out of range 0..%ld", r, c, m->cols - 1);
            if (t > m->row_ptr[r] && c <= m->col[t - 1])
                return pl_mtx_error(err, cap, "row %ld: columns %d then %ld, not increasing", r, m->col[t - 1], c);
            if (!isfinite(v))
                return pl_mtx_error(err, cap, "row %ld, column %ld: value not finite", r, c);
            if ((field == FIELD_INTEGER && (v != floor(v) || fabs(v) > (double)INT_VALUE_MAX)) ||
                (field == FIELD_PATTERN && v != 1.0))
                return pl_mtx_error(err, cap, "row %ld, column %ld: value %g in a %s matrix", r, c, v, m->field);
        }
    if (sym < 0)
        return 0;
    for (long r = 0; r < m->rows; r++)
        for (long t = m->row_ptr[r]; t < m->row_ptr[r + 1]; t++) {
            long c = m->col[t], u = pl_csr_find(m, c, r);
            if (sym == SYM_SKEW && c == r)
                return pl_mtx_error(err, cap, "skew-symmetric with a diagonal entry at row %ld", r);
            if (u < 0)
                return pl_mtx_error(err, cap, "(%ld, %ld) has no mirror (%ld, %ld)", r, c, c, r);
            if (m->val[u] != (sym == SYM_SKEW ? -m->val[t] : m->val[t]))
                return pl_mtx_error(err, cap, "(%ld, %ld) = %g but (%ld, %ld) = %g", r, c, m->val[t], c, r, m->val[u]);
        }
    return 0;
}
