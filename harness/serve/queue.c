/* harness/serve/queue.c: the check service's durable queue (queue.h), on
 * SQLite: the schema, and each change as one IMMEDIATE transaction. */
#define _GNU_SOURCE
#include "queue.h"

#include <openssl/evp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

struct pl_queue {
    sqlite3 *db;
};

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS jobs ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " student TEXT NOT NULL,"
    " lab TEXT NOT NULL,"
    " state INTEGER NOT NULL,"
    " attempts INTEGER NOT NULL DEFAULT 0,"
    " gpu INTEGER NOT NULL DEFAULT -1,"
    " submitted REAL NOT NULL,"
    " started REAL NOT NULL DEFAULT 0,"
    " finished REAL NOT NULL DEFAULT 0,"
    " reason TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, id);"
    "CREATE INDEX IF NOT EXISTS jobs_student ON jobs(student, submitted);"
    "CREATE TABLE IF NOT EXISTS accounts ("
    " name TEXT PRIMARY KEY,"
    " role INTEGER NOT NULL,"
    " token_sha256 TEXT NOT NULL UNIQUE,"
    " issued REAL NOT NULL);";

static void say(char *why, size_t cap, const char *what, sqlite3 *db)
{
    if (why && cap)
        snprintf(why, cap, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

/* Runs SQL (no rows): 0, or -1 with why. */
static int exec(pl_queue *q, const char *sql, char *why, size_t cap)
{
    char *err = NULL;
    if (sqlite3_exec(q->db, sql, NULL, NULL, &err) == SQLITE_OK)
        return 0;
    if (why && cap)
        snprintf(why, cap, "the queue's database: %s", err ? err : "error");
    sqlite3_free(err);
    return -1;
}

/* What later steps add to SCHEMA, in order: a database at user_version N
   has had the first N. Each runs once, in the transaction that counts it. */
static const char *const MIGRATIONS[] = {
    /* 1, the service (step 3): each job's upload and GPU model, each
       account's display name */
    "ALTER TABLE jobs ADD COLUMN upload TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE jobs ADD COLUMN model TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE accounts ADD COLUMN display TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX IF NOT EXISTS jobs_upload ON jobs(upload);",
    /* 2, submissions made idempotent: the client's id of each (NULL for a
       job of before, or of a client that sends none), once per student */
    "ALTER TABLE jobs ADD COLUMN submission TEXT;"
    "CREATE UNIQUE INDEX IF NOT EXISTS jobs_submission ON jobs(student, submission) WHERE submission IS NOT NULL;",
};

static int begin(pl_queue *q, char *why, size_t cap);
static int commit(pl_queue *q, char *why, size_t cap);
static void rollback(pl_queue *q);

static int migrate(pl_queue *q, char *why, size_t cap)
{
    const int n = (int)(sizeof MIGRATIONS / sizeof MIGRATIONS[0]);
    if (begin(q, why, cap) != 0)
        return -1;
    sqlite3_stmt *st = NULL;
    int have = -1;
    if (sqlite3_prepare_v2(q->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        have = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (have < 0) {
        say(why, cap, "the queue's database", q->db);
        goto fail;
    }
    for (int i = have; i < n; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", i + 1);
        if (exec(q, MIGRATIONS[i], why, cap) != 0 || exec(q, sql, why, cap) != 0)
            goto fail;
    }
    return commit(q, why, cap);
fail:
    rollback(q);
    return -1;
}

pl_queue *pl_queue_open(const char *path, int busy_ms, char *why, size_t cap)
{
    pl_queue *q = calloc(1, sizeof *q);
    if (!q) {
        say(why, cap, "the queue", NULL);
        return NULL;
    }
    if (sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        say(why, cap, path, q->db);
        pl_queue_close(q);
        return NULL;
    }
    sqlite3_busy_timeout(q->db, busy_ms > 0 ? busy_ms : 10000);
    /* WAL: readers never wait for the writer; FULL: a commit is on the
       disk when it returns, in WAL mode too */
    if (exec(q, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;", why, cap) != 0 ||
        exec(q, SCHEMA, why, cap) != 0 || migrate(q, why, cap) != 0) {
        pl_queue_close(q);
        return NULL;
    }
    return q;
}

void pl_queue_close(pl_queue *q)
{
    if (!q)
        return;
    sqlite3_close(q->db);
    free(q);
}

/* A statement of SQL, NULL with why. */
static sqlite3_stmt *prepare(pl_queue *q, const char *sql, char *why, size_t cap)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK) {
        say(why, cap, "the queue's database", q->db);
        return NULL;
    }
    return st;
}

/* One number a query gives (its first column of its first row); -1 with
   why on an error. */
static long scalar(pl_queue *q, sqlite3_stmt *st, char *why, size_t cap)
{
    long v = 0;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else if (rc != SQLITE_DONE) {
        say(why, cap, "the queue's database", q->db);
        v = -1;
    }
    sqlite3_finalize(st);
    return v;
}

/* Whether SQL, a count(*) with one text parameter TEXT, counts a row: 1,
   0, or -1 on an error. */
static int any(pl_queue *q, const char *sql, const char *text)
{
    sqlite3_stmt *st = prepare(q, sql, NULL, 0);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    long n = scalar(q, st, NULL, 0);
    return n < 0 ? -1 : n > 0;
}

/* Runs ST, a statement that gives no rows, and frees it: 0, or -1 with
   why. */
static int run(pl_queue *q, sqlite3_stmt *st, char *why, size_t cap)
{
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return 0;
    say(why, cap, "the queue's database", q->db);
    return -1;
}

/* Runs ST, a change of one row, and frees it: 0; -1 with why on an error;
   1 when it changed no row (the caller says which was missing). */
static int run_one(pl_queue *q, sqlite3_stmt *st, char *why, size_t cap)
{
    if (run(q, st, why, cap) != 0)
        return -1;
    return sqlite3_changes(q->db) != 1;
}

/* run_one for ST, a change of running job ID: 0; -1 with why, which says
   so when no running job ID was there. */
static int run_running(pl_queue *q, sqlite3_stmt *st, long id, char *why, size_t cap)
{
    int rc = run_one(q, st, why, cap);
    if (rc > 0)
        snprintf(why, cap, "no running job %ld", id);
    return rc ? -1 : 0;
}

static int begin(pl_queue *q, char *why, size_t cap) { return exec(q, "BEGIN IMMEDIATE", why, cap); }
static int commit(pl_queue *q, char *why, size_t cap) { return exec(q, "COMMIT", why, cap); }
static void rollback(pl_queue *q) { sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL); }

/* The hourly limit and the cap, inside a transaction: 0, or -1 with the
   refusal (or the error) in why. */
static int refuse(pl_queue *q, const char *student, double now, const pl_queue_limits *lim, char *why, size_t cap)
{
    sqlite3_stmt *st;
    long n;
    if (lim && lim->per_hour > 0) {
        st = prepare(q, "SELECT count(*) FROM jobs WHERE student = ?1 AND submitted > ?2", why, cap);
        if (!st)
            return -1;
        sqlite3_bind_text(st, 1, student, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 2, now - 3600);
        if ((n = scalar(q, st, why, cap)) < 0)
            return -1;
        if (n >= lim->per_hour) {
            snprintf(why, cap, "refused: %ld jobs of yours in the last hour, the course's limit is %d an hour", n,
                     lim->per_hour);
            return -1;
        }
    }
    if (lim && lim->cap > 0) {
        st = prepare(q, "SELECT count(*) FROM jobs WHERE state = 0", why, cap);
        if (!st || (n = scalar(q, st, why, cap)) < 0)
            return -1;
        if (n >= lim->cap) {
            snprintf(why, cap, "refused: the queue is full (%ld jobs waiting, at most %d): submit again later", n,
                     lim->cap);
            return -1;
        }
    }
    return 0;
}

long pl_queue_submit(pl_queue *q, const char *student, const char *lab, double now, const pl_queue_limits *lim,
                     char *why, size_t cap)
{
    return pl_queue_submit_upload(q, student, lab, "", now, lim, why, cap);
}

int pl_queue_admit(pl_queue *q, const char *student, double now, const pl_queue_limits *lim, char *why, size_t cap)
{
    if (begin(q, why, cap) != 0)
        return -1;
    int rc = refuse(q, student, now, lim, why, cap);
    rollback(q);
    return rc;
}

long pl_queue_submit_upload(pl_queue *q, const char *student, const char *lab, const char *upload, double now,
                            const pl_queue_limits *lim, char *why, size_t cap)
{
    return pl_queue_submit_once(q, student, lab, upload, NULL, now, lim, NULL, why, cap);
}

/* STUDENT's job of submission SUB, inside a transaction or not: its id, 0
   when there is none, -1 (why) on an error. */
static long job_of_submission(pl_queue *q, const char *student, const char *sub, char *why, size_t cap)
{
    sqlite3_stmt *st = prepare(q, "SELECT id FROM jobs WHERE student = ?1 AND submission = ?2", why, cap);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, student, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, sub, -1, SQLITE_STATIC);
    return scalar(q, st, why, cap);
}

long pl_queue_find_submission(pl_queue *q, const char *student, const char *submission, char *why, size_t cap)
{
    return job_of_submission(q, student, submission, why, cap);
}

long pl_queue_submit_once(pl_queue *q, const char *student, const char *lab, const char *upload,
                          const char *submission, double now, const pl_queue_limits *lim, int *existed, char *why,
                          size_t cap)
{
    if (existed)
        *existed = 0;
    if (begin(q, why, cap) != 0)
        return -1;
    sqlite3_stmt *st;
    long id;
    if (submission && *submission) { /* a repeat: the job it made, neither counted nor limited */
        if ((id = job_of_submission(q, student, submission, why, cap)) < 0)
            goto fail;
        if (id > 0) {
            rollback(q);
            if (existed)
                *existed = 1;
            return id;
        }
    }
    if (refuse(q, student, now, lim, why, cap) != 0)
        goto fail;
    st = prepare(q, "INSERT INTO jobs (student, lab, state, submitted, upload, submission) VALUES (?1, ?2, 0, ?3, ?4, ?5)",
                 why, cap);
    if (!st)
        goto fail;
    sqlite3_bind_text(st, 1, student, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, lab, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, now);
    sqlite3_bind_text(st, 4, upload ? upload : "", -1, SQLITE_STATIC);
    if (submission && *submission)
        sqlite3_bind_text(st, 5, submission, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 5);
    if (run(q, st, why, cap) != 0)
        goto fail;
    id = (long)sqlite3_last_insert_rowid(q->db);
    if (commit(q, why, cap) != 0)
        goto fail;
    return id;
fail:
    rollback(q);
    return -1;
}

/* A job's columns, as row_job reads them. */
#define JOB_COLUMNS "id, student, lab, state, attempts, gpu, submitted, started, finished, reason, upload, model"

static void column_text(sqlite3_stmt *st, int i, char *out, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, cap, "%s", t ? (const char *)t : "");
}

