/* harness/parent/lab.h: the lab table, which drivers, tests, grading and plots read.
 *
 * A lab is one pl_lab value (harness/parent/labs/labNN.c): its parts, each
 * with its CPU references, the input generator, the bytes counted, the test
 * sizes and the points. This is the parent's side: the calls into the
 * student's code and the vendor yardsticks are the worker's
 * (harness/worker/labs/labNN.cu), found by part id; the worker says at start
 * which parts it has, and a part the parent grades must be among them.
 *
 * Labs 01-05 are "array operations": int32 words in, int32 words out, with
 * device scratch; a part may change the lengths (in_len, out_len) and read
 * the words as other types (lab 05's unsigned and float keys).
 */
#ifndef PRIMLAB_LAB_H
#define PRIMLAB_LAB_H

#include "proc.h"
#include "worker_client.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*pl_cpu_op)(const int *in, int *out, size_t n);

struct pl_cmp_real;
/* Float and double outputs (labs 06 and 07): the words of the output are
   elements of type elem (enum pl_elem, diagnose.h), and so are the input's
   (graded timing patches a staged input element by element), judged by
   pl_compare_real against what expect fills for the input in (its words) of
   size n: the reference want[] in higher precision, the tolerance tol[] the
   lab states, and in c the suspects (known mistakes, their values kept by
   the lab until the next call); out_elems(n) of each. The part's cpu and
   omp ops then only time the CPU. */
typedef struct pl_real_check {
    int elem;
    long (*out_elems)(long n);
    void (*expect)(const int *in, long n, double param, double *want, double *tol, struct pl_cmp_real *c);
} pl_real_check;

/* What a part's GB/s is a fraction of, in benchmark rows: the device's copy
   bandwidth (parts that stream global memory) or its shared-memory read
   bandwidth (lab 03's stride reads, which never leave shared memory). */
enum pl_roof { PL_ROOF_COPY = 0, PL_ROOF_SMEM };

typedef struct pl_part {
    const char *id;       /* "a", "b", ...: --part takes it */
    const char *title;    /* "inclusive scan, any n" */
    const char *entry;    /* the contract's function name, for messages */
    long max_n;           /* largest size the contract allows; 0: INT_MAX */
    int points;           /* per correctness test */
    int bench;            /* timed by `run` and `sweep` */
    pl_cpu_op cpu, omp;   /* serial reference (the oracle) and OpenMP (or NULL) */
    int vendor;           /* the worker has a vendor yardstick for it */
    const char *vendor_name; /* its rows' variant: "cusparse"; NULL: "cub" */
    int lends;            /* its contract lends it primlab_scan_exclusive */
    const char *hint_right, *hint_left; /* what a shift by one means */
    /* Optional, for parts whose size is not an array length (a stride, a
       matrix side): zero/NULL means the lab's sizes, "n", lengths = size,
       bytes = lab->bytes_per_elem * size. */
    const char *size_name;
    const long *test_sizes, *bench_sizes;
    int ntest_sizes, nbench_sizes;
    long (*in_len)(long size), (*out_len)(long size);
    double (*bytes)(long size, double param);
    /* Optional: floating-point operations of a call (SpMV's 2 nnz), for
       GFLOP/s in benchmark rows; NULL: not counted. */
    double (*flops)(long size, double param);
    /* Optional second dimension of the tests: a parameter of the input (lab
       04's keep fraction). Each test size runs at each of params; `run` and
       size sweeps use bench_param. gen makes the input from it (NULL: the
       lab's uniform range, and no parameter). */
    const char *param_name;
    const double *params;
    int nparams;
    double bench_param;
    void (*gen)(int *a, size_t len, uint64_t seed, double param);
    /* Parameters that are names (lab 05's key distributions): params are
       0, 1, ... and tests are named by param_labels[param]. */
    const char *const *param_labels;
    int nparam_labels;    /* labels beyond the tested params (for `--param`); 0: nparams */
    /* Sorts (lab 05): enum pl_sort (diagnose.h), so that a wrong result is
       diagnosed as a sort. sort_pairs: input and output hold n keys then n
       values, the values being input positions (in_len = out_len = 2n). */
    int sort, sort_pairs;
    /* Compactions (lab 04): the output's last word is the count returned
       (see pl_cmp's keeps, diagnose.h); NULL for other parts. */
    int (*keeps)(int x);
    const char *keep_rule;
    /* Optional, for inputs made of several arrays (lab 06's sparse
       matrices), in place of in_len and gen: the input's length in words
       for a size and parameter (the same pair always gives the same
       length), and the input itself. */
    long (*input_words)(long size, double param);
    void (*make_input)(int *a, long size, double param, uint64_t seed);
    /* The words graded timing may patch, [*lo, *hi), or NULL: every word
       (the keys of pairs). A matrix's values, never its structure. */
    void (*patch_span)(const int *in, long size, double param, long *lo, long *hi);
    int roof;             /* enum pl_roof */
    const pl_real_check *real; /* float or double output, or NULL (int32 words) */
    /* Optional: the lab's known mistakes in an int32 result, named in the
       diagnosis (pl_cmp's known, diagnose.h); NULL: none. */
    int (*known_i32)(const int *in, size_t n_in, const int *want, const int *got, size_t n, size_t first_bad,
                     char *why, size_t cap);
    /* A stress part (lab 08's bs): each correctness test is `runs` calls,
       each on a fresh input from the test's seed, every result judged; one
       wrong run fails the test, whose reason says how many were wrong and
       gives the first one's diagnosis. What loads the device meanwhile is
       the worker op's business. 0 or 1: the usual two runs of one input. */
    int runs;
} pl_part;

