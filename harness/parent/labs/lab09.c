/* harness/parent/labs/lab09.c: the lab table entry of lab 09, the onesweep
 * radix sort. Parts, yardsticks, sizes, points and the known mistakes live
 * here only; the worker's side is harness/worker/labs/lab09.cu, the packed
 * input of a digit pass harness/wire/lab09.h.
 *
 *   a    the four digits' histograms, as exclusive bases (1024 words),
 *        against a serial count; the key distribution is its parameter
 *   b, c one digit pass (chained, look-back): the input is the digit's
 *        bases, its shift and the keys; the output the keys stably sorted
 *        by that digit, compared word by word; the shift is the parameter
 *   cs   part c under stress: STRESS_RUNS calls on fresh inputs while the
 *        worker's noise kernels hold SMs and load memory, and the word after
 *        the output says whether the call took its tile ids from the counter
 *   d    the whole sort, keys, judged as a sort (lost, order, stability)
 *   dp   the whole sort, pairs: n keys, then the values 0 .. n-1 (each key's
 *        input position), so that a stable CPU sort is the one right answer
 *
 * Known mistakes. Part a: bases that count only a head of the keys (the
 * tail missed), and inclusive bases. Parts b and c, read off where each
 * written key should have gone: keys in their digit's places but out of
 * input order (an unstable rank), keys of one digit moved as a run by the
 * same distance (a prefix from the wrong tile), and every key moved by its
 * digit's whole count (an inclusive base or start). Parts d and dp leave
 * it to the sort judge. */
#include "../../../kernels_ref/cpu/radix.h"
#include "../../../labs/09-onesweep-sort/onesweep_sort.h"
#include "../../wire/lab09.h"
#include "../diagnose.h"
#include "../judges/array.h"
#include "../judges/sort.h"
#include "../judges/stress.h"
#include "../lab.h"
#include "../rng.h"

#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calls per stress test; the worker's noise changes with every call. */
#define STRESS_RUNS 100
/* Known mistakes are looked for up to this many keys (sorts on the CPU). */
#define KNOWN_UP_TO (1L << 22)
/* Part a: how many keys at the end a missed tail may hold. */
#define TAIL_MAX 8192
#define HEAD PL_LAB09_HEAD

static size_t scratch_ints(long n) { return (OS_SCRATCH_BYTES(n) + 3) / 4; }

/* ------------------------------------------------------------- inputs */

static void gen_u32(int *a, size_t len, uint64_t seed, double dist)
{
    pl_keys_u32((unsigned *)a, len, seed, (int)dist);
}

/* Pairs: n keys, then the values 0 .. n-1 (each key's input position). */
static void gen_pairs(int *a, size_t len, uint64_t seed, double dist)
{
    size_t n = len / 2;
    pl_keys_u32((unsigned *)a, n, seed, (int)dist);
#pragma omp parallel for schedule(static) if (n > PL_GEN_CHUNK)
    for (size_t i = 0; i < n; i++)
        a[n + i] = (int)i;
}

/* One digit's 256 counts, in place, into its exclusive bases. */
static void digit_bases(unsigned *b)
{
    unsigned sum = 0;
    for (int d = 0; d < 256; d++) {
        unsigned c = b[d];
        b[d] = sum;
        sum += c;
    }
}

/* Each digit's 256 counts, in place, into its exclusive bases. */
static void counts_to_bases(unsigned *b)
{
    for (int p = 0; p < 4; p++)
        digit_bases(b + 256 * p);
}

/* The four digits' exclusive bases of keys[0 .. n): 1024 words. */
static void bases_of(const unsigned *keys, size_t n, unsigned *bases)
{
    memset(bases, 0, PL_LAB09_BASES * sizeof *bases);
    for (size_t i = 0; i < n; i++)
        for (int p = 0; p < 4; p++)
            bases[256 * p + ((keys[i] >> (8 * p)) & 255)]++;
    counts_to_bases(bases);
}

/* A digit pass's input: the bases of the digit at shift `shift` (the
   parameter), the shift, zeros to HEAD words, then random keys. */
