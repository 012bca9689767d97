/* tests/unit/fake_worker.c: a worker without CUDA that speaks the protocol
 * (harness/wire/protocol.h) and misbehaves on request, so that the parent's
 * client (harness/parent/worker_client.c) and its sandbox are tested on a
 * machine without a GPU, as a hostile submission would test them.
 *
 * Parts: "ok" (the output is the input plus one), "segv", "exit", "hang",
 * "forge" (a reply with the wrong nonce), "print" (200 KiB of output),
 * "fork" (leaves sleeping children behind), "spy" (reports its uid, pid,
 * PRIMLAB_SEED and whether it can write the file named in the request's
 * n-th... see CALL), "bomb" (forks until it cannot), "spin" (burns CPU, in
 * itself and in a child), "cudaexit" (prints a CUDA error as a student's
 * checking macro does, then exit(1)), "heap" (prints glibc's message for a
 * corrupted heap, then aborts as glibc does), "flaky" (as "ok", but every
 * third call's output is off by one at index 0: a race that shows now and
 * then, for the stress parts' runs), "noisy" (as "ok", but the timed calls
 * 2 to 5 of its process report 3 ms, the others 1 ms: a performance test's
 * warm-up is call 0, so four of its first seven repetitions are slow, as
 * on a busy host; a second timing in the same process is quiet). A copy
 * bandwidth asked for (COPY_BW) is 1 GB/s: the performance tests' roofs;
 * FAKE_COPY_GBPS="0.5,2" answers its process's first request 0.5, the
 * second and later ones 2 (a copy slowed down, then not). */
#define _GNU_SOURCE
#include "../lib/fake_protocol.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const parts[] = {"ok",  "segv", "exit", "hang", "forge",    "print",
                                    "fork", "spy", "bomb", "spin", "cudaexit", "heap", "flaky", "noisy"};

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    unsigned char *shm = NULL;
    long flaky_calls = 0, timed_calls = 0, copies = 0;
    while (next_request(parts, sizeof parts / sizeof parts[0], &shm)) {
        pl_shm_layout l = pl_shm_layout_for(q.in_len, q.out_len, q.reps);
        if (q.kind == PL_REQ_COPY_BW) {
            const char *list = getenv("FAKE_COPY_GBPS");
            rep.ms = 1.0;
            for (long k = 0; list && *list && k <= copies; k++) {
                rep.ms = strtod(list, NULL);
                const char *comma = strchr(list, ',');
                if (!comma)
                    break;
                list = comma + 1;
            }
            copies++;
        } else if (q.kind == PL_REQ_FETCH) {
            int *in = (int *)(shm + l.in), *out = (int *)(shm + l.out[q.slot & 1]);
            for (int64_t i = 0; i < q.out_len && i < q.in_len; i++)
                out[i] = in[i] + 1;
            if (!strcmp(q.part, "flaky") && flaky_calls % 3 == 0 && q.out_len > 0 && q.in_len > 0)
                out[0] = in[0] + 2;
            memcpy(shm + l.in_after, in, (size_t)q.in_len * 4);
            memset(shm + l.guard_front, PL_POISON_BYTE, 2 * PL_GUARD_BYTES);
        } else if (q.kind == PL_REQ_CALL) {
            flaky_calls += !strcmp(q.part, "flaky");
            if ((q.flags & PL_RQ_PATCH) && q.patch_at >= 0 && q.patch_at < q.in_len) /* a timed call's patch */
                ((int *)(shm + l.in))[q.patch_at] = q.patch_value;
            if (!strcmp(q.part, "segv"))
                raise(SIGSEGV);
            if (!strcmp(q.part, "exit"))
                _exit(3);
            if (!strcmp(q.part, "cudaexit")) {
                fprintf(stderr, "CUDA error (efficient.cu:272): invalid argument\n");
                exit(1);
            }
            if (!strcmp(q.part, "heap")) {
                fprintf(stderr, "free(): invalid next size (fast)\n");
                abort();
            }
            if (!strcmp(q.part, "hang"))
                for (;;)
                    pause();
            if (!strcmp(q.part, "forge"))
                q.nonce ^= 1;
            if (!strcmp(q.part, "print"))
                for (int i = 0; i < 200; i++)
                    printf("%01023d\n", i);
            if (!strcmp(q.part, "fork"))
                for (int i = 0; i < 5; i++)
                    if (fork() == 0) {
                        setsid();
                        for (;;)
                            pause();
                    }
            if (!strcmp(q.part, "spin")) { /* 300 ms of CPU in a child it leaves running, then in itself */
                if (fork() == 0) {
                    volatile unsigned long x = 0;
                    for (;;)
                        x++;
                }
                struct timespec a, b; /* 300 ms of its own CPU time, however busy the machine */
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
                do
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
                while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < 300);
            }
            if (!strcmp(q.part, "bomb")) {
                int made = 0;
                while (made < 100000) {
                    pid_t p = fork();
                    if (p == 0)
                        for (;;)
                            pause();
                    if (p < 0)
                        break;
                    made++;
                }
                rep.ms = made;
            }
            if (!strcmp(q.part, "spy")) {
                /* n: 0 reports who it is; 1 tries to write the path in shm */
                const char *seed = getenv("PRIMLAB_SEED");
                if (q.n == 0) {
                    /* and the GPUs it may reach: CUDA_VISIBLE_DEVICES, the GPUs' own device files */
                    char gpus[256] = "";
                    DIR *d = opendir("/dev");
                    struct dirent *e;
                    while (d && (e = readdir(d)))
                        if (!strncmp(e->d_name, "nvidia", 6) && e->d_name[6] >= '0' && e->d_name[6] <= '9' &&
                            strlen(gpus) + strlen(e->d_name) + 2 < sizeof gpus)
                            strcat(strcat(gpus, " "), e->d_name);
                    if (d)
                        closedir(d);
                    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
                    snprintf(rep.reason, sizeof rep.reason, "uid=%d pid=%d seed=%s home=%s cvd=%s nodes=[%s ]",
                             (int)getuid(), (int)getpid(), seed ? seed : "(none)",
                             getenv("HOME") ? getenv("HOME") : "(none)", cvd ? cvd : "(none)", gpus);
                } else {
                    const char *path = (const char *)(shm + l.in);
                    int fd = open(path, q.n == 1 ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY, 0644);
                    snprintf(rep.reason, sizeof rep.reason, "%s %s: %s", q.n == 1 ? "write" : "read", path,
                             fd >= 0 ? "done" : strerror(errno));
                    if (fd >= 0)
                        close(fd);
                }
            }
            fflush(stdout);
            rep.ms = 1.0;
            if (q.flags & PL_RQ_TIMED) {
                long k = timed_calls++;
                if (!strcmp(q.part, "noisy") && k >= 2 && k <= 5)
                    rep.ms = 3.0;
            }
        }
        reply();
    }
    return 0;
}
