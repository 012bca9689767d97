/* solutions/09-onesweep-sort/onesweep_sort.cu: lab 09's reference solution,
 * the onesweep radix sort, built like CUB's: run with
 * `make check LAB=09 IMPL=solutions`.
 *
 *   (a) hist_k1: every block reads a stretch of the keys as uint4, counts
 *       all four digits in shared histograms (4 x 256 bins, HIST_COPIES
 *       copies of each, a lane counting into copy lane % HIST_COPIES) and
 *       adds them into global counts; bases_k2 turns the 4 x 256 counts
 *       into exclusive bases, one block.
 *   (b), (c) pass_k3: one kernel, a template on the look-back. A tile of
 *       TILE = THREADS * ITEMS keys, loaded warp-striped (lane l of warp w
 *       holds keys w*32*ITEMS + j*32 + l, j = 0 .. ITEMS-1: coalesced, and
 *       in input order within the warp when read j by j, lane by lane);
 *       each warp ranks its keys into a shared histogram of its own (the
 *       lanes of one digit found with eight ballots, the first of them
 *       adding their number to the warp's count, RANK_LEADER); one pass
 *       over the warps' histograms gives
 *       each digit's count in the tile and each warp's start within it, a
 *       block scan the digits' starts in the tile; then the first 256
 *       threads, one per digit, find the digit's prefix over earlier tiles
 *       from the status words (chained: wait for tile t - 1's inclusive
 *       count; look-back: add aggregates until an inclusive count), and
 *       publish their own. Keys go to shared memory in tile-sorted order,
 *       then out to global memory in that order, each run of one digit to
 *       consecutive addresses.
 *   (d) (a), then four passes of (c) between the output and the scratch's
 *       ping-pong arrays, keys only or with values.
 *
 * Status word of (tile, digit): 2 bits of flag (0: nothing yet, A: the
 * tile's count of the digit, P: the count over tiles 0 .. t) and 30 bits of
 * count, stored and loaded whole through cuda::atomic_ref (relaxed, device
 * scope): the count travels with its flag, so no fence is needed between
 * them, and no other data passes between tiles. The last tile publishes no
 * P: its inclusive count could reach 2^30, which 30 bits cannot hold, and
 * no tile reads it. The sort clears the words once, not before each pass:
 * its odd passes write P as ST_P_ODD, so that a word the pass before left
 * at its own P reads as "nothing yet".
 *
 * Tiles are taken in launch order from the pass's counter in d_scratch, so
 * a tile only waits for tiles that running blocks hold.
 */
#include "onesweep_sort.h"

#include <cuda/atomic>
#include <cuda_runtime.h>

#define FULL 0xffffffffu

/* The digit pass's defaults, parts (b) and (c) (pass_k3 is a template on
   them; tests/bench/bench_lab09_knobs.cu times others): 384 threads of 17 keys,
   a tile of 6528 keys, ranked by RANKING (RANK_LEADER), three blocks an SM
   asked of the compiler (56 registers a thread: 65536 / (3 x 384) = 56.9),
   no early counts. */
#define THREADS 384
#define ITEMS 17
#define BLOCKS_PER_SM 3

/* The whole sort's, part (d): longer tiles, which the bench found faster
   however they spill. Keys: 256 threads of 28 keys (tiles of 7168), four
   blocks an SM (64 registers); pairs, whose values ride along: 384 threads
   of 21 (tiles of 8064, CUB's shape for sm_80; for sm_90 and sm_100 CUB
   takes 384 x 23 for pairs and 384 x 20 for keys), three blocks an SM
   (56 registers: it spills). On an H100 at 2^28 the bench measured keys in
   6.36 ms (1.01x CUB) and pairs in 9.44 ms (0.93x, two blocks an SM),
   where 384 x 17 took 6.86 and 10.20 ms; the first version,
   __match_any_sync and 15 keys a thread, took 10.6 and 13.1 ms. On an
   H200 (2026-11-29, one run of the bench, median of 11) pairs of 384 x 21
   took 8.98 ms at two blocks an SM (0.83x CUB's 7.47) and 8.14 ms at
   three (0.92x); at 2^24 the two tie (0.83x and 0.82x, median of 15).
   Three blocks an SM was not timed on an H100. */
