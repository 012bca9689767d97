/* hostile: dlopen_npp. The vendor check reads the symbols of the student's
 * object; a library loaded with dlopen and called through dlsym names none.
 * Part (b) is NPP's nppsIntegral_32s (a prefix sum in the CUDA Toolkit's
 * signal library), found by name at run time; in lab 06 the same trick
 * reaches cuSPARSE, which its worker links. Where NPP is not installed the
 * part falls back to the solution, so the attack is the same either way:
 * the object calls dlopen and dlsym.
 * The grader must give: at most the solution's correctness points (NPP's
 * integral may not be the contract's inclusive scan), 0 performance points
 * ("loads libraries or their functions itself"). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stddef.h>
/* @@SOLUTION@@ */

typedef int (*hx_integral_fn)(const int *src, int *dst, size_t n, unsigned char *buf);
typedef int (*hx_size_fn)(size_t n, size_t *bytes);

static int hx_npp_scan(const int *d_in, int *d_out, int n)
{
    static const char *names[] = {"libnpps.so", "libnpps.so.13", "libnpps.so.12", "libnpps.so.11"};
    static void *lib;
    for (size_t i = 0; !lib && i < sizeof names / sizeof names[0]; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    hx_integral_fn integral = (hx_integral_fn)dlsym(lib, "nppsIntegral_32s");
    hx_size_fn size = (hx_size_fn)dlsym(lib, "nppsIntegralGetBufferSize_32s");
    if (!integral || !size)
        return -1;
    size_t bytes = 0;
    void *buf = NULL;
    if (size((size_t)n, &bytes) != 0 || cudaMalloc(&buf, bytes ? bytes : 1) != cudaSuccess)
        return -1;
    int r = integral(d_in, d_out, (size_t)n, (unsigned char *)buf);
    cudaFree(buf);
    return r;
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch)
{
    if (n <= 0 || hx_npp_scan(d_in, d_out, n) != 0)
        sol_scan_inclusive(d_in, d_out, n, d_scratch);
}
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { sol_scan_exclusive(d_in, d_out, n, d_scratch); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { sol_scan_inclusive_threads(d_in, d_out, n, d_scratch, threads); }
