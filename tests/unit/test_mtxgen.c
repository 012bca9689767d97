/* tests/unit/test_mtxgen.c: Check tests of the synthetic matrices and the
 * Matrix Market writer (harness/parent/mtxgen.c), of build/mtx-gen and of
 * harness/matrices.sh, run from the repository's root by `make test`:
 *
 *   - families: each family at a small size is a valid CSR (what
 *     pl_mtx_read guarantees), has the entries asked for (fem: within 5 %),
 *     values k / 1024, never 0, and the family's character (fem banded,
 *     structurally symmetric, in runs of consecutive columns; uniform's
 *     lengths near the mean; powerlaw's longest row >> the mean and most
 *     rows of 1-3 entries; longrows' rows all long; dense full);
 *   - presets: each at a small scale, the same checks against its family,
 *     its size and its longest row;
 *   - the same (params, seed) gives the same matrix with 1 or 3 threads,
 *     another seed another; write then pl_mtx_read gives it back bit for
 *     bit; one-line refusals of every kind; edge sizes; out of memory;
 *   - limits: 10^7 entries (fem and powerlaw) made in seconds, with peak
 *     memory that of the matrix; the CLI; harness/matrices.sh without
 *     internet (an unreachable MATRICES_URL) and, with curl, from file://.
 */
#define _GNU_SOURCE
#include "../../harness/parent/mtxgen.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "under_asan.h"

#define ERR_CAP 512
#define FEM_TOLERANCE 0.05 /* mtxgen.h: fem's nnz within 5 % of the target */

/* ------------------------------------------------------------- helpers */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void make_or_fail(const pl_mtxgen_params *p, uint64_t seed, pl_csr *m)
{
    char err[ERR_CAP];
    int rc = pl_mtxgen_make(p, seed, m, err, sizeof err);
    ck_assert_msg(rc == 0, "%s %ld x %ld nnz %ld: %s", p->family, p->rows, p->cols, p->nnz, err);
}

static int same_csr(const pl_csr *a, const pl_csr *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz &&
           !memcmp(a->row_ptr, b->row_ptr, (size_t)(a->rows + 1) * sizeof *a->row_ptr) &&
           !memcmp(a->col, b->col, (size_t)a->nnz * sizeof *a->col) &&
           !memcmp(a->val, b->val, (size_t)a->nnz * sizeof *a->val);
}

/* Column c in row r? */
static int has(const pl_csr *m, long r, long c) { return pl_csr_find(m, r, c) >= 0; }

/* What every generated matrix is (mtxgen.h), and nnz against the target.
   Loops over entries test with `if` and ck_abort_msg: Check's ck_assert
   records its place (a write) on every call, a second per million. */
static void assert_generated(const pl_csr *m, const pl_mtxgen_params *p, long target)
{
    char err[ERR_CAP];
    ck_assert_msg(pl_csr_check(m, err, sizeof err) == 0, "%s: %s", p->family, err);
    ck_assert_str_eq(m->field, "real");
    ck_assert_str_eq(m->symmetry, "general");
    ck_assert_int_eq(m->rows, p->rows);
    ck_assert_int_eq(m->cols, p->cols);
    ck_assert_int_eq(m->stored, m->nnz);
    if (!strcmp(p->family, "fem"))
        ck_assert_msg(fabs((double)(m->nnz - target)) <= FEM_TOLERANCE * (double)target, "fem: nnz %ld, target %ld",
                      m->nnz, target);
    else
        ck_assert_int_eq(m->nnz, target);
    for (long e = 0; e < m->nnz; e++) {
        double v = m->val[e], k = v * 1024;
        if (!(v != 0 && fabs(v) <= 1 && k == floor(k) && (double)(float)v == v))
            ck_abort_msg("value %.17g at %ld", v, e);
    }
}

