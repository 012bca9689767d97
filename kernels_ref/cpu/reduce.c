/* kernels_ref/cpu/reduce.c: exact reference sums, the tolerance of a GPU sum
 * and the summation-error experiment of lab 06 (see reduce.h). */
#include "reduce.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* The float orders of the experiment must round every addition to float. */
#if FLT_EVAL_METHOD != 0
#error "reduce.c needs FLT_EVAL_METHOD 0 (SSE arithmetic, not x87)"
#endif

/* ------------------------------------------------------------ exact sums */

/* An exact accumulator. bin[k] counts units of 2^(k - 1074), the smallest
   subnormal double, of which every finite float and double is a whole
   multiple. A double's 53-bit significand goes in as two pieces (its low 27
   bits at its exponent's bin, its high 26 bits 27 bins up), a float's
   24 bits as one, so an element adds less than 2^27 to any bin, and
   ACC_FLUSH elements less than 2^57: acc_carry runs that often, so the bins
   never overflow. Above the largest double (bin 2097) there is room for
   sums of 2^77 of them. Integer adds are exact: any order, any number of
   threads, gives the same bins. */
#define ACC_BINS 2176
#define ACC_FLUSH ((size_t)1 << 30)
enum { ACC_NAN = 1, ACC_PINF = 2, ACC_NINF = 4 };

typedef struct acc {
    int64_t sum[ACC_BINS], abs[ACC_BINS];
    unsigned special; /* ACC_*: NaN or infinities seen */
} acc;

static void acc_add_f64(acc *a, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    int e = (int)(u >> 52 & 0x7ff);
    uint64_t m = u & 0xfffffffffffffull;
    if (e == 0x7ff) {
        a->special |= m ? ACC_NAN : u >> 63 ? ACC_NINF : ACC_PINF;
        return;
    }
    if (e)
        m |= 1ull << 52;
    else
        e = 1; /* subnormal: m x 2^-1074 */
    int64_t lo = (int64_t)(m & 0x7ffffff), hi = (int64_t)(m >> 27);
    int64_t s = -(int64_t)(u >> 63); /* 0, or -1: (v ^ s) - s is -v */
    int k = e - 1;                   /* |v| = m x 2^(e - 1075) */
    a->sum[k] += (lo ^ s) - s;
    a->sum[k + 27] += (hi ^ s) - s;
    a->abs[k] += lo;
    a->abs[k + 27] += hi;
}

static void acc_add_f32(acc *a, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    int e = (int)(u >> 23 & 0xff);
    int64_t m = u & 0x7fffff;
    if (e == 0xff) {
        a->special |= m ? ACC_NAN : u >> 31 ? ACC_NINF : ACC_PINF;
        return;
    }
    if (e)
        m |= 1 << 23;
    else
        e = 1;
    int k = e + 924; /* |v| = m x 2^(e - 150) = m x 2^(e + 924 - 1074) */
    a->sum[k] += u >> 31 ? -m : m;
    a->abs[k] += m;
}

/* Carries every bin into the next: afterwards b[k] is 0 or 1 below the top
   bin, which keeps the sign (0 or -1 for every sum that fits). */
static void acc_carry(int64_t *b)
{
    for (int k = 0; k < ACC_BINS - 1; k++) {
        int64_t c = (b[k] - (b[k] & 1)) / 2; /* floor(b[k] / 2), exactly */
        b[k] -= 2 * c;
        b[k + 1] += c;
    }
}

/* The bins' value rounded to the nearest double, ties to even (b is spent). */
static double acc_round(int64_t *b)
{
    acc_carry(b);
    int neg = b[ACC_BINS - 1] < 0;
    if (neg) { /* two's complement to magnitude: negate, carry again */
        for (int k = 0; k < ACC_BINS; k++)
            b[k] = -b[k];
        acc_carry(b);
    }
    /* every bin is now a bit of |S|, the top one 0 */
    int h = ACC_BINS - 1;
    while (h >= 0 && b[h] == 0)
        h--;
    if (h < 0)
        return 0.0;
    int lsb = h > 52 ? h - 52 : 0; /* below 2^-1021 every bit fits (subnormals) */
    uint64_t m = 0;
    for (int k = h; k >= lsb; k--)
        m = m << 1 | (uint64_t)b[k];
    if (lsb > 0 && b[lsb - 1]) { /* at least half an ulp below: up, unless an exact tie with m even */
        int up = (int)(m & 1);
        for (int k = 0; k < lsb - 1 && !up; k++)
            up = b[k] != 0;
        m += (uint64_t)up;
    }
    double r = ldexp((double)m, lsb - 1074); /* exact, or inf past DBL_MAX */
    return neg ? -r : r;
}

