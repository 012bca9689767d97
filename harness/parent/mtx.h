/* harness/parent/mtx.h: a Matrix Market reader for the sparse labs (06 and
 * 07), returning the matrix as CSR. Plain C11, no CUDA: it runs in the
 * grading parent, so a hostile or broken file must never crash it or make
 * it allocate what the file does not back with entries.
 *
 *   pl_csr m;
 *   char err[512];
 *   if (pl_mtx_read("bcsstk01.mtx", &m, err, sizeof err) != 0) {
 *       fprintf(stderr, "%s\n", err);          // "bcsstk01.mtx:7: ..."
 *       exit(2);
 *   }
 *   ... m.row_ptr[0..rows], m.col[0..nnz), m.val[0..nnz) ...
 *   pl_csr_free(&m);
 *
 * `build/mtx-check FILE...` (mtx_main.c) prints what the reader makes of a
 * file, or its one-line refusal. Tests: tests/test_mtx.c with the files in
 * tests/mtx; `make fuzz` runs tests/fuzz/fuzz_mtx.c under libFuzzer.
 *
 * The format: R. F. Boisvert, R. Pozo and K. A. Remington, "The Matrix
 * Market Exchange Formats: Initial Design", NIST IR 5935, 1996
 * (https://math.nist.gov/MatrixMarket/formats.html). A file is a banner
 * line, `%%MatrixMarket matrix coordinate <field> <symmetry>`, comment
 * lines starting with `%`, a size line `rows cols entries`, then one line
 * per entry, `i j value` with 1-based indices (`i j` for pattern files).
 *
 * What the reader accepts
 *   - The banner on line 1; its five words in any case (`%%matrixmarket
 *     MATRIX Coordinate REAL General` reads like the usual spelling);
 *     blanks are spaces and tabs, any number of them.
 *   - field real, integer or pattern (`double`, which some writers use, is
 *     read as real); symmetry general, symmetric or skew-symmetric.
 *   - Comment lines (first non-blank character `%`) and blank lines
 *     anywhere after the banner: before the size line, among the entries
 *     and after them.
 *   - LF or CRLF line ends, mixed; a last line with no newline.
 *   - Entries in any order. 0 x 0 matrices, matrices with no entries, and
 *     rows or columns with no entries. Explicit zero values are entries.
 *   - Values: decimal numbers as strtod reads them in the C locale (so
 *     `1`, `-2.5`, `.5`, `1e-3`, `1.0E+02`); a value that underflows reads
 *     as the nearest double. Integer files: whole numbers within
 *     -2^53..2^53, exact in a double. Pattern entries read as 1.0.
 *   - No limit on the length of a line (a 1 MB comment is skipped); one
 *     word (a number) is at most PL_MTX_MAX_WORD characters.
 *
 * What the result is
 *   CSR of the whole matrix: symmetric files are expanded (every entry
 *   off the diagonal also stored at its mirror), skew-symmetric ones too
 *   with the mirror's sign flipped; rows sorted, columns strictly
 *   increasing within each row, indices 0-based. nnz counts the expanded
 *   entries (2 x stored - diagonal entries for a symmetric file), stored
 *   the file's entries. field and symmetry are the banner's words in lower
 *   case (`double` as `real`).
 *
 * What it refuses, each with one line "file:line: what is wrong" (no
 * newline; line numbers from 1; "the line after the last" for a file that
 * ends too soon; no line number for a file that cannot be opened or read)
 *   - an empty file, one whose line 1 is not a banner, a banner that has
 *     not exactly four words after `%%MatrixMarket`;
 *   - object `vector`, format `array` (dense), field `complex`, symmetry
 *     `hermitian`, and any unknown word: the labs have no use for them;
 *     `pattern skew-symmetric` (the spec forbids it: no sign to flip);
 *   - a size line that is not three integers, negative sizes, rows or
 *     columns over PL_MTX_MAX_DIM (indices are int on the GPU), entries
 *     over PL_MTX_MAX_NNZ, a symmetric or skew-symmetric matrix that is not
 *     square, and a header that lies: more entries than the matrix has
 *     places for (rows x cols; n(n+1)/2 on and below the diagonal for a
 *     symmetric file, n(n-1)/2 below it for a skew-symmetric one);
 *   - fewer entries than the size line says ("truncated", named at the
 *     line after the last) or more (named at the first one too many);
 *   - an index that is not an integer, or not in 1..rows (1..cols);
 *   - in a symmetric file, an entry above the diagonal: the format stores
 *     the lower triangle, so such an entry is either a mistake or a
 *     general matrix in the wrong banner, and guessing would silently
 *     change the matrix; in a skew-symmetric file, any entry on or above
 *     the diagonal (its diagonal is zero and not stored);
 *   - a missing value, anything after the last word an entry needs
 *     (a value in a pattern file, a comment at the end of a line), a value
 *     that is not a decimal number (hex floats included), NaN or Inf, a
 *     real value beyond the range of double, an integer value that is not
 *     a whole number or lies outside -2^53..2^53;
 *   - duplicate entries, the same (i, j) twice: refused, naming both lines.
 *     The format does not say what a duplicate means. Summing them (what
 *     some readers do) would hide a broken file, and would make the CSR's
 *     count disagree with the file's, which is what students compare
 *     their kernels' work against; a real collection file has none;
 *   - more expanded entries than PL_MTX_MAX_NNZ;
 *   - more rows than entries + PL_MTX_MAX_EMPTY_ROWS (named at the size
 *     line): row_ptr costs 8 bytes a row whatever the entries, so this is
 *     what keeps a 40-byte file from asking for gigabytes of row pointers.
 *
 * Memory: nothing is allocated from the size line's counts. The entries'
 * arrays grow as entries are read (doubling, never past the declared
 * count), and the CSR is allocated once the whole file has been read and
 * checked, so a short file that claims 2^31 entries is refused at its end
 * having allocated a few kilobytes. Peak use of a valid file is about its
 * size (pl_mtx_read holds it whole) + 16 bytes a stored entry (twice that
 * while sorting) + 12 bytes an expanded entry + 8 bytes a row.
 */
