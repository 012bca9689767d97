/* harness/parent/driver.c: main() of every lab binary, build/<impl>/labNN:
 * the grading parent. It holds the lab table, the inputs, the references
 * and the verdicts, and no student code and no CUDA: the GPU work goes to
 * the lab's worker, build/<impl>/labNN-worker, run in a sandbox
 * (worker_client.h).
 *
 *   labNN check [--part X] [--n LIST] [--seed S]   correctness tests, scored
 *   labNN run   [--part X] [--n LIST] [--reps R]   benchmark table (+ --out TSV)
 *   labNN sweep [--part X] [--out FILE]            n = 2^lo..2^hi, TSV for plots
 *   labNN info | list                              the GPU | the parts and tests
 *   labNN roofs [--part X] [--n LIST] [--param LIST]  each part's algorithm's roof (TSV)
 *   labNN roofs --in FILE [--out FILE]             FILE's rows with their roofs' columns added
 *   labNN fill --scores FILE                       a row for each test FILE lacks
 *   labNN fill --scores FILE --not-graded MISSING|NOBUILD --reason TEXT
 *                                                  the lab's one row: 0 of its points
 *   labNN commands                                 every command as TSV, for scripts
 *   labNN NAME [options]                           one of the lab's own commands,
 *                                                  declared in its table (pl_lab_cmd)
 *
 * The grading seed (PRIMLAB_SEED) is read and removed from the environment
 * before anything else runs; the list of tests and the maximum are fixed
 * before the worker starts.
 */
#define _GNU_SOURCE
#include "alg_rows.h"
#include "bugs.h"
#include "diagnose.h"
#include "lab.h"
#include "outcome.h"
#include "report.h"
#include "results.h"
#include "rubric.h"
#include "summary.h"
#include "timing.h"
#include "worker_client.h"

#include <check.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PL_IMPL_VARIANT
#define PL_IMPL_VARIANT "student"
#endif
const char *const pl_impl_variant = PL_IMPL_VARIANT;

#define MAX_SIZES 64

typedef struct opts {
    const char *cmd, *part, *out, *in, *scores, *tap, *xml, *worker, *log, *matrix;
    const char *not_graded, *reason; /* fill: a lab that was not graded, and why */
    int seed_given;
    long sizes[MAX_SIZES];
    int nsizes, reps, reps_given;
    double params[MAX_SIZES];
    int nparams;
    unsigned long long seed;
    double timeout;
} opts;

static const char *prog = "lab";
static char secret_seed[64]; /* PRIMLAB_SEED, taken out of the environment */

/* The commands every lab has. gpu: it runs the lab's worker. */
static const struct builtin {
    const char *name, *help;
    int gpu;
} builtins[] = {
    {"check", "correctness tests, each in its own process; prints OK/FAIL, reasons, the score", 1},
    {"run", "benchmark every variant: time, GB/s, % of copy bandwidth and of its roof, ratios to CPU and CUB", 1},
    {"sweep", "benchmark n = 2^lo..2^hi and write TSV rows for the plots", 1},
    {"info", "describe the GPU", 1},
    {"list", "list the parts, test sizes and points", 0},
    {"roofs", "the bytes each part's algorithm and its vendor's must move: the graded problems, or at --n and\n"
              "           --param (TSV; docs/roofs.md); with --in FILE, a data file written before the columns\n"
              "           alg_bytes and pct_alg, its rows with them (to --out FILE, or stdout)", 0},
    {"fill", "append to --scores a FAIL row for every graded test it lacks (a stopped run);\n"
             "           with --not-graded MISSING|NOBUILD --reason TEXT, the lab's one row of 0 points", 0},
    {"commands", "every command of this lab as TSV: name, data, gpu, plots, options", 0},
};
#define NBUILTINS (int)(sizeof builtins / sizeof builtins[0])

/* The lab's own command called name, or NULL. */
static const pl_lab_cmd *own_command(const pl_lab *lab, const char *name)
{
    for (int k = 0; k < lab->ncommands; k++)
        if (!strcmp(lab->commands[k].name, name))
            return &lab->commands[k];
    return NULL;
}

/* The file `sweep` writes for the figures: the lab's main data file,
   unless one of its own commands writes that (lab data that is no sweep). */
static const char *sweep_data(const pl_lab *lab)
{
    static char path[64];
    snprintf(path, sizeof path, "plots/data/lab%s.tsv", lab->id);
    for (int k = 0; k < lab->ncommands; k++)
        if (lab->commands[k].data && !strcmp(lab->commands[k].data, path))
            return NULL;
    return path;
}

/* --param's help: each parameter the parts take, by its name, with a few
   of its values from the table (the names of a named one). */
static void param_help(FILE *f, const pl_lab *lab)
{
    fprintf(f, "  --param LIST  the parts' input parameter; check: only those");
    int any = 0;
    for (int k = 0; k < lab->nparts; k++) {
        const pl_params *p = &lab->parts[k]->params;
        int seen = !p->name;
        for (int j = 0; j < k && !seen; j++)
            seen = lab->parts[j]->params.name && !strcmp(lab->parts[j]->params.name, p->name);
        if (seen)
            continue;
        any = 1;
        int nlabels = p->nlabels ? p->nlabels : p->n;
        fprintf(f, "\n                %s: %s, e.g. ", p->name, p->labels ? "by name" : "numbers");
        for (int q = 0; q < 3 && q < (p->labels ? nlabels : p->n); q++) {
            if (!p->labels)
                fprintf(f, "%s%g", q ? "," : "", p->values[q]);
            else
                fprintf(f, strchr(p->labels[q], ' ') ? "%s\"%s\"" : "%s%s", q ? "," : "", p->labels[q]);
        }
    }
    fprintf(f, "%s\n", any ? "" : " (this lab's parts have none)");
}

static void usage(FILE *f)
{
    const pl_lab *lab = pl_this_lab();
    fprintf(f, "usage: %s <command> [options]\ncommands:\n", prog);
    for (int k = 0; k < NBUILTINS; k++)
        fprintf(f, "  %-8s %s\n", builtins[k].name, builtins[k].help);
    if (lab->ncommands)
        fprintf(f, "%s's own commands:\n", prog);
    for (int k = 0; k < lab->ncommands; k++)
        fprintf(f, "  %s %s\n           %s\n", lab->commands[k].name, lab->commands[k].args ? lab->commands[k].args : "",
                lab->commands[k].help);
    fprintf(f, "options:\n"
               "  --part X      only part X (a, b, ...)\n"
               "  --n LIST      sizes, comma-separated: 1000, 2^20, 4M (= 4 * 2^20)\n"
               "  --seed S      input seed (default 1)\n");
    param_help(f, lab);
    fprintf(f, "  --reps R      timed repetitions, median reported (default 20)\n"
               "  --out FILE    write TSV rows to FILE (run, sweep, roofs --in)\n"
               "  --in FILE     (roofs) rows of this lab written without alg_bytes and pct_alg: adds them\n");
    if (lab->load_matrix)
        fprintf(f, "  --matrix FILE (run) time the parts on a Matrix Market file\n");
    fprintf(f,
            "  --timeout S   per-test time limit in seconds (default PRIMLAB_TIMEOUT or 60)\n"
            "  --scores FILE append per-test scores as TSV (used by make check)\n"
            "  --worker FILE the worker to run the code in (default: this program's path + -worker)\n"
            "  --log FILE    where the code's own prints go (default: the worker's path + .log)\n"
            "  --tap FILE, --xml FILE   TAP and JUnit XML logs of `check`, made from the score rows\n"
            "environment: PRIMLAB_SEED=S grades with a secret seed and adds hidden sizes;\n"
            "  PRIMLAB_TIMEOUT=S is the default --timeout; V=1 prints every test, not groups;\n"
            "  PRIMLAB_LIMITS=1 adds the limit tests (one per part within 1024 of its largest n; each\n"
            "  gets 5x the time limit), =0 leaves them out; unset, they come with PRIMLAB_SEED\n");
}

