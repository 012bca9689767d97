/* harness/serve/queue.h: the check service's queue of jobs (issue 55),
 * kept in SQLite so that a job once accepted is never lost.
 *
 * A job is one student's lab to check: queued, then running on one GPU,
 * then done or failed (with a reason). The database is one file in WAL
 * mode with synchronous=FULL: a submit that returned an id has reached
 * the disk, and a service killed at any instant (kill -9, a power cut)
 * leaves every job in one of those states. On the next open,
 * pl_queue_recover puts a job that was running back in the queue once; a
 * job the service died under on its second start fails with a reason, so
 * that code that takes the service down cannot hold the queue.
 *
 * Fair, for a class at a deadline: at most one running job per student;
 * the next job is the oldest queued job of the student who waited longest
 * since their last start (round robin, a student never started first);
 * a student may queue at most per_hour jobs an hour, and the whole queue
 * holds at most cap jobs not yet started. Each refusal is a one-line
 * reason for the student.
 *
 * Several processes may hold the file at once (the service, a worker per
 * GPU, an instructor's command): every change is one IMMEDIATE
 * transaction, and a writer waits for another up to busy_ms.
 *
 * Nothing here runs student code or reads a student's files: the service
 * (harness/serve/, later steps) stages them and runs each job through the
 * kit's check path, as make check does. */
#ifndef PRIMLAB_SERVE_QUEUE_H
#define PRIMLAB_SERVE_QUEUE_H

#include <stddef.h>

typedef struct pl_queue pl_queue;

typedef struct pl_queue_limits {
    int per_hour;   /* jobs a student may submit in any hour; 0: no limit */
    int cap;        /* jobs queued (not started) in all; 0: no limit */
} pl_queue_limits;

enum pl_job_state { PL_JOB_QUEUED, PL_JOB_RUNNING, PL_JOB_DONE, PL_JOB_FAILED };

typedef struct pl_job {
    long id;
    char student[128];
    char lab[8];
    int state;          /* enum pl_job_state */
    int attempts;       /* starts so far: 1 once claimed, 2 after a recovery or a
                           pl_queue_requeue_ran; a pl_queue_requeue takes its one back */
    int gpu;            /* the GPU it runs or ran on; -1 before */
    double submitted, started, finished; /* seconds (the caller's clock); 0: not yet */
    char reason[256];   /* a failed job's reason */
    char upload[128];   /* its upload's file name in the service's uploads/ ("" before step 3) */
    char model[64];     /* the GPU's model it runs or ran on; "" before */
} pl_job;

/* A job is started at most this many times: one the service died under
   on its last start fails (pl_queue_recover), as does, on Slurm, one
   whose node failed under it then (the service, harness/serve/claim.c). */
#define PL_QUEUE_MAX_ATTEMPTS 2

/* Opens (creating it when missing) the queue in PATH; NULL with why. */
pl_queue *pl_queue_open(const char *path, int busy_ms, char *why, size_t cap);
void pl_queue_close(pl_queue *q);

/* Queues STUDENT's LAB at NOW: the job's id, or -1 with the refusal (or
   the error) in why, one line. */
long pl_queue_submit(pl_queue *q, const char *student, const char *lab, double now, const pl_queue_limits *lim,
                     char *why, size_t cap);

/* The next job, fairly (above), now running on GPU: 1 with *job filled, 0
   when no job may start, -1 on an error (why). */
int pl_queue_claim(pl_queue *q, int gpu, double now, pl_job *job, char *why, size_t cap);

/* Job ID ends: done, or failed with REASON. 0, or -1 (why): no running job
   of that id. */
int pl_queue_finish(pl_queue *q, long id, int ok, const char *reason, double now, char *why, size_t cap);

/* After a restart: each job left running is queued again, or failed once
   it was started PL_QUEUE_MAX_ATTEMPTS times. The counts, or -1 (why). */
int pl_queue_recover(pl_queue *q, double now, int *requeued, int *failed, char *why, size_t cap);

/* Job ID as it stands: 1, 0 when there is none, -1 on an error. */
int pl_queue_get(pl_queue *q, long id, pl_job *job, char *why, size_t cap);

/* Jobs in STATE (all states: -1). */
long pl_queue_count(pl_queue *q, int state);

/* ------------------------------------------------------------ accounts
 * Who may submit: an account per student (from the course's roster) and
 * for each instructor, each with one token. A token is "plk_" and 64 hex
 * digits, 256 bits from the kernel's random source (getrandom): nobody
 * guesses one, so the database keeps only its SHA-256 (OpenSSL), which a
 * stolen copy of the file cannot turn back into a token, and a plain hash
 * (no salt, no stretching) loses nothing against a secret of 256 bits. */
enum pl_role { PL_ROLE_STUDENT, PL_ROLE_INSTRUCTOR };
#define PL_TOKEN_CHARS 68 /* "plk_" + 64 hex digits */
#define PL_NAME_MAX 100   /* an account's name, in bytes */

/* A new token for account NAME (made when missing) with ROLE, into token
   (PL_TOKEN_CHARS + 1 bytes): the account's earlier token stops working.
   0, or -1 with why (a name empty, too long, or with a control byte). */
