/* tests/fuzz/fuzz_mtx.c: the Matrix Market reader (harness/parent/mtx.c)
 * under libFuzzer, with ASan and UBSan. Built and run by `make fuzz`
 * (FUZZ_SECONDS=600 by default) on the seeds in tests/fuzz/corpus and
 * tests/mtx; new inputs go to build/fuzz/corpus, a crash's to
 * build/fuzz/crashes.
 *
 * Every input must be either read, giving a CSR that passes pl_csr_check
 * (rows, sorted columns, finite values, symmetric expansion), or refused
 * with one line that names the file, the pl_csr left zeroed. Anything
 * else aborts, and libFuzzer keeps the input. */
#include "../../harness/parent/mtx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const pl_csr zero;
    pl_csr m;
    char err[256], why[256];
    if (pl_mtx_parse((const char *)data, size, "fuzz.mtx", &m, err, sizeof err) == 0) {
        if (pl_csr_check(&m, why, sizeof why) != 0) {
            fprintf(stderr, "fuzz_mtx: read, but the CSR is broken: %s\n", why);
            abort();
        }
        pl_csr_free(&m);
        return 0;
    }
    if (strncmp(err, "fuzz.mtx:", 9) || strchr(err, '\n') || memchr(err, '\0', sizeof err) == NULL) {
        fprintf(stderr, "fuzz_mtx: refused with a malformed message\n");
        abort();
    }
    if (memcmp(&m, &zero, sizeof m)) {
        fprintf(stderr, "fuzz_mtx: refused, but the pl_csr is not zeroed\n");
        abort();
    }
    return 0;
}
