/* harness/serve/claim.c: the claimers of build/primlab-serve (serve.h),
 * one thread per GPU slot. Each takes the next job fairly from the queue
 * (pl_queue_claim_on) and runs
 *
 *   SERVE_RUNNER UPLOAD LAB JOBDIR
 *
 * in a process group of its own, with CUDA_VISIBLE_DEVICES=<its GPU>,
 * PRIMLAB_SERVE_JOB=JOBDIR, SERVE_DIR, and PRIMLAB_NO_GPU=1 in a dry run;
 * stdout and stderr to JOBDIR/runner.log (its first SERVE_LOG_MAX bytes:
 * logcap.c). The runner writes JOBDIR/status
 * last (docs/check-service.md): "done", "failed<TAB>why",
 * "machine<TAB>why" or "busy<TAB>why". done and failed end the job;
 * machine takes the GPU out of the rotation (one line in the log) and
 * hands the job back to the queue for another; busy (a make grade on the
 * GPUs has the grading kit: build/grade.lock) hands the job back, not
 * counted as a start, and this GPU takes no job for SERVE_BUSY_PAUSE
 * seconds (a line in the log when that begins and when it ends). A
 * runner past SERVE_JOB_TIMEOUT is killed, its job
 * failed with that reason; one that ends without a status fails its job
 * with its exit status.
 *
 * On a Slurm cluster (SERVE_SLURM=1, slurm.c) a claimer is a slot, not a
 * GPU: it runs harness/serve/slurm-job.sh, which runs the runner on a node
 * through srun and writes the status when Slurm ended the job (failed:
 * cancelled, past its time limit; machine: the node failed, preempted;
 * busy: Slurm refused it). SERVE_JOB_TIMEOUT counts from the job's start
 * on its node (JOBDIR/runner.node), not its wait in Slurm's queue. A
 * machine verdict is one node's, not the slot's: the slot stays, and the
 * job goes back to the queue with its start counted (pl_queue_requeue_ran)
 * unless this was its last start (PL_QUEUE_MAX_ATTEMPTS, the count in the
 * database): then it fails. So a job starts at most twice in all, whether
 * its first start ended in a node failure or in the service's death, and
 * a restart of the service forgets neither. A job handed back or failed
 * at the service's stop, or past its time, has its Slurm job cancelled
 * (by name) and waited for; so does one the service died under, at the
 * next start.
 *
 * Invariant: a runner never starts unrecorded. The child waits on a pipe
 * until its process group, start time and boot are written to
 * JOBDIR/runner.pgid; if the service dies first, the pipe closes and the
 * child exits without running anything. So a service that died (kill -9)
 * finds on its next start every runner it left, kills what is left of
 * each (claim_recover), and only then lets the queue run those jobs
 * again. */
#define _GNU_SOURCE
#include "serve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct slot {
    serve_slot pub; /* under lock */
    pthread_t th;
    int busy;       /* its last runner said busy (the claimer's own) */
} slot;

static slot slots[SERVE_MAX_GPUS];
static int nslots, started;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* slots' pub, gen, stopping, handed_back */
static pthread_cond_t wake;
static unsigned long gen; /* counts claim_wake: a claimer that saw no job waits for it to move */
static int stopping, handed_back;
static int stop_pipe[2] = {-1, -1}; /* readable once stopping: wakes claimers waiting on a runner */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static int devnull = -1;

