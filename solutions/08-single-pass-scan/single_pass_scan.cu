/* solutions/08-single-pass-scan/single_pass_scan.cu: lab 08's solution, the
 * single-pass scan in three versions:
 *
 *   (a) chained_k: every block scans its tile in shared memory, then waits
 *       for its predecessor's inclusive prefix (a value word and a flag
 *       word, volatile, __threadfence() between them on both sides) and
 *       publishes its own. Correct; as slow as the chain of tiles is long.
 *   (b) lookback_k: the same tile scan; the tile's aggregate is published
 *       at once (status A), and warp 0 looks back over the status words of
 *       32 predecessors at a time, adding aggregates down to the nearest
 *       inclusive prefix (status P). Flag and value share one 64-bit word,
 *       stored and loaded whole through cuda::atomic_ref (relaxed, device
 *       scope: the word carries its own payload, so no fence is needed).
 *   (c) tuned_k: the look-back of (b) on tiles read and written with
 *       16-byte vector accesses straight into registers (each warp owns
 *       SPS_C_VECS chunks of 128 elements, a lane 4 elements of each), no
 *       shared memory but the warps' sums; int and float, exclusive and
 *       inclusive.
 *
 * Every version takes its tile ids from the counter in d_scratch, cleared
 * with the status words by one cudaMemsetAsync per call (CUB pays the same:
 * its own init kernel). Sums of ints are done in unsigned arithmetic.
 *
 * Tuning knobs (compile time; e.g. make NVCCFLAGS='-O3 -lineinfo
 * -DSPS_C_THREADS=256 -DSPS_C_VECS=4'): SPS_C_THREADS, SPS_C_VECS (16-byte
 * vectors per thread: tile = THREADS * VECS * 4 elements), SPS_SPIN_NS
 * (parts a and b: the sleep between polls, 0: spin), SPS_C_SPIN_NS (the
 * same for part c), SPS_LOOK_DELAY_NS (part c: a sleep between publishing
 * the aggregate and the first look, giving the predecessors time to
 * publish theirs; only on grids of SPS_C_DELAY_TILES tiles or more),
 * SPS_STREAM_HINTS (1: evict-first loads and stores,
 * __ldcs/__stcs), SPS_C_MIN_BLOCKS (blocks per SM asked of the compiler
 * through __launch_bounds__; 0: the compiler's choice).
 *
 * The defaults of part c were measured on an H200 at n = 2^28 (handout
 * section 8.2; tests/bench/bench_lab08_knobs.sh sweeps them): 128 threads of 32
 * items, a 3.2 us sleep before the look-back and 600 ns between polls. The
 * sleep is most of the gain: without it the same tiles run at 0.97x CUB,
 * with it at 1.12x; the first solution's tiles (256 threads of 16) at 0.88x
 * and 1.02x. A look-back that peeked once before sleeping lost the gain
 * again (0.90x, in an experiment not kept).
 *
 *   make check IMPL=solutions LAB=08
 *   build/solutions/lab08 run --part c --n 2^28
 */
#include "single_pass_scan.h"

#include <cuda/atomic>
#include <cuda_runtime.h>

#ifndef SPS_C_THREADS
#define SPS_C_THREADS 128
#endif
#ifndef SPS_C_VECS
#define SPS_C_VECS 8
#endif
#ifndef SPS_SPIN_NS
#define SPS_SPIN_NS 32
#endif
#ifndef SPS_C_SPIN_NS
#define SPS_C_SPIN_NS 600
#endif
#ifndef SPS_LOOK_DELAY_NS
#define SPS_LOOK_DELAY_NS 3200
#endif
#ifndef SPS_C_DELAY_TILES
#define SPS_C_DELAY_TILES 2048
#endif
#ifndef SPS_STREAM_HINTS
#define SPS_STREAM_HINTS 0
#endif
#ifndef SPS_C_MIN_BLOCKS
#define SPS_C_MIN_BLOCKS 0
#endif
#if SPS_C_MIN_BLOCKS > 0
#define TUNED_BOUNDS(threads) __launch_bounds__(threads, SPS_C_MIN_BLOCKS)
#else
#define TUNED_BOUNDS(threads) __launch_bounds__(threads)
#endif

#define FULL 0xffffffffu

/* Parts (a) and (b): 256 threads, 8 elements each. */
#define AB_THREADS 256
#define AB_ITEMS 8
#define AB_TILE (AB_THREADS * AB_ITEMS)

