/* harness/parent/mtxgen.c: synthetic sparse matrices and the Matrix Market
 * writer; mtxgen.h states what they are.
 *
 * Every family is made in the same three steps, so that nothing is
 * allocated before its final size is known:
 *   1. row lengths into row_ptr[1..rows] (in parallel, each row or node
 *      from its own stream), then made to sum to the target where the
 *      family is exact, then a prefix sum;
 *   2. col and val allocated at row_ptr[rows] entries;
 *   3. each row filled in parallel from its own stream: columns, then
 *      values. No step depends on how rows are shared among threads.
 */
#define _POSIX_C_SOURCE 200809L
#include "mtxgen.h"

#include "rng.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

_Static_assert(sizeof(long) >= 8, "sizes and products of sizes (up to 2^62) are long");

/* ------------------------------------------------------------- tables */

const pl_mtxgen_family pl_mtxgen_families[] = {
    {"fem", "banded FEM-like: a few runs of consecutive columns near the diagonal, structurally symmetric"},
    {"uniform", "random columns, row lengths within +-max(1, mean/4) of the mean (max_row - mean when given)"},
    {"powerlaw", "web-like: Pareto row lengths, most rows 1-3 entries at mean 3, a few of thousands"},
    {"longrows", "every row long and a few much longer (rail4284: 4K x 1097K, thousands of entries a row)"},
    {"dense", "every entry of rows x cols"},
};
const int pl_mtxgen_nfamilies = sizeof pl_mtxgen_families / sizeof pl_mtxgen_families[0];

/* Table 2 of the paper ("Benchmarking Matrices Used in this Work", seed
   002_6ddb69da9f965cb9), as printed: rows, cols and nnz given there in
   thousands ("62K" is 62000 here), max_row the max of its "Non-zeros
   Max/Mean" column. Checked line by line against the seed text.
   What the table rounds, for reference (not used): the collection's
   sizes are cant 62451 rows, consph 83334, cop20k_A 121192,
   mac_econ_fwd500 206500, pdb1HYS 36417, qcd5_4 49152 (39 entries in
   every row: 1916928), rail4284 4284 x 1096894 with 11284032 entries,
   scircuit 170998, shipsec1 140874, webbase-1M 1000005.
   For the symmetric Williams matrices the paper counts the file's stored
   triangle, not the whole matrix that pl_mtx_read makes of the file (about
   twice as many): cant 2035K = (4007383 + 62451) / 2 stored of 4007383,
   pdb1HYS 2191K = (4344765 + 36417) / 2 of 4344765, consph 3048K of
   6010480 (the stored count is 3046907: the paper's is 1K off), cop20k_A
   1362K of 2624331 (whole-matrix counts: Bell & Garland's list of these
   matrices; the collection's Williams notes round them the same).
   Collection names: Williams/..., DNVS/shipsec1, Hamm/scircuit,
   Mittelmann/rail4284; qcd5_4 is QCD/conf5_4-8x8-05 there (complex:
   harness/matrices.sh keeps its real part); dense2 is not in the
   collection ("not included in the UF Collection", the Williams notes). */
const pl_mtxgen_preset_def pl_mtxgen_presets[] = {
    {"dense2-like", "dense2", NULL, "dense", 2000, 2000, 4000000, 2000, "Dense matrix (dense2_app)"},
    {"cant-like", "cant", "Williams/cant", "fem", 62000, 62000, 2035000, 40, "FEM cantilever"},
    {"consph-like", "consph", "Williams/consph", "fem", 83000, 83000, 3048000, 66, "FEM concentric spheres"},
    {"cop20k_A-like", "cop20k_A", "Williams/cop20k_A", "fem", 121000, 121000, 1362000, 24, "Accelerator cavity design"},
    {"mac_econ_fwd500-like", "mac_econ_fwd500", "Williams/mac_econ_fwd500", "powerlaw", 207000, 207000, 1273000, 44,
     "Macroeconomic model"},
    {"pdb1HYS-like", "pdb1HYS", "Williams/pdb1HYS", "fem", 36000, 36000, 2191000, 184, "protein data bank"},
    {"qcd5_4-like", "qcd5_4", "QCD/conf5_4-8x8-05", "uniform", 49000, 49000, 1917000, 39,
     "Quark propagators (qcd5_4_app)"},
    {"rail4284-like", "rail4284", "Mittelmann/rail4284", "longrows", 4000, 1097000, 11284000, 56000, "Italian railways"},
    {"scircuit-like", "scircuit", "Hamm/scircuit", "powerlaw", 171000, 171000, 959000, 353, "Motorola circuit"},
    {"shipsec1-like", "shipsec1", "DNVS/shipsec1", "fem", 141000, 141000, 3977000, 84, "Ship section"},
    {"webbase-1M-like", "webbase-1M", "Williams/webbase-1M", "powerlaw", 1000000, 1000000, 3106000, 5000,
     "Web connectivity matrix"},
};
const int pl_mtxgen_npresets = sizeof pl_mtxgen_presets / sizeof pl_mtxgen_presets[0];

