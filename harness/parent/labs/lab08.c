/* harness/parent/labs/lab08.c: the lab table entry of lab 08, the single-pass
 * scan (chained, decoupled look-back, tuned against CUB). Parts,
 * yardsticks, sizes, points and the known mistakes live here only; the
 * worker's side is harness/worker/labs/lab08.cu.
 *
 * Part bs is part b under stress: each test is STRESS_RUNS calls on fresh
 * inputs while the worker's noise kernels hold SMs and load the memory
 * system, and the word after the output says whether the call took its tile
 * ids from the counter in scratch (the worker's op writes it).
 *
 * Known mistakes of the int parts (known_scan) are read off the first wrong
 * element b, where a tile begins: the prefix the code carried into it is
 * compared with sums of the input between earlier tile boundaries, for the
 * tile sizes that divide every place where the error changes. A look-back
 * that stops at its first aggregate carries only the previous tile's sum;
 * a status word whose flag was read before its value carries a prefix
 * short by one tile's aggregate, or by everything before some tile. Where
 * only one tile is wrong, a prefix short by k tiles' sums cannot be told
 * from a look-back stopped early on tiles k times larger: the first is
 * named. */
#include "../../../kernels_ref/cpu/scan.h"
#include "../../../labs/08-single-pass-scan/single_pass_scan.h"
#include "../../wire/lab08.h"
#include "../diagnose.h"
#include "../judges/array.h"
#include "../judges/real.h"
#include "../judges/stress.h"
#include "../lab.h"
#include "../rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calls per stress test; the worker's noise changes with every call. */
#define STRESS_RUNS 100
/* Known mistakes are looked for when the first wrong element is at most
   here (the prefix sums up to it are computed for the purpose). */
#define KNOWN_UP_TO (1L << 26)
/* Tile sizes considered: every divisor of b in this range. */
#define TILE_MIN 32
#define TILE_MAX 65536

static size_t scratch_ints(long n) { return (SPS_SCRATCH_BYTES(n) + 3) / 4; }

/* ---------------------------------------------------- known mistakes */

static unsigned *pre;
static size_t pre_cap;

/* pre[0 .. m] = the exclusive prefix sums of in (wrapping), or NULL. */
static const unsigned *prefix_sums(const int *in, size_t m)
{
    if (m + 1 > pre_cap) {
        free(pre);
        pre = malloc((m + 1) * sizeof *pre);
        pre_cap = pre ? m + 1 : 0;
        if (!pre)
            return NULL;
    }
    pre[0] = 0;
    for (size_t i = 0; i < m; i++)
        pre[i + 1] = pre[i] + (unsigned)in[i];
    return pre;
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        size_t r = a % b;
        a = b, b = r;
    }
    return a;
}

/* The tile size the errors point to: each of these mistakes gives a whole
   tile one error, which later tiles inherit, so the error want - got only
   changes where a tile begins. The greatest common divisor of b and the
   next CHANGES places where it changes: the tile size or a multiple of it
   (b alone when nothing changes after it); 0 when it is below TILE_MIN
   (errors that change inside tiles: some other mistake). */
#define CHANGES 256
static size_t error_period(const int *want, const int *got, size_t n, size_t b)
{
    size_t g = b;
    unsigned err = (unsigned)want[b] - (unsigned)got[b];
    for (size_t i = b + 1, seen = 0; i < n && seen < CHANGES && g >= TILE_MIN; i++) {
        unsigned e = (unsigned)want[i] - (unsigned)got[i];
        if (e != err)
            err = e, g = gcd(g, i), seen++;
    }
    return g >= TILE_MIN ? g : 0;
}

