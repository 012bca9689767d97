/* harness/serve/serve.h: what the parts of build/primlab-serve share (the
 * check service, issue 55; docs/check-service.md, "The service's
 * interface"): its settings, the one connection to the queue, the GPU
 * slots, the log and a growing text buffer.
 *
 *   serve.c   main: the settings, the start (the lock on SERVE_DIR, the
 *             recovery of a service that died), the signals, the stop
 *   http.c    the HTTP side on libmicrohttpd: routes, refusals, tokens,
 *             uploads, the per-client rate limit, the header deadline
 *   page.c    GET /, the page, and the leaderboard's hook (board.h's
 *             boards of the done jobs, cached)
 *   claim.c   one claimer per GPU: takes the next job fairly, runs
 *             SERVE_RUNNER on it in its own process group, ends it
 *   slurm.c   SERVE_SLURM=1: a claimer per slot runs each job on a node
 *             of a Slurm cluster (harness/serve/slurm-job.sh)
 *   logcap.c  the runner's log, capped at SERVE_LOG_MAX bytes
 *
 * Trust: nothing here runs student code. A job's upload goes to the
 * runner (harness/serve/run-job.sh) as a file; the runner stages and
 * checks it in the kit's sandbox, which hides SERVE_DIR. */
#ifndef PRIMLAB_SERVE_H
#define PRIMLAB_SERVE_H

#include "queue.h"

#include <limits.h>
#include <stddef.h>

#define SERVE_MAX_GPUS 16
#define SERVE_DIR_MAX 2048 /* SERVE_DIR's length: every path below it fits PATH_MAX */

typedef struct serve_config {
    char dir[SERVE_DIR_MAX];  /* SERVE_DIR, absolute: serve.db, uploads/, jobs/<id>/ */
    char db[PATH_MAX];        /* SERVE_DB (SERVE_DIR/serve.db) */
    char addr[128];           /* SERVE_ADDR, host:port (127.0.0.1:8750; port 0: any) */
    char runner[PATH_MAX];    /* SERVE_RUNNER, absolute (the grading kit's harness/serve/run-job.sh) */
    char labs[256];           /* SERVE_LABS, the lab ids a job may name, "01 02 ..." */
    int dry;                  /* SERVE_DRY=1: PRIMLAB_NO_GPU=1 for the runner, two slots */
    long max_upload;          /* SERVE_MAX_UPLOAD, bytes of a job's .tar.gz (1 MiB) */
    int job_timeout;          /* SERVE_JOB_TIMEOUT, seconds a runner may take (1200) */
    int busy_pause;           /* SERVE_BUSY_PAUSE, seconds a GPU waits after a runner's busy (30) */
    long log_max;             /* SERVE_LOG_MAX, bytes of a job's runner.log kept (1 MiB) */
    pl_queue_limits lim;      /* SERVE_PER_HOUR (12), SERVE_CAP (1000) */
    double rate;              /* SERVE_RATE, requests a second a client (10; 0: no limit) */
    int burst;                /* SERVE_BURST, requests a client may send at once (40) */
    int header_s;             /* SERVE_HEADER_S: a request's headers within (10 s) */
    int request_s;            /* SERVE_REQUEST_S: a request and its answer within (60 s) */
    int conns, per_ip;        /* SERVE_CONNS (512), SERVE_PER_IP (32; 0: none, behind a proxy) connections at once */
    int threads;              /* SERVE_THREADS, the HTTP side's threads (4) */
    int trust_proxy;          /* SERVE_TRUST_PROXY=1: X-Real-IP from a loopback peer names the client */
    int slurm;                /* SERVE_SLURM=1: each job a Slurm job (slurm.c), SERVE_SLOTS at once */
    char slurm_script[PATH_MAX]; /* then: the kit's harness/serve/slurm-job.sh, absolute */
    int ngpus;                /* the slots: SERVE_GPUS, or nvidia-smi's, or two (dry); SERVE_SLOTS (Slurm) */
    int gpus[SERVE_MAX_GPUS];
    char models[SERVE_MAX_GPUS][64];
    char boot_id[40];         /* this boot's id: a runner recorded under another is gone */
} serve_config;

extern serve_config cfg;

/* The queue, one connection for the whole service: every call between
   db_lock and db_unlock (a transaction spans several SQLite calls). */
pl_queue *db_lock(void);
void db_unlock(void);

/* One line on stderr, "primlab-serve: ...", whole. */
void serve_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A path into out (cap bytes, PATH_MAX), from FMT: under SERVE_DIR, whose
   length is bounded, it always fits. */