/* Stream tags: each use of the seed gets its own. */
enum { TAG_LEN = 0x6c656e, TAG_FEM = 0x66656d, TAG_ROW = 0x726f77 };

#define SCALE_MAX 1000.0

/* ------------------------------------------------------------- random */

/* A uniform double in (0, 1] from 53 of x's bits. */
static double unit_open0(uint64_t x) { return (double)((x >> 11) + 1) * 0x1p-53; }

/* A uniform double in [0, 1). */
static double unit(uint64_t x) { return (double)(x >> 11) * 0x1p-53; }

/* k / 1024 with k in [1, 1024], random sign: exact in float, never 0. */
static double value_of(uint64_t x)
{
    double k = (double)((x >> 54) + 1);
    return (x >> 53 & 1 ? -k : k) / 1024.0;
}

static void row_stream(pl_rng *r, uint64_t seed, long row)
{
    pl_rng_seed(r, pl_seed_mix(seed, TAG_ROW, (uint64_t)row));
}

/* --------------------------------------------------------- row lengths */

static long ceil_div(long a, long b) { return (a + b - 1) / b; }

/* Row r's share of total spread evenly over rows: 0 or 1 apart. */
static long even_share(long total, long rows, long r) { return (r + 1) * total / rows - r * total / rows; }

/* len[0..rows) made to sum exactly to target, each within [0, cols]: what
   each row has beyond the shortest row (or beyond 0 when target is less
   than rows x shortest) scaled by one factor with cumulative rounding, so
   that proportions keep and the shortest rows stay as they are (1-entry
   rows stay 1-entry rows); then whatever a row got beyond cols handed to
   rows with room, a fair share each. target <= rows x cols. */
static void fit_lengths(long *len, long rows, long cols, long target)
{
    long sum = 0, base = cols;
    for (long r = 0; r < rows; r++) {
        sum += len[r];
        base = len[r] < base ? len[r] : base;
    }
    if (rows * base > target)
        base = 0;
    if (sum == rows * base)
        for (long r = 0; r < rows; r++)
            len[r] = base + even_share(target - rows * base, rows, r);
    else if (sum != target) {
        long acc = 0, prev = 0, from = sum - rows * base, to = target - rows * base;
        for (long r = 0; r < rows; r++) {
            acc += len[r] - base;
            long s = (long)((__int128)acc * to / from);
            len[r] = base + s - prev;
            prev = s;
        }
    }
    long excess = 0;
    for (long r = 0; r < rows; r++)
        if (len[r] > cols) {
            excess += len[r] - cols;
            len[r] = cols;
        }
    while (excess > 0) {
        long room = 0;
        for (long r = 0; r < rows; r++)
            room += len[r] < cols;
        long share = excess / room > 0 ? excess / room : 1;
        for (long r = 0; r < rows && excess > 0; r++) {
            long add = cols - len[r] < share ? cols - len[r] : share;
            add = add < excess ? add : excess;
            len[r] += add;
            excess -= add;
        }
    }
}

static void prefix_sum(long *row_ptr, long rows)
{
    row_ptr[0] = 0;
    for (long r = 0; r < rows; r++)
        row_ptr[r + 1] += row_ptr[r];
}

/* uniform: the even share of each row, moved by d and -d in pairs of rows
   (2i, 2i + 1), d uniform in [-spread, spread] within [0, cols]. */
static void uniform_lengths(long *len, long rows, long cols, long nnz, long spread, uint64_t seed)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; i += 2) {
        long b0 = even_share(nnz, rows, i);
        if (i + 1 == rows) {
            len[i] = b0;
            continue;
        }
        long b1 = even_share(nnz, rows, i + 1);
        long lo = -spread, hi = spread;
        lo = lo > -b0 ? lo : -b0;
        lo = lo > b1 - cols ? lo : b1 - cols;
        hi = hi < cols - b0 ? hi : cols - b0;
        hi = hi < b1 ? hi : b1;
        pl_rng g;
        pl_rng_seed(&g, pl_seed_mix(seed, TAG_LEN, (uint64_t)i));
        long d = (long)pl_rng_range(&g, lo, hi);
        len[i] = b0 + d;
        len[i + 1] = b1 - d;
    }
}

