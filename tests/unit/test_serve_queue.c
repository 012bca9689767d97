/* tests/unit/test_serve_queue.c: Check tests of the check service's queue
 * (harness/serve/queue.h) on a real SQLite file: the round robin between
 * students, one running job each, the hourly limit and the cap with their
 * one-line refusals, recovery after the service died (once: queued again;
 * twice: failed with a reason), a process killed with SIGKILL in the
 * middle of its work losing no accepted job, and processes side by side
 * (200 students submitting at once; four claimers) where every job is
 * accepted once and run exactly once; tokens that name their account and
 * are kept only as hashes; what the service adds (each job's upload and
 * GPU model, a job's place in the round robin, a job handed back after
 * its GPU failed (uncounted) or its Slurm node did (counted, in the file
 * across a restart), display names with their refusals), submissions made
 * idempotent (a repeat of an id: the same job, not counted) and the
 * migration of a database made before the service, or before that id.
 * No GPU, no service: the queue alone, which no slower test isolates. */
#define _GNU_SOURCE
#include "../../harness/serve/queue.h"
#include "../lib/check_main.h"

#include <check.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[64], path[128];

static void fresh(void)
{
    snprintf(dir, sizeof dir, "/tmp/primlab-queue-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/queue.db", dir);
}

static void gone(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static pl_queue *open_q(void)
{
    char why[256] = "";
    pl_queue *q = pl_queue_open(path, 20000, why, sizeof why);
    ck_assert_msg(q != NULL, "open: %s", why);
    return q;
}

static long submit(pl_queue *q, const char *who, double now)
{
    char why[256] = "";
    long id = pl_queue_submit(q, who, "01", now, NULL, why, sizeof why);
    ck_assert_msg(id > 0, "submit: %s", why);
    return id;
}

/* The student of the job claimed now, "" when none may start. */
static const char *claim(pl_queue *q, double now, pl_job *j)
{
    char why[256] = "";
    int rc = pl_queue_claim(q, 0, now, j, why, sizeof why);
    ck_assert_msg(rc >= 0, "claim: %s", why);
    return rc ? j->student : "";
}

static void finish(pl_queue *q, long id, double now)
{
    char why[256] = "";
    ck_assert_msg(pl_queue_finish(q, id, 1, "", now, why, sizeof why) == 0, "finish: %s", why);
}

START_TEST(round_robin_between_students)
{
    fresh();
    pl_queue *q = open_q();
    submit(q, "ann", 1), submit(q, "ann", 2), submit(q, "ann", 3), submit(q, "bob", 4), submit(q, "cat", 5);
    pl_job a, b, c, x;
    ck_assert_str_eq(claim(q, 10, &a), "ann");
    ck_assert_str_eq(claim(q, 11, &b), "bob");
    ck_assert_str_eq(claim(q, 12, &c), "cat");
    /* ann's next job waits for her first: one running job a student */
    ck_assert_str_eq(claim(q, 13, &x), "");
    finish(q, a.id, 14);
    ck_assert_str_eq(claim(q, 15, &x), "ann");
    ck_assert_int_eq(x.id, a.id + 1);
    ck_assert_int_eq(x.attempts, 1);
    ck_assert_int_eq(pl_queue_count(q, PL_JOB_DONE), 1);
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(the_longest_wait_goes_first)
{
    fresh();
    pl_queue *q = open_q();
    /* ann ran at 10, bob at 20: with a job each queued, ann's goes first,
       though bob submitted before her */
    pl_job j;
    submit(q, "ann", 1), submit(q, "bob", 2);
    ck_assert_str_eq(claim(q, 10, &j), "ann");
    finish(q, j.id, 11);
    ck_assert_str_eq(claim(q, 20, &j), "bob");
    finish(q, j.id, 21);
    submit(q, "bob", 30), submit(q, "ann", 31);
    ck_assert_str_eq(claim(q, 40, &j), "ann");
    ck_assert_str_eq(claim(q, 41, &j), "bob");
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(hourly_limit_and_cap_refuse_in_one_line)
{
    fresh();
    pl_queue *q = open_q();
    char why[256];
    pl_queue_limits lim = {.per_hour = 3, .cap = 0};
    for (int i = 0; i < 3; i++)
        ck_assert_int_gt(pl_queue_submit(q, "ann", "01", 100 + i, &lim, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_submit(q, "ann", "01", 200, &lim, why, sizeof why), -1);
    ck_assert_str_eq(why, "refused: 3 jobs of yours in the last hour, the course's limit is 3 an hour");
    ck_assert_int_gt(pl_queue_submit(q, "bob", "01", 200, &lim, why, sizeof why), 0);
    ck_assert_int_gt(pl_queue_submit(q, "ann", "01", 100 + 3601, &lim, why, sizeof why), 0);
    pl_queue_limits full = {.per_hour = 0, .cap = 5};
    ck_assert_int_eq(pl_queue_submit(q, "cat", "01", 300, &full, why, sizeof why), -1);
    ck_assert_str_eq(why, "refused: the queue is full (5 jobs waiting, at most 5): submit again later");
    ck_assert_ptr_null(strchr(why, '\n'));
    ck_assert_int_eq(pl_queue_count(q, -1), 5);
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(a_job_the_service_died_under_runs_again_once)
{
    fresh();
    pl_queue *q = open_q();
    pl_job j;
    char why[256];
    int re, failed;
    long id = submit(q, "ann", 1);
    claim(q, 2, &j);
    pl_queue_close(q); /* the service stops, the job unfinished */
    q = open_q();
    ck_assert_int_eq(pl_queue_recover(q, 3, &re, &failed, why, sizeof why), 0);
    ck_assert_int_eq(re, 1);
    ck_assert_int_eq(failed, 0);
    ck_assert_str_eq(claim(q, 4, &j), "ann");
    ck_assert_int_eq(j.id, id);
    ck_assert_int_eq(j.attempts, 2);
    pl_queue_close(q); /* and again */
    q = open_q();
    ck_assert_int_eq(pl_queue_recover(q, 5, &re, &failed, why, sizeof why), 0);
    ck_assert_int_eq(re, 0);
    ck_assert_int_eq(failed, 1);
    ck_assert_int_eq(pl_queue_get(q, id, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.state, PL_JOB_FAILED);
    ck_assert_str_eq(j.reason, "the check service stopped while it ran (start 2 of 2): not run again");
    ck_assert_str_eq(claim(q, 6, &j), "");
    /* a finish for a job not running is refused */
    ck_assert_int_eq(pl_queue_finish(q, id, 1, "", 7, why, sizeof why), -1);
    pl_queue_close(q);
    gone();
}
END_TEST

/* A start a node failure ended (pl_queue_requeue_ran) counts, kept in the
   file: the job's next start is its last, whether that ends in the
   service's death or, for claim.c, in a second node failure. */
START_TEST(a_job_whose_node_failed_counts_its_start)
{
    fresh();
    pl_queue *q = open_q();
    pl_job j;
    char why[256];
    int re, failed;
    long id = submit(q, "ann", 1);
    submit(q, "bob", 2);
    ck_assert_int_eq(pl_queue_claim_on(q, -1, "node n1, Slurm job 7", 3, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.id, id);
    ck_assert_int_eq(j.attempts, 1);
    ck_assert_int_eq(pl_queue_requeue_ran(q, id, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_requeue_ran(q, id, why, sizeof why), -1);
    ck_assert_str_eq(why, "no running job 1");
    pl_queue_close(q); /* the service restarts: the count is in the file */
    q = open_q();
    ck_assert_int_eq(pl_queue_get(q, id, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.state, PL_JOB_QUEUED);
    ck_assert_int_eq(j.attempts, 1);
    ck_assert_str_eq(j.model, "");
    ck_assert(j.started == 0);
    /* its student's turn as it was: ann's job goes before bob's again */
    ck_assert_int_eq(pl_queue_position(q, id), 0);
    ck_assert_str_eq(claim(q, 4, &j), "ann");
    ck_assert_int_eq(j.attempts, PL_QUEUE_MAX_ATTEMPTS);
    /* the service dies under that start: the job fails, as after two deaths */
    pl_queue_close(q);
    q = open_q();
    ck_assert_int_eq(pl_queue_recover(q, 5, &re, &failed, why, sizeof why), 0);
    ck_assert_int_eq(re, 0);
    ck_assert_int_eq(failed, 1);
    ck_assert_int_eq(pl_queue_get(q, id, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.state, PL_JOB_FAILED);
    ck_assert_str_eq(j.reason, "the check service stopped while it ran (start 2 of 2): not run again");
    /* an uncounted hand-back (the service stops) takes back its start */
    ck_assert_str_eq(claim(q, 6, &j), "bob");
    ck_assert_int_eq(pl_queue_requeue_ran(q, j.id, why, sizeof why), 0);
    ck_assert_str_eq(claim(q, 7, &j), "bob");
    ck_assert_int_eq(j.attempts, 2);
    ck_assert_int_eq(pl_queue_requeue(q, j.id, why, sizeof why), 0);
    ck_assert_str_eq(claim(q, 8, &j), "bob");
    ck_assert_int_eq(j.attempts, 2);
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(sigkill_loses_no_accepted_job)
{
    fresh();
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) { /* the service: 50 jobs accepted, 2 started, then killed */
        close(fds[0]);
        char why[256];
        pl_queue *q = pl_queue_open(path, 20000, why, sizeof why);
        for (int i = 0; q && i < 50; i++) {
            char who[32];
            snprintf(who, sizeof who, "s%02d", i);
            if (pl_queue_submit(q, who, "01", i, NULL, why, sizeof why) < 0)
                _exit(1);
        }
        pl_job j;
        for (int i = 0; q && i < 2; i++)
            if (pl_queue_claim(q, i, 100, &j, why, sizeof why) != 1)
                _exit(1);
        (void)!write(fds[1], "k", 1);
        for (;;)
            pause();
    }
    close(fds[1]);
    char c;
    ck_assert_int_eq(read(fds[0], &c, 1), 1);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    pl_queue *q = open_q();
    ck_assert_int_eq(pl_queue_count(q, -1), 50);
    ck_assert_int_eq(pl_queue_count(q, PL_JOB_RUNNING), 2);
    char why[256];
    int re, failed;
    ck_assert_int_eq(pl_queue_recover(q, 200, &re, &failed, why, sizeof why), 0);
    ck_assert_int_eq(re, 2);
    ck_assert_int_eq(pl_queue_count(q, PL_JOB_QUEUED), 50);
    pl_queue_close(q);
    gone();
}
END_TEST

/* N processes at once, each running fn(i); all must exit 0. */
static void side_by_side(int n, int (*fn)(int))
{
    pid_t pids[64];
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        ck_assert_int_ge(pids[i], 0);
        if (pids[i] == 0)
            _exit(fn(i));
    }
    for (int i = 0; i < n; i++) {
        int st;
        waitpid(pids[i], &st, 0);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "process %d failed", i);
    }
}

static int ten_students(int k) /* students 10k .. 10k+9, one job each */
{
    char why[256];
    pl_queue *q = pl_queue_open(path, 30000, why, sizeof why);
    if (!q)
        return 1;
    for (int i = 0; i < 10; i++) {
        char who[32];
        snprintf(who, sizeof who, "s%03d", 10 * k + i);
        if (pl_queue_submit(q, who, "01", k, NULL, why, sizeof why) < 0)
            return 1;
    }
    pl_queue_close(q);
    return 0;
}

static int claimer(int gpu) /* claims and finishes until nothing is left */
{
    char why[256];
    pl_queue *q = pl_queue_open(path, 30000, why, sizeof why);
    pl_job j;
    int rc;
    if (!q)
        return 1;
    while ((rc = pl_queue_claim(q, gpu, 1000, &j, why, sizeof why)) == 1)
        if (pl_queue_finish(q, j.id, 1, "", 1001, why, sizeof why) != 0)
            return 1;
    pl_queue_close(q);
    return rc == 0 ? 0 : 1;
}

START_TEST(two_hundred_students_at_once_then_four_claimers)
{
    fresh();
    pl_queue *q = open_q(); /* the schema, before the crowd */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    side_by_side(20, ten_students);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    ck_assert_int_eq(pl_queue_count(q, -1), 200);
    side_by_side(4, claimer);
    ck_assert_int_eq(pl_queue_count(q, PL_JOB_DONE), 200);
    /* each job ran once: one start each */
    pl_job j;
    char why[256];
    for (long id = 1; id <= 200; id++) {
        ck_assert_int_eq(pl_queue_get(q, id, &j, why, sizeof why), 1);
        ck_assert_int_eq(j.attempts, 1);
    }
    printf("# 200 students' jobs accepted by 20 processes at once in %.2f s\n", s);
    ck_assert_msg(s < 30, "200 submissions took %.1f s", s);
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(an_unwritable_place_is_one_line)
{
    char why[256] = "";
    pl_queue *q = pl_queue_open("/nonexistent/dir/queue.db", 100, why, sizeof why);
    ck_assert_ptr_null(q);
    ck_assert_ptr_nonnull(strstr(why, "/nonexistent/dir/queue.db"));
    ck_assert_ptr_null(strchr(why, '\n'));
}
END_TEST

START_TEST(tokens_name_their_account_and_are_kept_hashed)
{
    fresh();
    pl_queue *q = open_q();
    char ann[PL_TOKEN_CHARS + 1], ann2[PL_TOKEN_CHARS + 1], prof[PL_TOKEN_CHARS + 1], why[256], name[PL_NAME_MAX + 1];
    int role = -1;
    ck_assert_int_eq(pl_queue_issue_token(q, "Jones, Ann (1002)", PL_ROLE_STUDENT, 1, ann, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_issue_token(q, "prof", PL_ROLE_INSTRUCTOR, 1, prof, why, sizeof why), 0);
    ck_assert_int_eq((int)strlen(ann), PL_TOKEN_CHARS);
    ck_assert_int_eq(strncmp(ann, "plk_", 4), 0);
    ck_assert_str_ne(ann, prof);
    ck_assert_int_eq(pl_queue_who(q, ann, name, sizeof name, &role, why, sizeof why), 1);
    ck_assert_str_eq(name, "Jones, Ann (1002)");
    ck_assert_int_eq(role, PL_ROLE_STUDENT);
    ck_assert_int_eq(pl_queue_who(q, prof, name, sizeof name, &role, why, sizeof why), 1);
    ck_assert_int_eq(role, PL_ROLE_INSTRUCTOR);
    /* a wrong token, one digit changed, garbage, nothing: nobody */
    char wrong[PL_TOKEN_CHARS + 1];
    snprintf(wrong, sizeof wrong, "%s", ann);
    wrong[10] = wrong[10] == '0' ? '1' : '0';
    ck_assert_int_eq(pl_queue_who(q, wrong, name, sizeof name, &role, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_who(q, "plk_' OR 1=1 --", name, sizeof name, &role, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_who(q, "", name, sizeof name, &role, why, sizeof why), 0);
    /* a new token: the old one stops working */
    ck_assert_int_eq(pl_queue_issue_token(q, "Jones, Ann (1002)", PL_ROLE_STUDENT, 2, ann2, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_who(q, ann, name, sizeof name, &role, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_who(q, ann2, name, sizeof name, &role, why, sizeof why), 1);
    /* names: none empty, none too long, no line break */
    ck_assert_int_eq(pl_queue_issue_token(q, "", 0, 3, ann2, why, sizeof why), -1);
    ck_assert_int_eq(pl_queue_issue_token(q, "ann\nroot", 0, 3, ann2, why, sizeof why), -1);
    ck_assert_str_eq(why, "an account's name holds no control character (a tab, a line break)");
    char big[PL_NAME_MAX + 2];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_int_eq(pl_queue_issue_token(q, big, 0, 3, ann2, why, sizeof why), -1);
    pl_queue_close(q);
    /* the file holds no token, only hashes */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cat '%s'* | grep -c -a -e '%s' -e '%s' -e '%.20s' >/dev/null", path, ann2 + 4, prof + 4,
             ann + 4);
    ck_assert_msg(system(cmd) != 0, "a token is in the database's files");
    gone();
}
END_TEST

static long submit_as(pl_queue *q, const char *who, const char *upload, double now)
{
    char why[256] = "";
    long id = pl_queue_submit_upload(q, who, "01", upload, now, NULL, why, sizeof why);
    ck_assert_msg(id > 0, "submit: %s", why);
    return id;
}

static int count_job(const pl_job *j, void *ctx)
{
    (void)j;
    ++*(int *)ctx;
    return 0;
}

START_TEST(positions_uploads_requeue_and_display_names)
{
    fresh();
    pl_queue *q = open_q();
    char why[256], tok[PL_TOKEN_CHARS + 1], shown[PL_DISPLAY_MAX + 1];
    long a1 = submit_as(q, "ann", "u1", 1), a2 = submit_as(q, "ann", "u2", 2), a3 = submit_as(q, "ann", "u3", 3);
    long b = submit_as(q, "bob", "u4", 4), c = submit_as(q, "cat", "u5", 5);
    /* the round robin runs a1, bob, cat, a2, a3 */
    ck_assert_int_eq(pl_queue_position(q, a1), 0);
    ck_assert_int_eq(pl_queue_position(q, b), 1);
    ck_assert_int_eq(pl_queue_position(q, c), 2);
    ck_assert_int_eq(pl_queue_position(q, a2), 3);
    ck_assert_int_eq(pl_queue_position(q, a3), 4);
    pl_job j;
    ck_assert_int_eq(pl_queue_claim_on(q, 1, "NVIDIA H200", 10, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.id, a1);
    ck_assert_str_eq(j.upload, "u1");
    ck_assert_str_eq(j.model, "NVIDIA H200");
    ck_assert_int_eq(pl_queue_position(q, a1), -1);
    ck_assert_int_eq(pl_queue_position(q, b), 0);
    /* its GPU failed: back in the queue as if never started, first again */
    ck_assert_int_eq(pl_queue_requeue(q, a1, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_requeue(q, a1, why, sizeof why), -1);
    ck_assert_str_eq(why, "no running job 1");
    ck_assert_int_eq(pl_queue_get(q, a1, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.state, PL_JOB_QUEUED);
    ck_assert_int_eq(j.attempts, 0);
    ck_assert_str_eq(j.model, "");
    ck_assert_int_eq(pl_queue_position(q, a1), 0);
    ck_assert_int_eq(pl_queue_claim_on(q, 0, "NVIDIA H200", 11, &j, why, sizeof why), 1);
    ck_assert_int_eq(j.id, a1);
    ck_assert_int_eq(j.attempts, 1);
    int n = 0;
    ck_assert_int_eq(pl_queue_each(q, "ann", -1, count_job, &n, why, sizeof why), 0);
    ck_assert_int_eq(n, 3);
    n = 0;
    ck_assert_int_eq(pl_queue_each(q, NULL, PL_JOB_QUEUED, count_job, &n, why, sizeof why), 0);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(pl_queue_upload_used(q, "u3"), 1);
    ck_assert_int_eq(pl_queue_upload_used(q, "u9"), 0);
    /* running, then ended: its upload is needed no more */
    ck_assert_int_eq(pl_queue_upload_used(q, "u1"), 1);
    ck_assert_int_eq(pl_queue_finish(q, a1, 0, "failed", 12, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_upload_used(q, "u1"), 0);
    /* the hourly limit asked before an upload, as submit gives it */
    pl_queue_limits lim = {.per_hour = 3, .cap = 0};
    ck_assert_int_eq(pl_queue_admit(q, "bob", 20, &lim, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_admit(q, "ann", 20, &lim, why, sizeof why), -1);
    ck_assert_str_eq(why, "refused: 3 jobs of yours in the last hour, the course's limit is 3 an hour");
    ck_assert_int_eq(pl_queue_count(q, -1), 5);
    /* display names */
    ck_assert_int_eq(pl_queue_issue_token(q, "ann", PL_ROLE_STUDENT, 1, tok, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_display(q, "ann", shown, sizeof shown), 1);
    ck_assert_str_eq(shown, "");
    ck_assert_int_eq(pl_queue_set_display(q, "ann", "Ann \xc3\xa9t\xc3\xa9 \xe2\x9c\x93", why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_display(q, "ann", shown, sizeof shown), 1);
    ck_assert_str_eq(shown, "Ann \xc3\xa9t\xc3\xa9 \xe2\x9c\x93");
    const char *bad[] = {"Ann\nroot", "tab\there", "\xff", "\xc0\xaf", "c1 \xc2\x85", "a\x7f",
                         "12345678901234567890123456789012345678901"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(pl_queue_set_display(q, "ann", bad[i], why, sizeof why) == -1, "'%s' accepted", bad[i]);
        ck_assert_ptr_null(strchr(why, '\n'));
    }
    ck_assert_int_eq(pl_queue_display(q, "ann", shown, sizeof shown), 1);
    ck_assert_str_eq(shown, "Ann \xc3\xa9t\xc3\xa9 \xe2\x9c\x93");
    ck_assert_int_eq(pl_queue_set_display(q, "ann", "", why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_set_display(q, "nobody", "x", why, sizeof why), -1);
    ck_assert_int_eq(pl_queue_display(q, "nobody", shown, sizeof shown), 0);
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(a_submission_repeated_is_one_job_and_not_counted)
{
    fresh();
    pl_queue *q = open_q();
    char why[256] = "";
    const char *sub = "0123456789abcdef0123456789abcdef", *other = "fedcba9876543210fedcba9876543210";
    pl_queue_limits lim = {.per_hour = 2, .cap = 0};
    int existed = -1;
    long a = pl_queue_submit_once(q, "ann", "01", "u1", sub, 10, &lim, &existed, why, sizeof why);
    ck_assert_msg(a > 0, "submit: %s", why);
    ck_assert_int_eq(existed, 0);
    ck_assert_int_eq(pl_queue_find_submission(q, "ann", sub, why, sizeof why), a);
    ck_assert_int_eq(pl_queue_find_submission(q, "bob", sub, why, sizeof why), 0);
    /* the answer was lost: the same id again, the same job, uncounted */
    ck_assert_int_eq(pl_queue_submit_once(q, "ann", "01", "u2", sub, 11, &lim, &existed, why, sizeof why), a);
    ck_assert_int_eq(existed, 1);
    ck_assert_int_eq(pl_queue_count(q, -1), 1);
    /* another student's submission of the same id: theirs */
    long b = pl_queue_submit_once(q, "bob", "01", "u3", sub, 12, &lim, &existed, why, sizeof why);
    ck_assert_int_gt(b, a);
    ck_assert_int_eq(existed, 0);
    /* ann's limit of 2 an hour: her second job, then refused, but her
       first submission repeated still answers with its job */
    ck_assert_int_gt(pl_queue_submit_once(q, "ann", "01", "u4", other, 13, &lim, &existed, why, sizeof why), b);
    ck_assert_int_eq(pl_queue_submit_once(q, "ann", "01", "u5", NULL, 14, &lim, &existed, why, sizeof why), -1);
    ck_assert_str_eq(why, "refused: 2 jobs of yours in the last hour, the course's limit is 2 an hour");
    ck_assert_int_eq(pl_queue_submit_once(q, "ann", "01", "u6", sub, 15, &lim, &existed, why, sizeof why), a);
    ck_assert_int_eq(existed, 1);
    /* without an id, every call a job */
    ck_assert_int_gt(pl_queue_submit_once(q, "cat", "01", "u7", "", 16, NULL, &existed, why, sizeof why), 0);
    ck_assert_int_gt(pl_queue_submit_once(q, "cat", "01", "u8", NULL, 17, NULL, &existed, why, sizeof why), 0);
    ck_assert_int_eq(pl_queue_count(q, -1), 5);
    pl_job j;
    ck_assert_int_eq(pl_queue_get(q, a, &j, why, sizeof why), 1);
    ck_assert_str_eq(j.upload, "u1");
    pl_queue_close(q);
    gone();
}
END_TEST

START_TEST(a_database_from_before_the_service_gains_its_columns)
{
    fresh();
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db,
                                  "CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL,"
                                  " lab TEXT NOT NULL, state INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,"
                                  " gpu INTEGER NOT NULL DEFAULT -1, submitted REAL NOT NULL,"
                                  " started REAL NOT NULL DEFAULT 0, finished REAL NOT NULL DEFAULT 0,"
                                  " reason TEXT NOT NULL DEFAULT '');"
                                  "CREATE TABLE accounts (name TEXT PRIMARY KEY, role INTEGER NOT NULL,"
                                  " token_sha256 TEXT NOT NULL UNIQUE, issued REAL NOT NULL);"
                                  "INSERT INTO jobs (student, lab, state, submitted) VALUES ('ann', '01', 0, 1);"
                                  "INSERT INTO accounts VALUES ('ann', 0, 'x', 1);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    pl_queue *q = open_q();
    pl_job j;
    char why[256];
    ck_assert_int_eq(pl_queue_get(q, 1, &j, why, sizeof why), 1);
    ck_assert_str_eq(j.student, "ann");
    ck_assert_str_eq(j.upload, "");
    ck_assert_int_eq(pl_queue_set_display(q, "ann", "Ann", why, sizeof why), 0);
    pl_queue_close(q);
    q = open_q(); /* a second open migrates nothing twice */
    ck_assert_int_eq(pl_queue_count(q, -1), 1);
    pl_queue_close(q);
    gone();
}
END_TEST

/* A database the service of before idempotent submissions made (schema
   version 1: uploads, models, display names) opens, keeps its jobs, and
   takes submissions with an id. */
START_TEST(a_database_of_version_1_gains_submissions)
{
    fresh();
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db,
                                  "CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL,"
                                  " lab TEXT NOT NULL, state INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,"
                                  " gpu INTEGER NOT NULL DEFAULT -1, submitted REAL NOT NULL,"
                                  " started REAL NOT NULL DEFAULT 0, finished REAL NOT NULL DEFAULT 0,"
                                  " reason TEXT NOT NULL DEFAULT '', upload TEXT NOT NULL DEFAULT '',"
                                  " model TEXT NOT NULL DEFAULT '');"
                                  "CREATE INDEX jobs_upload ON jobs(upload);"
                                  "CREATE TABLE accounts (name TEXT PRIMARY KEY, role INTEGER NOT NULL,"
                                  " token_sha256 TEXT NOT NULL UNIQUE, issued REAL NOT NULL,"
                                  " display TEXT NOT NULL DEFAULT '');"
                                  "INSERT INTO jobs (student, lab, state, submitted, upload) VALUES ('ann', '01', 2, 1, 'u1');"
                                  "INSERT INTO jobs (student, lab, state, submitted, upload) VALUES ('ann', '01', 0, 2, 'u2');"
                                  "PRAGMA user_version = 1;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    pl_queue *q = open_q();
    char why[256] = "";
    const char *sub = "00112233445566778899aabbccddeeff";
    int existed = -1;
    ck_assert_int_eq(pl_queue_find_submission(q, "ann", sub, why, sizeof why), 0);
    long id = pl_queue_submit_once(q, "ann", "01", "u3", sub, 3, NULL, &existed, why, sizeof why);
    ck_assert_msg(id == 3, "submit: %ld %s", id, why);
    ck_assert_int_eq(pl_queue_submit_once(q, "ann", "01", "u4", sub, 4, NULL, &existed, why, sizeof why), 3);
    ck_assert_int_eq(existed, 1);
    pl_job j;
    ck_assert_int_eq(pl_queue_get(q, 2, &j, why, sizeof why), 1);
    ck_assert_str_eq(j.upload, "u2");
    pl_queue_close(q);
    q = open_q(); /* reopened: version 2 stays */
    ck_assert_int_eq(pl_queue_count(q, -1), 3);
    pl_queue_close(q);
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(st, 0), 2);
    sqlite3_finalize(st);
    sqlite3_close(db);
    gone();
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("serve_queue");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_robin_between_students);
    tcase_add_test(tc, the_longest_wait_goes_first);
    tcase_add_test(tc, hourly_limit_and_cap_refuse_in_one_line);
    tcase_add_test(tc, a_job_the_service_died_under_runs_again_once);
    tcase_add_test(tc, a_job_whose_node_failed_counts_its_start);
    tcase_add_test(tc, sigkill_loses_no_accepted_job);
    tcase_add_test(tc, two_hundred_students_at_once_then_four_claimers);
    tcase_add_test(tc, an_unwritable_place_is_one_line);
    tcase_add_test(tc, tokens_name_their_account_and_are_kept_hashed);
    tcase_add_test(tc, positions_uploads_requeue_and_display_names);
    tcase_add_test(tc, a_submission_repeated_is_one_job_and_not_counted);
    tcase_add_test(tc, a_database_from_before_the_service_gains_its_columns);
    tcase_add_test(tc, a_database_of_version_1_gains_submissions);
    suite_add_tcase(s, tc);
    return s;
}