static void job_path(long id, const char *name, char *out, size_t cap)
{
    pathf(out, cap, "%s/jobs/%ld%s%s", cfg.dir, id, name ? "/" : "", name ? name : "");
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void rm_rf(const char *path) { nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

/* ------------------------------------------------------ /proc, leftovers */

/* The start of file PATH (at most cap - 1 bytes, opened with FLAGS too)
   into buf, ended by a NUL: its length, or -1 when it cannot be read or
   is empty. */
static ssize_t read_start(const char *path, int flags, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return n;
}

/* Field K (1: pid, 3: state, 5: pgrp, 22: starttime) of /proc/PID/stat as
   a number (the state as its letter); 0 when PID is gone. */
static unsigned long long stat_field(pid_t pid, int k)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (read_start(path, 0, buf, sizeof buf) < 0)
        return 0;
    char *p = strrchr(buf, ')'); /* the command's name may hold anything */
    if (!p)
        return 0;
    int field = 2;
    for (char *t = p + 1; *t; t++)
        if (*t == ' ' && ++field == k)
            return k == 3 ? (unsigned long long)(unsigned char)t[1] : strtoull(t + 1, NULL, 10);
    return 0;
}

/* Whether process PID's environment holds the entry ENTRY. */
static int environ_has(pid_t pid, const char *entry)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    const size_t cap = 1 << 16;
    char *buf = malloc(cap);
    ssize_t n = buf ? read_start(path, 0, buf, cap) : -1;
    int found = 0;
    size_t len = strlen(entry);
    if (n > 0) {
        for (char *e = buf; e < buf + n && !found; e += strlen(e) + 1)
            found = strlen(e) == len && !memcmp(e, entry, len);
    }
    free(buf);
    return found;
}

/* The living processes (zombies are gone) of process group PGID; those
   whose environment holds ENTRY unless ANY. Into pids (cap): how many. */
static int group_members(pid_t pgid, const char *entry, int any, pid_t *pids, int cap)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) && n < cap) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == getpid())
            continue;
        if ((pid_t)stat_field((pid_t)pid, 5) != pgid || stat_field((pid_t)pid, 3) == 'Z')
            continue;
        if (any || environ_has((pid_t)pid, entry))
            pids[n++] = (pid_t)pid;
    }
    if (d)
        closedir(d);
    return n;
}

/* Kills what is left of job ID's runner, which a service that died
   started (JOBDIR/runner.pgid): its whole process group when the group's
   leader is still that runner (the same boot, the same start time), else
   the processes of that group whose environment names the job (a pgid is
   reused only once its group is gone). Waits for them to die. How many
   processes it killed. */
static int kill_leftovers(long id)
{
    char path[PATH_MAX], entry[PATH_MAX + 32], boot[40] = "";
    job_path(id, "runner.pgid", path, sizeof path);
    FILE *f = fopen(path, "re");
    long pgid = 0;
    unsigned long long start = 0;
    int ok = f && fscanf(f, "%ld %llu %39s", &pgid, &start, boot) == 3;
    if (f)
        fclose(f);
    if (!ok || pgid <= 1 || strcmp(boot, cfg.boot_id) != 0)
        return 0; /* never started, or a reboot ended it */
    job_path(id, NULL, path, sizeof path);
    snprintf(entry, sizeof entry, "PRIMLAB_SERVE_JOB=%s", path);
    int leader = stat_field((pid_t)pgid, 22) == start && stat_field((pid_t)pgid, 3) != 'Z';
    pid_t pids[512];
    int n = group_members((pid_t)pgid, entry, leader, pids, 512), killed = n;
    if (leader)
        kill(-(pid_t)pgid, SIGKILL);
    else
        for (int i = 0; i < n; i++)
            kill(pids[i], SIGKILL);
    for (int tries = 0; n > 0 && tries < 200; tries++) { /* at most 2 s */
        usleep(10000);
        n = group_members((pid_t)pgid, entry, leader, pids, 512);
    }
    return killed;
}

static int note_running(const pl_job *j, void *ctx)
{
    long **ids = ctx;
    if (ids[0] < ids[1])
        *ids[0]++ = j->id;
    return 0;
}

