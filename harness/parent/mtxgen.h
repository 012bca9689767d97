/* harness/parent/mtxgen.h: synthetic sparse matrices for the sparse labs
 * (06 and 07), shaped like the benchmark matrices of the shuffle-reduction
 * SpMV paper, and a Matrix Market writer. Plain C11 + OpenMP, no CUDA.
 *
 *   pl_csr m;
 *   char err[256];
 *   if (pl_mtxgen_preset("cant-like", 0.1, 42, &m, err, sizeof err) != 0)   // or
 *   if (pl_mtxgen("powerlaw", 100000, 100000, 400000, 42, &m, err, sizeof err) != 0) {
 *       fprintf(stderr, "%s\n", err);
 *       exit(2);
 *   }
 *   pl_mtx_write("cant-like.mtx", &m, err, sizeof err);
 *   pl_csr_free(&m);
 *
 * `build/mtx-gen FAMILY|PRESET [--rows R] [--cols C] [--nnz N] [--max-row M]
 * [--seed S] [--scale F] [--out FILE.mtx]` (mtxgen_main.c) makes one and
 * prints its statistics; `build/mtx-gen --list` prints the families and the
 * presets (TSV; harness/matrices.sh reads the presets' collection names
 * from it). Tests: tests/unit/test_mtxgen.c.
 *
 * What every generated matrix is
 *   What pl_mtx_read guarantees of a file (mtx.h): rows sorted, columns
 *   0-based and strictly increasing within a row, row_ptr[rows] == nnz,
 *   pl_csr_check passes; field "real", symmetry "general" (fem is
 *   structurally symmetric only: its values are not), stored == nnz.
 *   Values are k / 1024 for an integer k in [-1024, 1024], never 0: exact in
 *   float, so the float and double variants of a lab read the same matrix,
 *   and no entry hides behind a zero. The same (params, seed) gives the same
 *   matrix bit for bit on any machine and for any number of OpenMP threads
 *   (every row draws from its own stream, seeded from (seed, row)).
 *   Memory: row_ptr, col and val, allocated once each at their final size
 *   (8 bytes a row + 12 an entry); nothing else grows with the matrix
 *   (pl_mtx_write: two 768 KiB buffers a thread, 48 MiB at most).
 *   Time: 0.1 to 0.3 s per 10^7 entries on 2 cores (fem the fastest,
 *   powerlaw the slowest); pl_mtx_write about 2 s per 10^7 entries.
 *
 * The families (rows, cols, nnz are the caller's; m = nnz / rows)
 *   fem       FEM-like, square: nodes of b = 3 rows (1 when m < 12), node
 *             P coupled to the nodes P + o for o in a few clusters of c
 *             consecutive offsets centred at 0, +-D, +-2D ..., D about
 *             sqrt(rows / b): each row is a few runs of consecutive columns
 *             near the diagonal, all within |i - j| < b (K D + c), K the
 *             clusters on each side (the presets' bandwidths: 700 to 1500
 *             columns). Couplings are kept or dropped per pair
 *             of groups of c nodes, the same way for (P, Q) and (Q, P):
 *             structurally symmetric; a row keeps one or two runs of each
 *             cluster. The diagonal block is always kept (no empty row;
 *             nnz >= rows is required). nnz lands within 5 % of the
 *             target (within 0.5 % for the presets: the drops are evenly
 *             spread, mtxgen.c says how). max_row sets the couplings a row
 *             may have (default 1.25 m); no row is longer than max_row + 2b
 *             (unless max_row is too short for m: then a plain band wide
 *             enough for m).
 *   uniform   Random columns (uniform over [0, cols)); row lengths m +- d,
 *             d drawn uniformly from [-D, D] with D = max_row - ceil(m)
 *             (default m / 4, at least 1 for m >= 1), rows paired so the
 *             lengths sum exactly to nnz. max_row = m: every row of length
 *             m (rounded up or down).
 *   powerlaw  Web-graph-like: Pareto row lengths, floor(x U^(-1/beta))
 *             within [1, max_row] (default max_row min(cols, 1000 m)), beta
 *             chosen so that the longest of `rows` draws is about max_row
 *             (where rows / (e ln rows) times the mean reaches it), x so
 *             that the mean is m: with m ~ 3, most rows have 1 to 3
 *             entries and a few have thousands. For m < 2 lengths start at
 *             0: most rows are empty and the long ones stay. Random columns.
 *   longrows  The same law with max_row default 20 m: every row long and a
 *             few several times longer. With a short, wide shape
 *             (rail4284: 4K x 1097K) the rows have thousands of entries.
 *   dense     Every entry of rows x cols (nnz PL_MTXGEN_DEFAULT or exactly
 *             rows x cols).
 *   All but fem give exactly nnz entries: the drawn lengths beyond the
 *   shortest are scaled to make the sum (cumulative rounding), each row
 *   kept within [0, cols].
 *
 * The presets: pl_mtxgen_presets[], one per matrix of the paper's Table 2,
 * with its rows, cols, nnz and longest row as printed there (mtxgen.c has
 * the table and where each number comes from). A scale shrinks (or grows)
 * rows and cols and keeps the mean row length.
 *
 * Errors: every function that can fail returns 0, or -1 with one line in
 * err (truncated to cap, no newline): an unknown family or preset, sizes
 * out of range (rows, cols > PL_MTX_MAX_DIM, nnz > PL_MTX_MAX_NNZ, nnz >
 * rows x cols, more than PL_MTX_MAX_EMPTY_ROWS rows without entries: the
 * reader would refuse the file), a family's own limits, out of memory.
 */
