/* harness/parent/labs/lab05.c: the lab table entry of lab 05, radix sort.
 * Parts, yardsticks, sizes, points and the `passes` command live here only.
 *
 * Keys travel as 32-bit words and are read as unsigned, int or float by
 * each part. The key distribution is a named parameter of the input
 * (random, equal, sorted, reversed, few, high). Pairs are checked as one
 * array: n keys, then n values that are the input positions of the keys, so
 * a stable CPU sort is the one right answer and an unstable GPU sort shows
 * as values out of input order. */
#include "../../../kernels_ref/cpu/radix.h"
#include "../../../labs/05-radix-sort/radix_sort.h"
#include "../../wire/lab05.h"
#include "../diagnose.h"
#include "../judges/sort.h"
#include "../lab.h"
#include "../outcome.h"
#include "../report.h"
#include "../rng.h"
#include "../timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- inputs */

static void gen_u32(int *a, size_t len, uint64_t seed, double dist)
{
    pl_keys_u32((unsigned *)a, len, seed, (int)dist);
}

/* Signed: the same bits; sorted and reversed moved down by half their
   range, so that they run from negative to positive. */
static void gen_i32(int *a, size_t len, uint64_t seed, double dist)
{
    pl_keys_u32((unsigned *)a, len, seed, (int)dist);
    unsigned half = (unsigned)(len * 61 / 2);
    if ((int)dist == PL_KEYS_SORTED || (int)dist == PL_KEYS_REVERSED) {
#pragma omp parallel for schedule(static) if (len > PL_GEN_CHUNK)
        for (size_t i = 0; i < len; i++)
            a[i] = (int)((unsigned)a[i] - half);
    }
}

static int float_bits(float f)
{
    int b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Float keys, never NaN: random normal floats of either sign; one value; an
   ascending or descending ramp through zero; 8 values that include both
   zeros, a denormal and both infinities; only the top 8 bits random (the
   sign and the exponent's top 7 bits: powers of two of either sign, and
   zeros). */
struct f32_ctx {
    int *a;
    size_t len;
    int dist, one;
};

static void fill_f32(pl_rng *r, size_t lo, size_t hi, void *p)
{
    static const float few[8] = {-INFINITY, -2.5f, -0.0f, 0.0f, 1e-40f, 1.0f, 3.0e38f, INFINITY};
    struct f32_ctx *c = p;
    double half = (double)c->len / 2;
    for (size_t i = lo; i < hi; i++) {
        unsigned u;
        switch (c->dist) {
        case PL_KEYS_EQUAL: c->a[i] = c->one; break;
        case PL_KEYS_SORTED: c->a[i] = float_bits((float)(((double)i - half) * 0.25)); break;
        case PL_KEYS_REVERSED: c->a[i] = float_bits((float)(((double)(c->len - 1 - i) - half) * 0.25)); break;
        case PL_KEYS_FEW: c->a[i] = float_bits(few[pl_rng_next(r) >> 61]); break;
        case PL_KEYS_HIGH: c->a[i] = (int)(pl_keys_word(r) >> 24 << 24); break;
        default:
            u = pl_keys_word(r); /* exponent 1..254: no zero, denormal, infinity or NaN */
            c->a[i] = (int)((u & 0x807fffffu) | (1 + (u >> 8) % 254) << 23);
            break;
        }
    }
}

static void gen_f32(int *a, size_t len, uint64_t seed, double dist)
{
    pl_rng r;
    pl_rng_seed(&r, pl_seed_mix(seed, 0x6f6e6365ull /* "once" */, 0));
    unsigned u0 = pl_keys_word(&r);
    struct f32_ctx c = {a, len, (int)dist, (int)((u0 & 0x807fffffu) | (1 + u0 % 254) << 23)};
    pl_gen_chunks(len, seed, fill_f32, &c);
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

/* -------------------------------------------------- CPU references */

/* Signed and float keys: map to unsigned order, sort, map back. */
static void mapped_sort(const int *in, int *out, size_t n, int is_float, int omp)
{
    unsigned *k = (unsigned *)out;
    for (size_t i = 0; i < n; i++) {
        float f;
        memcpy(&f, &in[i], sizeof f);
        k[i] = is_float ? radix_key_from_float(f) : radix_key_from_int(in[i]);
    }
    pl_sort_must(omp ? radix_sort_omp(k, NULL, n) : radix_sort_cpu(k, NULL, n, 8));
    for (size_t i = 0; i < n; i++) {
        if (is_float) {
            float f = radix_float_from_key(k[i]);
            memcpy(&out[i], &f, sizeof f);
        } else {
            out[i] = radix_int_from_key(k[i]);
        }
    }
}
static void int_cpu(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 0, 0); }
static void int_omp(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 0, 1); }
static void float_cpu(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 1, 0); }
static void float_omp(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 1, 1); }