/* `labNN commands`: one TSV line per command, after a header: its name,
   the figure data it writes with --out (or -), whether it runs the worker
   (1 or 0), how `make plots` runs it (show, quiet, or - for not at all),
   and the options make plots adds (OPTION=VARIABLE words, or -). */
static int cmd_commands(const pl_lab *lab)
{
    printf("name\tdata\tgpu\tplots\toptions\n");
    for (int k = 0; k < NBUILTINS; k++) {
        const char *data = !strcmp(builtins[k].name, "sweep") ? sweep_data(lab) : NULL;
        printf("%s\t%s\t%d\t%s\t-\n", builtins[k].name, data ? data : "-", builtins[k].gpu, data ? "show" : "-");
    }
    static const char *const plots[] = {[PL_PLOTS_NO] = "-", [PL_PLOTS_SHOW] = "show", [PL_PLOTS_QUIET] = "quiet"};
    for (int k = 0; k < lab->ncommands; k++) {
        const pl_lab_cmd *c = &lab->commands[k];
        printf("%s\t%s\t%d\t%s\t%s\n", c->name, c->data ? c->data : "-", c->gpu,
               c->data ? plots[c->plots] : "-", c->plot_opts ? c->plot_opts : "-");
    }
    return 0;
}

/* A named parameter (a key distribution, "few") as its number, or -1. */
static double param_by_label(const char *name)
{
    const pl_lab *lab = pl_this_lab();
    for (int k = 0; k < lab->nparts; k++)
        for (int q = 0; lab->parts[k]->params.labels &&
                        q < (lab->parts[k]->params.nlabels ? lab->parts[k]->params.nlabels : lab->parts[k]->params.n);
             q++)
            if (!strcmp(lab->parts[k]->params.labels[q], name))
                return (double)q;
    return -1;
}

static void die_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try '%s --help')\n", prog);
    exit(2);
}

/* "1000", "2^20", "4M", "64K": a size in [0, INT_MAX], or -1. */
static long parse_size(const char *s)
{
    char *end;
    errno = 0;
    if (s[0] == '2' && s[1] == '^') {
        long e = strtol(s + 2, &end, 10);
        return (*end || e < 0 || e > 30 || errno) ? -1 : 1L << e;
    }
    long v = strtol(s, &end, 10);
    if (end == s || errno || v < 0)
        return -1;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    return (*end || v > INT_MAX) ? -1 : v;
}

static void parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 20;
    o->seed = 1;
    o->timeout = pl_env_seconds("PRIMLAB_TIMEOUT", 60);
    if (argc < 2)
        die_usage("missing command%s", "");
    o->cmd = argv[1];
    if (!strcmp(o->cmd, "-h") || !strcmp(o->cmd, "--help")) {
        usage(stdout);
        exit(0);
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (i + 1 >= argc)
            die_usage("option '%s' needs a value", a);
        const char *v = argv[++i];
        char *end;
        if (!strcmp(a, "--part"))
            o->part = v;
        else if (!strcmp(a, "--out"))
            o->out = v;
        else if (!strcmp(a, "--in"))
            o->in = v;
        else if (!strcmp(a, "--scores"))
            o->scores = v;
        else if (!strcmp(a, "--tap"))
            o->tap = v;
        else if (!strcmp(a, "--xml"))
            o->xml = v;
        else if (!strcmp(a, "--not-graded"))
            o->not_graded = v;
        else if (!strcmp(a, "--reason"))
            o->reason = v;
        else if (!strcmp(a, "--worker"))
            o->worker = v;
        else if (!strcmp(a, "--log"))
            o->log = v;
        else if (!strcmp(a, "--seed")) {
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            o->seed_given = 1;
            if (*end || end == v || errno)
                die_usage("bad seed '%s'", v);
        } else if (!strcmp(a, "--reps")) {
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 256)
                die_usage("bad repetition count '%s' (want 1..256)", v);
            o->reps = (int)r;
            o->reps_given = 1;
        } else if (!strcmp(a, "--timeout")) {
            o->timeout = strtod(v, &end);
            if (*end || end == v || o->timeout <= 0)
                die_usage("bad time limit '%s' (want seconds > 0)", v);
        } else if (!strcmp(a, "--param")) {
            char *copy = strdup(v), *save = NULL;
            for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                double x = strtod(t, &end);
                if ((*end || end == t) && (x = param_by_label(t)) < 0)
                    die_usage("bad parameter '%s' (want numbers, e.g. 0,0.5,1, or a name `list` shows)", t);
                if (o->nparams == MAX_SIZES)
                    die_usage("too many parameters at '%s'", t);
                o->params[o->nparams++] = x;
            }
            free(copy);
        } else if (!strcmp(a, "--matrix")) {
            o->matrix = v;
        } else if (!strcmp(a, "--n")) {
            char *copy = strdup(v), *save = NULL;
            for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                long n = parse_size(t);
                if (n < 0)
                    die_usage("bad size '%s' (want 0..2^31-1, e.g. 1000, 2^20 or 4M)", t);
                if (o->nsizes == MAX_SIZES)
                    die_usage("too many sizes in '%s'", v);
                o->sizes[o->nsizes++] = n;
            }
            free(copy);
        } else {
            die_usage("unknown option '%s'", a);
        }
    }
}

static const pl_part *find_part(const pl_lab *lab, const char *id)
{
    if (!id)
        return NULL;
    const pl_part *p = pl_find_part(lab, id);
    if (p)
        return p;
    fprintf(stderr, "%s: no part '%s' in lab %s (parts:", prog, id, lab->id);
    for (int k = 0; k < lab->nparts; k++)
        fprintf(stderr, " %s", lab->parts[k]->id);
    fprintf(stderr, ")\n");
    exit(2);
}

/* ------------------------------------------------------------- worker */

static char worker_path[4096], log_path[4096 + 8];

/* The worker beside this program, unless --worker names one. */
static const char *worker_of(const opts *o)
{
    if (o->worker)
        return o->worker;
    ssize_t len = readlink("/proc/self/exe", worker_path, sizeof worker_path - 16);
    if (len <= 0)
        return NULL;
    worker_path[len] = '\0';
    strcat(worker_path, "-worker");
    return worker_path;
}