/* ------------------------------------------------------------ shared pieces */

/* Element types: unsigned for int (wrapping adds), float. Status words hold
   the value's 32 bits. */
__device__ __forceinline__ unsigned bits_of(unsigned x) { return x; }
__device__ __forceinline__ unsigned bits_of(float x) { return __float_as_uint(x); }
template <typename T> __device__ __forceinline__ T from_bits(unsigned b);
template <> __device__ __forceinline__ unsigned from_bits<unsigned>(unsigned b) { return b; }
template <> __device__ __forceinline__ float from_bits<float>(unsigned b) { return __uint_as_float(b); }

/* Inclusive scan across the warp (Hillis-Steele with shuffles). */
template <typename T> __device__ __forceinline__ T warp_inclusive(T x)
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        T y = __shfl_up_sync(FULL, x, d);
        if (lane >= d)
            x += y;
    }
    return x;
}

/* The sum of every lane's x, the same bits in every lane (a tree down to
   lane 0, then broadcast: a butterfly would give floats rounded differently
   in different lanes). */
template <typename T> __device__ __forceinline__ T warp_sum(T x)
{
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        x += __shfl_down_sync(FULL, x, d);
    return __shfl_sync(FULL, x, 0);
}

/* A sleep of about NS nanoseconds (none for 0, or before Volta). */
template <int NS> __device__ __forceinline__ void pause_ns()
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
    if (NS > 0)
        __nanosleep(NS);
#endif
}

__device__ __forceinline__ void spin_pause() { pause_ns<SPS_SPIN_NS>(); }

/* Scratch: the tile counter, then the status words. */
static unsigned *counter_of(void *scratch) { return (unsigned *)scratch; }
static unsigned long long *status_of(void *scratch)
{
    return (unsigned long long *)((char *)scratch + SPS_STATUS_OFFSET);
}
/* One call's state cleared: the counter and `words` 8-byte status words. */
static void clear_state(void *scratch, long words)
{
    cudaMemsetAsync(scratch, 0, (size_t)SPS_STATUS_OFFSET + 8 * (size_t)words);
}

/* The tile this block works on, from the counter (never blockIdx.x: a tile
   waits only for tiles with smaller ids, and those were taken by blocks
   that are running or done). */
__device__ __forceinline__ long take_tile(unsigned *counter, int *slot)
{
    if (threadIdx.x == 0)
        *slot = (int)atomicAdd(counter, 1u);
    __syncthreads();
    return *slot;
}

/* -------------------------------------------------- tile scan for (a), (b) */

/* Shared memory padded by one word every 32, so that thread t reading its
   elements t*8 .. t*8+7 meets no bank conflicts (lab 03). */
__device__ __forceinline__ int pad(int k) { return k + k / 32; }

/* Loads the tile at base into s (zeros past n) and scans it in place,
   inclusively, within the tile; returns this thread's view: the tile's
   aggregate is in *agg (every thread). Uses warp_s (AB_THREADS / 32). */
static __device__ void tile_scan_ab(const unsigned *in, long n, long base, unsigned *s, unsigned *warp_s, unsigned *agg)
{
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    for (int k = tid; k < AB_TILE; k += AB_THREADS)
        s[pad(k)] = base + k < n ? in[base + k] : 0u;
    __syncthreads();
    unsigned v[AB_ITEMS], sum = 0;
#pragma unroll
    for (int j = 0; j < AB_ITEMS; j++)
        v[j] = sum += s[pad(tid * AB_ITEMS + j)];
    unsigned incl = warp_inclusive(sum);
    if (lane == 31)
        warp_s[warp] = incl;
    __syncthreads();
    unsigned before = 0, total = 0; /* the warps before this one, all warps */
#pragma unroll
    for (int w = 0; w < AB_THREADS / 32; w++) {
        before += w < warp ? warp_s[w] : 0u;
        total += warp_s[w];
    }
    unsigned run = before + incl - sum;
#pragma unroll
    for (int j = 0; j < AB_ITEMS; j++)
        s[pad(tid * AB_ITEMS + j)] = run + v[j];
    *agg = total;
    __syncthreads();
}

/* Writes the scanned tile with the tile's exclusive prefix added. */
static __device__ void tile_store_ab(unsigned *out, long n, long base, const unsigned *s, unsigned prefix)
{
    for (int k = threadIdx.x; k < AB_TILE; k += AB_THREADS)
        if (base + k < n)
            out[base + k] = prefix + s[pad(k)];
}