static long twice(long n, double dist) { return (void)dist, 2 * n; }
/* the keys (and values) read once and written once: the least a sort moves */
static double key_bytes(long n, double dist) { return (void)dist, 8.0 * (double)n; }
static double pair_bytes(long n, double dist) { return (void)dist, 16.0 * (double)n; }
static size_t scratch_ints(long len) { return RS_SCRATCH_INTS(len); }

/* ------------------------------------------------------------- roofs */

/* The roofs (roofs.h, docs/roofs.md) count the handout's words per key and
   pass (section 4.6) over the passes the keys need: a pass on a digit in
   which no two keys differ moves nothing in a sort that skips it (section
   7.3). Which bits vary follows from the distribution and n (sort.h's
   pl_keys_u32): none for equal keys; the top 8 for high ones; those of
   (n - 1) * 61 for sorted and reversed u32 keys (all 32 once that wraps);
   all 32 for random and few (8 random words: a 4-bit digit the same in
   all 8 has odds of 16^-7; a 1-bit one 1/128, so the split's roof on few
   keys may count a pass the sort skips). Signed keys (gen_i32) are
   flipped by a constant, so the same bits vary, but sorted and reversed
   ones cross zero: all 32. Float keys' flip depends on the sign, and
   every float distribution but equal has both signs: all 32. */
enum key_kind { KEYS_U32, KEYS_I32, KEYS_F32 };
static int varying_digits(long n, double dist, int bits, int kind)
{
    unsigned vary = 0xffffffffu;
    int d = (int)dist;
    if (n < 2 || d == PL_KEYS_EQUAL)
        vary = 0;
    else if (d == PL_KEYS_HIGH && kind != KEYS_F32)
        vary = 0xff000000u;
    else if ((d == PL_KEYS_SORTED || d == PL_KEYS_REVERSED) && kind == KEYS_U32 && 61.0 * (double)(n - 1) < 0x1p32)
        for (vary = 1; vary < (unsigned)(61 * (n - 1)); vary = vary << 1 | 1)
            ;
    int digits = 0;
    for (int s = 0; s < 32; s += bits)
        digits += (vary >> s & ((1u << bits) - 1)) != 0;
    return digits;
}
/* words per key: (a) split, each bit's pass: flags 2, scan 2, scatter 3;
   (b) four bits, each digit's: histogram reads 1, scatter reads 1 and
   writes 1 (the counts, 16 a tile, left out); (c) pairs: histogram 1,
   scatter reads 2 and writes 2. No pass at all: a copy (2, pairs 4). The
   pass count's read of the keys (7.3) is left out too: a floor. */
