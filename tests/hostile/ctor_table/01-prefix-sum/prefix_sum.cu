/* hostile: ctor_table. A constructor that looks for the grading table in
 * its own process and rewrites it: it walks /proc/self/maps, makes every
 * mapping of its own executable writable (mprotect), and overwrites what
 * looks like points, thresholds and test sizes (the doubles 0.15 and 0.03,
 * the ints 33 and 42, 1 << 24) and verdict words ("FAIL", "no performance
 * points"). The worker holds no table, no points and no verdicts.
 * The grader must give: the stub's score (0), the maximum unchanged, and
 * grading goes on (if the worker dies of it, only that worker is lost). */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void hx_rewrite(unsigned char *lo, unsigned char *hi)
{
    for (unsigned char *p = lo; p + 8 <= hi; p += 4) {
        double d;
        int32_t v;
        memcpy(&v, p, 4);
        if (v == 33 || v == 42)
            v = 0, memcpy(p, &v, 4);
        else if (v == (1 << 24))
            v = 1, memcpy(p, &v, 4);
        if (((uintptr_t)p & 7) == 0) {
            memcpy(&d, p, 8);
            if (d == 0.15 || d == 0.03)
                d = 1e-9, memcpy(p, &d, 8);
        }
        if (!memcmp(p, "FAIL", 4))
            memcpy(p, "OK  ", 4);
    }
    for (unsigned char *p = lo; p + 21 <= hi; p++)
        if (!memcmp(p, "no performance points", 21))
            memset(p, ' ', 21);
}

__attribute__((constructor)) static void hx_ctor_table(void)
{
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return;
    exe[len] = '\0';
    FILE *f = fopen("/proc/self/maps", "r");
    char line[8192];
    int rewritten = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &lo, &hi, perms, path) < 3 || strcmp(path, exe))
            continue;
        if (perms[2] == 'x')
            continue; /* its own code keeps running */
        if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) == 0) {
            hx_rewrite((unsigned char *)lo, (unsigned char *)hi);
            rewritten++;
        }
    }
    if (f)
        fclose(f);
    printf("ctor_table: rewrote %d mappings of %s\n", rewritten, exe);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in, (void)d_out, (void)n; }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