/* ------------------------------------------------------- (a) chained scan */

/* flags[t] and values[t] are separate words: the value is written first,
   then, after a fence that orders the two for every other block, the flag.
   The reader orders its two loads the same way. volatile makes every load
   go to memory (L2) instead of a register or L1. */
__global__ void __launch_bounds__(AB_THREADS)
    chained_k(const unsigned *in, unsigned *out, long n, unsigned *counter, volatile unsigned *flags,
              volatile unsigned *values)
{
    __shared__ unsigned s[AB_TILE + AB_TILE / 32], warp_s[AB_THREADS / 32];
    __shared__ int slot;
    __shared__ unsigned prefix_s;
    const long t = take_tile(counter, &slot), base = t * AB_TILE;
    unsigned agg;
    tile_scan_ab(in, n, base, s, warp_s, &agg);
    if (threadIdx.x == 0) {
        unsigned prefix = 0;
        if (t > 0) {
            while (flags[t - 1] == 0)
                spin_pause();
            __threadfence(); /* the flag's load before the value's */
            prefix = values[t - 1];
        }
        values[t] = prefix + agg;
        __threadfence(); /* the value's store before the flag's, for every reader */
        flags[t] = 1;
        prefix_s = prefix;
    }
    __syncthreads();
    tile_store_ab(out, n, base, s, prefix_s);
}

extern "C" void scan_chained(const int *d_in, int *d_out, int n, void *d_scratch)
{
    if (n <= 0)
        return;
    long tiles = ((long)n + AB_TILE - 1) / AB_TILE;
    clear_state(d_scratch, tiles); /* the flags (4 bytes each) and values fit in 8 per tile */
    unsigned *flags = (unsigned *)status_of(d_scratch);
    chained_k<<<(unsigned)tiles, AB_THREADS>>>((const unsigned *)d_in, (unsigned *)d_out, n, counter_of(d_scratch),
                                               flags, flags + tiles);
}

/* ------------------------------------------------ (b) decoupled look-back */

/* A status word: the flag in the high half, the value's bits in the low. */
enum : unsigned { ST_X = 0, ST_A = 1, ST_P = 2 }; /* not ready, aggregate, inclusive prefix */
typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> status_ref;

__device__ __forceinline__ unsigned long long pack(unsigned flag, unsigned value)
{
    return (unsigned long long)flag << 32 | value;
}

