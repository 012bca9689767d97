/* harness/serve/admin_main.c: build/primlab-serve-admin, the instructor's
 * side of the check service's database (harness/serve/queue.h).
 *
 *   primlab-serve-admin tokens DB [--again] [--instructor]
 *       reads account names, one a line, on stdin (make tokens pipes the
 *       roster's students in: harness/lms.py names), and prints
 *       "<name>\t<token>" for each account given a token: those without
 *       one, or every one named with --again (their old tokens then stop
 *       working); --instructor: the accounts are instructors'. Then one
 *       line on stderr: how many were made, kept and refused.
 *
 *   primlab-serve-admin who DB
 *       reads a token on stdin (never an argument, which ps shows) and
 *       prints the account it names and its role, or "nobody" (status 1).
 *
 *   primlab-serve-admin prune DIR DAYS
 *       the service whose SERVE_DIR is DIR (its database DIR/serve.db, or
 *       SERVE_DB): of each job that ended (done or failed) more than DAYS
 *       days ago (a whole number; 0: every job that ended), the files of
 *       its folder DIR/jobs/<id>/ removed but scores.tsv (the
 *       leaderboard's), and its upload if one is left. The database keeps
 *       every row; the job's report then answers 404. One line: how many
 *       jobs' folders lost files, and the bytes freed. It may run beside
 *       the service, which touches an ended job's folder no more; a second
 *       run with the same DAYS prunes nothing.
 *
 * Exit status 0; 1 when a name was refused (the others are still made),
 * or a file could not be removed; 2 on a usage error or when the database
 * cannot be opened. */
#define _GNU_SOURCE
#include "queue.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int usage(void)
{
    fprintf(stderr, "usage: primlab-serve-admin tokens DB [--again] [--instructor] < names\n"
                    "       primlab-serve-admin who DB < token\n"
                    "       primlab-serve-admin prune SERVE_DIR DAYS\n");
    return 2;
}

/* ------------------------------------------------------------- prune */

static long long freed; /* bytes, for rm_entry (nftw passes no context) */
static int unremoved;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    if (flag != FTW_DP && flag != FTW_D && flag != FTW_DNR)
        freed += st->st_size;
    if (remove(path) != 0 && errno != ENOENT) {
        fprintf(stderr, "primlab-serve-admin: cannot remove '%s': %s\n", path, strerror(errno));
        unremoved++;
    }
    return 0;
}

typedef struct prune_ctx {
    const char *dir;
    double before; /* jobs that ended before this (the queue's clock) */
    long jobs;     /* whose folder lost files */
} prune_ctx;

static int prune_job(const pl_job *j, void *arg)
{
    prune_ctx *c = arg;
    if ((j->state != PL_JOB_DONE && j->state != PL_JOB_FAILED) || j->finished >= c->before)
        return 0;
    long long was = freed;
    char path[PATH_MAX], entry[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/jobs/%ld", c->dir, j->id);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "scores.tsv")) {
            snprintf(entry, sizeof entry, "%s/%s", path, e->d_name);
            nftw(entry, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        }
    if (d)
        closedir(d);
    struct stat st;
    snprintf(path, sizeof path, "%s/uploads/%s", c->dir, j->upload);
    if (j->upload[0] && lstat(path, &st) == 0)
        rm_entry(path, &st, FTW_F, NULL);
    c->jobs += freed > was;
    return 0;
}

static int prune(const char *dir, const char *days)
{
    char *end, db[PATH_MAX], why[256];
    errno = 0;
    long n = strtol(days, &end, 10);
    if (!*days || *end || errno || n < 0 || n > 100000) {
        fprintf(stderr, "primlab-serve-admin: DAYS='%s' is not a whole number of days (0 or more)\n", days);
        return 2;
    }
    const char *env = getenv("SERVE_DB");
    snprintf(db, sizeof db, "%s", env && *env ? env : "");
    if (!db[0])
        snprintf(db, sizeof db, "%s/serve.db", dir);
    if (access(db, R_OK | W_OK) != 0) { /* never a new, empty database */
        fprintf(stderr, "primlab-serve-admin: no database '%s': %s (SERVE_DIR's serve.db, or SERVE_DB)\n", db,
                strerror(errno));
        return 2;
    }
    pl_queue *q = pl_queue_open(db, 20000, why, sizeof why);
    if (!q) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    prune_ctx c = {dir, (double)time(NULL) - 86400.0 * (double)n, 0};
    int rc = pl_queue_each(q, NULL, -1, prune_job, &c, why, sizeof why);
    pl_queue_close(q);
    if (rc != 0) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    fprintf(stderr, "primlab-serve-admin: %ld job%s ended over %ld day%s ago pruned, %lld kB freed (their "
                    "scores.tsv and every row of the database kept)\n",
            c.jobs, c.jobs == 1 ? "" : "s", n, n == 1 ? "" : "s", (freed + 1023) / 1024);
    return unremoved ? 1 : 0;
}

static int who(const char *db)
{
    char why[256], token[PL_TOKEN_CHARS + 2] = "", name[PL_NAME_MAX + 1];
    if (!fgets(token, sizeof token, stdin))
        token[0] = '\0';
    token[strcspn(token, "\r\n")] = '\0';
    pl_queue *q = pl_queue_open(db, 20000, why, sizeof why);
    if (!q) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    int role = 0, rc = pl_queue_who(q, token, name, sizeof name, &role, why, sizeof why);
    pl_queue_close(q);
    if (rc < 0) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    if (rc == 0) {
        printf("nobody\n");
        return 1;
    }
    printf("%s\t%s\n", name, role == PL_ROLE_INSTRUCTOR ? "instructor" : "student");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "who"))
        return who(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "prune"))
        return prune(argv[2], argv[3]);
    if (argc < 3 || strcmp(argv[1], "tokens") != 0)
        return usage();
    int again = 0, role = PL_ROLE_STUDENT;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--again"))
            again = 1;
        else if (!strcmp(argv[i], "--instructor"))
            role = PL_ROLE_INSTRUCTOR;
        else
            return usage();
    }
    char why[256];
    pl_queue *q = pl_queue_open(argv[2], 20000, why, sizeof why);
    if (!q) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int made = 0, kept = 0, refused = 0;
    long lineno = 0;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        if (!again && pl_queue_has_account(q, line) == 1) {
            kept++;
            continue;
        }
        char token[PL_TOKEN_CHARS + 1];
        if (pl_queue_issue_token(q, line, role, (double)time(NULL), token, why, sizeof why) != 0) {
            fprintf(stderr, "primlab-serve-admin: line %ld: %s: no token\n", lineno, why);
            refused++;
            continue;
        }
        printf("%s\t%s\n", line, token);
        made++;
    }
    free(line);
    pl_queue_close(q);
    fprintf(stderr, "primlab-serve-admin: %d token%s made, %d account%s kept with the token %s had%s\n", made,
            made == 1 ? "" : "s", kept, kept == 1 ? "" : "s", kept == 1 ? "it" : "they",
            refused ? ", some names refused (above)" : "");
    return refused ? 1 : 0;
}
