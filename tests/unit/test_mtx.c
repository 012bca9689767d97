/* tests/unit/test_mtx.c: Check tests of the Matrix Market reader
 * (harness/parent/mtx.c), run from the repository's root by `make test`
 * and, under ASan and UBSan, by `make test-sanitize`:
 *
 *   - every valid file of tests/fixtures/mtx (listed in tests/fixtures/mtx/valid.tsv) reads
 *     as the CSR written there, from the file and from memory alike;
 *   - every malformed one (tests/fixtures/mtx/errors.tsv) is refused with exactly
 *     its line, "tests/fixtures/mtx/FILE:LINE: message" ("tests/fixtures/mtx/FILE: message"
 *     for a file with no line to name), from the file and from memory;
 *   - the real SuiteSparse matrices in PRIMLAB_MATRICES (default
 *     ../shared/matrices) read with the shapes and counts of the README
 *     there, and as the same matrix as a naive sscanf reader makes of them
 *     (SKIP when the folder is absent);
 *   - limits: tiny files claiming huge sizes refused fast in a child with
 *     little memory, megabyte lines, input that is not NUL-terminated,
 *     every prefix of a file, small error buffers, the CLI;
 *   - the stream: a pipe, a FIFO, /dev/zero, a socket and a directory
 *     refused at once without blocking; a 3 GiB file (sparse) refused
 *     having read one buffer of it; lines across the read buffer's edges
 *     read as from memory;
 *   - a caller's limits (pl_mtx_limits): its sizes, float's range and the
 *     memory budget, each refused at its line, and never changing a
 *     matrix that they let through.
 */
#define _GNU_SOURCE
#include "../../harness/parent/mtx.h"
#include "../lib/check_main.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "under_asan.h"

#define MTX_DIR "tests/fixtures/mtx"
#define ERR_CAP 1024

/* ---------------------------------------------------------------- files */

/* The whole file, or NULL; *len its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* A TSV's rows with at least `cols` fields ('#' lines skipped), each row's
   fields as NUL-terminated strings in one allocation. */
typedef struct {
    char **field; /* rows x cols */
    int rows, cols;
} table;

static int read_table(const char *path, int cols, table *t)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return -1;
    text = realloc(text, len + 1);
    text[len] = '\0';
    t->rows = 0;
    t->cols = cols;
    t->field = NULL;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == '\0')
            continue;
        t->field = realloc(t->field, (size_t)(t->rows + 1) * cols * sizeof *t->field);
        char **row = t->field + (size_t)t->rows * cols;
        for (int c = 0; c < cols; c++) {
            row[c] = line;
            char *tab = c + 1 < cols ? strchr(line, '\t') : NULL;
            if (c + 1 < cols && !tab)
                return -1;
            if (tab)
                *tab = '\0', line = tab + 1;
        }
        t->rows++;
    }
    return 0; /* text stays allocated: the fields point into it */
}

static table valid, errors;

/* ------------------------------------------------------------ the valid */

/* The entries written as "i j v; i j v" against the CSR, in order. */
static void assert_entries(const pl_csr *m, const char *want, const char *file)
{
    long t = 0;
    if (strcmp(want, "-")) {
        const char *p = want;
        for (;;) {
            char *end;
            long i = strtol(p, &end, 10), j = strtol(end, &end, 10);
            double v = strtod(end, &end);
            ck_assert_msg(t < m->nnz, "%s: more entries expected than the %ld read", file, m->nnz);
            ck_assert_msg(m->row_ptr[i - 1] <= t && t < m->row_ptr[i], "%s: entry %ld is not in row %ld", file, t, i);
            ck_assert_msg(m->col[t] == j - 1 && m->val[t] == v, "%s: entry %ld is (%ld, %d) = %g, expected (%ld, %ld) = %g",
                          file, t, i, m->col[t] + 1, m->val[t], i, j, v);
            t++;
            p = strchr(end, ';');
            if (!p)
                break;
            p++;
        }
    }
    ck_assert_msg(t == m->nnz, "%s: %ld entries read, %ld expected", file, m->nnz, t);
}

static void assert_same_csr(const pl_csr *a, const pl_csr *b)
{
    ck_assert(a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz && a->stored == b->stored);
    ck_assert_str_eq(a->field, b->field);
    ck_assert_str_eq(a->symmetry, b->symmetry);
    ck_assert(!memcmp(a->row_ptr, b->row_ptr, (size_t)(a->rows + 1) * sizeof *a->row_ptr));
    ck_assert(a->nnz == 0 || !memcmp(a->col, b->col, (size_t)a->nnz * sizeof *a->col));
    ck_assert(a->nnz == 0 || !memcmp(a->val, b->val, (size_t)a->nnz * sizeof *a->val));
}

