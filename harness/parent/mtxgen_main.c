/* harness/parent/mtxgen_main.c: build/mtx-gen, the synthetic matrices of
 * harness/parent/mtxgen.h as a command.
 *
 *   build/mtx-gen FAMILY|PRESET [--rows R] [--cols C] [--nnz N] [--max-row M]
 *                 [--seed S] [--scale F] [--out FILE.mtx]
 *   build/mtx-gen --list
 *
 * A FAMILY needs --rows; --cols defaults to rows (longrows: 256 x rows,
 * short and wide like rail4284), --nnz and --max-row to the family's.
 * A PRESET ("cant-like", or just "cant") brings the paper's sizes; --rows,
 * --cols, --nnz, --max-row replace them (--rows alone keeps a square
 * preset square and its mean row length), then --scale multiplies rows
 * and cols (the mean row length kept). --seed: decimal or 0x hex, default 1.
 *
 * Prints one line of tab-separated key=value fields: name, family, rows,
 * cols, nnz, mean_row, min_row, max_row, empty_rows, bandwidth, seed,
 * gen_s (seconds), and with --out the file and write_s. --list prints the
 * families and the presets as TSV (its first line, starting with '#',
 * names the columns). Exit status: 0; 2 on bad arguments or parameters the
 * generator refuses (one line on stderr); 1 when the file cannot be written.
 */
#define _POSIX_C_SOURCE 200809L
#include "mtxgen.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char USAGE[] =
    "usage: mtx-gen FAMILY|PRESET [--rows R] [--cols C] [--nnz N] [--max-row M] [--seed S] [--scale F] [--out FILE.mtx]\n"
    "       mtx-gen --list      (families and presets, TSV)\n";

static int bad(const char *what, const char *arg)
{
    fprintf(stderr, "mtx-gen: %s%s%s%s\n", what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return 2;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0)
        return -1;
    *out = v;
    return 0;
}

static int parse_seed(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *end || errno || s[0] == '-')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static void list(void)
{
    printf("# kind\tname\tfamily\trows\tcols\tnnz\tmax_row\tmatrix\tcollection\twhat\n");
    for (int i = 0; i < pl_mtxgen_nfamilies; i++)
        printf("family\t%s\t%s\t-\t-\t-\t-\t-\t-\t%s\n", pl_mtxgen_families[i].name, pl_mtxgen_families[i].name,
               pl_mtxgen_families[i].what);
    for (int i = 0; i < pl_mtxgen_npresets; i++) {
        const pl_mtxgen_preset_def *p = &pl_mtxgen_presets[i];
        printf("preset\t%s\t%s\t%ld\t%ld\t%ld\t%ld\t%s\t%s\t%s\n", p->name, p->family, p->rows, p->cols, p->nnz,
               p->max_row, p->matrix, p->collection ? p->collection : "-", p->what);
    }
}

