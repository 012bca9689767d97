/* harness/parent/labs/lab02.c: the lab table entry of lab 02, the work-efficient
 * (Blelloch) scan. Parts, yardsticks, sizes, points and the `warps` command
 * live here only.
 *
 * `lab02 warps [--n LIST] [--reps R] [--out FILE]` runs the three
 * warp-synchronous scans of part (w) R times (default 100) on one input per
 * size and counts the wrong results: w0 and w1, the unsafe versions the stub
 * gives (worker parts that no test grades), and w, the fix. With
 * PRIMLAB_WORKER_PROFILE=1 a tool such as compute-sanitizer can follow the
 * worker (the handout gives the commands). */
#include "../../../kernels_ref/cpu/scan.h"
#include "../../../labs/02-blelloch-scan/blelloch_scan.h"
#include "../../wire/lab02.h"
#include "../diagnose.h"
#include "../judges/array.h"
#include "../lab.h"
#include "../report.h"
#include "../rng.h"

#include <stdlib.h>
#include <string.h>

/* Part bt, the block-size experiment: the size is the number of threads per
   block, the array a fixed BT_N elements (not a multiple of any tile; the
   worker takes it from harness/wire/lab02.h too). */
#define BT_N PL_LAB02_BT_N
static void bt_cpu(const int *in, int *out, size_t threads) { (void)threads, scan_cpu_exclusive(in, out, BT_N); }
static void bt_omp(const int *in, int *out, size_t threads) { (void)threads, scan_omp_exclusive(in, out, BT_N); }
static long bt_len(long threads) { return (void)threads, BT_N; }
static long bt_words(long threads, double param) { return (void)threads, (void)param, BT_N; }
static double bt_bytes(long threads, double param) { return (void)threads, (void)param, 2.0 * sizeof(int) * BT_N; }
/* its algorithm's roof at BT_N elements, and CUB's (below) */
static double bt_alg(long threads, double param) { return (void)threads, pl_words_3n(BT_N, param); }
static double bt_cub(long threads, double param) { return (void)threads, pl_words_2n(BT_N, param); }

/* Part a's roof: the words its passes touch, m the power of two at or
   above n: the padding reads n and writes m; the up-sweep's level of span
   s reads two words and writes one for each of m/s subtrees (3m over the
   levels), the down-sweep's reads two and writes two (4m); the copy out
   reads and writes n. A floor: the levels of span 16 and more touch one
   word in each 32-byte sector they move, so DRAM moves more. */
static double global_alg(long n, double param)
{
    (void)param;
    double m = 1;
    while (m < (double)n)
        m *= 2;
    return 4.0 * (3.0 * (double)n + 8.0 * m);
}
static const long bt_sizes[] = {32, 64, 128, 256, 512, 1024};
/* Part bte: the same at PL_EVEN_N elements (lab.h says why). */
#define BTE_N PL_EVEN_N
static void bte_cpu(const int *in, int *out, size_t threads) { (void)threads, scan_cpu_exclusive(in, out, BTE_N); }
static void bte_omp(const int *in, int *out, size_t threads) { (void)threads, scan_omp_exclusive(in, out, BTE_N); }
static long bte_len(long threads) { return (void)threads, BTE_N; }
static long bte_words(long threads, double param) { return (void)threads, (void)param, BTE_N; }

static size_t scratch_ints(long n) { return BS_SCRATCH_INTS(n); }

/* Part w: each BS_SEGMENT-element segment scanned on its own, inclusively.
   The oracle is the trusted inclusive scan, once per segment. */
static void warp_cpu(const int *in, int *out, size_t n)
{
    for (size_t s = 0; s < n; s += BS_SEGMENT)
        scan_cpu_inclusive(in + s, out + s, n - s < BS_SEGMENT ? n - s : BS_SEGMENT);
}
static void warp_omp(const int *in, int *out, size_t n)
{
    long segs = (long)((n + BS_SEGMENT - 1) / BS_SEGMENT);
#pragma omp parallel for schedule(static)
    for (long k = 0; k < segs; k++) {
        size_t s = (size_t)k * BS_SEGMENT;
        scan_cpu_inclusive(in + s, out + s, n - s < BS_SEGMENT ? n - s : BS_SEGMENT);
    }
}


/* Judges: scans of the lab's uniform input, a shift by one named; the
   parts of n words have the kit's scan judges (array.h), which prove a
   right output without the reference; part w's segments are not one
   scan, so a shift there means nothing in particular. */
static const pl_array_judge bt_cfg = {.in = {.words = bt_words}, .out_len = bt_len, PL_SCAN_HINTS};
static const pl_array_judge bte_cfg = {.in = {.words = bte_words}, .out_len = bte_len, PL_SCAN_HINTS};
static const pl_judge bt_scan = {&pl_array_kind, &bt_cfg};
static const pl_judge bte_scan = {&pl_array_kind, &bte_cfg};