START_TEST(valid_file_reads_as_written)
{
    char **row = valid.field + (size_t)_i * valid.cols, path[512], err[ERR_CAP];
    snprintf(path, sizeof path, MTX_DIR "/%s", row[0]);
    pl_csr m, mem;
    ck_assert_msg(pl_mtx_read(path, &m, err, sizeof err) == 0, "%s refused: %s", path, err);
    ck_assert_int_eq(m.rows, atol(row[1]));
    ck_assert_int_eq(m.cols, atol(row[2]));
    ck_assert_int_eq(m.stored, atol(row[3]));
    ck_assert_str_eq(m.field, row[4]);
    ck_assert_str_eq(m.symmetry, row[5]);
    assert_entries(&m, row[6], path);
    ck_assert_msg(pl_csr_check(&m, err, sizeof err) == 0, "%s: %s", path, err);

    size_t len;
    char *text = slurp(path, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(pl_mtx_parse(text, len, path, &mem, err, sizeof err), 0);
    assert_same_csr(&m, &mem);
    free(text);
    pl_csr_free(&mem);
    pl_csr_free(&m);
}
END_TEST

/* -------------------------------------------------------- the malformed */

START_TEST(malformed_file_refused_with_its_line)
{
    char **row = errors.field + (size_t)_i * errors.cols, path[512], want[ERR_CAP], err[ERR_CAP], err2[ERR_CAP];
    snprintf(path, sizeof path, MTX_DIR "/%s", row[0]);
    if (strcmp(row[1], "-"))
        snprintf(want, sizeof want, "%s:%s: %s", path, row[1], row[2]);
    else
        snprintf(want, sizeof want, "%s: %s", path, row[2]);
    pl_csr m, zero;
    memset(&zero, 0, sizeof zero);
    memset(&m, 0x5a, sizeof m);
    ck_assert_int_eq(pl_mtx_read(path, &m, err, sizeof err), -1);
    ck_assert_str_eq(err, want);
    ck_assert_msg(!memcmp(&m, &zero, sizeof m), "%s: the pl_csr is not zeroed after a refusal", path);

    size_t len;
    char *text = slurp(path, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(pl_mtx_parse(text, len, path, &m, err2, sizeof err2), -1);
    ck_assert_str_eq(err2, want);
    free(text);
    pl_csr_free(&m); /* harmless on a zeroed one */
}
END_TEST

static int listed(const table *t, const char *name)
{
    for (int r = 0; r < t->rows; r++)
        if (!strcmp(t->field[(size_t)r * t->cols], name))
            return 1;
    return 0;
}

/* No file goes untested, and no test names a file that is not there. */
START_TEST(every_file_is_listed_once)
{
    DIR *d = opendir(MTX_DIR);
    ck_assert_ptr_nonnull(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".mtx"))
            continue;
        files++;
        ck_assert_msg(listed(&valid, e->d_name) + listed(&errors, e->d_name) == 1,
                      MTX_DIR "/%s is in neither or both of valid.tsv and errors.tsv", e->d_name);
    }
    closedir(d);
    ck_assert_int_eq(files, valid.rows + errors.rows);
}
END_TEST

/* ------------------------------------------------------ real matrices */

static const char *matrices_dir(void)
{
    const char *d = getenv("PRIMLAB_MATRICES");
    return d && *d ? d : "../shared/matrices";
}

/* The README's table: | file | collection name | R x C | stored | flavour | */
typedef struct {
    char file[64], flavour[96];
    long rows, cols, stored;
} real_matrix;

static real_matrix reals[64];
static int nreals = -1; /* -1: the folder or its README is absent */

static void read_readme(void)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/README.md", matrices_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    nreals = 0;
    while (fgets(line, sizeof line, f) && nreals < 64) {
        real_matrix *r = &reals[nreals];
        char name[128];
        if (sscanf(line, "| %63[^ |] | %127[^|]| %ld x %ld | %ld | %95[^|]|", r->file, name, &r->rows, &r->cols,
                   &r->stored, r->flavour) == 6 &&
            strstr(r->file, ".mtx"))
            nreals++;
    }
    fclose(f);
}

typedef struct {
    long r, c;
    double v;
} triple;

static int by_rc(const void *a, const void *b)
{
    const triple *x = a, *y = b;
    return x->r != y->r ? (x->r > y->r) - (x->r < y->r) : (x->c > y->c) - (x->c < y->c);
}

