/* harness/parent/labs/lab07.c: the lab table entry of lab 07, the segmented
 * SpMV-scan. Parts, yardsticks, sizes and points live here only; the
 * worker's side is harness/worker/labs/lab07.cu.
 *
 * The size is n, the entries; the parameter a case (cases[]): a family of
 * row lengths with its mean, the iterations, and part b's working lanes or
 * part a's threads. The rows depend on (n, case) only, so that the input's
 * length is known before it is made (input_words); the values, the columns
 * and x come from the test's seed. Every row holds at least one entry, as
 * the contract asks. cols = n, so that x[l] exists for every l and the
 * mistake "x[l] for x[k[l]]" can be named.
 *
 * Each a[j] is judged against kernels_ref/cpu/segscan.h's reference in
 * double within the running error bound computed there; the known
 * mistakes (an exclusive scan, rows not restarted, the gather skipped, a
 * carry dropped between blocks, an iteration too few or too many) are
 * computed the same way and named when every wrong element matches one. */
#include "../../../kernels_ref/cpu/segscan.h"
#include "../../worker/labs/lab07_seg.h"
#include "../../../labs/07-segmented-spmv/segmented_spmv.h"
#include "../diagnose.h"
#include "../lab.h"
#include "../mtx.h"
#include "../rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- cases */

enum family { F_UNIFORM, F_FEM, F_POWERLAW, F_SINGLE, F_ONES, F_LONG, F_FILE };

typedef struct seg_case {
    const char *label; /* the test's name: "powerlaw 2 lanes" (no commas: --param splits at them) */
    int family;
    double mean;       /* entries per row */
    int iters, lanes, threads;
} seg_case;