static int no_gpu_env(void)
{
    const char *no = getenv("PRIMLAB_NO_GPU");
    return no && *no && strcmp(no, "0") != 0;
}

/* The subtotal line of a lab with no score: no test could run here (no
   GPU), or a dry run (PRIMLAB_NO_GPU) gives none, not even to a lab not
   handed in; the reason is said once, on the Score line. */
static void print_no_subtotal(const pl_lab *lab)
{
    printf("lab%s subtotal: none, no test ran\n", lab->id);
}

/* Opens a session with the lab's worker, NULL with why. */
static pl_session *open_session(const opts *o, double start_s, char *why, size_t cap)
{
    const char *w = worker_of(o);
    if (!w) {
        snprintf(why, cap, "cannot find this program's own path");
        return NULL;
    }
    if (o->log)
        snprintf(log_path, sizeof log_path, "%s", o->log);
    else
        snprintf(log_path, sizeof log_path, "%s.log", w);
    pl_session_opts so = {.worker = w, .no_gpu = no_gpu_env(), .log = log_path, .start_s = start_s};
    return pl_session_open(&so, why, cap);
}

/* The yardstick's worker, build/vendor/labNN-worker beside build/<impl>/:
   the vendor library and no student code. NULL (then the yardstick runs in
   the student's worker) when there is none. */
static pl_session *open_yardstick(const opts *o)
{
    const char *w = worker_of(o);
    char path[4096 + 32], why[256];
    const char *slash = w ? strrchr(w, '/') : NULL;
    if (!slash || o->worker)
        return NULL;
    int dir = (int)(slash - w);
    while (dir > 0 && w[dir - 1] != '/')
        dir--;
    snprintf(path, sizeof path, "%.*svendor%s", dir, w, slash);
    if (access(path, X_OK) != 0)
        return NULL;
    pl_session_opts so = {.worker = path, .no_gpu = no_gpu_env(), .log = NULL, .start_s = 120};
    pl_session *s = pl_session_open(&so, why, sizeof why);
    if (!s)
        fprintf(stderr, "%s: the yardstick's worker did not start (%s): timing it beside the submission\n", prog, why);
    return s;
}

/* The parent's table and the worker's agree on the parts; 0 with why. */
static int parts_match(const pl_lab *lab, const pl_reply *h, char *why, size_t cap)
{
    for (int k = 0; k < lab->nparts; k++) {
        int found = 0;
        for (int j = 0; j < h->nparts && j < PL_MAX_PARTS; j++)
            if (!strncmp(h->parts[j].id, lab->parts[k]->id, sizeof h->parts[j].id))
                found = !lab->parts[k]->vendor || h->parts[j].has_vendor;
        if (!found) {
            snprintf(why, cap, "the worker lacks part %s%s (a stale build? run make)", lab->parts[k]->id,
                     lab->parts[k]->vendor ? " or its vendor yardstick" : "");
            return 0;
        }
    }
    return 1;
}

/* Why the submission earns no performance points whatever its speed: the
   vendor library's symbols in its own object, or a call that loads a
   library or looks up a function at run time (a way to the vendor library
   that names none of its symbols), which make lists beside the worker
   (labNN-worker.vendor). NULL: none found. */
static const char *vendor_use(const char *worker)
{
    static char why[160];
    char path[4096 + 8], line[512];
    snprintf(path, sizeof path, "%s.vendor", worker);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    const char *res = NULL;
    if (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strstr(line, " at run time"))
            snprintf(why, sizeof why, "the submission loads libraries or their functions itself (%.100s)", line);
        else
            snprintf(why, sizeof why, "the submission uses the vendor library itself (%.100s)", line);
        res = why;
    }
    fclose(f);
    return res;
}

/* ---------------------------------------------------------------- check */

/* Grading runs under Check's runner in no-fork mode (this process runs no
 * student code and no CUDA; the worker does). Each test's outcome becomes
 * one scores row (scores.h): appended to --scores, kept for the TAP and
 * JUnit XML logs (results.h), and added to the report, where the summary
 * folds repeated outcomes into groups. */

#define MAX_TESTS 512
/* A limit test moves gigabytes through generation, the shared region, PCIe
   and the reference (a sort of key-value pairs at 2^31: about 62 s on an H100 host):
   it gets this many times the per-test limit. */
#define LIMIT_TIMEOUT_X 5
#define PERF_REPS 7 /* timed repetitions of a performance test, each on a fresh input */
/* The tests at n = 0 and 1 come first in each part and get a short limit: a
   submission that hangs on an empty input (a log2(0) that never returns)
   costs seconds per lab, not a full limit per part. After two such
   timeouts in a lab, the rest get less. */
#define SMALL_LIMIT_S 2.0
#define SMALL_LIMIT_LATER_S 0.5
/* A part not written yet (a stub's): once this many of its correctness
   tests, one of them at n >= UNWRITTEN_SEEN_N, have all left the output
   never written, its tests from UNWRITTEN_SKIP_N up and its performance
   tests are not run (0 points, as they would score). They were 14 of the
   stub check's 26 s of tests on an H100 host. Code that writes nothing from
   n = 1 to 2^16 but something at 2^22 is the only code they could have
   scored for. */
#define UNWRITTEN_SEEN 4
#define UNWRITTEN_SEEN_N 65536L
#define UNWRITTEN_SKIP_N 4194304L

static struct grading {
    const pl_lab *lab;
    const opts *o;
    pl_session *s;
    pl_session *yard;       /* the yardstick's worker: no student code */
    const pl_reply *probe;  /* the device, as a worker with no student code saw it */
    const char *open_error; /* why there is no session */
    const char *open_cause; /* its PL_CAUSE_*, or "" when it is the code's */
    const char *no_perf;    /* why no performance points */
    uint64_t seed;
    pl_test tests[MAX_TESTS];
    int ntests, in_part[MAX_TESTS];
    char unfit[MAX_TESTS][200]; /* a limit test this machine cannot hold: why */
    int passed_in_part[MAX_TESTS]; /* by the index of a part's first test: its correctness tests passed */
    int failed_zero[MAX_TESTS];    /* ... its tests at n = 0 failed */
    int failed_even[MAX_TESTS];    /* ... its tests at an even n that is not a power of two failed */
    long even_n[MAX_TESTS][2];     /* ... the first two such sizes */
    int failed_other[MAX_TESTS];   /* ... its other correctness tests failed */
    int hung_zero[MAX_TESTS];      /* ... it timed out at n = 0 */
    int ran[MAX_TESTS];            /* ... its correctness tests that ran */
    int unwritten[MAX_TESTS];      /* ... of them, those that left the output never written */
    long unwritten_n[MAX_TESTS];   /* ... the largest n of those */
    char unwritten_bugs[MAX_TESTS][96]; /* ... the last one's bugs (lab 07 names its stub a known mistake) */
    int small_timeouts;            /* tests at n <= 1 that timed out, in the lab */
    int timeouts_run[MAX_TESTS];   /* by a part's first test: its last tests run that timed out, in a row */
    int timed_ahead;               /* the performance tests' timings made (timings_ahead) */
    int limits_fresh;              /* the submission's worker stopped before the limit tests */
    double got, max;
    FILE *scores;
    pl_scores rows; /* this run's rows, for the TAP and XML logs */
    pl_summary *sum;
} G;

