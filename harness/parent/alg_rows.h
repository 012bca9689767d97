/* harness/parent/alg_rows.h: the algorithms' roofs (roofs.h) of a lab's
 * benchmark rows, for the writers of the rows and `labNN roofs --in`.
 *
 *   pl_alg_notes   a part's formulas as the comment lines of a data file,
 *                  "# alg_b: 3n words: ..." and "# alg_b_cub: 2n words: ...",
 *                  which the figures' keys quote (plots/style.gp, alg_words);
 *   pl_row_kind    which algorithm a row is timed against, by its variant;
 *   pl_alg_derive  a data file written before the alg_bytes and pct_alg
 *                  columns existed (report.h; before 2026-11-29), with the two
 *                  columns added to every row.
 *
 * A row's pct_alg is a function of its own time_ms, copy_gbps, n and param
 * and of its part's formula, nothing else (pl_alg_pct), so a row measured
 * before the columns gets them without being measured again: pl_alg_derive
 * fills them as lab_run.c writes them (the code's rows its part's alg, the
 * vendor's rows the part's vendor_alg, CPU rows none: "nan"), keeps every
 * other byte of the file, adds the formulas' lines of the parts it has rows
 * of and one line saying where the columns came from, and refuses a file
 * that has them already (measured, or derived before), so that running it
 * twice changes nothing.
 *
 * The columns are found by name, so the older column sets read too: the
 * committed sweeps end after device (lab 01), param (labs 04, 05), pct_roof
 * (lab 03) or param_label. The two columns go last, after whatever the file
 * has. A row is refused, with its line number, where the lab's table cannot
 * say what the writer meant: another lab's row, a part or variant the table
 * lacks, a parameter the part takes but the row lacks, a parameter's name
 * that is not the table's, a field count not the header's.
 */
#ifndef PRIMLAB_ALG_ROWS_H
#define PRIMLAB_ALG_ROWS_H

#include "lab.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Part p's formula lines, those of which: its algorithm's (PL_NOTE_CODE),
   then its vendor's (PL_NOTE_VENDOR, where it has a vendor), each where it
   states one, appended to buf at *len, within cap: a line that does not fit
   whole is left out, *len past the lines written. */
enum { PL_NOTE_CODE = 1, PL_NOTE_VENDOR = 2 };
void pl_alg_notes(const pl_part *p, int which, char *buf, size_t cap, size_t *len);

/* What a row of part p is timed against, by its variant: the CPU
   references (cpu_serial, cpu_omp), the vendor's yardstick (its
   vendor_name, else "cub", where the part has a vendor), or the code
   ("solution" or "student", alone or followed by a space and more, as lab
   07's table names the lanes of its part b). */
enum pl_row_kind { PL_ROW_UNKNOWN = -1, PL_ROW_CPU, PL_ROW_VENDOR, PL_ROW_CODE };
int pl_row_kind(const pl_part *p, const char *variant);

/* The bytes a row of part p, of the given kind, measured its time against:
   0 for CPU rows and for rows that did not run on the GPU (on_gpu 0: lab
   07's part a, the code's OpenMP); else the part's alg (the code's) or
   vendor_alg (the vendor's) at (n, param), through the lab's
   row_alg_bytes where it has one (lab.h: a lab command's own rows). */
double pl_row_alg_bytes(const pl_lab *lab, const pl_part *p, int kind, int on_gpu, long n, double param,
                        const char *param_label);

/* The data file text[0..len) of lab's rows, with alg_bytes and pct_alg, to
   out: the comment lines before the header as they are, then the formulas'
   lines of the GPU rows' algorithms (pl_alg_notes; a line the file has
   already is not written again) and one line "# derived: ..." naming `by` (the
   command) and date (when), then the header and every line after it, each
   data row with its two fields appended. 0; or -1 with err filled (the
   reason, with the line's number) and nothing written: every row is read
   and checked before the first byte goes out. */
int pl_alg_derive(const pl_lab *lab, const char *text, size_t len, const char *by, const char *date, FILE *out,
                  char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
