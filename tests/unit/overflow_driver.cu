/* tests/unit/overflow_driver.cu: the host side of a lab's entry points at the
 * contract's largest sizes, under UBSan, with no device (tests/unit/test_overflow.sh).
 *
 * Every launch fails at once when CUDA_VISIBLE_DEVICES is empty, so the
 * device pointers may be NULL and nothing runs on a GPU; what runs is the
 * host code that sizes the launches (block counts, tile counts, scratch
 * offsets, byte counts). Computed in int, those overflow near INT_MAX, and
 * UBSan stops the program there with the file and line. Built once per lab
 * with -DLAB=NN and the lab's solution (or any implementation). */
#include <climits>
#include <cstdio>

#if LAB == 1
#include "prefix_sum.h"
#elif LAB == 2
#include "blelloch_scan.h"
#elif LAB == 3
#include "bank_conflicts.h"
#elif LAB == 4
#include "compaction.h"
#elif LAB == 5
#include "radix_sort.h"
#elif LAB == 9
#include "onesweep_sort.h"
#endif

/* The functions a contract lends, as nothing: the harness's own are not
   under test here. */
#if LAB == 4 || LAB == 5
extern "C" void primlab_scan_exclusive(const int *, int *, int) {}
#endif
#if LAB == 5
extern "C" void primlab_phase(const char *) {}
#endif

int main()
{
    /* the limit itself, one below, and sizes just past a block, a tile and
       a power of two below it (lab 09's limit is OS_MAX_N, 2^30) */
#if LAB == 9
    const int sizes[] = {OS_MAX_N, OS_MAX_N - 1, OS_MAX_N - 1000, OS_MAX_N - 1023, (1 << 29) + 1};
#else
    const int sizes[] = {INT_MAX, INT_MAX - 1, INT_MAX - 1000, INT_MAX - 1023, (1 << 30) + 1};
#endif
    for (int n : sizes) {
#if LAB == 1
        scan_inclusive(nullptr, nullptr, n, nullptr);
        for (int t = 32; t <= 1024; t *= 2)
            scan_inclusive_threads(nullptr, nullptr, n, nullptr, t);
        scan_exclusive(nullptr, nullptr, n, nullptr);
#elif LAB == 2
        scan_blelloch_global(nullptr, nullptr, n, nullptr);
        scan_blelloch_shared(nullptr, nullptr, n, nullptr);
        for (int t = 32; t <= 1024; t *= 2)
            scan_blelloch_shared_threads(nullptr, nullptr, n, nullptr, t);
        scan_blelloch_inclusive(nullptr, nullptr, n, nullptr);
        scan_warp_safe(nullptr, nullptr, n);
        scan_warp_unsafe(nullptr, nullptr, n);
        scan_warp_unsafe_novolatile(nullptr, nullptr, n);
#elif LAB == 3
        scan_unpadded(nullptr, nullptr, n, nullptr);
        scan_padded(nullptr, nullptr, n, nullptr);
#elif LAB == 4
        compact_flags(nullptr, nullptr, n);
        compact_scan(nullptr, nullptr, n, nullptr);
        compact_warp(nullptr, nullptr, n, nullptr);
        for (int t = 32; t <= 1024; t *= 2)
            compact_warp_threads(nullptr, nullptr, n, nullptr, t);
#elif LAB == 5
        radix_sort_split(nullptr, nullptr, n, nullptr);
        radix_sort_4bit(nullptr, nullptr, n, nullptr);
        for (int t = 32; t <= 1024; t *= 2)
            radix_sort_4bit_threads(nullptr, nullptr, n, nullptr, t);
        radix_sort_pairs(nullptr, nullptr, nullptr, nullptr, n, nullptr);
        radix_sort_int(nullptr, nullptr, n, nullptr);
        radix_sort_float(nullptr, nullptr, n, nullptr);
        for (int bits = 1; bits <= 8; bits *= 2)
            radix_sort_bits(nullptr, nullptr, n, bits, nullptr);
#elif LAB == 9
        onesweep_histogram(nullptr, n, nullptr, nullptr);
        for (int shift = 0; shift < 32; shift += 8) {
            onesweep_pass_chained(nullptr, nullptr, n, shift, nullptr, nullptr);
            onesweep_pass_lookback(nullptr, nullptr, n, shift, nullptr, nullptr);
        }
        onesweep_sort_keys(nullptr, nullptr, n, nullptr);
        onesweep_sort_pairs(nullptr, nullptr, nullptr, nullptr, n, nullptr);
#endif
    }
#if LAB == 3
    const int sides[] = {BC_MAX_SIDE, BC_MAX_SIDE - 1, BC_MAX_SIDE - 1000};
    for (int side : sides) {
        transpose_naive(nullptr, nullptr, side);
        transpose_tiled(nullptr, nullptr, side);
        transpose_padded(nullptr, nullptr, side);
        transpose_swizzled(nullptr, nullptr, side);
    }
#endif
    std::printf("lab %02d: host code sized every call up to the limit without overflow\n", LAB);
    return 0;
}
