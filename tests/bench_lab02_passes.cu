/* tests/bench_lab02_passes.cu: where lab 02's part (b) spends its time,
 * pass by pass, with the L2 cache flushed before every timed call as
 * `make check` does: the solution whole, each of its three launches alone
 * (reduce_k reads n words, scan_top_k scans the tile sums, scan_tile_k
 * reads n and writes n), reduce_k and scan_tile_k without the top level,
 * beside a device-to-device copy, a kernel that only reads, and CUB's
 * DeviceScan::ExclusiveSum. Last, an experiment the handout reports: the
 * array cut into chunks of CHUNK tiles, one launch reducing chunk j while
 * scanning chunk j - 1 (which the launch before read, so it may still be
 * in the L2), each scanning block adding up the tile sums of its chunk
 * before it. Every variant is first checked against CUB at sizes that are
 * not multiples of a tile. Needs a GPU of sm_70 or later. A benchmark for
 * lab 02's 0.9x goal, not a test: `make test` does not run it.
 *
 *   tests/bench_lab02_passes.sh [LOG2N ...] (default 24 28) [REPS=31]
 *
 * Output, for each n: ms (median), GB/s of the words the row moves, % of
 * the copy's GB/s, and x CUB for the rows that scan. */
#include "../solutions/02-blelloch-scan/blelloch_tile.cuh"

#include <cub/device/device_scan.cuh>

#define BENCH_NAME "bench_lab02_passes"
#include "bench_common.cuh"
#include "bench_scan.cuh"

#include <string.h>

#define THREADS 256 /* the solution's block */

/* The sum of n4 groups of 16 bytes, grid-strided: the roof of a read. */
__global__ void read_k(const uint4 *in, long n4, unsigned *sink)
{
    unsigned x = 0;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
        uint4 v = in[i];
        x += v.x + v.y + v.z + v.w;
    }
    if (x == 0x9e3779b9u) /* never, in practice: keeps the loads */
        *sink = x;
}

/* ---------------------------------------------- the chunked experiment */

/* The sum of a[0 .. m) over the block; every thread gets it. */
__device__ int block_sum(const int *a, long m)
{
    __shared__ int ws[32], total;
    int x = 0;
    for (long i = threadIdx.x; i < m; i += blockDim.x)
        x += a[i];
    for (int o = 16; o > 0; o /= 2)
        x += __shfl_down_sync(0xffffffffu, x, o);
    if (threadIdx.x % 32 == 0)
        ws[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 32) {
        x = threadIdx.x < blockDim.x / 32 ? ws[threadIdx.x] : 0;
        for (int o = 16; o > 0; o /= 2)
            x += __shfl_down_sync(0xffffffffu, x, o);
        if (threadIdx.x == 0)
            total = x;
    }
    __syncthreads();
    return total;
}

/* Launch j of K + 1 over chunks of T tiles: blocks [0, S) scan chunk j - 1,
   the others sum the tiles of chunk j into sums[] as reduce_k does.
   carry[j]: the total of chunks 0 .. j - 1, written by the block that
   scans the last tile of chunk j - 1, read by launch j + 1. */
__global__ void chunk_k(const int *in, int *out, long n, int *sums, int *carry, long T, long tiles, long j)
{
    __shared__ int warp_sums[32];
    long S = j > 0 ? min(T, tiles - (j - 1) * T) : 0;
    if (blockIdx.x < S) {
        long first = (j - 1) * T, b = blockIdx.x;
        int offset = (j > 1 ? carry[j - 1] : 0) + block_sum(sums + first, b);
        int end = tile_scan<false>(in, out, n, first + b, offset, 0);
        if (b == S - 1 && threadIdx.x == blockDim.x - 1)
            carry[j] = end;
        return;
    }
    long tile = j * T + (blockIdx.x - S);
    int v[2 * ITEMS], x = 0;
    load_items(in, n, (tile * blockDim.x + threadIdx.x) * 2 * ITEMS, v);
#pragma unroll
    for (int k = 0; k < 2 * ITEMS; k++)
        x += v[k];
    for (int o = 16; o > 0; o /= 2)
        x += __shfl_down_sync(0xffffffffu, x, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 32) {
        x = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
        for (int o = 16; o > 0; o /= 2)
            x += __shfl_down_sync(0xffffffffu, x, o);
        if (threadIdx.x == 0)
            sums[tile] = x;
    }
}

static void chunked(const int *in, int *out, long n, int *scratch, long T)
{
    long tile = 2L * ITEMS * THREADS, tiles = (n + tile - 1) / tile, K = (tiles + T - 1) / T;
    int *sums = scratch, *carry = scratch + tiles;
    for (long j = 0; j <= K; j++) {
        long S = j > 0 ? std::min(T, tiles - (j - 1) * T) : 0, R = j < K ? std::min(T, tiles - j * T) : 0;
        chunk_k<<<S + R, THREADS, tree_bytes<false>(THREADS)>>>(in, out, n, sums, carry, T, tiles, j);
    }
}

/* ------------------------------------------------------------- timing */

static void *flush_buf;
static size_t flush_bytes;

/* The median of reps calls of f(), each after a flush of the L2 (a memset
   of twice its size, as the kit's worker does) and two untimed calls. */
template <class F> static float flushed_ms(F f, int reps)
{
    return median_ms_after(f, reps, [](int r) {
        CK(cudaMemsetAsync(flush_buf, r & 0xff, flush_bytes));
        CK(cudaDeviceSynchronize());
    });
}

