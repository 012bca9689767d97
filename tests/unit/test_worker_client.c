/* tests/unit/test_worker_client.c: Check tests of the parent's end of
 * the worker protocol (harness/parent/worker_client.h) against the scripted
 * fake worker: requests, crashes, output caps, CPU time, processes left,
 * the sandbox, and the pinned GPU's device files (gpu_nodes.h). */
#define _GNU_SOURCE
#include "../../harness/parent/gpu_nodes.h"
#include "../../harness/parent/outcome.h"
#include "../../harness/parent/worker_client.h"
#include "fake_session.h"
#include "../lib/check_main.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------- the worker client */


static int bwrap_works(void)
{
    return system("bwrap --ro-bind / / --unshare-all --die-with-parent true >/dev/null 2>&1") == 0;
}

/* One request for part at size n; returns 1 when answered. */
static int fake_ask(pl_session *s, const char *part, int kind, long n, double limit_s, pl_reply *rep, pl_result *r)
{
    pl_req q;
    memset(&q, 0, sizeof q);
    memset(r, 0, sizeof *r);
    q.kind = (uint32_t)kind;
    snprintf(q.part, sizeof q.part, "%s", part);
    q.n = n, q.in_len = n, q.out_len = n;
    double wall;
    return pl_session_request(s, &q, rep, pl_now() + limit_s, &wall, r);
}

/* A worker's names reach data files' comment lines: no line break or
   control byte of its own gets through (a forged row of data). */
START_TEST(client_hello_names_one_line)
{
    setenv("FAKE_DEVICE", "GPU\n08\tc\tsolution\x1b[2J", 1);
    setenv("FAKE_VENDOR", "CCCL\r\n# forged", 1);
    setenv("PRIMLAB_WORKER_PROFILE", "1", 1); /* the whole environment reaches the worker */
    pl_session *s = fake_session();
    unsetenv("FAKE_DEVICE");
    unsetenv("FAKE_VENDOR");
    unsetenv("PRIMLAB_WORKER_PROFILE");
    ck_assert_str_eq(pl_session_hello(s)->device, "GPU?08?c?solution?[2J");
    ck_assert_str_eq(pl_session_hello(s)->vendor, "CCCL??# forged");
    pl_session_close(s);
}
END_TEST

START_TEST(client_round_trip)
{
    pl_session *s = fake_session();
    ck_assert_str_eq(pl_session_hello(s)->device, "fake device");
    pl_shm_layout l = pl_shm_layout_for(1000, 1000, 0);
    unsigned char *shm = pl_session_shm(s, l.total);
    for (int i = 0; i < 1000; i++)
        ((int *)(shm + l.in))[i] = 3 * i;
    pl_reply rep;
    pl_result r;
    ck_assert(fake_ask(s, "ok", PL_REQ_FETCH, 1000, 10, &rep, &r));
    ck_assert_int_eq(rep.status, PL_W_OK);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(((int *)(shm + l.out[0]))[i], 3 * i + 1);
    pl_session_close(s);
}
END_TEST

/* How far the region's mapping was faulted in is the session's to keep,
   and starts again from nothing with each new mapping (the region grown). */
START_TEST(client_region_faulted_per_mapping)
{
    pl_session *s = fake_session();
    unsigned char *shm = pl_session_shm(s, 1 << 20);
    ck_assert_ptr_nonnull(shm);
    *pl_session_faulted(s) = 1 << 20;
    ck_assert_ptr_eq(pl_session_shm(s, 1 << 20), shm); /* no new mapping */
    ck_assert_uint_eq(*pl_session_faulted(s), 1 << 20);
    ck_assert_ptr_nonnull(pl_session_shm(s, (size_t)64 << 20));
    ck_assert_uint_eq(*pl_session_faulted(s), 0);
    pl_session_close(s);
}
END_TEST

