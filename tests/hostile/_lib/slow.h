/* tests/hostile/_lib/slow.h: the solution made slower by a fixed amount,
 * the yardstick of the timing attacks: parts (b) and (c) spin HX_SLOW_NS on
 * the GPU after the real scan, on hx_stream. slow_honest is this and nothing
 * else; a timing attack built on it must not earn more performance points
 * than slow_honest (they share the code, only the attack differs). Needs
 * the solution (its SOLUTION marker) inlined before it. */
#define HX_SLOW_NS 300000LL /* 0.3 ms per call: about half the solution's speed or less */

__global__ void hx_spin_k(long long ns)
{
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
}

static void hx_slow_scan(const int *d_in, int *d_out, int n, int *d_scratch, int exclusive)
{
    if (exclusive)
        sol_scan_exclusive(d_in, d_out, n, d_scratch);
    else
        sol_scan_inclusive(d_in, d_out, n, d_scratch);
    if (n > 0)
        hx_spin_k<<<1, 1, 0, hx_stream>>>(HX_SLOW_NS);
}
