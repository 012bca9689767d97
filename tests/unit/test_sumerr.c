/* tests/unit/test_sumerr.c: Check tests of lab 06's `sumerr` command
 * (harness/parent/labs/lab06_sumerr.c, the summation-error experiment of part (e)),
 * run by `make test` or alone:
 *
 *   make build/tests/test_sumerr && build/tests/test_sumerr
 *
 *   - file: the metadata lines and the header's columns; one row per (n,
 *     seed) in the order asked; each row what pl_sum_error_row gives for its
 *     n and seed, as printed (errors to 9 digits, the sums exactly); errors
 *     finite and >= 0, bounds K u with each order's depth;
 *   - stdout: without --out the TSV goes to stdout and nothing else does,
 *     the table of means to stderr;
 *   - claims: pairwise and tree errors within their worst-case bounds; the
 *     serial error grows with n (mean of 8 seeds, 2^10 -> 2^20: at least
 *     4x, measured 36x), below sqrt(n) u, while the tree orders stay below
 *     sqrt(log2 n) u;
 *   - options: sizes below 2 or above 2^30, seeds out of 1 .. 1000, sizes
 *     missing, an output that cannot be written: status 2, no file.
 */
#define _GNU_SOURCE
#include "../../harness/parent/labs/lab06_sumerr.h"
#include "../../kernels_ref/cpu/reduce.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define U32 0x1p-24

/* The columns, in the file's order. */
enum { C_N, C_SEED, C_BLOCK, C_EXACT, C_ERR_S, C_ERR_P, C_ERR_T, C_BOUND_S, C_BOUND_P, C_BOUND_T, C_WALK_S,
       C_WALK_T, C_SUM_S, C_SUM_P, C_SUM_T, NCOLS };
static const char *const header_line = "n\tseed\tblock\texact\terr_serial\terr_pairwise\terr_tree\tbound_serial\t"
                                       "bound_pairwise\tbound_tree\twalk_serial\twalk_tree\tserial\tpairwise\ttree";

#define MAX_ROWS 256

/* A sumerr file as read back: bad_line is the first line that is neither a
   '# ' comment before the header, the header, nor a row of NCOLS numbers. */
typedef struct table {
    char first[256];
    int has_source, has_header, bad_line, nrows;
    double v[MAX_ROWS][NCOLS];
} table;

static void read_table(const char *path, table *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read '%s'", path);
    char line[4096];
    for (int k = 1; fgets(line, sizeof line, f); k++) {
        line[strcspn(line, "\n")] = '\0';
        if (k == 1)
            snprintf(t->first, sizeof t->first, "%.255s", line);
        if (!t->has_header && !strncmp(line, "# ", 2)) {
            t->has_source |= !strcmp(line, "# source: measured (CPU)");
            continue;
        }
        if (!t->has_header && !strcmp(line, header_line)) {
            t->has_header = 1;
            continue;
        }
        int c = 0, ok = t->has_header && t->nrows < MAX_ROWS;
        for (char *p = line, *end; ok && c < NCOLS; c++, p = end + 1) {
            t->v[t->nrows][c] = strtod(p, &end);
            ok = end != p && (*end == (c == NCOLS - 1 ? '\0' : '\t'));
        }
        if (!ok) {
            t->bad_line = t->bad_line ? t->bad_line : k;
            continue;
        }
        t->nrows++;
    }
    fclose(f);
}

/* Runs the command with stdout and stderr in files (paths: templates,
   filled in); returns its status. */
static int run_captured(const pl_cmd_opts *o, char *out_path, char *err_path)
{
    fflush(stdout), fflush(stderr);
    int so = dup(1), se = dup(2), fo = mkstemp(out_path), fe = mkstemp(err_path);
    ck_assert(so >= 0 && se >= 0 && fo >= 0 && fe >= 0);
    dup2(fo, 1), dup2(fe, 2);
    int rc = pl_sumerr_command(o);
    fflush(stdout), fflush(stderr);
    dup2(so, 1), dup2(se, 2);
    close(so), close(se), close(fo), close(fe);
    return rc;
}

