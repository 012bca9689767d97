/* tests/unit/test_alg_rows.c: Check tests of the algorithms' roofs of a
 * lab's rows (harness/parent/alg_rows.h) on a lab table of its own: which
 * formula a row is timed against, the formulas' comment lines, and the two
 * columns added to data files written before them (`labNN roofs --in`),
 * on the exact text: the columns worked by hand, every other byte kept,
 * the refusals (nothing written), and a second run refused. The labs'
 * own tables are run on old files by tests/unit/test_roofs.sh. */
#define _GNU_SOURCE
#include "../../harness/parent/alg_rows.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- the lab */

/* s: a scan, reduce-then-scan (3n words) against CUB's one pass (2n);
   m: a matrix case (labels), 4 (param + 1) bytes an element against
   cuSPARSE's 8; x: shared memory only, no formula and no vendor. */
static double m_alg(long n, double param) { return 4.0 * (double)n * (param + 1); }
static double m_vendor(long n, double param) { return (void)param, 8.0 * (double)n; }
static const char *const m_labels[] = {"uniform", "fem"};
static const double m_values[] = {0, 1};
static const pl_part part_s = {.id = "s", .bench = 1, .vendor = 1, .alg = PL_ALG_REDUCE_THEN_SCAN,
                               .vendor_alg = PL_ALG_CUB_SCAN};
static const pl_part part_m = {.id = "m", .bench = 1, .vendor = 1, .vendor_name = "cusparse",
                               .alg = {m_alg, "4 (param + 1) bytes an element"},
                               .vendor_alg = {m_vendor, "8 bytes an element"},
                               .params = {.name = "matrix", .values = m_values, .n = 2, .labels = m_labels}};
static const pl_part part_x = {.id = "x", .bench = 1, .roof = PL_ROOF_SMEM};
static const pl_part *const parts[] = {&part_s, &part_m, &part_x};
static const pl_lab lab99 = {.id = "99", .name = "test", .parts = parts, .nparts = 3};

/* A lab whose own command writes a param that is not the part's: its
   rows' bytes are the lab's (1000 a unit of n, whatever the label). */
static double hooked_bytes(const pl_part *p, const pl_alg *a, long n, double param, const char *label)
{
    (void)p, (void)a, (void)param, (void)label;
    return 1000.0 * (double)n;
}
static const pl_lab hooked = {.id = "99", .name = "test", .parts = parts, .nparts = 3, .row_alg_bytes = hooked_bytes};

#define DATE "2026-01-01T00:00:00Z"
#define BY "lab99 roofs --in"
#define DERIVED                                                                                                     \
    "# derived: alg_bytes and pct_alg added " DATE " by " BY ", from each row's own time_ms, copy_gbps, n and "      \
    "param and its part's formula (the alg_ lines); the rows were not measured again\n"

/* pl_alg_derive of text into a string (NULL after a refusal, with err). */
static char *derive(const pl_lab *lab, const char *text, char *err, size_t cap)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    int rc = pl_alg_derive(lab, text, strlen(text), BY, DATE, f, err, cap);
    fclose(f);
    if (rc == 0)
        return buf;
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(len == 0, "a refusal wrote %zu bytes: '%s'", len, buf);
    free(buf);
    return NULL;
}

/* ------------------------------------------------------------- kinds */

static const struct {
    const pl_part *part;
    const char *variant;
    int kind;
} kinds[] = {
    {&part_s, "cpu_serial", PL_ROW_CPU},       {&part_s, "cpu_omp", PL_ROW_CPU},
    {&part_s, "cub", PL_ROW_VENDOR},           {&part_s, "solution", PL_ROW_CODE},
    {&part_s, "student", PL_ROW_CODE},         {&part_s, "solution 2 lanes", PL_ROW_CODE}, /* lab 07's table */
    {&part_s, "solutions", PL_ROW_UNKNOWN},    {&part_s, "cusparse", PL_ROW_UNKNOWN},
    {&part_m, "cusparse", PL_ROW_VENDOR},      {&part_m, "cub", PL_ROW_UNKNOWN}, /* its vendor is cuSPARSE */
    {&part_x, "cub", PL_ROW_UNKNOWN},          {&part_x, "solution", PL_ROW_CODE}, /* no vendor */
    {&part_s, "", PL_ROW_UNKNOWN},
};