/* The Pareto law of powerlaw and longrows: L = clamp(floor(x U^-t), lo,
   cap) with U uniform in (0, 1], t = 1 / beta, lo 1 (0 for a mean under 2:
   then most rows are empty, and the tail stays). */
typedef struct {
    double x, t;
    long lo, cap;
} pareto;

/* E[L] = sum over k >= 1 of P(L >= k) = sum_{k=1}^{cap} min(1, (x / k)^beta)
   (the k = 1 term 1 when lo = 1): the terms up to x are 1, the next 4096
   summed, the rest integrated. */
static double pareto_mean(double x, double t, long lo, long cap)
{
    long ones = x >= (double)cap ? cap : (long)x;
    ones = ones > lo ? ones : lo;
    if (t <= 0 || ones == cap)
        return (double)ones;
    double beta = 1 / t, mean = (double)ones;
    long k = ones + 1, last = cap < ones + 4096 ? cap : ones + 4096;
    for (; k <= last; k++)
        mean += pow(x / (double)k, beta);
    if (k <= cap) { /* integral of (x / u)^beta over [k - 0.5, cap + 0.5] */
        double a = (double)k - 0.5, b = (double)cap + 0.5;
        mean += pow(x, beta) * (pow(a, 1 - beta) - pow(b, 1 - beta)) / (beta - 1);
    }
    return mean;
}

/* beta such that the longest of `rows` draws is about cap, that is
   rows^t (1 - t) = cap / mean for t = 1 / beta (the largest of n Pareto
   draws is about x n^t and the mean x / (1 - t)); t at most where the
   left side peaks, 1 - 1 / ln(rows). Then x for the mean. */
static pareto pareto_fit(long rows, double mean, long cap)
{
    pareto p = {mean, 0, mean >= 2, cap};
    double ratio = (double)cap / (mean > 1 ? mean : 1);
    if (ratio <= 1 || rows < 3)
        return p;
    double ln = log((double)rows), tmax = 1 - 1 / ln;
    double lo = 0, hi = tmax > 0.05 ? tmax : 0.05;
    if (exp(hi * ln) * (1 - hi) <= ratio)
        lo = hi;
    for (int i = 0; i < 60 && hi - lo > 1e-9; i++) {
        double mid = (lo + hi) / 2;
        if (exp(mid * ln) * (1 - mid) < ratio)
            lo = mid;
        else
            hi = mid;
    }
    p.t = lo;
    double xl = 0, xh = (double)cap + 1;
    for (int i = 0; i < 60; i++) {
        double mid = (xl + xh) / 2;
        if (pareto_mean(mid, p.t, p.lo, cap) < mean)
            xl = mid;
        else
            xh = mid;
    }
    p.x = xh;
    return p;
}

static void pareto_lengths(long *len, long rows, pareto p, uint64_t seed)
{
#pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; r++) {
        double u = unit_open0(pl_seed_mix(seed, TAG_LEN, (uint64_t)r));
        double l = floor(p.x * exp(-p.t * log(u)));
        len[r] = l < (double)p.lo ? p.lo : (l >= (double)p.cap ? p.cap : (long)l);
    }
}

/* ------------------------------------------------------------------ fem */

/* Nodes of b rows (the last one s_last); node P couples to P + o for the
   offsets o of the runs [lo, hi] (sorted, disjoint, symmetric about 0).
   Whether a coupling is there is decided per pair of groups of g
   consecutive nodes (g the clusters' width), so that what a row keeps of
   a cluster stays one or two runs of consecutive columns: always within a
   group; between groups A < B = A + d when frac(A phi + theta_d) < p, phi
   the golden ratio's fraction and theta_d random per d. That is symmetric
   (it depends on the unordered pair), and over A it keeps a fraction p of
   each d's pairs almost exactly (a Weyl sequence), so the count lands
   close to its expectation even for small matrices. */
typedef struct {
    long n, b, nodes, s_last, g;
    long (*run)[2];
    int nruns;
    double p;
    uint64_t key;
} fem;

static long node_size(const fem *f, long q) { return q == f->nodes - 1 ? f->s_last : f->b; }

/* Entries of the whole matrix at node offset o (both signs counted once). */
static long fem_count_at(const fem *f, long o)
{
    o = o < 0 ? -o : o;
    if (o >= f->nodes)
        return 0;
    if (o == 0)
        return (f->nodes - 1) * f->b * f->b + f->s_last * f->s_last;
    return (f->nodes - o - 1) * f->b * f->b + f->b * f->s_last;
}