/* The row ST stands on (JOB_COLUMNS) into *job. */
static void row_job(sqlite3_stmt *st, pl_job *job)
{
    memset(job, 0, sizeof *job);
    job->id = (long)sqlite3_column_int64(st, 0);
    column_text(st, 1, job->student, sizeof job->student);
    column_text(st, 2, job->lab, sizeof job->lab);
    job->state = sqlite3_column_int(st, 3);
    job->attempts = sqlite3_column_int(st, 4);
    job->gpu = sqlite3_column_int(st, 5);
    job->submitted = sqlite3_column_double(st, 6);
    job->started = sqlite3_column_double(st, 7);
    job->finished = sqlite3_column_double(st, 8);
    column_text(st, 9, job->reason, sizeof job->reason);
    column_text(st, 10, job->upload, sizeof job->upload);
    column_text(st, 11, job->model, sizeof job->model);
}

/* Job ID's row into *job. 1, 0 (none) or -1. */
static int read_job(pl_queue *q, long id, pl_job *job, char *why, size_t cap)
{
    sqlite3_stmt *st = prepare(q,
                               "SELECT " JOB_COLUMNS " FROM jobs WHERE id = ?1",
                               why, cap);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        row_job(st, job);
        found = 1;
    } else if (rc != SQLITE_DONE) {
        say(why, cap, "the queue's database", q->db);
        found = -1;
    }
    sqlite3_finalize(st);
    return found;
}