int pl_queue_issue_token(pl_queue *q, const char *name, int role, double now, char *token, char *why, size_t cap);

/* Whether account NAME exists: 1, 0, or -1 on an error. */
int pl_queue_has_account(pl_queue *q, const char *name);

/* The account of TOKEN: 1 with its name (ncap bytes) and role, 0 when no
   account has it (or it is no token at all), -1 on an error (why). */
int pl_queue_who(pl_queue *q, const char *token, char *name, size_t ncap, int *role, char *why, size_t cap);

/* ------------------------------------------------------------ the service
 * What build/primlab-serve (harness/serve/serve.c) adds: each job names
 * its upload, a file already on the disk (fsync) when the job is queued,
 * so that no queued job is ever without one (the service removes it once
 * the job ends); the GPU's model; a student's place in the queue; a job
 * handed back when its GPU failed (not counted as a start) or its Slurm
 * node did (counted); and each account's display name on the
 * leaderboard. */
#define PL_DISPLAY_MAX 40 /* a display name, in bytes */

/* pl_queue_submit for a job whose upload is the file UPLOAD (a name, no
   folder; already on the disk). */
long pl_queue_submit_upload(pl_queue *q, const char *student, const char *lab, const char *upload, double now,
                            const pl_queue_limits *lim, char *why, size_t cap);

/* Submissions are idempotent: a client names each with an id of its own
   (make submit: 32 hex digits, 128 random bits), kept with the job, at
   most once per student. So a client whose answer was lost (the
   connection dropped after the job was stored) asks again with the same
   id and gets the same job: no second job, no second place in the hourly
   limit. Another student's job of the same id is theirs alone. */
#define PL_SUBMISSION_CHARS 32

/* pl_queue_submit_upload for the submission SUBMISSION (NULL or "": none,
   every call a job): the id of the job it made before, with *existed 1
   (if not NULL), checked against neither limit, or else a new job as
   pl_queue_submit_upload makes it (*existed 0). */
long pl_queue_submit_once(pl_queue *q, const char *student, const char *lab, const char *upload,
                          const char *submission, double now, const pl_queue_limits *lim, int *existed, char *why,
                          size_t cap);

/* STUDENT's job of submission SUBMISSION: its id, 0 when there is none,
   -1 on an error (why). */
long pl_queue_find_submission(pl_queue *q, const char *student, const char *submission, char *why, size_t cap);

/* Whether STUDENT may submit now: 0, or -1 with the refusal pl_queue_submit
   would give (the hourly limit, the cap), or the error. Nothing changes:
   the service asks before it takes an upload, and submit asks again. */
int pl_queue_admit(pl_queue *q, const char *student, double now, const pl_queue_limits *lim, char *why, size_t cap);

/* pl_queue_claim on GPU, whose model is MODEL (kept with the job). */
int pl_queue_claim_on(pl_queue *q, int gpu, const char *model, double now, pl_job *job, char *why, size_t cap);

/* Running job ID goes back in the queue, as if it had not started (its GPU
   failed, or the service stops): 0, or -1 (why) when no job ID runs. */
int pl_queue_requeue(pl_queue *q, long id, char *why, size_t cap);

/* pl_queue_requeue, its start counted: it ran, and the machine failed
   under it (on Slurm, its node: NODE_FAIL, preempted). attempts then
   counts the starts a node failure ended with those the service died
   under, in the database: a restart of the service forgets neither.
   0, or -1 (why) when no job ID runs. */
int pl_queue_requeue_ran(pl_queue *q, long id, char *why, size_t cap);

/* Running job ID runs on GPU of MODEL after all: a Slurm job, whose node
   gave it a GPU once it started ("NVIDIA H100, node n1, Slurm job 7"). 0,
   or -1 (why) when no job ID runs. */
int pl_queue_place(pl_queue *q, long id, int gpu, const char *model, char *why, size_t cap);

/* How many queued jobs go before job ID, by the round robin as it stands
   (every student with jobs waiting takes a turn before a student's next
   one): an estimate, since jobs submitted later by others who waited
   longer may still go first. -1 when ID is not queued (or on an error). */
long pl_queue_position(pl_queue *q, long id);

/* Calls FN on each job of STUDENT (NULL: everyone's) in STATE (-1: all),
   oldest first, until FN returns non-zero. 0, or -1 on an error (why). */
int pl_queue_each(pl_queue *q, const char *student, int state, int (*fn)(const pl_job *, void *), void *ctx,
                  char *why, size_t cap);

/* Whether a job that has not ended (queued, running) names the upload
   UPLOAD: 1, 0, or -1 on an error. An ended job's upload is read no more:
   the service removes it. */
int pl_queue_upload_used(pl_queue *q, const char *upload);

/* Account NAME's display name on the leaderboard becomes DISPLAY ("": the
   pseudonym again): at most PL_DISPLAY_MAX bytes of UTF-8, no control
   character. 0, or -1 with the refusal (one line). */
int pl_queue_set_display(pl_queue *q, const char *name, const char *display, char *why, size_t cap);

/* Account NAME's display name into out (cap bytes; "" when none): 1, 0 when
   there is no such account, -1 on an error. */
int pl_queue_display(pl_queue *q, const char *name, char *out, size_t cap);

#endif
