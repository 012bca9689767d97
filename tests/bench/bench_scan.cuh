/* tests/bench/bench_scan.cuh: what the scan sweeps (tests/bench/bench_lab02_knobs.cu,
 * tests/bench/bench_lab08_knobs.cu) share beside bench_common.cuh: the check of
 * a scan against CUB's exclusive sum, and their buffers. Include after
 * bench_common.cuh. */
#ifndef PRIMLAB_BENCH_SCAN_CUH
#define PRIMLAB_BENCH_SCAN_CUH

#include <cub/device/device_scan.cuh>

/* How many of n words call() gets wrong as an exclusive scan of in into
   out, against CUB's into ref (tmp: CUB's scratch, tmp_bytes of it); see
   bench_differences. */
template <class F>
static long scan_differences(unsigned *in, unsigned *out, unsigned *ref, long n, unsigned long long *bad, void *tmp,
                             size_t tmp_bytes, F call)
{
    return bench_differences(
        in, out, ref, n, bad,
        [=] {
            size_t b = tmp_bytes;
            CK(cub::DeviceScan::ExclusiveSum(tmp, b, in, ref, (int)n));
        },
        call);
}

/* The device buffers of a scan sweep for up to room words: input, output
   and reference, the counter of differing words, and CUB's scratch. */
static void scan_buffers(long room, unsigned **in, unsigned **out, unsigned **ref, unsigned long long **bad, void **tmp,
                         size_t *tmp_bytes)
{
    CK(cudaMalloc(in, room * 4));
    CK(cudaMalloc(out, room * 4));
    CK(cudaMalloc(ref, room * 4));
    CK(cudaMalloc(bad, 8));
    CK(cub::DeviceScan::ExclusiveSum(nullptr, *tmp_bytes, *in, *out, (int)room));
    CK(cudaMalloc(tmp, *tmp_bytes));
}

#endif