static long fem_count(const fem *f)
{
    long c = 0;
    for (int k = 0; k < f->nruns; k++)
        for (long o = f->run[k][0]; o <= f->run[k][1]; o++)
            c += fem_count_at(f, o);
    return c;
}

/* Entries coupling nodes of the same group: always there. */
static long fem_count_same_group(const fem *f)
{
    long c = 0;
    for (int k = 0; k < f->nruns; k++)
        for (long o = f->run[k][0]; o <= f->run[k][1]; o++)
            if (o > -f->g && o < f->g)
                for (long P = o < 0 ? -o : 0; P < f->nodes && P + o < f->nodes; P++)
                    if (P / f->g == (P + o) / f->g)
                        c += node_size(f, P) * node_size(f, P + o);
    return c;
}

static int fem_keep(const fem *f, long p, long q)
{
    long a = p / f->g, d = q / f->g - a;
    if (d == 0)
        return 1;
    if (d < 0)
        a += d, d = -d;
    double x = (double)a * 0.6180339887498949 + unit(pl_seed_mix(f->key, (uint64_t)d, 0));
    return x - floor(x) < f->p;
}

/* The runs for a target count: about max_row / b offsets in nc clusters
   of c consecutive offsets, centres D = sqrt(nodes) apart (closer when the
   matrix is too small for that), so the expected count can reach nnz; a
   plain band around the diagonal when even that falls short. */
static int fem_design(fem *f, long n, long nnz, long max_row, uint64_t seed, char *err, size_t cap)
{
    double m = n ? (double)nnz / (double)n : 0;
    f->n = n;
    f->b = m >= 12 && n >= 3 ? 3 : 1;
    f->nodes = ceil_div(n, f->b);
    f->s_last = n - (f->nodes - 1) * f->b;
    f->key = pl_seed_mix(seed, TAG_FEM, 0);
    long hint = max_row > 0 ? max_row : (long)ceil(1.25 * m);
    hint = hint > (long)ceil(m) ? hint : (long)ceil(m);
    hint = hint < n ? hint : n;
    long want = ceil_div(hint, f->b) | 1;
    want = want < 2 * f->nodes - 1 ? want : 2 * f->nodes - 1;
    long c = (long)sqrt((double)want);
    c = c < 1 ? 1 : c - !(c & 1);
    long nc = want / c; /* nc x c <= want: no row longer than the hint's */
    nc = nc < 1 ? 1 : nc - !(nc & 1);
    long K = nc / 2, h = c / 2, D = (long)ceil(sqrt((double)f->nodes));
    D = D > c + 1 ? D : c + 1;
    if (K > 0 && K * D + h > f->nodes - 1)
        D = (f->nodes - 1 - h) / K > 1 ? (f->nodes - 1 - h) / K : 1;
    f->g = c;
    f->run = malloc((size_t)nc * sizeof *f->run);
    if (!f->run)
        return pl_mtx_error(err, cap, "out of memory for the fem design (%ld runs)", nc);
    f->nruns = 0;
    for (long k = -K; k <= K; k++) {
        long lo = k * D - h, hi = k * D + h, top = f->nodes - 1;
        lo = lo > -top ? lo : -top;
        hi = hi < top ? hi : top;
        if (lo > hi)
            continue;
        if (f->nruns > 0 && lo <= f->run[f->nruns - 1][1] + 1) {
            if (hi > f->run[f->nruns - 1][1])
                f->run[f->nruns - 1][1] = hi;
        } else {
            f->run[f->nruns][0] = lo;
            f->run[f->nruns][1] = hi;
            f->nruns++;
        }
    }
    long full = fem_count(f);
    if (full < nnz) { /* a band [-w, w] wide enough */
        long w = 0;
        for (full = fem_count_at(f, 0); full < nnz && w < f->nodes - 1;)
            full += 2 * fem_count_at(f, ++w);
        f->nruns = 1;
        f->run[0][0] = -w;
        f->run[0][1] = w;
    }
    long same = fem_count_same_group(f);
    f->p = full > same ? (double)(nnz - same) / (double)(full - same) : 1;
    f->p = f->p < 0 ? 0 : (f->p > 1 ? 1 : f->p);
    return 0;
}