/* Part (by its first test's index) has written no output yet, in enough
   tests to say so (UNWRITTEN_SEEN). */
static int part_unwritten(int first)
{
    return G.ran[first] >= UNWRITTEN_SEEN && G.unwritten[first] == G.ran[first] &&
           G.unwritten_n[first] >= UNWRITTEN_SEEN_N;
}

/* Part (by its first test's index) has timed out in its last
   timeouts_in_a_row tests run: the rest of its tests are not run. */
static int part_hung(int first)
{
    int k = G.lab->timeouts_in_a_row > 0 ? G.lab->timeouts_in_a_row : PL_TIMEOUTS_IN_A_ROW;
    return G.timeouts_run[first] >= k;
}

/* The index of part's first test in G.tests. */
static int part_index(const pl_part *part)
{
    for (int i = 0; i < G.ntests; i++)
        if (G.tests[i].part == part)
            return i;
    return 0;
}

static void drop_unfit(const pl_lab *lab, const pl_reply *probe)
{
    for (int i = 0; i < G.ntests; i++)
        if (G.tests[i].limit && probe->gpu_ok &&
            !pl_lab_fits(lab, G.tests[i].part, G.tests[i].n, G.tests[i].param, probe, G.unfit[i], sizeof G.unfit[i]))
            G.tests[i].max = 0;
}

/* How to run a failing test alone under compute-sanitizer, as a detail
   line: the student's own build (build/labs/), the part, the size, the
   input parameter; the public seed (a hidden test's inputs stay secret, its
   size does not). The worker runs unsandboxed with the environment
   (PRIMLAB_WORKER_PROFILE=1), so that the sanitizer can follow it. */
static void reproduce_line(const pl_test *t, pl_result *r)
{
    char param[96] = "";
    if (t->part->params.n && t->part->params.labels)
        snprintf(param, sizeof param, " --param '%s'", t->part->params.labels[(int)t->param]);
    else if (t->part->params.n)
        snprintf(param, sizeof param, " --param %g", t->param);
    size_t dl = strlen(r->detail);
    snprintf(r->detail + dl, sizeof r->detail - dl,
             "  alone, under compute-sanitizer: make && PRIMLAB_WORKER_PROFILE=1 compute-sanitizer "
             "--target-processes all build/%s/lab%s check --part %s --n %ld%s --timeout 600\n",
             strcmp(pl_impl_variant, "solution") ? "labs" : "solutions", G.lab->id, t->part->id, t->n, param);
}

/* Rewrites a log of this run's rows (TAP or JUnit XML) whole, so that
   it holds every test done even when a time limit stops the run. */
static void write_log(const char *path, void (*writer)(FILE *, const pl_scores *, const char *))
{
    char tmp[4096 + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    writer(f, &G.rows, G.lab->id);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path, strerror(errno));
}

/* One test's outcome, recorded: the report, the scores row, the logs. */
static void record(const pl_test *t, const pl_score *row, int total_in_part)
{
    if (G.sum) {
        char group[24], title[112];
        snprintf(group, sizeof group, "%s.%s", G.lab->id, t->part->id);
        snprintf(title, sizeof title, "%s.%s %s", G.lab->id, t->part->id, t->part->title);
        size_t tl = strlen(title);
        const char *size = !strncmp(t->name, title, tl) && t->name[tl] == ',' ? t->name + tl + 2 : t->name;
        pl_sum_test st = {.group = group, .title = title, .name = t->name, .size = size, .status = row->status,
                          .perf = t->perf != NULL, .total_in_part = total_in_part,
                          .not_run = !strcmp(row->cause, PL_CAUSE_NOGPU), .seconds = row->seconds,
                          .points = row->points, .max = row->max, .reason = row->reason, .detail = row->detail};
        pl_summary_add(G.sum, &st);
    }
    if (G.scores && pl_score_write(G.scores, row) != 0)
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, G.o->scores, strerror(errno));
    pl_scores_add(&G.rows, row);
    /* The logs are rewritten whole, at most once a second (every test
       would make the run's cost grow with the square of its tests) and at
       the end: a run stopped by a time limit loses at most a second of
       them, and its scores file has every row. */
    static double logged;
    if ((G.o->tap || G.o->xml) && pl_now() - logged >= 1.0) {
        if (G.o->tap)
            write_log(G.o->tap, pl_write_tap);
        if (G.o->xml)
            write_log(G.o->xml, pl_write_junit);
        logged = pl_now();
    }
}

/* At the lab's first performance test that runs: the timings of every
   performance test from there on that will run (its part wrote output,
   the machine holds it), the submission's first, in the worker its
   correctness tests left, then the yardsticks', one after another in the
   yardstick's worker, the submission's stopped once before them. The
   tests then take theirs: no stop and start of the submission's worker
   for them (0.2-0.8 s a lab on an H100 host, with its first copies and
   pinning). The tests are in order: the correctness tests, then the
   performance tests, then the limit tests (rubric.c). */
static void timings_ahead(int from)
{
    static const pl_perf *list[MAX_TESTS];
    static const char *names[MAX_TESTS];
    int n = 0;
    for (int i = from; i < G.ntests; i++)
        if (G.tests[i].perf && !G.unfit[i][0] && !part_unwritten(part_index(G.tests[i].part)) &&
            !part_hung(part_index(G.tests[i].part)))
            names[n] = G.tests[i].name, list[n++] = G.tests[i].perf;
    pl_lab_perf_ahead(G.s, G.yard, G.lab, list, names, n, PERF_REPS, G.seed, G.o->timeout);
}

