/* harness/driver.c: main() of every lab binary, build/<impl>/labNN.
 *
 *   labNN check [--part X] [--n LIST] [--seed S]   correctness tests, scored
 *   labNN run   [--part X] [--n LIST] [--reps R]   benchmark table (+ --out TSV)
 *   labNN sweep [--part X] [--out FILE]            n = 2^lo..2^hi, TSV for plots
 *   labNN info | list                              the GPU | the parts and tests
 *
 * The parent never touches CUDA: `check` runs each test in its own child,
 * and `run`/`sweep` probe the device in a child before using it here.
 */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"
#include "lab.h"
#include "proc.h"
#include "report.h"
#include "results.h"
#include "rubric.h"

#include <check.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PL_IMPL_VARIANT
#define PL_IMPL_VARIANT "student"
#endif
const char *const pl_impl_variant = PL_IMPL_VARIANT;

#define MAX_SIZES 64

typedef struct opts {
    const char *cmd, *part, *out, *scores, *tap, *xml;
    int seed_given;
    long sizes[MAX_SIZES];
    int nsizes, reps;
    double params[MAX_SIZES];
    int nparams;
    unsigned long long seed;
    double timeout;
} opts;

static const char *prog = "lab";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s <command> [options]\n"
            "commands:\n"
            "  check   correctness tests, each in its own process; prints OK/FAIL, reasons, the score\n"
            "  run     benchmark every variant: time, GB/s, %% of copy bandwidth, ratios to CPU and CUB\n"
            "  sweep   benchmark n = 2^lo..2^hi and write TSV rows for the plots\n"
            "  info    describe the GPU\n"
            "  list    list the parts, test sizes and points\n"
            "options:\n"
            "  --part X      only part X (a, b, ...)\n"
            "  --n LIST      sizes, comma-separated: 1000, 2^20, 4M (= 4 * 2^20)\n"
            "  --seed S      input seed (default 1)\n"
            "  --param LIST  the parts' input parameter (lab 04: keep fractions, e.g. 0,0.5,1;\n"
            "                lab 05: key distributions by name, e.g. random,few); check: only those\n"
            "  --reps R      timed repetitions, median reported (default 20)\n"
            "  --out FILE    write TSV rows to FILE (run, sweep)\n"
            "  --timeout S   per-test time limit in seconds (default PRIMLAB_TIMEOUT or 60)\n"
            "  --scores FILE append per-test scores as TSV (used by make check)\n"
            "  --tap FILE, --xml FILE   Check's TAP and XML logs of `check`\n"
            "environment: PRIMLAB_SEED=S grades with a secret seed and adds hidden sizes;\n"
            "  PRIMLAB_TIMEOUT=S is the default --timeout\n",
            prog);
}

/* A named parameter (lab 05's "few") as its number, or -1. */
static double param_by_label(const char *name)
{
    const pl_lab *lab = pl_this_lab();
    for (int k = 0; k < lab->nparts; k++)
        for (int q = 0; lab->parts[k].param_labels && q < lab->parts[k].nparams; q++)
            if (!strcmp(lab->parts[k].param_labels[q], name))
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
        else if (!strcmp(a, "--scores"))
            o->scores = v;
        else if (!strcmp(a, "--tap"))
            o->tap = v;
        else if (!strcmp(a, "--xml"))
            o->xml = v;
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
        fprintf(stderr, " %s", lab->parts[k].id);
    fprintf(stderr, ")\n");
    exit(2);
}

/* ---------------------------------------------------------------- check */

/* Grading runs under Check's runner in no-fork mode: each graded test is a
 * Check test that forks its own isolated child (pl_run_isolated), so this
 * process never touches CUDA, and Check writes the TAP and XML logs. */

#define MAX_TESTS 512

static struct grading {
    const pl_lab *lab;
    const opts *o;
    int gpu;
    uint64_t seed;
    pl_test tests[MAX_TESTS];
    int ntests;
    double got, max;
    FILE *scores;
} G;

typedef struct test_arg {
    const pl_lab *lab;
    const pl_test *t;
    uint64_t seed;
} test_arg;

static void test_child(void *p, pl_result *r)
{
    test_arg *a = p;
    if (a->t->perf)
        pl_lab_perf(a->lab, a->t->perf, 10, r);
    else
        pl_lab_test(a->lab, a->t->part, a->t->n, a->t->param, a->seed, r);
}