void pathf(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

double wall_now(void); /* seconds since the epoch, the queue's clock */
double mono_now(void); /* seconds, monotonic */

/* ---------------------------------------------------------------- claim.c */
typedef struct serve_slot {
    int gpu;                /* a local GPU's index; a Slurm slot's number */
    char model[64];
    char where[96];         /* Slurm: where its job runs ("node n1, GPU 0, Slurm job 7"), or waits */
    int out;                /* left the rotation: its runner said the GPU failed */
    char out_why[256];
    double paused_until;    /* wall: takes no job until then (its runner said busy) */
    char paused_why[256];
    long job;               /* the job it runs; 0: idle */
    char lab[8], student[128];
    double since;           /* when that job started (wall) */
} serve_slot;

/* Before the claimers start: the runners of jobs still marked running
   (the service died under them) killed, those jobs recovered (the
   queue's rule), queued jobs without their upload failed, uploads no job
   names removed. 0, or -1 with why. */
int claim_recover(char *why, size_t cap);
int claim_start(char *why, size_t cap);
/* Stops the claimers: each running job's runner is stopped and the job
   handed back to the queue. The number handed back. */
int claim_stop(void);
/* A job was queued: idle claimers look now. */
void claim_wake(void);
/* A copy of the slots into out (SERVE_MAX_GPUS): how many. */
int claim_slots(serve_slot *out);

/* ---------------------------------------------------------------- slurm.c */
/* SERVE_SLURM=1, before the claimers start: the script found, and the
   cluster would take the jobs (slurm-job.sh check). 0, or -1 with why. */
int slurm_start(char *why, size_t cap);
/* Job ID's Slurm job cancelled and waited for until it left the queue
   (slurm-job.sh cancel): 0, or -1 (its lines in the log). */
int slurm_cancel(long id);
/* Where job ID runs, from JOBDIR/runner.node (written on the node as the
   job starts): 1 with the node's GPU (-1: none named), a line for people
   ("node n1, GPU 0, Slurm job 7") and one for the job's record (the GPU's
   model, the node, the Slurm job); 0 while the job has not started. */
int slurm_where(const char *jobdir, int *gpu, char *where, size_t wcap, char *model, size_t mcap);
/* --------------------------------------------------------------- logcap.c */
/* A new file PATH (mode 0600; not through a link) that keeps the first MAX
   bytes written to the descriptor returned, then a line saying how many
   more came: the write end of a pipe (close-on-exec) whose reader ends
   with its last writer. -1 with errno. */
int log_capped(const char *path, long max);

/* ----------------------------------------------------------------- http.c */
struct MHD_Daemon;
/* Serves on the bound, listening socket FD: NULL with why. */
struct MHD_Daemon *http_start(int fd, char *why, size_t cap);
void http_stop(struct MHD_Daemon *d);
/* Whether LAB is one of SERVE_LABS. */
int lab_known(const char *lab);

/* ----------------------------------------------------------------- page.c */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;
void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_html(sbuf *b, const char *text); /* TEXT escaped for HTML */
void sb_free(sbuf *b);

/* The page, GET /: for WHO (NULL: not signed in) with ROLE; NOTICE, if
   any, one line above the sign-in form. Into b. */
void page_render(sbuf *b, const char *who, int role, const char *notice);
/* A page's start, up to <body>, with the page's style and TITLE (escaped);
   REFRESH: seconds between reloads (0: none). */
void page_head(sbuf *b, const char *title, int refresh);

/* The leaderboard of LAB into b as FORMAT (board.h's: PL_BOARD_TSV for
   /api/board/NN, PL_BOARD_HTML_TABLE for the page and /board/NN), made
   from every done job of the lab (board.h's rules), and, when it has no
   row, one line saying why (TSV: "# why" after the header; HTML: a note
   before the table). The number of the lab's done jobs (0: the board is
   still written), or -1 when it could not be made (logged). Made again
   only when a job is done or a display name changes: the one place the
   board is called from (/board/NN, /api/board/NN, the page). */
int serve_board(sbuf *b, const char *lab, int format);
/* At the start: the pseudonyms' key, SERVE_DIR/board.key (made, mode
   0600, when missing). 0, or -1 with why. */
int board_start(char *why, size_t cap);
/* A display name changed (POST /api/name): the boards are made again. */
void board_names_changed(void);
/* WHO's pseudonym on the boards (student- and 8 hex digits), into out. */
void board_pseudonym(const char *who, char *out, size_t cap);

/* A time for people and scripts: ISO 8601, UTC ("" for 0). */
void iso_time(double t, char *out, size_t cap);
const char *state_name(int state);

#endif