/* A performance test: the part's throughput as a fraction of a yardstick's,
 * measured in the same run (ratio = yardstick time / part time). Points
 * are full at ratio >= full, fall linearly to zero at ratio <= zero. */
enum pl_yardstick { PL_YARD_VENDOR, PL_YARD_CPU_OMP };
typedef struct pl_perf {
    const char *part;     /* part id */
    long n;
    double points;
    int yardstick;        /* enum pl_yardstick */
    double full, zero;    /* the thresholds, instructors' to change */
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
    const pl_part *parts;
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
    size_t (*scratch_ints)(long n);
    const pl_lab_cmd *commands; /* the lab's own commands, beside check, run, ... */
    int ncommands;
    /* `sweep` of parts with a parameter: also every sweep_params value at
       n = param_sweep_n */
    /* `run --matrix FILE` (lab 06): reads a Matrix Market file into the
       lab's "file" input; *rows and *param are then the size and the
       parameter that run uses. 0, or -1 with one line in err. */
    int (*load_matrix)(const char *path, long *rows, double *param, char *err, size_t cap);
    long param_sweep_n;
    const double *sweep_params;
    int nsweep_params;
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
/* The second length of a block-size part (lab 01's bte beside its bt):
   3 * 2^20, even and not a power of two, where a padding or rounding bug
   that an odd length (2^24 + 3) or a power of two hides shows. The worker
   takes a block-size part's length from the input staged. */
#define PL_EVEN_N (3L << 20)
/* What a shift by one means for a scan. */
#define PL_HINT_AS_EXCLUSIVE "an exclusive result where an inclusive one was asked?"
#define PL_HINT_AS_INCLUSIVE "an inclusive result where an exclusive one was asked?"

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
   the next limit test of a part with the same generator and reference
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
   r->score in [0, points] and r->value the ratio, or PL_FAIL (a wrong
   result) with score 0. no_points: a reason the submission earns no
   performance points whatever its speed (it uses the vendor library), or
   NULL. */
void pl_lab_perf(pl_session *s, pl_session *yard_s, const pl_lab *lab, const pl_perf *perf, int reps, uint64_t seed,
                 double timeout_s, const char *no_points, pl_result *r);

/* Points earned for ratio under perf's thresholds. */
double pl_perf_points(const pl_perf *perf, double ratio);

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
   on a smaller problem, lab 07's iterations beyond float's range), then
   reps timed calls; the median in ms, or NaN with r filled (a wrong
   result: PL_FAIL). For a lab's own table commands. */
double pl_lab_time(pl_session *s, const pl_lab *lab, const pl_part *p, int vendor, long n, double param, int reps,
                   int check, pl_result *r);

/* The device's copy bandwidth as the worker measures it (read + write
   GB/s), or NaN after printing why. */
double pl_device_copy_gbps(pl_session *s);

#ifdef __cplusplus
}
#endif

#endif