int pl_queue_get(pl_queue *q, long id, pl_job *job, char *why, size_t cap) { return read_job(q, id, job, why, cap); }

/* The round robin, in one query: among students with a queued job and none
   running, the one whose last start is oldest (never started: first), ties
   by their oldest queued job; then that student's oldest queued job. */
static const char NEXT_JOB[] =
    "SELECT j.id FROM jobs j"
    " JOIN (SELECT student, min(id) AS first FROM jobs WHERE state = 0 GROUP BY student) w"
    "   ON j.id = w.first"
    " WHERE NOT EXISTS (SELECT 1 FROM jobs r WHERE r.student = j.student AND r.state = 1)"
    " ORDER BY (SELECT coalesce(max(s.started), 0) FROM jobs s WHERE s.student = j.student AND s.started > 0),"
    "          j.id"
    " LIMIT 1";

int pl_queue_claim(pl_queue *q, int gpu, double now, pl_job *job, char *why, size_t cap)
{
    return pl_queue_claim_on(q, gpu, "", now, job, why, cap);
}

int pl_queue_claim_on(pl_queue *q, int gpu, const char *model, double now, pl_job *job, char *why, size_t cap)
{
    if (begin(q, why, cap) != 0)
        return -1;
    sqlite3_stmt *st = prepare(q, NEXT_JOB, why, cap);
    long id;
    if (!st || (id = scalar(q, st, why, cap)) < 0)
        goto fail;
    if (id == 0) {
        rollback(q);
        return 0;
    }
    st = prepare(q, "UPDATE jobs SET state = 1, attempts = attempts + 1, gpu = ?2, started = ?3, model = ?4 WHERE id = ?1",
                 why, cap);
    if (!st)
        goto fail;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, gpu);
    sqlite3_bind_double(st, 3, now);
    sqlite3_bind_text(st, 4, model ? model : "", -1, SQLITE_STATIC);
    if (run(q, st, why, cap) != 0)
        goto fail;
    if (read_job(q, id, job, why, cap) != 1 || commit(q, why, cap) != 0)
        goto fail;
    return 1;