static long pass_words(long n, double shift) { return (void)shift, n + HEAD; }
static void gen_pass(int *a, size_t len, uint64_t seed, double shift)
{
    size_t n = len - HEAD;
    unsigned *keys = (unsigned *)a + HEAD;
    pl_keys_u32(keys, n, seed, PL_KEYS_RANDOM);
    memset(a, 0, HEAD * sizeof *a);
    int p = (int)shift / 8 & 3;
    /* the one digit's counts, per thread, then added: a stress test makes
       100 of these inputs, and with all four digits counted on one core
       an input of n = 2^22 took 33 ms (5 ms now) */
    unsigned *b = (unsigned *)a;
#pragma omp parallel if (n > PL_GEN_CHUNK)
    {
        unsigned mine[256] = {0};
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++)
            mine[(keys[i] >> (8 * p)) & 255]++;
#pragma omp critical
        for (int d = 0; d < 256; d++)
            b[d] += mine[d];
    }
    digit_bases(b);
    a[PL_LAB09_SHIFT] = 8 * p;
}
/* Graded timing patches no word of a pass's input: a key changed under the
   bases would send keys past the end. */
static void no_patch(const int *in, long n, double param, long *lo, long *hi)
{
    (void)in, (void)n, (void)param;
    *lo = *hi = 0;
}

/* -------------------------------------------------- CPU references */

static void hist_cpu(const int *in, int *out, size_t n) { bases_of((const unsigned *)in, n, (unsigned *)out); }

/* The same with OpenMP: per-thread counts, added. */
static void hist_omp(const int *in, int *out, size_t n)
{
    const unsigned *k = (const unsigned *)in;
    unsigned *b = (unsigned *)out;
    memset(b, 0, PL_LAB09_BASES * sizeof *b);
#pragma omp parallel if (n > PL_GEN_CHUNK)
    {
        unsigned mine[PL_LAB09_BASES] = {0};
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++)
            for (int p = 0; p < 4; p++)
                mine[256 * p + ((k[i] >> (8 * p)) & 255)]++;
#pragma omp critical
        for (int j = 0; j < PL_LAB09_BASES; j++)
            b[j] += mine[j];
    }
    counts_to_bases(b);
}

/* One digit pass, serial: each key to its digit's next place (stable). */
static void pass_cpu(const int *in, int *out, size_t n)
{
    const unsigned *keys = (const unsigned *)in + HEAD;
    unsigned next[256];
    int shift = in[PL_LAB09_SHIFT];
    memcpy(next, in, sizeof next);
    for (size_t i = 0; i < n; i++)
        out[next[(keys[i] >> shift) & 255]++] = (int)keys[i];
}

/* The same with OpenMP: each thread counts its stretch of the keys, the
   counts are scanned thread by thread within each digit from the digit's
   base, and each thread scatters its stretch. */
static void pass_omp(const int *in, int *out, size_t n)
{
    const unsigned *keys = (const unsigned *)in + HEAD;
    const int shift = in[PL_LAB09_SHIFT];
    int most = omp_get_max_threads() < 64 ? omp_get_max_threads() : 64;
    unsigned(*at)[256] = n > PL_GEN_CHUNK ? calloc((size_t)most, sizeof *at) : NULL;
    if (!at) {
        pass_cpu(in, out, n);
        return;
    }
#pragma omp parallel num_threads(most)
    {
        const size_t t = (size_t)omp_get_thread_num(), threads = (size_t)omp_get_num_threads();
        const size_t lo = n * t / threads, hi = n * (t + 1) / threads;
        for (size_t i = lo; i < hi; i++)
            at[t][(keys[i] >> shift) & 255]++;
#pragma omp barrier
#pragma omp single
        for (int d = 0; d < 256; d++) {
            unsigned sum = (unsigned)in[d];
            for (size_t u = 0; u < threads; u++) {
                unsigned c = at[u][d];
                at[u][d] = sum;
                sum += c;
            }
        }
        for (size_t i = lo; i < hi; i++)
            out[at[t][(keys[i] >> shift) & 255]++] = (int)keys[i];
    }
    free(at);
}

