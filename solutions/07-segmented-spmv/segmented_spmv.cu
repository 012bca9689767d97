/* solutions/07-segmented-spmv/segmented_spmv.cu: the instructor's lab 07.
 *
 * Every part first gathers xb[l] = x[k[l]] once per call (into d_scratch on
 * the GPU), since x[k[l]] does not change between iterations; an iteration
 * is then a[j] = the inclusive scan of a[l] * xb[l] over j's row.
 *
 * (a) OpenMP: the products in one parallel loop, then the rows in another,
 *     each row scanned serially in place.
 * (b) a thread per row, 1, 2 or 32 working lanes per warp: the rows' lengths
 *     decide each thread's work, and the working lanes of a warp read
 *     addresses a row apart.
 * (c) a warp per row, 32 entries at a time: a Hillis-Steele scan by
 *     shuffles, the row's running total carried by lane 31. A row of one
 *     entry leaves 31 lanes idle; a row of n entries is one warp's work.
 * (d) load-balanced: one segmented scan over all n products, in tiles of
 *     FLAT_TILE entries whatever the rows, a row's first entry marked by a
 *     head bit. Once per call: the gather, and per tile its head bits and
 *     the offset of its last head (marks_k). Per iteration, reduce then
 *     scan, three kernels:
 *       1. tile_reduce_k: each tile's aggregate, the sum of its products
 *          from its last head on (the whole tile when it has none);
 *       2. tile_carry_k: one block scans the aggregates into each tile's
 *          carry, the running sum entering the tile;
 *       3. tile_scan_k: each tile's segmented scan with its carry, fused
 *          with the multiply, written over a.
 *     Bytes per entry and iteration: step 3 reads a and xb and writes a
 *     (12) plus the head bits (1/8); step 1 reads a and xb only from the
 *     tile's last head on: nearly nothing when rows are shorter than a
 *     tile, 8 more when rows span whole tiles. So 12 to 20 bytes per entry.
 *
 * The segmented operator on (value, head) pairs, left then right:
 *     (v1, h1) + (v2, h2) = (h2 ? v2 : v1 + v2, h1 | h2)
 * It is associative, so tiles, warps and lanes can each sum their own
 * share and be combined afterwards. Nothing is ever subtracted: a prefix of
 * the whole array minus a row's starting prefix loses the row's digits to
 * cancellation (the contract forbids it).
 *
 *   make check LAB=07 IMPL=solutions
 *   build/solutions/lab07 run
 */
#include "segmented_spmv.h"

#include <cuda_runtime.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

#define FULL 0xffffffffu
#define THREADS 256 /* the block of parts (b) and (c), and of the gather */
#define BLOCKS_PER_SM 8

/* ------------------------------------------------------------- (a) */

extern "C" void segspmv_omp(int rows, int n, const int *s, const int *k, const float *x, float *a, int iters,
                            int threads)
{
    if (rows <= 0 || n <= 0 || iters <= 0)
        return;
    if (threads < 1)
        threads = 1;
    /* Without the buffer the products read x[k[l]] directly: slower, the
       same result. */
    float *xb = (float *)malloc((size_t)n * sizeof *xb);
    if (xb) {
#pragma omp parallel for num_threads(threads)
        for (long l = 0; l < n; l++)
            xb[l] = x[k[l]];
    }
    for (int it = 0; it < iters; it++) {
#pragma omp parallel for num_threads(threads)
        for (long l = 0; l < n; l++)
            a[l] *= xb ? xb[l] : x[k[l]];
        /* Rows of any length: chunks handed out as threads free up. */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
        for (long r = 0; r < rows; r++) {
            float sum = 0;
            for (long j = s[r]; j < s[r + 1]; j++) {
                sum += a[j];
                a[j] = sum;
            }
        }
    }
    free(xb);
}

/* ------------------------------------------------------ shared steps */

/* xb[l] = x[k[l]], once per call. The reads of x are scattered; every
   iteration after this one reads xb in order. */