#define BT_SIZES .name = "threads", .max = 1024, .test = bt_sizes, .ntest = 6

/* The roofs (roofs.h, docs/roofs.md). Parts b, bt and c: reduce-then-scan
   (solutions/02-blelloch-scan/blelloch_tile.cuh): reduce_k reads every
   tile (n), the tile sums are scanned (n/2048 words, left out), then
   scan_tile_k reads every tile again and writes it (2n): 3n words, against
   the 2n of CUB's single pass, so at its roof it runs at 2/3 of the copy
   bandwidth in the rows' 8n-byte GB/s and at most 2/3 of CUB's
   throughput where CUB reaches the copy's. Up to 32768 elements one block
   scans all (2n): 3n stays a floor. */
#define SHARED_ROOFS .alg = PL_ALG_REDUCE_THEN_SCAN, .vendor_alg = PL_ALG_CUB_SCAN
#define BT_ROOFS                                                                                                   \
    .alg = {bt_alg, "3n words at n = 2^24 + 3: the input read twice (reduce, then scan), the output written once"}, \
    .vendor_alg = {bt_cub, "2n words at n = 2^24 + 3: one pass (decoupled look-back)"}

static const pl_part part_a = {
    .id = "a", .title = "exclusive scan, global memory", .entry = "scan_blelloch_global", .sizes = {.max = BS_MAX_N},
    .points = 1, .bench = 1, .cpu = scan_cpu_exclusive, .omp = scan_omp_exclusive, .vendor = 1,
    .alg = {global_alg, "3n + 8m words, m the power of two >= n: pad, up-sweep (3m), down-sweep (4m), copy out"},
    .vendor_alg = PL_ALG_CUB_SCAN, .judge = &pl_scan_exclusive};
static const pl_part part_b = {
    .id = "b", .title = "exclusive scan, shared memory", .entry = "scan_blelloch_shared", .sizes = {.max = BS_MAX_N},
    .points = 1, .bench = 1, .cpu = scan_cpu_exclusive, .omp = scan_omp_exclusive, .vendor = 1, SHARED_ROOFS,
    .judge = &pl_scan_exclusive};
static const pl_part part_bt = {
    .id = "bt", .title = "exclusive scan, shared memory, n=2^24+3", .entry = "scan_blelloch_shared_threads",
    .sizes = {BT_SIZES, .bench = bt_sizes, .nbench = 6}, .points = 1, .bench = 1, .cpu = bt_cpu, .omp = bt_omp,
    .vendor = 1, .bytes = bt_bytes, BT_ROOFS, .judge = &bt_scan};
static const pl_part part_bte = {
    .id = "bte", .title = "exclusive scan, shared memory, n=3*2^20", .entry = "scan_blelloch_shared_threads",
    .sizes = {BT_SIZES}, .points = 1, .cpu = bte_cpu, .omp = bte_omp, .vendor = 1, .judge = &bte_scan};
static const pl_part part_c = {
    .id = "c", .title = "inclusive scan", .entry = "scan_blelloch_inclusive", .sizes = {.max = BS_MAX_N}, .points = 1,
    .bench = 1, .cpu = scan_cpu_inclusive, .omp = scan_omp_inclusive, .vendor = 1, SHARED_ROOFS,
    .judge = &pl_scan_inclusive};
/* correctness only: not timed, no performance test, no yardstick */
static const pl_part part_w = {
    .id = "w", .title = "warp scan, 32-element segments", .entry = "scan_warp_safe", .sizes = {.max = BS_MAX_N},
    .points = 1, .bench = 0, .cpu = warp_cpu, .omp = warp_omp};

static const pl_part *const parts[] = {PL_LAB02_PARTS(PL_PART_REF)};


/* Performance: the shared-memory scans' fraction of their roof at 2^24
 * (PL_YARD_ROOF, docs/roofs.md): reduce-then-scan moves 3n words against
 * CUB's 2n, so its ratio to CUB cannot pass 2/3 of CUB's fraction of the
 * copy, a ceiling that moves with the GPU and the size (1.12x at 2^24 on
 * an H200, 0.90x at 2^28). Full marks from 22 % of its roof, none at
 * 4.4 %: the former 0.25x and 0.05x CUB where CUB moves its 2n at 61 % of
 * the copy (H200, 2^24). The solution is at 60 % on an H200, both parts
 * (plots/data/roofs-h200.tsv, 2026-11-29: 0.079 ms for 3n words at 4263
 * and 4273 GB/s; 0.65x CUB), 2.7 times the full mark. CUB is still timed,
 * in its own worker, and its ratio reported. */
static const pl_perf perf[] = {
    {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_ROOF, .full = 0.22, .zero = 0.044},
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_ROOF, .full = 0.22, .zero = 0.044},
};

