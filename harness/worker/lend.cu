/* harness/worker/lend.cu: the functions a lab's contract may lend to
 * student code (primlab_scan_exclusive here; primlab_phase, in phases.cu).
 * The worker's link keeps global only the functions its lab's contract
 * declares, so a lab that lends none cannot call them. Each call is
 * counted (pl_lent_calls), so that the parent can tell a part that leaned
 * on the vendor library.
 */
#include "allocs.h"
#include "ops.h"

#include <cub/device/device_scan.cuh>

int pl_lent_calls;

/* Temporary storage grows on the first calls and is kept, so warmed-up
   timed calls do not allocate. Its allocations are the harness's, not
   counted against the calling code (allocs.h). */
extern "C" void primlab_scan_exclusive(const int *d_in, int *d_out, int n)
{
    static void *temp = nullptr;
    static size_t have = 0;
    pl_lent_calls++;
    if (n <= 0)
        return;
    size_t need = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n);
    if (need > have) {
        int watched = pl_alloc_pause();
        cudaFree(temp);
        cudaError_t e = cudaMalloc(&temp, need);
        pl_alloc_resume(watched);
        if (e != cudaSuccess) {
            temp = nullptr;
            have = 0;
            return; /* the launch error check reports the failed allocation */
        }
        have = need;
    }
    cub::DeviceScan::ExclusiveSum(temp, have, d_in, d_out, n);
}
