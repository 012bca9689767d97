/* harness/parent/mtx.h: a Matrix Market reader for the sparse labs,
 * returning the matrix as CSR. Plain C11, no CUDA: it runs in the
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
 * A lab reads within its contract's limits, refused at the file's line:
 *
 *   static const pl_mtx_limits lim = {.who = "the lab's contract",
 *       .max_rows = SS_MAX_ROWS, .max_nnz = SS_MAX_N,
 *       .float_why = "the lab computes in float"};
 *   pl_mtx_read_within(path, &lim, &m, err, sizeof err);
 *
 * `build/mtx-check FILE...` (mtx_main.c) prints what the reader makes of a
 * file, or its one-line refusal. Tests: tests/unit/test_mtx.c with the files in
 * tests/fixtures/mtx; `make fuzz` runs tests/unit/fuzz/fuzz_mtx.c under libFuzzer.
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
 *   - Comment lines (first non-blank character `%`; any bytes after it,
 *     a CR alone included) and blank lines anywhere after the banner:
 *     before the size line, among the entries and after them.
 *   - LF or CRLF line ends, mixed; a last line with no newline. Regular
 *     files only (not a pipe, a FIFO or a device).
 *   - Entries in any order. 0 x 0 matrices, matrices with no entries, and
 *     rows or columns with no entries. Explicit zero values are entries.
 *   - Values: decimal numbers as strtod reads them in the C locale (so
 *     `1`, `-2.5`, `.5`, `1e-3`, `1.0E+02`); a value that underflows reads
 *     as the nearest double; any finite double, unless the caller computes
 *     in float (pl_mtx_limits's float_why: then |v| up to FLT_MAX). Integer files: whole numbers within
 *     -2^53..2^53, exact in a double. Pattern entries read as 1.0.
 *   - No limit on the length of a line (a 1 MB comment is skipped, and
 *     so are a megabyte of blanks); one word (a number) is at most
 *     PL_MTX_MAX_WORD characters.
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
 * newline; line numbers from 1; a file's last line for one that ends too
 * soon; no line number where there is no line: a file that cannot be
 * opened or read, that is not a regular file, or that is empty). Bytes of
 * the file quoted in a message are escaped where they are not printable
 * ASCII (`\xc2\xa0`, a no-break space; `\x00`), and so are control
 * characters in the file's name, so that the message stays one line and
 * shows what is really there.
 *   - anything but a regular file: a directory, a FIFO, a character or
 *     block device, a socket. The file is opened with O_NONBLOCK and its
 *     type checked (stat, then fstat of what was opened) before a byte is
 *     read, so a FIFO with no writer never blocks and /dev/zero is not an
 *     endless read;
 *   - an empty file, one whose first bytes are not `%%MatrixMarket` (a
 *     UTF-8 or UTF-16 byte-order mark named as such), a banner that has
 *     not exactly four words after `%%MatrixMarket`;
 *   - a carriage return not followed by a line feed outside a comment
 *     (a file with old Mac line ends, CR alone, is one long line 1);
 *   - object `vector`, format `array` (dense), field `complex`, symmetry
 *     `hermitian`, and any unknown word: the labs have no use for them;
 *     `pattern skew-symmetric` (the spec forbids it: no sign to flip);
 *   - a size line that is not three integers, negative sizes, rows or
 *     columns over PL_MTX_MAX_DIM (indices are int on the GPU), entries
 *     over PL_MTX_MAX_NNZ, a symmetric or skew-symmetric matrix that is not
 *     square, and a header that lies: more entries than the matrix has
 *     places for (rows x cols; n(n+1)/2 on and below the diagonal for a
 *     symmetric file, n(n-1)/2 below it for a skew-symmetric one);
 *   - more rows or columns with no entry than PL_MTX_MAX_EMPTY_ROWS and
 *     PL_MTX_MAX_EMPTY_COLS allow, and a matrix that would not fit the
 *     memory budget (both below): named at the size line, before anything
 *     is allocated;
 *   - fewer entries than the size line says ("truncated", named at the
 *     file's last line) or more (named at the first one too many);
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
 *   - what a caller's pl_mtx_limits refuse (pl_mtx_read_within): rows,
 *     columns or entries over its contract's (at the size line; expanded
 *     entries at the entry that passes the limit), and, for a caller that
 *     computes in float, a value whose float is infinite (|v| > 3.4e38)
 *     at its line. The default (pl_mtx_read) takes any finite double.
 *
 * Empty rows and columns: at most 2^24 of each. A matrix may have rows
 * and columns with no entry, but each costs memory whatever the entries:
 * 8 bytes of row_ptr and of y a row, 8 bytes of x a column. So rows <=
 * nnz + PL_MTX_MAX_EMPTY_ROWS and cols <= nnz + PL_MTX_MAX_EMPTY_COLS,
 * checked at the size line with the most entries it allows (twice the
 * stored ones for a symmetric file), and again with the expanded count at
 * the end. A 78-byte file saying `1 2147483647 1` (x of 2^31 - 1 doubles,
 * 16 GiB, for one entry) is refused at its size line; the empty rows and
 * columns of a matrix that is read cost at most 384 MiB. A caller sizes
 * x and y from the pl_csr it gets (cols, rows), never from the file.
 *
 * Memory budget: computed at the size line, before anything is allocated,
 * from the most a valid file with this header can need:
 *   - 16 bytes a stored entry (the entries as read), twice that while
 *     they are sorted;
 *   - the entries and the CSR, 8 (rows + 1) + 12 nnz bytes, while it is
 *     built (nnz: twice the stored entries for a symmetric file);
 *   - the CSR and what the caller allocates from it: pl_mtx_limits's
 *     bytes a row, a column and an entry, by default x and y in double
 *     (8 bytes a column, 8 a row);
 * the largest of the three must fit the budget: the machine's physical
 * memory (sysconf), or pl_mtx_limits's budget. A file too short for the
 * entries it claims (an entry line takes at least 6 bytes, 4 in a pattern
 * file) is sure to be refused as truncated: only the entries its bytes can
 * hold count then, so a 100-byte file claiming 2^31 entries reads to its
 * end and is refused as truncated having allocated a few kilobytes, and
 * one whose bytes could hold more entries than the budget has room for is
 * refused as truncated at its size line.
 *
 * Reading: the first bytes are checked for the banner, then the file is
 * read as a stream through a 64 KiB buffer, one line at a time, keeping of
 * each line its first words (a word's first 128 bytes). A file that is not
 * Matrix Market costs one buffer. A line is scanned only until its words
 * decide it: a comment is skipped whole (no limit on its length), a run of
 * blanks too; a word longer than PL_MTX_MAX_WORD ends the scan, since no
 * such word is valid. The entries' array grows as entries are read
 * (doubling, never past the declared count); the CSR is allocated once
 * the whole file has been read and checked. A duplicate's first line is
 * found by reading the entries again (pl_mtx_read seeks back).
 */