/* ------------------------------------------------------ `lab02 warps` */

/* The warp scans, in the handout's order: worker parts w0 and w1 (the stub's
   given unsafe versions) and w (part w, the student's). */
typedef struct warp_version {
    const char *part, *what;
} warp_version;
static const warp_version versions[] = {
    {"w0", "volatile, no barrier (pre-Volta)"},
    {"w1", "no volatile, no barrier"},
    {"w", "__syncwarp (the fix)"},
};
#define NVERSIONS (int)(sizeof versions / sizeof versions[0])
/* one warp; a partial last warp; many warps; many blocks */
static const long warp_sizes[] = {32, 1025, (1L << 16) + 1, (1L << 22) + 3};

/* What a version did at one size. */
typedef struct warp_tally {
    long runs, wrong;
    int missing;      /* 1: not implemented yet (output never written); -1: could not run */
    char first[200];  /* the first wrong run's diagnosis, or why it could not run */
} warp_tally;

/* One request about part at n; 1 when the worker did it, else 0 with why. */
static int warp_ask(pl_session *s, const char *part, long n, int kind, unsigned flags, char *why, size_t cap)
{
    pl_req q;
    memset(&q, 0, sizeof q);
    q.kind = (uint32_t)kind;
    snprintf(q.part, sizeof q.part, "%s", part);
    q.variant = PL_VAR_IMPL;
    q.flags = flags;
    q.n = n, q.in_len = n, q.out_len = n, q.scratch_len = 0;
    pl_reply rep;
    pl_result r;
    double wall;
    memset(&r, 0, sizeof r);
    if (!pl_session_request(s, &q, &rep, pl_now() + pl_env_seconds("PRIMLAB_TIMEOUT", 600), &wall, &r)) {
        snprintf(why, cap, "%s", r.reason);
        return 0;
    }
    if (rep.status != PL_W_OK) {
        snprintf(why, cap, "%s", rep.reason);
        return 0;
    }
    return 1;
}

/* Calls part at n up to runs times, each on a fresh upload of in into a
   poisoned output, and compares each result with want. Stops at a call
   that fails and at an output never written (a stub). */
static void warp_runs(pl_session *s, const char *part, long n, long runs, const int *in, const int *want,
                      unsigned char *shm, const pl_shm_layout *l, warp_tally *t)
{
    size_t bytes = (size_t)n * sizeof(int);
    memset(t, 0, sizeof *t);
    for (long r = 0; r < runs; r++) {
        char why[200];
        memcpy(shm + l->in, in, bytes);
        if (!warp_ask(s, part, n, PL_REQ_STAGE, PL_RQ_UPLOAD, why, sizeof why) ||
            !warp_ask(s, part, n, PL_REQ_CALL, 0, why, sizeof why) ||
            !warp_ask(s, part, n, PL_REQ_FETCH, 0, why, sizeof why)) {
            snprintf(t->first, sizeof t->first, "not run: %.180s", why);
            t->missing = -1;
            return;
        }
        t->runs++;
        pl_cmp c = {.want = want, .got = (const int *)(shm + l->out[0]), .n = (size_t)n};
        pl_diag d;
        if (pl_compare_i32(&c, &d))
            continue;
        /* a count and a place, not the check's hints: they are written for
           whole-array scans (a block boundary here is only a segment's) */
        if (t->wrong++ == 0)
            snprintf(t->first, sizeof t->first, "%zu of %ld values wrong, the first at index %zu", d.mismatches, n,
                     d.first_bad);
        if (d.findings & PL_F_NOT_IMPLEMENTED) {
            t->missing = 1;
            return;
        }
    }
}

/* Every version at n, on one input (values 1..1000, no zeros: every lost
   addition shows) for all versions and runs: a line each, a TSV row each,
   and the totals (the runs, the wrong ones, and missing). Returns 1 when the
   fix, w, did not run or was ever wrong. */
