/* harness/parent/mtx.c: the Matrix Market reader; mtx.h states the rules.
 *
 * The input is a stream of bytes, a regular file read through a buffer or
 * text in memory, taken one line at a time into its first words
 * (next_line). The banner is checked from the first bytes; the size line
 * against the reader's limits, the caller's and the memory budget; then
 * each entry is checked and kept in a growing array of (row, col, value).
 * At the end of the file: the count, the empty-row limit, a sort by
 * (row, col) that puts duplicates side by side, and the CSR built by
 * counting, mirrored entries included. A word is kept NUL-terminated (its
 * first KEEP bytes) before strtol or strtod sees it, because the input is
 * not NUL-terminated (the fuzzer hands over raw bytes). */
#define _DEFAULT_SOURCE
#include "mtx.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
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

#define INT_VALUE_MAX (1L << 53)      /* integers beyond are not all exact in a double */
#define QUOTE_MAX 40                  /* bytes of a word quoted in a message */
#define QUOTED (4 * QUOTE_MAX + 8)    /* a quoted word, every byte escaped, and "..." */
#ifndef PL_MTX_BUF_BYTES                /* a file is read through this much (make fuzz: less) */
#define PL_MTX_BUF_BYTES 65536
#endif
#define MAX_WORDS 5                   /* the banner's: %%MatrixMarket and four */
#define KEEP (PL_MTX_MAX_WORD + 1)    /* bytes kept of a word: one more than a number may have */

typedef struct {
    int r, c; /* 0-based */
    double v;
} entry;

typedef struct {
    char b[KEEP + 1]; /* its first min(n, KEEP) bytes, then a NUL */
    size_t n;         /* its length (once over PL_MTX_MAX_WORD, the line's scan stops) */
} word;

/* A line's first MAX_WORDS words, of k. cut: the scan stopped at word
   k - 1, longer than any valid word; the line has k words or more. */
typedef struct {
    word w[MAX_WORDS];
    long k;
    int cut;
} line;

/* The input: a file (fd, read through buf) or memory (base), the bytes
   [p, end) read but not taken yet, end's offset pos, the input's size; the
   number of the line last returned (0 before the first); where messages go.
   failed: a message is written, and later ones do not replace it. */
typedef struct {
    int fd;
    char *buf;
    const char *base, *p, *end;
    long long pos, size;
    long line;
    int failed;
    const char *name;
    char *err;
    size_t cap;
    const pl_mtx_limits *lim;
} scan;

/* ------------------------------------------------------------ messages */

/* src[0..n) into dst, NUL-terminated, as much as fits in cap: control
   characters as \xNN, and with ascii set also bytes above 0x7e, and '\\'
   doubled, so that what is escaped reads back unambiguously. */
static char *escape(char *dst, size_t cap, const char *src, size_t n, int ascii)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)src[i];
        int hex = ch < 0x20 || ch == 0x7f || (ascii && ch > 0x7e), twice = ascii && ch == '\\';
        if (o + (hex ? 4 : twice ? 2 : 1) >= cap)
            break;
        if (hex)
            o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", ch);
        else if (twice)
            dst[o++] = '\\', dst[o++] = '\\';
        else
            dst[o++] = (char)ch;
    }
    if (cap)
        dst[o] = '\0';
    return dst;
}

/* Writes "name:line: message" (line 0: "name: message") to s->err, unless a
   message is there already; returns -1. */
__attribute__((format(printf, 3, 4))) static int fail(scan *s, long line, const char *fmt, ...)
{
    if (s->failed || !s->err || s->cap == 0) {
        s->failed = 1;
        return -1;
    }
    s->failed = 1;
    char msg[1024], name[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    escape(name, sizeof name, s->name, strlen(s->name), 0);
    if (line > 0)
        snprintf(s->err, s->cap, "%s:%ld: %s", name, line, msg);
    else
        snprintf(s->err, s->cap, "%s: %s", name, msg);
    return -1;
}

/* w for a message: its first QUOTE_MAX bytes escaped, "..." when cut. */
static const char *quote(const word *w, char q[QUOTED])
{
    size_t n = w->n > QUOTE_MAX ? QUOTE_MAX : w->n;
    escape(q, QUOTED - 4, w->b, n, 1);
    if (w->n > QUOTE_MAX)
        strcat(q, "...");
    return q;
}

/* Why a word with a no-break space in it is not a number: it looks like
   two numbers once printed. */
static const char *nbsp(const word *w)
{
    size_t n = w->n < KEEP ? w->n : KEEP;
    for (size_t i = 0; i + 1 < n; i++)
        if ((unsigned char)w->b[i] == 0xc2 && (unsigned char)w->b[i + 1] == 0xa0)
            return " (\\xc2\\xa0 is a no-break space: only spaces and tabs separate words)";
    return "";
}

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* b bytes as "12.3 MiB". */
static const char *human(double b, char buf[32])
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4)
        b /= 1024, u++;
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