static double sort_words(long n, double dist, int bits, int kind, int per_pass, int copy)
{
    int passes = varying_digits(n, dist, bits, kind);
    return 4.0 * (double)n * (passes ? per_pass * passes : copy);
}
static double split_alg(long n, double dist) { return sort_words(n, dist, 1, KEYS_U32, 7, 2); }
static double digits_alg(long n, double dist) { return sort_words(n, dist, 4, KEYS_U32, 3, 2); }
static double pairs_alg(long n, double dist) { return sort_words(n, dist, 4, KEYS_U32, 5, 4); }
static double int_alg(long n, double dist) { return sort_words(n, dist, 4, KEYS_I32, 3, 2); }
static double float_alg(long n, double dist) { return sort_words(n, dist, 4, KEYS_F32, 3, 2); }
/* CUB's DeviceRadixSort on sm_80 and later: onesweep, 8-bit digits, all
   four passes whatever the keys: one histogram read of the keys, then each
   pass reads and writes them (with the values for pairs): 9n words, 17n
   for pairs (tuning_radix_sort.cuh: ONESWEEP, ONESWEEP_RADIX_BITS 8). */
static double cub_keys(long n, double dist) { return (void)dist, 4.0 * 9.0 * (double)n; }
static double cub_pairs(long n, double dist) { return (void)dist, 4.0 * 17.0 * (double)n; }
#define CUB_KEYS                                                                                                   \
    {cub_keys, "9n words: onesweep, the keys read once for the histograms, then 4 passes of 8 bits (2n each)"}

/* Part bt, the block-size experiment: the size is the number of threads per
   block, the keys a fixed BT_N, random (not a multiple of any tile, and
   small enough that six CPU sorts stay cheap; the worker takes it from
   harness/wire/lab05.h too). */
#define BT_N PL_LAB05_BT_N
static void bt_cpu(const int *in, int *out, size_t threads) { (void)threads, pl_sort_keys_cpu(in, out, BT_N); }
static void bt_omp(const int *in, int *out, size_t threads) { (void)threads, pl_sort_keys_omp(in, out, BT_N); }
static long bt_len(long threads, double dist) { return (void)threads, (void)dist, BT_N; }
static double bt_bytes(long threads, double dist) { return (void)threads, key_bytes(BT_N, dist); }
static double bt_alg(long threads, double dist) { return (void)threads, digits_alg(BT_N, dist); }
static double bt_cub(long threads, double dist) { return (void)threads, cub_keys(BT_N, dist); }
static const long bt_sizes[] = {32, 64, 128, 256, 512, 1024};
static const double bt_dists[] = {PL_KEYS_RANDOM};
/* Part bte: the same at PL_EVEN_N elements (lab.h says why). */
#define BTE_N PL_EVEN_N
static void bte_cpu(const int *in, int *out, size_t threads) { (void)threads, pl_sort_keys_cpu(in, out, BTE_N); }
static void bte_omp(const int *in, int *out, size_t threads) { (void)threads, pl_sort_keys_omp(in, out, BTE_N); }
static long bte_len(long threads, double dist) { return (void)threads, (void)dist, BTE_N; }

/* Judges: sorts of each kind of key from its generator, of n keys or a
   fixed number, and of pairs. */
static const pl_sort_judge u32_cfg = {{.gen = gen_u32}, PL_SORT_U32, 0};
static const pl_sort_judge bt_cfg = {{.words = bt_len, .gen = gen_u32}, PL_SORT_U32, 0};
static const pl_sort_judge bte_cfg = {{.words = bte_len, .gen = gen_u32}, PL_SORT_U32, 0};
static const pl_sort_judge pairs_cfg = {{.words = twice, .gen = gen_pairs}, PL_SORT_U32, 1};
static const pl_sort_judge i32_cfg = {{.gen = gen_i32}, PL_SORT_I32, 0};
static const pl_sort_judge f32_cfg = {{.gen = gen_f32}, PL_SORT_F32, 0};
static const pl_judge u32_sort = {&pl_sort_kind, &u32_cfg};
static const pl_judge bt_sort = {&pl_sort_kind, &bt_cfg};
static const pl_judge bte_sort = {&pl_sort_kind, &bte_cfg};
static const pl_judge pairs_sort = {&pl_sort_kind, &pairs_cfg};
static const pl_judge i32_sort = {&pl_sort_kind, &i32_cfg};
static const pl_judge f32_sort = {&pl_sort_kind, &f32_cfg};

