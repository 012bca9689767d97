/* harness/parent/labs/lab04.c: the lab table entry of lab 04, stream compaction.
 * Parts, yardsticks, sizes and points live here only.
 *
 * The returned count is checked as one more element: parts (b), (c) and ct
 * write d_out[0 .. n) and the worker's op stores the count at d_out[n]; the CPU
 * references leave out[count .. n) as poison, as the contract requires of
 * the GPU code. The keep fraction is a parameter of the input. */
#include "../../../kernels_ref/cpu/compact.h"
#include "../../../labs/04-compaction/compaction.h"
#include "../../wire/lab04.h"
#include "../diagnose.h"
#include "../judges/array.h"
#include "../judges/compact.h"
#include "../lab.h"
#include "../rng.h"

/* About keep * n of the values are > 0; the others are 0 or negative.
   In chunks, in parallel (pl_gen_chunks). */
struct keep_ctx {
    int *a;
    double keep;
};

static void fill_keep(pl_rng *r, size_t lo, size_t hi, void *p)
{
    struct keep_ctx *c = p;
    for (size_t i = lo; i < hi; i++) {
        int x = 1 + (int)pl_rng_range(r, 0, 999999);
        double u = (double)(pl_rng_next(r) >> 11) * 0x1p-53;
        c->a[i] = u < c->keep ? x : (x % 8 == 0 ? 0 : -x);
    }
}

static void gen_keep(int *a, size_t len, uint64_t seed, double keep)
{
    struct keep_ctx c = {a, keep};
    pl_gen_chunks(len, seed, fill_keep, &c);
}

static void flags_cpu(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] > 0;
}

static void finish_cpu(int *out, size_t n, size_t k)
{
    for (size_t i = k; i < n; i++)
        out[i] = PL_POISON_I32;
    out[n] = (int)k;
}
static void ref_cpu(const int *in, int *out, size_t n) { finish_cpu(out, n, compact_cpu(in, out, n)); }
static void ref_omp(const int *in, int *out, size_t n) { finish_cpu(out, n, compact_omp(in, out, n)); }
static int keeps_positive(int x) { return x > 0; }
/* the input read once and the kept part written once (about keep * n) */
static double kept_bytes(long n, double keep) { return 4.0 * (double)n * (1.0 + keep); }
static double flag_bytes(long n, double keep) { return (void)keep, 8.0 * (double)n; }
/* Part b's roof, the handout's count (section 4.2): the map reads the
   input and writes the flags (2n), the scan reads the flags and writes the
   positions in one pass (2n), the scatter reads the input and the
   positions and writes the kept (2n + c): 6n + c words. (The solution's
   scatter also reads the flags again: 7n + c, above its roof's count.) */
static double mss_bytes(long n, double keep) { return 4.0 * (double)n * (6.0 + keep); }

/* Part ct, the block-size experiment: the size is the number of threads
   per block, the array a fixed CT_N elements (not a multiple of any tile;
   the worker takes it from harness/wire/lab04.h too), half kept. */
#define CT_N PL_LAB04_CT_N
static void ct_cpu(const int *in, int *out, size_t threads) { (void)threads, ref_cpu(in, out, CT_N); }
static void ct_omp(const int *in, int *out, size_t threads) { (void)threads, ref_omp(in, out, CT_N); }
static long ct_in_len(long threads, double keep) { return (void)threads, (void)keep, CT_N; }
static double ct_bytes(long threads, double keep) { return (void)threads, kept_bytes(CT_N, keep); }
static const long ct_sizes[] = {32, 64, 128, 256, 512, 1024};
static const double ct_keep[] = {0.5};
/* Part cte: the same at PL_EVEN_N elements (lab.h says why). */
#define CTE_N PL_EVEN_N
static void cte_cpu(const int *in, int *out, size_t threads) { (void)threads, ref_cpu(in, out, CTE_N); }
static void cte_omp(const int *in, int *out, size_t threads) { (void)threads, ref_omp(in, out, CTE_N); }
static long cte_in_len(long threads, double keep) { return (void)threads, (void)keep, CTE_N; }

static size_t scratch_ints(long n) { return CP_SCRATCH_INTS(n); }

static const double keep_tests[] = {0, 0.01, 0.5, 0.99, 1};
static const double keep_sweep[] = {0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1};

/* Judges: the flags of the keep-fraction input, and compactions of it that
   keep x > 0 (the count after the kept elements), of n or a fixed length. */
