/* solutions/05-radix-sort/radix_sort.cu: instructor solution of lab 05.
 *
 * LSD radix sort: passes from the lowest digit up, each pass stable.
 *
 * (a) split: per bit, flags (bit is 0), the harness's exclusive scan, and a
 *     scatter: a 0 goes to its scanned position, a 1 to zeros + i - pos[i].
 * (b) BITS bits per pass (4 for the graded part; 1, 2, 4 and 8 for
 *     radix_sort_bits), BLOCK threads per block (THREADS = 256 for the graded
 *     parts; 32 to 1024 for radix_sort_4bit_threads, the block-size
 *     experiment): each block owns a tile of TILE = BLOCK * ITEMS keys.
 *       histogram: the tile's count of each digit, stored digit-major
 *                  (hist[d * tiles + tile]), so that one exclusive scan of
 *                  the whole array gives every (digit, tile) its first
 *                  output slot;
 *       scan:      primlab_scan_exclusive over RADIX * tiles counts;
 *       scatter:   the tile ranks its keys in shared memory: within a warp,
 *                  the lanes holding the same digit find each other with
 *                  BITS ballots; per-warp running counts per digit give a
 *                  rank that follows input order; a block scan of those
 *                  counts (digit-major) gives each key its slot in the
 *                  tile, sorted by digit. The keys are written to shared
 *                  memory in that order, then out to global memory, so the
 *                  keys of one digit go out as one contiguous run.
 * (c) pairs: the same with the values carried alongside.
 * (d) int and float keys: the digits are taken from the key after an
 *     order-preserving flip (sign bit for int; sign bit for positive floats,
 *     every bit for negative ones); the keys themselves move unchanged.
 * Pass count: one reduction first ORs together key ^ first key: a digit
 * position where no bit differs between any two keys needs no pass (this
 * covers the CIS 565 report's find-max, which skips only the high digits).
 *
 *   make check LAB=05 IMPL=solutions
 *   build/solutions/lab05 run
 *   build/solutions/lab05 passes
 *   build/solutions/lab05 run --part bt     the block-size sweep
 */
#include "radix_sort.h"

#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define THREADS 256              /* threads per block, but in the block-size experiment */
#define ITEMS 8                  /* keys per thread per tile: 2048 keys at 256 threads */

/* ------------------------------------------------------- key flips (d) */

struct plain_key {
    __device__ static unsigned bits(unsigned k) { return k; }
};
struct int_key {
    __device__ static unsigned bits(unsigned k) { return k ^ 0x80000000u; }
};
struct float_key {
    __device__ static unsigned bits(unsigned k) { return k ^ ((unsigned)((int)k >> 31) | 0x80000000u); }
};

static unsigned blocks_for(long work, int per_block) { return (unsigned)((work + per_block - 1) / per_block); }

/* ---------------------------------------------------------- pass count */

/* *diff |= flip(key) ^ flip(key[0]) over all keys. */
template <class Key> __global__ void diff_k(const unsigned *keys, long n, unsigned *diff)
{
    unsigned first = Key::bits(keys[0]), acc = 0;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        acc |= Key::bits(keys[i]) ^ first;
    for (int o = 16; o > 0; o /= 2)
        acc |= __shfl_xor_sync(FULL, acc, o);
    if (threadIdx.x % 32 == 0 && acc)
        atomicOr(diff, acc);
}

/* The bits in which some two keys differ (0 when all are equal). */
template <class Key> static unsigned differing_bits(const unsigned *d_keys, int n, unsigned *d_word)
{
    unsigned diff = 0;
    primlab_phase("pass count");
    cudaMemsetAsync(d_word, 0, sizeof *d_word);
    int grid = blocks_for(n, THREADS) < 1024 ? (int)blocks_for(n, THREADS) : 1024;
    diff_k<Key><<<grid, THREADS>>>(d_keys, n, d_word);
    cudaMemcpy(&diff, d_word, sizeof diff, cudaMemcpyDeviceToHost);
    return diff;
}

/* The shifts of the passes to run, lowest first; returns how many. */
static int pass_shifts(unsigned diff, int bits, int *shift)
{
    int count = 0;
    unsigned mask = (1u << bits) - 1;
    for (int s = 0; s < 32; s += bits)
        if ((diff >> s) & mask)
            shift[count++] = s;
    return count;
}

/* Pass p of count reads the previous pass's output and writes to out when
   an even number of passes follow it, else to the temporary: the last pass
   lands in out. */