static int warps_at(pl_session *s, long n, long runs, warp_tally *totals, FILE *tsv)
{
    size_t bytes = (size_t)n * sizeof(int);
    pl_shm_layout l = pl_shm_layout_for(n, n, 0);
    unsigned char *shm = pl_session_shm(s, l.total);
    int *in = malloc(bytes), *want = malloc(bytes);
    int fix_failed = 0;
    if (!shm || !in || !want) {
        fprintf(stderr, "lab02 warps: out of memory at n = %ld\n", n);
        free(in), free(want);
        return 1;
    }
    pl_gen_ints(in, (size_t)n, pl_seed_mix(1, 0x77617270ull /* "warp" */, (uint64_t)n), 1, 1000);
    (n >= 1L << 20 ? warp_omp : warp_cpu)(in, want, (size_t)n);
    for (int k = 0; k < NVERSIONS; k++) {
        const warp_version *v = &versions[k];
        warp_tally t;
        warp_runs(s, v->part, n, runs, in, want, shm, &l, &t);
        totals[k].runs += t.runs, totals[k].wrong += t.wrong;
        if (t.missing)
            totals[k].missing = t.missing;
        if (t.missing < 0)
            printf("  %-3s %-34s %9ld  %s\n", v->part, v->what, n, t.first);
        else if (t.missing > 0)
            printf("  %-3s %-34s %9ld  not implemented yet\n", v->part, v->what, n);
        else
            printf("  %-3s %-34s %9ld  %6ld of %ld%s%s\n", v->part, v->what, n, t.wrong, t.runs,
                   t.wrong ? "; first: " : "", t.wrong ? t.first : "");
        if (tsv && t.missing == 0)
            fprintf(tsv, "%s\t%ld\t%ld\t%ld\n", v->part, n, t.runs, t.wrong);
        if (!strcmp(v->part, "w") && (t.missing || t.wrong))
            fix_failed = 1;
    }
    free(in), free(want);
    return fix_failed;
}

static int warps_command(const pl_cmd_opts *o)
{
    const char *out = o->out, *worker = o->worker;
    long runs = o->reps ? o->reps : 100;
    const long *sizes = o->nsizes ? o->sizes : warp_sizes;
    int nsizes = o->nsizes ? o->nsizes : (int)(sizeof warp_sizes / sizeof warp_sizes[0]);
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] < 1) {
            fprintf(stderr, "lab02 warps: n = %ld: every size must be at least 1\n", sizes[i]);
            return 2;
        }
    warp_tally totals[NVERSIONS];
    memset(totals, 0, sizeof totals);
    char why[256], log[4096 + 8];
    snprintf(log, sizeof log, "%s.log", worker ? worker : "lab02-worker");
    pl_session_opts so = {.worker = worker, .log = log, .start_s = pl_env_seconds("PRIMLAB_TIMEOUT", 60)};
    pl_session *s = worker ? pl_session_open(&so, why, sizeof why) : NULL;
    if (!s || !pl_session_hello(s)->gpu_ok) {
        fprintf(stderr, "lab02 warps: no GPU (%s)\n", s ? pl_session_hello(s)->reason : worker ? why : "no worker");
        pl_session_close(s);
        return 1;
    }
    char tmp[4096];
    FILE *tsv = NULL;
    if (out && !(tsv = pl_out_begin(out, tmp, sizeof tmp, "lab02"))) {
        pl_session_close(s);
        return 2;
    }
    const char *device = pl_session_hello(s)->device;
    printf("device: %s, %s code\n", device, pl_impl_variant);
    printf("each warp scans its %d elements on its own; %ld runs per size, one input each size\n", BS_SEGMENT, runs);
    printf("  %-38s %9s  %s\n", "version", "n", "wrong runs");
    if (tsv) {
        char date[32];
        pl_utc_date(date, sizeof date);
        fprintf(tsv, "# primlab lab02 warps: runs of each warp scan at each size, and how many were wrong\n"
                     "# device: %s\n# date: %s\n# code: %s\nversion\tn\truns\twrong\n",
                device, date, pl_impl_variant);
    }
    int fix_failed = 0;
    for (int i = 0; i < nsizes; i++)
        fix_failed |= warps_at(s, sizes[i], runs, totals, tsv);
    pl_session_close(s);
    printf("in all:");
    for (int k = 0; k < NVERSIONS; k++)
        if (totals[k].missing)
            printf("%s %s %s", k ? "," : "", versions[k].part,
                   totals[k].missing > 0 ? "not implemented yet" : "did not run everywhere");
        else
            printf("%s %s wrong in %ld of %ld runs", k ? "," : "", versions[k].part, totals[k].wrong, totals[k].runs);
    printf("\n");
    fflush(stdout); /* before pl_out_end's own line */
    if (tsv && pl_out_end(tsv, tmp, out, "lab02") != 0)
        return 2;
    return fix_failed ? 1 : 0;
}

static const pl_lab_cmd commands[] = {
    {.name = "warps", .args = "[--n LIST] [--reps R] [--out FILE]",
     .help = "the warp scans of part w (w0, w1 unsafe, w the fix) run R times a size (default 100): how often wrong",
     .gpu = 1, .run = warps_command},
};

static const pl_lab lab02 = {
    .id = "02",
    .name = "blelloch-scan",
    .title = "work-efficient (Blelloch) scan",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    PL_SCAN_LAB_SIZES,
    .gen_lo = 0,
    .gen_hi = 7, /* no int overflow up to n = 2^28 */
    .bytes_per_elem = 2 * sizeof(int),
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
    .commands = commands,
    .ncommands = sizeof commands / sizeof commands[0],
};

const pl_lab *pl_this_lab(void) { return &lab02; }
