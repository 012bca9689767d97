/* harness/parent/report.h: benchmark rows as TSV (for gnuplot) and as a readable table.
 *
 * One row per (part, variant, n). Ratios: x_serial and x_omp are speedups
 * over the CPU references (their time / this time); x_vendor is this row's
 * throughput as a fraction of the vendor library's (vendor time / this time,
 * so 1.00 means as fast as CUB). Unknown values are NaN, written "nan".
 *
 * Each GPU row is also a fraction of its roof: "copy" (the device's copy
 * bandwidth, for kernels that stream global memory; the same figure as
 * pct_copy) or "smem" (the measured shared-memory read bandwidth, for
 * kernels that stay in shared memory; their pct_copy is NaN, since a
 * fraction of a bandwidth they never use means nothing). The roof columns
 * come last, after param, so that older readers of the columns keep working.
 *
 * And a fraction of its algorithm's roof (roofs.h): alg_bytes, the bytes the
 * row's algorithm must move (the part's taught one; the vendor's own for
 * the vendor's row), and pct_alg, the time those bytes take at the copy
 * bandwidth over the row's time. They come last of all: files written
 * before them lack the two columns, and readers find columns by name.
 */
#ifndef PRIMLAB_REPORT_H
#define PRIMLAB_REPORT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_row {
    const char *lab, *part, *variant, *device;
    long n;
    int reps;
    double time_ms, gbps, pct_copy, copy_gbps, x_serial, x_omp, x_vendor;
    double param;         /* the part's input parameter, or NaN */
    const char *roof;     /* "copy" or "smem"; NULL for CPU rows */
    double roof_gbps, pct_roof;
    double gflops;        /* floating-point operations per second / 1e9, or NaN (not counted) */
    const char *param_label; /* the parameter's name (a matrix case), or NULL */
    double alg_bytes;     /* the bytes its algorithm must move (roofs.h); 0: none stated. Its
                             pct_alg is pl_alg_pct(alg_bytes, copy_gbps, time_ms) */
} pl_row;

/* Now, in UTC, as 2026-11-22T01:49:09Z: the date line of every data file. */
void pl_utc_date(char *buf, size_t cap);

/* The NVIDIA kernel module's version ("580.159.04") from `path`
   (/proc/driver/nvidia/version) into out; 0 when there is none (no GPU,
   another vendor). The first word of its first line shaped like a version
   is taken: the open and the proprietary modules word the line apart. The
   rows' header names it (# driver:) beside the device. */
int pl_driver_version(const char *path, char *out, size_t cap);

/* Metadata comments (smem_gbps only when measured; vendor, the yardstick's
   library and version as the worker names it, "CCCL 3.0.1", only when
   known), then notes (more comment lines, each "# KEY: value\n", or
   NULL: the algorithms' formulas, "# alg_b: 3n words: ..."), then the
   column header line. */
void pl_tsv_begin(FILE *f, const char *device, const char *vendor, double copy_gbps, double smem_gbps,
                  const char *source, const char *notes);
void pl_tsv_row(FILE *f, const pl_row *r);

/* The last two columns, their names and a row's two fields: its algorithm's
   bytes ("nan" unless positive) and pct_alg = pl_alg_pct(alg_bytes,
   copy_gbps, time_ms), tab between, no tab before or newline after. The
   rows' writer ends each row with them, and `labNN roofs --in`
   (alg_rows.h) adds them to a file written before they existed. */
#define PL_TSV_ALG_COLUMNS "alg_bytes\tpct_alg"
void pl_tsv_alg(FILE *f, double alg_bytes, double copy_gbps, double time_ms);

/* A data file written whole or not at all: rows go to out + ".tmp", which
   pl_out_end renames to out. prog names the program in error messages.
   pl_out_begin returns NULL after printing why; pl_out_end returns 0, or 2
   after printing why. */
FILE *pl_out_begin(const char *out, char *tmp, size_t cap, const char *prog);
int pl_out_end(FILE *f, const char *tmp, const char *out, const char *prog);

/* vendor: what the "vs" column compares with ("CUB", "cuSPARSE"); NULL: CUB */
void pl_table_begin(FILE *f, const char *vendor);
void pl_table_row(FILE *f, const pl_row *r);

#ifdef __cplusplus
}
#endif

#endif