template <class T> static T *pass_dst(int p, int count, T *out, T *tmp) { return (count - 1 - p) % 2 == 0 ? out : tmp; }

/* --------------------------------------------------------------- (a) */

__global__ void split_flags_k(const unsigned *keys, int *flags, long n, int shift)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = ((keys[i] >> shift) & 1u) == 0;
}

__global__ void split_scatter_k(const unsigned *in, unsigned *out, const int *flags, const int *pos, long n, int shift)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long zeros = (long)pos[n - 1] + flags[n - 1];
    unsigned k = in[i];
    long dst = (k >> shift) & 1u ? zeros + i - pos[i] : (long)pos[i];
    out[dst] = k;
}

extern "C" void radix_sort_split(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch)
{
    if (n <= 0)
        return;
    int *flags = (int *)d_scratch, *pos = flags + n;
    unsigned *tmp = d_scratch + 2L * n, *word = d_scratch + 3L * n;
    int shift[32];
    int count = pass_shifts(differing_bits<plain_key>(d_in, n, word), 1, shift);
    if (count == 0) {
        cudaMemcpyAsync(d_out, d_in, (size_t)n * sizeof *d_in, cudaMemcpyDeviceToDevice);
        return;
    }
    const unsigned *src = d_in;
    for (int p = 0; p < count; p++) {
        unsigned *dst = pass_dst(p, count, d_out, tmp);
        primlab_phase("flags");
        split_flags_k<<<blocks_for(n, THREADS), THREADS>>>(src, flags, n, shift[p]);
        primlab_phase("scan");
        primlab_scan_exclusive(flags, pos, n);
        primlab_phase("scatter");
        split_scatter_k<<<blocks_for(n, THREADS), THREADS>>>(src, dst, flags, pos, n, shift[p]);
        src = dst;
    }
}

/* --------------------------------------------------------------- (b) */

/* The lanes of this warp whose digit equals mine (valid lanes only). Every
   lane must call it. */
template <int BITS> __device__ __forceinline__ unsigned same_digit(unsigned digit, bool valid)
{
    unsigned peers = __ballot_sync(FULL, valid);
#pragma unroll
    for (int b = 0; b < BITS; b++) {
        unsigned ones = __ballot_sync(FULL, (digit >> b) & 1u);
        peers &= (digit >> b) & 1u ? ones : ~ones;
    }
    return peers;
}

/* The lanes before mine: ranking against them keeps input order (stable). */
__device__ __forceinline__ unsigned lanes_before()
{
    unsigned lane = threadIdx.x % 32;
    return (1u << lane) - 1;
}

template <int BITS, class Key, int BLOCK>
__global__ void __launch_bounds__(BLOCK) histogram_k(const unsigned *keys, long n, int shift, int tiles, int *hist)
{
    constexpr int RADIX = 1 << BITS, TILE = BLOCK * ITEMS;
    __shared__ int count[RADIX];
    for (int d = threadIdx.x; d < RADIX; d += BLOCK)
        count[d] = 0;
    __syncthreads();
    long base = (long)blockIdx.x * TILE + threadIdx.x;
    unsigned key[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; r++) /* every load in flight before the first vote */
        key[r] = base + (long)r * BLOCK < n ? keys[base + (long)r * BLOCK] : 0;
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        bool valid = base + (long)r * BLOCK < n;
        unsigned digit = (Key::bits(key[r]) >> shift) & (RADIX - 1);
        unsigned peers = same_digit<BITS>(digit, valid);
        if (valid && (peers & lanes_before()) == 0) /* one add per digit per warp */
            atomicAdd(&count[digit], __popc(peers));
    }
    __syncthreads();
    for (int d = threadIdx.x; d < RADIX; d += BLOCK)
        hist[(long)d * tiles + blockIdx.x] = count[d];
}

/* Exclusive scan of a[0 .. len) in shared memory by the whole block of
   BLOCK threads; each thread takes a run of consecutive entries. Ends
   synchronised. */