fail:
    rollback(q);
    return -1;
}

int pl_queue_finish(pl_queue *q, long id, int ok, const char *reason, double now, char *why, size_t cap)
{
    sqlite3_stmt *st = prepare(q, "UPDATE jobs SET state = ?2, finished = ?3, reason = ?4 WHERE id = ?1 AND state = 1",
                               why, cap);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, ok ? PL_JOB_DONE : PL_JOB_FAILED);
    sqlite3_bind_double(st, 3, now);
    sqlite3_bind_text(st, 4, reason ? reason : "", -1, SQLITE_STATIC);
    return run_running(q, st, id, why, cap);
}

int pl_queue_recover(pl_queue *q, double now, int *requeued, int *failed, char *why, size_t cap)
{
    if (begin(q, why, cap) != 0)
        return -1;
    char sql[512];
    snprintf(sql, sizeof sql,
             "UPDATE jobs SET state = 3, finished = %.6f, reason = 'the check service stopped while it ran "
             "(start %d of %d): not run again' WHERE state = 1 AND attempts >= %d",
             now, PL_QUEUE_MAX_ATTEMPTS, PL_QUEUE_MAX_ATTEMPTS, PL_QUEUE_MAX_ATTEMPTS);
    if (exec(q, sql, why, cap) != 0)
        goto fail;
    *failed = sqlite3_changes(q->db);
    if (exec(q, "UPDATE jobs SET state = 0, gpu = -1 WHERE state = 1", why, cap) != 0)
        goto fail;
    *requeued = sqlite3_changes(q->db);
    if (commit(q, why, cap) != 0)
        goto fail;
    return 0;
fail:
    rollback(q);
    return -1;
}

long pl_queue_count(pl_queue *q, int state)
{
    sqlite3_stmt *st = prepare(q, state < 0 ? "SELECT count(*) FROM jobs" : "SELECT count(*) FROM jobs WHERE state = ?1",
                               NULL, 0);
    if (!st)
        return -1;
    if (state >= 0)
        sqlite3_bind_int(st, 1, state);
    return scalar(q, st, NULL, 0);
}

/* Running job ID back in the queue, its start COUNTED or not. started as
   before the claim either way: its student's turn in the round robin is
   as it was, since the job gave them no verdict. */
static int requeue(pl_queue *q, long id, int counted, char *why, size_t cap)
{
    sqlite3_stmt *st = prepare(q,
                               counted ? "UPDATE jobs SET state = 0, gpu = -1, started = 0, model = ''"
                                         " WHERE id = ?1 AND state = 1"
                                       : "UPDATE jobs SET state = 0, attempts = max(attempts - 1, 0), gpu = -1,"
                                         " started = 0, model = '' WHERE id = ?1 AND state = 1",
                               why, cap);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    return run_running(q, st, id, why, cap);
}

int pl_queue_requeue(pl_queue *q, long id, char *why, size_t cap) { return requeue(q, id, 0, why, cap); }

int pl_queue_requeue_ran(pl_queue *q, long id, char *why, size_t cap) { return requeue(q, id, 1, why, cap); }