#define SORT_THREADS 256
#define SORT_ITEMS 28
#define SORT_BLOCKS_PER_SM 4
/* Up to this many keys the passes' own tiles of 384 x 17 sort faster
   (sweeps on an H100: 0.86x CUB at 2^24 against 0.82x, 0.86x at 2^16
   against 0.74x); at 2^25 the two tie, and from 2^26 the long tiles win.
   The switch sits at 2^24, not between it and 2^25, so that the tests'
   2^24 + 1 keys sort with the long tiles: both paths run in the tests,
   though no test size sits one past a long tile (the handout's section
   2.4 says which boundary each size tests; tests/unit/test_lab09_tiles.sh
   checks it against these constants). */
#define SORT_SHORT_TILES_UP_TO (1L << 24)
#define PAIR_THREADS 384
#define PAIR_ITEMS 21
#define PAIR_BLOCKS_PER_SM 3

/* How a warp ranks a digit among its lanes (tests/bench/bench_lab09_knobs.cu
   times each): RANK_MATCH, __match_any_sync; RANK_BALLOT, one ballot per
   bit of the digit; then every lane reads the warp's count of the digit and
   the first of its peers writes it back. RANK_LEADER: the ballots, then the
   first of the peers alone adds to the count (an atomic that returns the
   count before) and hands what it read to its peers with a shuffle. That
   is CUB's own way (cub::MatchAny, a ballot loop, in its WARP_MATCH_ANY
   ranking), where the last of the peers adds. */
#define RANK_MATCH 0
#define RANK_BALLOT 1
#define RANK_LEADER 2
#define RANKING RANK_LEADER

/* The histogram's shape: blocks of 512 threads, HIST_BLOCKS_PER_SM per SM,
   each thread loading HIST_LOADS uint4 before it counts them, into one of
   HIST_COPIES interleaved copies of the block's histograms (32 KB). Bin b
   of copy c is word b * HIST_COPIES + c, in bank (b * 8 + c) % 32: the
   lanes of different copies never share a bank, so random digits collide
   in a bank less often (the handout, section 4). On an H100 at 2^28 (a
   one-off bench, 2026-11-27, median of 21): 0.475 ms with one copy, four
   blocks an SM and one load; 0.432 ms so. */
#define HIST_THREADS 512
#define HIST_BLOCKS_PER_SM 2
#define HIST_LOADS 2
#define HIST_COPIES 8

/* Status flags, in the top two bits of a status word. */
#define ST_A (1u << 30)
#define ST_P (2u << 30)
#define ST_P_ODD (3u << 30) /* P in the sort's odd passes */
#define ST_FLAGS (3u << 30)
#define ST_COUNT (~ST_FLAGS)

/* -------------------------------------------------------------- scratch */

static unsigned *counters_of(void *scratch) { return (unsigned *)scratch; }
/* the 4 x 256 digit counts of (a) and the bases (d) scans them into */
static unsigned *counts_of(void *scratch) { return (unsigned *)((char *)scratch + 256); }
static unsigned *bases_of(void *scratch) { return (unsigned *)((char *)scratch + 256 + 4096); }
static unsigned *status_of(void *scratch) { return (unsigned *)((char *)scratch + OS_STATUS_OFFSET); }
static unsigned *keys_buf_of(void *scratch, long n) { return (unsigned *)((char *)scratch + OS_BUFFER_OFFSET(n)); }
static unsigned *vals_buf_of(void *scratch, long n)
{
    return keys_buf_of(scratch, n) + ((size_t)n + 63) / 64 * 64;
}

static long tiles_of(long n, long tile) { return (n + tile - 1) / tile; }

/* The device's SM count, asked once. */
static int sm_count(void)
{
    static int sms;
    if (!sms) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
            sms = 16;
    }
    return sms;
}

/* ------------------------------------------------------- (a) histogram */

/* One key's four digits counted in the block's shared histograms: h is
   the thread's copy (&bins[copy]); bin b of it is h[b * HIST_COPIES]. */
__device__ __forceinline__ void count_key(unsigned *h, unsigned k)
{
    atomicAdd(&h[(k & 255) * HIST_COPIES], 1u);
    atomicAdd(&h[(256 + ((k >> 8) & 255)) * HIST_COPIES], 1u);
    atomicAdd(&h[(512 + ((k >> 16) & 255)) * HIST_COPIES], 1u);
    atomicAdd(&h[(768 + (k >> 24)) * HIST_COPIES], 1u);
}
__device__ __forceinline__ void count_quad(unsigned *h, uint4 v)
{
    count_key(h, v.x), count_key(h, v.y), count_key(h, v.z), count_key(h, v.w);
}