__device__ __forceinline__ void publish(unsigned long long *status, long t, unsigned flag, unsigned value)
{
    status_ref(status[t]).store(pack(flag, value), cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned long long peek(unsigned long long *status, long t)
{
    return status_ref(status[t]).load(cuda::memory_order_relaxed);
}

/* The look-back of tile t > 0, by one whole warp, after the tile published
   its aggregate: returns the tile's exclusive prefix in every lane. Lane i
   reads the tile `end - i` (lane 0 the nearest; before tile 0, a P of 0).
   Lanes 0 .. p, p the nearest P, must all be ready; their values are added
   (aggregates, and p's inclusive prefix) and the look-back ends; with no P
   in the window, all 32 aggregates are added and the window moves back.
   DELAY_NS: a sleep before the first look; SPIN_NS: between polls. */
template <typename T, int DELAY_NS, int SPIN_NS> __device__ T look_back(unsigned long long *status, long t)
{
    const int lane = threadIdx.x % 32;
    T prefix = T(0);
    long end = t - 1;
    pause_ns<DELAY_NS>();
    for (;;) {
        long j = end - lane;
        unsigned long long w = j >= 0 ? peek(status, j) : pack(ST_P, bits_of(T(0)));
        unsigned flag = (unsigned)(w >> 32);
        unsigned p_lanes = __ballot_sync(FULL, flag == ST_P);
        unsigned x_lanes = __ballot_sync(FULL, flag == ST_X);
        unsigned needed = p_lanes ? (p_lanes & (0u - p_lanes)) * 2u - 1u : FULL; /* lanes 0 .. p */
        if (x_lanes & needed) {
            pause_ns<SPIN_NS>();
            continue; /* the same window again */
        }
        prefix += warp_sum(needed >> lane & 1u ? from_bits<T>((unsigned)w) : T(0));
        if (p_lanes)
            return prefix;
        end -= 32;
    }
}

__global__ void __launch_bounds__(AB_THREADS)
    lookback_k(const unsigned *in, unsigned *out, long n, unsigned *counter, unsigned long long *status)
{
    __shared__ unsigned s[AB_TILE + AB_TILE / 32], warp_s[AB_THREADS / 32];
    __shared__ int slot;
    __shared__ unsigned prefix_s;
    const long t = take_tile(counter, &slot), base = t * AB_TILE;
    unsigned agg;
    tile_scan_ab(in, n, base, s, warp_s, &agg);
    if (threadIdx.x < 32) {
        unsigned prefix = 0;
        if (t == 0) {
            if (threadIdx.x == 0)
                publish(status, 0, ST_P, agg);
        } else {
            if (threadIdx.x == 0)
                publish(status, t, ST_A, agg);
            prefix = look_back<unsigned, 0, SPS_SPIN_NS>(status, t);
            if (threadIdx.x == 0)
                publish(status, t, ST_P, prefix + agg);
        }
        if (threadIdx.x == 0)
            prefix_s = prefix;
    }
    __syncthreads();
    tile_store_ab(out, n, base, s, prefix_s);
}

extern "C" void scan_lookback(const int *d_in, int *d_out, int n, void *d_scratch)
{
    if (n <= 0)
        return;
    long tiles = ((long)n + AB_TILE - 1) / AB_TILE;
    clear_state(d_scratch, tiles);
    lookback_k<<<(unsigned)tiles, AB_THREADS>>>((const unsigned *)d_in, (unsigned *)d_out, n,
                                                counter_of(d_scratch), status_of(d_scratch));
}

/* ------------------------------------------------------------- (c) tuned */

/* Four elements, loaded and stored as one 16-byte vector. */
template <typename T> struct alignas(16) quad {
    T e[4];
};

template <typename T> __device__ __forceinline__ quad<T> load_quad(const T *p)
{
    uint4 u;
#if SPS_STREAM_HINTS
    u = __ldcs((const uint4 *)p);
#else
    u = *(const uint4 *)p;
#endif
    quad<T> q;
    q.e[0] = from_bits<T>(u.x), q.e[1] = from_bits<T>(u.y), q.e[2] = from_bits<T>(u.z), q.e[3] = from_bits<T>(u.w);
    return q;
}

template <typename T> __device__ __forceinline__ void store_quad(T *p, const quad<T> &q)
{
    uint4 u = make_uint4(bits_of(q.e[0]), bits_of(q.e[1]), bits_of(q.e[2]), bits_of(q.e[3]));
#if SPS_STREAM_HINTS
    __stcs((uint4 *)p, u);
#else
    *(uint4 *)p = u;
#endif
}

/* A tile is WARPS * VECS chunks of 128 elements; warp w owns chunks
   w*VECS .. w*VECS + VECS - 1, lane l elements 4l .. 4l+3 of each, read and
   written as one coalesced 512-byte vector access per chunk. Each chunk is
   scanned across the warp; the chunks of a warp are chained in registers,
   the warps through shared memory, the tiles by look-back.
   Order of a float's additions (section 8 of the handout): within a lane's
   four, left to right; across a chunk's 32 lanes, Hillis-Steele; chunk
   after chunk within the warp; warp sums scanned by warp 0; then the
   tile's prefix, itself a sum of window sums that depends on which
   predecessors had published P when they were read. */
template <typename T, int THREADS, int VECS, int DELAY_NS, int SPIN_NS, bool INCLUSIVE>
__global__ void TUNED_BOUNDS(THREADS)
    tuned_k(const T *in, T *out, long n, unsigned *counter, unsigned long long *status)
{
    constexpr int WARPS = THREADS / 32, WARP_ITEMS = VECS * 128, TILE = WARPS * WARP_ITEMS;
    static_assert(THREADS % 32 == 0 && WARPS <= 32, "whole warps, at most 32");
    __shared__ T warp_s[WARPS];
    __shared__ int slot;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long t = take_tile(counter, &slot);
    const long wbase = t * TILE + (long)warp * WARP_ITEMS + 4 * lane;
    const bool full = (t + 1) * TILE <= n;

    quad<T> v[VECS];
    if (full) {
#pragma unroll
        for (int k = 0; k < VECS; k++)
            v[k] = load_quad(in + wbase + 128 * k);
    } else {
#pragma unroll
        for (int k = 0; k < VECS; k++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                long i = wbase + 128 * k + e;
                v[k].e[e] = i < n ? in[i] : T(0);
            }
    }

    /* each chunk scanned across the warp; excl[k]: what comes before this
       lane's four within the warp's elements */
    T excl[VECS], run = T(0);
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        T own = ((v[k].e[0] + v[k].e[1]) + v[k].e[2]) + v[k].e[3];
        T incl = warp_inclusive(own);
        T before = __shfl_up_sync(FULL, incl, 1);
        excl[k] = lane ? run + before : run;
        run += __shfl_sync(FULL, incl, 31);
    }
    if (lane == 0)
        warp_s[warp] = run;
    __syncthreads();

    if (warp == 0) {
        T w = lane < WARPS ? warp_s[lane] : T(0);
        T w_incl = warp_inclusive(w);
        T w_excl = __shfl_up_sync(FULL, w_incl, 1);
        T agg = __shfl_sync(FULL, w_incl, WARPS - 1);
        T prefix = T(0);
        if (t == 0) {
            if (lane == 0)
                publish(status, 0, ST_P, bits_of(agg));
        } else {
            if (lane == 0)
                publish(status, t, ST_A, bits_of(agg));
            prefix = look_back<T, DELAY_NS, SPIN_NS>(status, t);
            if (lane == 0)
                publish(status, t, ST_P, bits_of(prefix + agg));
        }
        if (lane < WARPS)
            warp_s[lane] = lane ? prefix + w_excl : prefix;
    }
    __syncthreads();

    const T base = warp_s[warp];
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        quad<T> o;
        T acc = base + excl[k];
#pragma unroll
        for (int e = 0; e < 4; e++) {
            if (INCLUSIVE) {
                acc += v[k].e[e];
                o.e[e] = acc;
            } else {
                o.e[e] = acc;
                acc += v[k].e[e];
            }
        }
        if (full) {
            store_quad(out + wbase + 128 * k, o);
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++)
                if (wbase + 128 * k + e < n)
                    out[wbase + 128 * k + e] = o.e[e];
        }
    }
}

