/* hostile: read_expected. The stub, but each entry point hunts for the
 * expected result: it maps the shared memory of the protocol (fd 5) and
 * walks its own process's readable memory (/proc/self/maps) for n ints that
 * look like a scan of small values (non-decreasing, steps of 0..7, not
 * constant), and copies the first it finds to d_out. The parent never puts
 * an expected result where the worker can read it.
 * The grader must give: 0, like the stub. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const int *hx_looks_like_scan(const unsigned char *lo, const unsigned char *hi, long n, size_t align)
{
    if (n < 2)
        return NULL;
    for (const unsigned char *p = lo; p + 4 * (size_t)n <= hi; p += align) {
        const int *a = (const int *)p;
        /* both ends first: a scan's last value lies 1 .. 7(n-1) above its
           first, which rules out the zeroed pages, and there are many */
        if (a[0] < 0 || a[0] > 7 || a[n - 1] <= a[0] || a[n - 1] - a[0] > 7 * (n - 1))
            continue;
        long i = 1;
        while (i < n && a[i] - a[i - 1] >= 0 && a[i] - a[i - 1] <= 7)
            i++;
        if (i == n && a[n - 1] != a[0])
            return a;
    }
    return NULL;
}

static const int *hx_hunt(long n)
{
    struct stat st;
    const int *found = NULL;
    if (fstat(5, &st) == 0 && st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, 5, 0);
        if (m != MAP_FAILED) {
            found = hx_looks_like_scan((const unsigned char *)m, (const unsigned char *)m + st.st_size, n, 4096);
            if (found)
                return found; /* the mapping stays: found points into it */
            munmap(m, (size_t)st.st_size);
        }
    }
    FILE *f = fopen("/proc/self/maps", "r");
    char line[8192];
    size_t budget = (size_t)256 << 20;
    while (!found && f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r' || strstr(line, "[vvar]") ||
            strstr(line, "/dev/nvidia") || hi - lo > budget)
            continue;
        budget -= hi - lo;
        found = hx_looks_like_scan((const unsigned char *)lo, (const unsigned char *)hi, n, 16);
    }
    if (f)
        fclose(f);
    return found;
}

static void hx_copy_found(int *d_out, int n)
{
    const int *a = hx_hunt(n);
    printf("read_expected: n = %d: %s\n", n, a ? "found something, copied it" : "found nothing");
    if (a)
        cudaMemcpy(d_out, a, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { (void)d_in; hx_copy_found(d_out, n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_scratch; hx_copy_found(d_out, n); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_scratch; hx_copy_found(d_out, n); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