START_TEST(graded)
{
    const pl_test *t = &G.tests[_i];
    pl_result r;
    memset(&r, 0, sizeof r);
    int first = part_index(t->part);
    const char *cause = ""; /* PL_CAUSE_*: why the test did not run, when not the code's doing */
    if (G.unfit[_i][0]) { /* not the code's doing: out of the maximum */
        r.status = PL_SKIP;
        cause = PL_CAUSE_UNFIT;
        snprintf(r.reason, sizeof r.reason, "not run on this machine: %s", G.unfit[_i]);
    } else if (G.s && !G.probe->gpu_ok) {
        /* no GPU: no test runs here, and none is failed for what the others
           did not do (a limit test after a part that passed nothing) */
        r.status = PL_SKIP;
        pl_reason_no_gpu(r.reason, sizeof r.reason, G.probe->reason);
        cause = PL_CAUSE_NOGPU;
    } else if (part_hung(first)) {
        /* a submission whose every kernel hangs: a time limit for each of
           its tests would hold the GPU for the whole student's limit */
        r.status = PL_FAIL;
        snprintf(r.reason, sizeof r.reason, "not run: part (%s) timed out %d times in a row", t->part->id,
                 G.timeouts_run[first]);
    } else if (!t->perf && !t->limit && t->n == 0 && G.hung_zero[first]) {
        /* the same hang again under another input parameter: seconds for nothing */
        r.status = PL_FAIL;
        snprintf(r.reason, sizeof r.reason, "not run: part (%s) already timed out at n = 0", t->part->id);
        pl_bug_add(r.bugs, sizeof r.bugs, PL_BUG_HANG_EMPTY);
    } else if (t->limit && G.in_part[_i] > 1 && !G.passed_in_part[first]) {
        /* seconds of gigabytes for a part that passes nothing else (a stub):
           it could not pass this one either */
        r.status = PL_FAIL;
        snprintf(r.reason, sizeof r.reason, "not run: part (%s) passes none of its other tests yet", t->part->id);
    } else if ((t->perf || (!t->limit && t->n >= UNWRITTEN_SKIP_N)) && part_unwritten(first)) {
        /* seconds of large inputs for a part that writes nothing (a stub) */
        r.status = PL_FAIL;
        snprintf(r.reason, sizeof r.reason, "not run: part (%s) wrote no output in any of its %d tests before, "
                 "up to n = %ld", t->part->id, G.ran[first], G.unwritten_n[first]);
        snprintf(r.bugs, sizeof r.bugs, "%s", G.unwritten_bugs[first]);
    } else if (!G.s) {
        r.status = PL_ERROR;
        snprintf(r.reason, sizeof r.reason, "%s", G.open_error);
        cause = G.open_cause;
    } else {
        pl_session_label(G.s, t->name);
        if (t->perf && !G.timed_ahead) {
            G.timed_ahead = 1;
            timings_ahead(_i);
        }
        if (t->limit && G.timed_ahead && !G.limits_fresh) {
            /* as when every performance test stopped it: the limit tests
               start with a worker that holds nothing from the timed ones */
            G.limits_fresh = 1;
            pl_session_restart(G.s);
        }
        if (t->perf)
            pl_lab_perf(G.s, G.yard, G.lab, t->perf, PERF_REPS, G.seed, G.o->timeout, G.no_perf, &r);
        else if (t->limit)
            pl_lab_test_limit(G.s, G.lab, t->part, t->n, t->param, G.seed, LIMIT_TIMEOUT_X * G.o->timeout, &r);
        else if (t->n <= 1) {
            double limit = G.small_timeouts >= 2 ? SMALL_LIMIT_LATER_S : SMALL_LIMIT_S;
            pl_lab_test(G.s, G.lab, t->part, t->n, t->param, G.seed, G.o->timeout < limit ? G.o->timeout : limit, &r);
            if (r.status == PL_TIMEOUT) {
                G.small_timeouts++;
                G.hung_zero[first] |= t->n == 0;
            }
        } else
            pl_lab_test(G.s, G.lab, t->part, t->n, t->param, G.seed, G.o->timeout, &r);
        G.timeouts_run[first] = r.status == PL_TIMEOUT ? G.timeouts_run[first] + 1 : 0;
        if (!t->perf && r.status != PL_PASS && r.status != PL_SKIP)
            reproduce_line(t, &r);
        if (!t->perf && !t->limit && r.status != PL_SKIP) {
            G.ran[first]++;
            if (r.findings & PL_F_NOT_IMPLEMENTED) {
                G.unwritten[first]++;
                if (t->n > G.unwritten_n[first])
                    G.unwritten_n[first] = t->n;
                snprintf(G.unwritten_bugs[first], sizeof G.unwritten_bugs[first], "%s", r.bugs);
            }
        }
    }
    if (!t->perf && !t->limit && r.status != PL_PASS && r.status != PL_SKIP) {
        if (t->n == 0) {
            G.failed_zero[first]++;
        } else if (t->n % 2 == 0 && (t->n & (t->n - 1)) != 0) {
            if (G.failed_even[first] < 2)
                G.even_n[first][G.failed_even[first]] = t->n;
            G.failed_even[first]++;
        } else {
            G.failed_other[first]++;
        }
    }
    double pts = r.status != PL_PASS ? 0 : t->perf ? r.score : t->max;
    if (!t->perf && !t->limit && r.status == PL_PASS)
        G.passed_in_part[first]++;
    G.got += pts;
    G.max += t->max;
    pl_score row = {.name = (char *)t->name, .reason = r.reason, .detail = r.detail, .hidden = t->hidden,
                    .points = pts, .max = t->max, .seconds = r.seconds};
    snprintf(row.lab, sizeof row.lab, "%s", G.lab->id);
    snprintf(row.kind, sizeof row.kind, "%s", t->perf ? "performance" : "correctness");
    snprintf(row.status, sizeof row.status, "%s", pl_status_name(r.status));
    snprintf(row.cause, sizeof row.cause, "%s", cause);
    if (t->perf && r.status == PL_PASS) {
        snprintf(row.value, sizeof row.value, "%.4f", r.value);
        snprintf(row.ratio, sizeof row.ratio, "%.4f", r.ratio);
    }
    if (t->perf)
        snprintf(row.target, sizeof row.target, "%g", t->perf->full);
    snprintf(row.bugs, sizeof row.bugs, "%s", r.bugs);
    record(t, &row, G.in_part[_i]);
    ck_assert_msg(pts >= t->max - 1e-9, "%s: %s", pl_status_name(r.status), r.reason);
}
END_TEST

/* Parts that fail only for an empty input, or only at even sizes that are
   not powers of two, named once for the lab rather than in every part's
   report. The second is how a power-of-two test written n & (n - 1) != 0
   shows: C reads it n & ((n - 1) != 0), that is n & 1, so an even n passes
   for a power of two and goes unpadded. */
static void size_class_notes(const pl_lab *lab)
{
    char zero[256] = "", even[256] = "", sizes[64] = "";
    int kz = 0, ke = 0, hung = 0;
    for (int i = 0; i < G.ntests; i++) {
        if (part_index(G.tests[i].part) != i || G.failed_other[i])
            continue;
        const char *id = G.tests[i].part->id;
        if (G.failed_zero[i] && !G.failed_even[i]) {
            size_t l = strlen(zero);
            snprintf(zero + l, sizeof zero - l, "%s%s", kz++ ? ", " : "", id);
            hung |= G.hung_zero[i];
        } else if (G.failed_even[i] && !G.failed_zero[i] && G.passed_in_part[i]) {
            size_t l = strlen(even);
            snprintf(even + l, sizeof even - l, "%s%s", ke++ ? ", " : "", id);
            if (!sizes[0] && G.failed_even[i] > 1)
                snprintf(sizes, sizeof sizes, "n = %ld, %ld", G.even_n[i][0], G.even_n[i][1]);
            else if (!sizes[0])
                snprintf(sizes, sizeof sizes, "n = %ld", G.even_n[i][0]);
        }
    }
    if (kz)
        printf("lab%s: part%s %s fail%s only for an empty input, n = 0: %s\n", lab->id, kz > 1 ? "s" : "", zero,
               kz > 1 ? "" : "s",
               hung ? "a loop or log2(n) that never ends when n is 0?"
                    : "a launch of zero blocks, or an n - 1 that wraps around?");
    if (ke)
        printf("lab%s: part%s %s fail%s only at even sizes that are not powers of two (%s): a power-of-two test "
               "written n & (n - 1) != 0, which C reads as n & ((n - 1) != 0), so an even n goes unpadded?\n",
               lab->id, ke > 1 ? "s" : "", even, ke > 1 ? "" : "s", sizes);
}

