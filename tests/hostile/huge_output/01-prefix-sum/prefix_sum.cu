/* hostile: huge_output. Prints 300 MiB from a constructor, and 1 MiB more
 * on stdout and stderr at every call, hoping to fill the disk through the
 * log, flood the report, or stall the grader on a full pipe. The student's
 * prints go to a log capped at 1 MiB per lab (64 KiB per test); the report
 * only says how much was printed.
 * The grader must give: 0, like the stub; a log of about 1 MiB; a short
 * report; grading finishes. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

static void hx_print_mib(FILE *f, int mib)
{
    static char buf[1 << 20];
    if (!buf[0]) {
        memset(buf, 'x', sizeof buf);
        for (size_t i = 79; i < sizeof buf; i += 80)
            buf[i] = '\n';
    }
    for (int k = 0; k < mib; k++)
        fwrite(buf, 1, sizeof buf, f);
    fflush(f);
}

__attribute__((constructor)) static void hx_ctor_huge_output(void) { hx_print_mib(stdout, 300); }

static void hx_more(void) { hx_print_mib(stdout, 1), hx_print_mib(stderr, 1); }
extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; hx_more(); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_more(); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; hx_more(); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
