/* hostile: cpu_compute. Every part copies the input to the host, scans it
 * on the CPU and copies the result back: right, and no GPU kernel of its
 * own. The worker reports the CPU time its process used during each call.
 * The grader must give: full correctness points (the results are right),
 * 0 performance points ("computed on the CPU", or simply too slow). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdlib.h>

static void hx_cpu_part(const int *d_in, int *d_out, int n, int exclusive)
{
    if (n <= 0)
        return;
    int *h = (int *)malloc(sizeof(int) * (size_t)n);
    if (!h)
        return;
    cudaMemcpy(h, d_in, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost);
    unsigned acc = 0;
    for (int i = 0; i < n; i++) {
        unsigned x = (unsigned)h[i];
        h[i] = exclusive ? (int)acc : (int)(acc + x);
        acc += x;
    }
    cudaMemcpy(d_out, h, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice);
    free(h);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { hx_cpu_part(d_in, d_out, n, 0); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_scratch; hx_cpu_part(d_in, d_out, n, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_scratch; hx_cpu_part(d_in, d_out, n, 1); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