static int cmd_check(const pl_lab *lab, const opts *o)
{
    memset(&G, 0, sizeof G);
    G.lab = lab;
    G.o = o;
    G.seed = o->seed;
    /* A secret seed changes every input and adds hidden sizes. */
    int hidden = 0;
    if (secret_seed[0] && !o->seed_given) {
        char *end;
        G.seed = strtoull(secret_seed, &end, 0);
        if (*end) {
            fprintf(stderr, "%s: PRIMLAB_SEED must be a number\n", prog);
            return 2;
        }
        hidden = 1;
    }
    /* The tests and the maximum, fixed before any student code runs. */
    const pl_part *only = find_part(lab, o->part);
    G.ntests = pl_lab_tests(lab, only, o->sizes, o->nsizes, hidden, G.seed, G.tests, MAX_TESTS);
    if (o->nparams) { /* --param: only the tests of those inputs */
        int kept = 0;
        for (int i = 0; i < G.ntests; i++) {
            int keep = !G.tests[i].part->params.n;
            for (int q = 0; q < o->nparams; q++)
                keep |= G.tests[i].param == o->params[q];
            if (keep)
                G.tests[kept++] = G.tests[i];
        }
        G.ntests = kept;
    }
    for (int i = 0; i < G.ntests; i++)
        for (int j = 0; j < G.ntests; j++)
            G.in_part[i] += !G.tests[j].perf && G.tests[j].part == G.tests[i].part;
    if (o->scores && !(G.scores = pl_scores_open(o->scores))) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->scores, strerror(errno));
        return 2;
    }
    /* The device as a worker without student code sees it (a submission's
       own worker could claim anything), then the submission's worker. */
    static char why[256];
    double t_open = pl_now();
    G.yard = open_yardstick(o);
    double t_yard = pl_now();
    /* Limit tests the machine cannot hold leave the maximum, decided from
       the yardstick's worker (no student code) before any student code
       runs; without one (not grading), from the tested worker below. */
    if (G.yard)
        drop_unfit(lab, pl_session_hello(G.yard));
    const char *req = getenv("PRIMLAB_REQUIRE_SANDBOX");
    int grading = req && *req && strcmp(req, "0") != 0;
    G.open_cause = "";
    if (!G.yard && grading) { /* never take a submission's word for the device */
        snprintf(why, sizeof why, "the yardstick's worker (build/vendor/lab%s-worker) did not start", lab->id);
        G.open_cause = PL_CAUSE_NOWORKER;
    } else
        G.s = open_session(o, o->timeout, why, sizeof why); /* its start is bounded like a test */
    double t_sess = pl_now();
    if (G.s && !parts_match(lab, pl_session_hello(G.s), why, sizeof why)) {
        pl_session_close(G.s);
        G.s = NULL;
    }
    G.open_error = why;
    G.probe = G.yard ? pl_session_hello(G.yard) : G.s ? pl_session_hello(G.s) : NULL;
    if (!G.yard && G.probe)
        drop_unfit(lab, G.probe);
    /* Status 3 when grading and the grading machine failed, not the code:
       the yardstick's worker (no student code, so a submission cannot fake
       this) did not start, or found no GPU though PRIMLAB_NO_GPU did not ask
       for a run without one. harness/check.sh then records no score. */
    int machine_fault = grading && (!G.yard || (!G.probe->gpu_ok && !no_gpu_env()));
    G.no_perf = G.s ? vendor_use(worker_of(o)) : NULL;
    if (!G.s)
        printf("lab%s %s: %s: every test scores 0\n", lab->id, lab->name, why);
    else if (G.probe->gpu_ok)
        printf("lab%s %s: %s on %s, %s seed%s%s%s\n", lab->id, lab->name, pl_impl_variant, G.probe->device,
               hidden ? "secret" : "public", hidden ? ", hidden tests added" : "",
               o->nsizes || pl_limits_on(hidden) ? "" : ", no limit tests (PRIMLAB_LIMITS=1 adds them)",
               pl_session_sandboxed(G.s) ? "" : ", no sandbox");
    else
        printf("lab%s %s: no GPU (%s): no test can run here, no score\n", lab->id, lab->name, G.probe->reason);
    const char *v = getenv("V");
    G.sum = pl_summary_new(stdout, v && !strcmp(v, "1"));

    Suite *suite = suite_create(lab->name);
    for (int i = 0; i < G.ntests; i++) {
        TCase *tc = tcase_create(G.tests[i].name);
        tcase_add_loop_test(tc, graded, i, i + 1);
        suite_add_tcase(suite, tc);
    }
    SRunner *sr = srunner_create(suite);
    srunner_set_fork_status(sr, CK_NOFORK); /* student code runs in the worker, never here */
    double t_tests = pl_now();
    srunner_run_all(sr, CK_SILENT);
    srunner_free(sr);
    t_tests = pl_now() - t_tests;
    if (o->tap) /* every row, however the last rewrite fell */
        write_log(o->tap, pl_write_tap);
    if (o->xml)
        write_log(o->xml, pl_write_junit);
    pl_scores_free(&G.rows);
    pl_summary_free(G.sum);
    size_class_notes(lab);
    size_t printed = G.s ? pl_session_printed(G.s) : 0;
    double t_close = pl_now();
    pl_session_close(G.s); /* the workers and all they started are gone before the totals */
    pl_session_close(G.yard);
    if (getenv("PRIMLAB_PHASES")) /* what the lab costs beside its tests (lab_run.c prints the tests') */
        fprintf(stderr, "phases lab%s: yardstick's worker %.3f s, the code's worker %.3f s, tests %.3f s, close %.3f s\n",
                lab->id, t_yard - t_open, t_sess - t_yard, t_tests, pl_now() - t_close);
    if (printed)
        printf("lab%s: the code printed %zu bytes: see %s\n", lab->id, printed, log_path);
    if (G.s && !G.probe->gpu_ok)
        print_no_subtotal(lab);
    else
        printf("lab%s subtotal: %s/%s\n", lab->id, pl_points_str(G.got, 0), pl_points_str(G.max, 1));
    if (G.scores)
        fclose(G.scores);
    else
        printf("Score: %s/%s\n", pl_points_str(G.got, 0), pl_points_str(G.max, 1));
    if (machine_fault)
        return 3;
    return G.got >= G.max - 1e-9 ? 0 : 1;
}

/* ---------------------------------------------------------------- bench */