START_TEST(client_crashes_cost_one_request)
{
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    ck_assert(!fake_ask(s, "segv", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "segmentation fault") != NULL, "%s", r.reason);
    ck_assert_str_eq(r.bugs, "crash");
    ck_assert(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r)); /* a fresh worker */
    ck_assert(!fake_ask(s, "exit", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "exited with status 3") != NULL, "%s", r.reason);
    ck_assert_str_eq(r.bugs, "exit");
    double t0 = pl_now();
    ck_assert(!fake_ask(s, "hang", PL_REQ_CALL, 1, 0.5, &rep, &r));
    ck_assert_int_eq(r.status, PL_TIMEOUT);
    ck_assert(pl_now() - t0 < 5);
    pl_session_label(s, "cudaexit");
    ck_assert(!fake_ask(s, "cudaexit", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "exited after printing a CUDA error, \"invalid argument\"") != NULL, "%s", r.reason);
    ck_assert_str_eq(r.cuda_error, "invalid argument");
    ck_assert_str_eq(r.bugs, "cuda_error");
    ck_assert_msg(strstr(r.detail, "reported at efficient.cu:272, then exit status 1") != NULL, "%s", r.detail);
    pl_session_label(s, "heap");
    ck_assert(!fake_ask(s, "heap", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_CRASH);
    ck_assert_msg(strstr(r.reason, "heap corrupted (\"free(): invalid next size (fast)\")") != NULL, "%s", r.reason);
    ck_assert_str_eq(r.bugs, "heap_corrupt");
    pl_session_label(s, "exit again");
    ck_assert(!fake_ask(s, "exit", PL_REQ_CALL, 1, 10, &rep, &r)); /* the last test's words are not this one's */
    ck_assert_msg(strstr(r.reason, "exited with status 3") != NULL, "%s", r.reason);
    ck_assert(!fake_ask(s, "forge", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(r.status, PL_ERROR);
    ck_assert_msg(strstr(r.reason, "not the answer to its request") != NULL, "%s", r.reason);
    ck_assert(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r));
    pl_session_close(s);
}
END_TEST

START_TEST(client_output_is_capped_and_kept_apart)
{
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    pl_session_label(s, "01.a printing test");
    ck_assert(fake_ask(s, "print", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_eq(rep.status, PL_W_OK);
    ck_assert_uint_ge(pl_session_printed(s), 200 * 1024);
    pl_session_close(s);
    FILE *f = fopen("build/tests/fake-worker.log", "r");
    ck_assert_ptr_nonnull(f);
    char line[2048];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "== 01.a printing test\n");
    fseek(f, 0, SEEK_END);
    ck_assert_int_lt(ftell(f), 70 * 1024);
    fclose(f);
}
END_TEST

START_TEST(client_counts_cpu_time)
{
    /* the kernel's count for every process of the worker, children too */
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    double before = pl_session_cpu_ms(s);
    ck_assert(fake_ask(s, "spin", PL_REQ_CALL, 1, 10, &rep, &r));
    double used = pl_session_cpu_ms(s) - before;
    ck_assert_msg(used >= 290, "%.0f ms counted for 300 ms of the worker's CPU time (and its child's)", used);
    pl_session_close(s);
}
END_TEST

/* Processes whose executable is the fake worker (or the private copy the
   client runs when it is root). */
/* The processes and threads of uid 65534 (every sandbox's) on this host. */
static int sandbox_uid_tasks(void)
{
    FILE *p = popen("ps -L -u 65534 -o lwp= 2>/dev/null | wc -l", "r");
    int n = 0;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = 0;
        pclose(p);
    }
    return n;
}

static int fake_processes(void)
{
    char path[300], exe[4096];
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while ((e = readdir(d)))
        if (atoi(e->d_name) > 0) {
            snprintf(path, sizeof path, "/proc/%s/exe", e->d_name);
            ssize_t len = readlink(path, exe, sizeof exe - 1);
            if (len > 0) {
                exe[len] = '\0';
                n += strstr(exe, "/fake-worker") != NULL;
            }
        }
    closedir(d);
    return n;
}

START_TEST(client_leaves_no_process)
{
    pl_session *s = fake_session();
    pl_reply rep;
    pl_result r;
    ck_assert(fake_ask(s, "fork", PL_REQ_CALL, 1, 10, &rep, &r));
    ck_assert_int_ge(fake_processes(), 6);
    pl_session_close(s);
    for (int i = 0; i < 100 && fake_processes() > 0; i++)
        usleep(10000);
    ck_assert_int_eq(fake_processes(), 0);
}
END_TEST

START_TEST(sandbox_hides_and_protects)
{
    if (!bwrap_works() || getenv("PRIMLAB_NO_SANDBOX")) {
        printf("SKIP: sandbox tests: bubblewrap is missing or cannot run here; not counted as passed\n");
        return;
    }
    setenv("PRIMLAB_SEED", "424242", 1);
    /* the limit counts every process of uid 65534 on this host, the other
       sandboxes' too (make test runs suites side by side): 64 above those */
    int limit = sandbox_uid_tasks() + 64;
    char limit_s[16];
    snprintf(limit_s, sizeof limit_s, "%d", limit);
    setenv("PRIMLAB_WORKER_NPROC", limit_s, 1);
    pl_session *s = fake_session();
    unsetenv("PRIMLAB_SEED");
    unsetenv("PRIMLAB_WORKER_NPROC");
    ck_assert(pl_session_sandboxed(s));
    pl_reply rep;
    pl_result r;
    /* who it is: the unprivileged uid, its own pid namespace, no seed */
    ck_assert(fake_ask(s, "spy", PL_REQ_CALL, 0, 10, &rep, &r));
    ck_assert_msg(strstr(rep.reason, "uid=65534 ") != NULL, "%s", rep.reason);
    ck_assert_msg(strstr(rep.reason, "seed=(none)") != NULL, "%s", rep.reason);
    ck_assert_msg(strstr(rep.reason, "home=/tmp") != NULL, "%s", rep.reason);
    int pid = atoi(strstr(rep.reason, "pid=") + 4);
    ck_assert_msg(pid < 10, "pid %d: not in its own pid namespace", pid);
    /* the kit: neither writable nor readable (its sources are hidden) */
    char target[4096];
    ck_assert_ptr_nonnull(getcwd(target, sizeof target - 32));
    strcat(target, "/build/tests/pwned");
    unlink(target);
    pl_shm_layout l = pl_shm_layout_for(1024, 1024, 0);
    unsigned char *shm = pl_session_shm(s, l.total);
    snprintf((char *)shm + l.in, 4096, "%s", target);
    pl_req q;
    memset(&q, 0, sizeof q);
    q.kind = PL_REQ_CALL;
    snprintf(q.part, sizeof q.part, "spy");
    q.n = 1, q.in_len = 1024, q.out_len = 1024;
    double wall;
    ck_assert(pl_session_request(s, &q, &rep, pl_now() + 10, &wall, &r));
    ck_assert_int_ne(access(target, F_OK), 0);
    /* nor the host's /dev/shm, a channel between students */
    unlink("/dev/shm/primlab-pwned-test");
    snprintf((char *)shm + l.in, 4096, "/dev/shm/primlab-pwned-test");
    ck_assert(pl_session_request(s, &q, &rep, pl_now() + 10, &wall, &r));
    ck_assert_int_ne(access("/dev/shm/primlab-pwned-test", F_OK), 0);
    char src[4096];
    ck_assert_ptr_nonnull(getcwd(src, sizeof src - 32));
    strcat(src, "/tests/unit/test_worker_client.c"); /* this file: there, but not to the worker */
    ck_assert_int_eq(access(src, F_OK), 0);
    snprintf((char *)shm + l.in, 4096, "%s", src);
    q.n = 2;
    ck_assert(pl_session_request(s, &q, &rep, pl_now() + 10, &wall, &r));
    ck_assert_msg(strstr(rep.reason, "No such file") != NULL, "the kit is visible: %s", rep.reason);
    /* a fork bomb stops at the process limit and the worker still serves */
    ck_assert(fake_ask(s, "bomb", PL_REQ_CALL, 1, 30, &rep, &r));
    ck_assert_msg(rep.ms < limit, "%g processes made under a limit of %d", rep.ms, limit);
    ck_assert(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r));
    pl_session_close(s);
    for (int i = 0; i < 100 && fake_processes() > 0; i++)
        usleep(10000);
    ck_assert_int_eq(fake_processes(), 0);
}
END_TEST