#define DISTS .sizes = {.max = RS_MAX_N}, .points = 1, .bench = 1, .lends = 1, .vendor = 1,                     \
              .params = {.name = "dist", .values = pl_keys_dists, .n = PL_KEYS_DISTS, .bench = PL_KEYS_RANDOM,        \
                         .labels = pl_keys_dist_names}
#define BT_PARAMS                                                                                          \
    .params = {.name = "dist", .values = bt_dists, .n = 1, .bench = PL_KEYS_RANDOM, .labels = pl_keys_dist_names}
#define BT_SIZES .name = "threads", .max = 1024, .test = bt_sizes, .ntest = 6

static const pl_part part_a = {.id = "a", .title = "one-bit split", .entry = "radix_sort_split",
                               .cpu = pl_sort_keys_cpu, .omp = pl_sort_keys_omp, .bytes = key_bytes, DISTS,
                               .alg = {split_alg, "7n words a bit that varies (32 for random keys): flags (2n), "
                                                  "scan (2n), scatter (reads 2n, writes n)"},
                               .vendor_alg = CUB_KEYS, .judge = &u32_sort};
static const pl_part part_b = {.id = "b", .title = "four-bit digits", .entry = "radix_sort_4bit",
                               .cpu = pl_sort_keys_cpu, .omp = pl_sort_keys_omp, .bytes = key_bytes, DISTS,
                               .alg = {digits_alg, "3n words a digit that varies (8 for random keys): histogram "
                                                   "reads n, scatter reads n and writes n"},
                               .vendor_alg = CUB_KEYS, .judge = &u32_sort};
static const pl_part part_bt = {
    .id = "bt", .title = "four-bit digits, n=2^22+3", .entry = "radix_sort_4bit_threads",
    .sizes = {BT_SIZES, .bench = bt_sizes, .nbench = 6}, .points = 1, .bench = 1, .cpu = bt_cpu, .omp = bt_omp,
    .vendor = 1, .lends = 1, .bytes = bt_bytes,
    .alg = {bt_alg, "3n words a digit that varies, n = 2^22 + 3 random keys: 8 digits, 24n"},
    .vendor_alg = {bt_cub, "9n words at n = 2^22 + 3: onesweep, a histogram read, then 4 passes of 8 bits"},
    BT_PARAMS, .judge = &bt_sort};
static const pl_part part_bte = {
    .id = "bte", .title = "four-bit digits, n=3*2^20", .entry = "radix_sort_4bit_threads", .sizes = {BT_SIZES},
    .points = 1, .cpu = bte_cpu, .omp = bte_omp, .vendor = 1, .lends = 1, BT_PARAMS, .judge = &bte_sort};
static const pl_part part_c = {.id = "c", .title = "key-value pairs", .entry = "radix_sort_pairs",
                               .cpu = pl_sort_pairs_cpu, .omp = pl_sort_pairs_omp, .bytes = pair_bytes, DISTS,
                               .alg = {pairs_alg, "5n words a digit that varies (8 for random keys): histogram "
                                                  "reads n keys, scatter reads and writes n keys and n values"},
                               .vendor_alg = {cub_pairs, "17n words: onesweep, the keys read once for the "
                                                         "histograms, then 4 passes of 8 bits (4n each)"},
                               .judge = &pairs_sort};
static const pl_part part_di = {.id = "di", .title = "signed int keys", .entry = "radix_sort_int", .cpu = int_cpu,
                                .omp = int_omp, .bytes = key_bytes, DISTS,
                                .alg = {int_alg, "3n words a digit that varies (8 for random keys), as part b"},
                                .vendor_alg = CUB_KEYS, .judge = &i32_sort};
