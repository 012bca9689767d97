/* harness/parent/report.c: TSV and table writers (see report.h). */
#include "report.h"
#include "roofs.h"
#include "timing.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static const char *COLUMNS =
    "lab\tpart\tvariant\tn\treps\ttime_ms\tgbps\tpct_copy\tcopy_gbps\tx_serial\tx_omp\tx_vendor\tdevice\tparam\troof\troof_gbps\tpct_roof\tgflops\tparam_label\t" PL_TSV_ALG_COLUMNS;

static void num(FILE *f, const char *fmt, double v, const char *sep)
{
    if (isnan(v))
        fprintf(f, "nan%s", sep);
    else {
        fprintf(f, fmt, v);
        fputs(sep, f);
    }
}

void pl_utc_date(char *buf, size_t cap)
{
    time_t t = time(NULL);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
}

int pl_driver_version(const char *path, char *out, size_t cap)
{
    char line[512];
    FILE *f = fopen(path, "r");
    int found = 0;
    if (f && fgets(line, sizeof line, f))
        for (char *w = strtok(line, " \t\n"); w && !found; w = strtok(NULL, " \t\n")) {
            size_t digits = strspn(w, "0123456789.");
            if (digits == strlen(w) && digits >= 3 && strchr(w, '.') && w[0] != '.' && cap > digits)
                found = snprintf(out, cap, "%s", w) > 0;
        }
    if (f)
        fclose(f);
    return found;
}

void pl_tsv_begin(FILE *f, const char *device, const char *vendor, double copy_gbps, double smem_gbps,
                  const char *source, const char *notes)
{
    char date[32];
    pl_utc_date(date, sizeof date);
    fprintf(f, "# primlab benchmark rows\n# device: %s\n", device);
    if (vendor && *vendor)
        fprintf(f, "# vendor: %s\n", vendor);
    char driver[64];
    if (pl_driver_version("/proc/driver/nvidia/version", driver, sizeof driver))
        fprintf(f, "# driver: %s\n", driver);
    fprintf(f, "# copy_gbps: ");
    num(f, "%.1f", copy_gbps, "\n");
    if (!isnan(smem_gbps)) {
        fprintf(f, "# smem_gbps: ");
        num(f, "%.1f", smem_gbps, "\n");
    }
    /* where the CPU rows ran: a kernel and a team size of their own can
       change them (the OpenMP rows above all) */
    struct utsname u;
    double quota = pl_cgroup_cpus("/sys/fs/cgroup", "/proc/self/cgroup");
    char q[48] = "";
    if (quota > 0)
        snprintf(q, sizeof q, ", a cgroup quota of %.2f CPUs", quota);
    fprintf(f, "# host: %ld CPUs online, %d usable%s, OpenMP team of %d, kernel %s\n", sysconf(_SC_NPROCESSORS_ONLN),
            pl_cpu_budget(), q, omp_get_max_threads(), uname(&u) == 0 ? u.release : "unknown");
    fprintf(f, "# date: %s\n# source: %s\n%s%s\n", date, source, notes ? notes : "", COLUMNS);
}

FILE *pl_out_begin(const char *out, char *tmp, size_t cap, const char *prog)
{
    snprintf(tmp, cap, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, tmp, strerror(errno));
    return f;
}

int pl_out_end(FILE *f, const char *tmp, const char *out, const char *prog)
{
    if (fclose(f) != 0 || rename(tmp, out) != 0) {
        fprintf(stderr, "%s: cannot finish '%s': %s\n", prog, out, strerror(errno));
        return 2;
    }
    fprintf(stderr, "wrote %s\n", out);
    return 0;
}

void pl_tsv_row(FILE *f, const pl_row *r)
{
    fprintf(f, "%s\t%s\t%s\t%ld\t%d\t", r->lab, r->part, r->variant, r->n, r->reps);
    num(f, "%.6f", r->time_ms, "\t");
    num(f, "%.2f", r->gbps, "\t");
    num(f, "%.2f", r->pct_copy, "\t");
    num(f, "%.1f", r->copy_gbps, "\t");
    num(f, "%.3f", r->x_serial, "\t");
    num(f, "%.3f", r->x_omp, "\t");
    num(f, "%.3f", r->x_vendor, "\t");
    fprintf(f, "%s\t", r->device);
    num(f, "%g", r->param, "\t");
    fprintf(f, "%s\t", r->roof ? r->roof : "nan");
    num(f, "%.1f", r->roof ? r->roof_gbps : NAN, "\t");
    num(f, "%.2f", r->roof ? r->pct_roof : NAN, "\t");
    num(f, "%.3f", r->gflops, "\t");
    fprintf(f, "%s\t", r->param_label ? r->param_label : "nan");
    pl_tsv_alg(f, r->alg_bytes, r->copy_gbps, r->time_ms);
    fputc('\n', f);
    fflush(f);
}

void pl_tsv_alg(FILE *f, double alg_bytes, double copy_gbps, double time_ms)
{
    num(f, "%.0f", alg_bytes > 0 ? alg_bytes : NAN, "\t");
    num(f, "%.2f", pl_alg_pct(alg_bytes, copy_gbps, time_ms), "");
}

void pl_table_begin(FILE *f, const char *vendor)
{
    char vs[32];
    snprintf(vs, sizeof vs, "vs %s", vendor ? vendor : "CUB");
    fprintf(f, "%-4s %-12s %11s %11s %9s %12s %10s %10s %8s %9s %6s\n", "part", "variant", "n", "time ms",
            "GB/s", "% of roof", "% alg roof", "vs serial", "vs omp", vs, "param");
}

static void cell(FILE *f, const char *fmt, double v, int width)
{
    if (isnan(v))
        fprintf(f, " %*s", width, "-");
    else {
        char buf[32];
        snprintf(buf, sizeof buf, fmt, v);
        fprintf(f, " %*s", width, buf);
    }
}

void pl_table_row(FILE *f, const pl_row *r)
{
    fprintf(f, "%-4s %-12s %11ld", r->part, r->variant, r->n);
    cell(f, "%.4f", r->time_ms, 11);
    cell(f, "%.1f", r->gbps, 9);
    if (r->roof && !isnan(r->pct_roof)) { /* "54.1% copy", "71.0% smem" */
        char buf[32];
        snprintf(buf, sizeof buf, "%.1f%% %s", r->pct_roof, r->roof);
        fprintf(f, " %12s", buf);
    } else {
        fprintf(f, " %12s", "-");
    }
    cell(f, "%.1f%%", pl_alg_pct(r->alg_bytes, r->copy_gbps, r->time_ms), 10); /* "% of its roof" */
    cell(f, "%.2fx", r->x_serial, 10);
    cell(f, "%.2fx", r->x_omp, 8);
    cell(f, "%.2fx", r->x_vendor, 9);
    if (r->param_label)
        fprintf(f, " %6s", r->param_label);
    else
        cell(f, "%g", r->param, 6);
    if (!isnan(r->gflops))
        fprintf(f, "  %.1f GFLOP/s", r->gflops);
    fputc('\n', f);
    fflush(f);
}