__global__ void __launch_bounds__(THREADS)
    gather_k(const int *__restrict__ k, const float *__restrict__ x, float *__restrict__ xb, long n)
{
    for (long l = (long)blockIdx.x * THREADS + threadIdx.x; l < n; l += (long)gridDim.x * THREADS)
        xb[l] = __ldg(&x[k[l]]);
}

static int block_limit(void)
{
    static int limit;
    if (!limit) {
        int dev = 0, sms = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        limit = (sms > 0 ? sms : 16) * BLOCKS_PER_SM;
    }
    return limit;
}

/* Blocks of THREADS for a grid-stride loop over `work` items: enough to
   fill the GPU, no more. */
static unsigned grid_for(long work)
{
    long want = (work + THREADS - 1) / THREADS;
    return (unsigned)(want < block_limit() ? (want > 0 ? want : 1) : block_limit());
}

static void gather(int n, const int *d_k, const float *d_x, float *xb)
{
    gather_k<<<grid_for(n), THREADS>>>(d_k, d_x, xb, n);
}

/* ------------------------------------------------------------- (b) */

/* A thread per row, on LANES lanes of each warp (1: lane 0; 2: lanes 0 and
   16; 32: all), the others idle: warp w's working lanes take rows
   w * LANES ... w * LANES + LANES - 1. The multiply is fused into the
   row's loop. Neighbouring working lanes read rows that lie far apart, so
   each load of a warp touches up to LANES different lines. */
template <int LANES>
__global__ void __launch_bounds__(THREADS)
    rowscan_thread_k(int rows, const int *__restrict__ s, const float *__restrict__ xb, float *a)
{
    const int gap = 32 / LANES; /* lanes from one working lane to the next */
    int lane = threadIdx.x % 32;
    if (lane % gap != 0)
        return;
    long warp = ((long)blockIdx.x * THREADS + threadIdx.x) / 32;
    long r = warp * LANES + lane / gap;
    if (r >= rows)
        return;
    float sum = 0;
    for (long j = s[r], end = s[r + 1]; j < end; j++) {
        sum += a[j] * xb[j];
        a[j] = sum;
    }
}

/* Warps of 32 threads for rows / LANES warps: rows * 32 threads at most
   2^31, a grid of 2^23 blocks at SS_MAX_ROWS. */
template <int LANES>
static void rowscan_thread(int rows, const int *d_s, const float *xb, float *d_a)
{
    long threads = ((long)rows + LANES - 1) / LANES * 32;
    rowscan_thread_k<LANES><<<(unsigned)((threads + THREADS - 1) / THREADS), THREADS>>>(rows, d_s, xb, d_a);
}

extern "C" void segspmv_naive(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                              int iters, int lanes, void *d_scratch)
{
    if (rows <= 0 || n <= 0 || iters <= 0)
        return;
    float *xb = (float *)d_scratch;
    gather(n, d_k, d_x, xb);
    for (int it = 0; it < iters; it++) {
        switch (lanes) {
        case SS_LANES_ONE: rowscan_thread<1>(rows, d_s, xb, d_a); break;
        case SS_LANES_HALF: rowscan_thread<2>(rows, d_s, xb, d_a); break;
        default: rowscan_thread<32>(rows, d_s, xb, d_a); break;
        }
    }
}

/* ------------------------------------------------------------- (c) */

/* A warp per row (grid-stride over the rows, by warps), 32 entries at a
   time: lane i takes entry base + i (0 past the row's end), an inclusive
   Hillis-Steele scan by shuffles, plus the carry, the row's running total
   so far, which lane 31 then holds for the next group.
   The full mask is right: r, the row's bounds and so every loop bound are
   the same in all 32 lanes, so every lane reaches every shuffle (lanes past
   the row's end take part with 0 and store nothing). The course's seed code
   scanned in shared memory "warp-synchronously", without _sync or barriers:
   a race since Volta, whose lanes need not run in lockstep. */
