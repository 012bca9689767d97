/* harness/parent/lab.h: the lab table, which drivers, tests, grading and plots read.
 *
 * A lab is one pl_lab value (harness/parent/labs/labNN.c): its parts, each
 * with its CPU references, the bytes counted, the test sizes, the points and
 * a judge (harness/parent/judges/judge.h: the input, the expected result and
 * the diagnosis of a wrong one), and the bytes its taught algorithm and its
 * vendor yardstick's must move (roofs.h). This is the parent's side: the calls into
 * the student's code and the vendor yardsticks are the worker's
 * (harness/worker/labs/labNN.cu), found by part id; the worker says at start
 * which parts it has, and a part the parent grades must be among them.
 *
 * Inputs and outputs travel as int32 words, with device scratch; the judge
 * says how many and how to read them.
 */
#ifndef PRIMLAB_LAB_H
#define PRIMLAB_LAB_H

#include "outcome.h"
#include "roofs.h"
#include "worker_client.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*pl_cpu_op)(const int *in, int *out, size_t n);

typedef struct pl_judge pl_judge; /* judges/judge.h */

/* What a part's GB/s is a fraction of, in benchmark rows: the device's copy
   bandwidth (parts that stream global memory) or its shared-memory read
   bandwidth (stride reads, which never leave shared memory). */
enum pl_roof { PL_ROOF_COPY = 0, PL_ROOF_SMEM };

/* A part's sizes. Zero/NULL members mean the lab's: "n", its test and
   benchmark sizes. A size need not be an array length (a stride, a matrix
   side, threads per block): the judge says what lengths it gives. */
typedef struct pl_sizes {
    const char *name;     /* "threads"; NULL: "n" */
    long max;             /* largest size the contract allows; 0: INT_MAX */
    const long *test, *bench;
    int ntest, nbench;
} pl_sizes;

/* A second dimension of the tests: a parameter of the input (a keep
   fraction, a key distribution, a matrix). Each test size runs at each of
   values; `run` and size sweeps use bench. n == 0: no parameter. */
typedef struct pl_params {
    const char *name;     /* "keep"; NULL: "param" */
    const double *values;
    int n;
    double bench;
    /* Parameters that are names: values are 0, 1, ... and tests are named
       by labels[value]; nlabels: labels beyond the tested values (for
       `--param`), 0: n. NULL: numbers. */
    const char *const *labels;
    int nlabels;
} pl_params;

typedef struct pl_part {
    const char *id;       /* "a", "b", ...: --part takes it */
    const char *title;    /* "inclusive scan, any n" */
    const char *entry;    /* the contract's function name, for messages */
    pl_sizes sizes;
    int points;           /* per correctness test */
    int bench;            /* timed by `run` and `sweep` */
    int roof;             /* enum pl_roof, of its benchmark rows */
    pl_cpu_op cpu, omp;   /* serial reference (the oracle) and OpenMP (or NULL) */
    int vendor;           /* the worker has a vendor yardstick for it */
    const char *vendor_name; /* its rows' variant: "cusparse"; NULL: "cub" */
    int lends;            /* its contract lends it primlab_scan_exclusive */
    /* Bytes a call moves for GB/s (NULL: lab->bytes_per_elem * size), and
       its floating-point operations for GFLOP/s (NULL: not counted). */
    double (*bytes)(long size, double param);
    double (*flops)(long size, double param);
    /* Its algorithm's roof (roofs.h, docs/roofs.md): the bytes the
       algorithm its handout teaches must move in one call, a function of
       the size and parameter, and the formula; vendor_alg the same for the
       vendor yardstick's own algorithm. Every benchmark row and
       performance test of the part shows its time as "% of its roof" (the
       copy bandwidth of the same run applied to those bytes). Zero: none
       stated, and no such percentage. */
    pl_alg alg, vendor_alg;
    pl_params params;
    const pl_judge *judge; /* NULL: int32 words against cpu, the lab's uniform input */
} pl_part;