/* Part cs: the pass, then the worker's word on the tile counter. */
static long cs_len(long n) { return n + 1; }
static void cs_cpu(const int *in, int *out, size_t n) { pass_cpu(in, out, n), out[n] = 1; }
static void cs_omp(const int *in, int *out, size_t n) { pass_omp(in, out, n), out[n] = 1; }
/* up to 2^22 keys: 729 tiles of the solution's per run */
static const long cs_sizes[] = {65537, (1L << 20) + 3, (1L << 22) + 5};

/* ------------------------------------------- known mistakes: part a */

/* Bases that count only the first m of the n keys, for some m from n - 1
   down to n - TAIL_MAX; or bases with each digit's own count added. */
static int known_hist(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t b, char *why,
                      size_t cap)
{
    (void)b;
    if (!in || n != PL_LAB09_BASES || n_in > (size_t)KNOWN_UP_TO)
        return 0;
    const unsigned *w = (const unsigned *)want, *g = (const unsigned *)got, *keys = (const unsigned *)in;
    int inclusive = 1;
    for (int p = 0; p < 4 && inclusive; p++)
        for (int d = 0; d < 256 && inclusive; d++) {
            unsigned next = d < 255 ? w[256 * p + d + 1] : (unsigned)n_in;
            inclusive = g[256 * p + d] == next;
        }
    if (inclusive) {
        snprintf(why, cap, "inclusive bases (each digit's own count added) where exclusive ones are asked: "
                           "d_bases[256 * p] must be 0");
        return 1;
    }
    /* the counts of keys[0 .. m), taken down from m = n_in one key at a time */
    unsigned c[PL_LAB09_BASES], e[PL_LAB09_BASES];
    memset(c, 0, sizeof c);
    for (size_t i = 0; i < n_in; i++)
        for (int p = 0; p < 4; p++)
            c[256 * p + ((keys[i] >> (8 * p)) & 255)]++;
    for (size_t m = n_in; m-- > 0 && n_in - m <= TAIL_MAX;) {
        for (int p = 0; p < 4; p++)
            c[256 * p + ((keys[m] >> (8 * p)) & 255)]--;
        int same = 1;
        for (int p = 0; p < 4 && same; p++) {
            unsigned sum = 0;
            for (int d = 0; d < 256; d++)
                e[256 * p + d] = sum, sum += c[256 * p + d];
            same = memcmp(e + 256 * p, g + 256 * p, 256 * sizeof *e) == 0;
        }
        if (same) {
            snprintf(why, cap, "the bases count only the first %zu of the %zu keys: the last %zu missed (the "
                               "n %% 4 keys after the last uint4, or the last block's stretch?)",
                     m, n_in, n_in - m);
            return 1;
        }
    }
    return 0;
}

/* --------------------------------------- known mistakes: parts b, c */