__global__ void __launch_bounds__(THREADS)
    rowscan_warp_k(int rows, const int *__restrict__ s, const float *__restrict__ xb, float *a)
{
    int lane = threadIdx.x % 32;
    long warps = (long)gridDim.x * (THREADS / 32);
    for (long r = ((long)blockIdx.x * THREADS + threadIdx.x) / 32; r < rows; r += warps) {
        long end = s[r + 1];
        float carry = 0;
        for (long base = s[r]; base < end; base += 32) {
            long j = base + lane;
            float v = j < end ? a[j] * xb[j] : 0.f;
            for (int d = 1; d < 32; d *= 2) {
                float t = __shfl_up_sync(FULL, v, d);
                if (lane >= d)
                    v += t;
            }
            v += carry;
            if (j < end)
                a[j] = v;
            carry = __shfl_sync(FULL, v, 31); /* lanes past the end added 0: still the total */
        }
    }
}

extern "C" void segspmv_warp(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                             int iters, void *d_scratch)
{
    if (rows <= 0 || n <= 0 || iters <= 0)
        return;
    float *xb = (float *)d_scratch;
    gather(n, d_k, d_x, xb);
    unsigned blocks = grid_for((long)rows * 32);
    for (int it = 0; it < iters; it++)
        rowscan_warp_k<<<blocks, THREADS>>>(rows, d_s, xb, d_a);
}

/* ------------------------------------------------------------- (d) */

#define FLAT_THREADS 256
#define FLAT_ITEMS 16                             /* entries per thread */
#define FLAT_ROUNDS (FLAT_ITEMS / 4)              /* a float4 per lane per round */
#define FLAT_CHUNK (32 * FLAT_ITEMS)              /* a warp's entries: 512 */
#define FLAT_TILE (FLAT_THREADS * FLAT_ITEMS)     /* a block's: 4096, 2^16 tiles at SS_MAX_N */
#define MARK_THREADS (FLAT_TILE / 32)             /* one per word of a tile's head bits */
#define CARRY_THREADS 1024

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(FULL, v, o);
    return v; /* in every lane */
}

__device__ __forceinline__ int warp_max(int v)
{
    for (int o = 16; o > 0; o /= 2)
        v = max(v, __shfl_xor_sync(FULL, v, o));
    return v;
}

/* The block's sum of v, in thread 0. */
__device__ float block_sum(float v)
{
    __shared__ float part[32];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        part[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < (int)blockDim.x / 32; w++)
            v += part[w];
    return v;
}

/* The value entering each warp of the block: the warps' aggregates
   (value, head) composed in warp order, starting from c. Every thread of
   the block calls it, with its warp's aggregate; once per kernel. */
__device__ float warp_carry_in(float v, bool head, float c)
{
    __shared__ float val[32];
    __shared__ bool hd[32];
    int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0)
        val[warp] = v, hd[warp] = head;
    __syncthreads();
    for (int w = 0; w < warp; w++) /* at most 31 steps, read by broadcast */
        c = hd[w] ? val[w] : c + val[w];
    return c;
}

/* One round of a warp's segmented scan. Lane i holds the aggregate
   (v, head) of piece i, the pieces in lane order; *c is the running value
   entering piece 0. Returns the running value entering this lane's piece,
   and leaves in *c the value leaving piece 31. All 32 lanes call it.
   The heads cost no shuffles: a ballot tells each lane where its segment
   starts (its last lane at or before it with a head), and a step adds the
   value d lanes back only if that lane is still in the segment. After the
   steps, lane i holds the sum of the pieces from its segment's start to i,
   which the start's own aggregate already begins at its head. */