/* A sandbox that bwrap cannot make for want of processes (EAGAIN: uid
   65534's process limit, which every sandbox on the host shares, full for
   a while) is started again: a bwrap first on PATH that fails twice so,
   then runs the real one. The worker starts, answers, and bwrap ran 3
   times. */
START_TEST(sandbox_started_again_when_processes_run_out)
{
    if (!bwrap_works() || getenv("PRIMLAB_NO_SANDBOX")) {
        printf("SKIP: sandbox tests: bubblewrap is missing or cannot run here; not counted as passed\n");
        return;
    }
    char real[4096] = "", dir[] = "/tmp/primlab-bwrap-XXXXXX", path[8192], script[4200], count[4200];
    FILE *w = popen("command -v bwrap", "r");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(fgets(real, sizeof real, w));
    pclose(w);
    real[strcspn(real, "\n")] = '\0';
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(chmod(dir, 0755), 0);
    snprintf(count, sizeof count, "%s/count", dir);
    snprintf(script, sizeof script, "%s/bwrap", dir);
    FILE *f = fopen(count, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(chmod(count, 0666), 0);
    f = fopen(script, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\necho x >>%s\nif [ \"$(wc -l <%s)\" -le 2 ]; then\n"
               "  echo 'bwrap: Creating new namespace failed: Resource temporarily unavailable' >&2; exit 1\nfi\n"
               "exec %s \"$@\"\n", count, count, real);
    fclose(f);
    ck_assert_int_eq(chmod(script, 0755), 0);
    const char *old = getenv("PATH");
    char *saved = strdup(old ? old : "");
    snprintf(path, sizeof path, "%s:%s", dir, saved);
    setenv("PATH", path, 1);
    pl_session *s = fake_session();
    setenv("PATH", saved, 1);
    free(saved);
    pl_reply rep;
    pl_result r;
    ck_assert_msg(fake_ask(s, "ok", PL_REQ_CALL, 1, 10, &rep, &r), "%s", r.reason);
    ck_assert(pl_session_sandboxed(s));
    pl_session_close(s);
    f = fopen(count, "r");
    ck_assert_ptr_nonnull(f);
    int runs = 0;
    for (int c; (c = fgetc(f)) != EOF;)
        runs += c == '\n';
    fclose(f);
    ck_assert_int_eq(runs, 3);
    unlink(script);
    unlink(count);
    rmdir(dir);
}
END_TEST

/* ------------------------------------------- the pinned GPU's device files */

/* A driver listing like /proc/driver/nvidia/gpus in a fresh folder: GPUs
   given as "bus minor uuid model", one per string; returns the folder. */
static const char *fake_driver(const char *const *gpus, int n)
{
    static char root[64];
    snprintf(root, sizeof root, "/tmp/primlab-gpus-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    for (int i = 0; i < n; i++) {
        char bus[32], minor[16], uuid[64], model[64], path[256];
        ck_assert_int_eq(sscanf(gpus[i], "%31s %15s %63s %63[^\n]", bus, minor, uuid, model), 4);
        snprintf(path, sizeof path, "%s/%s", root, bus);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        strcat(path, "/information");
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "Model: \t\t %s\nIRQ:   \t\t 17\nGPU UUID: \t %s\nBus Type: \t PCIe\n"
                   "Bus Location: \t %s\nDevice Minor: \t %s\nGPU Excluded:\t No\n", model, uuid, bus, minor);
        fclose(f);
    }
    return root;
}

static void rm_fake_driver(const char *root)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

/* Three GPUs whose minors are not in bus order, as drivers number them. */
static const char *const three[] = {"0000:86:00.0 1 GPU-cccc3333-0000 NVIDIA H200",
                                    "0000:18:00.0 0 GPU-aaaa1111-0000 NVIDIA H200",
                                    "0000:3b:00.0 2 GPU-bbbb2222-0000 NVIDIA H200"};

START_TEST(pinned_gpus_from_the_driver)
{
    const char *root = fake_driver(three, 3);
    pl_pinned p;
    /* ordinals in bus order; the sandbox gets UUIDs */
    ck_assert(pl_pinned_gpus("1", "PCI_BUS_ID", root, &p));
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(p.minor[0], 2);
    ck_assert_str_eq(p.uuids, "GPU-bbbb2222-0000");
    ck_assert(pl_pinned_gpus("2,0", "PCI_BUS_ID", root, &p));
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(p.minor[0], 1);
    ck_assert_int_eq(p.minor[1], 0);
    ck_assert_str_eq(p.uuids, "GPU-cccc3333-0000,GPU-aaaa1111-0000");
    /* CUDA's default order, every GPU the same model: bus order too */
    ck_assert(pl_pinned_gpus("0", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 0);
    /* a UUID, or a prefix naming one GPU */
    ck_assert(pl_pinned_gpus("GPU-cccc3333-0000", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 1);
    ck_assert(pl_pinned_gpus("GPU-bb", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 2);
    /* not certain: nothing narrowed */
    const char *unsure[] = {"", "3", "-1", "1,1", "GPU-", "GPU-dddd", "MIG-1234", "x", "0,7"};
    for (size_t i = 0; i < sizeof unsure / sizeof unsure[0]; i++)
        ck_assert_msg(!pl_pinned_gpus(unsure[i], "PCI_BUS_ID", root, &p), "'%s' narrowed", unsure[i]);
    ck_assert(!pl_pinned_gpus(NULL, "PCI_BUS_ID", root, &p));
    ck_assert(!pl_pinned_gpus("0", "PCI_BUS_ID", "/nonexistent/gpus", &p));
    rm_fake_driver(root);
    /* mixed models: ordinals in CUDA's default order (fastest first) are not certain; PCI order and UUIDs are */
    const char *mixed[] = {"0000:18:00.0 0 GPU-aaaa1111-0000 NVIDIA H100 80GB HBM3",
                           "0000:3b:00.0 1 GPU-bbbb2222-0000 NVIDIA H200"};
    root = fake_driver(mixed, 2);
    ck_assert(!pl_pinned_gpus("0", NULL, root, &p));
    ck_assert(pl_pinned_gpus("0", "PCI_BUS_ID", root, &p));
    ck_assert(pl_pinned_gpus("GPU-bbbb2222", NULL, root, &p));
    ck_assert_int_eq(p.minor[0], 1);
    rm_fake_driver(root);
    /* an unreadable listing: nothing narrowed */
    const char *odd[] = {"0000:18:00.0 x GPU-aaaa1111-0000 NVIDIA H200"};
    root = fake_driver(odd, 1);
    ck_assert(!pl_pinned_gpus("0", "PCI_BUS_ID", root, &p));
    rm_fake_driver(root);
}
END_TEST

/* A worker pinned to one GPU: its sandbox has that GPU's device file alone
   (where the host has /dev/nvidia0 and the pin names another minor, it is
   gone) and CUDA_VISIBLE_DEVICES names it by UUID. */
START_TEST(sandbox_binds_only_the_pinned_gpu)
{
    if (!bwrap_works() || getenv("PRIMLAB_NO_SANDBOX")) {
        printf("SKIP: sandbox tests: bubblewrap is missing or cannot run here; not counted as passed\n");
        return;
    }
    const char *root = fake_driver(three, 3);
    setenv("PRIMLAB_NVIDIA_GPUS", root, 1);
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    pl_session *s = fake_session();
    unsetenv("PRIMLAB_NVIDIA_GPUS");
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CUDA_DEVICE_ORDER");
    pl_reply rep;
    pl_result r;
    ck_assert(fake_ask(s, "spy", PL_REQ_CALL, 0, 10, &rep, &r));
    pl_session_close(s);
    rm_fake_driver(root);
    ck_assert_msg(strstr(rep.reason, "cvd=GPU-bbbb2222-0000 ") != NULL, "%s", rep.reason);
    /* minor 2 is the pinned one: the host's nvidia0 and nvidia1, if any, stay out */
    ck_assert_msg(strstr(rep.reason, " nvidia0 ") == NULL && strstr(rep.reason, " nvidia1 ") == NULL, "%s",
                  rep.reason);
    if (access("/dev/nvidia2", F_OK) == 0)
        ck_assert_msg(strstr(rep.reason, " nvidia2 ") != NULL, "%s", rep.reason);
    /* unpinned: every GPU's file, as before */
    s = fake_session();
    ck_assert(fake_ask(s, "spy", PL_REQ_CALL, 0, 10, &rep, &r));
    pl_session_close(s);
    if (access("/dev/nvidia0", F_OK) == 0)
        ck_assert_msg(strstr(rep.reason, " nvidia0 ") != NULL, "%s", rep.reason);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("worker_client");
    TCase *t;
    t = tcase_create("worker_client");
    tcase_add_test(t, client_hello_names_one_line);
    tcase_add_test(t, client_round_trip);
    tcase_add_test(t, client_region_faulted_per_mapping);
    tcase_add_test(t, client_crashes_cost_one_request);
    tcase_add_test(t, client_output_is_capped_and_kept_apart);
    tcase_add_test(t, client_leaves_no_process);
    tcase_add_test(t, client_counts_cpu_time);
    tcase_add_test(t, sandbox_hides_and_protects);
    tcase_add_test(t, sandbox_started_again_when_processes_run_out);
    tcase_add_test(t, pinned_gpus_from_the_driver);
    tcase_add_test(t, sandbox_binds_only_the_pinned_gpu);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