/* Each block counts the groups of four keys i = block, block + grid, ...
   (uint4 loads, HIST_LOADS in flight a thread), the grid's threads the
   n % 4 keys of the tail, and the block adds its 1024 counts, summed over
   the copies, into counts. */
__global__ __launch_bounds__(HIST_THREADS) void hist_k1(const unsigned *__restrict__ keys, long n, unsigned *counts)
{
    __shared__ unsigned bins[4 * OS_RADIX * HIST_COPIES];
    for (int i = threadIdx.x; i < 4 * OS_RADIX * HIST_COPIES; i += HIST_THREADS)
        bins[i] = 0;
    __syncthreads();
    unsigned *h = &bins[threadIdx.x % HIST_COPIES];
    const uint4 *q = (const uint4 *)keys;
    const long quads = n / 4, stride = (long)gridDim.x * HIST_THREADS;
    const long first = (long)blockIdx.x * HIST_THREADS + threadIdx.x;
    long i = first;
    for (; i + (HIST_LOADS - 1) * stride < quads; i += HIST_LOADS * stride) {
        uint4 v[HIST_LOADS];
#pragma unroll
        for (int u = 0; u < HIST_LOADS; u++)
            v[u] = q[i + u * stride];
#pragma unroll
        for (int u = 0; u < HIST_LOADS; u++)
            count_quad(h, v[u]);
    }
    for (; i < quads; i += stride)
        count_quad(h, q[i]);
    if (first < n - 4 * quads)
        count_key(h, keys[4 * quads + first]);
    __syncthreads();
    for (int b = threadIdx.x; b < 4 * OS_RADIX; b += HIST_THREADS) {
        unsigned c = 0;
#pragma unroll
        for (int k = 0; k < HIST_COPIES; k++)
            c += bins[b * HIST_COPIES + k];
        if (c)
            atomicAdd(&counts[b], c);
    }
}

/* The inclusive scan of x over the warp's lanes. */
__device__ __forceinline__ unsigned warp_scan(unsigned x)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        unsigned y = __shfl_up_sync(FULL, x, d);
        if (lane >= d)
            x += y;
    }
    return x;
}

/* One block of 1024 threads: thread i = 256 p + d writes the exclusive scan
   of digit p's counts at d. */
__global__ __launch_bounds__(1024) void bases_k2(const unsigned *counts, unsigned *bases)
{
    __shared__ unsigned sums[32];
    const int i = threadIdx.x, warp = i / 32;
    const unsigned c = counts[i], incl = warp_scan(c);
    if (i % 32 == 31)
        sums[warp] = incl;
    __syncthreads();
    unsigned before = 0;
    for (int w = warp / 8 * 8; w < warp; w++) /* the warps of this digit's row before mine */
        before += sums[w];
    bases[i] = before + incl - c;
}

/* Counts and bases of n keys: counts in scratch (cleared here unless the
   caller did: cleared), bases to `bases`. */
static void histogram(const unsigned *keys, long n, unsigned *bases, void *scratch, bool cleared = false)
{
    unsigned *counts = counts_of(scratch);
    if (!cleared)
        cudaMemsetAsync(counts, 0, 4 * OS_RADIX * sizeof *counts);
    if (n > 0) {
        long want = (n / 4 + HIST_THREADS - 1) / HIST_THREADS, most = (long)sm_count() * HIST_BLOCKS_PER_SM;
        int blocks = (int)(want < most ? want : most);
        hist_k1<<<blocks > 0 ? blocks : 1, HIST_THREADS>>>(keys, n, counts);
    }
    bases_k2<<<1, 1024>>>(counts, bases);
}

/* ------------------------------------------------- (b), (c) digit pass */

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> status_ref;

__device__ __forceinline__ void publish(unsigned *w, unsigned word)
{
    status_ref(*w).store(word, cuda::memory_order_relaxed);
}
__device__ __forceinline__ unsigned peek(unsigned *w) { return status_ref(*w).load(cuda::memory_order_relaxed); }