int main(int argc, char **argv)
{
    const char *name = NULL, *out = NULL;
    long rows = -1, cols = -1, nnz = -1, max_row = -1;
    uint64_t seed = 1;
    double scale = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(a, "--list")) {
            list();
            return 0;
        }
        if (a[0] != '-') {
            if (name)
                return bad("more than one FAMILY or PRESET:", a);
            name = a;
            continue;
        }
        long *num = !strcmp(a, "--rows")      ? &rows
                    : !strcmp(a, "--cols")    ? &cols
                    : !strcmp(a, "--nnz")     ? &nnz
                    : !strcmp(a, "--max-row") ? &max_row
                                              : NULL;
        if (!num && strcmp(a, "--seed") && strcmp(a, "--scale") && strcmp(a, "--out"))
            return bad("unknown option (mtx-gen --help):", a);
        if (!v)
            return bad("missing value after", a);
        i++;
        if (num && parse_long(v, num))
            return bad("not a count (a whole number, 0 or more):", v);
        if (!strcmp(a, "--seed") && parse_seed(v, &seed))
            return bad("not a seed (decimal or 0x hex):", v);
        if (!strcmp(a, "--scale")) {
            char *end;
            scale = strtod(v, &end);
            if (!*v || *end || !isfinite(scale))
                return bad("not a scale:", v);
        }
        if (!strcmp(a, "--out"))
            out = v;
    }
    if (!name) {
        fputs(USAGE, stderr);
        return 2;
    }

    pl_mtxgen_params p;
    char err[512];
    const pl_mtxgen_preset_def *preset = pl_mtxgen_preset_find(name);
    if (preset) {
        p = (pl_mtxgen_params){preset->family, preset->rows, preset->cols, preset->nnz, preset->max_row};
        if (rows >= 0) {
            if (cols < 0 && p.rows == p.cols)
                p.cols = rows;
            if (nnz < 0)
                p.nnz = (long)llround((double)p.nnz * (double)rows / (double)p.rows);
            p.rows = rows;
        }
        if (cols >= 0)
            p.cols = cols;
        if (nnz >= 0)
            p.nnz = nnz;
        if (max_row >= 0)
            p.max_row = max_row;
        if (!strcmp(p.family, "dense") && nnz < 0)
            p.nnz = PL_MTXGEN_DEFAULT;
    } else {
        int known = 0;
        for (int i = 0; i < pl_mtxgen_nfamilies; i++)
            known |= !strcmp(name, pl_mtxgen_families[i].name);
        if (!known)
            return bad("neither a family nor a preset (mtx-gen --list):", name);
        if (rows < 0)
            return bad("a family needs --rows:", name);
        if (cols < 0)
            cols = !strcmp(name, "longrows") ? (rows > PL_MTX_MAX_DIM / 256 ? PL_MTX_MAX_DIM : 256 * rows) : rows;
        p = (pl_mtxgen_params){name, rows, cols, nnz, max_row};
    }
    if (pl_mtxgen_scale(&p, scale, err, sizeof err))
        return bad(err, NULL);

    pl_csr m;
    double t0 = now();
    if (pl_mtxgen_make(&p, seed, &m, err, sizeof err))
        return bad(err, NULL);
    double t1 = now();
    int status = 0;
    if (out) {
        char comment[512], nnz_s[32] = "the family's", max_s[32] = "the family's";
        if (p.nnz != PL_MTXGEN_DEFAULT)
            snprintf(nnz_s, sizeof nnz_s, "%ld", p.nnz);
        if (p.max_row != PL_MTXGEN_DEFAULT)
            snprintf(max_s, sizeof max_s, "%ld", p.max_row);
        snprintf(comment, sizeof comment,
                 "made by primlab's mtx-gen (harness/parent/mtxgen.c): %s (family %s), %ld x %ld, nnz wanted %s, "
                 "max_row %s, seed %llu",
                 name, p.family, p.rows, p.cols, nnz_s, max_s, (unsigned long long)seed);
        if (pl_mtx_write_comment(out, &m, comment, err, sizeof err)) {
            fprintf(stderr, "mtx-gen: %s\n", err);
            status = 1;
        }
    }
    double t2 = now();
    pl_mtxgen_stats s;
    pl_mtxgen_stats_of(&m, &s);
    printf("name=%s\tfamily=%s\trows=%ld\tcols=%ld\tnnz=%ld\tmean_row=%.2f\tmin_row=%ld\tmax_row=%ld\t"
           "empty_rows=%ld\tbandwidth=%ld\tseed=%llu\tgen_s=%.3f",
           name, p.family, s.rows, s.cols, s.nnz, s.mean_row, s.min_row, s.max_row, s.empty_rows, s.bandwidth,
           (unsigned long long)seed, t1 - t0);
    if (out && status == 0)
        printf("\tout=%s\twrite_s=%.3f", out, t2 - t1);
    printf("\n");
    pl_csr_free(&m);
    return status;
}
