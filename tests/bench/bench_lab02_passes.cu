/* tests/bench/bench_lab02_passes.cu: where lab 02's part (b) spends its time,
 * pass by pass, with the L2 cache flushed before every timed call as
 * `make check` does: the solution whole, each of its three launches alone
 * (reduce_k reads n words, scan_top_k scans the tile sums, scan_tile_k
 * reads n and writes n), reduce_k and scan_tile_k without the top level,
 * beside a device-to-device copy, a kernel that only reads, and CUB's
 * DeviceScan::ExclusiveSum. Last, an experiment the handout reports: the
 * array cut into chunks of CHUNK tiles, one launch reducing chunk j while
 * scanning chunk j - 1 (which the launch before read, so it may still be
 * in the L2), each scanning block adding up the tile sums of its chunk
 * before it. Then a second: one cooperative launch of as many blocks as
 * the GPU holds at once, walking the array in rounds (rounds_k below), so
 * that the input is read once. Every variant is first checked against CUB
 * at sizes that are not multiples of a tile. Needs a GPU of sm_70 or
 * later. A benchmark, not a test (`make test` does not run it): what it
 * measures is where part (b)'s time goes beside the copy's and CUB's, and
 * how close two ways of reading the input once come to CUB. Each call is
 * timed from an idle GPU, the flush waited for and no hold: the host's
 * work for the call (CUB's set-up before its first kernel) is in the time,
 * which at 2^24 makes CUB slower and the ratios higher than the kit's
 * `run` and `make check` give (lab 02's handout, section 13).
 *
 *   tests/bench/bench_lab02_passes.sh [LOG2N ...] (default 24 28) [REPS=31]
 *
 * Output, for each n: ms (median), GB/s of the words the row moves, % of
 * the copy's GB/s, and x CUB for the rows that scan. */
#include "../../solutions/02-blelloch-scan/blelloch_tile.cuh"

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

/* The block's sum of x, for every thread; red: 33 ints of shared memory. */
__device__ int block_total(int x, int *red)
{
    for (int o = 16; o > 0; o /= 2)
        x += __shfl_down_sync(0xffffffffu, x, o);
    __syncthreads(); /* red's last use is over */
    if (threadIdx.x % 32 == 0)
        red[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 32) {
        x = threadIdx.x < blockDim.x / 32 ? red[threadIdx.x] : 0;
        for (int o = 16; o > 0; o /= 2)
            x += __shfl_down_sync(0xffffffffu, x, o);
        if (threadIdx.x == 0)
            red[32] = x;
    }
    __syncthreads();
    return red[32];
}

/* ---------------------------------------------- the chunked experiment */

/* The sum of a[0 .. m) over the block; every thread gets it. */
__device__ int block_sum(const int *a, long m)
{
    __shared__ int red[33];
    int x = 0;
    for (long i = threadIdx.x; i < m; i += blockDim.x)
        x += a[i];
    return block_total(x, red);
}

/* Launch j of K + 1 over chunks of T tiles: blocks [0, S) scan chunk j - 1,
   the others sum the tiles of chunk j into sums[] as reduce_k does.
   carry[j]: the total of chunks 0 .. j - 1, written by the block that
   scans the last tile of chunk j - 1, read by launch j + 1. */
__global__ void chunk_k(const int *in, int *out, long n, int *sums, int *carry, long T, long tiles, long j)
{
    __shared__ int warp_sums[33];
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
    x = block_total(x, warp_sums);
    if (threadIdx.x == 0)
        sums[tile] = x;
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

/* ----------------------------------------------- the rounds experiment */

/* Every block of a grid that the GPU holds at once (a cooperative launch)
   takes, in round r, the piece of ROUND_TILES tiles numbered r * P + b
   (P blocks). It loads the piece into registers and publishes its sum in
   flags[r * P + b], tagged with the call's epoch in the high word; then it
   reads every sum of the round (its offset is the sums of the blocks
   before it, plus the totals of the rounds before) and scans the piece
   from its registers, tile after tile. The next round's piece is loaded
   and published before the wait. The input is read once, but each round
   waits for its slowest block. */
#define ROUND_TILES 2 /* the best of 1, 2, 4 and 8 on an H200 (2026-11-28) */
#define ROUND_BLOCKS 4 /* per SM, at most: 4 and 8 tied, 1 and 2 were slower */

__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* Loads piece `piece` (0 past n) and publishes its sum. */
__device__ void load_piece(const int *in, long n, long piece, int v[ROUND_TILES][2 * ITEMS], unsigned long long *flag,
                           unsigned epoch, int *red)
{
    int x = 0;
#pragma unroll
    for (int k = 0; k < ROUND_TILES; k++) {
        load_items(in, n, ((piece * ROUND_TILES + k) * blockDim.x + threadIdx.x) * 2 * ITEMS, v[k]);
#pragma unroll
        for (int j = 0; j < 2 * ITEMS; j++)
            x += v[k][j];
    }
    x = block_total(x, red);
    if (threadIdx.x == 0)
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"((unsigned long long)epoch << 32 | (unsigned)x)
                     : "memory");
}

