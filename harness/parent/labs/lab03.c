/* harness/parent/labs/lab03.c: the lab table entry of lab 03, shared-memory bank
 * conflicts. Parts, yardsticks, sizes and points live here only; `analyze`
 * prints the bank-conflict analyzer's predictions (lab03_banks.c). */
#include "../../../kernels_ref/cpu/banks.h"
#include "../../../kernels_ref/cpu/scan.h"
#include "../../../labs/03-bank-conflicts/bank_conflicts.h"
#include "../../wire/lab03.h"
#include "../judges/array.h"
#include "../lab.h"
#include "../report.h"
#include "lab03_banks.h"


/* (a) the size is the stride; in: the staged words, out: one per thread */
static void a4_cpu(const int *in, int *out, size_t stride)
{
    stride_read_cpu(in, out, BC_STRIDE_THREADS, BC_SMEM_WORDS, BC_REPS, (int)stride, 4);
}
static void a8_cpu(const int *in, int *out, size_t stride)
{
    stride_read_cpu(in, out, BC_STRIDE_THREADS, BC_SMEM_WORDS, BC_REPS, (int)stride, 8);
}
static long a_in(long stride, double param) { return (void)stride, (void)param, BC_SMEM_WORDS; }
static long a_out(long stride) { return (void)stride, BC_STRIDE_THREADS; }
/* bytes read from shared memory */
static double a4_bytes(long stride, double p) { return (void)stride, (void)p, 4.0 * BC_STRIDE_THREADS * BC_REPS; }
static double a8_bytes(long stride, double p) { return (void)stride, (void)p, 8.0 * BC_STRIDE_THREADS * BC_REPS; }
static const long a_tests[] = {1, 2, 3, 4, 8, 16, 17, 31, 32, 33, 64};
static long a_bench[64];

/* (b) the size is the side of the square matrix */
static long b_len(long side) { return side * side; }
static long b_words(long side, double param) { return (void)param, side * side; }
static double b_bytes(long side, double p) { return (void)p, 8.0 * (double)side * (double)side; }
static const long b_tests[] = {0, 1, 31, 32, 33, 100, 1025, 2048};
static const long b_bench[] = {256, 512, 1024, 2048, 4096, 8192};

static size_t scratch_ints(long n) { return BC_SCRATCH_INTS(n); }

/* Judges: the staged words read at a stride, one result per thread; a
   matrix transposed; exclusive scans, the kit's scan judge (array.h). The
   four transposes share one judge, and so, in limit tests, one input and
   one reference. */
static const pl_array_judge stride_cfg = {.in = {.words = a_in}, .out_len = a_out};
static const pl_array_judge transpose_cfg = {.in = {.words = b_words}, .out_len = b_len};
static const pl_judge strides = {&pl_array_kind, &stride_cfg};
static const pl_judge transpose = {&pl_array_kind, &transpose_cfg};

/* The roofs (roofs.h, docs/roofs.md). A transpose reads and writes each
   element once: its roof is what the rows count, the copy's. The scans are
   lab 02's reduce-then-scan (solutions/03-bank-conflicts uses lab 02's
   tile, padded or not): 3n words, the input read twice, against CUB's one
   pass of 2n. Padding changes what shared memory does, not what goes to
   DRAM: c0 and c share the roof. The stride parts never touch DRAM after
   their first copy: their roof is shared memory's (PL_ROOF_SMEM), and no
   algorithm's bytes are stated. */
#define TRANSPOSE_ROOF {b_bytes, "2 words an element: each read once and written once"}
#define STRIDE(id_, title_, entry_, cpu_, bytes_)                                                                   \
    static const pl_part part_##id_ = {                                                                             \
        .id = #id_, .title = title_, .entry = entry_,                                                               \
        .sizes = {.name = "stride", .max = 64, .test = a_tests, .ntest = 11, .bench = a_bench, .nbench = 64},    \
        .points = 1, .bench = 1, .roof = PL_ROOF_SMEM, .cpu = cpu_, .bytes = bytes_, .judge = &strides}