/* ---------------------------------------------------------------- bytes */

/* The next buffer of the file; 0 at its end or after a read error (the
   error reported). */
static int refill(scan *s)
{
    if (s->fd < 0 || s->failed)
        return 0;
    for (;;) {
        ssize_t got = read(s->fd, s->buf, PL_MTX_BUF_BYTES);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail(s, s->line, "cannot read: %s", strerror(errno)), 0;
        s->p = s->buf, s->end = s->buf + got, s->pos += got;
        if (s->pos > PL_MTX_MAX_FILE_BYTES)
            return fail(s, s->line, "more than the reader's limit of %ld bytes", PL_MTX_MAX_FILE_BYTES), 0;
        return got > 0;
    }
}

/* The next byte (peek: left in place), or -1 at the end of the input. */
static inline int peek(scan *s) { return s->p < s->end || refill(s) ? (unsigned char)*s->p : -1; }
static inline int take(scan *s) { return s->p < s->end || refill(s) ? (unsigned char)*s->p++ : -1; }

/* Where the next byte is in the input. */
static long long taken(const scan *s) { return s->pos - (long long)(s->end - s->p); }

/* Back to offset off, the start of line number line + 1. */
static int seek(scan *s, long long off, long line)
{
    if (s->fd >= 0) {
        if (lseek(s->fd, (off_t)off, SEEK_SET) != (off_t)off)
            return -1;
        s->p = s->end = s->buf, s->pos = off;
    } else {
        s->p = s->base + off;
    }
    s->line = line;
    return 0;
}

/* --------------------------------------------------------------- lines */

static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }
static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Past the end of the current line. */
static void skip_line(scan *s)
{
    while (s->p < s->end || refill(s)) {
        const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
        if (nl) {
            s->p = nl + 1;
            return;
        }
        s->p = s->end;
    }
}

/* The rest of the line's words into ln, until its end (LF, CRLF, or the
   input's end; a CR there too) or a word too long to be valid (ln->cut).
   -1: a CR alone, refused. */
static int read_words(scan *s, line *ln)
{
    word spare, *w = NULL; /* the word being read; spare past MAX_WORDS */
    for (;;) {
        int ch = take(s);
        if (ch < 0 || ch == '\n')
            return 0;
        if (ch == '\r') {
            int next = peek(s);
            if (next == '\n')
                s->p++;
            if (next == '\n' || next < 0)
                return 0;
            return fail(s, s->line, "a carriage return (\\r) not followed by a line feed: lines end in LF or CRLF, "
                                    "not CR alone");
        }
        if (is_blank(ch)) {
            w = NULL;
            continue;
        }
        if (!w) {
            w = ln->k < MAX_WORDS ? &ln->w[ln->k] : &spare;
            w->n = 0;
            ln->k++;
        }
        if (w->n < KEEP)
            w->b[w->n] = (char)ch, w->b[w->n + 1] = '\0';
        if (++w->n > PL_MTX_MAX_WORD) {
            ln->cut = 1;
            return 0;
        }
    }
}

/* The next line into ln: 1, 0 at the end of the input, -1 refused. A
   comment (first non-blank '%') is skipped whole and has no words, like a
   blank line. */
static int next_line(scan *s, line *ln)
{
    if (peek(s) < 0)
        return s->failed ? -1 : 0;
    s->line++;
    ln->k = 0, ln->cut = 0;
    int ch;
    while ((ch = peek(s)) >= 0 && is_blank(ch))
        s->p++;
    if (ch == '%') {
        skip_line(s);
        return 1;
    }
    return read_words(s, ln) ? -1 : 1;
}