/* A performance test: the part's throughput as a fraction of a yardstick's,
 * measured in the same run (ratio = yardstick time / part time). Points
 * are full at ratio >= full, fall linearly to zero at ratio <= zero.
 *
 * PL_YARD_ROOF scores the fraction of the part's own algorithm's roof
 * instead (pl_part.alg, roofs.h, docs/roofs.md): the least time its bytes
 * take at the copy bandwidth, over the part's time, capped at 1 (a cache
 * that holds a pass gains nothing). It is for parts whose taught algorithm
 * moves more bytes than the vendor's, where the ratio to the vendor has a
 * ceiling below 1 that moves with the GPU. full and zero are then
 * fractions of the roof (0.22: 22 %). The vendor is timed all the same, in
 * its own worker, as for PL_YARD_VENDOR: it sets the clock's allowance,
 * and its ratio is reported (the scores' ratio column). The copy bandwidth
 * is the yardstick's worker's, where no submission runs (pl_perf_copy_gbps). */
enum pl_yardstick { PL_YARD_VENDOR, PL_YARD_CPU_OMP, PL_YARD_ROOF };
typedef struct pl_perf {
    const char *part;     /* part id */
    long n;
    double points;
    int yardstick;        /* enum pl_yardstick */
    double full, zero;    /* the thresholds, instructors' to change: ratios, or fractions of the roof */
    double param;         /* the input parameter, for parts that have one */
} pl_perf;

/* What the driver hands a lab's own command: the options it parsed. */
typedef struct pl_cmd_opts {
    const char *out;      /* --out FILE, or NULL */
    const char *worker;   /* the lab's worker, for commands that run GPU code */
    const long *sizes;    /* --n LIST: nsizes sizes; 0 of them: the command's own */
    int nsizes;
    int reps;             /* --reps R, or 0 when not given */
    const char *matrix;   /* --matrix FILE (or folder), or NULL */
} pl_cmd_opts;

/* How `make plots`, measuring on a GPU, runs a command that writes figure
   data (plots/measure.sh). */
enum pl_plots {
    PL_PLOTS_NO = 0, /* not run: its rows are the same on every machine (committed) */
    PL_PLOTS_SHOW,   /* run, its output shown */
    PL_PLOTS_QUIET   /* run, its tables for people (printed anyway) not shown */
};

/* A lab's own command, `labNN NAME [options]`, declared in its table: the
   driver lists it in its usage text and in `labNN commands` (one TSV line
   per command, which the Makefile and the scripts read), and runs it. */
typedef struct pl_lab_cmd {
    const char *name;     /* "analyze" */
    const char *args;     /* its options for the usage text: "[--out FILE]" */
    const char *help;     /* one line: what it does */
    int gpu;              /* runs code in the lab's worker, so needs a GPU */
    int matrix;           /* reads --matrix (a file or a folder) itself */
    /* The figure data it writes with --out, or NULL. The lab's main data
       file, plots/data/labNN.tsv, makes it the lab's data in place of
       `sweep`'s. */
    const char *data;
    int plots;            /* enum pl_plots */
    /* Options `make plots` adds when measuring, as OPTION=VARIABLE words:
       "--matrix=MATRICES" passes --matrix with the value of the
       environment (or make command-line) variable MATRICES when it is set;
       NULL: none. */
    const char *plot_opts;
    int (*run)(const pl_cmd_opts *o); /* the exit status */
} pl_lab_cmd;

typedef struct pl_lab {
    const char *id;       /* "01" */
    const char *name;     /* "prefix-sum" */
    const char *title;
    const pl_part *const *parts;
    int nparts;
    const long *test_sizes;  /* correctness sizes, filtered by each part's max_n */
    int ntest_sizes;
    const long *bench_sizes; /* `run` without --n */
    int nbench_sizes;
    int sweep_lo, sweep_hi;  /* `sweep`: n = 2^lo .. 2^hi */
    int gen_lo, gen_hi;      /* inputs uniform in [gen_lo, gen_hi] */
    double bytes_per_elem;   /* bytes counted per element for GB/s */
    const pl_perf *perf;     /* performance tests, graded by `check` */
    int nperf;
    int hidden_per_part;     /* extra sizes per part when PRIMLAB_SEED is set */
    /* A part whose tests time out this many times one after another does
       not run the rest of its tests (0 points, as a hang would score): a
       submission whose every kernel hangs costs about this many time limits
       a part, not one a test. 0: PL_TIMEOUTS_IN_A_ROW. */
    int timeouts_in_a_row;
    size_t (*scratch_ints)(long n);
    const pl_lab_cmd *commands; /* the lab's own commands, beside check, run, ... */
    int ncommands;
    /* `sweep` of parts with a parameter: also every sweep_params value at
       n = param_sweep_n */
    /* `run --matrix FILE`: reads a Matrix Market file into the
       lab's "file" input; *rows and *param are then the size and the
       parameter that run uses. 0, or -1 with one line in err. */
    int (*load_matrix)(const char *path, long *rows, double *param, char *err, size_t cap);
    long param_sweep_n;
    const double *sweep_params;
    int nsweep_params;
    /* The bytes algorithm a (p's alg or vendor_alg) must move for a row of
       the lab's data (`labNN roofs --in`, alg_rows.h), where a command of
       its own writes rows whose param is not the part's parameter (lab
       07's table: the mean row length, the matrix by its name in
       param_label); NULL: pl_alg_bytes(a, n, param), as `run` writes them. */
    double (*row_alg_bytes)(const pl_part *p, const pl_alg *a, long n, double param, const char *param_label);
} pl_lab;