/* Runs it with --out into a temporary file and reads the rows back. */
static void run_to_table(const long *sizes, int nsizes, int seeds, table *t)
{
    char path[] = "/tmp/test_sumerr.XXXXXX", out[] = "/tmp/test_sumerr.out.XXXXXX", err[] = "/tmp/test_sumerr.err.XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    pl_cmd_opts o = {.out = path, .sizes = sizes, .nsizes = nsizes, .reps = seeds};
    ck_assert_int_eq(run_captured(&o, out, err), 0);
    read_table(path, t);
    FILE *f = fopen(out, "r");
    ck_assert_msg(f && fgetc(f) == EOF, "--out given, yet something went to stdout");
    fclose(f);
    unlink(path), unlink(out), unlink(err);
}

static double rel(double a, double b) { return a == b ? 0 : fabs(a - b) / fmax(fabs(a), fabs(b)); }

/* ---------------------------------------------------------------- file */

static const long file_sizes[] = {1L << 10, 3, 1000, 1L << 16, 2, (1L << 20) + 1};
#define N_FILE (int)(sizeof file_sizes / sizeof file_sizes[0])
#define FILE_SEEDS 3

START_TEST(file_has_one_checked_row_per_size_and_seed)
{
    static table t;
    run_to_table(file_sizes, N_FILE, FILE_SEEDS, &t);
    ck_assert_str_eq(t.first, "# primlab summation-error rows");
    ck_assert_msg(t.has_source, "no '# source: measured (CPU)' line");
    ck_assert_msg(t.has_header, "no header line of the %d columns", NCOLS);
    ck_assert_msg(t.bad_line == 0, "line %d is not a row", t.bad_line);
    ck_assert_int_eq(t.nrows, N_FILE * FILE_SEEDS);
    for (int i = 0; i < t.nrows; i++) {
        const double *v = t.v[i];
        size_t n = (size_t)file_sizes[i / FILE_SEEDS];
        ck_assert_msg(v[C_N] == (double)n && v[C_SEED] == i % FILE_SEEDS + 1, "row %d: n %g seed %g, want %zu %d", i,
                      v[C_N], v[C_SEED], n, i % FILE_SEEDS + 1);
        ck_assert(v[C_BLOCK] == PL_SUMERR_BLOCK);
        for (int c = C_EXACT; c < NCOLS; c++)
            ck_assert_msg(isfinite(v[c]) && v[c] >= 0, "row %d column %d: %g", i, c, v[c]);
        ck_assert(v[C_EXACT] > 0);
        pl_sum_error r;
        ck_assert(pl_sum_error_row(n, (uint64_t)v[C_SEED], PL_SUMERR_BLOCK, &r) == 0);
        ck_assert_msg(v[C_EXACT] == r.exact, "row %d: exact %.17g, want %.17g", i, v[C_EXACT], r.exact);
        /* 9 digits: the float sums read back exactly */
        ck_assert((float)v[C_SUM_S] == r.serial && (float)v[C_SUM_P] == r.pairwise && (float)v[C_SUM_T] == r.tree);
        double want[] = {r.err_serial, r.err_pairwise, r.err_tree, r.bound_serial, r.bound_pairwise, r.bound_tree,
                         r.walk_serial, r.walk_tree};
        for (int c = C_ERR_S; c <= C_WALK_T; c++)
            ck_assert_msg(rel(v[c], want[c - C_ERR_S]) < 1e-8, "row %d column %d: %.9g, want %.9g", i, c, v[c],
                          want[c - C_ERR_S]);
        /* the bounds are K u with each order's depth (sum |x| = S here) */
        ck_assert(rel(v[C_BOUND_S], (double)(n - 1) * U32) < 1e-8);
        ck_assert(rel(v[C_BOUND_P], (double)pl_sum_depth_pairwise(n) * U32) < 1e-8);
        ck_assert(rel(v[C_BOUND_T], (double)pl_sum_depth_tree(n, PL_SUMERR_BLOCK) * U32) < 1e-8);
        ck_assert(rel(v[C_WALK_S], sqrt((double)n) * U32) < 1e-8 && rel(v[C_WALK_T], sqrt(log2((double)n)) * U32) < 1e-8);
    }
}
END_TEST