#ifndef PRIMLAB_MTXGEN_H
#define PRIMLAB_MTXGEN_H

#include <stddef.h>
#include <stdint.h>

#include "mtx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PL_MTXGEN_DEFAULT (-1L) /* nnz, max_row: the family's choice */

typedef struct pl_mtxgen_params {
    const char *family; /* fem | uniform | powerlaw | longrows | dense */
    long rows, cols;
    long nnz;     /* entries wanted, or PL_MTXGEN_DEFAULT */
    long max_row; /* longest row wanted (a shape hint), or PL_MTXGEN_DEFAULT */
} pl_mtxgen_params;

typedef struct pl_mtxgen_family {
    const char *name;
    const char *what; /* one line */
} pl_mtxgen_family;

extern const pl_mtxgen_family pl_mtxgen_families[];
extern const int pl_mtxgen_nfamilies;

typedef struct pl_mtxgen_preset_def {
    const char *name;       /* "cant-like" */
    const char *matrix;     /* the paper's name, "cant" */
    const char *collection; /* "Williams/cant": https://sparse.tamu.edu/MM/<this>.tar.gz; NULL: not there */
    const char *family;
    long rows, cols, nnz, max_row; /* Table 2 of the paper */
    const char *what;              /* the paper's description, and notes */
} pl_mtxgen_preset_def;

extern const pl_mtxgen_preset_def pl_mtxgen_presets[];
extern const int pl_mtxgen_npresets;

/* The preset called name ("cant-like", or the paper's "cant"), or NULL. */
const pl_mtxgen_preset_def *pl_mtxgen_preset_find(const char *name);

/* The preset's parameters at a scale (0 < scale <= 1000; 1: the paper's). */
int pl_mtxgen_preset_params(const char *name, double scale, pl_mtxgen_params *p, char *err, size_t cap);

/* Scales rows and cols by scale (each at least 1 when it was; a square
   matrix stays square), nnz to keep the mean row length (dense: rows x
   cols), max_row to at most cols. */
int pl_mtxgen_scale(pl_mtxgen_params *p, double scale, char *err, size_t cap);

/* Makes the matrix into *out (zeroed on failure). */
int pl_mtxgen_make(const pl_mtxgen_params *p, uint64_t seed, pl_csr *out, char *err, size_t cap);

/* pl_mtxgen_make with the family's default max_row. */
int pl_mtxgen(const char *family, long rows, long cols, long nnz, uint64_t seed, pl_csr *out, char *err, size_t cap);

/* pl_mtxgen_make of a preset at a scale. */
int pl_mtxgen_preset(const char *name, double scale, uint64_t seed, pl_csr *out, char *err, size_t cap);

/* What the CLI prints and the tests check. */
typedef struct pl_mtxgen_stats {
    long rows, cols, nnz;
    double mean_row;
    long min_row, max_row;
    long empty_rows; /* rows without entries */
    long bandwidth;  /* max |i - j| over the entries; 0 without entries */
} pl_mtxgen_stats;

void pl_mtxgen_stats_of(const pl_csr *m, pl_mtxgen_stats *s);

/* Writes m (any pl_csr that pl_csr_check accepts) as a coordinate real
   general Matrix Market file, values with %.17g: pl_mtx_read gives back
   the same CSR bit for bit (symmetric input is written expanded). A
   regular file is written beside path and renamed onto it at the end, so
   a failed write leaves no partial file. */
int pl_mtx_write(const char *path, const pl_csr *m, char *err, size_t cap);

/* The same with comment lines after the banner: each line of comment
   (split at '\n') written as "% line". */
int pl_mtx_write_comment(const char *path, const pl_csr *m, const char *comment, char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