static int cmp_u32(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Where key k stands in want: its first place (want's keys as key << 32 |
   place, sorted), or -1. */
static long place_of(const uint64_t *at, size_t n, unsigned k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((unsigned)(at[mid] >> 32) < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (unsigned)(at[lo] >> 32) == k ? (long)(at[lo] & 0xffffffffu) : -1;
}

/* Whether want holds key k at place j. */
static int is_place(const uint64_t *at, size_t n, unsigned k, size_t j)
{
    uint64_t x = (uint64_t)k << 32 | j;
    return bsearch(&x, at, n, sizeof *at, cmp_u64) != NULL;
}

/* The pass's mistakes, from where each written key should be (see the top
   of the file). */
static int known_pass(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t b, char *why,
                      size_t cap)
{
    if (!in || n_in != n + HEAD || n == 0 || n > (size_t)KNOWN_UP_TO || b >= n)
        return 0;
    const unsigned *w = (const unsigned *)want, *g = (const unsigned *)got;
    const int shift = in[PL_LAB09_SHIFT];
#define DIGIT(k) (((k) >> shift) & 255)
    unsigned count[256];
    for (int d = 0; d < 256; d++)
        count[d] = (d < 255 ? (unsigned)in[d + 1] : (unsigned)n) - (unsigned)in[d];
    /* every key written, each in its digit's places, the same keys: unstable */
    int placed = 1;
    for (size_t i = 0; i < n && placed; i++)
        placed = got[i] != PL_POISON_I32 && DIGIT(g[i]) == DIGIT(w[i]);
    unsigned *sw = placed ? malloc(n * sizeof *sw) : NULL, *sg = placed ? malloc(n * sizeof *sg) : NULL;
    if (sw && sg) {
        memcpy(sw, w, n * sizeof *sw), memcpy(sg, g, n * sizeof *sg);
        qsort(sw, n, sizeof *sw, cmp_u32), qsort(sg, n, sizeof *sg, cmp_u32);
        int same = memcmp(sw, sg, n * sizeof *sw) == 0;
        free(sw), free(sg);
        if (same) {
            snprintf(why, cap, "every key in its digit's places, but keys of digit %u out of input order from "
                               "index %zu: an unstable rank (equal digits swapped within a tile?)",
                     DIGIT(w[b]), b);
            return 1;
        }
    } else {
        free(sw), free(sg);
    }
    uint64_t *at = malloc(n * sizeof *at);
    if (!at)
        return 0;
    for (size_t i = 0; i < n; i++)
        at[i] = (uint64_t)w[i] << 32 | i;
    qsort(at, n, sizeof *at, cmp_u64);
    /* every written key moved by its digit's whole count: inclusive */
    size_t written = 0, by_count = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == PL_POISON_I32)
            continue;
        written++;
        by_count += i >= count[DIGIT(g[i])] && is_place(at, n, g[i], i - count[DIGIT(g[i])]);
    }
    int named = 0;
    if (written > 0 && by_count == written) {
        snprintf(why, cap, "every key %s places late, its digit's count: a base or a start in the tile taken "
                           "inclusive (the digit's own count added) where the exclusive one is meant",
                 "written that many");
        named = 1;
    } else if (got[b] != PL_POISON_I32 && DIGIT(g[b]) == DIGIT(w[b])) {
        /* a run of one digit moved together by the same distance */
        long j = place_of(at, n, g[b]);
        long moved = j < 0 ? 0 : (long)b - j;
        size_t run = 0;
        for (size_t i = b; i < n && run < 64 && got[i] != PL_POISON_I32 && DIGIT(g[i]) == DIGIT(g[b]); i++) {
            long ji = place_of(at, n, g[i]);
            if (ji < 0 || (long)i - ji != moved)
                break;
            run++;
        }
        if (moved != 0 && run >= 2) {
            snprintf(why, cap, "keys of digit %u written as a run %ld places %s from index %zu: the digit's "
                               "prefix over earlier tiles is wrong (an offset from the wrong tile, or a "
                               "look-back that stopped early?)",
                     DIGIT(g[b]), moved < 0 ? -moved : moved, moved < 0 ? "early" : "late", b);
            named = 1;
        }
    }
#undef DIGIT
    free(at);
    return named;
}

/* Part cs: the n keys, then the worker's word on the tile counter. */
static int known_stress(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t b, char *why,
                        size_t cap)
{
    if (n == 0)
        return 0;
    if (pl_stress_counter_word(got, n, b, why, cap))
        return 1;
    return known_pass(in, n_in, want, got, n - 1, b, why, cap);
}

/* ------------------------------------------------------------ table */

static long hist_len(long n) { return (void)n, PL_LAB09_BASES; }
static long twice(long n, double dist) { return (void)dist, 2 * n; }
/* Bytes a call moves: the histogram reads the keys once; a pass reads and
   writes them once; the sort is both, four passes (values too in pairs). */
static double hist_bytes(long n, double p) { return (void)p, 4.0 * (double)n; }
static double pass_bytes(long n, double p) { return (void)p, 8.0 * (double)n; }
static double keys_bytes(long n, double p) { return (void)p, 36.0 * (double)n; }
static double pairs_bytes(long n, double p) { return (void)p, 68.0 * (double)n; }
/* The roofs (roofs.h, docs/roofs.md) are these counts: the onesweep sort
   of the handout and the solution reads the keys once for all four
   histograms, then each of the four 8-bit passes reads and writes them
   once, values too for pairs, whatever the keys (no pass is skipped): 9n
   words, 17n for pairs. CUB's DeviceRadixSort is onesweep too, with the
   same passes: the same roof. A digit pass (b, c) reads and writes the
   keys once (the 1024 bases beside them left out); CUB's SortKeys on the
   digit's 8 bits also reads them for its histogram first: 3n. */