/* Node P's columns in order into col (NULL: only counted); returns how many. */
static long fem_node_cols(const fem *f, long P, int *col)
{
    long k = 0;
    for (int i = 0; i < f->nruns; i++) {
        long lo = P + f->run[i][0] > 0 ? P + f->run[i][0] : 0;
        long hi = P + f->run[i][1] < f->nodes - 1 ? P + f->run[i][1] : f->nodes - 1;
        for (long q = lo; q <= hi; q++)
            if (fem_keep(f, P, q)) {
                if (col)
                    for (long j = 0; j < node_size(f, q); j++)
                        col[k + j] = (int)(q * f->b + j);
                k += node_size(f, q);
            }
    }
    return k;
}

static void fem_lengths(const fem *f, long *len)
{
#pragma omp parallel for schedule(dynamic, 64)
    for (long P = 0; P < f->nodes; P++) {
        long k = fem_node_cols(f, P, NULL);
        for (long r = P * f->b; r < P * f->b + node_size(f, P); r++)
            len[r] = k;
    }
}

static void fem_fill(const fem *f, pl_csr *m, uint64_t seed)
{
#pragma omp parallel for schedule(dynamic, 64)
    for (long P = 0; P < f->nodes; P++) {
        long r0 = P * f->b, k = m->row_ptr[r0 + 1] - m->row_ptr[r0];
        fem_node_cols(f, P, m->col + m->row_ptr[r0]);
        for (long r = r0; r < r0 + node_size(f, P); r++) {
            long at = m->row_ptr[r];
            if (r > r0)
                memcpy(m->col + at, m->col + m->row_ptr[r0], (size_t)k * sizeof *m->col);
            pl_rng g;
            row_stream(&g, seed, r);
            for (long j = 0; j < k; j++)
                m->val[at + j] = value_of(pl_rng_next(&g));
        }
    }
}

/* ----------------------------------------------------------- filling */

/* L distinct columns of [0, cols), increasing: L sorted draws from
   [0, cols - L] (as order statistics: normalised sums of exponential
   spacings, kept in val meanwhile) plus their rank. Then the values. */
static void random_row(int *col, double *val, long L, long cols, pl_rng *g)
{
    long span = cols - L + 1; /* values a draw can take */
    if (span == 1) {
        for (long i = 0; i < L; i++)
            col[i] = (int)i;
    } else {
        double s = 0;
        for (long i = 0; i < L; i++) {
            s -= log(unit_open0(pl_rng_next(g)));
            val[i] = s;
        }
        s -= log(unit_open0(pl_rng_next(g)));
        double scale = (double)span / s;
        for (long i = 0; i < L; i++) {
            long c = (long)(val[i] * scale);
            col[i] = (int)((c < span ? c : span - 1) + i);
        }
    }
    for (long i = 0; i < L; i++)
        val[i] = value_of(pl_rng_next(g));
}

static void random_fill(pl_csr *m, uint64_t seed)
{
#pragma omp parallel for schedule(dynamic, 256)
    for (long r = 0; r < m->rows; r++) {
        pl_rng g;
        row_stream(&g, seed, r);
        long at = m->row_ptr[r];
        random_row(m->col + at, m->val + at, m->row_ptr[r + 1] - at, m->cols, &g);
    }
}

/* ---------------------------------------------------------------- make */

/* In the order of pl_mtxgen_families[]: family_of returns the index. */
typedef enum { FEM, UNIFORM, POWERLAW, LONGROWS, DENSE } family_id;

static int family_of(const char *name)
{
    for (int i = 0; name && i < pl_mtxgen_nfamilies; i++)
        if (!strcmp(name, pl_mtxgen_families[i].name))
            return i;
    return -1;
}

/* The family's nnz when the caller leaves it: a mean row length. */
static long default_nnz(family_id fam, long rows, long cols)
{
    long mean = fam == FEM ? 32 : fam == UNIFORM ? 16 : fam == POWERLAW ? 4 : fam == LONGROWS ? cols / 400 : cols;
    mean = mean < 1 ? 1 : (mean > cols ? cols : mean);
    return rows * mean;
}

