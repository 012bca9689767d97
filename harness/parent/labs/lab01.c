/* harness/parent/labs/lab01.c: the lab table entry of lab 01, prefix sum
 * (Hillis-Steele). Parts, yardsticks, sizes and points live here only. */
#include "../../../kernels_ref/cpu/scan.h"
#include "../../../labs/01-prefix-sum/prefix_sum.h"
#include "../../wire/lab01.h"
#include "../lab.h"

/* Part bt, the block-size experiment: the size is the number of threads
   per block, the array a fixed BT_N elements (not a multiple of any block;
   the worker takes it from harness/wire/lab01.h too). */
#define BT_N PL_LAB01_BT_N
static void bt_cpu(const int *in, int *out, size_t threads) { (void)threads, scan_cpu_inclusive(in, out, BT_N); }
static void bt_omp(const int *in, int *out, size_t threads) { (void)threads, scan_omp_inclusive(in, out, BT_N); }
static long bt_len(long threads) { return (void)threads, BT_N; }
static double bt_bytes(long threads, double param) { return (void)threads, (void)param, 2.0 * sizeof(int) * BT_N; }
static const long bt_sizes[] = {32, 64, 128, 256, 512, 1024};
/* Part bte: the same at PL_EVEN_N elements (lab.h says why). */
#define BTE_N PL_EVEN_N
static void bte_cpu(const int *in, int *out, size_t threads) { (void)threads, scan_cpu_inclusive(in, out, BTE_N); }
static void bte_omp(const int *in, int *out, size_t threads) { (void)threads, scan_omp_inclusive(in, out, BTE_N); }
static long bte_len(long threads) { return (void)threads, BTE_N; }

static size_t scratch_ints(long n) { return PS_SCRATCH_INTS(n); }


static const pl_part parts[] = {
    {.id = "a", .title = "inclusive scan, one block", .entry = "scan_inclusive_block", .max_n = PS_BLOCK_MAX,
     .points = 1, .cpu = scan_cpu_inclusive, .omp = scan_omp_inclusive,
     .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE},
    {.id = "b", .title = "inclusive scan, any n", .entry = "scan_inclusive", .max_n = PS_MAX_N, .points = 1, .bench = 1,
     .cpu = scan_cpu_inclusive, .omp = scan_omp_inclusive,
     .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE},
    {.id = "bt", .title = "inclusive scan, n=2^24+3", .entry = "scan_inclusive_threads", .points = 1,
     .bench = 1, .cpu = bt_cpu, .omp = bt_omp, .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE,
     .hint_left = PL_HINT_AS_INCLUSIVE, .size_name = "threads", .test_sizes = bt_sizes, .ntest_sizes = 6,
     .bench_sizes = bt_sizes, .nbench_sizes = 6, .max_n = 1024, .in_len = bt_len, .out_len = bt_len,
     .bytes = bt_bytes},
    {.id = "bte", .title = "inclusive scan, n=3*2^20", .entry = "scan_inclusive_threads", .points = 1,
     .cpu = bte_cpu, .omp = bte_omp, .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE,
     .hint_left = PL_HINT_AS_INCLUSIVE, .size_name = "threads", .test_sizes = bt_sizes, .ntest_sizes = 6,
     .max_n = 1024, .in_len = bte_len, .out_len = bte_len},
    {.id = "c", .title = "exclusive scan, any n", .entry = "scan_exclusive", .max_n = PS_MAX_N, .points = 1, .bench = 1,
     .cpu = scan_cpu_exclusive, .omp = scan_omp_exclusive,
     .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE},
};


/* Performance: throughput as a fraction of CUB's at 2^24 elements, measured
 * in the same run. Full marks from 0.15 (the solution reaches about 0.26 on
 * an H200), nothing at 0.03 or below. */
static const pl_perf perf[] = {
    {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.15, .zero = 0.03},
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.15, .zero = 0.03},
};

static const pl_lab lab01 = {
    .id = "01",
    .name = "prefix-sum",
    .title = "prefix sum (Hillis-Steele)",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    PL_SCAN_LAB_SIZES,
    /* small values: no int overflow up to n = 2^28 (7 * 2^28 < 2^31) */
    .gen_lo = 0,
    .gen_hi = 7,
    .bytes_per_elem = 2 * sizeof(int), /* read n, write n: the least any scan moves */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
};

const pl_lab *pl_this_lab(void) { return &lab01; }
