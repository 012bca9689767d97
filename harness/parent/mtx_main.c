/* harness/parent/mtx_main.c: build/mtx-check, Matrix Market files checked
 * by the reader the sparse labs use (harness/parent/mtx.h has its rules).
 *
 *   build/mtx-check FILE...
 *
 * For each file it reads, one tab-separated line on stdout: the file, rows,
 * columns, entries of the expanded matrix (nnz), entries stored in the
 * file, field, symmetry. For each file it refuses, the reader's one line
 * "FILE:LINE: what is wrong" on stderr ("FILE: what is wrong" where there
 * is no line: a file that is empty, cannot be opened, or is not a regular
 * file, which is refused before a byte of it is read). Exit status: 0 when
 * every file was read, 2 when one was refused (every file is still tried)
 * or on bad usage. The reader's own limits only: a lab adds its contract's
 * (build/labNN run --matrix FILE says what the lab makes of a file).
 */
#include "mtx.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: mtx-check FILE...\n"
                "reads each FILE (a regular file) as the sparse labs' Matrix Market reader does, and prints,\n"
                "per file read: file rows cols nnz(expanded) stored field symmetry (tab-separated);\n"
                "per file refused: FILE:LINE: reason (FILE: reason where there is no line), on stderr (exit status 2)\n");
        return argc < 2 ? 2 : 0;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        pl_csr m;
        char err[1024];
        if (pl_mtx_read(argv[i], &m, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            status = 2;
            continue;
        }
        printf("%s\t%ld\t%ld\t%ld\t%ld\t%s\t%s\n", argv[i], m.rows, m.cols, m.nnz, m.stored, m.field, m.symmetry);
        pl_csr_free(&m);
    }
    return status;
}