/* A naive reader, sharing no code with the real one: sscanf line by line,
   mirrored entries added, sorted. Returns the count; *diag the diagonal
   entries stored. */
static long naive_read(const char *path, triple **out, long *diag)
{
    FILE *f = fopen(path, "r");
    char line[4096], field[32] = "", sym[32] = "";
    long rows = 0, cols = 0, stored = -1, n = 0;
    triple *t = NULL;
    *diag = 0;
    ck_assert_ptr_nonnull(f);
    ck_assert(fgets(line, sizeof line, f));
    ck_assert_int_eq(sscanf(line, "%%%%MatrixMarket matrix coordinate %31s %31s", field, sym), 2);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '%')
            continue;
        if (stored < 0) {
            ck_assert_int_eq(sscanf(line, "%ld %ld %ld", &rows, &cols, &stored), 3);
            t = malloc((size_t)(2 * stored + 1) * sizeof *t);
            continue;
        }
        long i, j;
        double v = 1.0;
        ck_assert_int_ge(sscanf(line, "%ld %ld %lf", &i, &j, &v), 2);
        t[n++] = (triple){i - 1, j - 1, v};
        if (i == j)
            ++*diag;
        else if (strcmp(sym, "general"))
            t[n++] = (triple){j - 1, i - 1, strcmp(sym, "skew-symmetric") ? v : -v};
    }
    fclose(f);
    qsort(t, (size_t)n, sizeof *t, by_rc);
    *out = t;
    return n;
}

START_TEST(real_matrix_matches_readme_and_naive_reader)
{
    if (nreals < 0) {
        printf("SKIP: real matrices: %s/README.md is absent (set PRIMLAB_MATRICES); not counted as passed\n",
               matrices_dir());
        return;
    }
    ck_assert_msg(nreals > 0, "%s/README.md has no table of matrices", matrices_dir());
    const real_matrix *r = &reals[_i];
    char path[512], err[ERR_CAP], field[32], sym[32];
    snprintf(path, sizeof path, "%s/%s", matrices_dir(), r->file);
    pl_csr m;
    ck_assert_msg(pl_mtx_read(path, &m, err, sizeof err) == 0, "%s refused: %s", path, err);
    ck_assert_msg(m.rows == r->rows && m.cols == r->cols && m.stored == r->stored,
                  "%s: %ld x %ld with %ld stored, the README says %ld x %ld with %ld", path, m.rows, m.cols, m.stored,
                  r->rows, r->cols, r->stored);
    ck_assert_int_eq(sscanf(r->flavour, "%31s %31[a-z-]", field, sym), 2);
    ck_assert_str_eq(m.field, field);
    ck_assert_str_eq(m.symmetry, sym);
    if (strstr(r->flavour, "rectangular"))
        ck_assert(m.rows != m.cols);
    ck_assert_msg(pl_csr_check(&m, err, sizeof err) == 0, "%s: %s", path, err);

    triple *t;
    long diag, n = naive_read(path, &t, &diag);
    long expanded = strcmp(sym, "general") ? 2 * r->stored - diag : r->stored;
    ck_assert_int_eq(n, expanded);
    ck_assert_int_eq(m.nnz, expanded);
    for (long row = 0, k = 0; row < m.rows; row++)
        for (long a = m.row_ptr[row]; a < m.row_ptr[row + 1]; a++, k++)
            ck_assert_msg(t[k].r == row && t[k].c == m.col[a] && t[k].v == m.val[a],
                          "%s: entry %ld is (%ld, %d) = %g, the naive reader has (%ld, %ld) = %g", path, k, row,
                          m.col[a], m.val[a], t[k].r, t[k].c, t[k].v);
    free(t);
    pl_csr_free(&m);
}
END_TEST

/* Every .mtx of the folder is in its README, so none goes untested. */
START_TEST(real_matrices_all_in_readme)
{
    if (nreals < 0)
        return; /* the SKIP line is printed once, by the test above */
    DIR *d = opendir(matrices_dir());
    ck_assert_ptr_nonnull(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".mtx"))
            continue;
        int found = 0;
        for (int i = 0; i < nreals; i++)
            found += !strcmp(reals[i].file, e->d_name);
        ck_assert_msg(found == 1, "%s/%s is not in its README's table", matrices_dir(), e->d_name);
        files++;
    }
    closedir(d);
    ck_assert_int_eq(files, nreals);
    ck_assert_int_ge(nreals, 9);
}
END_TEST

/* --------------------------------------------------------------- limits */