/* The banner's keywords are case-insensitive: w equals lower-case s. */
static int word_is(const word *w, const char *s)
{
    size_t n = strlen(s);
    if (w->n != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = w->b[i];
        if ((ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch) != s[i])
            return 0;
    }
    return 1;
}

/* -------------------------------------------------------------- numbers */

enum { NUM_OK, NUM_BAD, NUM_LONG, NUM_RANGE, NUM_NONFINITE };

/* An optional sign and decimal digits, nothing else; NUM_RANGE past long. */
static int parse_long(const word *w, long *out)
{
    if (w->n > PL_MTX_MAX_WORD)
        return NUM_LONG;
    const char *b = w->b;
    size_t i = b[0] == '+' || b[0] == '-';
    if (i == w->n)
        return NUM_BAD;
    for (; i < w->n; i++)
        if (!is_digit(b[i]))
            return NUM_BAD;
    errno = 0;
    long v = strtol(b, NULL, 10);
    if (errno == ERANGE)
        return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

/* A decimal number as strtod reads it, whole; hex floats are NUM_BAD,
   NaN and Inf NUM_NONFINITE, overflow NUM_RANGE (underflow reads as the
   nearest double). */
static int parse_double(const word *w, double *out)
{
    if (w->n > PL_MTX_MAX_WORD)
        return NUM_LONG;
    const char *b = w->b;
    /* strtod skips leading white space (\v, \f, \r are not our blanks)
       and reads hex: the word must start like a decimal number, NaN or Inf. */
    const char *d = b + (b[0] == '+' || b[0] == '-');
    if (!(is_digit(*d) || *d == '.' || *d == 'n' || *d == 'N' || *d == 'i' || *d == 'I'))
        return NUM_BAD;
    for (size_t i = 0; i < w->n; i++)
        if (b[i] == 'x' || b[i] == 'X' || b[i] == '\0')
            return NUM_BAD;
    errno = 0;
    char *end;
    double v = strtod(b, &end);
    if (end != b + w->n)
        return NUM_BAD;
    if (!isfinite(v))
        return errno == ERANGE ? NUM_RANGE : NUM_NONFINITE;
    *out = v;
    return NUM_OK;
}

/* A size on the size line: an integer in 0..max. */
static int read_count(scan *s, const word *w, const char *what, long max, const char *why, long *out)
{
    char q[QUOTED];
    int r = parse_long(w, out);
    if (r == NUM_LONG)
        return fail(s, s->line, "%s '%s' is too long for a number (over %d characters)", what, quote(w, q),
                    PL_MTX_MAX_WORD);
    if (r == NUM_BAD)
        return fail(s, s->line, "%s '%s' is not an integer%s", what, quote(w, q), nbsp(w));
    if (w->b[0] == '-' && (r == NUM_RANGE || *out < 0))
        return fail(s, s->line, "%s '%s' is negative", what, quote(w, q));
    if (r == NUM_RANGE || *out > max)
        return fail(s, s->line, "%s '%s' is more than the reader's limit %ld%s", what, quote(w, q), max, why);
    return 0;
}

/* A 1-based index in 1..max, returned 1-based. */
static int read_index(scan *s, const word *w, const char *what, long max, long *out)
{
    char q[QUOTED];
    int r = parse_long(w, out);
    if (r == NUM_LONG)
        return fail(s, s->line, "%s '%s' is too long for a number (over %d characters)", what, quote(w, q),
                    PL_MTX_MAX_WORD);
    if (r == NUM_BAD)
        return fail(s, s->line, "%s '%s' is not an integer%s", what, quote(w, q), nbsp(w));
    if (r == NUM_RANGE || *out < 1 || *out > max)
        return fail(s, s->line, "%s '%s' is out of range 1..%ld", what, quote(w, q), max);
    return 0;
}

static int read_value(scan *s, const word *w, enum field field, double *v)
{
    char q[QUOTED];
    if (w->n > PL_MTX_MAX_WORD)
        return fail(s, s->line, "value '%s' is too long for a number (over %d characters)", quote(w, q),
                    PL_MTX_MAX_WORD);
    if (field == FIELD_INTEGER) {
        long x = 0;
        int r = parse_long(w, &x);
        if (r == NUM_BAD)
            return fail(s, s->line, "value '%s' is not an integer (the file's field is integer)%s", quote(w, q), nbsp(w));
        if (r == NUM_RANGE || x < -INT_VALUE_MAX || x > INT_VALUE_MAX)
            return fail(s, s->line, "value '%s' is out of range: integer values lie within -2^53..2^53, exact in a double",
                        quote(w, q));
        *v = (double)x;
        return 0;
    }
    switch (parse_double(w, v)) {
    case NUM_OK:
        break;
    case NUM_NONFINITE:
        return fail(s, s->line, "value '%s' is not finite: NaN and Inf are refused", quote(w, q));
    case NUM_RANGE:
        return fail(s, s->line, "value '%s' is out of the range of double", quote(w, q));
    default:
        return fail(s, s->line, "value '%s' is not a decimal number%s", quote(w, q), nbsp(w));
    }
    if (s->lim && s->lim->float_why && isinf((float)*v))
        return fail(s, s->line, "value '%s' is beyond the range of float (largest %.6g): %s", quote(w, q), FLT_MAX,
                    s->lim->float_why);
    return 0;
}

/* --------------------------------------------------------------- header */

typedef struct {
    enum field field;
    enum symmetry sym;
    long rows, cols, entries;
    long size_line;        /* its number */
    long long data;        /* where the line after it starts */
} header;

/* Line 1: %%MatrixMarket from the first bytes (a file that is not Matrix
   Market is refused having read one buffer), then its four words. */
static int read_banner(scan *s, header *h)
{
    static const char mm[] = "%%matrixmarket";
    char head[sizeof mm - 1], q[QUOTED];
    size_t n = 0;
    int ch;
    if (peek(s) < 0)
        return s->failed ? -1 : fail(s, 0, "empty file: a Matrix Market file starts with %%%%MatrixMarket");
    s->line = 1;
    while (n < sizeof head && (ch = take(s)) >= 0)
        head[n++] = (char)ch;
    const unsigned char *u = (const unsigned char *)head;
    if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
        return fail(s, 1, "line 1 starts with a UTF-8 byte-order mark (\\xef\\xbb\\xbf) before %%%%MatrixMarket: "
                          "save the file without it");
    if (n >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff)))
        return fail(s, 1, "line 1 starts with a UTF-16 byte-order mark (\\x%02x\\x%02x): a Matrix Market file is "
                          "ASCII text", u[0], u[1]);
    int same = n == sizeof head;
    for (size_t i = 0; i < n && same; i++)
        same = (head[i] >= 'A' && head[i] <= 'Z' ? head[i] - 'A' + 'a' : head[i]) == mm[i];
    ch = peek(s);
    if (!same || !(ch < 0 || is_blank(ch) || ch == '\n' || ch == '\r'))
        return s->failed ? -1 : fail(s, 1, "not a Matrix Market file: line 1 does not start with %%%%MatrixMarket");

    line ln = {.k = 1};
    if (read_words(s, &ln))
        return -1;
    const word *w = ln.w;
    if (ln.k != MAX_WORDS && !(ln.cut && ln.k < MAX_WORDS))
        return fail(s, 1, "the banner has %s%ld word%s after %%%%MatrixMarket, expected 4: matrix coordinate FIELD "
                          "SYMMETRY", ln.cut ? "at least " : "", ln.k - 1, plural(ln.k - 1));
    if (ln.k < 2 || !word_is(&w[1], "matrix"))
        return fail(s, 1, "object '%s' is not supported: only 'matrix'", quote(&w[1], q));
    if (ln.k < 3 || !word_is(&w[2], "coordinate"))
        return fail(s, 1, "format '%s' is not supported: only 'coordinate' (sparse)", quote(&w[2], q));
    if (ln.k < 4)
        return fail(s, 1, "field '%s' is not supported: only real, integer and pattern", quote(&w[3], q));
    if (word_is(&w[3], "real") || word_is(&w[3], "double"))
        h->field = FIELD_REAL;
    else if (word_is(&w[3], "integer"))
        h->field = FIELD_INTEGER;
    else if (word_is(&w[3], "pattern"))
        h->field = FIELD_PATTERN;
    else
        return fail(s, 1, "field '%s' is not supported: only real, integer and pattern", quote(&w[3], q));
    if (ln.k < 5 || ln.cut)
        return fail(s, 1, "symmetry '%s' is not supported: only general, symmetric and skew-symmetric", quote(&w[4], q));
    if (word_is(&w[4], "general"))
        h->sym = SYM_GENERAL;
    else if (word_is(&w[4], "symmetric"))
        h->sym = SYM_SYMMETRIC;
    else if (word_is(&w[4], "skew-symmetric"))
        h->sym = SYM_SKEW;
    else
        return fail(s, 1, "symmetry '%s' is not supported: only general, symmetric and skew-symmetric", quote(&w[4], q));
    if (h->field == FIELD_PATTERN && h->sym == SYM_SKEW)
        return fail(s, 1, "a pattern matrix cannot be skew-symmetric: its entries have no sign to flip");
    return 0;
}

