/* tests/plants/prefix_sum_hardcoded.cu: a planted lab 01 submission
 * (tests/plants/01-prefix-sum.plants): answers computed from the public
 * inputs (seed 1), never from d_in */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
static uint64_t sm(uint64_t *x) { uint64_t z = (*x += 0x9E3779B97F4A7C15ull); z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; return z ^ (z >> 31); }
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t nx(uint64_t *s) { uint64_t o = rotl(s[1] * 5, 7) * 9, t = s[1] << 17; s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45); return o; }
static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b) { uint64_t x = seed ^ (a * 0xD6E8FEB86659FD93ull) ^ (b * 0xA0761D6478BD642Full); return sm(&x); }
static void answer(const char *part, int *d_out, int n, int exclusive)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *c = part; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    uint64_t seed = mix(1, h, (uint64_t)n);
    int *a = (int *)malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (size_t c = 0; c * (1u << 20) < (size_t)n; c++) {
        uint64_t cs = c == 0 ? seed : mix(seed, c, 0x6368756e6bull), s[4];
        for (int i = 0; i < 4; i++) s[i] = sm(&cs);
        for (size_t i = c << 20; i < (size_t)n && i < (c + 1) << 20; i++) a[i] = (int)(((unsigned __int128)nx(s) * 8) >> 64);
    }
    int acc = 0;
    for (int i = 0; i < n; i++) { int x = a[i]; a[i] = exclusive ? acc : acc + x; acc += x; }
    cudaMemcpy(d_out, a, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice);
    free(a);
}
extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in; answer("a", d_out, n, 0); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *s) { (void)d_in, (void)s; answer("b", d_out, n, 0); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *s) { (void)d_in, (void)s; answer("c", d_out, n, 1); }
/* the block-size part's inputs are not rebuilt: it stays "not implemented" */
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *s, int threads) { (void)d_in, (void)d_out, (void)n, (void)s, (void)threads; }
