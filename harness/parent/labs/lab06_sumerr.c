/* harness/parent/labs/lab06_sumerr.c: lab 06's `sumerr` command, the
 * summation-error experiment of part (e) (see lab06_sumerr.h). */
#include "lab06_sumerr.h"

#include "../../../kernels_ref/cpu/reduce.h"
#include "../report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const prog = "lab06 sumerr";

#define COLUMNS                                                                                            \
    "n\tseed\tblock\texact\terr_serial\terr_pairwise\terr_tree\tbound_serial\tbound_pairwise\tbound_tree\t" \
    "walk_serial\twalk_tree\tserial\tpairwise\ttree"

/* The CPU's name from /proc/cpuinfo, for the metadata only: the rows are
   the same on every IEEE machine. */
static void cpu_name(char *buf, size_t cap)
{
    snprintf(buf, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon)
            continue;
        colon += 1 + (colon[1] == ' ');
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, cap, "%s", colon);
        break;
    }
    fclose(f);
}

static void header(FILE *f, int seeds)
{
    char date[32], cpu[256];
    pl_utc_date(date, sizeof date);
    cpu_name(cpu, sizeof cpu);
    fprintf(f,
            "# primlab summation-error rows\n"
            "# device: %s (CPU)\n"
            "# date: %s\n"
            "# source: measured (CPU)\n"
            "# inputs: n floats uniform in [0, 1), multiples of 2^-24, seeds 1..%d (pl_sum_uniform_f32)\n"
            "# orders: serial (one accumulator), pairwise (halves, serial below %d), tree (blocks of %d,\n"
            "#   sequential addressing, then the block sums the same way)\n"
            "# err_*: |sum - S| / S against the exact sum S; bound_*: K u, K the most additions above an element;\n"
            "#   walk_*: sqrt(n) u and sqrt(log2 n) u; u = 2^-24\n" COLUMNS "\n",
            cpu, date, seeds, PL_PAIRWISE_BASE, PL_SUMERR_BLOCK);
}

static void row(FILE *f, const pl_sum_error *r)
{
    fprintf(f, "%zu\t%llu\t%d\t%.17g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\n", r->n,
            (unsigned long long)r->seed, r->block, r->exact, r->err_serial, r->err_pairwise, r->err_tree, r->bound_serial,
            r->bound_pairwise, r->bound_tree, r->walk_serial, r->walk_tree, (double)r->serial, (double)r->pairwise,
            (double)r->tree);
}

/* "2^20" for a power of two, else the number. */
static const char *size_str(size_t n, char *buf, size_t cap)
{
    int e = 0;
    while (e < 63 && ((size_t)1 << e) < n)
        e++;
    if (((size_t)1 << e) == n)
        snprintf(buf, cap, "2^%02d", e);
    else
        snprintf(buf, cap, "%zu", n);
    return buf;
}

/* 0, or 2 after saying which option is out of range. */
static int check_opts(const pl_cmd_opts *o)
{
    if (o->nsizes < 0 || (o->nsizes > 0 && !o->sizes)) {
        fprintf(stderr, "%s: no sizes given with --n\n", prog);
        return 2;
    }
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i] < 2 || o->sizes[i] > PL_SUMERR_MAX_N) {
            fprintf(stderr, "%s: size '%ld' out of range (2 .. 2^30)\n", prog, o->sizes[i]);
            return 2;
        }
    if (o->reps < 0 || o->reps > PL_SUMERR_MAX_SEEDS) {
        fprintf(stderr, "%s: --reps '%d' out of range (1 .. %d seeds)\n", prog, o->reps, PL_SUMERR_MAX_SEEDS);
        return 2;
    }
    return 0;
}

/* The rows of one n, and its line of the table (means over the seeds). */
static int one_size(FILE *tsv, size_t n, int seeds)
{
    double mean[3] = {0, 0, 0}, walk[2] = {0, 0};
    for (int s = 1; s <= seeds; s++) {
        pl_sum_error r;
        if (pl_sum_error_row(n, (uint64_t)s, PL_SUMERR_BLOCK, &r) != 0) {
            fprintf(stderr, "%s: cannot allocate %zu floats\n", prog, n);
            return 1;
        }
        row(tsv, &r);
        mean[0] += r.err_serial / seeds, mean[1] += r.err_pairwise / seeds, mean[2] += r.err_tree / seeds;
        walk[0] = r.walk_serial, walk[1] = r.walk_tree;
    }
    fflush(tsv);
    char buf[32];
    fprintf(stderr, "%12s  %10.3e  %10.3e  %10.3e  %11.3e  %11.3e\n", size_str(n, buf, sizeof buf), mean[0], mean[1],
            mean[2], walk[0], walk[1]);
    return 0;
}

int pl_sumerr_command(const pl_cmd_opts *o)
{
    int rc = check_opts(o);
    if (rc)
        return rc;
    int seeds = o->reps ? o->reps : PL_SUMERR_SEEDS;
    char tmp[4096];
    FILE *tsv = stdout;
    if (o->out && !(tsv = pl_out_begin(o->out, tmp, sizeof tmp, prog)))
        return 2;
    header(tsv, seeds);
    fprintf(stderr, "relative error |sum - S| / S, mean of %d seed%s; tree: blocks of %d; u = 2^-24 = %.3g\n", seeds,
            seeds > 1 ? "s" : "", PL_SUMERR_BLOCK, 0x1p-24);
    fprintf(stderr, "%12s  %10s  %10s  %10s  %11s  %11s\n", "n", "serial", "pairwise", "tree", "sqrt(n) u",
            "sqrt(lg n) u");
    int count = o->nsizes ? o->nsizes : PL_SUMERR_HI - PL_SUMERR_LO + 1;
    for (int i = 0; i < count && rc == 0; i++)
        rc = one_size(tsv, o->nsizes ? (size_t)o->sizes[i] : (size_t)1 << (PL_SUMERR_LO + i), seeds);
    if (!o->out) {
        if (fflush(stdout) == 0 && !ferror(stdout))
            return rc;
        fprintf(stderr, "%s: cannot write the rows to stdout\n", prog);
        return 2;
    }
    if (rc) { /* no partial file */
        fclose(tsv);
        remove(tmp);
        return rc;
    }
    return pl_out_end(tsv, tmp, o->out, prog);
}