/* The machine's physical memory in bytes, or 0 when unknown (no budget). */
static double machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0;
}

/* The peak memory of reading and using a valid file with this header
   (mtx.h, "Memory budget"): the entries and their sort; the entries and
   the CSR; the CSR and what the caller makes of it. */
static double peak_bytes(const header *h, const pl_mtx_limits *lim)
{
    double e = (double)h->entries, nnz = h->sym == SYM_GENERAL ? e : 2 * e;
    double rows = (double)h->rows, cols = (double)h->cols;
    int own = lim && (lim->row_bytes > 0 || lim->col_bytes > 0 || lim->nnz_bytes > 0);
    double caller = own ? lim->row_bytes * rows + lim->col_bytes * cols + lim->nnz_bytes * nnz : 8 * rows + 8 * cols;
    double entries = 16 * e, csr = 8 * (rows + 1) + 12 * nnz;
    double peak = 2 * entries;
    peak = entries + csr > peak ? entries + csr : peak;
    return csr + caller > peak ? csr + caller : peak;
}

/* At most PL_MTX_MAX_EMPTY_ROWS rows and PL_MTX_MAX_EMPTY_COLS columns
   beyond the nnz entries of the expanded matrix (mtx.h), named at the
   size line. */
static int check_empty(scan *s, const header *h, long nnz)
{
    if (h->rows - nnz > PL_MTX_MAX_EMPTY_ROWS)
        return fail(s, h->size_line, "%ld rows: at least %ld would be empty, more than the reader's limit of %ld",
                    h->rows, h->rows - nnz, PL_MTX_MAX_EMPTY_ROWS);
    if (h->cols - nnz > PL_MTX_MAX_EMPTY_COLS)
        return fail(s, h->size_line, "%ld columns: at least %ld would be empty, more than the reader's limit of %ld",
                    h->cols, h->cols - nnz, PL_MTX_MAX_EMPTY_COLS);
    return 0;
}