static int check_params(const pl_mtxgen_params *p, family_id fam, long nnz, char *err, size_t cap)
{
    if (p->rows < 0 || p->cols < 0 || p->rows > PL_MTX_MAX_DIM || p->cols > PL_MTX_MAX_DIM)
        return pl_mtx_error(err, cap, "%s: a %ld x %ld matrix: rows and cols must lie within 0..%ld (indices are int)",
                   p->family, p->rows, p->cols, PL_MTX_MAX_DIM);
    if (nnz < 0 || p->max_row < PL_MTXGEN_DEFAULT)
        return pl_mtx_error(err, cap, "%s: nnz %ld and max_row %ld must be 0 or more (or PL_MTXGEN_DEFAULT)", p->family, nnz,
                   p->max_row);
    if (nnz > PL_MTX_MAX_NNZ)
        return pl_mtx_error(err, cap, "%s: nnz %ld is more than the reader's limit %ld", p->family, nnz, PL_MTX_MAX_NNZ);
    if (nnz > p->rows * p->cols)
        return pl_mtx_error(err, cap, "%s: nnz %ld cannot fit in a %ld x %ld matrix: it has places for %ld", p->family, nnz,
                   p->rows, p->cols, p->rows * p->cols);
    if (p->rows - nnz > PL_MTX_MAX_EMPTY_ROWS)
        return pl_mtx_error(err, cap, "%s: %ld rows for %ld entries: at least %ld rows would be empty, more than the reader's limit of %ld",
                   p->family, p->rows, nnz, p->rows - nnz, PL_MTX_MAX_EMPTY_ROWS);
    if (fam == FEM && p->rows != p->cols)
        return pl_mtx_error(err, cap, "fem: makes square matrices, not %ld x %ld", p->rows, p->cols);
    if (fam == FEM && nnz < p->rows)
        return pl_mtx_error(err, cap, "fem: nnz %ld is less than rows %ld: every row has its diagonal", nnz, p->rows);
    if (fam == DENSE && nnz != p->rows * p->cols)
        return pl_mtx_error(err, cap, "dense: nnz %ld is not rows x cols = %ld (leave nnz to the family)", nnz,
                   p->rows * p->cols);
    return 0;
}

int pl_mtxgen_make(const pl_mtxgen_params *p, uint64_t seed, pl_csr *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (err && cap)
        err[0] = '\0';
    int fam = family_of(p->family);
    if (fam < 0) {
        char known[128] = "";
        for (int i = 0; i < pl_mtxgen_nfamilies; i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                     pl_mtxgen_families[i].name);
        return pl_mtx_error(err, cap, "unknown family '%.40s': one of %s", p->family ? p->family : "(null)", known);
    }
    long nnz = p->nnz;
    if (nnz == PL_MTXGEN_DEFAULT && p->rows >= 0 && p->cols >= 0 && p->rows <= PL_MTX_MAX_DIM &&
        p->cols <= PL_MTX_MAX_DIM)
        nnz = default_nnz(fam, p->rows, p->cols);
    if (check_params(p, fam, nnz, err, cap))
        return -1;

    long rows = p->rows, cols = p->cols;
    double mean = rows ? (double)nnz / (double)rows : 0;
    fem f = {0};
    out->row_ptr = calloc((size_t)rows + 1, sizeof *out->row_ptr);
    if (!out->row_ptr)
        goto oom;
    long *len = out->row_ptr + 1;
    if (rows > 0 && nnz > 0)
        switch ((family_id)fam) {
        case FEM:
            if (fem_design(&f, rows, nnz, p->max_row, seed, err, cap)) {
                pl_csr_free(out);
                return -1;
            }
            fem_lengths(&f, len);
            break;
        case UNIFORM: {
            long spread = p->max_row != PL_MTXGEN_DEFAULT ? p->max_row - (long)ceil(mean)
                          : mean >= 4                    ? (long)(mean / 4)
                                                         : mean >= 1;
            spread = spread > 0 ? spread : 0;
            uniform_lengths(len, rows, cols, nnz, spread, seed);
            break;
        }
        case POWERLAW:
        case LONGROWS: {
            double base = mean > 1 ? mean : 1;
            long want = p->max_row != PL_MTXGEN_DEFAULT ? p->max_row
                                                        : (long)fmin((double)cols, (fam == POWERLAW ? 1000 : 20) * base);
            want = want < 1 ? 1 : (want > cols ? cols : want);
            pareto_lengths(len, rows, pareto_fit(rows, mean, want), seed);
            fit_lengths(len, rows, cols, nnz);
            break;
        }
        case DENSE:
            for (long r = 0; r < rows; r++)
                len[r] = cols;
            break;
        }
    prefix_sum(out->row_ptr, rows);
    out->rows = rows;
    out->cols = cols;
    out->nnz = out->stored = out->row_ptr[rows];
    snprintf(out->field, sizeof out->field, "real");
    snprintf(out->symmetry, sizeof out->symmetry, "general");
    out->col = malloc((size_t)(out->nnz ? out->nnz : 1) * sizeof *out->col);
    out->val = malloc((size_t)(out->nnz ? out->nnz : 1) * sizeof *out->val);
    if (!out->col || !out->val)
        goto oom;
    if (fam == FEM && out->nnz > 0)
        fem_fill(&f, out, seed);
    else
        random_fill(out, seed);
    free(f.run);
    return 0;
oom:
    free(f.run);
    pl_csr_free(out);
    return pl_mtx_error(err, cap, "%s: out of memory for a %ld x %ld matrix of about %ld entries (%.1f GB)", p->family, rows,
               cols, nnz, ((double)rows * 8 + (double)nnz * 12) / 1e9);
}