int claim_recover(char *why, size_t cap)
{
    long ids[4096], *cursor[2] = {ids, ids + 4096};
    if (cfg.slurm && slurm_start(why, cap) != 0)
        return -1;
    pl_queue *q = db_lock();
    int rc = pl_queue_each(q, NULL, PL_JOB_RUNNING, note_running, cursor, why, cap);
    db_unlock();
    if (rc != 0)
        return -1;
    for (long *id = ids; id < cursor[0]; id++) {
        int n = kill_leftovers(*id);
        if (n)
            serve_log("job %ld: killed %d process%s its runner left when the service stopped", *id, n,
                      n == 1 ? "" : "es");
        if (cfg.slurm && slurm_cancel(*id) != 0)
            serve_log("job %ld: its Slurm job may still run (harness/serve/slurm-job.sh cancel failed)", *id);
    }
    int requeued = 0, failed = 0;
    q = db_lock();
    rc = pl_queue_recover(q, wall_now(), &requeued, &failed, why, cap);
    db_unlock();
    if (rc != 0)
        return -1;
    if (requeued || failed)
        serve_log("the service had stopped under %d running job%s: %d queued again, %d failed (it was their "
                  "second start)",
                  requeued + failed, requeued + failed == 1 ? "" : "s", requeued, failed);
    /* an upload whose request died before its job was queued, or whose
       job ended (the service died before it removed it) */
    char path[PATH_MAX];
    pathf(path, sizeof path, "%s/uploads", cfg.dir);
    DIR *d = opendir(path);
    struct dirent *e;
    int gone = 0;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        q = db_lock();
        int used = pl_queue_upload_used(q, e->d_name);
        db_unlock();
        if (used == 0 && unlinkat(dirfd(d), e->d_name, 0) == 0)
            gone++;
    }
    if (d)
        closedir(d);
    if (gone)
        serve_log("removed %d upload%s no job will read (of requests that ended before their job was queued, "
                  "or of jobs ended)",
                  gone, gone == 1 ? "" : "s");
    return 0;
}

/* ------------------------------------------------------------ a runner */

/* The runner's environment: the service's, with its own CUDA_VISIBLE_DEVICES
   (none on Slurm: Slurm sets it on the node), PRIMLAB_SERVE_JOB, SERVE_DIR
   and (dry) PRIMLAB_NO_GPU. Free with free(). */
static char **runner_env(int gpu, const char *jobdir)
{
    static const char *const ours[] = {"CUDA_VISIBLE_DEVICES=", "PRIMLAB_SERVE_JOB=", "SERVE_DIR=",
                                       "PRIMLAB_NO_GPU="};
    size_t n = 0, size = 0;
    for (char **e = environ; *e; e++)
        n++;
    char extra[4][PATH_MAX + 32];
    snprintf(extra[0], sizeof extra[0], "CUDA_VISIBLE_DEVICES=%d", gpu);
    snprintf(extra[1], sizeof extra[1], "PRIMLAB_SERVE_JOB=%s", jobdir);
    snprintf(extra[2], sizeof extra[2], "SERVE_DIR=%s", cfg.dir);
    snprintf(extra[3], sizeof extra[3], "PRIMLAB_NO_GPU=1");
    for (int i = 0; i < 4; i++)
        size += strlen(extra[i]) + 1;
    char **env = malloc((n + 5) * sizeof *env + size);
    if (!env)
        return NULL;
    char *text = (char *)(env + n + 5);
    size_t k = 0;
    for (char **e = environ; *e; e++) {
        int skip = 0;
        for (int i = 0; i < 4; i++)
            skip |= !strncmp(*e, ours[i], strlen(ours[i]));
        if (!skip)
            env[k++] = *e;
    }
    for (int i = cfg.slurm ? 1 : 0; i < (cfg.dry ? 4 : 3); i++) {
        env[k++] = strcpy(text, extra[i]);
        text += strlen(extra[i]) + 1;
    }
    env[k] = NULL;
    return env;
}

/* Starts the runner on job J in JOBDIR, recorded (above): its pid, which
   is its process group, or -1 with why. */