/* Shared by the scan labs: edges, sizes around a warp and a block of 1024,
   not multiples of any block, and two and three levels of block sums. */
#define PL_SCAN_NTEST 13
extern const long pl_scan_test_sizes[PL_SCAN_NTEST];
#define PL_SCAN_NBENCH 3
extern const long pl_scan_bench_sizes[PL_SCAN_NBENCH]; /* 2^20, 2^24, 2^28 */
/* The sizes of a scan-like lab, for its pl_lab initializer. */
#define PL_SCAN_LAB_SIZES                                                                                  \
    .test_sizes = pl_scan_test_sizes, .ntest_sizes = PL_SCAN_NTEST, .bench_sizes = pl_scan_bench_sizes,   \
    .nbench_sizes = PL_SCAN_NBENCH, .sweep_lo = 10, .sweep_hi = 28
/* The second length of a block-size part (a bte beside its bt):
   3 * 2^20, even and not a power of two, where a padding or rounding bug
   that an odd length (2^24 + 3) or a power of two hides shows. The worker
   takes a block-size part's length from the input staged. */
#define PL_EVEN_N (3L << 20)
/* What a shift by one means for a scan. */
#define PL_HINT_AS_EXCLUSIVE "an exclusive result where an inclusive one was asked?"
#define PL_HINT_AS_INCLUSIVE "an inclusive result where an exclusive one was asked?"

/* The lab table's default for timeouts_in_a_row. */
#define PL_TIMEOUTS_IN_A_ROW 2

/* Defined by the lab's table file; one lab per binary. */
const pl_lab *pl_this_lab(void);

/* The part's view of the lab's defaults. */
const long *pl_part_test_sizes(const pl_lab *lab, const pl_part *p, int *count);
const long *pl_part_bench_sizes(const pl_lab *lab, const pl_part *p, int *count);
const char *pl_part_size_name(const pl_part *p);
uint64_t pl_part_hash(const pl_part *p);

/* "student" or "solution": which implementation this binary was built from. */
extern const char *const pl_impl_variant;

/* One correctness test through the session's worker, within timeout_s.
   Fills r: status PL_PASS or PL_FAIL with a reason and detail, PL_SKIP, or
   the worker's failure (ERROR, CRASH, TIMEOUT), and r->seconds. */
void pl_lab_test(pl_session *s, const pl_lab *lab, const pl_part *part, long n, double param, uint64_t seed,
                 double timeout_s, pl_result *r);

/* The same at the contract's largest sizes (a limit test): one run instead
   of two (the smaller sizes look for races), no check of the input after
   the call, and an input that depends on the lab, seed and n only, so that
   the next limit test of a part with the same judge and reference
   reuses both instead of paying seconds for them again. */
void pl_lab_test_limit(pl_session *s, const pl_lab *lab, const pl_part *part, long n, double param, uint64_t seed,
                       double timeout_s, pl_result *r);

/* Whether a test of part at size n fits this machine: the device's memory
   as probe (a worker's HELLO) saw it, less 2 GiB for CUDA contexts (what
   other processes hold for a moment does not count: a limit test that
   finds the memory taken retries for a while), and the host's available
   memory (/proc/meminfo),
   for the parent's buffers and the shared region. 1 when it fits; 0 with
   why filled ("needs 40.1 GiB of device memory, 30.2 GiB free"). */
int pl_lab_fits(const pl_lab *lab, const pl_part *part, long n, double param, const pl_reply *probe, char *why,
                size_t cap);