static const pl_part part_df = {.id = "df", .title = "float keys", .entry = "radix_sort_float", .cpu = float_cpu,
                                .omp = float_omp, .bytes = key_bytes, DISTS,
                                .alg = {float_alg, "3n words a digit that varies (8 for random keys), as part b"},
                                .vendor_alg = CUB_KEYS, .judge = &f32_sort};

static const pl_part *const parts[] = {PL_LAB05_PARTS(PL_PART_REF)};

/* The scan labs' edge sizes, with a large size of 2^24 + 5 instead of 2^26:
   each test checks its sort on the CPU too (proved in two passes, or
   against the reference), and there are 330 of them. */
/* even sizes that are not powers of two among them (1000, 3 * 2^20) */
static const long test_sizes[] = {0,    1,     31,       32,             33,
                                  1000, 1023,  1024,     1025,           65537,
                                  3L << 20,    (1L << 22) + 3, (1L << 24) + 5};

/* Performance: the four-bit sort's fraction of its roof, random keys at
   2^24 (PL_YARD_ROOF, docs/roofs.md): 8 four-bit passes of 3n words, 24n,
   against CUB onesweep's 9n, so its ratio to CUB cannot pass 9/24 of
   CUB's fraction of its own roof. Full marks from 10 % of its roof, none
   at 4 %. The solution is at 33 % by CUDA events on an H200
   (plots/data/roofs-h200.tsv, 2026-11-29: 1.146 ms for 24n words at 4257
   GB/s; 0.40x CUB, itself at 31 % of its 9n), but graded timing takes the
   parent's clock around the call when it says more, and the solution's
   host-side synchronisation (one copy per sort) and its 30 launches put
   it at 0.182x CUB on an H200 (2026-11-23), about 15 % of its roof: 1.5
   times the full mark. The former 0.15x CUB would be 12 % there. */
static const pl_perf perf[] = {
    {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_ROOF, .full = 0.10, .zero = 0.04,
     .param = PL_KEYS_RANDOM},
};

/* ------------------------------------------------- `lab05 passes` */

/* The sorts `passes` times, each on the same random keys: worker parts
   (harness/worker/labs/lab05.cu), the last one CUB's. */
typedef struct variant {
    const char *name;
    const char *part; /* the worker's part id */
    int bits;         /* digit width, for the figure */
    int vendor;
} variant;
static const variant variants[] = {
    {"split", "a", 1, 0}, {"bits1", "bits1", 1, 0}, {"bits2", "bits2", 2, 0},
    {"4bit", "b", 4, 0},  {"bits8", "bits8", 8, 0}, {"cub", "b", 0, 1},
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])
#define PASS_REPS 7

/* One request about variant v at n; 1 when the worker did it, else 0 with why. */
static int ask(pl_session *s, const variant *v, long n, int kind, unsigned flags, pl_reply *rep, char *why, size_t cap)
{
    pl_req q;
    memset(&q, 0, sizeof q);
    q.kind = (uint32_t)kind;
    snprintf(q.part, sizeof q.part, "%s", v->part);
    q.variant = v->vendor ? PL_VAR_VENDOR : PL_VAR_IMPL;
    q.flags = flags;
    q.n = n, q.in_len = n, q.out_len = n, q.scratch_len = (int64_t)RS_SCRATCH_INTS(n);
    pl_result r;
    double wall;
    memset(&r, 0, sizeof r);
    if (!pl_session_request(s, &q, rep, pl_now() + pl_env_seconds("PRIMLAB_TIMEOUT", 600), &wall, &r)) {
        snprintf(why, cap, "%s", r.reason);
        return 0;
    }
    if (rep->status != PL_W_OK) {
        snprintf(why, cap, "%s", rep->reason);
        return 0;
    }
    return 1;
}

/* Times every variant at n: the total (median of PASS_REPS, L2 flushed) and
   each marked span (median over the reps). Prints a summary; TSV rows to
   tsv. Returns the number of wrong results. */