static int cmd_bench(const pl_lab *lab, const opts *o, int sweep)
{
    char why[256];
    pl_session *s = open_session(o, o->timeout, why, sizeof why); /* bounded like a test */
    int gpu = s && pl_session_hello(s)->gpu_ok;
    if (s && !parts_match(lab, pl_session_hello(s), why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", prog, why);
        pl_session_close(s);
        return 2;
    }
    if (!gpu)
        printf("no GPU (%s): CPU rows only\n", s ? pl_session_hello(s)->reason : why);

    /* Sweeps replace reference data: write a temporary file, rename at the end. */
    char tmp[4096] = "";
    FILE *tsv = NULL;
    if (o->out && !(tsv = pl_out_begin(o->out, tmp, sizeof tmp, prog))) {
        pl_session_close(s);
        return 2;
    }
    pl_bench_opts bo = {find_part(lab, o->part), o->nsizes ? o->sizes : NULL, o->nsizes, o->nparams ? o->params : NULL,
                        o->nparams, sweep, o->reps, gpu, tsv, sweep ? NULL : stdout, sweep ? stderr : NULL,
                        gpu ? "measured" : "cpu-only"};
    int wrong = pl_lab_bench(s, lab, &bo);
    pl_session_close(s);
    if (tsv && pl_out_end(tsv, tmp, o->out, prog) != 0)
        return 2;
    return wrong ? 1 : 0;
}

static int cmd_info(const opts *o)
{
    char why[256];
    pl_session *s = open_session(o, o->timeout, why, sizeof why); /* bounded like a test */
    const pl_reply *d = s ? pl_session_hello(s) : NULL;
    if (!d || !d->gpu_ok) {
        printf("no GPU: %s\n", d ? d->reason : why);
        pl_session_close(s);
        return 1;
    }
    printf("device: %s\ncompute capability: %d.%d\nmultiprocessors: %d\nL2: %.0f MiB\n"
           "memory: %.1f GiB (%.1f GiB free)\nsandbox: %s\n",
           d->device, d->cc_major, d->cc_minor, d->sms, d->l2_bytes / 1048576.0, d->mem_bytes / 1073741824.0,
           d->free_bytes / 1073741824.0, pl_session_sandboxed(s) ? "bubblewrap" : "none");
    if (d->vendor[0])
        printf("yardstick: %s\n", d->vendor);
    pl_session_close(s);
    return 0;
}

/* The graded tests and their points; the last line is the total. */
static int cmd_list(const pl_lab *lab, const opts *o)
{
    static pl_test tests[MAX_TESTS];
    int hidden = secret_seed[0] != '\0';
    uint64_t seed = hidden ? strtoull(secret_seed, NULL, 0) : o->seed;
    int n = pl_lab_tests(lab, find_part(lab, o->part), o->sizes, o->nsizes, hidden, seed, tests, MAX_TESTS);
    double total = 0;
    printf("lab%s %s: %s\n", lab->id, lab->name, lab->title);
    for (int i = 0; i < n; i++) {
        printf("  %-60s %g\n", tests[i].name, tests[i].max);
        const pl_perf *f = tests[i].perf;
        if (f && f->yardstick == PL_YARD_ROOF) /* how it scores, indented: not a test line */
            printf("    scored by the fraction of its algorithm's roof: full marks from %.3g%%, none at %.3g%% "
                   "(lab%s roofs, docs/roofs.md)\n", 100 * f->full, 100 * f->zero, lab->id);
        total += tests[i].max;
    }
    printf("total: %g points\n", total);
    return 0;
}

/* Whether (part, n, param) is one of the lab's performance tests. */
static int graded_perf(const pl_lab *lab, const pl_part *p, long n, double param)
{
    for (int i = 0; i < lab->nperf; i++) {
        const pl_perf *f = &lab->perf[i];
        if (!strcmp(f->part, p->id) && f->n == n && (!p->params.n || f->param == param))
            return 1;
    }
    return 0;
}

/* roofs' rows of part p at (n, param): its algorithm's, then its vendor's;
   bytes nan and formula "-" where it states none. */
static void roof_rows(const pl_lab *lab, const pl_part *p, long n, double param)
{
    char ptext[64] = "nan";
    int nlabels = p->params.nlabels ? p->params.nlabels : p->params.n;
    if (p->params.labels && !isnan(param) && param >= 0 && (int)param < nlabels)
        snprintf(ptext, sizeof ptext, "%s", p->params.labels[(int)param]);
    else if (!isnan(param))
        snprintf(ptext, sizeof ptext, "%g", param);
    for (int v = 0; v < 1 + p->vendor; v++) {
        const pl_alg *a = v ? &p->vendor_alg : &p->alg;
        double b = a->bytes ? a->bytes(n, param) : NAN;
        printf("%s\t%s\t%ld\t%s\t%d\t%.0f\t%.6g\t%s\n", p->id, !v ? "taught" : p->vendor_name ? p->vendor_name : "cub",
               n, ptext, graded_perf(lab, p, n, param), b, n > 0 ? b / (double)n : NAN, a->text ? a->text : "-");
    }
}

/* `roofs --in FILE`: FILE's rows, written before the columns alg_bytes and
   pct_alg, with them (alg_rows.h: from each row's own time and its part's
   formula; nothing measured), to --out (which may be FILE: it is read
   whole first, and the new file replaces it at the end) or stdout. */
static int roofs_derive(const pl_lab *lab, const opts *o)
{
    if (o->part || o->nsizes || o->nparams)
        die_usage("roofs --in takes no --part, --n or --param%s", "");
    size_t len;
    char *text = pl_read_file(o->in, &len, prog);
    if (!text)
        return 2;
    char by[64], date[32], err[512], tmp[4096];
    snprintf(by, sizeof by, "%s roofs --in", prog);
    pl_utc_date(date, sizeof date);
    FILE *out = o->out ? pl_out_begin(o->out, tmp, sizeof tmp, prog) : stdout;
    int rc = out && pl_alg_derive(lab, text, len, by, date, out, err, sizeof err) == 0 ? 0 : 2;
    free(text);
    if (out && rc)
        fprintf(stderr, "%s: '%s': %s\n", prog, o->in, err);
    if (out && o->out && rc) { /* no half-written file left */
        fclose(out);
        remove(tmp);
    } else if (out && o->out) {
        rc = pl_out_end(out, tmp, o->out, prog);
    }
    return rc;
}

/* Each part's algorithm's roof and its vendor's (roofs.h), as TSV: the
   bytes, per unit of size, and the formula; perf says whether a
   performance test times that problem. Without --n and --param, the
   problems the performance tests time, each test's part whether it states
   a roof or not; with them, every part that states one (or --part) at
   those sizes and parameters (the part's benchmark ones for what is not
   given). No GPU: the rows of `run` divide these bytes by the copy
   bandwidth and the time. */
static int cmd_roofs(const pl_lab *lab, const opts *o)
{
    if (o->in)
        return roofs_derive(lab, o);
    const pl_part *only = find_part(lab, o->part);
    printf("part\twho\tn\tparam\tperf\tbytes\tbytes_per_n\tformula\n");
    if (!o->nsizes && !o->nparams) {
        for (int i = 0; i < lab->nperf; i++) {
            const pl_part *p = pl_find_part(lab, lab->perf[i].part);
            if (p && (!only || p == only))
                roof_rows(lab, p, lab->perf[i].n, p->params.n ? lab->perf[i].param : NAN);
        }
        return 0;
    }
    for (int k = 0; k < lab->nparts; k++) {
        const pl_part *p = lab->parts[k];
        if ((only && p != only) || (!only && !p->alg.bytes && !p->vendor_alg.bytes))
            continue;
        int ns = o->nsizes;
        const long *sizes = ns ? o->sizes : pl_part_bench_sizes(lab, p, &ns);
        int np = p->params.n && o->nparams ? o->nparams : 1;
        for (int si = 0; si < ns; si++)
            for (int q = 0; q < np; q++)
                roof_rows(lab, p, sizes[si], !p->params.n ? NAN : o->nparams ? o->params[q] : p->params.bench);
    }
    return 0;
}

/* The lab's one row when it was not graded (its file missing, or not
   compiling): 0 of every point its tests would give, with the seed's hidden
   tests as `check` would count them; and its subtotal line. */
static int fill_not_graded(const pl_lab *lab, const opts *o, const pl_test *tests, int n)
{
    if (strcmp(o->not_graded, PL_CAUSE_MISSING) && strcmp(o->not_graded, PL_CAUSE_NOBUILD))
        die_usage("bad --not-graded '%s' (want MISSING or NOBUILD)", o->not_graded);
    double max = 0;
    for (int i = 0; i < n; i++)
        max += tests[i].max;
    pl_score row;
    char name[64], folder[48];
    snprintf(folder, sizeof folder, "%s-%s", lab->id, lab->name);
    pl_score_not_graded(&row, lab->id, o->not_graded, max, name, sizeof name, folder, o->reason);
    FILE *f = pl_scores_open(o->scores);
    if (!f || pl_score_write(f, &row) != 0 || fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->scores, strerror(errno));
        return 2;
    }
    if (no_gpu_env())
        print_no_subtotal(lab);
    else
        printf("lab%s subtotal: 0/%s\n", lab->id, pl_points_str(row.max, 1));
    return 0;
}