START_TEST(row_kinds)
{
    ck_assert_msg(pl_row_kind(kinds[_i].part, kinds[_i].variant) == kinds[_i].kind, "part %s, '%s': %d, want %d",
                  kinds[_i].part->id, kinds[_i].variant, pl_row_kind(kinds[_i].part, kinds[_i].variant),
                  kinds[_i].kind);
}
END_TEST

/* The bytes: the code's formula, the vendor's, none on the CPU or for a
   row that did not run on the GPU; the lab's own where it has one. */
START_TEST(row_bytes)
{
    long n = 1L << 24;
    ck_assert_double_eq(pl_row_alg_bytes(&lab99, &part_s, PL_ROW_CODE, 1, n, NAN, NULL), 12.0 * n);
    ck_assert_double_eq(pl_row_alg_bytes(&lab99, &part_s, PL_ROW_VENDOR, 1, n, NAN, NULL), 8.0 * n);
    ck_assert_double_eq(pl_row_alg_bytes(&lab99, &part_s, PL_ROW_CPU, 1, n, NAN, NULL), 0);
    ck_assert_double_eq(pl_row_alg_bytes(&lab99, &part_s, PL_ROW_CODE, 0, n, NAN, NULL), 0);
    ck_assert_double_eq(pl_row_alg_bytes(&lab99, &part_m, PL_ROW_CODE, 1, 1000, 1, "fem"), 8000);
    ck_assert_double_eq(pl_row_alg_bytes(&lab99, &part_x, PL_ROW_CODE, 1, n, NAN, NULL), 0);
    ck_assert_double_eq(pl_row_alg_bytes(&hooked, &part_m, PL_ROW_CODE, 1, 1000, 27.5, "cant"), 1e6);
    ck_assert_double_eq(pl_row_alg_bytes(&hooked, &part_m, PL_ROW_CPU, 1, 1000, 27.5, "cant"), 0);
}
END_TEST

/* ------------------------------------------------------------- notes */

START_TEST(notes)
{
    char buf[512] = "";
    size_t len = 0;
    pl_alg_notes(&part_s, PL_NOTE_CODE | PL_NOTE_VENDOR, buf, sizeof buf, &len);
    pl_alg_notes(&part_m, PL_NOTE_VENDOR, buf, sizeof buf, &len);
    pl_alg_notes(&part_x, PL_NOTE_CODE | PL_NOTE_VENDOR, buf, sizeof buf, &len); /* states none */
    ck_assert_str_eq(buf, "# alg_s: 3n words: the input read twice (reduce, then scan), the output written once\n"
                          "# alg_s_cub: 2n words: one pass (decoupled look-back)\n"
                          "# alg_m_cusparse: 8 bytes an element\n");
    ck_assert_uint_eq(len, strlen(buf));
    /* a line that does not fit is left out whole; a shorter one after it still goes */
    char small[64] = "";
    len = 0;
    pl_alg_notes(&part_s, PL_NOTE_CODE | PL_NOTE_VENDOR, small, sizeof small, &len);
    ck_assert_str_eq(small, "# alg_s_cub: 2n words: one pass (decoupled look-back)\n");
    ck_assert_uint_eq(len, strlen(small));
}
END_TEST

/* ------------------------------------------------------------- derive */

/* The older column sets of the committed sweeps: lab 01's ended after
   device. Copy 4000 GB/s, n = 2^24: CUB's 2n words (134217728 B) take
   33.554 us, 67.11 % of 0.05 ms; the code's 3n (201326592 B) 50.33 % of
   0.1 ms; the CPU's row none. */