static double acc_result(acc *a, double *sum_abs)
{
    double s = acc_round(a->sum), sa = acc_round(a->abs);
    unsigned sp = a->special;
    if (sp & ACC_NAN)
        s = sa = NAN;
    else if ((sp & ACC_PINF) && (sp & ACC_NINF))
        s = NAN, sa = INFINITY;
    else if (sp)
        s = sp & ACC_PINF ? INFINITY : -INFINITY, sa = INFINITY;
    if (sum_abs)
        *sum_abs = sa;
    return s;
}

typedef void (*acc_range)(acc *a, const void *x, size_t lo, size_t hi);

static void range_f32(acc *a, const void *x, size_t lo, size_t hi)
{
    const float *f = x;
    for (size_t i = lo; i < hi;) {
        size_t end = hi - i > ACC_FLUSH ? i + ACC_FLUSH : hi;
        for (; i < end; i++)
            acc_add_f32(a, f[i]);
        acc_carry(a->sum), acc_carry(a->abs);
    }
}

static void range_f64(acc *a, const void *x, size_t lo, size_t hi)
{
    const double *d = x;
    for (size_t i = lo; i < hi;) {
        size_t end = hi - i > ACC_FLUSH ? i + ACC_FLUSH : hi;
        for (; i < end; i++)
            acc_add_f64(a, d[i]);
        acc_carry(a->sum), acc_carry(a->abs);
    }
}

static double reduce_cpu(acc_range add, const void *x, size_t n, double *sum_abs)
{
    acc a; /* 35 KB */
    memset(&a, 0, sizeof a);
    add(&a, x, 0, n);
    return acc_result(&a, sum_abs);
}

/* Below this size a parallel region costs more than it saves. */
#define OMP_MIN_N 65536

static double reduce_omp(acc_range add, const void *x, size_t n, double *sum_abs)
{
    acc *total = n < OMP_MIN_N ? NULL : calloc(1, sizeof *total);
    if (!total)
        return reduce_cpu(add, x, n, sum_abs);
    #pragma omp parallel
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t per = n / (size_t)team, extra = n % (size_t)team, ut = (size_t)t;
        size_t lo = ut * per + (ut < extra ? ut : extra), hi = lo + per + (ut < extra);
        acc mine; /* carried: bins 0 or 1, the top 0 or -1, so the merged bins stay below team + 1 */
        memset(&mine, 0, sizeof mine);
        add(&mine, x, lo, hi);
        #pragma omp critical(pl_reduce_merge)
        {
            for (int k = 0; k < ACC_BINS; k++) {
                total->sum[k] += mine.sum[k];
                total->abs[k] += mine.abs[k];
            }
            total->special |= mine.special;
        }
    }
    double s = acc_result(total, sum_abs);
    free(total);
    return s;
}

double pl_reduce_cpu_f32(const float *x, size_t n, double *sum_abs) { return reduce_cpu(range_f32, x, n, sum_abs); }
double pl_reduce_omp_f32(const float *x, size_t n, double *sum_abs) { return reduce_omp(range_f32, x, n, sum_abs); }
double pl_reduce_cpu_f64(const double *x, size_t n, double *sum_abs) { return reduce_cpu(range_f64, x, n, sum_abs); }
double pl_reduce_omp_f64(const double *x, size_t n, double *sum_abs) { return reduce_omp(range_f64, x, n, sum_abs); }

/* ------------------------------------------------------------- tolerance */

double pl_gamma(double k, double unit_roundoff)
{
    double ku = k * unit_roundoff;
    return ku >= 1 ? INFINITY : ku / (1 - ku);
}

static size_t ceil_log2(size_t n)
{
    size_t k = 0;
    while (k < 8 * sizeof n && ((size_t)1 << k) < n)
        k++;
    return k;
}

/* The 2^-50 covers, while gamma_K <= 1: the oracle's rounding (2^-53 |S|),
   sum_abs's (2^-53 sum|x|) and the three roundings of this line. */
double pl_sum_tolerance(size_t n, double sum_abs, double unit_roundoff, size_t chunk)
{
    double k = (double)(chunk ? chunk : 1) + (double)ceil_log2(n);
    if (k * unit_roundoff >= 0.5)
        return INFINITY;
    return (pl_gamma(k, unit_roundoff) + 0x1p-50) * sum_abs;
}

int pl_within(double got, double ref, double tol)
{
    if (isnan(ref))
        return isnan(got);
    return got == ref || fabs(got - ref) <= tol;
}

/* ------------------------------------------------ the summation orders */

float pl_sum_serial_f32(const float *x, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s;
}

