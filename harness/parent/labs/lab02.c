/* harness/parent/labs/lab02.c: the lab table entry of lab 02, the work-efficient
 * (Blelloch) scan. Parts, yardsticks, sizes and points live here only. */
#include "../../../kernels_ref/cpu/scan.h"
#include "../../../labs/02-blelloch-scan/blelloch_scan.h"
#include "../lab.h"

/* Part bt, the block-size experiment: the size is the number of threads per
   block, the array a fixed BT_N elements (not a multiple of any tile; the
   worker's harness/worker/labs/lab02.cu says the same). */
#define BT_N ((1L << 24) + 3)
static void bt_cpu(const int *in, int *out, size_t threads) { (void)threads, scan_cpu_exclusive(in, out, BT_N); }
static void bt_omp(const int *in, int *out, size_t threads) { (void)threads, scan_omp_exclusive(in, out, BT_N); }
static long bt_len(long threads) { return (void)threads, BT_N; }
static double bt_bytes(long threads, double param) { return (void)threads, (void)param, 2.0 * sizeof(int) * BT_N; }
static const long bt_sizes[] = {32, 64, 128, 256, 512, 1024};

static size_t scratch_ints(long n) { return BS_SCRATCH_INTS(n); }


static const pl_part parts[] = {
    {.id = "a", .title = "exclusive scan, global memory", .entry = "scan_blelloch_global", .max_n = BS_MAX_N, .points = 1,
     .bench = 1, .cpu = scan_cpu_exclusive, .omp = scan_omp_exclusive,
     .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE},
    {.id = "b", .title = "exclusive scan, shared memory", .entry = "scan_blelloch_shared", .max_n = BS_MAX_N, .points = 1,
     .bench = 1, .cpu = scan_cpu_exclusive, .omp = scan_omp_exclusive,
     .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE},
    {.id = "bt", .title = "exclusive scan, shared memory, n=2^24+3", .entry = "scan_blelloch_shared_threads",
     .points = 1, .bench = 1, .cpu = bt_cpu, .omp = bt_omp, .vendor = 1,
     .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE, .size_name = "threads", .test_sizes = bt_sizes,
     .ntest_sizes = 6, .bench_sizes = bt_sizes, .nbench_sizes = 6, .max_n = 1024, .in_len = bt_len,
     .out_len = bt_len, .bytes = bt_bytes},
    {.id = "c", .title = "inclusive scan", .entry = "scan_blelloch_inclusive", .max_n = BS_MAX_N, .points = 1, .bench = 1,
     .cpu = scan_cpu_inclusive, .omp = scan_omp_inclusive,
     .vendor = 1, .hint_right = PL_HINT_AS_EXCLUSIVE, .hint_left = PL_HINT_AS_INCLUSIVE},
};


/* Performance: the shared-memory scan's throughput as a fraction of CUB's at
 * 2^24, measured in the same run; full marks from about half of what the
 * solution reaches on an H200. */
static const pl_perf perf[] = {
    {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.25, .zero = 0.05},
    {.part = "c", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.25, .zero = 0.05},
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
};

const pl_lab *pl_this_lab(void) { return &lab02; }