/* What the size line says, against the caller's limits, the empty rows
   and columns it allows, and the memory budget: all before anything is
   allocated. */
static int check_header(scan *s, const header *h)
{
    const pl_mtx_limits *lim = s->lim;
    const char *who = lim && lim->who ? lim->who : "the caller";
    long line = h->size_line;
    if (lim && lim->max_rows > 0 && h->rows > lim->max_rows)
        return fail(s, line, "%ld rows, more than %s allows (%ld)", h->rows, who, lim->max_rows);
    if (lim && lim->max_cols > 0 && h->cols > lim->max_cols)
        return fail(s, line, "%ld columns, more than %s allows (%ld)", h->cols, who, lim->max_cols);
    if (lim && lim->max_nnz > 0 && h->entries > lim->max_nnz)
        return fail(s, line, "%ld entries, more than %s allows (%ld)", h->entries, who, lim->max_nnz);
    /* the most entries the expanded matrix can have: the fewest empty
       rows and columns */
    if (check_empty(s, h, h->sym == SYM_GENERAL ? h->entries : 2 * h->entries))
        return -1;

    /* An entry line takes at least 2 bytes a word, its LF included (the
       last line may have none): a file too short for its count is sure to
       be refused as truncated, having read no more entries than it holds. */
    long long left = s->size - taken(s), per = h->field == FIELD_PATTERN ? 4 : 6;
    long long fit = (left + 1) / per;
    double budget = lim && lim->budget > 0 ? lim->budget : machine_memory();
    double need = fit < h->entries ? 16.0 * (double)fit : peak_bytes(h, lim);
    char a[32], b[32];
    if (budget <= 0 || need <= budget)
        return 0;
    if (fit < h->entries)
        return fail(s, line, "truncated: the size line says %ld entries, the %lld bytes after it hold at most %lld",
                    h->entries, left, fit);
    return fail(s, line, "a %ld x %ld matrix of %ld entr%s needs about %s of memory to read and use, more than %s %s",
                h->rows, h->cols, h->entries, h->entries == 1 ? "y" : "ies", human(need, a),
                lim && lim->budget > 0 ? "the budget of" : "this machine's", human(budget, b));
}