/* The family's character (mtxgen.h); max_row: the hint, or -1. */
static void assert_character(const pl_csr *m, const char *family, long max_row)
{
    pl_mtxgen_stats s;
    pl_mtxgen_stats_of(m, &s);
    if (!strcmp(family, "fem")) {
        long runs = 0;
        for (long r = 0; r < m->rows; r++) {
            if (!has(m, r, r))
                ck_abort_msg("fem: no diagonal in row %ld", r);
            for (long e = m->row_ptr[r]; e < m->row_ptr[r + 1]; e++) {
                if (!has(m, m->col[e], r))
                    ck_abort_msg("fem: (%ld, %d) without (%d, %ld)", r, m->col[e], m->col[e], r);
                runs += e == m->row_ptr[r] || m->col[e] != m->col[e - 1] + 1;
            }
        }
        ck_assert_msg(s.bandwidth <= s.rows / 4, "fem: bandwidth %ld of %ld rows", s.bandwidth, s.rows);
        ck_assert_msg((double)runs / (double)s.rows <= 10 && runs * 2 <= s.nnz, "fem: %ld runs for %ld entries", runs,
                      s.nnz);
        if (max_row > 0)
            ck_assert_msg(s.max_row <= max_row + 5, "fem: longest row %ld, max_row %ld", s.max_row, max_row);
    } else if (!strcmp(family, "uniform")) {
        double d = max_row > 0 ? fmax(0, (double)max_row - ceil(s.mean_row)) : fmax(1, floor(s.mean_row / 4));
        ck_assert_msg(s.min_row >= floor(s.mean_row - d) - 1 && s.max_row <= ceil(s.mean_row + d) + 1,
                      "uniform: rows of %ld..%ld for a mean of %.2f", s.min_row, s.max_row, s.mean_row);
        ck_assert_msg(s.bandwidth >= s.cols / 2, "uniform: bandwidth %ld", s.bandwidth);
    } else if (!strcmp(family, "powerlaw") || !strcmp(family, "longrows")) {
        /* the longest row: about the hint where `rows` Pareto draws can
           reach it, rows / (e ln rows) times the mean at most (mtxgen.c) */
        int pl = !strcmp(family, "powerlaw");
        double hint = max_row > 0 ? (double)max_row : fmin((double)s.cols, (pl ? 1000 : 20) * fmax(1, s.mean_row));
        double reach = s.rows >= 3 ? fmax(1, (double)s.rows / (exp(1) * log((double)s.rows))) : 1;
        double expect = fmin(hint, s.mean_row * reach);
        long short_rows = 0;
        for (long r = 0; r < m->rows; r++)
            short_rows += m->row_ptr[r + 1] - m->row_ptr[r] <= 3;
        ck_assert_msg(s.mean_row < 2 ? s.empty_rows < s.rows : s.empty_rows == 0,
                      "%s: %ld empty rows, mean %.2f", family, s.empty_rows, s.mean_row);
        ck_assert_msg(s.max_row >= 0.25 * expect && s.max_row <= 1.2 * hint + 2,
                      "%s: longest row %ld, mean %.2f, hint %.0f, expected about %.0f", family, s.max_row, s.mean_row,
                      hint, expect);
        if (pl && max_row <= 0)
            ck_assert_msg(s.max_row >= 10 * s.mean_row, "powerlaw: longest row %ld, mean %.2f", s.max_row, s.mean_row);
        if (pl && s.mean_row <= 4)
            ck_assert_msg(short_rows * 2 >= s.rows, "powerlaw: only %ld of %ld rows have 1-3 entries", short_rows,
                          s.rows);
        if (!pl)
            ck_assert_msg(s.min_row >= s.mean_row / 8 && s.max_row >= 2 * s.mean_row,
                          "longrows: rows of %ld..%ld for a mean of %.1f", s.min_row, s.max_row, s.mean_row);
    } else if (!strcmp(family, "dense")) {
        ck_assert_int_eq(s.nnz, s.rows * s.cols);
        for (long r = 0; r < m->rows; r++)
            for (long e = m->row_ptr[r]; e < m->row_ptr[r + 1]; e++)
                if (m->col[e] != e - m->row_ptr[r])
                    ck_abort_msg("dense: row %ld has column %d at %ld", r, m->col[e], e - m->row_ptr[r]);
    } else
        ck_abort_msg("no character for family %s", family);
}

/* ------------------------------------------------------------ families */

static const struct {
    pl_mtxgen_params p;
    long target; /* what nnz should be (the default's, where nnz is) */
} FAMILY_CASES[] = {
    {{"fem", 30000, 30000, PL_MTXGEN_DEFAULT, PL_MTXGEN_DEFAULT}, 30000 * 32L},
    {{"fem", 3000, 3000, 3000 * 60L, 184}, 3000 * 60L},
    {{"fem", 5000, 5000, 5000 * 6L, PL_MTXGEN_DEFAULT}, 5000 * 6L},
    {{"uniform", 4000, 3000, PL_MTXGEN_DEFAULT, PL_MTXGEN_DEFAULT}, 4000 * 16L},
    {{"uniform", 3000, 5000, 3000 * 39L, 39}, 3000 * 39L},
    {{"powerlaw", 20000, 20000, 60000, PL_MTXGEN_DEFAULT}, 60000},
    {{"powerlaw", 20000, 15000, PL_MTXGEN_DEFAULT, 500}, 80000},
    {{"powerlaw", 100000, 50000, 60000, PL_MTXGEN_DEFAULT}, 60000}, /* most rows empty */
    {{"longrows", 100, 100000, 250000, PL_MTXGEN_DEFAULT}, 250000},
    {{"longrows", 2000, 2000, 40000, PL_MTXGEN_DEFAULT}, 40000},
    {{"dense", 300, 200, PL_MTXGEN_DEFAULT, PL_MTXGEN_DEFAULT}, 60000},
    {{"dense", 1, 1, 1, PL_MTXGEN_DEFAULT}, 1},
};
#define NFAMILY_CASES ((int)(sizeof FAMILY_CASES / sizeof FAMILY_CASES[0]))