template <int LEN, int BLOCK> __device__ void block_scan_exclusive(int *a, int *warp_sums)
{
    constexpr int PER = (LEN + BLOCK - 1) / BLOCK, WARPS = BLOCK / 32;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, lo = threadIdx.x * PER, sum = 0;
#pragma unroll
    for (int j = 0; j < PER; j++)
        if (lo + j < LEN)
            sum += a[lo + j];
    int incl = sum; /* inclusive scan of the thread sums within the warp */
    for (int o = 1; o < 32; o *= 2) {
        int x = __shfl_up_sync(FULL, incl, o);
        if (lane >= o)
            incl += x;
    }
    if (lane == 31)
        warp_sums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        int w = lane < WARPS ? warp_sums[lane] : 0, wi = w;
        for (int o = 1; o < WARPS; o *= 2) {
            int x = __shfl_up_sync(FULL, wi, o);
            if (lane >= o)
                wi += x;
        }
        if (lane < WARPS)
            warp_sums[lane] = wi - w;
    }
    __syncthreads();
    int run = warp_sums[warp] + incl - sum;
#pragma unroll
    for (int j = 0; j < PER; j++)
        if (lo + j < LEN) {
            int c = a[lo + j];
            a[lo + j] = run;
            run += c;
        }
    __syncthreads();
}

template <int BITS, class Key, bool VALS, int BLOCK>
__global__ void __launch_bounds__(BLOCK) scatter_k(const unsigned *kin, unsigned *kout, const unsigned *vin,
                                                   unsigned *vout, long n, int shift, int tiles, const int *offset)
{
    constexpr int RADIX = 1 << BITS, WARPS = BLOCK / 32, TILE = BLOCK * ITEMS;
    __shared__ int wcount[RADIX * WARPS]; /* [digit][warp]: counts, then slots in the tile */
    __shared__ int gbase[RADIX];          /* global slot of the tile's first key of each digit, minus its tile slot */
    __shared__ int warp_sums[WARPS];
    __shared__ unsigned skeys[TILE];
    __shared__ unsigned svals[VALS ? TILE : 1];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int j = threadIdx.x; j < RADIX * WARPS; j += BLOCK)
        wcount[j] = 0;
    long base = (long)blockIdx.x * TILE;
    long first = base + (long)warp * 32 * ITEMS + lane; /* each warp: 32 * ITEMS consecutive keys */
    unsigned key[ITEMS], val[ITEMS], digit[ITEMS];
    int rank[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        long i = first + 32L * r;
        key[r] = i < n ? kin[i] : 0;
        if (VALS)
            val[r] = i < n ? vin[i] : 0;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        bool valid = first + 32L * r < n;
        digit[r] = (Key::bits(key[r]) >> shift) & (RADIX - 1);
        unsigned peers = same_digit<BITS>(digit[r], valid);
        int *slot = &wcount[digit[r] * WARPS + warp], before = valid ? *slot : 0;
        rank[r] = before + __popc(peers & lanes_before()); /* stable: lanes before me, earlier rounds */
        __syncwarp();
        if (valid && (peers & lanes_before()) == 0)
            *slot = before + __popc(peers);
        __syncwarp();
    }
    __syncthreads();
    block_scan_exclusive<RADIX * WARPS, BLOCK>(wcount, warp_sums);
    for (int d = threadIdx.x; d < RADIX; d += BLOCK)
        gbase[d] = offset[(long)d * tiles + blockIdx.x] - wcount[d * WARPS];
#pragma unroll
    for (int r = 0; r < ITEMS; r++)
        if (first + 32L * r < n) {
            int at = wcount[digit[r] * WARPS + warp] + rank[r];
            skeys[at] = key[r];
            if (VALS)
                svals[at] = val[r];
        }
    __syncthreads();
    int in_tile = n - base < TILE ? (int)(n - base) : TILE;
    for (int j = threadIdx.x; j < in_tile; j += BLOCK) {
        unsigned k = skeys[j];
        long at = (long)gbase[(Key::bits(k) >> shift) & (RADIX - 1)] + j;
        kout[at] = k;
        if (VALS)
            vout[at] = svals[j];
    }
}

/* Scratch: keys, values (pairs only), histograms, their scan, one word:
   2n + 2 * RADIX * n / TILE + 1 words at most, within RS_SCRATCH_INTS(n)
   while RADIX <= TILE (4 bits from 32 threads up, 8 bits from 256). */