/* The size line: the first line after the banner that is neither blank
   nor a comment. Refuses a header that lies about what can fit. */
static int read_size(scan *s, header *h)
{
    line ln;
    int r;
    while ((r = next_line(s, &ln)) > 0 && ln.k == 0)
        ;
    if (r < 0)
        return -1;
    if (r == 0)
        return fail(s, s->line, "truncated: the file ends before its size line");
    h->size_line = s->line;
    h->data = taken(s);
    if (ln.k != 3 && !(ln.cut && ln.k < 3))
        return fail(s, s->line, "the size line must be 3 integers (rows, columns, entries), it has %s%ld word%s",
                    ln.cut ? "at least " : "", ln.k, plural(ln.k));
    if (read_count(s, &ln.w[0], "the row count", PL_MTX_MAX_DIM, " (indices are int)", &h->rows) ||
        read_count(s, &ln.w[1], "the column count", PL_MTX_MAX_DIM, " (indices are int)", &h->cols) ||
        read_count(s, &ln.w[2], "the entry count", PL_MTX_MAX_NNZ, "", &h->entries))
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
    return check_header(s, h);
}

/* --------------------------------------------------------------- entries */

/* One entry line, checked against the header. When the line was cut, its
   last word kept is too long to be valid, and is refused in turn. */
