/* harness/parent/rng.c: xoshiro256** and splitmix64 (see rng.h). */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void pl_rng_seed(pl_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t pl_seed_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t x = seed ^ (a * 0xD6E8FEB86659FD93ull) ^ (b * 0xA0761D6478BD642Full);
    return splitmix64(&x);
}

uint64_t pl_chunk_seed(uint64_t seed, size_t chunk)
{
    return chunk == 0 ? seed : pl_seed_mix(seed, chunk, 0x6368756e6bull /* "chunk" */);
}

void pl_gen_chunks(size_t n, uint64_t seed, pl_chunk_fill fill, void *ctx)
{
    long nchunks = (long)((n + PL_GEN_CHUNK - 1) / PL_GEN_CHUNK);
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (long c = 0; c < nchunks; c++) {
        pl_rng r;
        pl_rng_seed(&r, pl_chunk_seed(seed, (size_t)c));
        size_t lo = (size_t)c * PL_GEN_CHUNK, hi = lo + PL_GEN_CHUNK < n ? lo + PL_GEN_CHUNK : n;
        fill(&r, lo, hi, ctx);
    }
}

struct ints_ctx {
    int *a;
    int lo, hi;
};

static void fill_ints(pl_rng *r, size_t lo, size_t hi, void *p)
{
    struct ints_ctx *c = p;
    for (size_t i = lo; i < hi; i++)
        c->a[i] = (int)pl_rng_range(r, c->lo, c->hi);
}

void pl_gen_ints(int *a, size_t n, uint64_t seed, int lo, int hi)
{
    struct ints_ctx c = {a, lo, hi};
    pl_gen_chunks(n, seed, fill_ints, &c);
}
