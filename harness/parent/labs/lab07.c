/* harness/parent/labs/lab07.c: the lab table entry of lab 07, the segmented
 * SpMV-scan. Parts, yardsticks, sizes and points live here only; the
 * worker's side is harness/worker/labs/lab07.cu.
 *
 * The size is n, the entries; the parameter a case (cases[]): a family of
 * row lengths with its mean, the iterations, and part b's working lanes or
 * part a's threads. The rows depend on (n, case) only, so that the input's
 * length is known before it is made (the judge's input words); the values, the columns
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
#include "../../wire/lab07.h"
#include "../../../labs/07-segmented-spmv/segmented_spmv.h"
#include "../diagnose.h"
#include "../judges/real.h"
#include "../lab.h"
#include "../mtx.h"
#include "../mtxgen.h"
#include "../report.h"
#include "../rng.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------- cases */

enum family { F_UNIFORM, F_FEM, F_POWERLAW, F_SINGLE, F_ONES, F_LONG, F_FILE };

typedef struct seg_case {
    const char *label; /* the test's name: "powerlaw 2 lanes" (no commas: --param splits at them) */
    int family;
    double mean;       /* entries per row */
    int iters, lanes, threads;
} seg_case;

static seg_case cases[] = { /* not const: the file case's iterations, lanes and threads are table's */
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
/* a: k / 1024, k in +-[1, 1024]; the magnitude from a word's top ten
   bits, the sign from the next (one word a value: the input of lab 07's
   performance test, 2^24 entries and as many x, is made for each of its
   eight timed calls) */
static void fill_a(pl_rng *r, size_t lo, size_t hi, void *p)
{
    const struct fill_ctx *c = p;
    for (size_t i = lo; i < hi; i++) {
        uint64_t w = pl_rng_next(r);
        long v = 1 + (long)(w >> 54);
        c->a[i] = (float)((w >> 53) & 1 ? -v : v) / 1024;
    }
}
/* x: +-[1/2, 1] / sqrt(mean row length), so that a long row's prefix sums
   stay near the size of its values over a few iterations */
static void fill_x(pl_rng *r, size_t lo, size_t hi, void *p)
{
    const struct fill_ctx *c = p;
    for (size_t i = lo; i < hi; i++) {
        uint64_t w = pl_rng_next(r);
        long v = 512 + (long)(w >> 55);
        c->x[i] = (float)((w >> 54) & 1 ? -v : v) / 1024 * c->xscale;
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
    /* the padding between the arrays (each array is written whole below) */
    const long ends[4] = {LAB07_HEADER_WORDS, at.s + sh->rows + 1, at.k + n, at.a + n};
    const long next[4] = {at.s, at.k, at.a, at.x};
    for (int g = 0; g < 4; g++)
        memset(in + ends[g], 0, (size_t)(next[g] - ends[g]) * sizeof *in);
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

/* Suspect number k of the list (more_suspects): made into sus[k] when it
   is asked for, so that a stub's output, named by the first, costs no more. */
static int mistakes(pl_suspect *out, int k)
{
    const seg_view v = judged;
    long n = v.n;
    if (n > SUSPECTS_UP_TO || k < 0 || k >= PL_MAX_SUSPECTS)
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
    if (k == 0) {
        for (long j = 0; j < n; j++)
            sus[0][j] = v.a[j];
        out[0] = (pl_suspect){"not implemented yet: a came back as it went in (no iteration ran)", sus[0], NULL,
                              PL_F_NOT_IMPLEMENTED};
        return 1;
    }
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
    static const long tiles[] = {1024, 2048, 4096, 8192};
    int ns = 1; /* the list's number of the next one that applies */
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        int it = v.iters + named[i].diters;
        if (it < 1 || (named[i].variant == PL_SEG_NO_RESTART && v.rows < 2))
            continue;
        if (ns++ != k)
            continue;
        pl_segspmv_ref(v.rows, v.s, v.k, v.x, v.cols, v.a, it, named[i].variant, 0, 1, sus[k], sus_tol[k]);
        out[0] = (pl_suspect){named[i].what, sus[k], sus_tol[k], 0};
        return 1;
    }
    for (int i = 0; i < 4 && n > tiles[i]; i++) {
        if (ns++ != k)
            continue;
        pl_segspmv_ref(v.rows, v.s, v.k, v.x, v.cols, v.a, v.iters, PL_SEG_TILE, tiles[i], 1, sus[k], sus_tol[k]);
        snprintf(tile_what[i], sizeof tile_what[i], "the carry dropped between blocks of %ld entries", tiles[i]);
        out[0] = (pl_suspect){tile_what[i], sus[k], sus_tol[k], 0};
        return 1;
    }
    return 0;
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
/* The judge: a[] in float, each element within its running bound;
   graded timing patches a and x, never the rows or the columns. */
static const pl_real_judge seg_cfg = {{.words = input_words, .make = make_input, .span = patch_span}, PL_ELEM_F32,
                                      out_elems, expect};
static const pl_judge seg_judge = {&pl_real_kind, &seg_cfg};

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

/* The roofs (roofs.h, docs/roofs.md). Once per call, every part and CUB:
   a copied into the output (2n words: the harness's, before the call) and
   x[k] gathered (k and x[k] read, the gathered copy written: 3n).
   (b), (c): each iteration a read and written, the gathered x read (3n),
   and s read to find the rows (rows + 1).
   (d), the load-balanced scan (solutions/07-segmented-spmv): s read once
   to mark the heads; each iteration 3n and the heads, a bit an entry or
   the tile's part of s, whichever is fewer bytes; the tile reduce's reads
   from the tile's last head on are nearly nothing while rows are shorter
   than a tile, and are left out: a floor.
   CUB (kernels_ref/vendor/cub_segscan.cu): once, each entry's row number
   found in s and written as its key, beside the gather (4n and s); each
   iteration InclusiveScanByKey reads the keys, a and the gathered x and
   writes a (4n); after an odd number of iterations a copies back (2n). */
static double seg_rows(long n, double param)
{
    const seg_shape *sh = structure(n, param);
    return sh ? (double)sh->rows : -1;
}
static double rows_alg(long n, double param)
{
    double rows = seg_rows(n, param), it = case_of(param)->iters;
    return rows < 0 ? 0 : (double)n * (20.0 + 12.0 * it) + 4.0 * (rows + 1) * it;
}
static double flat_alg(long n, double param)
{
    double rows = seg_rows(n, param), it = case_of(param)->iters, heads = (double)n / 8;
    if (4.0 * (rows + 1) < heads)
        heads = 4.0 * (rows + 1);
    return rows < 0 ? 0 : (double)n * (20.0 + 12.0 * it) + 4.0 * (rows + 1) + heads * it;
}
static double cub_alg(long n, double param)
{
    double rows = seg_rows(n, param);
    int it = case_of(param)->iters;
    return rows < 0 ? 0 : (double)n * (24.0 + 16.0 * it + (it % 2 ? 8.0 : 0)) + 4.0 * (rows + 1);
}
#define ROWS_ROOF {rows_alg, "5n words once (a copied in, x[k] gathered), then 3n and s (rows + 1) an iteration"}
#define FLAT_ROOF                                                                                                  \
    {flat_alg, "5n words and s once (a copied in, x[k] gathered, heads marked), then 3n and the heads (n/32 "      \
               "words or s, the fewer) an iteration"}
#define CUB_ROOF                                                                                                   \
    {cub_alg, "6n words and s once (a copied in, x[k] gathered, a row key an entry), then 4n an iteration (keys, " \
              "a and x read, a written), 2n more after an odd count"}
static size_t scratch_ints(long words) { return (SS_SCRATCH_BYTES(words) + 3) / 4; }

#define SEG_COMMON .sizes = {.max = SS_MAX_N}, .points = 1, .bench = 1, .vendor = 1, .cpu = cpu_seg, .omp = omp_seg, \
                   .bytes = bytes, .flops = flops, .vendor_name = "cub", .vendor_alg = CUB_ROOF, .judge = &seg_judge
#define PARAMS(p)                                                                                                  \
    .params = {.name = "matrix", .values = p, .n = (int)(sizeof p / sizeof p[0]), .bench = CASE_UNIFORM,         \
               .labels = case_labels, .nlabels = NCASES}

static const pl_part part_a = {.id = "a", .title = "OpenMP on the CPU", .entry = "segspmv_omp", SEG_COMMON,
                               PARAMS(a_params)};
static const pl_part part_b = {.id = "b", .title = "naive GPU, a thread per row", .entry = "segspmv_naive",
                               SEG_COMMON, .alg = ROWS_ROOF, PARAMS(b_params)};
static const pl_part part_c = {.id = "c", .title = "intra-warp, a warp per row", .entry = "segspmv_warp", SEG_COMMON,
                               .alg = ROWS_ROOF, PARAMS(cd_params)};
static const pl_part part_d = {.id = "d", .title = "load-balanced segmented scan", .entry = "segspmv_flat",
                               SEG_COMMON, .alg = FLAT_ROOF, PARAMS(cd_params)};

static const pl_part *const parts[] = {PL_LAB07_PARTS(PL_PART_REF)};

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

/* m (read or generated) as the file case's matrix, its empty rows dropped
   (the contract has no empty segment); m is freed. 0, or -1 with err. */
static int set_file(pl_csr *m, const char *name, char *err, size_t cap)
{
    if (m->nnz > SS_MAX_N || m->rows > SS_MAX_ROWS) {
        snprintf(err, cap, "%s: %ld rows and %ld entries, more than the contract's %d and %d", name, m->rows, m->nnz,
                 SS_MAX_ROWS, SS_MAX_N);
        pl_csr_free(m);
        return -1;
    }
    free(file_m.s), free(file_m.k), free(file_m.val);
    file_m.n = -1;
    file_m.s = malloc(((size_t)m->rows + 1) * sizeof *file_m.s);
    file_m.k = malloc(((size_t)m->nnz + 1) * sizeof *file_m.k);
    file_m.val = malloc(((size_t)m->nnz + 1) * sizeof *file_m.val);
    if (!file_m.s || !file_m.k || !file_m.val) {
        snprintf(err, cap, "%s: out of memory", name);
        pl_csr_free(m);
        return -1;
    }
    long rows = 0;
    file_m.s[0] = 0;
    for (long r = 0; r < m->rows; r++)
        if (m->row_ptr[r + 1] > m->row_ptr[r])
            file_m.s[++rows] = (int)m->row_ptr[r + 1];
    for (long e = 0; e < m->nnz; e++)
        file_m.k[e] = m->col[e], file_m.val[e] = (float)m->val[e];
    file_m.n = m->nnz, file_m.rows = rows, file_m.cols = m->cols;
    pl_csr_free(m);
    return 0;
}

/* What lab 07 takes from a file (`run --matrix`, `table --matrix`),
   refused by the reader at the file's line: the contract's sizes (rows
   before the empty ones are dropped), and values whose float is finite.
   For the memory budget, what a run allocates from the matrix beside its
   CSR: the file case (4 bytes a row, 8 an entry), the packed input (4 a
   row, 8 an entry, 4 a column) three times (the grader's copy, the shared
   region's and its copy after the call), a four times (expected, got and
   the two output slots), the reference and its bound in double, and the
   gathered x of the CPU rows. */
static const pl_mtx_limits file_limits = {
    .who = "lab 07's contract",
    .max_rows = SS_MAX_ROWS,
    .max_nnz = SS_MAX_N,
    .float_why = "lab 07 computes in float",
    .row_bytes = 4 + 3 * 4,
    .col_bytes = 3 * 4,
    .nnz_bytes = 8 + 3 * 8 + 4 * 4 + 16 + 4,
};

static int load_matrix(const char *path, long *n, double *param, char *err, size_t cap)
{
    pl_csr m = {0};
    if (pl_mtx_read_within(path, &file_limits, &m, err, cap) != 0 || set_file(&m, path, err, cap) != 0)
        return -1;
    *n = file_m.n, *param = CASE_FILE;
    return 0;
}

/* ------------------------------------------- `table`: the seed's table */

/* The matrices of the seed's timing table, with its iteration counts. The
   SuiteSparse matrices are not shipped: each is a synthetic stand-in of the
   same shape (rows, columns, entries, longest row; mtxgen.h), eleven from
   the SpMV paper's Table 2 (mtxgen's presets), three from the shapes the
   SuiteSparse collection lists for them (own), and jonheart, which is not
   in the collection and whose shape the seed does not give: its stand-in is
   a small FEM-like matrix sized from the seed's own timing (2.67 ms for 60
   iterations against cant's 108 ms for 50: about 42,000 entries). */
typedef struct seed_matrix {
    const char *name;
    int iters;
    const char *preset;   /* mtxgen's, or NULL: own */
    pl_mtxgen_params own;
} seed_matrix;
static const seed_matrix seed_mats[] = {
    {"cant", 50, "cant-like", {0}},
    {"consph", 20, "consph-like", {0}},
    {"cop20k_A", 73, "cop20k_A-like", {0}},
    {"dense2", 10, "dense2-like", {0}},
    {"jonheart", 60, NULL, {"fem", 1500, 1500, 42000, 40}},
    {"mac_econ_fwd500", 12, "mac_econ_fwd500-like", {0}},
    {"mc2depi", 70, NULL, {"uniform", 525825, 525825, 2100225, 4}},
    {"pdb1HYS", 30, "pdb1HYS-like", {0}},
    {"pwtk", 25, NULL, {"fem", 217918, 217918, 11524432, 180}},
    {"qcd5_4", 63, "qcd5_4-like", {0}},
    {"rail4284", 10, "rail4284-like", {0}},
    {"rma10", 74, NULL, {"fem", 46835, 46835, 2374001, 145}},
    {"scircuit", 30, "scircuit-like", {0}},
    {"shipsec1", 10, "shipsec1-like", {0}},
    {"webbase-1M", 77, "webbase-1M-like", {0}},
};
#define NSEED ((int)(sizeof seed_mats / sizeof seed_mats[0]))
#define FILE_ITERS 10 /* a real matrix's iterations in the table */

typedef struct table_ctx {
    pl_session *s;
    const pl_lab *lab;
    FILE *tsv;
    const char *device;
    double copy;
    int reps, threads, wrong;
    int checked; /* the file case's iterations whose results stay in float's range (<= its iters) */
} table_ctx;

static const pl_part *part_named(const char *id)
{
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!strcmp(parts[i]->id, id))
            return parts[i];
    return NULL;
}

/* One variant timed on (n, param): the median ms less `less` (what the
   call does besides the part: 0 but for part a), or NaN after saying why;
   a row of the data file under label with mean entries a row as its param. */
static double table_time(table_ctx *t, const char *part, int vendor, const char *variant, long n, double param,
                         const char *label, double mean, double t_vendor, double less)
{
    const pl_part *p = part_named(part);
    pl_result r;
    seg_case *fc = &cases[CASE_FILE];
    int iters = fc->iters, fewer = case_of(param) == fc && t->checked < iters;
    double ms = NAN;
    if (fewer) { /* the result checked where it is finite, then the seed's iterations timed */
        fc->iters = t->checked;
        ms = pl_lab_time(t->s, t->lab, p, vendor, n, param, 1, 1, &r);
        fc->iters = iters;
    }
    if (!fewer || !isnan(ms))
        ms = pl_lab_time(t->s, t->lab, p, vendor, n, param, t->reps, !fewer, &r);
    if (isnan(ms)) {
        fprintf(stderr, "lab07 table: %s, part %s (%s): %s%s\n", label, part, variant,
                r.status == PL_FAIL ? "wrong: " : "", r.reason);
        t->wrong += r.status == PL_FAIL;
        return NAN;
    }
    ms -= less;
    if (t->tsv) {
        int gpu = strcmp(part, "a") != 0;
        double by = bytes(n, param);
        pl_row row = {.lab = "07", .part = part, .variant = variant, .device = t->device, .n = n, .reps = t->reps,
                      .time_ms = ms, .gbps = by / (ms * 1e-3) / 1e9, .copy_gbps = t->copy, .x_serial = NAN,
                      .x_omp = NAN, .x_vendor = t_vendor / ms, .param = mean, .roof = gpu ? "copy" : NULL,
                      .gflops = flops(n, param) / (ms * 1e-3) / 1e9, .param_label = label};
        row.pct_copy = gpu ? 100 * row.gbps / t->copy : NAN;
        row.roof_gbps = gpu ? t->copy : NAN;
        row.pct_roof = row.pct_copy;
        row.alg_bytes = gpu && p ? pl_alg_bytes(vendor ? &p->vendor_alg : &p->alg, n, param) : 0;
        pl_tsv_row(t->tsv, &row);
    }
    return ms;
}

/* Part a's OpenMP time: the call less the same call with no iteration
   (the copies of the problem to the host and back, which the worker's op
   makes around segspmv_omp). */
static double table_omp(table_ctx *t, const char *label, double mean, int threads)
{
    char variant[64];
    snprintf(variant, sizeof variant, "%s %d thread%s", pl_impl_variant, threads, threads == 1 ? "" : "s");
    seg_case *fc = &cases[CASE_FILE];
    int iters = fc->iters;
    fc->threads = threads, fc->iters = 0;
    pl_result r;
    double t0 = pl_lab_time(t->s, t->lab, part_named("a"), 0, file_m.n, CASE_FILE, t->reps, 1, &r);
    fc->iters = iters;
    return isnan(t0) ? NAN : table_time(t, "a", 0, variant, file_m.n, CASE_FILE, label, mean, NAN, t0);
}

/* The most iterations, up to iters, after which the file case's exact
   result stays well inside float's range (|a| < 1e30) for run's input:
   powers of long rows overflow (webbase-1M's rows of 5000 entries, 77
   times), and a judge cannot check infinities against the reference. */
static int in_range_iters(int iters)
{
    seg_case *fc = &cases[CASE_FILE];
    int keep = fc->iters;
    long n = file_m.n, words = input_words(n, CASE_FILE);
    int *in = malloc((size_t)words * sizeof *in);
    double *want = malloc((size_t)(n ? n : 1) * sizeof *want);
    int lo = 0, hi = iters; /* lo: in range (0 iterations always is); hi: the candidate */
    while (in && want && lo < hi) {
        int mid = lo == 0 && hi == iters ? iters : (lo + hi + 1) / 2;
        fc->iters = mid;
        make_input(in, n, CASE_FILE, 1);
        seg_view v = view_of(in);
        pl_segspmv_ref(v.rows, v.s, v.k, v.x, v.cols, v.a, mid, PL_SEG_RIGHT, 0, 1, want, NULL);
        int ok = 1;
        for (long j = 0; j < n && ok; j++)
            ok = fabs(want[j]) < 1e30;
        if (ok)
            lo = mid;
        else
            hi = mid - 1;
    }
    fc->iters = keep;
    free(in), free(want);
    return lo;
}

/* The table's line for the file case's matrix, run iters times. */
static void table_matrix(table_ctx *t, const char *name, int iters)
{
    seg_case *fc = &cases[CASE_FILE];
    fc->iters = iters, fc->lanes = 32, fc->threads = t->threads;
    t->checked = in_range_iters(iters);
    if (t->checked < iters)
        fprintf(stderr, "lab07 table: %s: the result leaves float's range after %d iterations: each kernel is checked "
                        "at %d iterations and timed at %d\n", name, t->checked + 1, t->checked, iters);
    long n = file_m.n;
    double mean = file_m.rows ? (double)n / (double)file_m.rows : 0;
    long longest = 0;
    for (long r = 0; r < file_m.rows; r++)
        longest = file_m.s[r + 1] - file_m.s[r] > longest ? file_m.s[r + 1] - file_m.s[r] : longest;
    printf("%-16s %8ld %9ld %6.1f %6ld %5d |", name, file_m.rows, n, mean, longest, iters);
    fflush(stdout);
    double cub = table_time(t, "d", 1, "cub", n, CASE_FILE, name, mean, NAN, 0);
    double a = table_omp(t, name, mean, t->threads);
    double b[3];
    static const int lanes[3] = {1, 2, 32};
    for (int i = 0; i < 3; i++) {
        char variant[64];
        snprintf(variant, sizeof variant, "%s %d lane%s", pl_impl_variant, lanes[i], lanes[i] == 1 ? "" : "s");
        fc->lanes = lanes[i];
        b[i] = table_time(t, "b", 0, variant, n, CASE_FILE, name, mean, cub, 0);
    }
    fc->lanes = 32;
    double c = table_time(t, "c", 0, pl_impl_variant, n, CASE_FILE, name, mean, cub, 0);
    double d = table_time(t, "d", 0, pl_impl_variant, n, CASE_FILE, name, mean, cub, 0);
    double dgb = bytes(n, CASE_FILE) / (d * 1e-3) / 1e9;
    printf(" %9.2f %9.2f %9.2f %9.2f %8.3f %8.3f %8.3f | %5.2fx %6.0f %4.0f%%\n", a, b[0], b[1], b[2], c, d, cub,
           cub / d, dgb, 100 * dgb / t->copy);
    fflush(stdout);
}

static int table_file(table_ctx *t, const char *path)
{
    char err[512];
    pl_csr m = {0};
    if (pl_mtx_read_within(path, &file_limits, &m, err, sizeof err) != 0 || set_file(&m, path, err, sizeof err) != 0) {
        fprintf(stderr, "lab07 table: %s\n", err);
        return 1;
    }
    const char *base = strrchr(path, '/');
    char name[64];
    snprintf(name, sizeof name, "%s", base ? base + 1 : path);
    char *dot = strstr(name, ".mtx");
    if (dot)
        *dot = '\0';
    table_matrix(t, name, FILE_ITERS);
    return 0;
}

static int table_seed(const seed_matrix *sm)
{
    char err[512];
    pl_csr m = {0};
    int rc = sm->preset ? pl_mtxgen_preset(sm->preset, 1, 7, &m, err, sizeof err)
                        : pl_mtxgen_make(&sm->own, 7, &m, err, sizeof err);
    if (rc != 0 || set_file(&m, sm->name, err, sizeof err) != 0) {
        fprintf(stderr, "lab07 table: %s: %s\n", sm->name, err);
        return 1;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The files of `table --matrix PATH`: PATH itself, or every *.mtx of the
   folder PATH, sorted by name, *n of them (*dir: PATH is a folder); or
   NULL after a line on stderr. */
static char **matrix_files(const char *path, int *n, int *dir)
{
    struct stat st;
    char **names = NULL;
    *n = 0;
    *dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    if (!*dir) { /* the reader says what is wrong with anything but a folder */
        if ((names = malloc(sizeof *names)) && (names[0] = malloc(strlen(path) + 1))) {
            strcpy(names[0], path);
            *n = 1;
            return names;
        }
        free(names);
        fprintf(stderr, "lab07 table: out of memory\n");
        return NULL;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "lab07 table: %s: cannot list the folder: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".mtx"))
            continue;
        char **more = (size_t)*n < cap ? names : realloc(names, (cap = 2 * cap + 16) * sizeof *names);
        char *name = more ? malloc(strlen(path) + l + 2) : NULL;
        if (!name) {
            closedir(d);
            free_names(more ? more : names, *n);
            fprintf(stderr, "lab07 table: %s: out of memory after %d files\n", path, *n);
            return NULL;
        }
        names = more;
        sprintf(name, "%s/%s", path, e->d_name);
        names[(*n)++] = name;
    }
    closedir(d);
    if (*n == 0) {
        free(names);
        fprintf(stderr, "lab07 table: %s: no .mtx file in the folder\n", path);
        return NULL;
    }
    qsort(names, (size_t)*n, sizeof *names, cmp_str);
    return names;
}

/* Every file read once before anything needs the GPU, so that a file the
   reader refuses is named at once, not after minutes of timing. Returns
   how many were refused, each with its line on stderr. */
static int refused_files(char **names, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        pl_csr m;
        char err[1024];
        if (pl_mtx_read_within(names[i], &file_limits, &m, err, sizeof err) != 0) {
            fprintf(stderr, "lab07 table: %s\n", err);
            bad++;
        }
        pl_csr_free(&m);
    }
    return bad;
}

/* `table` with the --matrix files (a folder's when dir), all read once. */
static int table_run(const pl_cmd_opts *o, char **files, int nfiles, int dir)
{
    char why[256];
    pl_session_opts so = {.worker = o->worker, .log = NULL, .start_s = pl_env_seconds("PRIMLAB_TIMEOUT", 60)};
    pl_session *s = pl_session_open(&so, why, sizeof why);
    if (!s || !pl_session_hello(s)->gpu_ok) {
        fprintf(stderr, "lab07 table: no GPU (%s)\n", s ? pl_session_hello(s)->reason : why);
        pl_session_close(s);
        return 1;
    }
    table_ctx t = {.s = s, .lab = pl_this_lab(), .device = pl_session_hello(s)->device,
                   .reps = o->reps > 0 ? o->reps : 5, .threads = omp_get_num_procs()};
    t.copy = pl_device_copy_gbps(s);
    char tmp[4096];
    if (o->out && !(t.tsv = pl_out_begin(o->out, tmp, sizeof tmp, "lab07"))) {
        pl_session_close(s);
        return 2;
    }
    if (t.tsv) {
        char notes[1024];
        snprintf(notes, sizeof notes, "# alg_b: %s\n# alg_c: %s\n# alg_d: %s\n# alg_d_cub: %s\n", part_b.alg.text,
                 part_c.alg.text, part_d.alg.text, part_d.vendor_alg.text);
        pl_tsv_begin(t.tsv, t.device, pl_session_hello(s)->vendor, t.copy, NAN, "measured", notes);
        fprintf(t.tsv, "# lab07 table: n is the entries; param the mean entries per row; param_label the matrix\n"
                       "# (the seed's names: synthetic stand-ins of their shapes) or the row-length family.\n"
                       "# Part a's time is segspmv_omp's alone (the copies to the host and back measured with no\n"
                       "# iteration and subtracted); its variant names the threads, part b's its lanes.\n");
    }
    printf("device: %s, copy bandwidth %.0f GB/s; %s code; median of %d; part a on %d threads\n", t.device, t.copy,
           pl_impl_variant, t.reps, t.threads);
    printf("total ms for the iterations (x[k] gathered once per call); d GB/s counts what a call must move\n");
    printf("%-16s %8s %9s %6s %6s %5s | %9s %9s %9s %9s %8s %8s %8s | %6s %6s %5s\n", "matrix", "rows", "nnz",
           "/row", "max", "iters", "a omp", "b 1 lane", "b 2", "b 32", "c warp", "d flat", "cub", "d/cub", "d GB/s",
           "copy");
    for (int i = 0; i < NSEED; i++)
        if (table_seed(&seed_mats[i]) == 0)
            table_matrix(&t, seed_mats[i].name, seed_mats[i].iters);
    /* real matrices: --matrix FILE, or every *.mtx of a folder, by name */
    if (dir)
        printf("real matrices from %s, %d iterations each:\n", o->matrix, FILE_ITERS);
    for (int i = 0; i < nfiles; i++)
        table_file(&t, files[i]);
    /* part a's scaling: threads 1, 2, 4, ... up to the host's */
    static const char *sweep[] = {"cant", "webbase-1M"};
    for (size_t j = 0; j < 2; j++) {
        const seed_matrix *sm = NULL;
        for (int i = 0; i < NSEED; i++)
            sm = !strcmp(seed_mats[i].name, sweep[j]) ? &seed_mats[i] : sm;
        if (!sm || table_seed(sm) != 0)
            continue;
        cases[CASE_FILE].iters = sm->iters;
        t.checked = in_range_iters(sm->iters);
        double mean = (double)file_m.n / (double)file_m.rows, t1 = NAN;
        printf("part a on %s (%d iterations), OpenMP ms by threads:", sm->name, sm->iters);
        for (int th = 1; th <= t.threads; th = th * 2 > t.threads && th < t.threads ? t.threads : th * 2) {
            double ms = table_omp(&t, sm->name, mean, th);
            t1 = th == 1 ? ms : t1;
            printf(" %d: %.1f (%.1fx)", th, ms, t1 / ms);
            fflush(stdout);
        }
        printf("\n");
    }
    /* uniform against power-law rows: ns per entry and iteration */
    static const long fam_n[] = {1L << 20, 1L << 22, 1L << 24, 1L << 26};
    printf("ns per entry (one iteration, gather included): %-8s %9s %9s %9s %9s\n", "n", "b 32", "c warp", "d flat",
           "cub");
    for (int f = 0; f < 2; f++) {
        int k = f ? CASE_POWERLAW : CASE_UNIFORM;
        for (size_t i = 0; i < sizeof fam_n / sizeof fam_n[0]; i++) {
            long n = fam_n[i];
            const seg_shape *sh = structure(n, k);
            double mean = sh && sh->rows ? (double)n / (double)sh->rows : 0;
            char variant[64];
            snprintf(variant, sizeof variant, "%s 32 lanes", pl_impl_variant);
            double cub = table_time(&t, "d", 1, "cub", n, k, cases[k].label, mean, NAN, 0);
            double b = table_time(&t, "b", 0, variant, n, k, cases[k].label, mean, cub, 0);
            double c = table_time(&t, "c", 0, pl_impl_variant, n, k, cases[k].label, mean, cub, 0);
            double d = table_time(&t, "d", 0, pl_impl_variant, n, k, cases[k].label, mean, cub, 0);
            printf("  %-8s (%4.1f a row) n = 2^%-2d %9.3f %9.3f %9.3f %9.3f\n", cases[k].label, mean,
                   (int)lround(log2((double)n)), b * 1e6 / (double)n, c * 1e6 / (double)n, d * 1e6 / (double)n,
                   cub * 1e6 / (double)n);
            fflush(stdout);
        }
    }
    pl_session_close(s);
    if (t.tsv && pl_out_end(t.tsv, tmp, o->out, "lab07") != 0)
        return 2;
    return t.wrong ? 1 : 0;
}

/* `table`: its --matrix files all read before anything needs the GPU. */
static int table_command(const pl_cmd_opts *o)
{
    int nfiles = 0, dir = 0;
    char **files = NULL;
    if (o->matrix && !(files = matrix_files(o->matrix, &nfiles, &dir)))
        return 2;
    if (refused_files(files, nfiles)) {
        free_names(files, nfiles);
        return 2;
    }
    int rc = table_run(o, files, nfiles, dir);
    free_names(files, nfiles);
    return rc;
}

/* The bytes algorithm a must move for a row of lab 07's data (`roofs --in`,
   lab.h). A row of `run` has its case as param and the case's label; a row
   of the table (table_time) has the mean row length as param and, as
   param_label, the family (its case, at the family's iterations), a seed
   matrix (made again: its rows; its iterations from seed_mats) or a real
   file's name. A real file is not here: its rows are n / mean, exact while
   the mean's six digits hold them (the table's real matrices have at most
   27,191 entries), at FILE_ITERS iterations. A row of `run --matrix FILE`
   (the case "file") names no file: no bytes. */
static const char *file_made; /* the seed matrix in the file case, or NULL */
static double row_alg_bytes(const pl_part *p, const pl_alg *a, long n, double param, const char *label)
{
    (void)p;
    for (int k = 0; label && k < NCASES; k++)
        if (!strcmp(label, cases[k].label))
            return k == CASE_FILE ? 0 : pl_alg_bytes(a, n, k);
    const seed_matrix *sm = NULL;
    for (int i = 0; label && i < NSEED; i++)
        sm = !strcmp(seed_mats[i].name, label) ? &seed_mats[i] : sm;
    if (sm && file_made != sm->name) {
        file_made = NULL;
        if (table_seed(sm) != 0)
            return 0; /* not made (table_seed said why): no bytes */
        file_made = sm->name;
    }
    int seed = sm && file_made == sm->name && file_m.n == n; /* else a real file of a seed's name */
    if (!seed) { /* a real file: its rows alone */
        if (!(param > 0))
            return 0;
        free(file_m.s), free(file_m.k), free(file_m.val);
        file_m = (seg_shape){.n = n, .rows = lround((double)n / param), .cols = n, .family = F_FILE};
        file_made = NULL;
    }
    int iters = cases[CASE_FILE].iters;
    cases[CASE_FILE].iters = seed ? sm->iters : FILE_ITERS;
    double b = pl_alg_bytes(a, n, CASE_FILE);
    cases[CASE_FILE].iters = iters;
    return b;
}

/* `table` is the lab's figure data, in place of a sweep. */
static const pl_lab_cmd commands[] = {
    {.name = "table", .args = "[--matrix FILE|DIR] [--reps R] [--out FILE]",
     .help = "the per-matrix table, the threads sweep and the row-length families; --matrix adds real ones",
     .gpu = 1, .matrix = 1, .data = "plots/data/lab07.tsv", .plots = PL_PLOTS_SHOW,
     .plot_opts = "--matrix=MATRICES", .run = table_command},
};

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
    .commands = commands,
    .ncommands = sizeof commands / sizeof commands[0],
    .row_alg_bytes = row_alg_bytes,
};

const pl_lab *pl_this_lab(void) { return &lab07; }