__device__ __forceinline__ float warp_seg_round(float v, bool head, float *c)
{
    int lane = threadIdx.x % 32;
    unsigned upto = __ballot_sync(FULL, head) & (FULL >> (31 - lane)); /* heads at lanes <= this one */
    int start = upto ? 31 - __clz(upto) : 0;
    for (int d = 1; d < 32; d *= 2) {
        float t = __shfl_up_sync(FULL, v, d);
        if (lane - d >= start)
            v += t;
    }
    float in = *c;
    float incl = upto ? v : in + v; /* the value leaving this lane's piece */
    float excl = __shfl_up_sync(FULL, incl, 1);
    *c = __shfl_sync(FULL, incl, 31);
    return lane == 0 ? in : excl;
}

/* Four products a[j + i] * xb[j + i] (0 past n), by 16-byte loads where a
   is aligned (xb, at the start of the scratch, always is) and j + 3 < n;
   j is a multiple of 4 wherever the loads are vectorized. */
__device__ __forceinline__ void load_products(const float *a, const float *__restrict__ xb, long j, long n,
                                              bool vec, float p[4])
{
    if (vec && j + 3 < n) {
        float4 u = *reinterpret_cast<const float4 *>(a + j);
        float4 w = __ldg(reinterpret_cast<const float4 *>(xb + j));
        p[0] = u.x * w.x, p[1] = u.y * w.y, p[2] = u.z * w.z, p[3] = u.w * w.w;
    } else {
        for (int i = 0; i < 4; i++)
            p[i] = j + i < n ? a[j + i] * xb[j + i] : 0.f;
    }
}

__device__ __forceinline__ void store4(float *a, long j, long n, bool vec, const float q[4])
{
    if (vec && j + 3 < n) {
        *reinterpret_cast<float4 *>(a + j) = make_float4(q[0], q[1], q[2], q[3]);
    } else {
        for (int i = 0; i < 4; i++)
            if (j + i < n)
                a[j + i] = q[i];
    }
}

/* The first row r with s[r] >= pos (0 <= pos < n: s[rows] = n, so there is
   one), searched by a whole warp: each step probes 32 rows spread evenly
   over [lo, hi] and keeps the gap where s crosses pos, 32 times narrower.
   Six dependent loads for 2^26 rows, where a binary search takes 26. */
__device__ long first_row_from(const int *__restrict__ s, long rows, long pos)
{
    int lane = threadIdx.x % 32;
    long lo = 0, hi = rows; /* the answer lies in [lo, hi], and s[hi] >= pos */
    while (hi - lo > 32) {
        long step = (hi - lo + 31) / 32;
        long r = min(lo + lane * step, hi);
        /* s rises with r, so the lanes below pos are lanes 0 .. m - 1; a
           probe clipped to hi is never below */
        int m = __popc(__ballot_sync(FULL, s[r] < pos));
        if (m == 0)
            return lo;
        if (m < 32) /* lane m's probe is at or past pos */
            hi = min(lo + m * step, hi);
        lo += (long)(m - 1) * step + 1;
    }
    /* at most 33 candidates, lo .. hi; if the 32 probed are all below, hi */
    return lo + __popc(__ballot_sync(FULL, lo + lane <= hi && s[lo + lane] < pos));
}

/* Once per call, per tile: its head bits (bit j % 32 of word j / 32 set
   when entry j starts a row) and the offset in the tile of its last head
   (-1: none, the tile lies inside one row). The tile's rows are the ones
   after first_row_from(its start); the bits are gathered in shared memory
   and written whole, so no memset and no global atomics are needed. */
__global__ void __launch_bounds__(MARK_THREADS)
    marks_k(const int *__restrict__ s, int rows, long n, unsigned *bits, int *tails)
{
    __shared__ unsigned word[MARK_THREADS];
    __shared__ long first;
    __shared__ int last;
    long base = (long)blockIdx.x * FLAT_TILE, end = min(base + FLAT_TILE, n);
    word[threadIdx.x] = 0;
    if (threadIdx.x < 32) {
        long r = first_row_from(s, rows, base);
        if (threadIdx.x == 0)
            first = r, last = -1;
    }
    __syncthreads();
    for (long r = first + threadIdx.x; r < rows; r += MARK_THREADS) {
        if (s[r] >= end)
            break; /* s rises: this thread's later rows start past the tile too */
        int h = (int)(s[r] - base);
        atomicOr(&word[h / 32], 1u << (h % 32));
        atomicMax(&last, h);
    }
    __syncthreads();
    long w = base / 32 + threadIdx.x;
    if (w < (n + 31) / 32)
        bits[w] = word[threadIdx.x];
    if (threadIdx.x == 0)
        tails[blockIdx.x] = last;
}