float pl_sum_pairwise_f32(const float *x, size_t n)
{
    if (n <= PL_PAIRWISE_BASE)
        return pl_sum_serial_f32(x, n);
    size_t h = n / 2;
    return pl_sum_pairwise_f32(x, h) + pl_sum_pairwise_f32(x + h, n - h);
}

static int tree_block_ok(int block)
{
    return block >= 2 && block <= PL_TREE_MAX_BLOCK && (block & (block - 1)) == 0;
}

/* Levels of blocks above the elements: the least L with block^L >= n. */
static int tree_levels(size_t n, int block)
{
    int levels = 0;
    for (size_t cap = 1; cap < n; cap = cap > SIZE_MAX / (size_t)block ? SIZE_MAX : cap * (size_t)block)
        levels++;
    return levels;
}

/* Node j of `level` (level 0: the elements, 0 past the end), whose
   children are nodes j * block .. j * block + block - 1 of the level below,
   each spanning `span` elements. One block's shared-memory tree. */
static float tree_node(const float *x, size_t n, int block, int level, size_t j, size_t span)
{
    if (level == 0)
        return j < n ? x[j] : 0.0f;
    float v[PL_TREE_MAX_BLOCK];
    size_t first = j * (size_t)block;
    for (int i = 0; i < block; i++) /* a child past the end holds 0 */
        v[i] = (first + (size_t)i) * span < n ? tree_node(x, n, block, level - 1, first + (size_t)i, span / (size_t)block) : 0.0f;
    for (int s = block / 2; s > 0; s /= 2) /* sequential addressing: thread i adds i + s */
        for (int i = 0; i < s; i++)
            v[i] += v[i + s];
    return v[0];
}

float pl_sum_tree_f32(const float *x, size_t n, int block)
{
    if (!tree_block_ok(block))
        return NAN;
    int levels = tree_levels(n, block);
    size_t span = 1; /* elements under one child of the root */
    for (int l = 1; l < levels; l++)
        span *= (size_t)block;
    return levels == 0 ? (n ? x[0] : 0.0f) : tree_node(x, n, block, levels, 0, span);
}

size_t pl_sum_depth_serial(size_t n) { return n ? n - 1 : 0; }

size_t pl_sum_depth_pairwise(size_t n)
{
    size_t d = 0;
    for (; n > PL_PAIRWISE_BASE; n -= n / 2) /* the larger half */
        d++;
    return d + (n ? n - 1 : 0);
}

size_t pl_sum_depth_tree(size_t n, int block)
{
    if (!tree_block_ok(block))
        return 0;
    return (size_t)tree_levels(n, block) * (size_t)ceil_log2((size_t)block);
}

/* ------------------------------------------------------ the experiment */

/* Element i of stream `seed`: splitmix64's output at counter i + 1. */
static uint64_t splitmix64_at(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void pl_sum_uniform_f32(float *x, size_t n, uint64_t seed)
{
    #pragma omp parallel for schedule(static) if (n >= OMP_MIN_N)
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(splitmix64_at(seed, i) >> 40) * 0x1p-24f; /* 24 bits: exact */
}

static double rel_err(float got, double exact)
{
    double d = fabs((double)got - exact);
    return exact == 0 ? d : d / fabs(exact);
}

int pl_sum_error_row(size_t n, uint64_t seed, int block, pl_sum_error *row)
{
    if (!tree_block_ok(block))
        return -1;
    float *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return -1;
    pl_sum_uniform_f32(x, n, seed);
    pl_sum_error r = { .n = n, .seed = seed, .block = block };
    r.exact = pl_reduce_omp_f32(x, n, &r.sum_abs);
    r.serial = pl_sum_serial_f32(x, n);
    r.pairwise = pl_sum_pairwise_f32(x, n);
    r.tree = pl_sum_tree_f32(x, n, block);
    free(x);

    const double u = 0x1p-24;
    double cond = r.exact == 0 ? 1 : r.sum_abs / fabs(r.exact);
    r.err_serial = rel_err(r.serial, r.exact);
    r.err_pairwise = rel_err(r.pairwise, r.exact);
    r.err_tree = rel_err(r.tree, r.exact);
    r.bound_serial = (double)pl_sum_depth_serial(n) * u * cond;
    r.bound_pairwise = (double)pl_sum_depth_pairwise(n) * u * cond;
    r.bound_tree = (double)pl_sum_depth_tree(n, block) * u * cond;
    r.walk_serial = sqrt((double)n) * u;
    r.walk_tree = n > 1 ? sqrt(log2((double)n)) * u : 0;
    *row = r;
    return 0;
}