/* The lanes below mine. */
__device__ __forceinline__ unsigned lanes_before(void)
{
    unsigned m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

/* The prefix of digit d over tiles 0 .. t-1 (t >= 1). Chained: tile t-1's
   inclusive count, waited for. Look-back: tile t-1's word, then t-2's, ...,
   adding counts until an inclusive one (P, this pass's flag p_flag) is
   added. Any other flag is not this pass's: nothing yet. */
template <bool LOOKBACK>
__device__ __forceinline__ unsigned prefix_before(unsigned *status, long t, int d, unsigned p_flag)
{
    unsigned sum = 0;
    for (long k = t - 1;;) {
        const unsigned w = peek(&status[k * OS_RADIX + d]), f = w & ST_FLAGS;
        if (f != p_flag && (!LOOKBACK || f != ST_A))
            continue; /* not published yet */
        sum += w & ST_COUNT;
        if (f == p_flag)
            return sum;
        k--; /* an aggregate: look further back (tile 0 always publishes P) */
    }
}

/* The shared memory of a pass of T threads of I keys: each warp's digit
   counts (then its start within each digit), and in the same words once
   every key's place is known, the tile in sorted order (keys, then
   values); the tile's count of each digit (EARLY only), each digit's
   start in the tile and its global offset less that start. Sharing the
   words takes 12 KB off a block of 384 threads, so that tiles of 384 x 23
   (CUB's shape for pairs on sm_90) fit the 48 KB a block may declare. */
template <int T, int I> struct pass_smem {
    static_assert(I >= OS_RADIX / 32, "the tile's words hold the warps' counts");
    union {
        unsigned warp_hist[T / 32][OS_RADIX]; /* until each key's place is known */
        unsigned tile[T * I];                 /* from then on */
    };
    unsigned count[OS_RADIX];
    unsigned start[OS_RADIX];
    unsigned offset[OS_RADIX];
    unsigned sums[OS_RADIX / 32];
    int slot;
};

/* The lanes that hold a key of digit d, for a lane that holds one (valid;
   d is OS_RADIX where not): __match_any_sync, or one ballot per bit of the
   digit, each keeping the lanes whose bit agrees with mine. */
template <int RANK, bool WHOLE> __device__ __forceinline__ unsigned peers_of(unsigned d, bool valid)
{
    if constexpr (RANK == RANK_MATCH) {
        (void)valid; /* d is OS_RADIX where not valid */
        return __match_any_sync(FULL, d);
    } else {
        unsigned peers = WHOLE ? FULL : __ballot_sync(FULL, valid);
#pragma unroll
        for (int b = 0; b < OS_DIGIT_BITS; b++) {
            const unsigned set = __ballot_sync(FULL, (d >> b) & 1);
            peers &= (d >> b) & 1 ? set : ~set;
        }
        return peers;
    }
}

/* The pass of tile t (base: its first key, count: its keys) after the
   kernel's start: WHOLE, a tile of T * I keys, every bound check known true
   at compile time (every tile but the last). */
template <bool LOOKBACK, bool PAIRS, int T, int I, int RANK, bool EARLY, bool WHOLE>
__device__ __forceinline__ void pass_tile(pass_smem<T, I> &s, const unsigned *__restrict__ keys_in,
                                          unsigned *__restrict__ keys_out, const unsigned *__restrict__ vals_in,
                                          unsigned *__restrict__ vals_out, int shift,
                                          const unsigned *__restrict__ bases, unsigned *status, long t, long tiles,
                                          long base, long count, unsigned p_flag)
{
    constexpr int WARPS = T / 32;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    /* keys, warp-striped */
    const int first = warp * 32 * I + lane;
    unsigned key[I], rank[I];
#pragma unroll
    for (int j = 0; j < I; j++)
        key[j] = (WHOLE || first + j * 32 < count) ? keys_in[base + first + j * 32] : 0;

    if constexpr (EARLY) {
        /* the tile's digit counts, published at once */
#pragma unroll
        for (int j = 0; j < I; j++)
            if ((WHOLE || first + j * 32 < count))
                atomicAdd(&s.count[(key[j] >> shift) & 255], 1u);
        __syncthreads();
        if (LOOKBACK && tid < OS_RADIX && t + 1 < tiles)
            publish(&status[t * OS_RADIX + tid], (t == 0 ? p_flag : ST_A) | s.count[tid]);
    }

    /* rank within the warp: equal digits in input order (j, then lane) */
    unsigned *hist = s.warp_hist[warp];
#pragma unroll
    for (int j = 0; j < I; j++) {
        const bool valid = (WHOLE || first + j * 32 < count);
        const unsigned d = valid ? (key[j] >> shift) & 255 : OS_RADIX; /* OS_RADIX: past the end */
        const unsigned peers = peers_of<RANK == RANK_MATCH ? RANK_MATCH : RANK_BALLOT, WHOLE>(d, valid);
        const unsigned before = __popc(peers & lanes_before());
        if constexpr (RANK == RANK_LEADER) {
            const int leader = (__ffs(peers) - 1) & 31; /* the lowest of the peers */
            unsigned seen = 0;
            if (valid && lane == leader)
                seen = atomicAdd(&hist[d], (unsigned)__popc(peers));
            rank[j] = __shfl_sync(FULL, seen, leader) + before;
        } else {
            const unsigned seen = valid ? hist[d] : 0;
            __syncwarp();
            if (valid && before == 0)
                hist[d] = seen + __popc(peers);
            __syncwarp();
            rank[j] = seen + before;
        }
    }
    __syncthreads();

    /* per digit: the tile's count, each warp's start within the digit, the
       tile's aggregate published now if not already */
    unsigned total = 0;
    if (tid < OS_RADIX) {
        for (int w = 0; w < WARPS; w++) {
            unsigned c = s.warp_hist[w][tid];
            s.warp_hist[w][tid] = total;
            total += c;
        }
        if (LOOKBACK && !EARLY && t + 1 < tiles)
            publish(&status[t * OS_RADIX + tid], (t == 0 ? p_flag : ST_A) | total);
    }
    /* the digits' starts in the tile: an exclusive scan over 256 threads */
    const unsigned incl = warp_scan(total);
    if (tid < OS_RADIX && lane == 31)
        s.sums[warp] = incl;
    __syncthreads();
    if (tid < OS_RADIX) {
        unsigned start = incl - total;
        for (int w = 0; w < warp; w++)
            start += s.sums[w];
        s.start[tid] = start;
        /* the digit's prefix over the earlier tiles, then ours published */
        unsigned prefix = t == 0 ? 0 : prefix_before<LOOKBACK>(status, t, tid, p_flag);
        if (t + 1 < tiles && (t > 0 || !LOOKBACK))
            publish(&status[t * OS_RADIX + tid], p_flag | (prefix + total));
        s.offset[tid] = bases[tid] + prefix - start;
    }
    __syncthreads();

    /* each key's place in the tile; then, the warps' counts read by all
       (their words are the tile's), the keys there in tile-sorted order */
    unsigned pos[I];
#pragma unroll
    for (int j = 0; j < I; j++) {
        if ((WHOLE || first + j * 32 < count)) {
            const unsigned d = (key[j] >> shift) & 255;
            pos[j] = s.start[d] + hist[d] + rank[j];
        }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < I; j++)
        if ((WHOLE || first + j * 32 < count))
            s.tile[pos[j]] = key[j];
    __syncthreads();
    /* pairs: the values loaded now (the keys' registers are free), in flight
       while the keys go out */
    unsigned val[PAIRS ? I : 1];
    if constexpr (PAIRS) {
#pragma unroll
        for (int j = 0; j < I; j++)
            val[j] = (WHOLE || first + j * 32 < count) ? vals_in[base + first + j * 32] : 0;
    }
    /* then out in that order: slot i of the tile goes to offset[digit] + i
       (pairs: the slots' digits kept, four to a register) */
    unsigned digits[PAIRS ? (I + 3) / 4 : 1] = {};
#pragma unroll
    for (int j = 0; j < I; j++) {
        const int i = tid + j * T;
        if (WHOLE || i < count) {
            const unsigned k = s.tile[i], d = (k >> shift) & 255;
            keys_out[s.offset[d] + i] = k;
            if constexpr (PAIRS)
                digits[j / 4] |= d << 8 * (j % 4);
        }
    }
    if constexpr (PAIRS) {
        /* the values the same way, to the same places */
        __syncthreads();
#pragma unroll
        for (int j = 0; j < I; j++)
            if ((WHOLE || first + j * 32 < count))
                s.tile[pos[j]] = val[j];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < I; j++) {
            const int i = tid + j * T;
            if (WHOLE || i < count)
                vals_out[s.offset[(digits[j / 4] >> 8 * (j % 4)) & 255] + i] = s.tile[i];
        }
    } else {
        (void)vals_in, (void)vals_out, (void)val, (void)digits;
    }}