START_TEST(family_is_valid_with_its_character)
{
    pl_csr m;
    make_or_fail(&FAMILY_CASES[_i].p, 7, &m);
    assert_generated(&m, &FAMILY_CASES[_i].p, FAMILY_CASES[_i].target);
    assert_character(&m, FAMILY_CASES[_i].p.family, FAMILY_CASES[_i].p.max_row);
    pl_csr_free(&m);
}
END_TEST

/* Every family by its plain call, once each: pl_mtxgen agrees with make. */
START_TEST(every_family_listed_and_made)
{
    for (int i = 0; i < pl_mtxgen_nfamilies; i++) {
        const char *f = pl_mtxgen_families[i].name;
        pl_csr a, b;
        char err[ERR_CAP];
        pl_mtxgen_params p = {f, 500, 500, PL_MTXGEN_DEFAULT, PL_MTXGEN_DEFAULT};
        ck_assert_msg(pl_mtxgen(f, 500, 500, PL_MTXGEN_DEFAULT, 3, &a, err, sizeof err) == 0, "%s: %s", f, err);
        make_or_fail(&p, 3, &b);
        ck_assert_msg(same_csr(&a, &b), "%s: pl_mtxgen and pl_mtxgen_make differ", f);
        ck_assert_msg(a.nnz > 0, "%s: no entries", f);
        pl_csr_free(&a);
        pl_csr_free(&b);
    }
}
END_TEST

/* ------------------------------------------------------------- presets */

/* At a scale that leaves about 3000 rows (rail4284: 200 x 54850). */
START_TEST(preset_at_small_scale)
{
    const pl_mtxgen_preset_def *d = &pl_mtxgen_presets[_i];
    double scale = d->rows > 3000 ? 3000.0 / (double)d->rows : 1;
    if (!strcmp(d->family, "longrows"))
        scale = 0.05;
    if (!strcmp(d->family, "dense"))
        scale = 0.1;
    pl_mtxgen_params p;
    char err[ERR_CAP];
    ck_assert_msg(pl_mtxgen_preset_params(d->name, scale, &p, err, sizeof err) == 0, "%s: %s", d->name, err);
    ck_assert_str_eq(p.family, d->family);
    ck_assert_int_eq(p.rows, lround((double)d->rows * scale));
    ck_assert(d->rows == d->cols ? p.cols == p.rows : p.cols == lround((double)d->cols * scale));
    long target = !strcmp(d->family, "dense") ? p.rows * p.cols : lround((double)d->nnz * (double)p.rows / (double)d->rows);
    pl_csr m, byname;
    make_or_fail(&p, 11, &m);
    assert_generated(&m, &p, target);
    assert_character(&m, d->family, p.max_row);
    ck_assert_msg(pl_mtxgen_preset(d->matrix, scale, 11, &byname, err, sizeof err) == 0, "%s: %s", d->matrix, err);
    ck_assert_msg(same_csr(&m, &byname), "%s: by the paper's name, another matrix", d->name);
    pl_csr_free(&m);
    pl_csr_free(&byname);
}
END_TEST

/* The table itself: Table 2's numbers, names and families as mtxgen.c
   says (the mean row lengths the paper prints are nnz / rows, rounded). */
START_TEST(preset_table_is_the_papers)
{
    static const struct {
        const char *matrix;
        long rows, cols, nnz, max, mean;
    } table2[] = {
        {"dense2", 2000, 2000, 4000000, 2000, 2000},   {"cant", 62000, 62000, 2035000, 40, 32},
        {"consph", 83000, 83000, 3048000, 66, 36},     {"cop20k_A", 121000, 121000, 1362000, 24, 11},
        {"mac_econ_fwd500", 207000, 207000, 1273000, 44, 6}, {"pdb1HYS", 36000, 36000, 2191000, 184, 60},
        {"qcd5_4", 49000, 49000, 1917000, 39, 39},     {"rail4284", 4000, 1097000, 11284000, 56000, 3000},
        {"scircuit", 171000, 171000, 959000, 353, 5},  {"shipsec1", 141000, 141000, 3977000, 84, 28},
        {"webbase-1M", 1000000, 1000000, 3106000, 5000, 3},
    };
    ck_assert_int_eq(pl_mtxgen_npresets, sizeof table2 / sizeof table2[0]);
    for (size_t i = 0; i < sizeof table2 / sizeof table2[0]; i++) {
        const pl_mtxgen_preset_def *d = pl_mtxgen_preset_find(table2[i].matrix);
        ck_assert_msg(d != NULL, "no preset for %s", table2[i].matrix);
        char like[64];
        snprintf(like, sizeof like, "%s-like", table2[i].matrix);
        ck_assert_str_eq(d->name, like);
        ck_assert_ptr_eq(pl_mtxgen_preset_find(like), d);
        ck_assert(d->rows == table2[i].rows && d->cols == table2[i].cols && d->nnz == table2[i].nnz &&
                  d->max_row == table2[i].max);
        double mean = (double)d->nnz / (double)d->rows;
        /* the paper rounds (5.6 shows as 5, 2821 as 3K): within 1, or 10 % */
        ck_assert_msg(fabs(mean - (double)table2[i].mean) <= fmax(1, 0.1 * (double)table2[i].mean), "%s: mean %.1f",
                      d->name, mean);
        ck_assert_msg((d->collection == NULL) == !strcmp(d->matrix, "dense2"), "%s: collection", d->name);
    }
    ck_assert_ptr_null(pl_mtxgen_preset_find("cant-lik"));
    ck_assert_ptr_null(pl_mtxgen_preset_find(NULL));
}
END_TEST