int pl_mtxgen(const char *family, long rows, long cols, long nnz, uint64_t seed, pl_csr *out, char *err, size_t cap)
{
    pl_mtxgen_params p = {family, rows, cols, nnz, PL_MTXGEN_DEFAULT};
    return pl_mtxgen_make(&p, seed, out, err, cap);
}

/* ------------------------------------------------------------- presets */

const pl_mtxgen_preset_def *pl_mtxgen_preset_find(const char *name)
{
    for (int i = 0; name && i < pl_mtxgen_npresets; i++)
        if (!strcmp(name, pl_mtxgen_presets[i].name) || !strcmp(name, pl_mtxgen_presets[i].matrix))
            return &pl_mtxgen_presets[i];
    return NULL;
}

static long scaled(long x, double scale)
{
    if (x == 0)
        return 0;
    double y = round((double)x * scale);
    return y < 1 ? 1 : (y > (double)PL_MTX_MAX_DIM ? PL_MTX_MAX_DIM + 1 : (long)y);
}

int pl_mtxgen_scale(pl_mtxgen_params *p, double scale, char *err, size_t cap)
{
    if (!(scale > 0 && scale <= SCALE_MAX))
        return pl_mtx_error(err, cap, "scale %g is out of range: more than 0, at most %g", scale, SCALE_MAX);
    if (scale == 1)
        return 0;
    long rows = scaled(p->rows, scale);
    long cols = p->rows == p->cols ? rows : scaled(p->cols, scale);
    if (family_of(p->family) == DENSE)
        p->nnz = p->nnz == PL_MTXGEN_DEFAULT ? PL_MTXGEN_DEFAULT : rows * cols;
    else if (p->nnz > 0 && p->rows > 0) {
        double nnz = round((double)p->nnz * (double)rows / (double)p->rows);
        p->nnz = nnz > (double)rows * (double)cols ? rows * cols : (long)nnz;
    }
    if (p->max_row > cols)
        p->max_row = cols;
    p->rows = rows;
    p->cols = cols;
    return 0;
}

int pl_mtxgen_preset_params(const char *name, double scale, pl_mtxgen_params *p, char *err, size_t cap)
{
    const pl_mtxgen_preset_def *s = pl_mtxgen_preset_find(name);
    if (!s) {
        char known[512] = "";
        for (int i = 0; i < pl_mtxgen_npresets; i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? " " : "",
                     pl_mtxgen_presets[i].name);
        return pl_mtx_error(err, cap, "unknown preset '%.40s': one of %s", name ? name : "(null)", known);
    }
    *p = (pl_mtxgen_params){s->family, s->rows, s->cols, s->nnz, s->max_row};
    return pl_mtxgen_scale(p, scale, err, cap);
}

int pl_mtxgen_preset(const char *name, double scale, uint64_t seed, pl_csr *out, char *err, size_t cap)
{
    pl_mtxgen_params p;
    memset(out, 0, sizeof *out);
    if (pl_mtxgen_preset_params(name, scale, &p, err, cap))
        return -1;
    return pl_mtxgen_make(&p, seed, out, err, cap);
}

/* --------------------------------------------------------------- stats */

void pl_mtxgen_stats_of(const pl_csr *m, pl_mtxgen_stats *s)
{
    long lo = m->rows ? m->cols + 1 : 0, hi = 0, empty = 0, band = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : lo) reduction(max : hi, band) reduction(+ : empty)
    for (long r = 0; r < m->rows; r++) {
        long a = m->row_ptr[r], b = m->row_ptr[r + 1], n = b - a;
        lo = n < lo ? n : lo;
        hi = n > hi ? n : hi;
        empty += n == 0;
        if (n > 0) { /* columns increase: the extremes are at the ends */
            long d0 = labs(r - m->col[a]), d1 = labs(r - m->col[b - 1]);
            band = d0 > band ? d0 : band;
            band = d1 > band ? d1 : band;
        }
    }
    *s = (pl_mtxgen_stats){m->rows, m->cols, m->nnz, m->rows ? (double)m->nnz / (double)m->rows : 0, lo, hi, empty,
                           band};
}