int pl_queue_place(pl_queue *q, long id, int gpu, const char *model, char *why, size_t cap)
{
    sqlite3_stmt *st = prepare(q, "UPDATE jobs SET gpu = ?2, model = ?3 WHERE id = ?1 AND state = 1", why, cap);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, gpu);
    sqlite3_bind_text(st, 3, model ? model : "", -1, SQLITE_STATIC);
    return run_running(q, st, id, why, cap);
}

/* The position, by the round robin: job J, the k-th queued job of its
   student S (k = 0 for the oldest), goes after S's k earlier jobs, after
   min(n, k) jobs of each other student T with n jobs queued, and after one
   more of T's when T has more than k and comes before S in a round (T's
   last start older, or as old and T's first queued job older). */
long pl_queue_position(pl_queue *q, long id)
{
    pl_job j;
    if (read_job(q, id, &j, NULL, 0) != 1 || j.state != PL_JOB_QUEUED)
        return -1;
    sqlite3_stmt *st = prepare(q,
                               "SELECT w.student, w.n, w.first, w.mine,"
                               " (SELECT coalesce(max(s.started), 0) FROM jobs s WHERE s.student = w.student)"
                               " FROM (SELECT student, count(*) AS n, min(id) AS first,"
                               "       sum(id < ?1) AS mine FROM jobs WHERE state = 0 GROUP BY student) w",
                               NULL, 0);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    typedef struct { long n, first; double last; } turn;
    turn self = {0, 0, 0};
    long k = -1, cap = 64, used = 0, pos = 0;
    turn *others = malloc((size_t)cap * sizeof *others);
    int rc;
    while (others && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        turn t = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), sqlite3_column_double(st, 4)};
        if (!strcmp((const char *)sqlite3_column_text(st, 0), j.student)) {
            self = t;
            k = sqlite3_column_int64(st, 3);
            continue;
        }
        if (used == cap) {
            turn *more = realloc(others, (size_t)(cap *= 2) * sizeof *others);
            if (!more)
                break;
            others = more;
        }
        others[used++] = t;
    }
    sqlite3_finalize(st);
    if (!others || k < 0) {
        free(others);
        return -1;
    }
    pos = k;
    for (long i = 0; i < used; i++) {
        const turn *t = &others[i];
        pos += t->n < k ? t->n : k;
        if (t->n > k && (t->last < self.last || (t->last == self.last && t->first < self.first)))
            pos++;
    }
    free(others);
    return pos;
}

int pl_queue_each(pl_queue *q, const char *student, int state, int (*fn)(const pl_job *, void *), void *ctx,
                  char *why, size_t cap)
{
    sqlite3_stmt *st = prepare(q,
                               "SELECT " JOB_COLUMNS " FROM jobs WHERE (?1 IS NULL OR student = ?1)"
                               " AND (?2 < 0 OR state = ?2) ORDER BY id",
                               why, cap);
    if (!st)
        return -1;
    if (student)
        sqlite3_bind_text(st, 1, student, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, state);
    int rc;
    pl_job j;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        row_job(st, &j);
        if (fn(&j, ctx))
            break;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        say(why, cap, "the queue's database", q->db);
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

int pl_queue_upload_used(pl_queue *q, const char *upload)
{
    return any(q, "SELECT count(*) FROM jobs WHERE upload = ?1 AND state < 2", upload);
}

/* ------------------------------------------------------------ accounts */

/* SHA-256 of TEXT as 64 hex digits into hex (65 bytes); 0 or -1. */
static int sha256_hex(const char *text, char *hex)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(text, strlen(text), md, &len, EVP_sha256(), NULL) || len != 32)
        return -1;
    for (unsigned i = 0; i < len; i++)
        sprintf(hex + 2 * i, "%02x", md[i]);
    return 0;
}

