/* harness/serve/page.c: GET / of build/primlab-serve (serve.h), one page
 * rendered on the server, with no external asset (no script, no font, no
 * style sheet to fetch; the Content-Security-Policy of http.c allows none):
 * the queue's length, what runs on each GPU, each lab's leaderboard, and,
 * signed in, the student's own jobs with links to their files and the name
 * the leaderboard shows them under (their pseudonym, when they chose no
 * display name, on their own page alone). Every text
 * that comes from a person (a name, a reason) goes through sb_html.
 *
 * Nobody's name shows to someone else: a GPU's job shows its number and
 * lab, and its student to an instructor alone.
 *
 * serve_board is the leaderboard's one hook (/board/NN, /api/board/NN and
 * this page call it): each lab's board made by the board module
 * (harness/serve/board.h) from every done job of the lab, its folder's
 * scores.tsv, under the student's display name or a pseudonym from the
 * key SERVE_DIR/board.key. A board is made again only when a job is done
 * or a display name changes (a cache per lab and format): the page, which
 * refreshes itself every 15 s in every student's browser, shows every
 * lab's board. */
#define _GNU_SOURCE
#include "serve.h"

#include "../parent/class_report.h" /* pl_html_puts */
#include "board.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---------------------------------------------------------------- sbuf */

static int sb_grow(sbuf *b, size_t more)
{
    if (b->oom)
        return -1;
    if (b->len + more + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || sb_grow(b, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sb_html(sbuf *b, const char *text)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': sb_printf(b, "&amp;"); break;
        case '<': sb_printf(b, "&lt;"); break;
        case '>': sb_printf(b, "&gt;"); break;
        case '"': sb_printf(b, "&quot;"); break;
        case '\'': sb_printf(b, "&#39;"); break;
        default: sb_printf(b, "%c", *c);
        }
    }
}

void sb_free(sbuf *b)
{
    free(b->s);
    *b = (sbuf){0};
}

/* --------------------------------------------------------------- words */