static int read_entry(scan *s, const header *h, const line *ln, entry *e)
{
    char q[QUOTED];
    const word *w = ln->w;
    long i, j;
    double v = 1.0;
    if (read_index(s, &w[0], "row index", h->rows, &i))
        return -1;
    if (ln->k < 2)
        return fail(s, s->line, "the entry has no column index");
    if (read_index(s, &w[1], "column index", h->cols, &j))
        return -1;
    if (h->sym == SYM_SYMMETRIC && i < j)
        return fail(s, s->line, "entry (%ld, %ld) is above the diagonal: a symmetric file stores only the entries on and below it",
                    i, j);
    if (h->sym == SYM_SKEW && i <= j)
        return fail(s, s->line, "entry (%ld, %ld) is %s the diagonal: a skew-symmetric file stores only the entries below it", i,
                    j, i == j ? "on" : "above");
    int words = h->field == FIELD_PATTERN ? 2 : 3;
    if (h->field != FIELD_PATTERN) {
        if (ln->k < 3)
            return fail(s, s->line, "entry (%ld, %ld) has no value", i, j);
        if (read_value(s, &w[2], h->field, &v))
            return -1;
    }
    if (ln->k > words)
        return fail(s, s->line, "trailing '%s' after the entry%s", quote(&w[words], q), nbsp(&w[words]));
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
   message: a second read of the entries, all of them valid by now; 0s if
   the input cannot be read again. */
static void entry_lines(scan *s, const header *h, long i, long j, long found[2])
{
    line ln;
    int n = 0;
    found[0] = found[1] = 0;
    if (seek(s, h->data, h->size_line))
        return;
    while (n < 2 && next_line(s, &ln) > 0) {
        long a = 0, b = 0;
        if (ln.k >= 2 && !parse_long(&ln.w[0], &a) && !parse_long(&ln.w[1], &b) && a == i && b == j)
            found[n++] = s->line;
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
    const pl_mtx_limits *lim = s->lim;
    long max_nnz = lim && lim->max_nnz > 0 && lim->max_nnz < PL_MTX_MAX_NNZ ? lim->max_nnz : PL_MTX_MAX_NNZ;

    /* The entries, in an array that grows as they are read (never from
       the size line alone), up to the declared count. */
    entry *e = NULL;
    long n = 0, cap = 0, nnz = 0;
    int rc = -1, r;
    line ln;
    while ((r = next_line(s, &ln)) > 0) {
        if (ln.k == 0)
            continue;
        if (n == h.entries) {
            fail(s, s->line, "more entries than the size line says (%ld)", h.entries);
            goto out;
        }
        entry x;
        if (read_entry(s, &h, &ln, &x))
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
        if (nnz > max_nnz) {
            if (max_nnz < PL_MTX_MAX_NNZ)
                fail(s, s->line, "the expanded matrix has more than the %ld entries %s allows", max_nnz,
                     lim->who ? lim->who : "the caller");
            else
                fail(s, s->line, "the expanded matrix has more than the reader's limit of %ld entries", PL_MTX_MAX_NNZ);
            goto out;
        }
    }
    if (r < 0 || s->failed)
        goto out;
    if (n < h.entries) {
        fail(s, s->line, "truncated: the size line says %ld entries, the file has %ld", h.entries, n);
        goto out;
    }
    if (check_empty(s, &h, nnz))
        goto out;
    if (n > 1)
        qsort(e, (size_t)n, sizeof *e, by_row_col);
    for (long t = 1; t < n; t++)
        if (e[t].r == e[t - 1].r && e[t].c == e[t - 1].c) {
            long at[2];
            entry_lines(s, &h, e[t].r + 1L, e[t].c + 1L, at);
            if (at[1])
                fail(s, at[1], "duplicate entry (%ld, %ld): also on line %ld", e[t].r + 1L, e[t].c + 1L, at[0]);
            else
                fail(s, 0, "duplicate entry (%ld, %ld)", e[t].r + 1L, e[t].c + 1L);
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

int pl_mtx_parse_within(const char *text, size_t len, const char *name, const pl_mtx_limits *lim, pl_csr *m,
                        char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    if (err && cap)
        err[0] = '\0';
    if (!text) /* NULL + 0 is undefined: read it as "" */
        text = "", len = 0;
    scan s = {.fd = -1, .base = text, .p = text, .end = text + len, .pos = (long long)len, .size = (long long)len,
              .name = name ? name : "<memory>", .err = err, .cap = cap, .lim = lim};
    return parse(&s, m);
}

int pl_mtx_parse(const char *text, size_t len, const char *name, pl_csr *m, char *err, size_t cap)
{
    return pl_mtx_parse_within(text, len, name, NULL, m, err, cap);
}

/* What a file that is not a regular one is, for its message. */
static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO (named pipe)"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "a special file";
}

int pl_mtx_read_within(const char *path, const pl_mtx_limits *lim, pl_csr *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    if (err && cap)
        err[0] = '\0';
    scan s = {.fd = -1, .name = path, .err = err, .cap = cap, .lim = lim};
    /* The type first, from the path (a FIFO's open would wait for a
       writer), then of what was opened, without blocking, in case the
       path changed in between. */
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(&s, 0, "cannot open: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(&s, 0, "%s, not a regular file", kind_of(st.st_mode));
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fail(&s, 0, "cannot open: %s", strerror(errno));
    int rc = -1;
    if (fstat(fd, &st) != 0)
        fail(&s, 0, "cannot read: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        fail(&s, 0, "%s, not a regular file", kind_of(st.st_mode));
    else if (st.st_size > PL_MTX_MAX_FILE_BYTES)
        fail(&s, 0, "%lld bytes: more than the reader's limit of %ld", (long long)st.st_size, PL_MTX_MAX_FILE_BYTES);
    else if (!(s.buf = malloc(PL_MTX_BUF_BYTES)))
        fail(&s, 0, "out of memory for a buffer of %d bytes", PL_MTX_BUF_BYTES);
    else {
        s.fd = fd, s.p = s.end = s.buf, s.size = (long long)st.st_size;
        rc = parse(&s, m);
    }
    free(s.buf);
    close(fd);
    return rc;
}

int pl_mtx_read(const char *path, pl_csr *m, char *err, size_t cap)
{
    return pl_mtx_read_within(path, NULL, m, err, cap);
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
        char msg[1024];
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        escape(err, cap, msg, strlen(msg), 0);
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