/* TEXT is a token's shape: "plk_" and 64 lowercase hex digits. */
static int token_shaped(const char *text)
{
    if (strncmp(text, "plk_", 4) != 0 || strlen(text) != PL_TOKEN_CHARS)
        return 0;
    for (const char *c = text + 4; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return 0;
    return 1;
}

int pl_queue_issue_token(pl_queue *q, const char *name, int role, double now, char *token, char *why, size_t cap)
{
    size_t len = strlen(name);
    if (len == 0 || len > PL_NAME_MAX) {
        snprintf(why, cap, "an account's name has 1 to %d bytes (this one %zu)", PL_NAME_MAX, len);
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (*c < 0x20 || *c == 0x7f) {
            snprintf(why, cap, "an account's name holds no control character (a tab, a line break)");
            return -1;
        }
    unsigned char raw[32];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        snprintf(why, cap, "no random bytes from the kernel (getrandom)");
        return -1;
    }
    strcpy(token, "plk_");
    for (size_t i = 0; i < sizeof raw; i++)
        sprintf(token + 4 + 2 * i, "%02x", raw[i]);
    char hex[65];
    if (sha256_hex(token, hex) != 0) {
        snprintf(why, cap, "SHA-256 failed (OpenSSL)");
        return -1;
    }
    sqlite3_stmt *st = prepare(q,
                               "INSERT INTO accounts (name, role, token_sha256, issued) VALUES (?1, ?2, ?3, ?4)"
                               " ON CONFLICT(name) DO UPDATE SET role = ?2, token_sha256 = ?3, issued = ?4",
                               why, cap);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, role);
    sqlite3_bind_text(st, 3, hex, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 4, now);
    if (run(q, st, why, cap) != 0)
        return -1;
    return 0;
}

int pl_queue_who(pl_queue *q, const char *token, char *name, size_t ncap, int *role, char *why, size_t cap)
{
    char hex[65];
    if (!token || !token_shaped(token))
        return 0;
    if (sha256_hex(token, hex) != 0) {
        snprintf(why, cap, "SHA-256 failed (OpenSSL)");
        return -1;
    }
    sqlite3_stmt *st = prepare(q, "SELECT name, role FROM accounts WHERE token_sha256 = ?1", why, cap);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, hex, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        snprintf(name, ncap, "%s", (const char *)sqlite3_column_text(st, 0));
        *role = sqlite3_column_int(st, 1);
        found = 1;
    } else if (rc != SQLITE_DONE) {
        say(why, cap, "the queue's database", q->db);
        found = -1;
    }
    sqlite3_finalize(st);
    return found;
}

int pl_queue_has_account(pl_queue *q, const char *name)
{
    return any(q, "SELECT count(*) FROM accounts WHERE name = ?1", name);
}

/* TEXT is well-formed UTF-8 (no overlong form, no surrogate) without a
   control character (C0, DEL, C1): 1 or 0. */
static int printable_utf8(const unsigned char *c)
{
    while (*c) {
        unsigned char b = *c++;
        int more;
        if (b < 0x20 || b == 0x7f)
            return 0;
        if (b < 0x80)
            continue;
        if (b >= 0xc2 && b <= 0xdf)
            more = 1;
        else if (b >= 0xe0 && b <= 0xef)
            more = 2;
        else if (b >= 0xf0 && b <= 0xf4)
            more = 3;
        else
            return 0;
        if ((b == 0xc2 && *c < 0xa0) || (b == 0xe0 && *c < 0xa0) || (b == 0xed && *c >= 0xa0) ||
            (b == 0xf0 && *c < 0x90) || (b == 0xf4 && *c >= 0x90))
            return 0;
        for (int i = 0; i < more; i++, c++)
            if ((*c & 0xc0) != 0x80)
                return 0;
    }
    return 1;
}

int pl_queue_set_display(pl_queue *q, const char *name, const char *display, char *why, size_t cap)
{
    size_t len = strlen(display);
    if (len > PL_DISPLAY_MAX) {
        snprintf(why, cap, "a display name has at most %d bytes (this one %zu)", PL_DISPLAY_MAX, len);
        return -1;
    }
    if (!printable_utf8((const unsigned char *)display)) {
        snprintf(why, cap, "a display name is UTF-8 text without a control character (a line break, a tab)");
        return -1;
    }
    sqlite3_stmt *st = prepare(q, "UPDATE accounts SET display = ?2 WHERE name = ?1", why, cap);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, display, -1, SQLITE_STATIC);
    int rc = run_one(q, st, why, cap);
    if (rc > 0)
        snprintf(why, cap, "no account '%s'", name);
    return rc ? -1 : 0;
}

int pl_queue_display(pl_queue *q, const char *name, char *out, size_t cap)
{
    sqlite3_stmt *st = prepare(q, "SELECT display FROM accounts WHERE name = ?1", NULL, 0);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        column_text(st, 0, out, cap);
        found = 1;
    } else if (rc != SQLITE_DONE)
        found = -1;
    sqlite3_finalize(st);
    return found;
}