/* The threads an SM holds, for the blocks asked of the compiler: sm_75
   holds 1024, sm_86 and sm_89 1536, the others the kit builds for 2048. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define SM_THREADS 1024
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
#define SM_THREADS 1536
#else
#define SM_THREADS 2048
#endif

/* One digit pass over one tile of T * I keys (see the top of the file).
   EARLY: the tile counts its digits with shared atomics first and publishes
   them before it ranks, so that later tiles looking back find them sooner.
   MINB: the blocks per SM asked of the compiler (0: none asked). At 384
   threads two blocks fit an SM at 80 registers a thread or below, three at
   56 or below: with CUDA 13.0 for sm_90 and the defaults, `nvcc -Xptxas -v`
   says 56 registers for both passes, with no spill in the look-back pass
   and 92 bytes spilled in the chained one (the spills stay in L1); the
   sort's long tiles take 64 registers and spill 248 bytes, its pairs 80
   and 40. Without the hint the passes take 66 (look-back) and 78
   (chained), allotted 8 at a time as 72 and 80: two blocks an SM, and
   the sort 18 % slower. */
template <bool LOOKBACK, bool PAIRS, int T, int I, int RANK, bool EARLY, int MINB>
__global__ __launch_bounds__(T, MINB * T <= SM_THREADS ? MINB : SM_THREADS / T) void pass_k3(
    const unsigned *__restrict__ keys_in, unsigned *__restrict__ keys_out, const unsigned *__restrict__ vals_in,
    unsigned *__restrict__ vals_out, long n, int shift, const unsigned *__restrict__ bases, unsigned *counter,
    unsigned *status, unsigned p_flag)
{
    constexpr int WARPS = T / 32, TILE = T * I;
    static_assert(T % 32 == 0 && T >= OS_RADIX, "whole warps, and one thread per digit looks back");
    static_assert(TILE >= OS_MIN_TILE, "the scratch has status words for tiles of OS_MIN_TILE keys or more");
    __shared__ pass_smem<T, I> s;
    const int tid = threadIdx.x;
    if (tid == 0)
        s.slot = (int)atomicAdd(counter, 1u);
    for (int i = tid; i < WARPS * OS_RADIX; i += T)
        (&s.warp_hist[0][0])[i] = 0;
    if (EARLY && tid < OS_RADIX)
        s.count[tid] = 0;
    __syncthreads();
    const long t = s.slot, tiles = (n + TILE - 1) / TILE, base = t * TILE;
    if (n - base >= TILE)
        pass_tile<LOOKBACK, PAIRS, T, I, RANK, EARLY, true>(s, keys_in, keys_out, vals_in, vals_out, shift, bases,
                                                            status, t, tiles, base, TILE, p_flag);
    else
        pass_tile<LOOKBACK, PAIRS, T, I, RANK, EARLY, false>(s, keys_in, keys_out, vals_in, vals_out, shift, bases,
                                                             status, t, tiles, base, n - base, p_flag);
}