static double cub_digit_bytes(long n, double p) { return (void)p, 12.0 * (double)n; }
#define KEYS_ROOF {keys_bytes, "9n words: the keys read once for the histograms, then 4 passes of 8 bits (2n each)"}
#define PAIRS_ROOF                                                                                                 \
    {pairs_bytes, "17n words: the keys read once for the histograms, then 4 passes of 8 bits (4n each: keys and "  \
                  "values)"}
#define PASS_ROOF {pass_bytes, "2n words: the keys read once and written once (the digit's bases beside them)"}
#define CUB_DIGIT_ROOF {cub_digit_bytes, "3n words: a histogram read of the keys, then one pass of 8 bits (2n)"}

static const double shifts[] = {0, 8, 16, 24};

static const pl_array_judge hist_cfg = {.in = {.gen = gen_u32}, .out_len = hist_len, .known = known_hist};
static const pl_array_judge pass_cfg = {.in = {.words = pass_words, .gen = gen_pass, .span = no_patch},
                                        .known = known_pass};
static const pl_array_judge cs_run_cfg = {.in = {.words = pass_words, .gen = gen_pass, .span = no_patch},
                                          .out_len = cs_len, .known = known_stress};
static const pl_judge hist = {&pl_array_kind, &hist_cfg};
static const pl_judge pass = {&pl_array_kind, &pass_cfg};
static const pl_judge cs_run = {&pl_array_kind, &cs_run_cfg};
static const pl_stress_judge cs_cfg = {&cs_run, STRESS_RUNS};
static const pl_judge cs_stress = {&pl_stress_kind, &cs_cfg};
static const pl_sort_judge keys_cfg = {{.gen = gen_u32}, PL_SORT_U32, 0};
static const pl_sort_judge pairs_cfg = {{.words = twice, .gen = gen_pairs}, PL_SORT_U32, 1};
static const pl_judge keys_sort = {&pl_sort_kind, &keys_cfg};
static const pl_judge pairs_sort = {&pl_sort_kind, &pairs_cfg};

#define DISTS                                                                                                  \
    .params = {.name = "dist", .values = pl_keys_dists, .n = PL_KEYS_DISTS, .bench = PL_KEYS_RANDOM,               \
               .labels = pl_keys_dist_names}
#define SHIFTS .params = {.name = "shift", .values = shifts, .n = 4, .bench = 0}

static const pl_part part_a = {.id = "a", .title = "four digit histograms, bases", .entry = "onesweep_histogram",
                               .sizes = {.max = OS_MAX_N}, .points = 1, .bench = 1, .cpu = hist_cpu,
                               .omp = hist_omp, .bytes = hist_bytes,
                               .alg = {hist_bytes, "n words: the keys read once for all four digits' counts"},
                               DISTS, .judge = &hist};
static const pl_part part_b = {.id = "b", .title = "digit pass, chained", .entry = "onesweep_pass_chained",
                               .sizes = {.max = OS_MAX_N}, .points = 1, .bench = 1, .cpu = pass_cpu,
                               .omp = pass_omp, .vendor = 1, .bytes = pass_bytes, .alg = PASS_ROOF,
                               .vendor_alg = CUB_DIGIT_ROOF, SHIFTS, .judge = &pass};
static const pl_part part_c = {.id = "c", .title = "digit pass, decoupled look-back",
                               .entry = "onesweep_pass_lookback", .sizes = {.max = OS_MAX_N}, .points = 1,
                               .bench = 1, .cpu = pass_cpu, .omp = pass_omp, .vendor = 1, .bytes = pass_bytes,
                               .alg = PASS_ROOF, .vendor_alg = CUB_DIGIT_ROOF, SHIFTS, .judge = &pass};
static const pl_part part_cs = {
    .id = "cs", .title = "look-back under load, 100 runs", .entry = "onesweep_pass_lookback",
    .sizes = {.max = (1L << 22) + 5, .test = cs_sizes, .ntest = sizeof cs_sizes / sizeof cs_sizes[0]},
    .points = 2, .cpu = cs_cpu, .omp = cs_omp, .judge = &cs_stress};