static int passes_at(pl_session *s, long n, FILE *tsv)
{
    size_t bytes = (size_t)n * sizeof(unsigned);
    pl_shm_layout l = pl_shm_layout_for(n, n, 0);
    unsigned char *shm = pl_session_shm(s, l.total);
    unsigned *keys = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    pl_shm_span(*spans)[PL_MAX_SPANS] = malloc(PASS_REPS * sizeof *spans);
    if (!shm || !keys || !want || !got || !spans) {
        fprintf(stderr, "lab05 passes: out of memory at n = %ld\n", n);
        free(keys), free(want), free(got), free(spans);
        return 1;
    }
    pl_keys_u32(keys, (size_t)n, 1, PL_KEYS_RANDOM);
    memcpy(want, keys, bytes);
    pl_sort_must(radix_sort_omp(want, NULL, (size_t)n));
    int wrong = 0;
    printf("n = %ld, random 32-bit keys, median of %d\n", n, PASS_REPS);
    for (int k = 0; k < NVARIANTS; k++) {
        const variant *v = &variants[k];
        pl_reply rep;
        char why[200];
        /* once to check the result */
        memcpy(shm + l.in, keys, bytes);
        if (!ask(s, v, n, PL_REQ_STAGE, PL_RQ_UPLOAD, &rep, why, sizeof why) ||
            !ask(s, v, n, PL_REQ_CALL, 0, &rep, why, sizeof why) ||
            !ask(s, v, n, PL_REQ_FETCH, 0, &rep, why, sizeof why)) {
            printf("  %-6s not run: %s\n", v->name, why);
            continue;
        }
        memcpy(got, shm + l.out[0], bytes);
        pl_cmp c = {.want = (const int *)want, .got = (const int *)got, .n = (size_t)n};
        pl_diag d;
        if (!pl_compare_sorted(&c, PL_SORT_U32, 0, &d)) {
            printf("  %-6s wrong, so not timed: %s\n", v->name, d.reason);
            wrong++;
            continue;
        }
        double totals[PASS_REPS];
        int nspans[PASS_REPS], ok = 1;
        for (int r = 0; r < PASS_REPS && ok; r++) {
            ok = ask(s, v, n, PL_REQ_STAGE, PL_RQ_TIMED, &rep, why, sizeof why) &&
                 ask(s, v, n, PL_REQ_CALL, PL_RQ_TIMED | PL_RQ_PHASES, &rep, why, sizeof why);
            totals[r] = rep.ms;
            nspans[r] = rep.nspans < 0 ? -1 : rep.nspans > PL_MAX_SPANS ? PL_MAX_SPANS : rep.nspans;
            if (ok && nspans[r] > 0)
                memcpy(spans[r], shm + l.spans, sizeof(pl_shm_span) * (size_t)nspans[r]);
        }
        if (!ok) {
            printf("  %-6s not timed: %s\n", v->name, why);
            continue;
        }
        double total = pl_median(totals, PASS_REPS);
        /* medians of each span over the reps, when every rep marked the same spans */
        int ns = nspans[0], same = ns >= 0;
        for (int r = 1; r < PASS_REPS; r++)
            same &= nspans[r] == ns;
        printf("  %-6s %9.3f ms  %7.2f Gkeys/s", v->name, total, (double)n / (total * 1e-3) / 1e9);
        if (tsv)
            fprintf(tsv, "%ld\t%s\t%d\ttotal\t-1\t%.6f\n", n, v->name, v->bits, total);
        if (v->vendor) {
            printf("\n");
            continue;
        }
        if (!same || ns == 0) {
            printf("  (%s)\n", ns < 0 ? "more marks than the harness keeps" : ns == 0 ? "no primlab_phase marks"
                                                                                  : "marks differ between runs");
            continue;
        }
        /* per phase name: the sum over passes, printed in order of first appearance */
        const char *names[16];
        double sums[16];
        int nnames = 0, passes = 0;
        for (int sp_i = 0; sp_i < ns; sp_i++) {
            double ms[PASS_REPS];
            for (int r = 0; r < PASS_REPS; r++)
                ms[r] = spans[r][sp_i].ms;
            double med = pl_median(ms, PASS_REPS);
            pl_shm_span *sp = &spans[0][sp_i];
            sp->name[sizeof sp->name - 1] = '\0';
            if (tsv)
                fprintf(tsv, "%ld\t%s\t%d\t%s\t%d\t%.6f\n", n, v->name, v->bits, sp->name, sp->pass, med);
            passes = sp->pass + 1 > passes ? sp->pass + 1 : passes;
            int j = 0;
            while (j < nnames && strcmp(names[j], sp->name))
                j++;
            if (j == nnames && nnames < 16) {
                names[nnames] = sp->name;
                sums[nnames++] = 0;
            }
            if (j < 16)
                sums[j] += med;
        }
        printf("  %d passes:", passes);
        for (int j = 0; j < nnames; j++)
            printf("%s %s %.3f", j ? "," : "", names[j], sums[j]);
        printf(" ms\n");
    }
    free(keys), free(want), free(got), free(spans);
    return wrong;
}