#define BANNER "%%MatrixMarket matrix coordinate real general\n"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Tiny files claiming huge sizes, read in a child whose address space is
   capped at 256 MiB (not under ASan, whose shadow memory needs terabytes
   of it): each refused with its own message (an allocation the header
   asked for would fail there, and say "out of memory"), in well under a
   second, with its peak RSS grown by less than 16 MiB. */
START_TEST(huge_header_refused_without_allocating)
{
    static const struct {
        const char *text, *err;
    } files[] = {
        {BANNER "2147483647 2147483647 2147483647\n1 1 1.0\n",
         "huge.mtx:3: truncated: the size line says 2147483647 entries, the file has 1"},
        {BANNER "2147483647 2147483647 2147483647\n",
         "huge.mtx:2: truncated: the size line says 2147483647 entries, the file has 0"},
        {BANNER "1000000000000 1 1\n1 1 1\n",
         "huge.mtx:2: the row count '1000000000000' is more than the reader's limit 2147483647 (indices are int)"},
        {BANNER "2147483647 1 0\n",
         "huge.mtx:2: 2147483647 rows: at least 2147483647 would be empty, more than the reader's limit of 16777216"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2147483647 2147483647 2147483647\n2 1 1\n",
         "huge.mtx:3: truncated: the size line says 2147483647 entries, the file has 1"},
        {BANNER "2147483647 2147483647 2147483647\n1 1 1\n2 2 2\n3 3 3\n4 4 4\n5 5 5\n6 6 6\n7 7 7\n8 8 8\n",
         "huge.mtx:10: truncated: the size line says 2147483647 entries, the file has 8"},
        {BANNER "1 2147483647 1\n1 2147483647 1.0\n",
         "huge.mtx:2: 2147483647 columns: at least 2147483646 would be empty, more than the reader's limit of 16777216"},
        {BANNER "2147483647 2147483647 99999999999999999999\n",
         "huge.mtx:2: the entry count '99999999999999999999' is more than the reader's limit 2147483647"},
    };
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (!UNDER_ASAN) {
            struct rlimit lim = {256L << 20, 256L << 20};
            if (setrlimit(RLIMIT_AS, &lim) != 0)
                _exit(10);
        }
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        double t0 = now();
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            pl_csr m;
            char err[ERR_CAP];
            if (pl_mtx_parse(files[i].text, strlen(files[i].text), "huge.mtx", &m, err, sizeof err) != -1)
                _exit(20 + (int)i);
            if (strcmp(err, files[i].err)) {
                fprintf(stderr, "got '%s'\n", err);
                _exit(30 + (int)i);
            }
        }
        getrusage(RUSAGE_SELF, &after);
        if (now() - t0 > 1.0)
            _exit(41);
        if (after.ru_maxrss - before.ru_maxrss > 16 * 1024) /* KiB */
            _exit(42);
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status), "the child died of signal %d", WTERMSIG(status));
    ck_assert_msg(WEXITSTATUS(status) == 0,
                  "child status %d (10: setrlimit, 2x: file x read, 3x: file x's message, 41: slow, 42: memory)",
                  WEXITSTATUS(status));
}
END_TEST

/* "prefix" + n copies of ch + "suffix", in a buffer of exactly that size. */
static char *padded(const char *prefix, size_t n, char ch, const char *suffix, size_t *len)
{
    size_t a = strlen(prefix), c = strlen(suffix);
    *len = a + n + c;
    char *s = malloc(*len);
    memcpy(s, prefix, a);
    memset(s + a, ch, n);
    memcpy(s + a + n, suffix, c);
    return s;
}