/* One pass by digit `shift` with the counter of pass `p`: the counter and
   status words cleared (unless the caller did: cleared), then one block
   per tile, publishing P as p_flag. */
template <bool LOOKBACK, bool PAIRS, int T = THREADS, int I = ITEMS, int R = RANKING, bool EARLY = false,
          int MINB = BLOCKS_PER_SM>
static void digit_pass(const unsigned *keys_in, unsigned *keys_out, const unsigned *vals_in, unsigned *vals_out,
                       long n, int shift, const unsigned *bases, void *scratch, int p, bool cleared = false,
                       unsigned p_flag = ST_P)
{
    const long tiles = tiles_of(n, (long)T * I);
    if (!cleared) {
        cudaMemsetAsync(counters_of(scratch) + p, 0, sizeof(unsigned));
        cudaMemsetAsync(status_of(scratch), 0, (size_t)tiles * OS_RADIX * sizeof(unsigned));
    }
    pass_k3<LOOKBACK, PAIRS, T, I, R, EARLY, MINB><<<(unsigned)tiles, T>>>(
        keys_in, keys_out, vals_in, vals_out, n, shift, bases, counters_of(scratch) + p, status_of(scratch), p_flag);
}

/* ------------------------------------------------------------ (d) sort */

/* The histogram, then four look-back passes: in -> buffer -> out -> buffer
   -> out (with PAIRS, values alongside), with tiles of T x I keys, ranked
   by RANK, counted EARLY or not. One memset first clears the four tile
   counters, the histogram's counts and the status words of every pass:
   at the end of a pass each word a later tile reads holds P, which the
   next pass, publishing P with the other flag, reads as nothing yet (the
   last tile's word stays 0: no tile reads it). On an H100 that one
   memset in place of nine took the sort of 2^28 keys from 6.43 to 6.40 ms,
   of 2^24 from 0.545 to 0.533 ms (a one-off bench, 2026-11-27). */