/* One performance test: the part and its yardstick timed over reps fresh
   inputs derived from seed, each result checked. The yardstick runs in
   yard_s's worker (the vendor library with no student code), after s's
   worker is stopped; yard_s NULL: in s's. r->status PL_PASS with
   r->score in [0, points], r->value what scored (the ratio, or for
   PL_YARD_ROOF the fraction of the roof) and r->ratio the ratio to the
   timed yardstick, or PL_FAIL (a wrong
   result) with score 0. no_points: a reason the submission earns no
   performance points whatever its speed (it uses the vendor library), or
   NULL. */
void pl_lab_perf(pl_session *s, pl_session *yard_s, const pl_lab *lab, const pl_perf *perf, int reps, uint64_t seed,
                 double timeout_s, const char *no_points, pl_result *r);

/* The timings of the performance tests perfs[0..n) (names: their test
   names for the worker's log, or NULL), made ahead of them: the
   submission's first, each in s's worker as the correctness tests left
   it; then s's worker is stopped (it starts again at its next request)
   and yard_s's times each yardstick, as pl_lab_perf would. pl_lab_perf
   then takes both from here: the submission's worker is neither stopped
   nor started again for the lab's performance tests, and no yardstick
   runs beside it. Nothing when yard_s is NULL or s. */
void pl_lab_perf_ahead(pl_session *s, pl_session *yard_s, const pl_lab *lab, const pl_perf *const *perfs,
                       const char *const *names, int n, int reps, uint64_t seed, double timeout_s);

/* Points earned for ratio under perf's thresholds (for PL_YARD_ROOF, the
   fraction of the roof). */
double pl_perf_points(const pl_perf *perf, double ratio);

/* Whether perf times the vendor library (PL_YARD_VENDOR, PL_YARD_ROOF). */
int pl_perf_vendor_timed(const pl_perf *perf);

/* The fraction of its roof a test of perf scores: the roof's time (the
   algorithm's bytes at copy_gbps) over time_ms, capped at 1; NaN when it
   cannot be formed (no bytes stated, no copy bandwidth, no time). */
double pl_perf_roof_fraction(double alg_bytes, double copy_gbps, double time_ms);

typedef struct pl_bench_opts {
    const pl_part *part;  /* NULL: every part marked bench */
    const long *sizes;    /* NULL: each part's bench sizes */
    int nsizes;
    const double *params; /* NULL: each part's bench_param */
    int nparams;
    int sweep;            /* sizes NULL: 2^sweep_lo..2^sweep_hi for parts without their own */
    int reps;
    int gpu;              /* 0: CPU rows only (no device) */
    FILE *tsv;            /* rows as TSV, or NULL */
    FILE *table;          /* rows as a table, or NULL */
    FILE *progress;       /* one line per size, or NULL */
    const char *source;   /* TSV metadata: "measured" */
} pl_bench_opts;

/* Times every variant at every size (the GPU ones through the session's
   worker; s may be NULL when o->gpu is 0). Returns the number of GPU
   results that were wrong (and so were not timed). */
int pl_lab_bench(pl_session *s, const pl_lab *lab, const pl_bench_opts *o);

/* One GPU variant (the code's, or the vendor's when vendor is 1) timed
   like a `run` row: the input of (n, param) from `run`'s seed, the result
   checked once (unless check is 0: for a caller that checked the same code
   on a smaller problem, such as iterations beyond float's range), then
   reps timed calls; the median in ms, or NaN with r filled (a wrong
   result: PL_FAIL). For a lab's own table commands. */
double pl_lab_time(pl_session *s, const pl_lab *lab, const pl_part *p, int vendor, long n, double param, int reps,
                   int check, pl_result *r);

/* The device's copy bandwidth as the worker measures it (read + write
   GB/s), or NaN after printing why. */
double pl_device_copy_gbps(pl_session *s);

/* The copy bandwidth of the performance tests' report (their "% of copy"
   and "% of its roof", roofs.h) and of PL_YARD_ROOF's scores: measured by
   s's worker (started if need be), then kept; NaN when it cannot be. When
   pl_lab_perf_ahead runs, it measures it in the yardstick's worker before
   the submission's timings and again after the yardsticks' (the
   submission's worker stopped), and keeps the higher: a submission that
   slows the GPU down lowers neither a roof nor so raises its fraction.
   Otherwise measured once, at the first call. */
double pl_perf_copy_gbps(pl_session *s);

#ifdef __cplusplus
}
#endif

#endif
