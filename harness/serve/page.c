/* harness/serve/page.c: GET / of build/primlab-serve (serve.h), one page
 * rendered on the server, with no external asset (no script, no font, no
 * style sheet to fetch; the Content-Security-Policy of http.c allows none):
 * the queue's length, what runs on each GPU, each lab's leaderboard, and,
 * signed in, the student's own jobs with links to their files. Every text
 * that comes from a person (a name, a reason) goes through sb_html.
 *
 * Nobody's name shows to someone else: a GPU's job shows its number and
 * lab, and its student to an instructor alone.
 *
 * serve_board is the leaderboard's one hook (/board/NN, /api/board/NN and
 * this page call it): the board module (harness/serve/board.h, step 6)
 * fills it. */
#define _GNU_SOURCE
#include "serve.h"

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

int serve_board(sbuf *b, const char *lab, int html)
{
    /* step 6: the board module's table of lab LAB (ratios to CUB, display
       names or pseudonyms) goes here, as HTML or as TSV */
    (void)b, (void)lab, (void)html;
    return 0;
}

/* ------------------------------------------------------------ the page */

static const char STYLE[] =
    "body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
    "h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}"
    "table{border-collapse:collapse}td,th{padding:.25rem .7rem;border-bottom:1px solid #ddd;text-align:left}"
    ".failed{color:#a00}.done{color:#070}.note{background:#fff4d6;padding:.5rem}"
    "input[type=password]{width:36rem;max-width:100%}";

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

    sb_printf(b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<meta name=\"viewport\" content=\"width=device-width\"><meta http-equiv=\"refresh\" content=\"15\">"
                 "<title>primlab check service</title><style>%s</style></head><body>\n",
              STYLE);
    sb_printf(b, "<h1>primlab check service</h1>\n<p>%ld job%s waiting, %ld running on %d GPU%s%s.</p>\n", queued,
              queued == 1 ? "" : "s", running, n, n == 1 ? "" : "s", cfg.dry ? " (a dry run: no GPU)" : "");

    sb_printf(b, "<h2>GPUs</h2>\n<table><tr><th>GPU</th><th>model</th><th>now</th></tr>\n");
    for (int i = 0; i < n; i++) {
        sb_printf(b, "<tr><td>%d</td><td>", slots[i].gpu);
        sb_html(b, slots[i].model);
        sb_printf(b, "</td><td>");
        if (slots[i].out) {
            sb_printf(b, "out of the rotation: ");
            sb_html(b, slots[i].out_why);
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

    sb_printf(b, "<h2>Leaderboards</h2>\n");
    int boards = 0;
    char labs[sizeof cfg.labs];
    snprintf(labs, sizeof labs, "%s", cfg.labs);
    for (char *save, *lab = strtok_r(labs, " ", &save); lab; lab = strtok_r(NULL, " ", &save)) {
        sbuf one = {0};
        if (serve_board(&one, lab, 1)) {
            sb_printf(b, "<h3>lab ");
            sb_html(b, lab);
            sb_printf(b, "</h3>\n%s", one.s ? one.s : "");
            boards++;
        }
        sb_free(&one);
    }
    if (!boards)
        sb_printf(b, "<p>None yet.</p>\n");
    sb_printf(b, "</body></html>\n");
}