static int known_scan(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t b, char *why,
                      size_t cap)
{
    if (!in || b < 2 * TILE_MIN || b >= n || b >= n_in || b > (size_t)KNOWN_UP_TO)
        return 0;
    size_t g = error_period(want, got, n, b); /* the tile sizes tried below divide it */
    const unsigned *P = g ? prefix_sums(in, b) : NULL;
    if (!P)
        return 0;
    unsigned own = (unsigned)want[b] - P[b];     /* in[b] (inclusive) or 0 (exclusive) */
    unsigned carry = (unsigned)got[b] - own;     /* the prefix the code carried into b */
    unsigned missing = P[b] - carry;
    for (size_t L = TILE_MIN; L <= TILE_MAX && L < b; L++)
        if (g % L == 0 && missing == P[b - L]) {
            snprintf(why, cap,
                     "look-back stopped at the first aggregate: the prefix carried into index %zu is only the %zu "
                     "elements before it",
                     b, L);
            return 1;
        }
    for (size_t L = TILE_MIN; L <= TILE_MAX && L < b; L++) {
        if (g % L)
            continue;
        for (size_t j = 0; j + L <= b; j += L)
            if (missing == P[j + L] - P[j]) {
                snprintf(why, cap,
                         "a status read before its value (flag first, or no fence?): index %zu's prefix lacks "
                         "elements %zu..%zu, a tile's aggregate",
                         b, j, j + L - 1);
                return 1;
            }
        for (size_t j = L; j < b; j += L)
            if (missing == P[j]) {
                snprintf(why, cap,
                         "a status read before its value (flag first, or no fence?): index %zu's prefix lacks the "
                         "%zu elements before %zu",
                         b, j, j);
                return 1;
            }
    }
    return 0;
}

/* Part bs: the n elements, then the worker's word on the tile counter. */
static int known_stress(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t b, char *why,
                        size_t cap)
{
    if (n == 0)
        return 0;
    if (pl_stress_counter_word(got, n, b, why, cap))
        return 1;
    return known_scan(in, n_in, want, got, n - 1, b, why, cap);
}

/* ------------------------------------------------------- part bs */

static long bs_len(long n) { return n + 1; }
static void bs_cpu(const int *in, int *out, size_t n) { scan_cpu_inclusive(in, out, n), out[n] = 1; }
static void bs_omp(const int *in, int *out, size_t n) { scan_omp_inclusive(in, out, n), out[n] = 1; }
/* up to 2^22 elements: 2048 tiles of part b's solution per run */
static const long bs_sizes[] = {65537, (1L << 20) + 3, (1L << 22) + 5};

/* ---------------------------------------------------- float parts */

/* Multiples of 2^-6 in [-1, 1]: every partial sum of up to 2^30 of them is
   exact in float (below 2^18 in magnitude, far beyond what such a walk
   reaches), whatever the order of the additions. */
static void gen_f32(int *a, size_t len, uint64_t seed, double param)
{
    (void)param;
    pl_gen_ints(a, len, seed, -64, 64);
#pragma omp parallel for schedule(static) if (len > (1u << 20))
    for (size_t i = 0; i < len; i++) {
        float f = (float)a[i] / 64;
        memcpy(&a[i], &f, sizeof f);
    }
}

static void f_cpu_excl(const int *in, int *out, size_t n) { scan_cpu_exclusive_f32((const float *)in, (float *)out, n); }
static void f_cpu_incl(const int *in, int *out, size_t n) { scan_cpu_inclusive_f32((const float *)in, (float *)out, n); }
static void f_omp_excl(const int *in, int *out, size_t n) { scan_omp_exclusive_f32((const float *)in, (float *)out, n); }
static void f_omp_incl(const int *in, int *out, size_t n) { scan_omp_inclusive_f32((const float *)in, (float *)out, n); }

/* The other kind of scan, named when every wrong element matches it. */
static struct {
    const float *in;
    long n;
    int inclusive;
    double *v;
    size_t cap;
} other;