static void print_indented(const char *text, const char *indent)
{
    for (const char *s = text; s && *s;) {
        const char *nl = strchr(s, '\n');
        int len = nl ? (int)(nl - s) : (int)strlen(s);
        printf("%s%.*s\n", indent, len, s);
        s = nl ? nl + 1 : s + len;
    }
}

START_TEST(graded)
{
    const pl_test *t = &G.tests[_i];
    pl_result r = {.status = PL_SKIP, .reason = "no GPU"};
    test_arg a = {G.lab, t, G.seed};
    if (G.gpu)
        pl_run_isolated(test_child, &a, G.o->timeout, &r);
    double pts = r.status != PL_PASS ? 0 : t->perf ? r.score : t->max;
    G.got += pts;
    G.max += t->max;
    if (G.gpu) {
        printf("%-60s %-7s %6.2fs  %s/%s\n", t->name, pl_status_name(r.status), r.seconds,
               pl_points_str(pts, 0), pl_points_str(t->max, 1));
        if (r.status != PL_PASS || t->perf) {
            print_indented(r.reason, "    ");
            print_indented(r.detail, "    ");
        }
        fflush(stdout);
    }
    if (G.scores) {
        char reason[2 * sizeof r.reason], detail[2 * sizeof r.detail];
        pl_tsv_escape(r.reason, reason, sizeof reason);
        pl_tsv_escape(r.detail, detail, sizeof detail);
        char value[32] = "";
        if (t->perf && r.status == PL_PASS)
            snprintf(value, sizeof value, "%.4f", r.value);
        /* lab name kind hidden status points max seconds value reason detail */
        fprintf(G.scores, "%s\t%s\t%s\t%d\t%s\t%.4f\t%g\t%.3f\t%s\t%s\t%s\n", G.lab->id, t->name,
                t->perf ? "performance" : "correctness", t->hidden, pl_status_name(r.status), pts, t->max,
                r.seconds, value, reason, detail);
        fflush(G.scores);
    }
    ck_assert_msg(pts >= t->max - 1e-9, "%s: %s", pl_status_name(r.status), r.reason);
}
END_TEST

static int cmd_check(const pl_lab *lab, const opts *o)
{
    pl_devinfo dev;
    memset(&G, 0, sizeof G);
    G.lab = lab;
    G.o = o;
    G.gpu = pl_probe_device(&dev);
    G.seed = o->seed;
    /* A secret seed changes every input and adds hidden sizes. */
    const char *secret = getenv("PRIMLAB_SEED");
    int hidden = 0;
    if (secret && *secret && !o->seed_given) {
        char *end;
        G.seed = strtoull(secret, &end, 0);
        if (*end) {
            fprintf(stderr, "%s: PRIMLAB_SEED must be a number, not '%s'\n", prog, secret);
            return 2;
        }
        hidden = 1;
    }
    const pl_part *only = find_part(lab, o->part);
    G.ntests = pl_lab_tests(lab, only, o->sizes, o->nsizes, hidden, G.seed, G.tests, MAX_TESTS);
    if (o->nparams) { /* --param: only the tests of those inputs */
        int kept = 0;
        for (int i = 0; i < G.ntests; i++) {
            int keep = !G.tests[i].part->nparams;
            for (int q = 0; q < o->nparams; q++)
                keep |= G.tests[i].param == o->params[q];
            if (keep)
                G.tests[kept++] = G.tests[i];
        }
        G.ntests = kept;
    }
    if (o->scores && !(G.scores = fopen(o->scores, "a"))) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->scores, strerror(errno));
        return 2;
    }
    if (G.gpu)
        printf("lab%s %s: %s on %s, %s seed%s\n", lab->id, lab->name, pl_impl_variant, dev.name,
               hidden ? "secret" : "public", hidden ? ", hidden tests added" : "");
    else
        printf("lab%s %s: no GPU (%s): no test can run here, each scores 0\n", lab->id, lab->name, dev.error);

    Suite *suite = suite_create(lab->name);
    for (int i = 0; i < G.ntests; i++) {
        TCase *tc = tcase_create(G.tests[i].name);
        tcase_add_loop_test(tc, graded, i, i + 1);
        suite_add_tcase(suite, tc);
    }
    SRunner *sr = srunner_create(suite);
    srunner_set_fork_status(sr, CK_NOFORK); /* the tests isolate themselves */
    if (o->tap)
        srunner_set_tap(sr, o->tap);
    if (o->xml)
        srunner_set_xml(sr, o->xml);
    srunner_run_all(sr, CK_SILENT);
    srunner_free(sr);

    printf("lab%s subtotal: %s/%s\n", lab->id, pl_points_str(G.got, 0), pl_points_str(G.max, 1));
    if (G.scores)
        fclose(G.scores);
    else
        printf("Score: %s/%s\n", pl_points_str(G.got, 0), pl_points_str(G.max, 1));
    return G.got >= G.max - 1e-9 ? 0 : 1;
}

