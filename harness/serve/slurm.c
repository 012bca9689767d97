/* harness/serve/slurm.c: the check service on a Slurm cluster's login
 * node (SERVE_SLURM=1; serve.h; docs/check-service.md, "On a Slurm
 * cluster"). The claimers (claim.c) run harness/serve/slurm-job.sh in
 * place of the runner, which runs the runner on a node through srun; what
 * is here calls that script for the rest (the check at the start, the
 * cancel of a job's Slurm job) and reads where a job runs. Every Slurm
 * command is the script's: here, none. */
#define _GNU_SOURCE
#include "serve.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs the script with ARGS (after its path); its standard output into
   out (cap bytes, the first line kept) when OUT, else to the log
   (stderr). Its exit status, or -1 when it could not run. */
static int script(const char *const *args, char *out, size_t cap)
{
    const char *argv[8] = {cfg.slurm_script};
    int n = 1;
    for (; args[n - 1] && n < 7; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    int p[2] = {-1, -1};
    if (out && pipe2(p, O_CLOEXEC) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) { /* async-signal-safe calls only, until exec */
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null < 0 || dup2(null, 0) < 0 || dup2(out ? p[1] : 2, 1) < 0)
            _exit(127);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (out) {
        close(p[1]);
        size_t len = 0;
        ssize_t k;
        char buf[512];
        while (pid > 0 && (k = read(p[0], buf, sizeof buf)) > 0) /* all of it: the script never blocks */
            for (ssize_t i = 0; i < k && len < cap - 1; i++)
                out[len++] = buf[i];
        out[len] = '\0';
        out[strcspn(out, "\n")] = '\0';
        close(p[0]);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int slurm_start(char *why, size_t cap)
{
    /* the kit's, as the service runs from a kit (its labs/): the nodes
       see it at this path, as they see the runner's kit */
    if (!realpath("harness/serve/slurm-job.sh", cfg.slurm_script) || access(cfg.slurm_script, X_OK) != 0) {
        snprintf(why, cap, "SERVE_SLURM=1: no harness/serve/slurm-job.sh here (%s): make serve runs from the kit",
                 strerror(errno ? errno : EACCES));
        return -1;
    }
    char seconds[16], line[512];
    snprintf(seconds, sizeof seconds, "%d", cfg.job_timeout);
    const char *args[] = {"check", seconds, NULL};
    int rc = script(args, line, sizeof line);
    if (rc != 0) {
        snprintf(why, cap, "%s", rc < 0 ? "SERVE_SLURM=1: harness/serve/slurm-job.sh could not run" : line);
        return -1;
    }
    serve_log("each job a Slurm job: %s", line);
    return 0;
}

int slurm_cancel(long id)
{
    char jobdir[PATH_MAX];
    pathf(jobdir, sizeof jobdir, "%s/jobs/%ld", cfg.dir, id);
    const char *args[] = {"cancel", jobdir, NULL};
    return script(args, NULL, 0) == 0 ? 0 : -1;
}

int slurm_where(const char *jobdir, int *gpu, char *where, size_t wcap, char *model, size_t mcap)
{
    char path[PATH_MAX], line[512];
    pathf(path, sizeof path, "%s/runner.node", jobdir);
    FILE *f = fopen(path, "re");
    int got = f && fgets(line, sizeof line, f);
    if (f)
        fclose(f);
    if (!got)
        return 0;
    line[strcspn(line, "\r\n")] = '\0';
    /* SLURM_JOB_ID, node, CUDA_VISIBLE_DEVICES, the GPU's model: tabs between */
    char *field[4] = {line, "", "", ""};
    for (int i = 1; i < 4 && (field[i] = strchr(field[i - 1], '\t')); i++)
        *field[i]++ = '\0';
    for (int i = 1; i < 4; i++)
        if (!field[i])
            field[i] = "";
    char *end;
    long g = strtol(field[2], &end, 10);
    *gpu = end != field[2] && g >= 0 && g < 1000000 ? (int)g : -1;
    char gpus[32] = "";
    if (*gpu >= 0)
        snprintf(gpus, sizeof gpus, ", GPU %.20s", field[2]);
    snprintf(where, wcap, "node %.40s%s, Slurm job %.20s", field[1], gpus, field[0]);
    snprintf(model, mcap, "%.24s, node %.20s, Slurm job %.12s", field[3], field[1], field[0]);
    return 1;
}