#ifndef PRIMLAB_MTX_H
#define PRIMLAB_MTX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PL_MTX_MAX_DIM 2147483647L        /* rows and cols: INT_MAX */
#define PL_MTX_MAX_NNZ 2147483647L        /* stored and expanded entries */
#define PL_MTX_MAX_EMPTY_ROWS (1L << 24)  /* rows <= nnz + this (128 MiB of row_ptr, 128 of y) */
#define PL_MTX_MAX_EMPTY_COLS (1L << 24)  /* cols <= nnz + this (128 MiB of x) */
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

/* What a caller (a lab) can take, checked by the reader where the file
   shows it, so that each refusal names its line. Zero fields: no limit
   beyond the reader's own. */
typedef struct pl_mtx_limits {
    const char *who;             /* names the limits: "the lab's contract" */
    long max_rows, max_cols;     /* checked at the size line */
    long max_nnz;                /* expanded entries: at the size line (the stored
                                    count), then at the entry that passes it */
    const char *float_why;       /* non-NULL: a value whose float is infinite is
                                    refused at its line, saying this: "the lab
                                    computes in float" */
    /* What the caller allocates from the matrix besides its CSR, in bytes
       a row, a column and an expanded entry, for the memory budget; all 0:
       x and y in double (8 a column, 8 a row). */
    double row_bytes, col_bytes, nnz_bytes;
    double budget;               /* bytes; 0: the machine's physical memory */
} pl_mtx_limits;

/* Reads the file at path into *m. Returns 0, or -1 with *m zeroed and err
   holding "path:line: what is wrong" (one line, truncated to cap). */
int pl_mtx_read(const char *path, pl_csr *m, char *err, size_t cap);

/* The same within a caller's limits (NULL: none, as pl_mtx_read). */
int pl_mtx_read_within(const char *path, const pl_mtx_limits *lim, pl_csr *m, char *err, size_t cap);

/* The same from text[0..len) (not NUL-terminated; NUL bytes are just
   bytes), with name standing for the file in messages. */
int pl_mtx_parse(const char *text, size_t len, const char *name, pl_csr *m, char *err, size_t cap);
int pl_mtx_parse_within(const char *text, size_t len, const char *name, const pl_mtx_limits *lim, pl_csr *m,
                        char *err, size_t cap);

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
   characters escaped (\x0a), and returns -1: for the sparse labs' readers,
   writers and generators. */
__attribute__((format(printf, 3, 4))) int pl_mtx_error(char *err, size_t cap, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