/* -------------------------------------------------------------- stdout */

START_TEST(stdout_is_clean_tsv_table_on_stderr)
{
    static table t;
    static const long sizes[] = {1L << 8, 1L << 12};
    char out[] = "/tmp/test_sumerr.out.XXXXXX", err[] = "/tmp/test_sumerr.err.XXXXXX";
    pl_cmd_opts o = {.sizes = sizes, .nsizes = 2, .reps = 2};
    ck_assert_int_eq(run_captured(&o, out, err), 0);
    read_table(out, &t);
    ck_assert_str_eq(t.first, "# primlab summation-error rows");
    ck_assert(t.has_header && t.bad_line == 0 && t.nrows == 4);
    FILE *f = fopen(err, "r");
    char line[512];
    int lines = 0, table_head = 0;
    while (f && fgets(line, sizeof line, f))
        lines++, table_head |= strstr(line, "serial") && strstr(line, "pairwise") && strstr(line, "tree");
    if (f)
        fclose(f);
    ck_assert_msg(table_head && lines == 4, "stderr: %d lines, want the table's 2 heading lines and 2 sizes", lines);
    unlink(out), unlink(err);
}
END_TEST

/* -------------------------------------------------------------- claims */

/* An order in which no element lies below more than K additions errs by at
   most gamma_K sum |x| (Higham (4.3)); these inputs are >= 0, so sum |x| = S
   and the relative error is at most gamma_K = K u / (1 - K u), a theorem.
   bound_* is its first-order part K u, smaller by the factor 1 - K u, which
   is above 1 - 2^-19 for the tree orders here (K <= 30); the measured errors
   stay near u, at most 0.19 K u in these rows (K is 6 to 30), so the
   first-order bound holds with room to spare as well. The serial order's
   gamma_{n-1} is finite below 2^24 only. */
START_TEST(tree_orders_within_their_bounds)
{
    static table t;
    static const long sizes[] = {16, 17, 1000, 1L << 10, (1L << 10) + 1, 1L << 15, 1L << 20, (1L << 20) + 1};
    run_to_table(sizes, 8, 4, &t);
    ck_assert_int_eq(t.nrows, 32);
    for (int i = 0; i < t.nrows; i++) {
        const double *v = t.v[i];
        size_t n = (size_t)v[C_N];
        double gp = pl_gamma((double)pl_sum_depth_pairwise(n), U32);
        double gt = pl_gamma((double)pl_sum_depth_tree(n, PL_SUMERR_BLOCK), U32);
        double gs = pl_gamma((double)(n - 1), U32);
        ck_assert_msg(v[C_ERR_P] <= gp && v[C_ERR_P] <= v[C_BOUND_P], "n %zu seed %g: pairwise %g, bound %g", n,
                      v[C_SEED], v[C_ERR_P], v[C_BOUND_P]);
        ck_assert_msg(v[C_ERR_T] <= gt && v[C_ERR_T] <= v[C_BOUND_T], "n %zu seed %g: tree %g, bound %g", n, v[C_SEED],
                      v[C_ERR_T], v[C_BOUND_T]);
        ck_assert_msg(v[C_ERR_S] <= gs && v[C_ERR_S] <= v[C_BOUND_S], "n %zu seed %g: serial %g, bound %g", n,
                      v[C_SEED], v[C_ERR_S], v[C_BOUND_S]);
    }
}
END_TEST

/* The mean of column c over the rows of size n. */
static double mean_at(const table *t, double n, int c)
{
    double s = 0;
    int k = 0;
    for (int i = 0; i < t->nrows; i++)
        if (t->v[i][C_N] == n)
            s += t->v[i][c], k++;
    ck_assert_msg(k > 0, "no rows of n = %g", n);
    return s / k;
}

/* A random walk of n roundings: the serial error grows like sqrt(n) (32x
   from 2^10 to 2^20), while the tree orders' stays near one rounding. */