#define OLD_HEAD "# primlab benchmark rows\n# device: Test GPU\n# copy_gbps: 4000.0\n"
#define OLD_COLS "lab\tpart\tvariant\tn\treps\ttime_ms\tgbps\tpct_copy\tcopy_gbps\tx_serial\tx_omp\tx_vendor\tdevice"
#define OLD_CPU "99\ts\tcpu_serial\t16777216\t10\t20.000000\t6.71\tnan\t4000.0\t1.000\tnan\t0.003\tTest GPU"
#define OLD_CUB "99\ts\tcub\t16777216\t10\t0.050000\t2684.35\t67.11\t4000.0\t400.000\tnan\t1.000\tTest GPU"
#define OLD_SOL "99\ts\tsolution\t16777216\t10\t0.100000\t1342.18\t33.55\t4000.0\t200.000\tnan\t0.500\tTest GPU"
static const char old13[] = OLD_HEAD OLD_COLS "\n" OLD_CPU "\n" OLD_CUB "\n" OLD_SOL "\n";
#define S_NOTES                                                                                                    \
    "# alg_s: 3n words: the input read twice (reduce, then scan), the output written once\n"                       \
    "# alg_s_cub: 2n words: one pass (decoupled look-back)\n"

START_TEST(old_columns)
{
    char err[256];
    char *got = derive(&lab99, old13, err, sizeof err);
    ck_assert_msg(got != NULL, "refused: %s", err);
    ck_assert_str_eq(got, OLD_HEAD S_NOTES DERIVED OLD_COLS "\talg_bytes\tpct_alg\n" OLD_CPU "\tnan\tnan\n" OLD_CUB
                          "\t134217728\t67.11\n" OLD_SOL "\t201326592\t50.33\n");
    /* a second run refuses: the columns are there; the first's text stands */
    char *again = derive(&lab99, got, err, sizeof err);
    ck_assert_ptr_null(again);
    ck_assert_msg(strstr(err, "line 7: it has the columns alg_bytes and pct_alg already"), "%s", err);
    free(got);
}
END_TEST

/* A parameter with names, the roof column, a comment after the header, a
   last line without its newline. Copy 4000 GB/s, a million elements of
   "fem" (1): the code's 8 MB in 0.004 ms is 50 %, cuSPARSE's 8 MB in 0.002
   ms 100 %; the code's OpenMP row (roof nan, as lab 07's part a) and the
   CPU's have none, and so has part x, which states no formula. */
#define P_COLS "lab\tpart\tvariant\tn\ttime_ms\tcopy_gbps\tparam\troof\tparam_label"
#define P_VEN "99\tm\tcusparse\t1000000\t0.002000\t4000.0\t1\tcopy\tfem"
#define P_SOL "99\tm\tsolution\t1000000\t0.004000\t4000.0\t1\tcopy\tfem"
#define P_OMP "99\tm\tsolution 4 threads\t1000000\t0.400000\t4000.0\t1\tnan\tfem"
#define P_SMEM "99\tx\tsolution\t64\t0.010000\t4000.0\tnan\tsmem\tnan"
#define P_CPU "99\tm\tcpu_omp\t1000000\t1.000000\t4000.0\t0\tnan\tuniform"
static const char named[] = "# device: Test GPU\n" P_COLS "\n# a note after the header\n" P_VEN "\n" P_SOL
                            "\n\n" P_OMP "\n" P_SMEM "\n" P_CPU;

START_TEST(named_params)
{
    char err[256];
    char *got = derive(&lab99, named, err, sizeof err);
    ck_assert_msg(got != NULL, "refused: %s", err);
    ck_assert_str_eq(got, "# device: Test GPU\n# alg_m: 4 (param + 1) bytes an element\n"
                          "# alg_m_cusparse: 8 bytes an element\n" DERIVED P_COLS "\talg_bytes\tpct_alg\n"
                          "# a note after the header\n" P_VEN "\t8000000\t100.00\n" P_SOL "\t8000000\t50.00\n\n" P_OMP
                          "\tnan\tnan\n" P_SMEM "\tnan\tnan\n" P_CPU "\tnan\tnan");
    free(got);
    /* the lab's own bytes where it has them: its names need not be the table's */
    char *own = derive(&hooked, "# x\n" P_COLS "\n99\tm\tsolution\t1000\t0.001000\t4000.0\t27.5\tcopy\tcant\n", err,
                       sizeof err);
    ck_assert_msg(own != NULL, "refused: %s", err);
    ck_assert_ptr_nonnull(strstr(own, "\tcant\t1000000\t25.00\n")); /* 1 MB at 4000 GB/s: 0.25 us of 1 us */
    free(own);
}
END_TEST