/* Step 1: each tile's aggregate, the sum of its products from its last
   head on (the tile's own rows end inside it and need no carry out of
   it), or of all of them when it has no head. A plain block reduction, as
   in lab 06, over only that part: a tile of short rows reads a few
   entries, a tile inside a long row reads all of them. */
__global__ void __launch_bounds__(FLAT_THREADS)
    tile_reduce_k(const float *a, const float *__restrict__ xb, const int *__restrict__ tails, float *agg, long n,
                  bool vec)
{
    long base = (long)blockIdx.x * FLAT_TILE;
    long lo = base + max(tails[blockIdx.x], 0), hi = min(base + FLAT_TILE, n);
    float v = 0;
    for (long j = (lo & ~3L) + 4L * threadIdx.x; j < hi; j += 4L * FLAT_THREADS) {
        float p[4];
        load_products(a, xb, j, n, vec, p);
        for (int i = 0; i < 4; i++)
            if (j + i >= lo)
                v += p[i]; /* past hi: the tile ends at a multiple of 4 or at n, where p is 0 */
    }
    v = block_sum(v);
    if (threadIdx.x == 0)
        agg[blockIdx.x] = v;
}

/* Step 2: carry[t], the running value entering tile t, the aggregates of
   tiles 0 .. t - 1 composed (0 for tile 0). One block of CARRY_THREADS for
   any number of tiles: thread i takes a run of consecutive tiles, and the
   scan is reduce-then-scan again, one level down. The run's aggregate
   (serial), the warp's (its lanes from its last head on, summed), the value
   entering each warp (warp_carry_in), each lane (warp_seg_round), then each
   tile of the run (serial again). 2^16 tiles at SS_MAX_N: runs of 64. */
__global__ void __launch_bounds__(CARRY_THREADS)
    tile_carry_k(const float *__restrict__ agg, const int *__restrict__ tails, float *carry, int tiles)
{
    int lane = threadIdx.x % 32;
    long per = (tiles + CARRY_THREADS - 1) / CARRY_THREADS;
    long lo = min((long)threadIdx.x * per, (long)tiles), hi = min(lo + per, (long)tiles);
    float v = 0;
    bool head = false;
    for (long t = lo; t < hi; t++) {
        bool h = tails[t] >= 0;
        v = h ? agg[t] : v + agg[t];
        head |= h;
    }
    unsigned heads = __ballot_sync(FULL, head);
    int from = heads ? 31 - __clz(heads) : 0;
    float c = warp_carry_in(warp_sum(lane >= from ? v : 0.f), heads != 0, 0.f);
    float in = warp_seg_round(v, head, &c);
    for (long t = lo; t < hi; t++) {
        carry[t] = in;
        in = tails[t] >= 0 ? agg[t] : in + agg[t];
    }
}

/* Step 3: each tile's segmented scan, fused with the multiply, with its
   carry (NULL: the only tile, carry 0). Warp w takes FLAT_CHUNK consecutive
   entries in FLAT_ROUNDS rounds of 128: lane i's four at 128 * round +
   4 * i, so that each round's loads are 512 contiguous bytes.
   Reduce: the products into registers, the chunk's last head (its index
   in the chunk, the largest over the lanes), the chunk's aggregate (the
   products from that head on, summed by the warp). Then the value entering
   each warp (the tile's carry, composed with the earlier warps'
   aggregates). Scan: per round, each lane scans its four serially from 0,
   the lanes' totals are scanned across the warp from the running value,
   and each lane adds what enters it to its entries before its first
   head. */