#define KEEP_INPUT .gen = gen_keep
#define KEEPS .keeps = keeps_positive, .rule = "x > 0"
static const pl_array_judge flags_cfg = {.in = {KEEP_INPUT}};
static const pl_compact_judge compact_cfg = {.in = {KEEP_INPUT}, KEEPS};
static const pl_compact_judge ct_cfg = {.in = {.words = ct_in_len, KEEP_INPUT}, KEEPS};
static const pl_compact_judge cte_cfg = {.in = {.words = cte_in_len, KEEP_INPUT}, KEEPS};
static const pl_judge flags = {&pl_array_kind, &flags_cfg};
static const pl_judge compacted = {&pl_compact_kind, &compact_cfg};
static const pl_judge ct_compacted = {&pl_compact_kind, &ct_cfg};
static const pl_judge cte_compacted = {&pl_compact_kind, &cte_cfg};

#define KEEP_PARAMS .params = {.name = "keep", .values = keep_tests, .n = 5, .bench = 0.5}
#define CT_PARAMS .params = {.name = "keep", .values = ct_keep, .n = 1, .bench = 0.5}
#define CT_SIZES .name = "threads", .max = 1024, .test = ct_sizes, .ntest = 6

/* The roofs (roofs.h, docs/roofs.md). Part c and CUB's DeviceSelect::If
   are both one pass: the input read once, the kept written once, n + c
   words, the bytes the rows count: their % of its roof is their % of copy.
   Part a's map reads the input and writes a flag each: 2n. */
#define ONE_PASS_ROOF {kept_bytes, "n + c words (c kept, keep * n): the input read once, the kept written once"}
#define CT_ROOF {ct_bytes, "n + c words at n = 2^24 + 3: the input read once, the kept written once"}

static const pl_part part_a = {
    .id = "a", .title = "flags", .entry = "compact_flags", .sizes = {.max = CP_MAX_N}, .points = 1, .bench = 1,
    .cpu = flags_cpu, .bytes = flag_bytes, .alg = {flag_bytes, "2n words: the input read once, a flag written each"},
    KEEP_PARAMS, .judge = &flags};
static const pl_part part_b = {
    .id = "b", .title = "map, scan, scatter", .entry = "compact_scan", .sizes = {.max = CP_MAX_N}, .points = 1,
    .bench = 1, .cpu = ref_cpu, .omp = ref_omp, .vendor = 1, .lends = 1, .bytes = kept_bytes,
    .alg = {mss_bytes, "6n + c words: map (reads n, writes n flags), scan (n, n), scatter (reads 2n, writes c)"},
    .vendor_alg = ONE_PASS_ROOF, KEEP_PARAMS, .judge = &compacted};
static const pl_part part_c = {
    .id = "c", .title = "one pass, warp votes", .entry = "compact_warp", .sizes = {.max = CP_MAX_N}, .points = 1,
    .bench = 1, .cpu = ref_cpu, .omp = ref_omp, .vendor = 1, .bytes = kept_bytes, .alg = ONE_PASS_ROOF,
    .vendor_alg = ONE_PASS_ROOF, KEEP_PARAMS, .judge = &compacted};
static const pl_part part_ct = {
    .id = "ct", .title = "one pass, warp votes, n=2^24+3", .entry = "compact_warp_threads",
    .sizes = {CT_SIZES, .bench = ct_sizes, .nbench = 6}, .points = 1, .bench = 1, .cpu = ct_cpu, .omp = ct_omp,
    .vendor = 1, .bytes = ct_bytes, .alg = CT_ROOF, .vendor_alg = CT_ROOF, CT_PARAMS, .judge = &ct_compacted};
static const pl_part part_cte = {
    .id = "cte", .title = "one pass, warp votes, n=3*2^20", .entry = "compact_warp_threads", .sizes = {CT_SIZES},
    .points = 1, .cpu = cte_cpu, .omp = cte_omp, .vendor = 1, CT_PARAMS, .judge = &cte_compacted};

static const pl_part *const parts[] = {PL_LAB04_PARTS(PL_PART_REF)};

/* Performance: the one-pass part against CUB DeviceSelect, half kept. */
static const pl_perf perf[] = {
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.4, .zero = 0.1, .param = 0.5},
};

static const pl_lab lab04 = {
    .id = "04",
    .name = "compaction",
    .title = "stream compaction",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    PL_SCAN_LAB_SIZES,
    .gen_lo = -1000000,
    .gen_hi = 1000000,
    .bytes_per_elem = sizeof(int), /* unused: every part counts its own bytes */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
    .param_sweep_n = 1L << 24,
    .sweep_params = keep_sweep,
    .nsweep_params = sizeof keep_sweep / sizeof keep_sweep[0],
};

const pl_lab *pl_this_lab(void) { return &lab04; }