START_TEST(serial_error_grows_tree_errors_do_not)
{
    static table t;
    static const long sizes[] = {1L << 10, 1L << 20};
    run_to_table(sizes, 2, 8, &t);
    double s10 = mean_at(&t, 0x1p10, C_ERR_S), s20 = mean_at(&t, 0x1p20, C_ERR_S);
    ck_assert_msg(s20 > s10 && s20 >= 4 * s10, "serial: mean %g at 2^10, %g at 2^20", s10, s20);
    ck_assert_msg(s10 <= 0x1p5 * U32 && s20 <= 0x1p10 * U32, "serial above sqrt(n) u: %g, %g", s10, s20);
    for (int c = C_ERR_P; c <= C_ERR_T; c++)
        for (int e = 10; e <= 20; e += 10) {
            double m = mean_at(&t, ldexp(1, e), c);
            ck_assert_msg(m <= sqrt(e) * U32, "column %d at 2^%d: mean %g above sqrt(log2 n) u", c, e, m);
        }
}
END_TEST

/* ------------------------------------------------------------- options */

static const long bad_sizes[][2] = {{0, 1024}, {1, 1024}, {1024, (1L << 30) + 1}, {-5, 1024}};
enum { N_BAD_SIZES = 4, N_BAD = N_BAD_SIZES + 5 };

START_TEST(bad_options_give_2_and_no_file)
{
    char path[] = "/tmp/test_sumerr.XXXXXX", out[] = "/tmp/test_sumerr.out.XXXXXX", err[] = "/tmp/test_sumerr.err.XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    unlink(path); /* the name only: a bad option must not create it */
    static const long good[] = {64};
    pl_cmd_opts o = {.out = path, .sizes = good, .nsizes = 1, .reps = 1};
    if (_i < N_BAD_SIZES)
        o.sizes = bad_sizes[_i], o.nsizes = 2;
    else if (_i == N_BAD_SIZES)
        o.reps = -1;
    else if (_i == N_BAD_SIZES + 1)
        o.reps = PL_SUMERR_MAX_SEEDS + 1;
    else if (_i == N_BAD_SIZES + 2)
        o.sizes = NULL, o.nsizes = 2;
    else if (_i == N_BAD_SIZES + 3)
        o.nsizes = -1;
    else
        o.out = "/nonexistent-dir-of-test-sumerr/x.tsv";
    ck_assert_int_eq(run_captured(&o, out, err), 2);
    ck_assert_msg(access(path, F_OK) != 0, "case %d wrote '%s'", _i, path);
    FILE *f = fopen(err, "r");
    char line[512] = "";
    int lines = 0;
    while (f && fgets(line, sizeof line, f))
        lines++;
    if (f)
        fclose(f);
    ck_assert_msg(lines == 1 && !strncmp(line, "lab06 sumerr: ", 14), "case %d: %d lines on stderr, last '%s'", _i, lines,
                  line);
    f = fopen(out, "r");
    ck_assert_msg(f && fgetc(f) == EOF, "case %d wrote to stdout", _i);
    fclose(f);
    unlink(out), unlink(err);
}
END_TEST

/* --------------------------------------------------------------- suite */

Suite *check_suite(void)
{
    Suite *s = suite_create("sumerr");
    TCase *t = tcase_create("file");
    tcase_add_test(t, file_has_one_checked_row_per_size_and_seed);
    tcase_add_test(t, stdout_is_clean_tsv_table_on_stderr);
    tcase_set_timeout(t, 30);
    suite_add_tcase(s, t);

    t = tcase_create("claims");
    tcase_add_test(t, tree_orders_within_their_bounds);
    tcase_add_test(t, serial_error_grows_tree_errors_do_not);
    tcase_set_timeout(t, 30);
    suite_add_tcase(s, t);

    t = tcase_create("options");
    tcase_add_loop_test(t, bad_options_give_2_and_no_file, 0, N_BAD);
    tcase_set_timeout(t, 10);
    suite_add_tcase(s, t);
    return s;
}