static int passes_command(const pl_cmd_opts *o)
{
    const char *out = o->out, *worker = o->worker;
    char why[256];
    pl_session_opts so = {.worker = worker, .log = NULL, .start_s = pl_env_seconds("PRIMLAB_TIMEOUT", 60)};
    pl_session *s = pl_session_open(&so, why, sizeof why);
    if (!s || !pl_session_hello(s)->gpu_ok) {
        fprintf(stderr, "lab05 passes: no GPU (%s)\n", s ? pl_session_hello(s)->reason : why);
        pl_session_close(s);
        return 1;
    }
    char tmp[4096];
    FILE *tsv = NULL;
    if (out && !(tsv = pl_out_begin(out, tmp, sizeof tmp, "lab05"))) {
        pl_session_close(s);
        return 2;
    }
    const char *device = pl_session_hello(s)->device;
    printf("device: %s, %s code\n", device, pl_impl_variant);
    if (tsv) {
        char date[32];
        pl_utc_date(date, sizeof date);
        fprintf(tsv, "# primlab lab05 passes: each marked phase of each pass, median ms; phase 'total' is the\n"
                     "# whole sort (pass -1), timed separately with the L2 flushed\n"
                     "# device: %s\n# date: %s\n# code: %s\nn\tvariant\tbits\tphase\tpass\tms\n",
                device, date, pl_impl_variant);
    }
    static const long sizes[] = {1L << 20, 1L << 24, 1L << 28};
    int wrong = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        wrong += passes_at(s, sizes[i], tsv);
    pl_session_close(s);
    if (tsv && pl_out_end(tsv, tmp, out, "lab05") != 0)
        return 2;
    return wrong ? 1 : 0;
}

static const pl_lab_cmd commands[] = {
    {.name = "passes", .args = "[--out FILE]",
     .help = "the four-bit sort timed phase by phase, pass by pass, at n = 2^20, 2^24, 2^28", .gpu = 1,
     .data = "plots/data/lab05_passes.tsv", .plots = PL_PLOTS_SHOW, .run = passes_command},
};

static const pl_lab lab05 = {
    .id = "05",
    .name = "radix-sort",
    .title = "radix sort",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    .test_sizes = test_sizes,
    .ntest_sizes = sizeof test_sizes / sizeof test_sizes[0],
    .bench_sizes = pl_scan_bench_sizes,
    .nbench_sizes = PL_SCAN_NBENCH,
    .sweep_lo = 12, /* the CPU sorts make a sweep long: 2^12 .. 2^28 */
    .sweep_hi = 28,
    .gen_lo = 0,
    .gen_hi = 0,             /* unused: every part has its own generator */
    .bytes_per_elem = 8,     /* unused: every part counts its own bytes */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
    .commands = commands,
    .ncommands = sizeof commands / sizeof commands[0],
};

const pl_lab *pl_this_lab(void) { return &lab05; }