static int other_kind(pl_suspect *out, int k)
{
    if (k != 0 || other.n <= 0)
        return 0;
    if ((size_t)other.n > other.cap) {
        free(other.v);
        other.v = malloc((size_t)other.n * sizeof *other.v);
        other.cap = other.v ? (size_t)other.n : 0;
        if (!other.v)
            return 0;
    }
    scan_exact_f32(other.in, other.v, (size_t)other.n, !other.inclusive);
    out[0] = (pl_suspect){other.inclusive ? PL_HINT_AS_EXCLUSIVE : PL_HINT_AS_INCLUSIVE, other.v, NULL, 0};
    return 1;
}

static void expect_f32(const int *in, long n, double *want, double *tol, pl_cmp_real *c, int inclusive)
{
    (void)tol;
    scan_exact_f32((const float *)in, want, (size_t)n, inclusive);
    c->tol = NULL, c->tol_all = 0; /* the sums are exact: so must the results be (no array of zeros to fill) */
    other.in = (const float *)in, other.n = n, other.inclusive = inclusive;
    c->more_suspects = other_kind;
}
static void expect_excl(const int *in, long n, double param, double *want, double *tol, pl_cmp_real *c)
{
    (void)param;
    expect_f32(in, n, want, tol, c, 0);
}
static void expect_incl(const int *in, long n, double param, double *want, double *tol, pl_cmp_real *c)
{
    (void)param;
    expect_f32(in, n, want, tol, c, 1);
}
static long same_len(long n) { return n; }

/* ------------------------------------------------------------ table */

/* Around the tiles of the solution's parts (2048 in a and b, 4096 in c) and
   CUB's (3072), and past the 2^22 of the hidden sizes. */
static const long test_sizes[] = {0,    1,    2,     31,    33,           1000,          2048,          2049,
                                  3073, 4095, 4097,  12289, 65537,        (1L << 20) + 5, (1L << 22) + 3, (1L << 26) + 1};
/* Part a's chain is long: its rows stop at 2^26 (2^15 tiles of 2^11). */
static const long a_bench[] = {1L << 16, 1L << 18, 1L << 20, 1L << 22, 1L << 24, 1L << 26};
static const long bench_sizes[] = {1L << 20, 1L << 24, 1L << 28};

/* Judges: int scans with their known mistakes, proven right without the
   reference when they are; part b's under stress, with the tile counter's
   word after the output; float scans, exact. */
#define INT_SCAN PL_SCAN_HINTS, .known = known_scan
static const pl_array_judge int_incl_cfg = {INT_SCAN, .scan = PL_SCAN_INCLUSIVE};
static const pl_array_judge int_excl_cfg = {INT_SCAN, .scan = PL_SCAN_EXCLUSIVE};
static const pl_array_judge bs_run_cfg = {.out_len = bs_len, .known = known_stress};
static const pl_judge scan_incl = {&pl_scan_kind, &int_incl_cfg};
static const pl_judge scan_excl = {&pl_scan_kind, &int_excl_cfg};
static const pl_judge bs_run = {&pl_array_kind, &bs_run_cfg};
static const pl_stress_judge bs_cfg = {&bs_run, STRESS_RUNS};
static const pl_judge bs_stress = {&pl_stress_kind, &bs_cfg};
static const pl_real_judge excl_cfg = {{.gen = gen_f32}, PL_ELEM_F32, same_len, expect_excl};
static const pl_real_judge incl_cfg = {{.gen = gen_f32}, PL_ELEM_F32, same_len, expect_incl};
static const pl_judge excl_f32 = {&pl_real_kind, &excl_cfg};
static const pl_judge incl_f32 = {&pl_real_kind, &incl_cfg};

/* The roofs (roofs.h, docs/roofs.md): every part is one pass, chained (a)
   or with decoupled look-back (b, c and their kinds), as CUB's DeviceScan
   is: each element read once and written once, 2n words (the tiles'
   status words, one per tile of thousands, left out). The roof is what
   the rows count: their % of its roof is their % of copy, CUB's too. */