__global__ void __launch_bounds__(THREADS) rounds_k(const int *in, int *out, long n, unsigned long long *flags,
                                                     unsigned epoch)
{
    extern __shared__ int s[];
    __shared__ int red[33], end_s;
    const long P = gridDim.x, b = blockIdx.x, piece = ROUND_TILES * 2L * ITEMS * blockDim.x;
    const long R = (n + piece * P - 1) / (piece * P);
    int cur[ROUND_TILES][2 * ITEMS], next[ROUND_TILES][2 * ITEMS], carry = 0;
    load_piece(in, n, b, cur, flags + b, epoch, red);
    for (long r = 0; r < R; r++) {
        if (r + 1 < R)
            load_piece(in, n, (r + 1) * P + b, next, flags + (r + 1) * P + b, epoch, red);
        int before = 0, all = 0;
        for (long i = threadIdx.x; i < P; i += blockDim.x) {
            unsigned long long f;
            do
                f = ld_relaxed(flags + r * P + i);
            while ((unsigned)(f >> 32) != epoch);
            all += (int)(unsigned)f;
            before += i < b ? (int)(unsigned)f : 0;
        }
        int offset = carry + block_total(before, red);
        carry += block_total(all, red);
#pragma unroll
        for (int k = 0; k < ROUND_TILES; k++) { /* tile_scan's steps, from the registers */
            long base = (((r * P + b) * ROUND_TILES + k) * blockDim.x + threadIdx.x) * 2 * ITEMS;
            int lo = 0, hi = 0;
#pragma unroll
            for (int j = 0; j < ITEMS; j++)
                lo += cur[k][j], hi += cur[k][ITEMS + j];
            s[2 * threadIdx.x] = lo, s[2 * threadIdx.x + 1] = hi;
            tree_scan<false>(s);
            int acc = offset + s[2 * threadIdx.x], w[2 * ITEMS];
#pragma unroll
            for (int j = 0; j < 2 * ITEMS; j++)
                w[j] = acc, acc += cur[k][j];
            if (2 * ITEMS % 4 == 0 && base + 2 * ITEMS <= n && ((uintptr_t)(out + base) & 15) == 0) {
#pragma unroll
                for (int q = 0; q < 2 * ITEMS / 4; q++)
                    ((int4 *)(out + base))[q] = make_int4(w[4 * q], w[4 * q + 1], w[4 * q + 2], w[4 * q + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 2 * ITEMS; j++)
                    if (base + j < n)
                        out[base + j] = w[j];
            }
            if (threadIdx.x == blockDim.x - 1)
                end_s = acc;
            __syncthreads(); /* end_s written, s read */
            offset = end_s;
            __syncthreads(); /* end_s read before the next tile writes it */
        }
        if (r + 1 < R)
#pragma unroll
            for (int k = 0; k < ROUND_TILES; k++)
#pragma unroll
                for (int j = 0; j < 2 * ITEMS; j++)
                    cur[k][j] = next[k][j];
    }
}

static unsigned long long *round_flags; /* its own buffer: no other sum ever carries an epoch's tag */
static int round_grid;                   /* blocks the GPU holds at once, ROUND_BLOCKS an SM at most */

static void rounds(const int *in, int *out, long n)
{
    static unsigned epoch;
    long piece = ROUND_TILES * 2L * ITEMS * THREADS, P = std::min((long)round_grid, (n + piece - 1) / piece);
    ++epoch;
    void *args[] = {(void *)&in, (void *)&out, (void *)&n, (void *)&round_flags, (void *)&epoch};
    CK(cudaLaunchCooperativeKernel((void *)rounds_k, dim3((unsigned)P), dim3(THREADS), args, tree_bytes<false>(THREADS), 0));
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

    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rounds_k, THREADS, tree_bytes<false>(THREADS)));
    round_grid = std::min(per_sm, ROUND_BLOCKS) * sms;
    CK(cudaMalloc(&round_flags, (room / (ROUND_TILES * 2L * ITEMS * THREADS) + round_grid + 1) * 8));
    CK(cudaMemset(round_flags, 0, (room / (ROUND_TILES * 2L * ITEMS * THREADS) + round_grid + 1) * 8));

    const long chunk_tiles[] = {1024, 4096};
    int wrong = 0;
    const long sizes[] = {1, 1000, 40000, 123457, (1L << 22) + 13, (1L << 24) + 5, 100000007};
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
        bad += scan_differences(d_in, d_out, d_ref, m, d_bad, d_cub, cub_bytes,
                                [=] { rounds((const int *)d_in, (int *)d_out, m); });
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
        char name[80];
        long piece = ROUND_TILES * 2L * ITEMS * THREADS;
        snprintf(name, sizeof name, "one launch in rounds: %ld blocks, %ld rounds", std::min((long)round_grid, n / piece),
                 (n + piece * round_grid - 1) / (piece * round_grid));
        row(name, flushed_ms([=] { rounds(in, out, n); }, reps), 2, 1);
    }
    return wrong;
}