/* A formula line the file has already is not written again. */
START_TEST(notes_not_twice)
{
    char err[256];
    char *got = derive(&lab99, "# alg_s_cub: 2n words: one pass (decoupled look-back)\n" OLD_COLS "\n" OLD_CUB "\n",
                       err, sizeof err);
    ck_assert_msg(got != NULL, "refused: %s", err);
    ck_assert_str_eq(got, "# alg_s_cub: 2n words: one pass (decoupled look-back)\n" DERIVED OLD_COLS
                          "\talg_bytes\tpct_alg\n" OLD_CUB "\t134217728\t67.11\n");
    free(got);
}
END_TEST

/* What the table cannot read as its writer meant: refused, nothing written. */
static const struct {
    const char *text, *why;
} refusals[] = {
    {"# only comments\n\n", "no header line"},
    {"lab\tpart\tvariant\tn\tcopy_gbps\n", "line 1: no column 'time_ms' in the header"},
    {P_COLS "\talg_bytes\tpct_alg\n", "line 1: it has the columns alg_bytes and pct_alg already"},
    {OLD_COLS "\n01\ts\tcub\t16\t10\t1\t1\t1\t4000.0\t1\t1\t1\tGPU\n", "line 2: a row of lab '01': this is lab 99's"},
    {OLD_COLS "\n99\tq\tcub\t16\t10\t1\t1\t1\t4000.0\t1\t1\t1\tGPU\n", "line 2: lab 99 has no part 'q'"},
    {OLD_COLS "\n99\ts\tthrust\t16\t10\t1\t1\t1\t4000.0\t1\t1\t1\tGPU\n", "line 2: part s has no variant 'thrust'"},
    {OLD_COLS "\n99\tx\tcub\t16\t10\t1\t1\t1\t4000.0\t1\t1\t1\tGPU\n", "line 2: part x has no variant 'cub'"},
    {OLD_COLS "\n99\ts\tcub\t16x\t10\t1\t1\t1\t4000.0\t1\t1\t1\tGPU\n", "line 2: n '16x' is no size"},
    {OLD_COLS "\n99\ts\tcub\t16\t10\tfast\t1\t1\t4000.0\t1\t1\t1\tGPU\n", "line 2: time_ms, copy_gbps or param"},
    {OLD_COLS "\n" OLD_CUB "\n99\ts\tcub\t16\t10\t1\tGPU\n", "line 3: 7 fields, the header has 13"},
    {P_COLS "\n99\tm\tsolution\t1000\t0.1\t4000.0\tnan\tcopy\tfem\n", "line 2: part m takes a parameter (matrix)"},
    {P_COLS "\n99\tm\tsolution\t1000\t0.1\t4000.0\t1\tcopy\tuniform\n",
     "line 2: part m's parameter 1 is not 'uniform' in lab 99's table"},
    {P_COLS "\n99\tm\tsolution\t1000\t0.1\t4000.0\t7\tcopy\tfem\n", "line 2: part m's parameter 7 is not 'fem'"},
    {P_COLS "\n99\tm\tcpu_serial\t1000\t0.1\t4000.0\t1\tcopy\tfem\n", "line 2: a CPU row (cpu_serial) with a GPU's roof"},
};

START_TEST(refused)
{
    char err[256] = "";
    ck_assert_ptr_null(derive(&lab99, refusals[_i].text, err, sizeof err));
    ck_assert_msg(strstr(err, refusals[_i].why), "refusal %d: '%s', want '%s'", _i, err, refusals[_i].why);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("alg_rows");
    TCase *core = tcase_create("core");
    tcase_add_loop_test(core, row_kinds, 0, sizeof kinds / sizeof kinds[0]);
    tcase_add_test(core, row_bytes);
    tcase_add_test(core, notes);
    tcase_add_test(core, old_columns);
    tcase_add_test(core, named_params);
    tcase_add_test(core, notes_not_twice);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_loop_test(limits, refused, 0, sizeof refusals / sizeof refusals[0]);
    suite_add_tcase(s, limits);
    return s;
}
