/* tests/gpu/wrong_scans.cu: deliberately wrong scans, to prove on a real device
 * that the harness catches and names each kind of bug (tests/gpu/test_gpu_harness.c).
 * Each has the shape of a lab part (pl_gpu_op) and claims to compute an
 * inclusive scan. Not a lab's code: a fake lab, as tests/unit/fake_worker.c is
 * for the CPU tests. */
#include <cuda_runtime.h>

/* One thread, the serial definition: slow but obviously right, so each bug
 * below is the only thing wrong. skip_last, shift and block change it. */
__global__ void serial_scan(const int *in, int *out, int n, int skip_last, int exclusive, int block)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        if (block && i % block == 0)
            acc = 0; /* block sums never carried over */
        int x = in[i];
        if (exclusive)
            out[i] = acc;
        acc += x;
        if (!exclusive && !(skip_last && i == n - 1))
            out[i] = acc;
    }
}

__global__ void poke(int *p, int value) { *p = value; }
__global__ void spin(volatile int *flag)
{
    while (*flag == 0) /* the flag is never set */
        ;
}

extern "C" {
void planted_correct(const int *in, int *out, int n, int *s) { (void)s; serial_scan<<<1, 1>>>(in, out, n, 0, 0, 0); }
void planted_skip_last(const int *in, int *out, int n, int *s) { (void)s; serial_scan<<<1, 1>>>(in, out, n, 1, 0, 0); }
void planted_exclusive(const int *in, int *out, int n, int *s) { (void)s; serial_scan<<<1, 1>>>(in, out, n, 0, 1, 0); }
void planted_no_carry(const int *in, int *out, int n, int *s) { (void)s; serial_scan<<<1, 1>>>(in, out, n, 0, 0, 1024); }
void planted_past_end(const int *in, int *out, int n, int *s)
{
    planted_correct(in, out, n, s);
    poke<<<1, 1>>>(out + n, 42);
}
void planted_before_start(const int *in, int *out, int n, int *s)
{
    planted_correct(in, out, n, s);
    poke<<<1, 1>>>(out - 1, 42);
}
void planted_fault(const int *in, int *out, int n, int *s)
{
    (void)in, (void)out, (void)n, (void)s;
    poke<<<1, 1>>>((int *)8, 42); /* far outside any allocation */
}
void planted_hang(const int *in, int *out, int n, int *s)
{
    (void)in, (void)n, (void)s;
    cudaMemsetAsync(out, 0, sizeof(int));
    spin<<<1, 1>>>(out);
}
void planted_zero_launch(const int *in, int *out, int n, int *s)
{
    (void)s;
    serial_scan<<<n > 0 ? 1 : 0, 1>>>(in, out, n, 0, 0, 0); /* n = 0: an invalid launch */
}
}