static const seg_case cases[] = {
    {"uniform", F_UNIFORM, 8, 1, 32, 4},
    {"fem", F_FEM, 27, 2, 32, 4},
    {"powerlaw", F_POWERLAW, 3, 1, 32, 4},
    {"one row", F_SINGLE, 0, 2, 32, 4},
    {"ones", F_ONES, 1, 3, 32, 4},
    {"long rows", F_LONG, 4000, 1, 32, 4},
    {"uniform 1 lane", F_UNIFORM, 8, 1, 1, 4},
    {"powerlaw 2 lanes", F_POWERLAW, 3, 2, 2, 4},
    {"uniform 1 thread", F_UNIFORM, 8, 1, 32, 1},
    {"powerlaw 2 threads", F_POWERLAW, 3, 1, 32, 2},
    {"fem 8 threads", F_FEM, 27, 2, 32, 8},
    {"fem 10 iterations", F_FEM, 27, 10, 32, 4},
    {"long rows 1 lane", F_LONG, 4000, 1, 1, 4},
    {"file", F_FILE, 0, 1, 32, 4}, /* run --matrix FILE */
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
#define CASE_UNIFORM 0
#define CASE_POWERLAW 2
#define CASE_FILE (NCASES - 1)
static const char *case_labels[NCASES];
static const double a_params[] = {8, 9, 10, 3, 4, 11};
static const double b_params[] = {0, 1, 2, 3, 4, 5, 6, 7};
static const double cd_params[] = {0, 1, 2, 3, 4, 5, 11};

static const long test_sizes[] = {0, 1, 31, 33, 1000, 1025, 65537, 3L << 16, 262147, (1L << 22) + 6};
static const long bench_sizes[] = {1L << 20, 1L << 22, 1L << 24};

static const seg_case *case_of(double param)
{
    int k = isnan(param) ? CASE_UNIFORM : (int)param;
    return &cases[k >= 0 && k < NCASES ? k : CASE_UNIFORM];
}

/* A problem's rows: s[0 .. rows] over n entries, x of cols values; a
   file's columns and values too (NULL: the seed's). */
typedef struct seg_shape {
    long n, rows, cols;
    int family;
    double mean;
    int *s, *k;
    float *val;
} seg_shape;

/* The rows of the last (n, family) asked for, kept for the tests of one
   size and family (the input's length first, then the input); and the
   matrix of `run --matrix FILE`, its empty rows dropped. */
static seg_shape gen = {.n = -1}, file_m = {.n = -1};

static long row_length(pl_rng *r, int family, double mean, long left)
{
    long len;
    switch (family) {
    case F_UNIFORM: len = 1 + (long)pl_rng_range(r, 0, 2 * (int64_t)mean - 2); break;
    case F_FEM: len = (long)mean - 4 + (long)pl_rng_range(r, 0, 8); break;
    case F_POWERLAW: { /* Pareto with alpha 1.5 above 1, mean about 3 */
        double u = ((double)(pl_rng_next(r) >> 11) + 1) * 0x1p-53;
        double v = pow(u, -1 / 1.5);
        len = v > 1e9 ? 1000000000L : (long)v;
        break;
    }
    case F_LONG: len = (long)(mean / 2) + (long)pl_rng_range(r, 0, (int64_t)mean); break;
    default: len = 1;
    }
    len = len < 1 ? 1 : len;
    return len < left ? len : left;
}

/* The shape of (n, case), or NULL (a file's size that is not the file's). */
static const seg_shape *structure(long n, double param)
{
    const seg_case *c = case_of(param);
    if (c->family == F_FILE)
        return file_m.n == n ? &file_m : NULL;
    if (gen.n == n && gen.family == c->family && gen.mean == c->mean)
        return &gen;
    free(gen.s);
    gen.n = -1;
    long cap = c->family == F_SINGLE ? 2 : n + 1;
    gen.s = malloc((size_t)(cap > 1 ? cap : 1) * sizeof *gen.s);
    if (!gen.s)
        return NULL;
    pl_rng r;
    pl_rng_seed(&r, pl_seed_mix(0x736567ull, (uint64_t)n, (uint64_t)c->family * 1000003u + (uint64_t)c->mean));
    long rows = 0, at = 0;
    gen.s[0] = 0;
    while (at < n) {
        long len = c->family == F_SINGLE ? n : row_length(&r, c->family, c->mean, n - at);
        at += len;
        gen.s[++rows] = (int)at;
    }
    gen.n = n, gen.family = c->family, gen.mean = c->mean, gen.rows = rows, gen.cols = n;
    return &gen;
}

static long input_words(long n, double param)
{
    const seg_shape *sh = structure(n, param);
    return sh ? lab07_layout(sh->rows, sh->cols, n).words : LAB07_HEADER_WORDS; /* none: a header of zeros */
}

struct fill_ctx {
    int *k;
    float *a, *x;
    long cols;
    float xscale;
};
static void fill_k(pl_rng *r, size_t lo, size_t hi, void *p)
{
    const struct fill_ctx *c = p;
    for (size_t i = lo; i < hi; i++)
        c->k[i] = (int)pl_rng_range(r, 0, c->cols - 1);
}
/* a: k / 1024, k in +-[1, 1024] */
static void fill_a(pl_rng *r, size_t lo, size_t hi, void *p)
{
    const struct fill_ctx *c = p;
    for (size_t i = lo; i < hi; i++) {
        long v = 1 + (long)pl_rng_range(r, 0, 1023);
        c->a[i] = (float)((pl_rng_next(r) & 1) ? -v : v) / 1024;
    }
}
/* x: +-[1/2, 1] / sqrt(mean row length), so that a long row's prefix sums
   stay near the size of its values over a few iterations */
static void fill_x(pl_rng *r, size_t lo, size_t hi, void *p)
{
    const struct fill_ctx *c = p;
    for (size_t i = lo; i < hi; i++) {
        long v = 512 + (long)pl_rng_range(r, 0, 511);
        c->x[i] = (float)((pl_rng_next(r) & 1) ? -v : v) / 1024 * c->xscale;
    }
}

static void make_input(int *in, long n, double param, uint64_t seed)
{
    const seg_case *c = case_of(param);
    memset(in, 0, LAB07_HEADER_WORDS * sizeof *in);
    const seg_shape *sh = structure(n, param);
    if (!sh)
        return;
    lab07_at at = lab07_layout(sh->rows, sh->cols, n);
    memset(in, 0, (size_t)at.words * sizeof *in); /* the padding between the arrays */
    in[0] = (int)sh->rows, in[1] = (int)sh->cols, in[2] = (int)n, in[3] = c->iters, in[4] = c->lanes;
    in[5] = c->threads;
    memcpy(in + at.s, sh->s, (size_t)(sh->rows + 1) * sizeof *in);
    double mean = sh->rows ? (double)n / (double)sh->rows : 1;
    struct fill_ctx f = {in + at.k, (float *)(in + at.a), (float *)(in + at.x), sh->cols,
                         (float)(1 / sqrt(mean > 1 ? mean : 1))};
    if (sh->k) {
        memcpy(in + at.k, sh->k, (size_t)n * sizeof *in);
        memcpy(in + at.a, sh->val, (size_t)n * sizeof *in);
    } else {
        pl_gen_chunks((size_t)n, pl_seed_mix(seed, 0x6b, 0), fill_k, &f);
        pl_gen_chunks((size_t)n, seed, fill_a, &f);
    }
    pl_gen_chunks((size_t)sh->cols, pl_seed_mix(seed, 0x78, 0), fill_x, &f);
}

/* Graded timing patches a and x, never the rows or the columns. */
static void patch_span(const int *in, long n, double param, long *lo, long *hi)
{
    (void)n, (void)param;
    lab07_at at = lab07_layout(in[0], in[1], in[2]);
    *lo = at.a, *hi = at.words;
}

/* --------------------------------------------------------- reference */

typedef struct seg_view {
    long rows, cols, n;
    int iters;
    const int *s, *k;
    const float *a, *x;
} seg_view;

static seg_view view_of(const int *in)
{
    lab07_at at = lab07_layout(in[0], in[1], in[2]);
    seg_view v = {in[0], in[1], in[2], in[3], in + at.s, in + at.k, (const float *)(in + at.a),
                  (const float *)(in + at.x)};
    return v;
}

/* The known mistakes, computed like the reference (segscan.h), each with
   its own bound, and only when the result is wrong (more_suspects); only
   up to this many entries, to keep a large test's judging short. */
#define SUSPECTS_UP_TO (1L << 23)
static double *sus[PL_MAX_SUSPECTS], *sus_tol[PL_MAX_SUSPECTS];
static size_t sus_cap;
static char tile_what[4][80];
static seg_view judged; /* the input expect() was last given */

static int mistakes(pl_suspect *out, int cap)
{
    const seg_view v = judged;
    long n = v.n;
    if (n > SUSPECTS_UP_TO || cap > PL_MAX_SUSPECTS)
        return 0;
    if ((size_t)n > sus_cap) {
        sus_cap = (size_t)n;
        for (int i = 0; i < PL_MAX_SUSPECTS; i++) {
            free(sus[i]), free(sus_tol[i]);
            sus[i] = malloc((size_t)n * sizeof(double)), sus_tol[i] = malloc((size_t)n * sizeof(double));
            if (!sus[i] || !sus_tol[i])
                sus_cap = 0;
        }
        if (!sus_cap)
            return 0;
    }
    /* The op copies a into the output before the call: code that writes
       nothing leaves a there, no poison, so that is named first. */
    for (long j = 0; j < n; j++)
        sus[0][j] = v.a[j];
    out[0] = (pl_suspect){"not implemented yet: a came back as it went in (no iteration ran)", sus[0], NULL};
    int ns = 1;
    static const struct {
        int variant, diters;
        const char *what;
    } named[] = {
        {PL_SEG_EXCLUSIVE, 0, "an exclusive scan, not inclusive: each entry got the sum before it"},
        {PL_SEG_NO_RESTART, 0, "rows not restarted: the scan runs on across a row's start (a head flag ignored?)"},
        {PL_SEG_NO_GATHER, 0, "x[l] used where x[k[l]] belongs (the gather skipped?)"},
        {PL_SEG_RIGHT, -1, "one iteration too few"},
        {PL_SEG_RIGHT, +1, "one iteration too many"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0] && ns < cap; i++) {
        int it = v.iters + named[i].diters;
        if (it < 1 || (named[i].variant == PL_SEG_NO_RESTART && v.rows < 2))
            continue;
        pl_segspmv_ref(v.rows, v.s, v.k, v.x, v.cols, v.a, it, named[i].variant, 0, 1, sus[ns], sus_tol[ns]);
        out[ns] = (pl_suspect){named[i].what, sus[ns], sus_tol[ns]};
        ns++;
    }
    static const long tiles[] = {1024, 2048, 4096, 8192};
    for (int i = 0; i < 4 && ns < cap && n > tiles[i]; i++) {
        pl_segspmv_ref(v.rows, v.s, v.k, v.x, v.cols, v.a, v.iters, PL_SEG_TILE, tiles[i], 1, sus[ns], sus_tol[ns]);
        snprintf(tile_what[i], sizeof tile_what[i], "the carry dropped between blocks of %ld entries", tiles[i]);
        out[ns] = (pl_suspect){tile_what[i], sus[ns], sus_tol[ns]};
        ns++;
    }
    return ns;
}

static void expect(const int *in, long n, double param, double *want, double *tol, pl_cmp_real *c)
{
    (void)param;
    seg_view v = view_of(in);
    c->pos_name = NULL;
    c->nsuspects = 0;
    if (v.n != n || n == 0)
        return;
    pl_segspmv_ref(v.rows, v.s, v.k, v.x, v.cols, v.a, v.iters, PL_SEG_RIGHT, 0, 1, want, tol);
    judged = v;
    c->more_suspects = mistakes;
}
static long out_elems(long n) { return n; }
static const pl_real_check check = {PL_ELEM_F32, out_elems, expect};

/* ------------------------------------------------- CPU rows (timing) */

/* The plain loops in float: serial, and rows shared among OpenMP threads.
   out holds a; x[k] gathered once. */
static float *cpu_xb;
static size_t cpu_cap;
static void cpu_run(const int *in, int *out, size_t size, int parallel)
{
    seg_view v = view_of(in);
    long n = (long)size < v.n ? (long)size : v.n;
    float *a = (float *)out;
    if ((size_t)n > cpu_cap) {
        free(cpu_xb);
        cpu_xb = malloc((size_t)n * sizeof *cpu_xb);
        cpu_cap = cpu_xb ? (size_t)n : 0;
        if (!cpu_xb)
            return;
    }
#pragma omp parallel for schedule(static) if (parallel)
    for (long l = 0; l < n; l++)
        cpu_xb[l] = v.x[v.k[l]], a[l] = v.a[l];
    for (int t = 0; t < v.iters; t++) {
#pragma omp parallel for schedule(static) if (parallel)
        for (long l = 0; l < n; l++)
            a[l] *= cpu_xb[l];
#pragma omp parallel for schedule(dynamic, 64) if (parallel)
        for (long r = 0; r < v.rows; r++)
            for (long j = v.s[r] + 1; j < v.s[r + 1]; j++)
                a[j] += a[j - 1];
    }
}
static void cpu_seg(const int *in, int *out, size_t n) { cpu_run(in, out, n, 0); }
static void omp_seg(const int *in, int *out, size_t n) { cpu_run(in, out, n, 1); }

/* Bytes a call must move at least: the gather (k, x[k] and the gathered
   copy written), a copied into the output, each iteration a read and
   written and the gathered x read, and the row starts. */
static double bytes(long n, double param)
{
    const seg_shape *sh = structure(n, param);
    return sh ? (double)n * (12.0 + 8.0 + 12.0 * case_of(param)->iters) + 4.0 * (double)(sh->rows + 1) : 0;
}
static double flops(long n, double param) { return 2.0 * (double)n * case_of(param)->iters; }
static size_t scratch_ints(long words) { return (SS_SCRATCH_BYTES(words) + 3) / 4; }

#define SEG_COMMON .max_n = SS_MAX_N, .points = 1, .bench = 1, .vendor = 1, .cpu = cpu_seg, .omp = omp_seg,    \
                   .param_name = "matrix", .param_labels = case_labels, .nparam_labels = NCASES,               \
                   .input_words = input_words, .make_input = make_input, .patch_span = patch_span,             \
                   .out_len = out_elems, .bytes = bytes, .flops = flops, .real = &check,                       \
                   .vendor_name = "cub", .bench_param = CASE_UNIFORM
#define PARAMS(p) .params = p, .nparams = (int)(sizeof p / sizeof p[0])

static const pl_part parts[] = {
    {.id = "a", .title = "OpenMP on the CPU", .entry = "segspmv_omp", SEG_COMMON, PARAMS(a_params)},
    {.id = "b", .title = "naive GPU, a thread per row", .entry = "segspmv_naive", SEG_COMMON, PARAMS(b_params)},
    {.id = "c", .title = "intra-warp, a warp per row", .entry = "segspmv_warp", SEG_COMMON, PARAMS(cd_params)},
    {.id = "d", .title = "load-balanced segmented scan", .entry = "segspmv_flat", SEG_COMMON, PARAMS(cd_params)},
};

__attribute__((constructor)) static void name_cases(void)
{
    for (int k = 0; k < NCASES; k++)
        case_labels[k] = cases[k].label;
}

/* Performance: part d against CUB's InclusiveScanByKey, 2^24 entries (over
   10^7, as the issue asks), 10 iterations of FEM-like rows; and on power-law
   rows. Full marks within 1.5x of the vendor (0.67), none at 0.2x. */
static const pl_perf perf[] = {
    {.part = "d", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.67, .zero = 0.2, .param = 11},
    {.part = "d", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.67, .zero = 0.2,
     .param = CASE_POWERLAW},
};

static int load_matrix(const char *path, long *n, double *param, char *err, size_t cap)
{
    pl_csr m = {0};
    if (pl_mtx_read(path, &m, err, cap) != 0)
        return -1;
    if (m.nnz > SS_MAX_N || m.rows > SS_MAX_ROWS) {
        snprintf(err, cap, "%s: %ld rows and %ld entries, more than the contract's %d and %d", path, m.rows, m.nnz,
                 SS_MAX_ROWS, SS_MAX_N);
        pl_csr_free(&m);
        return -1;
    }
    free(file_m.s), free(file_m.k), free(file_m.val);
    file_m.n = -1;
    file_m.s = malloc(((size_t)m.rows + 1) * sizeof *file_m.s);
    file_m.k = malloc(((size_t)m.nnz + 1) * sizeof *file_m.k);
    file_m.val = malloc(((size_t)m.nnz + 1) * sizeof *file_m.val);
    if (!file_m.s || !file_m.k || !file_m.val) {
        snprintf(err, cap, "%s: out of memory", path);
        pl_csr_free(&m);
        return -1;
    }
    long rows = 0; /* the empty rows dropped: the contract has no empty segment */
    file_m.s[0] = 0;
    for (long r = 0; r < m.rows; r++)
        if (m.row_ptr[r + 1] > m.row_ptr[r])
            file_m.s[++rows] = (int)m.row_ptr[r + 1];
    for (long e = 0; e < m.nnz; e++)
        file_m.k[e] = m.col[e], file_m.val[e] = (float)m.val[e];
    file_m.n = m.nnz, file_m.rows = rows, file_m.cols = m.cols;
    pl_csr_free(&m);
    *n = file_m.n, *param = CASE_FILE;
    return 0;
}

static const pl_lab lab07 = {
    .id = "07",
    .name = "segmented-spmv",
    .title = "segmented SpMV-scan",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    .test_sizes = test_sizes,
    .ntest_sizes = sizeof test_sizes / sizeof test_sizes[0],
    .bench_sizes = bench_sizes,
    .nbench_sizes = sizeof bench_sizes / sizeof bench_sizes[0],
    .sweep_lo = 16,
    .sweep_hi = 26,
    .bytes_per_elem = 4,
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 2,
    .scratch_ints = scratch_ints,
    .load_matrix = load_matrix,
};

const pl_lab *pl_this_lab(void) { return &lab07; }