/* After a run that was stopped (a time limit killed it), the tests it did not
   reach still count in the maximum: a row for each test of the list that the
   scores file lacks. Nothing for a lab recorded as missing or not compiling,
   whose one row already carries its points. */
static int cmd_fill(const pl_lab *lab, const opts *o)
{
    static pl_test tests[MAX_TESTS];
    if (!o->scores) {
        fprintf(stderr, "%s: fill needs --scores FILE\n", prog);
        return 2;
    }
    int hidden = secret_seed[0] != '\0';
    uint64_t seed = hidden ? strtoull(secret_seed, NULL, 0) : o->seed;
    int n = pl_lab_tests(lab, NULL, NULL, 0, hidden, seed, tests, MAX_TESTS);
    if (o->not_graded)
        return fill_not_graded(lab, o, tests, n);
    pl_scores have = {0};
    if (pl_scores_read(&have, o->scores) != 0 && errno != ENOENT) {
        fprintf(stderr, "%s: cannot read '%s': %s\n", prog, o->scores, strerror(errno));
        return 2;
    }
    if (pl_scores_find_cause(&have, lab->id, PL_CAUSE_MISSING) || pl_scores_find_cause(&have, lab->id, PL_CAUSE_NOBUILD)) {
        pl_scores_free(&have);
        return 0;
    }
    FILE *f = pl_scores_open(o->scores);
    if (!f) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->scores, strerror(errno));
        pl_scores_free(&have);
        return 2;
    }
    int added = 0;
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < have.n && !found; k++)
            found = !strcmp(have.rows[k].lab, lab->id) && !strcmp(have.rows[k].name, tests[i].name);
        if (found)
            continue;
        pl_score row;
        pl_score_not_run(&row, lab->id, tests[i].name, tests[i].perf != NULL, tests[i].hidden, tests[i].max);
        pl_score_write(f, &row);
        added++;
    }
    fclose(f);
    pl_scores_free(&have);
    if (added)
        printf("lab%s: %d tests not run, each scores 0\n", lab->id, added);
    return 0;
}

int main(int argc, char **argv)
{
    /* Before anything else: the secret leaves the environment, so nothing
       started from here can inherit it. */
    const char *secret = getenv("PRIMLAB_SEED");
    if (secret) {
        snprintf(secret_seed, sizeof secret_seed, "%s", secret);
        unsetenv("PRIMLAB_SEED");
    }
    pl_omp_team_fit(); /* the CPU references' team: no more threads than CPUs to run them */
    const pl_lab *lab = pl_this_lab();
    static char name[16];
    snprintf(name, sizeof name, "lab%s", lab->id);
    prog = name;
    opts o;
    parse(argc, argv, &o);
    const pl_lab_cmd *own = own_command(lab, o.cmd);
    if (o.matrix && !(own && own->matrix)) { /* run's input is the file: its rows the size, its case the parameter */
        char err[512];
        long rows;
        double param;
        if (strcmp(o.cmd, "run") != 0 || !lab->load_matrix) {
            int len = snprintf(err, sizeof err, "%s", lab->load_matrix ? "run" : "");
            for (int k = 0; k < lab->ncommands; k++)
                if (lab->commands[k].matrix && len < (int)sizeof err)
                    len += snprintf(err + len, sizeof err - (size_t)len, "%s%s", len ? " and " : "",
                                    lab->commands[k].name);
            if (!len)
                die_usage("--matrix '%s': no command of this lab reads a Matrix Market file", o.matrix);
            fprintf(stderr, "%s: --matrix '%s' is for %s (try '%s --help')\n", prog, o.matrix, err, prog);
            exit(2);
        }
        if (lab->load_matrix(o.matrix, &rows, &param, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", prog, err);
            return 2;
        }
        o.sizes[0] = rows, o.nsizes = 1;
        o.params[0] = param, o.nparams = 1;
    }
    if (!strcmp(o.cmd, "check"))
        return cmd_check(lab, &o);
    if (!strcmp(o.cmd, "run"))
        return cmd_bench(lab, &o, 0);
    if (!strcmp(o.cmd, "sweep"))
        return cmd_bench(lab, &o, 1);
    if (!strcmp(o.cmd, "info"))
        return cmd_info(&o);
    if (!strcmp(o.cmd, "list"))
        return cmd_list(lab, &o);
    if (!strcmp(o.cmd, "roofs"))
        return cmd_roofs(lab, &o);
    if (!strcmp(o.cmd, "fill"))
        return cmd_fill(lab, &o);
    if (!strcmp(o.cmd, "commands"))
        return cmd_commands(lab);
    if (own) {
        pl_cmd_opts co = {.out = o.out, .worker = worker_of(&o), .sizes = o.sizes, .nsizes = o.nsizes,
                          .reps = o.reps_given ? o.reps : 0, .matrix = o.matrix};
        return own->run(&co);
    }
    die_usage("unknown command '%s'", o.cmd);
    return 2;
}
