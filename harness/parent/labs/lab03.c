/* harness/parent/labs/lab03.c: the lab table entry of lab 03, shared-memory bank
 * conflicts. Parts, yardsticks, sizes and points live here only; `analyze`
 * prints the bank-conflict analyzer's predictions (harness/parent/banks.c). */
#include "../../../kernels_ref/cpu/banks.h"
#include "../../../kernels_ref/cpu/scan.h"
#include "../../../labs/03-bank-conflicts/bank_conflicts.h"
#include "../../wire/lab03.h"
#include "../banks.h"
#include "../lab.h"
#include "../report.h"

#include <string.h>

/* (a) the size is the stride; in: the staged words, out: one per thread */
static void a4_cpu(const int *in, int *out, size_t stride)
{
    stride_read_cpu(in, out, BC_STRIDE_THREADS, BC_SMEM_WORDS, BC_REPS, (int)stride, 4);
}
static void a8_cpu(const int *in, int *out, size_t stride)
{
    stride_read_cpu(in, out, BC_STRIDE_THREADS, BC_SMEM_WORDS, BC_REPS, (int)stride, 8);
}
static long a_in(long stride) { return (void)stride, BC_SMEM_WORDS; }
static long a_out(long stride) { return (void)stride, BC_STRIDE_THREADS; }
/* bytes read from shared memory */
static double a4_bytes(long stride, double p) { return (void)stride, (void)p, 4.0 * BC_STRIDE_THREADS * BC_REPS; }
static double a8_bytes(long stride, double p) { return (void)stride, (void)p, 8.0 * BC_STRIDE_THREADS * BC_REPS; }
static const long a_tests[] = {1, 2, 3, 4, 8, 16, 17, 31, 32, 33, 64};
static long a_bench[64];

/* (b) the size is the side of the square matrix */
static long b_len(long side) { return side * side; }
static double b_bytes(long side, double p) { return (void)p, 8.0 * (double)side * (double)side; }
static const long b_tests[] = {0, 1, 31, 32, 33, 100, 1025, 2048};
static const long b_bench[] = {256, 512, 1024, 2048, 4096, 8192};

static size_t scratch_ints(long n) { return BC_SCRATCH_INTS(n); }

#define STRIDE(id_, title_, entry_, cpu_, bytes_)                                                          \
    {.id = id_, .title = title_, .entry = entry_, .max_n = 64, .points = 1, .bench = 1, .cpu = cpu_, \
     .size_name = "stride", .test_sizes = a_tests, .ntest_sizes = 11, .bench_sizes = a_bench,                    \
     .nbench_sizes = 64, .in_len = a_in, .out_len = a_out, .bytes = bytes_, .roof = PL_ROOF_SMEM}
#define TRANSPOSE(id_, title_, entry_)                                                                    \
    {.id = id_, .title = title_, .entry = entry_, .max_n = BC_MAX_SIDE, .points = 1, .bench = 1, \
     .cpu = transpose_cpu, .omp = transpose_omp, .size_name = "side", .test_sizes = b_tests, .ntest_sizes = 8,  \
     .bench_sizes = b_bench, .nbench_sizes = 6, .in_len = b_len, .out_len = b_len, .bytes = b_bytes}
#define SCAN(id_, title_, entry_)                                                                          \
    {.id = id_, .title = title_, .entry = entry_, .max_n = BC_MAX_N, .points = 1, .bench = 1, .cpu = scan_cpu_exclusive, \
     .omp = scan_omp_exclusive, .vendor = 1,                                                 \
     .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE}

static const pl_part parts[] = {
    STRIDE("a4", "4-byte reads at a stride", "stride_read32", a4_cpu, a4_bytes),
    STRIDE("a8", "8-byte reads at a stride", "stride_read64", a8_cpu, a8_bytes),
    TRANSPOSE("b0", "transpose, global memory", "transpose_naive"),
    TRANSPOSE("b1", "transpose, tile[32][32]", "transpose_tiled"),
    TRANSPOSE("b2", "transpose, tile[32][33]", "transpose_padded"),
    TRANSPOSE("b3", "transpose, swizzled tile", "transpose_swizzled"),
    SCAN("c0", "exclusive scan, unpadded", "scan_unpadded"),
    SCAN("c", "exclusive scan, conflict-free", "scan_padded"),
};


/* Performance: the padded scan against CUB at 2^24, as in lab 02. */
static const pl_perf perf[] = {
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.25, .zero = 0.05},
};

static int command(const char *name, const pl_cmd_opts *o)
{
    const char *out = o->out;
    if (strcmp(name, "analyze") != 0)
        return -1;
    char tmp[4096];
    FILE *tsv = NULL;
    if (out && !(tsv = pl_out_begin(out, tmp, sizeof tmp, "lab03")))
        return 2;
    pl_banks_report(stdout, tsv, 1024);
    return tsv ? pl_out_end(tsv, tmp, out, "lab03") : 0;
}

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
    .command = command,
};

const pl_lab *pl_this_lab(void)
{
    for (int s = 0; s < 64; s++) /* strides 1..64 for the figure */
        a_bench[s] = s + 1;
    return &lab03;
}