int main(int argc, char **argv)
{
    const char *r = getenv("REPS");
    const int reps = r ? atoi(r) : 31;
    std::vector<int> logs;
    for (int i = 1; i < argc; i++)
        logs.push_back(atoi(argv[i]));
    if (logs.empty())
        logs = {24, 28};
    for (int lg : logs)
        if (lg < 16 || lg > 29 || reps < 1) {
            fprintf(stderr, "usage: bench_lab02_passes [LOG2N (16..29) ...] (REPS=31 in the environment)\n");
            return 2;
        }
    const long room = (1L << *std::max_element(logs.begin(), logs.end())) + 4096;
    unsigned *d_in, *d_out, *d_ref, *d_sink;
    unsigned long long *d_bad;
    void *d_cub;
    size_t cub_bytes;
    int *d_scratch;
    scan_buffers(room, &d_in, &d_out, &d_ref, &d_bad, &d_cub, &cub_bytes);
    CK(cudaMalloc(&d_scratch, (room / 64 + 4096) * 4));
    CK(cudaMalloc(&d_sink, 4));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    const int sms = p.multiProcessorCount;
    flush_bytes = 2 * (size_t)p.l2CacheSize;
    CK(cudaMalloc(&flush_buf, flush_bytes));
    printf("# %s, %d SMs, L2 %d MiB, CCCL %d.%d.%d; L2 flushed before every call, median of %d\n", p.name, sms,
           p.l2CacheSize >> 20, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, reps);

    const long chunk_tiles[] = {1024, 4096};
    int wrong = 0;
    const long sizes[] = {1, 1000, 40000, 123457, (1L << 22) + 13, (1L << 24) + 5};
    for (long m : sizes) {
        if (m > room - 4096)
            continue;
        long bad = scan_differences(d_in, d_out, d_ref, m, d_bad, d_cub, cub_bytes, [=] {
            blelloch_scan_shared<false>((const int *)d_in, (int *)d_out, m, d_scratch, THREADS, 0);
        });
        for (long T : chunk_tiles)
            if (m > TOP_TILES * 2L * ITEMS * TOP_THREADS) /* below that, the solution's one-block path */
                bad += scan_differences(d_in, d_out, d_ref, m, d_bad, d_cub, cub_bytes,
                                        [=] { chunked((const int *)d_in, (int *)d_out, m, d_scratch, T); });
        if (bad)
            printf("WRONG at n = %ld: %ld elements differ from CUB\n", m, bad), wrong = 1;
    }

    for (int lg : logs) {
        const long n = 1L << lg, tiles = n / (2L * ITEMS * THREADS);
        const int *in = (const int *)d_in;
        int *out = (int *)d_out, *sums = d_scratch;
        fill_words_k<<<1024, 256>>>(d_in, n, 777);
        const double word = 4.0 * n;
        const float t_copy = flushed_ms([=] { cudaMemcpyAsync(out, in, (size_t)word, cudaMemcpyDeviceToDevice); }, reps);
        const float t_cub = flushed_ms([=] {
            size_t b = cub_bytes;
            cub::DeviceScan::ExclusiveSum(d_cub, b, d_in, d_out, (int)n);
        }, reps);
        const double roof = 2 * word / t_copy / 1e6;
        printf("\nn = 2^%d%41s %8s %7s %7s\n", lg, "ms", "GB/s", "% copy", "x CUB");
        auto row = [&](const char *name, float t, double words, int scans) {
            double gbs = words * 4.0 * n / t / 1e6;
            printf("%-48s %8.4f %8.0f %7.1f", name, t, gbs, 100 * gbs / roof);
            if (scans)
                printf(" %7.3f", t_cub / t);
            printf("\n");
            fflush(stdout);
        };
        row("cudaMemcpy device to device", t_copy, 2, 0);
        row("read only (a kernel of 16-byte loads)",
            flushed_ms([=] { read_k<<<sms * 16, 256>>>((const uint4 *)in, n / 4, d_sink); }, reps), 1, 0);
        row("CUB DeviceScan::ExclusiveSum", t_cub, 2, 1);
        row("solution, part (b): 3 launches", flushed_ms([=] {
                blelloch_scan_shared<false>(in, out, n, d_scratch, THREADS, 0);
            }, reps), 3, 1);
        row("  reduce_k alone (reads n)", flushed_ms([=] { reduce_k<<<tiles, THREADS>>>(in, n, sums); }, reps), 1, 0);
        if (tiles <= TOP_TILES * 2L * ITEMS * TOP_THREADS) {
            char name[64];
            snprintf(name, sizeof name, "  scan_top_k alone (%ld tile sums)", tiles);
            row(name, flushed_ms([=] {
                    scan_top_k<false><<<1, TOP_THREADS, tree_bytes<false>(TOP_THREADS)>>>(sums, sums + tiles, tiles, 0);
                }, reps), 0, 0);
        }
        row("  scan_tile_k alone (reads n, writes n)", flushed_ms([=] {
                scan_tile_k<false><<<tiles, THREADS, tree_bytes<false>(THREADS)>>>(in, out, n, sums, 0);
            }, reps), 2, 0);
        row("  reduce_k then scan_tile_k, no top level", flushed_ms([=] {
                reduce_k<<<tiles, THREADS>>>(in, n, sums + tiles);
                scan_tile_k<false><<<tiles, THREADS, tree_bytes<false>(THREADS)>>>(in, out, n, sums, 0);
            }, reps), 3, 0);
        for (long T : chunk_tiles) {
            char name[80];
            long K = (tiles + T - 1) / T;
            snprintf(name, sizeof name, "chunks of %ld tiles (%.0f MiB): %ld launches", T, T * 2.0 * ITEMS * THREADS * 4 / 1048576, K + 1);
            row(name, flushed_ms([=] { chunked(in, out, n, d_scratch, T); }, reps), 3, 1);
        }
    }
    return wrong;
}