#define TRANSPOSE(id_, title_, entry_)                                                                              \
    static const pl_part part_##id_ = {                                                                             \
        .id = #id_, .title = title_, .entry = entry_,                                                               \
        .sizes = {.name = "side", .max = BC_MAX_SIDE, .test = b_tests, .ntest = 8, .bench = b_bench, .nbench = 6}, \
        .points = 1, .bench = 1, .cpu = transpose_cpu, .omp = transpose_omp, .bytes = b_bytes,                      \
        .alg = TRANSPOSE_ROOF, .judge = &transpose}
#define SCAN(id_, title_, entry_)                                                                                   \
    static const pl_part part_##id_ = {.id = #id_, .title = title_, .entry = entry_, .sizes = {.max = BC_MAX_N},    \
                                       .points = 1, .bench = 1, .cpu = scan_cpu_exclusive,                          \
                                       .omp = scan_omp_exclusive, .vendor = 1, .alg = PL_ALG_REDUCE_THEN_SCAN,      \
                                       .vendor_alg = PL_ALG_CUB_SCAN, .judge = &pl_scan_exclusive}

STRIDE(a4, "4-byte reads at a stride", "stride_read32", a4_cpu, a4_bytes);
STRIDE(a8, "8-byte reads at a stride", "stride_read64", a8_cpu, a8_bytes);
TRANSPOSE(b0, "transpose, global memory", "transpose_naive");
TRANSPOSE(b1, "transpose, tile[32][32]", "transpose_tiled");
TRANSPOSE(b2, "transpose, tile[32][33]", "transpose_padded");
TRANSPOSE(b3, "transpose, swizzled tile", "transpose_swizzled");
SCAN(c0, "exclusive scan, unpadded", "scan_unpadded");
SCAN(c, "exclusive scan, conflict-free", "scan_padded");

static const pl_part *const parts[] = {PL_LAB03_PARTS(PL_PART_REF)};


/* Performance: the padded scan's fraction of its roof at 2^24, as lab
 * 02's (PL_YARD_ROOF, docs/roofs.md): 3n words against CUB's 2n. Full
 * marks from 22 % of its roof, none at 4.4 %, lab 02's thresholds. The
 * solution is at 67 % on an H200 (plots/data/roofs-h200.tsv, 2026-11-29:
 * 0.070 ms for 3n words at 4261 GB/s; 0.74x CUB), 3.1 times the full
 * mark. */
static const pl_perf perf[] = {
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_ROOF, .full = 0.22, .zero = 0.044},
};

static int analyze_command(const pl_cmd_opts *o)
{
    const char *out = o->out;
    char tmp[4096];
    FILE *tsv = NULL;
    if (out && !(tsv = pl_out_begin(out, tmp, sizeof tmp, "lab03")))
        return 2;
    pl_banks_report(stdout, tsv, 1024);
    return tsv ? pl_out_end(tsv, tmp, out, "lab03") : 0;
}

static const pl_lab_cmd commands[] = {
    {.name = "analyze", .args = "[--out FILE]",
     .help = "the bank-conflict analyzer's predictions: per tree level of the scan, per stride, per transpose tile",
     .data = "plots/data/lab03_banks.tsv", .plots = PL_PLOTS_QUIET, .run = analyze_command},
};

static const pl_lab lab03 = {
    .id = "03",
    .name = "bank-conflicts",
    .title = "shared-memory bank conflicts",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    PL_SCAN_LAB_SIZES,
    .gen_lo = -1000000, /* wide values: a wrong index rarely reads an equal one */
    .gen_hi = 1000000,
    .bytes_per_elem = 2 * sizeof(int),
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
    .commands = commands,
    .ncommands = sizeof commands / sizeof commands[0],
};

const pl_lab *pl_this_lab(void)
{
    for (int s = 0; s < 64; s++) /* strides 1..64 for the figure */
        a_bench[s] = s + 1;
    return &lab03;
}