START_TEST(megabyte_lines)
{
    const size_t MB = 1 << 20;
    size_t len;
    pl_csr m;
    char err[ERR_CAP];
    /* a comment line and the blanks of an entry line: read */
    char *s = padded(BANNER "%", MB, 'c', "\n1 1 1\n1 1 2.5\n", &len);
    ck_assert_msg(pl_mtx_parse(s, len, "c.mtx", &m, err, sizeof err) == 0, "%s", err);
    ck_assert(m.nnz == 1 && m.val[0] == 2.5);
    pl_csr_free(&m);
    free(s);
    s = padded(BANNER "1 1 1\n1", MB, ' ', "1 -3\n", &len);
    ck_assert_msg(pl_mtx_parse(s, len, "b.mtx", &m, err, sizeof err) == 0, "%s", err);
    ck_assert(m.nnz == 1 && m.val[0] == -3);
    pl_csr_free(&m);
    free(s);
    /* a megabyte word, a megabyte first line: refused, the message short */
    s = padded(BANNER "1 1 1\n1 1 ", MB, '7', "\n", &len);
    ck_assert_int_eq(pl_mtx_parse(s, len, "w.mtx", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "w.mtx:3: value '7777777777777777777777777777777777777777...' is too long for a number "
                          "(over 127 characters)");
    free(s);
    s = padded("", MB, 'x', "\n", &len);
    ck_assert_int_eq(pl_mtx_parse(s, len, "x.mtx", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "x.mtx:1: not a Matrix Market file: line 1 does not start with %%MatrixMarket");
    free(s);
}
END_TEST

/* The input ends where len says, whatever follows it in memory. */
START_TEST(input_is_not_nul_terminated)
{
    static const char text[] = BANNER "1 1 1\n1 1 15";
    pl_csr m;
    char err[ERR_CAP];
    size_t len = sizeof text - 2; /* "... 1 1 1" */
    char *exact = malloc(len);
    memcpy(exact, text, len);
    ck_assert_msg(pl_mtx_parse(exact, len, "t.mtx", &m, err, sizeof err) == 0, "%s", err);
    ck_assert(m.val[0] == 1.0);
    pl_csr_free(&m);
    free(exact);
    ck_assert_int_eq(pl_mtx_parse(NULL, 0, NULL, &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "<memory>: empty file: a Matrix Market file starts with %%MatrixMarket");
}
END_TEST

/* Every prefix of a valid file: read or refused with one line naming it. */
START_TEST(every_prefix_reads_or_is_refused)
{
    size_t len;
    char *text = slurp(MTX_DIR "/ok_general_rect.mtx", &len);
    ck_assert_ptr_nonnull(text);
    for (size_t n = 0; n <= len; n++) {
        char *part = malloc(n ? n : 1), err[ERR_CAP];
        memcpy(part, text, n);
        pl_csr m;
        if (pl_mtx_parse(part, n, "p.mtx", &m, err, sizeof err) == 0) {
            ck_assert_int_eq(pl_csr_check(&m, err, sizeof err), 0);
            pl_csr_free(&m);
        } else {
            ck_assert_msg(!strncmp(err, "p.mtx:", 6) && !strchr(err, '\n'), "prefix %zu: '%s'", n, err);
        }
        free(part);
    }
    free(text);
}
END_TEST

START_TEST(error_buffer_and_names)
{
    static const char bad[] = BANNER "2 2 1\n3 1 1\n";
    pl_csr m;
    char small[12];
    ck_assert_int_eq(pl_mtx_parse(bad, sizeof bad - 1, "name.mtx", &m, small, sizeof small), -1);
    ck_assert_str_eq(small, "name.mtx:3:");
    ck_assert_int_eq(pl_mtx_parse(bad, sizeof bad - 1, "name.mtx", &m, NULL, 0), -1);
    char err[ERR_CAP];
    ck_assert_int_eq(pl_mtx_parse(bad, sizeof bad - 1, "a\nb.mtx", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "a\\x0ab.mtx:3: row index '3' is out of range 1..2");
    ck_assert_int_eq(pl_mtx_read(MTX_DIR "/no-such-file.mtx", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, MTX_DIR "/no-such-file.mtx: cannot open: No such file or directory");
    ck_assert_int_eq(pl_mtx_read(MTX_DIR, &m, err, sizeof err), -1);
    ck_assert_str_eq(err, MTX_DIR ": a directory, not a regular file");
    pl_csr_free(&m);
    pl_csr_free(&m);
}
END_TEST

/* ---------------------------------------------------------- the stream */

static char tmpdir[64]; /* made by main, emptied and removed at the end */

/* tmpdir/name, in path. */
static const char *in_tmp(char *path, size_t cap, const char *name)
{
    snprintf(path, cap, "%s/%s", tmpdir, name);
    return path;
}

/* Bytes this process has read so far (rchar of /proc/self/io), or -1. */
static long long bytes_read(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    long long n = -1;
    char line[128];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %lld", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

/* Anything but a regular file is refused at once, in one line with no
   line number, before a byte is read: a FIFO with no writer, a pipe whose
   writer stays open (a read would wait for ever), /dev/zero (a read would
   never end), a socket, a directory. An alarm kills the test if one
   blocks. */
START_TEST(special_files_refused_at_once)
{
    char fifo[128], sock[100], pipe_path[64], want[ERR_CAP], err[ERR_CAP];
    ck_assert_int_eq(mkfifo(in_tmp(fifo, sizeof fifo, "fifo.mtx"), 0600), 0);
    int sfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", in_tmp(sock, sizeof sock, "sock.mtx"));
    ck_assert_int_eq(bind(sfd, (struct sockaddr *)&addr, sizeof addr), 0);
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    snprintf(pipe_path, sizeof pipe_path, "/dev/fd/%d", fd[0]);
    const struct {
        const char *path, *what;
    } files[] = {{fifo, "a FIFO (named pipe)"}, {pipe_path, "a FIFO (named pipe)"}, {"/dev/zero", "a character device"},
                 {sock, "a socket"}, {MTX_DIR, "a directory"}};
    alarm(10);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        pl_csr m;
        double t0 = now();
        ck_assert_int_eq(pl_mtx_read(files[i].path, &m, err, sizeof err), -1);
        ck_assert_msg(now() - t0 < 1.0, "%s: %.1f s", files[i].path, now() - t0);
        snprintf(want, sizeof want, "%s: %s, not a regular file", files[i].path, files[i].what);
        ck_assert_str_eq(err, want);
    }
    alarm(0);
    close(fd[0]), close(fd[1]), close(sfd);
    unlink(fifo), unlink(sock);
}
END_TEST

/* A 3 GiB file (sparse: the test writes a few bytes) costs one buffer of
   reading when its first bytes are not a banner, and when its second line
   is a word longer than any number: refused in well under a second, its
   peak RSS grown by less than 16 MiB, less than 1 MiB read. */
START_TEST(big_file_read_no_further_than_needed)
{
    static const struct {
        const char *head, *err;
    } files[] = {
        {"", ":1: not a Matrix Market file: line 1 does not start with %%MatrixMarket"},
        {BANNER, ":2: the row count '\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
                 "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
                 "\\x00\\x00...' is too long for a number (over 127 characters)"},
    };
    char path[128], err[ERR_CAP], want[ERR_CAP];
    in_tmp(path, sizeof path, "big.mtx");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        ck_assert_int_ge(fd, 0);
        size_t n = strlen(files[i].head);
        ck_assert_int_eq(write(fd, files[i].head, n), (ssize_t)n);
        if (ftruncate(fd, 3L << 30) != 0) {
            printf("SKIP: %s: no sparse 3 GiB file here (%s); not counted as passed\n", path, strerror(errno));
            close(fd);
            break;
        }
        close(fd);
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        long long b0 = bytes_read();
        double t0 = now();
        pl_csr m;
        ck_assert_int_eq(pl_mtx_read(path, &m, err, sizeof err), -1);
        double t = now() - t0;
        long long got = bytes_read() - b0;
        getrusage(RUSAGE_SELF, &after);
        snprintf(want, sizeof want, "%s%s", path, files[i].err);
        ck_assert_str_eq(err, want);
        ck_assert_msg(t < 1.0, "%.2f s", t);
        ck_assert_msg(b0 < 0 || got < (1 << 20), "%lld bytes read", got);
        ck_assert_msg(after.ru_maxrss - before.ru_maxrss < 16 * 1024, "%ld KiB more", after.ru_maxrss - before.ru_maxrss);
    }
    unlink(path);
}
END_TEST

/* The same bytes from a file (through the read buffer) and from memory
   give the same matrix or the same line, wherever a line, a CRLF or a
   long word falls on the buffer's edge: a comment line shifts the entries
   across every offset around 64 KiB. */
START_TEST(buffer_edges_read_as_from_memory)
{
    static const char *const tails[] = {
        "2 3 3\r\n1 1 1.5\r\n\r\n2 3 -2\r\n1 3 4e-3\r\n",
        "2 3 2\r\n1 1 1.5\r\n2 3\r-2\r\n",
        "2 3 1\n1 1 1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
        "12345678901234567890123456789012345678901234567890\n",
    };
    char path[128];
    in_tmp(path, sizeof path, "edge.mtx");
    for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++)
        for (size_t pad = 65536 - 200; pad <= 65536 + 8; pad++) {
            size_t len;
            char *text = padded(BANNER "%", pad, 'c', "\n", &len), err[ERR_CAP], err2[ERR_CAP];
            size_t t = strlen(tails[k]);
            text = realloc(text, len + t);
            memcpy(text + len, tails[k], t);
            len += t;
            FILE *f = fopen(path, "wb");
            ck_assert(f && fwrite(text, 1, len, f) == len && fclose(f) == 0);
            pl_csr a, b;
            int ra = pl_mtx_read(path, &a, err, sizeof err), rb = pl_mtx_parse(text, len, path, &b, err2, sizeof err2);
            ck_assert_msg(ra == rb, "pad %zu: %s / %s", pad, ra ? err : "read", rb ? err2 : "read");
            if (ra == 0)
                assert_same_csr(&a, &b);
            else
                ck_assert_str_eq(err, err2);
            ck_assert_msg(k == 0 ? ra == 0 && a.nnz == 3 : ra == -1, "tail %zu, pad %zu", k, pad);
            pl_csr_free(&a);
            pl_csr_free(&b);
            free(text);
        }
    unlink(path);
}
END_TEST

/* ---------------------------------------------------------- the limits */

/* A caller's limits refuse at the line that shows the problem, and never
   change a matrix they let through. */
START_TEST(caller_limits_refused_at_their_line)
{
    static const pl_mtx_limits lab = {.who = "the lab's contract", .max_rows = 4, .max_cols = 5, .max_nnz = 6,
                                      .float_why = "the lab computes in float"};
    static const pl_mtx_limits tiny = {.budget = 1024}, tinier = {.budget = 8}, small = {.budget = 128},
                               wide = {.budget = 1e6, .row_bytes = 1000};
    static const struct {
        const pl_mtx_limits *lim;
        const char *text, *err; /* NULL: read */
    } files[] = {
        {&lab, BANNER "5 2 1\n1 1 1\n", "l.mtx:2: 5 rows, more than the lab's contract allows (4)"},
        {&lab, BANNER "2 6 1\n1 1 1\n", "l.mtx:2: 6 columns, more than the lab's contract allows (5)"},
        {&lab, BANNER "4 4 7\n1 1 1\n", "l.mtx:2: 7 entries, more than the lab's contract allows (6)"},
        {&lab, "%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n2 1 1\n3 1 1\n4 1 1\n4 4 1\n",
         "l.mtx:6: the expanded matrix has more than the 6 entries the lab's contract allows"},
        {&lab, BANNER "2 2 2\n1 1 1\n2 2 -3.5e38\n",
         "l.mtx:4: value '-3.5e38' is beyond the range of float (largest 3.40282e+38): the lab computes in float"},
        {&lab, BANNER "2 2 2\n1 1 1e-50\n2 2 -3.4e38\n", NULL},
        {&lab, "%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n2 1 1\n3 1 1\n4 4 1\n3 3 1\n", NULL},
        {&tiny, BANNER "1000 1000 3\n1 1 1\n2 2 2\n3 3 3\n",
         "l.mtx:2: a 1000 x 1000 matrix of 3 entries needs about 23.5 KiB of memory to read and use, more than the "
         "budget of 1.0 KiB"},
        {&tinier, BANNER "1000 1000 1000\n1 1 1\n",
         "l.mtx:2: truncated: the size line says 1000 entries, the 6 bytes after it hold at most 1"},
        {&small, BANNER "1000 1000 1000\n1 1 1\n", "l.mtx:3: truncated: the size line says 1000 entries, the file has 1"},
        {&wide, BANNER "1000 1000 1\n1 1 1\n",
         "l.mtx:2: a 1000 x 1000 matrix of 1 entry needs about 984.4 KiB of memory to read and use, more than the "
         "budget of 976.6 KiB"},
        {&small, BANNER "2 2 1\n1 1 1\n", NULL},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        pl_csr m, plain;
        char err[ERR_CAP];
        size_t len = strlen(files[i].text);
        int rc = pl_mtx_parse_within(files[i].text, len, "l.mtx", files[i].lim, &m, err, sizeof err);
        if (files[i].err) {
            ck_assert_msg(rc == -1, "case %zu read", i);
            ck_assert_str_eq(err, files[i].err);
            continue;
        }
        ck_assert_msg(rc == 0, "case %zu: %s", i, err);
        ck_assert_int_eq(pl_mtx_parse(files[i].text, len, "l.mtx", &plain, err, sizeof err), 0);
        assert_same_csr(&m, &plain);
        pl_csr_free(&m);
        pl_csr_free(&plain);
    }
}
END_TEST

/* The checker the fuzzer relies on does catch broken CSRs. */
START_TEST(csr_check_catches_breakage)
{
    static const char text[] = "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 1 2\n3 2 3\n";
    pl_csr m;
    char err[ERR_CAP];
    ck_assert_int_eq(pl_mtx_parse(text, sizeof text - 1, "s.mtx", &m, err, sizeof err), 0);
    ck_assert_int_eq(pl_csr_check(&m, err, sizeof err), 0);
    m.val[1] = 7; /* (1, 2) no longer mirrors (2, 1) */
    ck_assert_int_eq(pl_csr_check(&m, err, sizeof err), -1);
    m.val[1] = 2;
    int c = m.col[2];
    m.col[2] = m.col[3], m.col[3] = c; /* row 2's columns out of order */
    ck_assert_int_eq(pl_csr_check(&m, err, sizeof err), -1);
    m.col[3] = m.col[2], m.col[2] = c;
    m.row_ptr[2]++; /* an entry moved across rows */
    ck_assert_int_eq(pl_csr_check(&m, err, sizeof err), -1);
    m.row_ptr[2]--;
    m.val[0] = NAN;
    ck_assert_int_eq(pl_csr_check(&m, err, sizeof err), -1);
    pl_csr_free(&m);
}
END_TEST

/* Runs build/mtx-check on file; returns its exit status, with what it
   wrote to stdout and stderr (small: the pipes hold it until the end). */
static int run_cli(const char *file, char *out, size_t outcap, char *errs, size_t errcap)
{
    int po[2], pe[2];
    ck_assert(pipe(po) == 0 && pipe(pe) == 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]), close(pe[0]), close(po[1]), close(pe[1]);
        execl("build/mtx-check", "mtx-check", file, (char *)NULL);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ssize_t n = read(po[0], out, outcap - 1);
    out[n > 0 ? n : 0] = '\0';
    n = read(pe[0], errs, errcap - 1);
    errs[n > 0 ? n : 0] = '\0';
    close(po[0]);
    close(pe[0]);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(cli_exit_status_and_lines)
{
    if (access("build/mtx-check", X_OK) != 0) {
        printf("SKIP: build/mtx-check is not built (make build/mtx-check); not counted as passed\n");
        return;
    }
    char out[ERR_CAP], errs[ERR_CAP];
    ck_assert_int_eq(run_cli(MTX_DIR "/bad_duplicate.mtx", out, sizeof out, errs, sizeof errs), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(errs, MTX_DIR "/bad_duplicate.mtx:6: duplicate entry (2, 1): also on line 4\n");
    ck_assert_int_eq(run_cli(MTX_DIR "/ok_skew.mtx", out, sizeof out, errs, sizeof errs), 0);
    ck_assert_str_eq(out, MTX_DIR "/ok_skew.mtx\t3\t3\t4\t2\treal\tskew-symmetric\n");
    ck_assert_str_eq(errs, "");
}
END_TEST

/* ---------------------------------------------------------------- suite */

Suite *check_suite(void)
{
    Suite *s = suite_create("mtx");
    TCase *t = tcase_create("files");
    tcase_add_loop_test(t, valid_file_reads_as_written, 0, valid.rows);
    tcase_add_loop_test(t, malformed_file_refused_with_its_line, 0, errors.rows);
    tcase_add_test(t, every_file_is_listed_once);
    suite_add_tcase(s, t);

    t = tcase_create("real");
    tcase_add_loop_test(t, real_matrix_matches_readme_and_naive_reader, 0, nreals > 0 ? nreals : 1);
    tcase_add_test(t, real_matrices_all_in_readme);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("limits");
    tcase_add_test(t, huge_header_refused_without_allocating);
    tcase_add_test(t, megabyte_lines);
    tcase_add_test(t, input_is_not_nul_terminated);
    tcase_add_test(t, every_prefix_reads_or_is_refused);
    tcase_add_test(t, error_buffer_and_names);
    tcase_add_test(t, csr_check_catches_breakage);
    tcase_add_test(t, cli_exit_status_and_lines);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("stream");
    tcase_add_test(t, special_files_refused_at_once);
    tcase_add_test(t, big_file_read_no_further_than_needed);
    tcase_add_test(t, buffer_edges_read_as_from_memory);
    tcase_add_test(t, caller_limits_refused_at_their_line);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}

/* The tables read, and a scratch folder, before the suite runs. */
int check_setup(void)
{
    if (read_table(MTX_DIR "/valid.tsv", 7, &valid) || read_table(MTX_DIR "/errors.tsv", 3, &errors) ||
        valid.rows == 0 || errors.rows == 0) {
        fprintf(stderr, "test_mtx: cannot read " MTX_DIR "/valid.tsv and errors.tsv (run from the repository's root)\n");
        return EXIT_FAILURE;
    }
    read_readme();
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_mtx.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "test_mtx: cannot make a folder in /tmp: %s\n", strerror(errno));
        return EXIT_FAILURE;
    }
    return CHECK_RUN;
}

/* The scratch folder removed, with what a failed test left there. */
void check_teardown(void)
{
    DIR *d = opendir(tmpdir); /* what a failed test left there */
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(tmpdir);
}