template <bool PAIRS, int T, int I, int RANK, bool EARLY, int MINB>
static void sort_with(const unsigned *keys_in, const unsigned *vals_in, unsigned *keys_out, unsigned *vals_out,
                      long n, void *scratch)
{
    if (n <= 0)
        return;
    unsigned *bases = bases_of(scratch), *kb = keys_buf_of(scratch, n), *vb = vals_buf_of(scratch, n);
    const long tiles = tiles_of(n, (long)T * I);
    cudaMemsetAsync(scratch, 0, OS_STATUS_OFFSET + (size_t)tiles * OS_RADIX * sizeof(unsigned));
    histogram(keys_in, n, bases, scratch, true);
    const unsigned *ksrc = keys_in, *vsrc = vals_in;
    for (int p = 0; p < 4; p++) {
        unsigned *kdst = p % 2 ? keys_out : kb, *vdst = p % 2 ? vals_out : vb;
        digit_pass<true, PAIRS, T, I, RANK, EARLY, MINB>(ksrc, kdst, PAIRS ? vsrc : NULL, PAIRS ? vdst : NULL, n,
                                                         8 * p, bases + OS_RADIX * p, scratch, p, true,
                                                         p % 2 ? ST_P_ODD : ST_P);
        ksrc = kdst, vsrc = vdst;
    }
}

static void sort(const unsigned *keys_in, const unsigned *vals_in, unsigned *keys_out, unsigned *vals_out, long n,
                 void *scratch)
{
    if (vals_in)
        sort_with<true, PAIR_THREADS, PAIR_ITEMS, RANKING, false, PAIR_BLOCKS_PER_SM>(keys_in, vals_in, keys_out,
                                                                                      vals_out, n, scratch);
    else if (n > SORT_SHORT_TILES_UP_TO)
        sort_with<false, SORT_THREADS, SORT_ITEMS, RANKING, false, SORT_BLOCKS_PER_SM>(keys_in, NULL, keys_out, NULL,
                                                                                       n, scratch);
    else /* the passes of part (c), already compiled */
        sort_with<false, THREADS, ITEMS, RANKING, false, BLOCKS_PER_SM>(keys_in, NULL, keys_out, NULL, n, scratch);
}

/* ----------------------------------------------------------- entry points */

extern "C" void onesweep_histogram(const unsigned *d_keys, int n, unsigned *d_bases, void *d_scratch)
{
    histogram(d_keys, n, d_bases, d_scratch);
}

extern "C" void onesweep_pass_chained(const unsigned *d_keys_in, unsigned *d_keys_out, int n, int shift,
                                      const unsigned *d_bases, void *d_scratch)
{
    if (n > 0)
        digit_pass<false, false>(d_keys_in, d_keys_out, NULL, NULL, n, shift, d_bases, d_scratch, 0);
}

extern "C" void onesweep_pass_lookback(const unsigned *d_keys_in, unsigned *d_keys_out, int n, int shift,
                                       const unsigned *d_bases, void *d_scratch)
{
    if (n > 0)
        digit_pass<true, false>(d_keys_in, d_keys_out, NULL, NULL, n, shift, d_bases, d_scratch, 0);
}

extern "C" void onesweep_sort_keys(const unsigned *d_in, unsigned *d_out, int n, void *d_scratch)
{
    sort(d_in, NULL, d_out, NULL, n, d_scratch);
}

extern "C" void onesweep_sort_pairs(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                                    unsigned *d_vals_out, int n, void *d_scratch)
{
    sort(d_keys_in, d_vals_in, d_keys_out, d_vals_out, n, d_scratch);
}