/* --------------------------------------------------------------- write */

#define WRITE_CHUNK 16384L /* entries formatted into one buffer */
#define LINE_MAX_CHARS 48  /* "2147483647 2147483647 -1.2345678901234567e-308\n" is 47 */

/* Entries [e0, e1) as Matrix Market lines into buf; returns the bytes. */
static size_t format_entries(const pl_csr *m, long e0, long e1, char *buf)
{
    long lo = 0, hi = m->rows - 1; /* the last row starting at or before e0 */
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (m->row_ptr[mid] <= e0)
            lo = mid;
        else
            hi = mid - 1;
    }
    size_t n = 0;
    for (long r = lo, e = e0; e < e1; r++)
        for (; e < e1 && e < m->row_ptr[r + 1]; e++)
            n += (size_t)snprintf(buf + n, LINE_MAX_CHARS + 1, "%ld %d %.17g\n", r + 1, m->col[e] + 1, m->val[e]);
    return n;
}

static int write_all(FILE *fp, const pl_csr *m, const char *comment)
{
    if (fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n") < 0)
        return -1;
    for (const char *c = comment; c && *c;) {
        size_t n = strcspn(c, "\n");
        if (fprintf(fp, "%% %.*s\n", (int)n, c) < 0)
            return -1;
        c += n + (c[n] == '\n');
    }
    if (fprintf(fp, "%ld %ld %ld\n", m->rows, m->cols, m->nnz) < 0)
        return -1;
    int nbuf = 2;
#ifdef _OPENMP
    nbuf = 2 * omp_get_max_threads();
#endif
    nbuf = nbuf < 2 ? 2 : (nbuf > 64 ? 64 : nbuf);
    char *buf = malloc((size_t)nbuf * WRITE_CHUNK * LINE_MAX_CHARS + 1);
    size_t *len = malloc((size_t)nbuf * sizeof *len);
    int rc = buf && len ? 0 : -1;
    if (rc)
        errno = ENOMEM;
    long chunks = (m->nnz + WRITE_CHUNK - 1) / WRITE_CHUNK;
    for (long c0 = 0; rc == 0 && c0 < chunks; c0 += nbuf) {
        int k = chunks - c0 < nbuf ? (int)(chunks - c0) : nbuf;
#pragma omp parallel for schedule(static, 1)
        for (int i = 0; i < k; i++) {
            long e0 = (c0 + i) * WRITE_CHUNK, e1 = e0 + WRITE_CHUNK < m->nnz ? e0 + WRITE_CHUNK : m->nnz;
            len[i] = format_entries(m, e0, e1, buf + (size_t)i * WRITE_CHUNK * LINE_MAX_CHARS);
        }
        for (int i = 0; rc == 0 && i < k; i++)
            if (fwrite(buf + (size_t)i * WRITE_CHUNK * LINE_MAX_CHARS, 1, len[i], fp) != len[i])
                rc = -1;
    }
    free(buf);
    free(len);
    return rc;
}

int pl_mtx_write_comment(const char *path, const pl_csr *m, const char *comment, char *err, size_t cap)
{
    char why[256];
    if (pl_csr_check(m, why, sizeof why))
        return pl_mtx_error(err, cap, "%s: not written: the matrix is not a valid CSR: %s", path, why);
    /* A regular file (or none yet) is written to a temporary beside it
       and renamed; anything else (a pipe, /dev/stdout) directly. */
    struct stat st;
    int direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return pl_mtx_error(err, cap, "%s: out of memory", path);
    snprintf(tmp, plen + 16, "%s.tmp-XXXXXX", path);
    int fd = direct ? open(path, O_WRONLY | O_CLOEXEC) : mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return pl_mtx_error(err, cap, "%s: cannot open for writing: %s", path, strerror(e));
    }
    if (!direct) {
        mode_t mask = umask(022);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    FILE *fp = fdopen(fd, "w");
    int rc = fp ? write_all(fp, m, comment) : -1, e = errno;
    if (fp && fclose(fp) != 0 && rc == 0)
        rc = -1, e = errno;
    if (!fp)
        close(fd);
    if (rc == 0 && !direct && rename(tmp, path) != 0)
        rc = -1, e = errno;
    if (rc != 0 && !direct)
        unlink(tmp);
    free(tmp);
    return rc ? pl_mtx_error(err, cap, "%s: cannot write: %s", path, strerror(e)) : 0;
}

int pl_mtx_write(const char *path, const pl_csr *m, char *err, size_t cap)
{
    return pl_mtx_write_comment(path, m, NULL, err, cap);
}