/* ---------------------------------------------------------------- bench */

static int cmd_bench(const pl_lab *lab, const opts *o, int sweep)
{
    pl_devinfo dev;
    int gpu = pl_probe_device(&dev);
    if (!gpu)
        printf("no GPU (%s): CPU rows only\n", dev.error);

    /* Sweeps replace reference data: write a temporary file, rename at the end. */
    char tmp[4096] = "";
    FILE *tsv = NULL;
    if (o->out && !(tsv = pl_out_begin(o->out, tmp, sizeof tmp, prog)))
        return 2;
    pl_bench_opts bo = {find_part(lab, o->part), o->nsizes ? o->sizes : NULL, o->nsizes, o->nparams ? o->params : NULL,
                        o->nparams, sweep, o->reps, gpu, tsv, sweep ? NULL : stdout, sweep ? stderr : NULL,
                        gpu ? "measured" : "cpu-only"};
    int wrong = pl_lab_bench(lab, &bo);
    if (tsv && pl_out_end(tsv, tmp, o->out, prog) != 0)
        return 2;
    return wrong ? 1 : 0;
}

static int cmd_info(void)
{
    pl_devinfo d;
    if (!pl_probe_device(&d)) {
        printf("no GPU: %s\n", d.error);
        return 1;
    }
    printf("device: %s\ncompute capability: %d.%d\nmultiprocessors: %d\nL2: %.0f MiB\n"
           "memory: %.1f GiB (%.1f GiB free)\n",
           d.name, d.cc_major, d.cc_minor, d.sms, d.l2_bytes / 1048576.0, d.mem_bytes / 1073741824.0,
           d.free_bytes / 1073741824.0);
    return 0;
}

/* The graded tests and their points; the last line is the total. */
static int cmd_list(const pl_lab *lab, const opts *o)
{
    static pl_test tests[MAX_TESTS];
    const char *secret = getenv("PRIMLAB_SEED");
    int hidden = secret && *secret;
    uint64_t seed = hidden ? strtoull(secret, NULL, 0) : o->seed;
    int n = pl_lab_tests(lab, find_part(lab, o->part), o->sizes, o->nsizes, hidden, seed, tests, MAX_TESTS);
    double total = 0;
    printf("lab%s %s: %s\n", lab->id, lab->name, lab->title);
    for (int i = 0; i < n; i++) {
        printf("  %-60s %g\n", tests[i].name, tests[i].max);
        total += tests[i].max;
    }
    printf("total: %g points\n", total);
    return 0;
}

int main(int argc, char **argv)
{
    const pl_lab *lab = pl_this_lab();
    static char name[16];
    snprintf(name, sizeof name, "lab%s", lab->id);
    prog = name;
    opts o;
    parse(argc, argv, &o);
    if (!strcmp(o.cmd, "check"))
        return cmd_check(lab, &o);
    if (!strcmp(o.cmd, "run"))
        return cmd_bench(lab, &o, 0);
    if (!strcmp(o.cmd, "sweep"))
        return cmd_bench(lab, &o, 1);
    if (!strcmp(o.cmd, "info"))
        return cmd_info();
    if (!strcmp(o.cmd, "list"))
        return cmd_list(lab, &o);
    if (lab->command) {
        int rc = lab->command(o.cmd, o.out);
        if (rc >= 0)
            return rc;
    }
    die_usage("unknown command '%s'", o.cmd);
    return 2;
}