template <int BITS, class Key, bool VALS, int BLOCK = THREADS>
static void digit_sort(const unsigned *kin, const unsigned *vin, unsigned *kout, unsigned *vout, int n, unsigned *scratch)
{
    if (n <= 0)
        return;
    constexpr int RADIX = 1 << BITS, TILE = BLOCK * ITEMS;
    static_assert(RADIX <= TILE, "the histograms would outgrow the scratch");
    int tiles = (int)blocks_for(n, TILE);
    unsigned *ktmp = scratch, *vtmp = scratch + n;
    int *hist = (int *)(scratch + 2L * n), *offset = hist + (long)RADIX * tiles;
    unsigned *word = (unsigned *)(offset + (long)RADIX * tiles);
    int shift[32];
    int count = pass_shifts(differing_bits<Key>(kin, n, word), BITS, shift);
    if (count == 0) { /* all keys equal: the input order is the sorted order */
        cudaMemcpyAsync(kout, kin, (size_t)n * sizeof *kin, cudaMemcpyDeviceToDevice);
        if (VALS)
            cudaMemcpyAsync(vout, vin, (size_t)n * sizeof *vin, cudaMemcpyDeviceToDevice);
        return;
    }
    const unsigned *ks = kin, *vs = vin;
    for (int p = 0; p < count; p++) {
        unsigned *kd = pass_dst(p, count, kout, ktmp), *vd = VALS ? pass_dst(p, count, vout, vtmp) : nullptr;
        primlab_phase("histogram");
        histogram_k<BITS, Key, BLOCK><<<tiles, BLOCK>>>(ks, n, shift[p], tiles, hist);
        primlab_phase("scan");
        primlab_scan_exclusive(hist, offset, RADIX * tiles);
        primlab_phase("scatter");
        scatter_k<BITS, Key, VALS, BLOCK><<<tiles, BLOCK>>>(ks, kd, vs, vd, n, shift[p], tiles, offset);
        ks = kd;
        vs = vd;
    }
}

extern "C" void radix_sort_4bit(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch)
{
    digit_sort<4, plain_key, false>(d_in, nullptr, d_out, nullptr, n, d_scratch);
}

extern "C" void radix_sort_4bit_threads(const unsigned *d_in, unsigned *d_out, int n, unsigned *d_scratch, int threads)
{
    switch (threads) { /* any other value: nothing written, as the contract allows */
    case 32: digit_sort<4, plain_key, false, 32>(d_in, nullptr, d_out, nullptr, n, d_scratch); break;
    case 64: digit_sort<4, plain_key, false, 64>(d_in, nullptr, d_out, nullptr, n, d_scratch); break;
    case 128: digit_sort<4, plain_key, false, 128>(d_in, nullptr, d_out, nullptr, n, d_scratch); break;
    case 256: digit_sort<4, plain_key, false, 256>(d_in, nullptr, d_out, nullptr, n, d_scratch); break;
    case 512: digit_sort<4, plain_key, false, 512>(d_in, nullptr, d_out, nullptr, n, d_scratch); break;
    case 1024: digit_sort<4, plain_key, false, 1024>(d_in, nullptr, d_out, nullptr, n, d_scratch); break;
    default: break;
    }
}

extern "C" int radix_sort_bits(const unsigned *d_in, unsigned *d_out, int n, int bits, unsigned *d_scratch)
{
    switch (bits) {
    case 1: digit_sort<1, plain_key, false>(d_in, nullptr, d_out, nullptr, n, d_scratch); return 0;
    case 2: digit_sort<2, plain_key, false>(d_in, nullptr, d_out, nullptr, n, d_scratch); return 0;
    case 4: digit_sort<4, plain_key, false>(d_in, nullptr, d_out, nullptr, n, d_scratch); return 0;
    case 8: digit_sort<8, plain_key, false>(d_in, nullptr, d_out, nullptr, n, d_scratch); return 0;
    default: return -1;
    }
}

/* --------------------------------------------------------------- (c) */

extern "C" void radix_sort_pairs(const unsigned *d_keys_in, const unsigned *d_vals_in, unsigned *d_keys_out,
                                 unsigned *d_vals_out, int n, unsigned *d_scratch)
{
    digit_sort<4, plain_key, true>(d_keys_in, d_vals_in, d_keys_out, d_vals_out, n, d_scratch);
}

/* --------------------------------------------------------------- (d) */

extern "C" void radix_sort_int(const int *d_in, int *d_out, int n, unsigned *d_scratch)
{
    digit_sort<4, int_key, false>((const unsigned *)d_in, nullptr, (unsigned *)d_out, nullptr, n, d_scratch);
}

extern "C" void radix_sort_float(const float *d_in, float *d_out, int n, unsigned *d_scratch)
{
    digit_sort<4, float_key, false>((const unsigned *)d_in, nullptr, (unsigned *)d_out, nullptr, n, d_scratch);
}