/* One call of part (c) with the knobs given (tests/bench/bench_lab08_knobs.cu
   sweeps them through this). */
template <typename T, int THREADS, int VECS, int DELAY_NS, int SPIN_NS, bool INCLUSIVE>
static void tuned_with(const T *in, T *out, long n, void *scratch)
{
    if (n <= 0)
        return;
    constexpr int TILE = THREADS * VECS * 4;
    static_assert(TILE >= SPS_MIN_TILE, "the scratch has status words for tiles of SPS_MIN_TILE or more");
    long tiles = (n + TILE - 1) / TILE;
    clear_state(scratch, tiles);
    tuned_k<T, THREADS, VECS, DELAY_NS, SPIN_NS, INCLUSIVE>
        <<<(unsigned)tiles, THREADS>>>(in, out, n, counter_of(scratch), status_of(scratch));
}

/* The sleep before the look-back pays only when the grid is much larger
   than what runs at once (many tiles queue behind the ones looking back);
   below SPS_C_DELAY_TILES tiles it is only latency, and is left out. */
template <typename T, bool INCLUSIVE> static void tuned(const T *in, T *out, int n, void *scratch)
{
    constexpr long TILE = SPS_C_THREADS * SPS_C_VECS * 4;
    if (((long)n + TILE - 1) / TILE >= SPS_C_DELAY_TILES)
        tuned_with<T, SPS_C_THREADS, SPS_C_VECS, SPS_LOOK_DELAY_NS, SPS_C_SPIN_NS, INCLUSIVE>(in, out, n, scratch);
    else
        tuned_with<T, SPS_C_THREADS, SPS_C_VECS, 0, SPS_C_SPIN_NS, INCLUSIVE>(in, out, n, scratch);
}

extern "C" void scan_tuned_exclusive(const int *d_in, int *d_out, int n, void *d_scratch)
{
    tuned<unsigned, false>((const unsigned *)d_in, (unsigned *)d_out, n, d_scratch);
}

extern "C" void scan_tuned_inclusive(const int *d_in, int *d_out, int n, void *d_scratch)
{
    tuned<unsigned, true>((const unsigned *)d_in, (unsigned *)d_out, n, d_scratch);
}

extern "C" void scan_tuned_exclusive_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    tuned<float, false>(d_in, d_out, n, d_scratch);
}

extern "C" void scan_tuned_inclusive_f32(const float *d_in, float *d_out, int n, void *d_scratch)
{
    tuned<float, true>(d_in, d_out, n, d_scratch);
}
