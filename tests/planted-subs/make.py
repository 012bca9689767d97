#!/usr/bin/env python3
"""tests/planted-subs/make.py DEST: write the planted lab-01 submissions of
the grading issue into DEST/<case>/01-prefix-sum/prefix_sum.cu, each the
solution with one bug (or the hard-coded cheat, which needs no solution).
Made at test time from solutions/, so that no copy of a solution ships in
the handout's tests/. Prints the cases it wrote; a kit without solutions/
gets only the cases that need none."""
import os
import sys

SOL = "solutions/01-prefix-sum/prefix_sum.cu"
KERNELS = """
__global__ void planted_poke(int *p) { *p = 1; }
__global__ void planted_spin(volatile int *flag) { while (*flag != 12345) { } }
"""

# case: (edits on the solution as (old, new) pairs, what the grader must say)
EDITS = {
    "oob_fault": [("    scan_any(d_in, d_out, n, d_scratch, 1, BLOCK);",
                   "    scan_any(d_in, d_out, n, d_scratch, 1, BLOCK);\n    if (n == 31) planted_poke<<<1, 1>>>((int *)8);")],
    "hang": [("    scan_any(d_in, d_out, n, d_scratch, 0, BLOCK);",
              "    scan_any(d_in, d_out, n, d_scratch, 0, BLOCK);\n    if (n == 65537) planted_spin<<<1, 1>>>(d_out);")],
    "past_end": [("    scan_any(d_in, d_out, n, d_scratch, 1, BLOCK);",
                  "    scan_any(d_in, d_out, n, d_scratch, 1, BLOCK);\n    if (n == 1025) planted_poke<<<1, 1>>>(d_out + n);")],
    "host_segv": [("    if (n > 0)\n        scan_block(d_in, d_out, n, NULL, 0, 1, BLOCK);",
                   "    if (n == 33) *(volatile int *)0 = 1;\n    if (n > 0)\n        scan_block(d_in, d_out, n, NULL, 0, 1, BLOCK);")],
    "no_compile": [("extern \"C\" void scan_exclusive(", "int oops = ;\nextern \"C\" void scan_exclusive(")],
    "slow": [("    scan_any(d_in, d_out, n, d_scratch, 0, BLOCK);",
              "    for (int k = 0; k < 12; k++)\n        scan_any(d_in, d_out, n, d_scratch, 0, BLOCK);")],
}

# The public inputs rebuilt on the host (the kit's generator, copied as a
# student could), and their scans written without looking at d_in.
HARDCODED = r'''/* planted: answers computed from the public inputs (seed 1), never from d_in */
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
'''


def write(dest, case, text):
    d = os.path.join(dest, case, "01-prefix-sum")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "prefix_sum.cu"), "w") as f:
        f.write(text)
    print(case)


def main():
    dest = sys.argv[1]
    write(dest, "hardcoded", HARDCODED)
    if not os.path.exists(SOL):
        return
    sol = open(SOL).read()
    write(dest, "solution", sol)
    for case, edits in EDITS.items():
        text = sol
        for old, new in edits:
            if old not in text:
                sys.exit("planted-subs: the solution changed; '%s' no longer applies" % case)
            text = text.replace(old, new, 1)
        marker = "extern \"C\" void scan_inclusive_block("
        text = text.replace(marker, KERNELS + marker, 1)
        write(dest, case, text)


main()