static const pl_part part_d = {.id = "d", .title = "the whole sort, keys", .entry = "onesweep_sort_keys",
                               .sizes = {.max = OS_MAX_N}, .points = 1, .bench = 1, .cpu = pl_sort_keys_cpu,
                               .omp = pl_sort_keys_omp, .vendor = 1, .bytes = keys_bytes, .alg = KEYS_ROOF,
                               .vendor_alg = KEYS_ROOF, DISTS, .judge = &keys_sort};
static const pl_part part_dp = {.id = "dp", .title = "the whole sort, pairs", .entry = "onesweep_sort_pairs",
                                .sizes = {.max = OS_MAX_N}, .points = 1, .bench = 1, .cpu = pl_sort_pairs_cpu,
                                .omp = pl_sort_pairs_omp, .vendor = 1, .bytes = pairs_bytes, .alg = PAIRS_ROOF,
                                .vendor_alg = PAIRS_ROOF, DISTS, .judge = &pairs_sort};

static const pl_part *const parts[] = {PL_LAB09_PARTS(PL_PART_REF)};

/* Around a warp and OS_MIN_TILE; odd sizes for the histogram's uint4
   tail; one past a tile of the solution's where its shape at that n
   allows: 6529 for 6528 keys (384 threads of 17: parts b and c, and d up
   to 2^24), 8065 for 8064 (384 of 21, dp). 7169 is one past 7168 (256 of
   28), the solution's shape for keys only above 2^24, so for it no
   boundary; 2^24 + 1 is the first size that takes that shape, with no
   size one past its tiles. The handout's section 2.4 says what each size
   tests, and tests/unit/test_lab09_tiles.sh checks that against the
   solution's constants and this list. */
static const long test_sizes[] = {0,    1,    2,    31,   33,    1000,  1024,           1025,
                                  4097, 6529, 7169, 8065, 65537, (1L << 20) + 5, (1L << 22) + 3, (1L << 24) + 1};
static const long bench_sizes[] = {1L << 16, 1L << 20, 1L << 24, 1L << 28};

/* Performance, against CUB's DeviceRadixSort in the same run, random keys
   at 2^24; the speed goal at 2^28 is `lab09 run`'s. At 2^28 a test took
   25 s and 40 s on an H100 when the CPU sorted each repetition's fresh
   input to check it; the sort judge now proves the output (its proven)
   and sorts only when that fails, but each repetition's input, its copies
   and the check still grow with n, 16 times from 2^24 to 2^28 (pairs:
   2 GiB in and out a repetition), and a test there has not been timed
   since. Measured on an H100 (2026-11-26, make
   check): the solution at 0.87x CUB with keys and 0.85x with pairs (0.93x
   and 0.86x at 2^28); the first one, ranked with __match_any_sync, was at
   0.54x and 0.66x. Full marks at 0.7 and 0.65, some room below the
   solution for another GPU; none at 0.2. */
static const pl_perf perf[] = {
    {.part = "d", .n = 1L << 24, .points = 4, .yardstick = PL_YARD_VENDOR, .full = 0.7, .zero = 0.2,
     .param = PL_KEYS_RANDOM},
    {.part = "dp", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.65, .zero = 0.2,
     .param = PL_KEYS_RANDOM},
};

static const pl_lab lab09 = {
    .id = "09",
    .name = "onesweep-sort",
    .title = "onesweep radix sort (histogram, digit passes with look-back, CUB's rival)",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    .test_sizes = test_sizes,
    .ntest_sizes = sizeof test_sizes / sizeof test_sizes[0],
    .bench_sizes = bench_sizes,
    .nbench_sizes = sizeof bench_sizes / sizeof bench_sizes[0],
    .sweep_lo = 16,
    .sweep_hi = 28,
    .gen_lo = 0,
    .gen_hi = 0,         /* unused: every part has its own generator */
    .bytes_per_elem = 8, /* unused: every part counts its own bytes */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
};

const pl_lab *pl_this_lab(void) { return &lab09; }
