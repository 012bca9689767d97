/* tests/unit/fuzz/fuzz_mtx.c: the Matrix Market reader (harness/parent/mtx.c)
 * under libFuzzer, with ASan and UBSan. Built and run by `make fuzz`
 * (FUZZ_SECONDS=600 by default) on the seeds in tests/unit/fuzz/corpus and
 * tests/fixtures/mtx; new inputs go to build/fuzz/corpus, a crash's to
 * build/fuzz/crashes.
 *
 * Every input must be either read, giving a CSR that passes pl_csr_check
 * (rows, sorted columns, finite values, symmetric expansion), or refused
 * with one line that names the file, the pl_csr left zeroed. Then:
 *   - read from a file (a memfd, a regular file, through the reader's
 *     stream; `make fuzz` builds mtx.c with a buffer of a few bytes, so
 *     that every line, CRLF and word meets the buffer's edge somewhere),
 *     it gives the same matrix or the same line as from memory (but for
 *     matrices of over 2^20 rows and columns, most of them empty);
 *   - within a lab's limits (small sizes, float's range, a small budget)
 *     it is refused with one line, or read as the same matrix, within
 *     them: limits refuse, they never change a matrix.
 * Anything else aborts, and libFuzzer keeps the input. */
#define _GNU_SOURCE
#include "../../../harness/parent/mtx.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void die(const char *why)
{
    fprintf(stderr, "fuzz_mtx: %s\n", why);
    abort();
}

static int same_csr(const pl_csr *a, const pl_csr *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz && a->stored == b->stored &&
           !strcmp(a->field, b->field) && !strcmp(a->symmetry, b->symmetry) &&
           !memcmp(a->row_ptr, b->row_ptr, (size_t)(a->rows + 1) * sizeof *a->row_ptr) &&
           (a->nnz == 0 || (!memcmp(a->col, b->col, (size_t)a->nnz * sizeof *a->col) &&
                            !memcmp(a->val, b->val, (size_t)a->nnz * sizeof *a->val)));
}

/* One line naming name, and the pl_csr zeroed. */
static void assert_refused(const char *err, size_t cap, const char *name, const pl_csr *m)
{
    static const pl_csr zero;
    size_t n = strlen(name);
    if (memchr(err, '\0', cap) == NULL || strncmp(err, name, n) || err[n] != ':' || strchr(err, '\n'))
        die("refused with a malformed message");
    if (memcmp(m, &zero, sizeof *m))
        die("refused, but the pl_csr is not zeroed");
}

/* The same bytes from a regular file: the same outcome as from memory. */
static void read_as_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("fuzz.mtx", 0);
        if (fd < 0)
            die("memfd_create failed");
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        die("cannot write the memfd");
    pl_csr a, b;
    char ea[512], eb[512];
    int ra = pl_mtx_read(path, &a, ea, sizeof ea), rb = pl_mtx_parse((const char *)data, size, path, &b, eb, sizeof eb);
    if (ra != rb || (ra == 0 && !same_csr(&a, &b)) || (ra != 0 && strcmp(ea, eb))) {
        fprintf(stderr, "file: %s\nmemory: %s\n", ra ? ea : "read", rb ? eb : "read");
        die("a file and the same bytes in memory read differently");
    }
    pl_csr_free(&a);
    pl_csr_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const pl_mtx_limits lab = {.who = "the fuzzer's lab", .max_rows = 1000, .max_cols = 2000, .max_nnz = 5000,
                                      .float_why = "the fuzzer's lab computes in float", .budget = 1 << 20};
    pl_csr m, l;
    char err[256], why[256];
    const char *text = (const char *)data;
    int rc = pl_mtx_parse(text, size, "fuzz.mtx", &m, err, sizeof err);
    if (rc == 0 && pl_csr_check(&m, why, sizeof why) != 0) {
        fprintf(stderr, "fuzz_mtx: read, but the CSR is broken: %s\n", why);
        abort();
    }
    if (rc != 0)
        assert_refused(err, sizeof err, "fuzz.mtx", &m);

    if (pl_mtx_parse_within(text, size, "fuzz.mtx", &lab, &l, err, sizeof err) == 0) {
        if (rc != 0 || !same_csr(&l, &m))
            die("read within limits, but not as without them");
        if (l.rows > lab.max_rows || l.cols > lab.max_cols || l.nnz > lab.max_nnz)
            die("read, but over the limits");
        for (long e = 0; e < l.nnz; e++)
            if (isinf((float)l.val[e]))
                die("read, but a value is infinite in float");
        pl_csr_free(&l);
    } else {
        assert_refused(err, sizeof err, "fuzz.mtx", &l);
    }
    /* (not for a matrix of millions of empty rows or columns, which the
       size line alone makes: three more CSRs of it outlast -timeout) */
    int big = rc == 0 && m.rows + m.cols > (1L << 20);
    if (rc == 0)
        pl_csr_free(&m);
    if (!big)
        read_as_file(data, size);
    return 0;
}