#ifndef PRIMLAB_MTX_H
#define PRIMLAB_MTX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PL_MTX_MAX_DIM 2147483647L        /* rows and cols: INT_MAX */
#define PL_MTX_MAX_NNZ 2147483647L        /* stored and expanded entries */
#define PL_MTX_MAX_EMPTY_ROWS (1L << 24)  /* rows <= nnz + this (128 MiB of row_ptr) */
#define PL_MTX_MAX_FILE_BYTES (1L << 36)  /* pl_mtx_read: 64 GiB */
#define PL_MTX_MAX_WORD 127               /* characters in one number */

typedef struct pl_csr {
    long rows, cols;
    long nnz;      /* entries of the expanded matrix: row_ptr[rows] */
    long stored;   /* entries in the file (its size line's count) */
    long *row_ptr; /* rows + 1 offsets; row r is [row_ptr[r], row_ptr[r + 1]) */
    int *col;      /* nnz column indices, 0-based, increasing within a row */
    double *val;   /* nnz values */
    char field[8];     /* real | integer | pattern */
    char symmetry[16]; /* general | symmetric | skew-symmetric */
} pl_csr;

/* Reads the file at path into *m. Returns 0, or -1 with *m zeroed and err
   holding "path:line: what is wrong" (one line, truncated to cap). */
int pl_mtx_read(const char *path, pl_csr *m, char *err, size_t cap);

/* The same from text[0..len) (not NUL-terminated; NUL bytes are just
   bytes), with name standing for the file in messages. */
int pl_mtx_parse(const char *text, size_t len, const char *name, pl_csr *m, char *err, size_t cap);

/* Frees what a successful read allocated and zeroes *m; safe on a zeroed
   or already freed pl_csr. */
void pl_csr_free(pl_csr *m);

/* Checks what every read guarantees: row_ptr from 0 to nnz and never
   decreasing, columns in range and strictly increasing within a row,
   finite values, integer values whole, pattern values 1, and for a
   symmetric (skew-symmetric) matrix every (i, j, v) mirrored by (j, i, v)
   ((j, i, -v), with no diagonal). Returns 0, or -1 with a one-line
   reason in err. For tests, and for code that builds a pl_csr itself. */
int pl_csr_check(const pl_csr *m, char *err, size_t cap);

/* Where column c is in row r of a checked CSR (columns increase within a
   row), or -1. */
long pl_csr_find(const pl_csr *m, long r, long c);

/* Writes a printf-formatted one-line error to err (when err and cap), control
   characters shown as '?', and returns -1: for the sparse labs' readers,
   writers and generators. */
__attribute__((format(printf, 3, 4))) int pl_mtx_error(char *err, size_t cap, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