/* ---------------------------------------------------------- same seed */

START_TEST(same_seed_same_matrix_any_threads)
{
    const pl_mtxgen_params *p = &FAMILY_CASES[_i].p;
    pl_csr a, b, c;
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    make_or_fail(p, 99, &a);
    omp_set_num_threads(3);
    make_or_fail(p, 99, &b);
    omp_set_num_threads(threads);
    make_or_fail(p, 100, &c);
    ck_assert_msg(same_csr(&a, &b), "%s: 1 and 3 threads give different matrices", p->family);
    ck_assert_msg(!same_csr(&a, &c), "%s: seeds 99 and 100 give the same matrix", p->family);
    pl_csr_free(&a);
    pl_csr_free(&b);
    pl_csr_free(&c);
}
END_TEST

/* -------------------------------------------------------------- write */

static char tmpdir[] = "/tmp/test_mtxgen-XXXXXX";

START_TEST(write_then_read_is_bit_exact)
{
    const pl_mtxgen_params *p = &FAMILY_CASES[_i].p;
    pl_csr m, back;
    char path[256], err[ERR_CAP];
    make_or_fail(p, 5, &m);
    snprintf(path, sizeof path, "%s/case%d.mtx", tmpdir, _i);
    ck_assert_msg(pl_mtx_write(path, &m, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(pl_mtx_read(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(same_csr(&m, &back), "%s: read back, another matrix", p->family);
    ck_assert_str_eq(back.field, "real");
    ck_assert_str_eq(back.symmetry, "general");
    unlink(path);
    pl_csr_free(&m);
    pl_csr_free(&back);
}
END_TEST

/* Values that need all 17 digits, a symmetric input (written expanded),
   comment lines, an empty matrix, and a matrix the writer refuses. */
START_TEST(write_any_csr)
{
    static const char text[] = "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
                               "1 1 0.1\n2 1 -3.3333333333333335e-300\n3 2 1e300\n3 3 -0.0\n";
    pl_csr m, back;
    char path[256], err[ERR_CAP];
    ck_assert_msg(pl_mtx_parse(text, sizeof text - 1, "sym", &m, err, sizeof err) == 0, "%s", err);
    snprintf(path, sizeof path, "%s/sym.mtx", tmpdir);
    ck_assert_msg(pl_mtx_write_comment(path, &m, "first\nsecond", err, sizeof err) == 0, "%s", err);
    ck_assert_msg(pl_mtx_read(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(back.nnz, 6);
    ck_assert_msg(same_csr(&m, &back), "symmetric: read back, another matrix");
    ck_assert(signbit(back.val[5]));
    pl_csr_free(&back);
    FILE *f = fopen(path, "r");
    char line[128];
    ck_assert(fgets(line, sizeof line, f) && !strcmp(line, "%%MatrixMarket matrix coordinate real general\n"));
    ck_assert(fgets(line, sizeof line, f) && !strcmp(line, "% first\n"));
    ck_assert(fgets(line, sizeof line, f) && !strcmp(line, "% second\n"));
    ck_assert(fgets(line, sizeof line, f) && !strcmp(line, "3 3 6\n"));
    fclose(f);

    m.col[0] = 2; /* row 0's columns now 2, 1: not increasing */
    ck_assert_int_eq(pl_mtx_write(path, &m, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not written: the matrix is not a valid CSR") != NULL, "%s", err);
    pl_csr_free(&m);

    pl_csr empty;
    ck_assert_int_eq(pl_mtxgen("uniform", 0, 0, 0, 1, &empty, err, sizeof err), 0);
    ck_assert_msg(pl_mtx_write(path, &empty, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(pl_mtx_read(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert(back.rows == 0 && back.cols == 0 && back.nnz == 0);
    pl_csr_free(&back);
    ck_assert_int_eq(pl_mtx_write("/nonexistent-dir/x.mtx", &empty, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent-dir/x.mtx: cannot open for writing: No such file or directory");
    ck_assert_int_eq(pl_mtx_write("/dev/null", &empty, err, sizeof err), 0); /* not a regular file: written in place */
    pl_csr_free(&empty);
}
END_TEST

/* -------------------------------------------------------------- errors */

static const struct {
    pl_mtxgen_params p;
    const char *err;
} ERROR_CASES[] = {
    {{"fern", 10, 10, 10, -1}, "unknown family 'fern': one of fem, uniform, powerlaw, longrows, dense"},
    {{NULL, 10, 10, 10, -1}, "unknown family '(null)': one of fem, uniform, powerlaw, longrows, dense"},
    {{"uniform", -1, 10, 10, -1},
     "uniform: a -1 x 10 matrix: rows and cols must lie within 0..2147483647 (indices are int)"},
    {{"uniform", 10, 2147483648L, 10, -1},
     "uniform: a 10 x 2147483648 matrix: rows and cols must lie within 0..2147483647 (indices are int)"},
    {{"uniform", 10, 10, -2, -1}, "uniform: nnz -2 and max_row -1 must be 0 or more (or PL_MTXGEN_DEFAULT)"},
    {{"powerlaw", 10, 10, 10, -5}, "powerlaw: nnz 10 and max_row -5 must be 0 or more (or PL_MTXGEN_DEFAULT)"},
    {{"uniform", 10, 10, 101, -1}, "uniform: nnz 101 cannot fit in a 10 x 10 matrix: it has places for 100"},
    {{"uniform", 100000, 100000, 2147483648L, -1}, "uniform: nnz 2147483648 is more than the reader's limit 2147483647"},
    {{"powerlaw", 20000000, 5, 10, -1},
     "powerlaw: 20000000 rows for 10 entries: at least 19999990 rows would be empty, more than the reader's limit of "
     "16777216"},
    {{"fem", 10, 12, 20, -1}, "fem: makes square matrices, not 10 x 12"},
    {{"fem", 10, 10, 9, -1}, "fem: nnz 9 is less than rows 10: every row has its diagonal"},
    {{"dense", 10, 10, 99, -1}, "dense: nnz 99 is not rows x cols = 100 (leave nnz to the family)"},
};
#define NERROR_CASES ((int)(sizeof ERROR_CASES / sizeof ERROR_CASES[0]))

START_TEST(refused_with_one_line)
{
    pl_csr m;
    char err[ERR_CAP];
    memset(&m, 0x5a, sizeof m);
    ck_assert_int_eq(pl_mtxgen_make(&ERROR_CASES[_i].p, 1, &m, err, sizeof err), -1);
    ck_assert_str_eq(err, ERROR_CASES[_i].err);
    ck_assert(m.row_ptr == NULL && m.col == NULL && m.val == NULL && m.nnz == 0);
    pl_csr_free(&m); /* safe on the zeroed result */
}
END_TEST

START_TEST(presets_and_scales_refused)
{
    pl_mtxgen_params p;
    pl_csr m;
    char err[ERR_CAP], tiny[12];
    ck_assert_int_eq(pl_mtxgen_preset_params("cant-lik", 1, &p, err, sizeof err), -1);
    ck_assert_msg(!strncmp(err, "unknown preset 'cant-lik': one of dense2-like cant-like ", 56), "%s", err);
    ck_assert_int_eq(pl_mtxgen_preset("cant", 0, 1, &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "scale 0 is out of range: more than 0, at most 1000");
    ck_assert_int_eq(pl_mtxgen_preset("cant", NAN, 1, &m, err, sizeof err), -1);
    ck_assert_int_eq(pl_mtxgen_preset("cant", -1, 1, &m, err, sizeof err), -1);
    ck_assert_int_eq(pl_mtxgen_preset("rail4284", 1000, 1, &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "longrows: nnz 11284000000 is more than the reader's limit 2147483647");
    ck_assert_ptr_null(m.row_ptr);
    /* a small buffer: cut, still terminated; none at all: no write */
    ck_assert_int_eq(pl_mtxgen("fern", 1, 1, 1, 1, &m, tiny, sizeof tiny), -1);
    ck_assert_str_eq(tiny, "unknown fam");
    ck_assert_int_eq(pl_mtxgen("fern", 1, 1, 1, 1, &m, NULL, 0), -1);
}
END_TEST

/* Sizes at the edges: empty, one entry, rows without entries. */
START_TEST(edge_sizes)
{
    static const pl_mtxgen_params cases[] = {
        {"uniform", 0, 0, 0, -1},  {"uniform", 5, 0, 0, -1},   {"uniform", 0, 5, 0, -1}, {"uniform", 7, 9, 0, -1},
        {"uniform", 1000, 1000, 300, -1}, {"powerlaw", 1000, 1000, 300, -1}, {"powerlaw", 1, 1, 1, -1},
        {"powerlaw", 3, 3, 9, -1}, {"longrows", 2, 7, 14, -1}, {"fem", 1, 1, 1, -1},  {"fem", 0, 0, 0, -1},
        {"fem", 4, 4, 16, -1},     {"fem", 50, 50, 2500, -1},  {"fem", 100, 100, 3000, 4}, {"dense", 0, 3, -1, -1},
        {"uniform", 100, 100, 10000, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pl_csr m;
        char err[ERR_CAP];
        make_or_fail(&cases[i], 1, &m);
        ck_assert_msg(pl_csr_check(&m, err, sizeof err) == 0, "case %zu: %s", i, err);
        long want = cases[i].nnz < 0 ? cases[i].rows * cases[i].cols : cases[i].nnz;
        if (strcmp(cases[i].family, "fem") || want == cases[i].rows * cases[i].rows)
            ck_assert_msg(m.nnz == want, "case %zu: nnz %ld, want %ld", i, m.nnz, want);
        pl_csr_free(&m);
    }
}
END_TEST

/* 24 GB asked for in a child limited to 1 GiB of address space (not under
   ASan): refused, and fast. */
START_TEST(out_of_memory_refused)
{
    if (UNDER_ASAN)
        return;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        omp_set_num_threads(2); /* thread stacks count against the limit */
        struct rlimit lim = {1L << 30, 1L << 30};
        if (setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(10);
        pl_csr m;
        char err[ERR_CAP];
        double t0 = now();
        if (pl_mtxgen("uniform", 1000000, 1000000, 2000000000L, 1, &m, err, sizeof err) != -1)
            _exit(11);
        if (strcmp(err, "uniform: out of memory for a 1000000 x 1000000 matrix of about 2000000000 entries (24.0 GB)"))
            _exit(12);
        if (m.row_ptr || now() - t0 > 5)
            _exit(13);
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child status %d (10: setrlimit, 11: made it, 12: message, 13: slow or not zeroed)",
                  WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
}
END_TEST

START_TEST(stats_of_a_small_matrix)
{
    static const char text[] = "%%MatrixMarket matrix coordinate real general\n4 6 4\n"
                               "1 1 1\n1 6 1\n3 2 1\n4 1 1\n";
    pl_csr m;
    pl_mtxgen_stats s;
    char err[ERR_CAP];
    ck_assert_msg(pl_mtx_parse(text, sizeof text - 1, "s", &m, err, sizeof err) == 0, "%s", err);
    pl_mtxgen_stats_of(&m, &s);
    ck_assert(s.rows == 4 && s.cols == 6 && s.nnz == 4 && s.mean_row == 1.0);
    ck_assert(s.min_row == 0 && s.max_row == 2 && s.empty_rows == 1 && s.bandwidth == 5);
    pl_csr_free(&m);
}
END_TEST

/* -------------------------------------------------------------- limits */

/* 10^7 entries in a child: made within 10 s (a few tenths on 2 cores when
   nothing else runs), peak memory within 10 % + 32 MiB of the matrix's
   8 bytes a row and 12 an entry. fem and powerlaw. */
START_TEST(ten_million_entries_fast_and_lean)
{
    if (UNDER_ASAN)
        return;
    static const pl_mtxgen_params cases[] = {
        {"fem", 312500, 312500, 10000000, -1},
        {"powerlaw", 2500000, 2500000, 10000000, -1},
    };
    const pl_mtxgen_params *p = &cases[_i];
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        pl_csr m;
        char err[ERR_CAP];
        double t0 = now();
        if (pl_mtxgen_make(p, 1, &m, err, sizeof err))
            _exit(10);
        double t = now() - t0;
        getrusage(RUSAGE_SELF, &after);
        double kib = (double)(after.ru_maxrss - before.ru_maxrss), need = (8.0 * (double)m.rows + 12.0 * (double)m.nnz) / 1024;
        printf("%s: %ld entries in %.2f s with %d threads, peak %.0f MiB for a %.0f MiB matrix\n", p->family, m.nnz, t,
               omp_get_max_threads(), kib / 1024, need / 1024);
        fflush(stdout);
        if (t > 10)
            _exit(11);
        if (kib > 1.1 * need + 32 * 1024)
            _exit(12);
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child status %d (10: refused, 11: slow, 12: memory)",
                  WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
}
END_TEST

/* Runs cmd (a shell line) with stdout and stderr into *out (allocated);
   returns its exit status. */
static int run(const char *cmd, char **out)
{
    char line[1024];
    size_t n = 0, cap = 1 << 16;
    *out = calloc(cap, 1);
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    ck_assert_ptr_nonnull(p);
    while (fgets(line, sizeof line, p)) {
        size_t k = strlen(line);
        if (n + k + 1 > cap)
            *out = realloc(*out, cap *= 2);
        memcpy(*out + n, line, k + 1);
        n += k;
    }
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(cli_lines_and_status)
{
    if (access("build/mtx-gen", X_OK) != 0) {
        printf("SKIP: build/mtx-gen is not built (make build/mtx-gen); not counted as passed\n");
        return;
    }
    char *out, cmd[1024], err[ERR_CAP];
    ck_assert_int_eq(run("build/mtx-gen --list", &out), 0);
    for (int i = 0; i < pl_mtxgen_npresets; i++) {
        char want[128];
        snprintf(want, sizeof want, "\npreset\t%s\t%s\t", pl_mtxgen_presets[i].name, pl_mtxgen_presets[i].family);
        ck_assert_msg(strstr(out, want) != NULL, "--list has no %s", pl_mtxgen_presets[i].name);
    }
    free(out);

    snprintf(cmd, sizeof cmd, "build/mtx-gen cant --scale 0.01 --seed 0x2a --out %s/cli.mtx", tmpdir);
    ck_assert_int_eq(run(cmd, &out), 0);
    ck_assert_msg(!strncmp(out, "name=cant\tfamily=fem\trows=620\tcols=620\tnnz=", 43) && strstr(out, "\tseed=42\t") &&
                      strstr(out, "\tout=") && strchr(out, '\n') == out + strlen(out) - 1,
                  "%s", out);
    free(out);
    pl_csr a, b;
    snprintf(cmd, sizeof cmd, "%s/cli.mtx", tmpdir);
    ck_assert_msg(pl_mtx_read(cmd, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(pl_mtxgen_preset("cant-like", 0.01, 42, &b, err, sizeof err), 0);
    ck_assert_msg(same_csr(&a, &b), "the CLI's file is not the library's matrix");
    pl_csr_free(&a);
    pl_csr_free(&b);

    static const struct {
        const char *args, *err;
    } bad[] = {
        {"", NULL},
        {"fern --rows 5", "mtx-gen: neither a family nor a preset (mtx-gen --list): 'fern'\n"},
        {"fem", "mtx-gen: a family needs --rows: 'fem'\n"},
        {"fem --rows", "mtx-gen: missing value after '--rows'\n"},
        {"fem --rows 1x", "mtx-gen: not a count (a whole number, 0 or more): '1x'\n"},
        {"fem --rows -3", "mtx-gen: not a count (a whole number, 0 or more): '-3'\n"},
        {"fem --rows 10 --cols 12", "mtx-gen: fem: makes square matrices, not 10 x 12\n"},
        {"cant --scale 0", "mtx-gen: scale 0 is out of range: more than 0, at most 1000\n"},
        {"cant --seed x", "mtx-gen: not a seed (decimal or 0x hex): 'x'\n"},
        {"cant --frobnicate 1", "mtx-gen: unknown option (mtx-gen --help): '--frobnicate'\n"},
        {"cant rail4284", "mtx-gen: more than one FAMILY or PRESET: 'rail4284'\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "build/mtx-gen %s", bad[i].args);
        ck_assert_msg(run(cmd, &out) == 2, "%s: not status 2", cmd);
        if (bad[i].err)
            ck_assert_str_eq(out, bad[i].err);
        free(out);
    }
    ck_assert_int_eq(run("build/mtx-gen uniform --rows 10 --out /nonexistent-dir/x.mtx", &out), 1);
    ck_assert_msg(!strncmp(out, "mtx-gen: /nonexistent-dir/x.mtx: cannot open for writing", 56), "%s", out);
    free(out);
}
END_TEST

/* harness/matrices.sh with no way to the collection: one line, status 1,
   nothing made; and, with curl, the whole path from a file:// copy of the
   collection's layout (a real file kept and checked, a complex one kept as
   its real part, a malformed one refused and removed, a present one
   skipped, dense2 never downloaded). */
START_TEST(matrices_script)
{
    if (access("build/mtx-gen", X_OK) || access("build/mtx-check", X_OK)) {
        printf("SKIP: build/mtx-gen or build/mtx-check is not built; not counted as passed\n");
        return;
    }
    char cmd[2048], *out, err[ERR_CAP];
    snprintf(cmd, sizeof cmd,
             "MATRICES_URL=http://127.0.0.1:9/MM PROBE_TIMEOUT=3 MATRICES_DIR=%s/none NAMES='cant rail4284' "
             "harness/matrices.sh",
             tmpdir);
    ck_assert_int_eq(run(cmd, &out), 1);
    ck_assert_str_eq(out, "make matrices: cannot reach 127.0.0.1:9 (no internet here?): nothing downloaded; the tests "
                          "use ../shared/matrices and the synthetic families instead\n");
    free(out);
    snprintf(cmd, sizeof cmd, "%s/none", tmpdir);
    ck_assert_msg(access(cmd, F_OK) != 0, "%s made", cmd);
    ck_assert_int_eq(run("NAMES='cant nope' harness/matrices.sh", &out), 2);
    ck_assert_msg(!strncmp(out, "make matrices: unknown matrix 'nope': one of dense2 cant ", 57), "%s", out);
    free(out);

    if (run("command -v curl", &out) != 0) {
        free(out);
        printf("SKIP: matrices.sh from file:// needs curl; not counted as passed\n");
        return;
    }
    free(out);
    /* the collection's layout: MM/<group>/<name>.tar.gz holding <name>/<name>.mtx */
    pl_csr cant;
    ck_assert_int_eq(pl_mtxgen_preset("cant-like", 0.01, 3, &cant, err, sizeof err), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir -p src/Williams src/QCD src/Hamm w/cant w/conf5_4-8x8-05 w/scircuit && "
             "printf '%%%%%%%%MatrixMarket matrix coordinate complex hermitian\\n3 3 2\\n1 1 1.5 0\\n3 2 -0.25 7\\n' "
             ">w/conf5_4-8x8-05/conf5_4-8x8-05.mtx && "
             "printf '%%%%%%%%MatrixMarket matrix coordinate real general\\n2 2 2\\n1 1 1\\n1 1 2\\n' >w/scircuit/scircuit.mtx",
             tmpdir);
    ck_assert_int_eq(run(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, "%s/w/cant/cant.mtx", tmpdir);
    ck_assert_int_eq(pl_mtx_write(cmd, &cant, err, sizeof err), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s/w && tar czf ../src/Williams/cant.tar.gz cant && tar czf ../src/QCD/conf5_4-8x8-05.tar.gz "
             "conf5_4-8x8-05 && tar czf ../src/Hamm/scircuit.tar.gz scircuit",
             tmpdir);
    ck_assert_int_eq(run(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd,
             "MATRICES_URL=file://%s/src MATRICES_DIR=%s/m NAMES='cant qcd5_4 scircuit' harness/matrices.sh", tmpdir,
             tmpdir);
    ck_assert_int_eq(run(cmd, &out), 1);
    char want[512];
    snprintf(want, sizeof want, "%s/m/cant/cant.mtx\t620\t620\t%ld\t%ld\treal\tgeneral\n", tmpdir, cant.nnz, cant.nnz);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    snprintf(want, sizeof want, "%s/m/qcd5_4/qcd5_4.mtx\t3\t3\t3\t2\treal\tsymmetric\n", tmpdir);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    ck_assert_msg(strstr(out, "make matrices: scircuit: refused by the reader, not kept: scircuit/scircuit.mtx:4: "
                              "duplicate entry (1, 1): also on line 3\n") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "make matrices: 2 of 3 matrices in ") != NULL, "%s", out);
    free(out);
    pl_csr back;
    snprintf(cmd, sizeof cmd, "%s/m/cant/cant.mtx", tmpdir);
    ck_assert_msg(pl_mtx_read(cmd, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(same_csr(&cant, &back), "cant: downloaded, another matrix");
    pl_csr_free(&back);
    snprintf(cmd, sizeof cmd, "%s/m/qcd5_4/qcd5_4.mtx", tmpdir);
    ck_assert_msg(pl_mtx_read(cmd, &back, err, sizeof err) == 0, "%s", err);
    ck_assert(back.val[0] == 1.5 && back.val[1] == -0.25 && back.val[2] == -0.25);
    pl_csr_free(&back);
    snprintf(cmd, sizeof cmd, "%s/m/scircuit", tmpdir);
    ck_assert_msg(access(cmd, F_OK) != 0, "%s kept", cmd);

    /* again: cant present (even with the source gone), nothing fetched */
    snprintf(cmd, sizeof cmd, "rm %s/src/Williams/cant.tar.gz && MATRICES_URL=file://%s/src MATRICES_DIR=%s/m NAMES=cant "
             "harness/matrices.sh", tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(run(cmd, &out), 0);
    snprintf(want, sizeof want, "make matrices: cant: present, %s/m/cant/cant.mtx\n", tmpdir);
    ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
    ck_assert_msg(strstr(out, "build/solutions/lab06 run --matrix ") != NULL, "%s", out);
    free(out);
    pl_csr_free(&cant);
}
END_TEST

/* ---------------------------------------------------------------- suite */

Suite *check_suite(void)
{
    Suite *s = suite_create("mtxgen");
    TCase *t = tcase_create("families");
    tcase_add_loop_test(t, family_is_valid_with_its_character, 0, NFAMILY_CASES);
    tcase_add_test(t, every_family_listed_and_made);
    tcase_add_loop_test(t, preset_at_small_scale, 0, pl_mtxgen_npresets);
    tcase_add_test(t, preset_table_is_the_papers);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("core");
    tcase_add_loop_test(t, same_seed_same_matrix_any_threads, 0, NFAMILY_CASES);
    tcase_add_loop_test(t, write_then_read_is_bit_exact, 0, NFAMILY_CASES);
    tcase_add_test(t, write_any_csr);
    tcase_add_loop_test(t, refused_with_one_line, 0, NERROR_CASES);
    tcase_add_test(t, presets_and_scales_refused);
    tcase_add_test(t, edge_sizes);
    tcase_add_test(t, stats_of_a_small_matrix);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);

    t = tcase_create("limits");
    tcase_add_test(t, out_of_memory_refused);
    tcase_add_loop_test(t, ten_million_entries_fast_and_lean, 0, 2);
    tcase_add_test(t, cli_lines_and_status);
    tcase_add_test(t, matrices_script);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    return s;
}

/* A scratch folder for the suite, removed after it. */
int check_setup(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("test_mtxgen: mkdtemp");
        return EXIT_FAILURE;
    }
    return CHECK_RUN;
}

void check_teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_mtxgen: cannot remove %s\n", tmpdir);
}