__global__ void __launch_bounds__(FLAT_THREADS)
    tile_scan_k(float *a, const float *__restrict__ xb, const unsigned *__restrict__ bits,
                const float *__restrict__ carry, long n, bool vec)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    long chunk = (long)blockIdx.x * FLAT_TILE + (long)warp * FLAT_CHUNK;
    float p[FLAT_ROUNDS][4];
    unsigned hb[FLAT_ROUNDS]; /* bit i: entry 4 * lane + i of the round starts a row */
    int last = -1;
#pragma unroll
    for (int k = 0; k < FLAT_ROUNDS; k++) {
        long j = chunk + 128 * k + 4 * lane; /* a multiple of 4: its 4 bits lie in one word */
        load_products(a, xb, j, n, vec, p[k]);
        hb[k] = j < n ? (bits[j / 32] >> (j % 32)) & 15u : 0u;
        if (hb[k])
            last = 128 * k + 4 * lane + 31 - __clz(hb[k]);
    }
    last = warp_max(last);
    float v = 0;
#pragma unroll
    for (int k = 0; k < FLAT_ROUNDS; k++)
        for (int i = 0; i < 4; i++)
            if (128 * k + 4 * lane + i >= last)
                v += p[k][i];
    float c = warp_carry_in(warp_sum(v), last >= 0, carry ? carry[blockIdx.x] : 0.f);
#pragma unroll
    for (int k = 0; k < FLAT_ROUNDS; k++) {
        float q[4];
        q[0] = p[k][0];
        for (int i = 1; i < 4; i++)
            q[i] = (hb[k] >> i & 1) ? p[k][i] : q[i - 1] + p[k][i];
        float in = warp_seg_round(q[3], hb[k] != 0, &c);
        for (int i = 0; i < 4; i++)
            if ((hb[k] & ((2u << i) - 1)) == 0) /* no head among entries 0 .. i */
                q[i] += in;
        store4(a, chunk + 128 * k + 4 * lane, n, vec, q);
    }
}

/* The scratch: xb (n floats), then the head bits (n / 32 words, inside
   the n ints the contract sets aside), then per tile, from 8n rounded up
   to 256 bytes, its last head, aggregate and carry: 12 bytes per 4096
   entries, within the 16 per 256 that SS_SCRATCH_BYTES gives. */
extern "C" void segspmv_flat(int rows, int n, const int *d_s, const int *d_k, const float *d_x, float *d_a,
                             int iters, void *d_scratch)
{
    if (rows <= 0 || n <= 0 || iters <= 0)
        return;
    int tiles = (int)(((long)n + FLAT_TILE - 1) / FLAT_TILE);
    float *xb = (float *)d_scratch;
    unsigned *bits = (unsigned *)(xb + n);
    char *per_tile = (char *)d_scratch + ((size_t)n * 8 + 255) / 256 * 256;
    int *tails = (int *)per_tile;
    float *agg = (float *)(tails + tiles), *carry = agg + tiles;
    bool vec = (uintptr_t)d_a % 16 == 0;

    gather(n, d_k, d_x, xb);
    marks_k<<<tiles, MARK_THREADS>>>(d_s, rows, n, bits, tails);
    for (int it = 0; it < iters; it++) {
        if (tiles == 1) { /* no carries to pass */
            tile_scan_k<<<1, FLAT_THREADS>>>(d_a, xb, bits, NULL, n, vec);
            continue;
        }
        tile_reduce_k<<<tiles, FLAT_THREADS>>>(d_a, xb, tails, agg, n, vec);
        tile_carry_k<<<1, CARRY_THREADS>>>(agg, tails, carry, tiles);
        tile_scan_k<<<tiles, FLAT_THREADS>>>(d_a, xb, bits, carry, n, vec);
    }
}