static pid_t spawn(const slot *s, const pl_job *j, const char *upload, const char *jobdir, char *why, size_t cap)
{
    char logpath[PATH_MAX], rec[PATH_MAX];
    pathf(logpath, sizeof logpath, "%s/runner.log", jobdir);
    pathf(rec, sizeof rec, "%s/runner.pgid", jobdir);
    char seconds[16];
    snprintf(seconds, sizeof seconds, "%d", cfg.job_timeout);
    char *local[] = {cfg.runner, (char *)upload, (char *)j->lab, (char *)jobdir, NULL};
    char *slurm[] = {cfg.slurm_script, "run", seconds, cfg.runner, (char *)upload, (char *)j->lab, (char *)jobdir, NULL};
    char **argv = cfg.slurm ? slurm : local;
    char **env = runner_env(s->pub.gpu, jobdir);
    int log = log_capped(logpath, cfg.log_max), go[2] = {-1, -1};
    pid_t pid = -1;
    /* one fork at a time: no child holds another's pipe open */
    pthread_mutex_lock(&spawn_lock);
    if (!env || log < 0 || pipe2(go, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
        snprintf(why, cap, "the service could not start its runner: %s", strerror(errno));
        pid = -1;
        goto out;
    }
    if (pid == 0) { /* async-signal-safe calls only, until exec */
        sigset_t none;
        struct sigaction dfl = {.sa_handler = SIG_DFL};
        char go_byte;
        setpgid(0, 0);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        sigaction(SIGPIPE, &dfl, NULL);
        close(go[1]);
        if (dup2(devnull, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0 || read(go[0], &go_byte, 1) != 1)
            _exit(127);
        execve(argv[0], argv, env);
        _exit(127);
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    close(go[0]);
    go[0] = -1;
    FILE *f = fopen(rec, "we");
    int recorded = f && fprintf(f, "%d %llu %s\n", (int)pid, stat_field(pid, 22), cfg.boot_id) > 0;
    if (f && fclose(f) != 0)
        recorded = 0;
    if (!recorded || write(go[1], "g", 1) != 1) {
        snprintf(why, cap, "the service could not record its runner: %s", strerror(errno));
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
        pid = -1;
    }
out:
    if (go[0] >= 0)
        close(go[0]);
    if (go[1] >= 0)
        close(go[1]);
    pthread_mutex_unlock(&spawn_lock);
    if (log >= 0)
        close(log);
    free(env);
    return pid;
}

/* Waits for runner PID to end, until DEADLINE (monotonic), without reaping
   it (its pid, so its group's id, stays taken until the caller kills the
   group): 0 when it ended, 1 at the deadline, 2 when the service stops
   (if STOPPABLE). */
static int await(pid_t pid, double deadline, int stoppable)
{
    int pfd = (int)syscall(SYS_pidfd_open, pid, 0), rc;
    for (;;) {
        siginfo_t info = {0};
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
            rc = 0;
            break;
        }
        double left = deadline - mono_now();
        if (left <= 0) {
            rc = 1;
            break;
        }
        struct pollfd p[2] = {{.fd = stoppable ? stop_pipe[0] : -1, .events = POLLIN},
                              {.fd = pfd, .events = POLLIN}};
        int ms = pfd < 0 ? 20 : left > 1 ? 1000 : (int)(left * 1000) + 1;
        if (poll(p, 2, ms) > 0 && (p[0].revents & POLLIN)) {
            rc = 2;
            break;
        }
    }
    if (pfd >= 0)
        close(pfd);
    return rc;
}

/* JOBDIR/status: 'd' done, 'f' failed, 'm' machine, 'b' busy (why
   filled), 0 when it is missing or not one of those. */
static int read_status(const char *jobdir, char *why, size_t cap)
{
    char path[PATH_MAX], line[512];
    pathf(path, sizeof path, "%s/status", jobdir);
    if (read_start(path, O_NOFOLLOW, line, sizeof line) < 0)
        return 0;
    line[strcspn(line, "\r\n")] = '\0';
    char *tab = strchr(line, '\t');
    const char *rest = tab ? tab + 1 : "";
    if (tab)
        *tab = '\0';
    snprintf(why, cap, "%s", rest);
    for (char *c = why; *c; c++) /* one line for the student */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
    if (!strcmp(line, "done") && !tab)
        return 'd';
    if (!strcmp(line, "failed") && *rest)
        return 'f';
    if (!strcmp(line, "machine") && *rest)
        return 'm';
    if (!strcmp(line, "busy") && *rest)
        return 'b';
    return 0;
}

/* Where slot S ran its job, for the log: its GPU; on Slurm the node, its
   GPU and the Slurm job, or the slot's number when the job never started. */
static const char *ran_on(const slot *s, char *out, size_t cap)
{
    if (!cfg.slurm)
        snprintf(out, cap, "GPU %d", s->pub.gpu);
    else if (s->pub.where[0])
        snprintf(out, cap, "%s", s->pub.where);
    else
        snprintf(out, cap, "Slurm slot %d", s->pub.gpu);
    return out;
}

static void end_job(const slot *s, const pl_job *j, int ok, const char *reason, double t0)
{
    char why[256], on[128], upload[PATH_MAX];
    pl_queue *q = db_lock();
    int rc = pl_queue_finish(q, j->id, ok, reason, wall_now(), why, sizeof why);
    db_unlock();
    ran_on(s, on, sizeof on);
    /* ended for good, its upload is read no more (a service that dies
       before this line leaves it to the next start's sweep) */
    pathf(upload, sizeof upload, "%s/uploads/%s", cfg.dir, j->upload);
    if (rc == 0 && j->upload[0])
        unlink(upload);
    if (rc != 0)
        serve_log("job %ld: %s", j->id, why);
    else if (ok)
        serve_log("job %ld (lab %s) done on %s in %.2f s", j->id, j->lab, on, mono_now() - t0);
    else
        serve_log("job %ld (lab %s) failed on %s in %.2f s: %s", j->id, j->lab, on, mono_now() - t0, reason);
}

/* Job J back in the queue, its start COUNTED (it ran: a Slurm node failed
   under it) or not (it did not run, or the GPU is out of the rotation). */
static void hand_back(const pl_job *j, int counted)
{
    char why[256];
    pl_queue *q = db_lock();
    int rc = counted ? pl_queue_requeue_ran(q, j->id, why, sizeof why) : pl_queue_requeue(q, j->id, why, sizeof why);
    db_unlock();
    if (rc != 0)
        serve_log("job %ld: %s", j->id, why);
}

/* On Slurm, once job J has started on its node (JOBDIR/runner.node): the
   slot and the job's record say where (the node's GPU, the node, the Slurm
   job). 1 once it has, else 0. */
static int placed(slot *s, const pl_job *j, const char *jobdir)
{
    int gpu;
    char where[sizeof s->pub.where], model[sizeof j->model], why[256];
    if (!slurm_where(jobdir, &gpu, where, sizeof where, model, sizeof model))
        return 0;
    pthread_mutex_lock(&lock);
    snprintf(s->pub.where, sizeof s->pub.where, "%s", where);
    pthread_mutex_unlock(&lock);
    pl_queue *q = db_lock();
    int rc = pl_queue_place(q, j->id, gpu, model, why, sizeof why);
    db_unlock();
    if (rc != 0)
        serve_log("job %ld: %s", j->id, why);
    return 1;
}

/* await on Slurm: SERVE_JOB_TIMEOUT counted from job J's start on its node,
   not from its wait in Slurm's queue (the nodes may all be taken). */
static int await_slurm(slot *s, const pl_job *j, pid_t pid, const char *jobdir)
{
    double deadline = 0; /* 0: not started */
    for (;;) {
        double now = mono_now();
        if (deadline && now >= deadline)
            return 1;
        int how = await(pid, deadline && deadline < now + 1 ? deadline : now + 1, 1);
        if (!deadline && placed(s, j, jobdir))
            deadline = mono_now() + cfg.job_timeout;
        if (how != 1)
            return how;
    }
}

/* Runs job J on slot S to its end (or hands it back). */
static void run_one(slot *s, const pl_job *j)
{
    char upload[PATH_MAX], jobdir[PATH_MAX], why[320], rec[PATH_MAX + 16];
    double t0 = mono_now();
    pathf(upload, sizeof upload, "%s/uploads/%s", cfg.dir, j->upload);
    job_path(j->id, NULL, jobdir, sizeof jobdir);
    if (!j->upload[0] || access(upload, R_OK) != 0) {
        end_job(s, j, 0, "the check service lost this job's upload: submit it again", t0);
        return;
    }
    rm_rf(jobdir); /* an earlier attempt's files */
    if (mkdir(jobdir, 0700) != 0) {
        snprintf(why, sizeof why, "the check service could not make the job's folder: %s", strerror(errno));
        end_job(s, j, 0, why, t0);
        return;
    }
    pthread_mutex_lock(&lock);
    int stop = stopping;
    if (!stop) {
        s->pub.job = j->id;
        snprintf(s->pub.lab, sizeof s->pub.lab, "%s", j->lab);
        snprintf(s->pub.student, sizeof s->pub.student, "%s", j->student);
        s->pub.since = wall_now();
        s->pub.where[0] = '\0';
    }
    pthread_mutex_unlock(&lock);
    pid_t pid = stop ? -1 : spawn(s, j, upload, jobdir, why, sizeof why);
    int how = stop ? 2
              : pid < 0 ? -1
              : cfg.slurm ? await_slurm(s, j, pid, jobdir)
                          : await(pid, t0 + cfg.job_timeout, 1),
        st = 0;
    if (how == 2 && pid > 0) { /* the service stops: TERM, then KILL after 5 s */
        kill(-pid, SIGTERM);
        if (await(pid, mono_now() + 5, 0) != 0)
            kill(-pid, SIGKILL);
    }
    if (pid > 0) {
        kill(-pid, SIGKILL); /* what the runner left in its group; its pid is not reaped yet */
        waitpid(pid, &st, 0);
        if (cfg.slurm && how != 0) /* stopped, or past its time: its Slurm job too */
            slurm_cancel(j->id);
    }
    pathf(rec, sizeof rec, "%s/runner.pgid", jobdir);
    unlink(rec);
    pthread_mutex_lock(&lock);
    s->pub.job = 0;
    pthread_mutex_unlock(&lock);
    char said[256] = "";
    int verdict = how == 0 ? read_status(jobdir, said, sizeof said) : 0;
    if (how != 2 && verdict != 'b' && s->busy) { /* a runner got the grading kit */
        s->busy = 0;
        if (cfg.slurm)
            serve_log("Slurm slot %d takes jobs again", s->pub.gpu);
        else
            serve_log("GPU %d takes jobs again: the grading kit is free", s->pub.gpu);
    }
    if (how == 2) {
        hand_back(j, 0);
        pthread_mutex_lock(&lock);
        handed_back++;
        pthread_mutex_unlock(&lock);
        return;
    }
    if (how < 0) {
        end_job(s, j, 0, why, t0);
        return;
    }
    if (how == 1) {
        snprintf(why, sizeof why, "the check ran longer than %d s (the service's limit, SERVE_JOB_TIMEOUT): stopped",
                 cfg.job_timeout);
        end_job(s, j, 0, why, t0);
        return;
    }
    switch (verdict) {
    case 'b':
        pthread_mutex_lock(&lock);
        s->pub.paused_until = wall_now() + cfg.busy_pause;
        snprintf(s->pub.paused_why, sizeof s->pub.paused_why, "%s", said);
        pthread_mutex_unlock(&lock);
        if (!s->busy && cfg.slurm)
            serve_log("Slurm slot %d pauses (%d s at a time): %s (job %ld goes back to the queue)", s->pub.gpu,
                      cfg.busy_pause, said, j->id);
        else if (!s->busy)
            serve_log("GPU %d pauses (%d s at a time, until the grading kit is free): %s (job %ld goes back to "
                      "the queue)",
                      s->pub.gpu, cfg.busy_pause, said, j->id);
        s->busy = 1;
        hand_back(j, 0);
        break;
    case 'd':
        end_job(s, j, 1, "", t0);
        break;
    case 'f':
        end_job(s, j, 0, said, t0);
        break;
    case 'm':
        /* j->attempts is the database's since the claim: an earlier start
           that a node failure or the service's death ended is counted */
        if (cfg.slurm && j->attempts >= PL_QUEUE_MAX_ATTEMPTS) {
            snprintf(why, sizeof why, "the grading machines failed twice: %s", said);
            end_job(s, j, 0, why, t0);
            break;
        }
        if (cfg.slurm) { /* one node, not the cluster: the slot stays */
            serve_log("job %ld goes back to the queue once (it ran on %s): %s", j->id,
                      s->pub.where[0] ? s->pub.where : "no node", said);
            hand_back(j, 1);
            break;
        }
        pthread_mutex_lock(&lock);
        s->pub.out = 1;
        snprintf(s->pub.out_why, sizeof s->pub.out_why, "%s", said);
        pthread_mutex_unlock(&lock);
        serve_log("GPU %d (%s) leaves the rotation: %s (job %ld goes back to the queue)", s->pub.gpu, s->pub.model,
                  said, j->id);
        hand_back(j, 0);
        break;
    default:
        if (WIFSIGNALED(st))
            snprintf(why, sizeof why, "the check stopped without a verdict (its runner was killed by signal %d)",
                     WTERMSIG(st));
        else
            snprintf(why, sizeof why, "the check stopped without a verdict (its runner exited with status %d)",
                     WEXITSTATUS(st));
        end_job(s, j, 0, why, t0);
    }
}

/* ------------------------------------------------------------ claimers */

static void *claimer(void *arg)
{
    slot *s = arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        unsigned long seen = gen;
        int stop = stopping, out = s->pub.out, paused = s->pub.paused_until > wall_now();
        pthread_mutex_unlock(&lock);
        if (stop)
            break;
        int rc = 0;
        pl_job j;
        char why[256];
        if (!out && !paused) {
            pl_queue *q = db_lock();
            rc = cfg.slurm ? pl_queue_claim_on(q, -1, "waiting for a Slurm node", wall_now(), &j, why, sizeof why)
                           : pl_queue_claim_on(q, s->pub.gpu, s->pub.model, wall_now(), &j, why, sizeof why);
            db_unlock();
            if (rc == 1) {
                run_one(s, &j);
                claim_wake(); /* its student's next job may start now */
                continue;
            }
            if (rc < 0)
                serve_log("%s %d: %s", cfg.slurm ? "Slurm slot" : "GPU", s->pub.gpu, why);
        }
        /* nothing to run: wait for a job (claim_wake), at most 1 s (jobs
           queued by another process), or for the stop */
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += rc < 0 ? 2 : 1;
        pthread_mutex_lock(&lock);
        while (!stopping && gen == seen && pthread_cond_timedwait(&wake, &lock, &until) == 0)
            ;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int claim_start(char *why, size_t cap)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&wake, &a);
    pthread_condattr_destroy(&a);
    if (pipe2(stop_pipe, O_CLOEXEC) != 0 || (devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
        snprintf(why, cap, "claimers: %s", strerror(errno));
        return -1;
    }
    nslots = cfg.ngpus;
    for (int i = 0; i < nslots; i++) {
        slots[i].pub.gpu = cfg.gpus[i];
        snprintf(slots[i].pub.model, sizeof slots[i].pub.model, "%s", cfg.models[i]);
    }
    for (started = 0; started < nslots; started++)
        if (pthread_create(&slots[started].th, NULL, claimer, &slots[started]) != 0) {
            snprintf(why, cap, "claimers: cannot start a thread");
            return -1;
        }
    return 0;
}

int claim_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    if (stop_pipe[1] >= 0 && write(stop_pipe[1], "s", 1) != 1)
        serve_log("claimers: %s", strerror(errno));
    for (int i = 0; i < started; i++)
        pthread_join(slots[i].th, NULL);
    return handed_back;
}

void claim_wake(void)
{
    pthread_mutex_lock(&lock);
    gen++;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
}

int claim_slots(serve_slot *out)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nslots; i++)
        out[i] = slots[i].pub;
    pthread_mutex_unlock(&lock);
    return nslots;
}