void iso_time(double t, char *out, size_t cap)
{
    if (t <= 0) {
        snprintf(out, cap, "%s", "");
        return;
    }
    time_t s = (time_t)t;
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

const char *state_name(int state)
{
    static const char *const names[] = {"queued", "running", "done", "failed"};
    return state >= 0 && state <= 3 ? names[state] : "?";
}

/* ----------------------------------------------------------- the board */

#define BOARD_LABS 32 /* lab ids in SERVE_LABS (the kit has 9) */

static unsigned char board_key[16];
static pthread_mutex_t board_lock = PTHREAD_MUTEX_INITIALIZER; /* the cache; one board made at a time */
static unsigned long names_gen;                                /* display names changed (under board_lock) */
static struct board_cache {
    char lab[8];
    int format;
    long done;          /* the service's done jobs when it was made (-1: never) */
    unsigned long names; /* names_gen then */
    long jobs;          /* the lab's done jobs read */
    sbuf text;
} cache[BOARD_LABS * 3];

int board_start(char *why, size_t cap)
{
    char path[PATH_MAX];
    pathf(path, sizeof path, "%s/board.key", cfg.dir);
    for (size_t i = 0; i < sizeof cache / sizeof cache[0]; i++)
        cache[i].done = -1;
    return pl_board_key(path, board_key, why, cap);
}

void board_names_changed(void)
{
    pthread_mutex_lock(&board_lock);
    names_gen++;
    pthread_mutex_unlock(&board_lock);
}

void board_pseudonym(const char *who, char *out, size_t cap) { pl_board_pseudonym(board_key, who, out, cap); }

/* One done job of the lab being made, its student's display name filled
   in once per student. */
typedef struct board_job {
    long id;
    char student[sizeof ((pl_job *)0)->student];
    char *display; /* shared by a student's jobs; the first owns it */
} board_job;

typedef struct board_jobs {
    const char *lab;
    board_job *v;
    size_t n, cap;
    int oom;
} board_jobs;

static int collect(const pl_job *j, void *ctx)
{
    board_jobs *js = ctx;
    if (strcmp(j->lab, js->lab))
        return 0;
    if (js->n == js->cap) {
        size_t cap = js->cap ? 2 * js->cap : 256;
        board_job *v = realloc(js->v, cap * sizeof *v);
        if (!v) {
            js->oom = 1;
            return 1;
        }
        js->v = v, js->cap = cap;
    }
    board_job *b = &js->v[js->n++];
    b->id = j->id;
    snprintf(b->student, sizeof b->student, "%s", j->student);
    b->display = NULL;
    return 0;
}

static int by_student(const void *a, const void *b)
{
    const board_job *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* The one line that says why a board has no row, or NULL when it has rows. */
static const char *empty_why(const char *lab, long jobs, int rows, char *out, size_t cap)
{
    if (rows)
        return NULL;
    if (!jobs)
        snprintf(out, cap, "no job of lab %s is done yet", lab);
    else if (cfg.dry)
        snprintf(out, cap, "no ratio: this service runs dry (no GPU), and a dry run measures none against the "
                           "vendor library");
    else
        snprintf(out, cap, "no job of lab %s has a ratio to the vendor library yet: a performance test must run "
                           "and keep its points, in a job that passed every correctness test",
                 lab);
    return out;
}

/* Lab's board made afresh into out, from the done jobs in the queue: the
   number of the lab's done jobs read, or -1 (why). */
static long board_make(sbuf *out, const char *lab, int format, char *why, size_t cap)
{
    board_jobs js = {.lab = lab};
    pl_queue *q = db_lock();
    int rc = pl_queue_each(q, NULL, PL_JOB_DONE, collect, &js, why, cap);
    /* the display names, one query a student (a student's jobs together) */
    if (rc == 0 && !js.oom && js.n)
        qsort(js.v, js.n, sizeof *js.v, by_student);
    for (size_t i = 0; rc == 0 && !js.oom && i < js.n; i++) {
        if (i && !strcmp(js.v[i].student, js.v[i - 1].student)) {
            js.v[i].display = js.v[i - 1].display;
            continue;
        }
        char name[4 * PL_DISPLAY_MAX + 8] = "";
        if (pl_queue_display(q, js.v[i].student, name, sizeof name) < 0)
            name[0] = '\0'; /* a name that cannot be read: the pseudonym */
        if (!(js.v[i].display = strdup(name)))
            js.oom = 1;
    }
    db_unlock();
    long jobs = (long)js.n;
    pl_board_entry *e = rc == 0 && !js.oom ? calloc(js.n + 1, sizeof *e) : NULL;
    size_t one = strlen(cfg.dir) + 32; /* "SERVE_DIR/jobs/<id>" */
    char *dirs = e ? malloc((js.n + 1) * one) : NULL;
    pl_board *b = dirs ? pl_board_new() : NULL;
    for (size_t i = 0; b && i < js.n && rc == 0; i++) {
        char *dir = dirs + i * one;
        snprintf(dir, one, "%s/jobs/%ld", cfg.dir, js.v[i].id);
        e[i] = (pl_board_entry){.student = js.v[i].student, .name = js.v[i].display, .results = dir, .lab = lab};
        rc = pl_board_add_entry(b, &e[i], board_key);
    }
    pl_board_lab t;
    char *text = NULL, line[256];
    size_t len = 0;
    FILE *f = NULL;
    if (rc == 0 && b && pl_board_rank(b, lab, &t) == 0 && (f = open_memstream(&text, &len))) {
        const char *note = empty_why(lab, jobs, t.nrows, line, sizeof line);
        if (note && format != PL_BOARD_TSV) {
            fputs("<p class=\"note\">", f);
            pl_html_puts(f, note);
            fputs("</p>\n", f);
        }
        pl_board_print(f, &t, format);
        if (note && format == PL_BOARD_TSV)
            fprintf(f, "# %s\n", note);
    }
    if (f && fclose(f) == 0 && text) {
        sb_printf(out, "%s", text);
    } else {
        if (rc == 0 || b) /* (else the queue said why) */
            snprintf(why, cap, "the leaderboard of lab %s: out of memory", lab);
        jobs = -1;
    }
    free(text);
    pl_board_free(b);
    free(dirs);
    free(e);
    for (size_t i = 0; i < js.n; i++)
        if (!i || js.v[i].display != js.v[i - 1].display)
            free(js.v[i].display);
    free(js.v);
    return jobs;
}

int serve_board(sbuf *b, const char *lab, int format)
{
    char why[256];
    pl_queue *q = db_lock();
    long done = pl_queue_count(q, PL_JOB_DONE);
    db_unlock();
    pthread_mutex_lock(&board_lock);
    struct board_cache *c = NULL, *spare = NULL;
    for (size_t i = 0; i < sizeof cache / sizeof cache[0] && !c; i++) {
        if (!strcmp(cache[i].lab, lab) && cache[i].format == format)
            c = &cache[i];
        else if (!spare && !cache[i].lab[0])
            spare = &cache[i];
    }
    if (!c && spare) {
        c = spare;
        snprintf(c->lab, sizeof c->lab, "%s", lab);
        c->format = format;
        c->done = -1;
    }
    long jobs;
    if (c && done >= 0 && c->done == done && c->names == names_gen && !c->text.oom) {
        jobs = c->jobs; /* no job done and no name changed since: as it was */
        sb_printf(b, "%s", c->text.s ? c->text.s : "");
    } else {
        unsigned long names = names_gen;
        sbuf fresh = {0};
        jobs = board_make(&fresh, lab, format, why, sizeof why);
        if (jobs < 0 || fresh.oom) {
            serve_log("%s", jobs < 0 ? why : "the leaderboard: out of memory");
            jobs = -1;
        } else {
            sb_printf(b, "%s", fresh.s ? fresh.s : "");
            if (c) {
                sb_free(&c->text);
                c->text = fresh;
                fresh = (sbuf){0};
                c->done = done, c->names = names, c->jobs = jobs;
            }
        }
        sb_free(&fresh);
    }
    pthread_mutex_unlock(&board_lock);
    return b->oom ? -1 : (int)(jobs > INT_MAX ? INT_MAX : jobs);
}

/* ------------------------------------------------------------ the page */

static const char STYLE[] =
    "body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
    "h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}"
    "table{border-collapse:collapse}td,th{padding:.25rem .7rem;border-bottom:1px solid #ddd;text-align:left}"
    ".failed{color:#a00}.done{color:#070}.note{background:#fff4d6;padding:.5rem}"
    ".board caption{text-align:left;color:#444;padding:.2rem 0}.board .n{text-align:right;"
    "font-variant-numeric:tabular-nums}.board .pseudonym{font-style:italic;color:#444}"
    "input[type=password]{width:36rem;max-width:100%}";

/* A student's own line: how the leaderboard shows them (their display name,
   or their pseudonym, which nobody else's page ties to them), and how to
   choose a name: POST /api/name with their token, sent by make submit
   NAME=... or curl (the page's cookie is good for GETs alone, so the page
   has no form for it). */
static void own_name(sbuf *b, const char *who)
{
    char name[4 * PL_DISPLAY_MAX + 8] = "", shown[PL_BOARD_NAME_MAX + 1], pseudonym[32];
    pl_queue *q = db_lock();
    if (pl_queue_display(q, who, name, sizeof name) < 0)
        name[0] = '\0'; /* as the board reads it: the pseudonym */
    db_unlock();
    int pseudo = pl_board_shown(board_key, who, name, shown, sizeof shown);
    pl_board_pseudonym(board_key, who, pseudonym, sizeof pseudonym);
    sb_printf(b, "<p>On the leaderboard you are ");
    if (pseudo) {
        sb_printf(b, "<i>");
        sb_html(b, pseudonym);
        sb_printf(b, "</i> (a pseudonym: nobody else sees your account). To be shown under a name of your own "
                     "(at most %d bytes), run in your kit:",
                  PL_DISPLAY_MAX);
    } else {
        sb_printf(b, "<b>");
        sb_html(b, shown);
        sb_printf(b, "</b>, your display name (without it: <i>");
        sb_html(b, pseudonym);
        sb_printf(b, "</i>). To change it, run in your kit (<code>make submit NAME=</code>, empty: the pseudonym "
                     "again):");
    }
    sb_printf(b, "<br><code>");
    sb_html(b, "make submit NAME='Your Name'");
    sb_printf(b, "</code><br>or send it with your token to this service's <code>/api/name</code> (SERVE_URL: "
                 "this page's address, as in your kit's <code>serve.conf</code>):<br><code>");
    sb_html(b, "curl -H \"Authorization: Bearer $(cat ~/.config/primlab/token)\" --data-binary 'Your Name' "
               "SERVE_URL/api/name");
    sb_printf(b, "</code></p>\n");
}

typedef struct mine {
    sbuf *b;
    int n;
} mine;

static int job_row(const pl_job *j, void *ctx)
{
    mine *m = ctx;
    sbuf *b = m->b;
    char sub[32];
    iso_time(j->submitted, sub, sizeof sub);
    m->n++;
    sb_printf(b, "<tr><td>%ld</td><td>", j->id);
    sb_html(b, j->lab);
    sb_printf(b, "</td><td class=\"%s\">%s</td><td>%s</td><td>", state_name(j->state), state_name(j->state), sub);
    static const char *const files[][2] = {{"report.txt", "report"}, {"results.json", "results.json"},
                                           {"figure.svg", "figure"}};
    for (int i = 0; i < 3 && (j->state == PL_JOB_DONE || j->state == PL_JOB_FAILED); i++) {
        char path[PATH_MAX];
        struct stat st;
        pathf(path, sizeof path, "%s/jobs/%ld/%s", cfg.dir, j->id, files[i][0]);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            sb_printf(b, "<a href=\"api/jobs/%ld/%s\">%s</a> ", j->id, files[i][0], files[i][1]);
    }
    sb_printf(b, "</td><td>");
    sb_html(b, j->reason);
    sb_printf(b, "</td></tr>\n");
    return 0;
}

void page_render(sbuf *b, const char *who, int role, const char *notice)
{
    serve_slot slots[SERVE_MAX_GPUS];
    int n = claim_slots(slots);
    pl_queue *q = db_lock();
    long queued = pl_queue_count(q, PL_JOB_QUEUED), running = pl_queue_count(q, PL_JOB_RUNNING);
    db_unlock();

    page_head(b, "primlab check service", 15);
    const char *unit = cfg.slurm ? "Slurm slot" : "GPU";
    sb_printf(b, "<h1>primlab check service</h1>\n<p>%ld job%s waiting, %ld running on %d %s%s%s.</p>\n", queued,
              queued == 1 ? "" : "s", running, n, unit, n == 1 ? "" : "s", cfg.dry ? " (a dry run: no GPU)" : "");

    /* on Slurm a slot is a job at a time, anywhere: where its job runs */
    sb_printf(b, "<h2>%ss</h2>\n<table><tr><th>%s</th><th>%s</th><th>now</th></tr>\n", unit, cfg.slurm ? "slot" : "GPU",
              cfg.slurm ? "where" : "model");
    for (int i = 0; i < n; i++) {
        sb_printf(b, "<tr><td>%d</td><td>", slots[i].gpu);
        if (!cfg.slurm)
            sb_html(b, slots[i].model);
        else if (slots[i].job)
            sb_html(b, slots[i].where[0] ? slots[i].where : "waiting for a Slurm node");
        sb_printf(b, "</td><td>");
        if (slots[i].out) {
            sb_printf(b, "out of the rotation: ");
            sb_html(b, slots[i].out_why);
        } else if (!slots[i].job && slots[i].paused_until > wall_now()) {
            sb_printf(b, "paused: ");
            sb_html(b, slots[i].paused_why);
        } else if (slots[i].job) {
            sb_printf(b, "job %ld, lab ", slots[i].job);
            sb_html(b, slots[i].lab);
            sb_printf(b, ", for %.0f s", wall_now() - slots[i].since);
            if (who && role == PL_ROLE_INSTRUCTOR) {
                sb_printf(b, " (");
                sb_html(b, slots[i].student);
                sb_printf(b, ")");
            }
        } else
            sb_printf(b, "idle");
        sb_printf(b, "</td></tr>\n");
    }
    sb_printf(b, "</table>\n");

    if (notice) {
        sb_printf(b, "<p class=\"note\">");
        sb_html(b, notice);
        sb_printf(b, "</p>\n");
    }
    if (who) {
        sb_printf(b, "<h2>%s</h2>\n<form method=\"post\" action=\"logout\"><p>Signed in as <b>",
                  role == PL_ROLE_INSTRUCTOR ? "Every job" : "Your jobs");
        sb_html(b, who);
        sb_printf(b, "</b>%s. <button>sign out</button></p></form>\n",
                  role == PL_ROLE_INSTRUCTOR ? " (an instructor)" : "");
        if (role != PL_ROLE_INSTRUCTOR)
            own_name(b, who);
        sb_printf(b, "<table><tr><th>job</th><th>lab</th><th>state</th><th>submitted (UTC)</th><th>files</th>"
                     "<th>reason</th></tr>\n");
        mine m = {b, 0};
        char why[256];
        q = db_lock();
        pl_queue_each(q, role == PL_ROLE_INSTRUCTOR ? NULL : who, -1, job_row, &m, why, sizeof why);
        db_unlock();
        sb_printf(b, "</table>\n%s", m.n ? "" : "<p>No job yet: <code>make submit LAB=01</code> sends one.</p>\n");
    } else {
        sb_printf(b, "<h2>Sign in</h2>\n<form method=\"post\" action=\"login\"><p>Your token (the line your "
                     "instructor gave you, <code>plk_...</code>):<br><input type=\"password\" name=\"token\" "
                     "autocomplete=\"off\" required> <button>sign in</button></p></form>\n");
    }

    /* each lab with a done job: its board */
    sb_printf(b, "<h2>Leaderboards</h2>\n");
    int boards = 0;
    char labs[sizeof cfg.labs];
    snprintf(labs, sizeof labs, "%s", cfg.labs);
    for (char *save, *lab = strtok_r(labs, " ", &save); lab; lab = strtok_r(NULL, " ", &save)) {
        sbuf one = {0};
        if (serve_board(&one, lab, PL_BOARD_HTML_TABLE) > 0) {
            sb_printf(b, "<h3 id=\"lab");
            sb_html(b, lab);
            sb_printf(b, "\">lab ");
            sb_html(b, lab);
            sb_printf(b, "</h3>\n%s", one.s ? one.s : "");
            boards++;
        }
        sb_free(&one);
    }
    if (!boards)
        sb_printf(b, "<p>None yet: a lab's board shows once one of its jobs is done.</p>\n");
    sb_printf(b, "</body></html>\n");
}

void page_head(sbuf *b, const char *title, int refresh)
{
    sb_printf(b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<meta name=\"viewport\" content=\"width=device-width\">");
    if (refresh)
        sb_printf(b, "<meta http-equiv=\"refresh\" content=\"%d\">", refresh);
    sb_printf(b, "<title>");
    sb_html(b, title);
    sb_printf(b, "</title><style>%s</style></head><body>\n", STYLE);
}