#define ONE_PASS_ROOFS .alg = PL_ALG_ONE_PASS, .vendor_alg = PL_ALG_CUB_SCAN
#define INT_JUDGED .points = 1, .bench = 1, .vendor = 1, ONE_PASS_ROOFS
#define INT_PART .sizes = {.max = SPS_MAX_N}, INT_JUDGED
#define FLOAT_PART .sizes = {.max = SPS_MAX_N}, .points = 1, .bench = 1, .vendor = 1, ONE_PASS_ROOFS
#define INCL .cpu = scan_cpu_inclusive, .omp = scan_omp_inclusive, .judge = &scan_incl
#define EXCL .cpu = scan_cpu_exclusive, .omp = scan_omp_exclusive, .judge = &scan_excl

static const pl_part part_a = {.id = "a", .title = "chained scan, inclusive", .entry = "scan_chained",
                               .sizes = {.max = SPS_MAX_N, .bench = a_bench,
                                         .nbench = sizeof a_bench / sizeof a_bench[0]},
                               INT_JUDGED, INCL};
static const pl_part part_b = {.id = "b", .title = "decoupled look-back, inclusive", .entry = "scan_lookback",
                               INT_PART, INCL};
static const pl_part part_bs = {
    .id = "bs", .title = "look-back under load, 100 runs", .entry = "scan_lookback",
    .sizes = {.max = (1L << 22) + 5, .test = bs_sizes, .ntest = sizeof bs_sizes / sizeof bs_sizes[0]}, .points = 2,
    .cpu = bs_cpu, .omp = bs_omp, .judge = &bs_stress};
static const pl_part part_c = {.id = "c", .title = "tuned, exclusive", .entry = "scan_tuned_exclusive", INT_PART,
                               EXCL};
static const pl_part part_ci = {.id = "ci", .title = "tuned, inclusive", .entry = "scan_tuned_inclusive", INT_PART,
                                INCL};
static const pl_part part_cf = {.id = "cf", .title = "tuned, exclusive, float", .entry = "scan_tuned_exclusive_f32",
                                FLOAT_PART, .cpu = f_cpu_excl, .omp = f_omp_excl, .judge = &excl_f32};
static const pl_part part_cfi = {.id = "cfi", .title = "tuned, inclusive, float",
                                 .entry = "scan_tuned_inclusive_f32", FLOAT_PART, .cpu = f_cpu_incl,
                                 .omp = f_omp_incl, .judge = &incl_f32};

static const pl_part *const parts[] = {PL_LAB08_PARTS(PL_PART_REF)};

/* Performance, against CUB's DeviceScan in the same run: part b at 2^24
   (full marks at half of CUB), and part c, exclusive and inclusive, at
   2^28, the benchmark size (full marks at 0.9 of CUB: the solution
   is meant to beat it). */
static const pl_perf perf[] = {
    {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.5, .zero = 0.1},
    {.part = "c", .n = 1L << 28, .points = 4, .yardstick = PL_YARD_VENDOR, .full = 0.9, .zero = 0.3},
    {.part = "ci", .n = 1L << 28, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.9, .zero = 0.3},
};

static const pl_lab lab08 = {
    .id = "08",
    .name = "single-pass-scan",
    .title = "single-pass scan (chained, decoupled look-back, tuned)",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    .test_sizes = test_sizes,
    .ntest_sizes = sizeof test_sizes / sizeof test_sizes[0],
    .bench_sizes = bench_sizes,
    .nbench_sizes = sizeof bench_sizes / sizeof bench_sizes[0],
    .sweep_lo = 16,
    .sweep_hi = 30,
    /* small values: the sums wrap only past 2^28 elements, as the hardware's do */
    .gen_lo = 0,
    .gen_hi = 7,
    .bytes_per_elem = 2 * sizeof(int), /* read n, write n: what a copy moves */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
};

const pl_lab *pl_this_lab(void) { return &lab08; }
