/* harness/serve/http.c: the HTTP side of build/primlab-serve (serve.h) on
 * libmicrohttpd: the routes of docs/check-service.md ("The service's
 * interface"), each refusal one line of text/plain with its status.
 *
 *   POST /api/jobs?lab=NN      the lab's .tar.gz as the body: 201, id, position
 *                              (X-Primlab-Submission: ID, a repeat of ID: 200,
 *                              the job it made)
 *   GET  /api/jobs             the caller's jobs (an instructor's: all)
 *   GET  /api/jobs/ID          the job, key<TAB>value lines
 *   GET  /api/jobs/ID/FILE     report.txt, results.json, scores.tsv, figure.svg
 *   POST /api/name             the body: a display name for the leaderboard
 *   GET  /                     the page (page.c); POST /login, /logout: the cookie;
 *                              GET /favicon.ico: 204, none
 *   GET  /board/NN, /api/board/NN   the leaderboard (serve_board, page.c)
 *
 * A token comes as "Authorization: Bearer plk_..." (or, for the page's
 * GETs, the HttpOnly cookie its sign-in form sets). A student sees only
 * their own jobs: another's id is answered as a missing one (404).
 *
 * Against slow and greedy clients: libmicrohttpd's connection limits (in
 * all, per address), its idle timeout and per-connection memory limit; a
 * deadline of our own for a request's headers (SERVE_HEADER_S) and for a
 * whole request (SERVE_REQUEST_S), since libmicrohttpd's timeout counts
 * from the last byte and a client trickling a byte a second never meets
 * it (the reaper below cuts such a connection); a per-client token bucket
 * (SERVE_RATE a second, SERVE_BURST at once: 429), a client being an
 * account when the request carries its token, else an address. An upload
 * needs its Content-Length (411 without), which is checked before a byte
 * of the body is read (413), then goes to a file in SERVE_DIR/uploads
 * that reaches the disk (fsync, of the file and of its folder) before its
 * job is queued: no queued job is ever without its upload. */
#define _GNU_SOURCE
#include "serve.h"

#include "board.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#if MHD_VERSION < 0x00097100
#error "the check service needs libmicrohttpd 0.9.71 or newer (Debian 12, Ubuntu 22.04)"
#endif
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define PL_STR_(x) #x
#define PL_STR(x) PL_STR_(x)

static const char COOKIE[] = "plk";

int lab_known(const char *lab)
{
    size_t n = strlen(lab);
    if (n == 0 || n > 4 || strchr(lab, ' '))
        return 0;
    for (const char *p = cfg.labs; (p = strstr(p, lab)); p += n)
        if ((p == cfg.labs || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* ------------------------------------------------- connections, deadlines
 * Every connection is on a list while libmicrohttpd holds it (its notify
 * callbacks, under conns_lock); the reaper shuts down the socket of one
 * past its deadline, and libmicrohttpd then closes it as a client that
 * went away. libmicrohttpd reports a connection closed before it closes
 * its descriptor, so the reaper never touches a descriptor reused. */
typedef struct conn {
    int fd;
    int in_request; /* 0: waiting for a request's headers; 1: in a request */
    double since;   /* monotonic: since when */
    struct conn *prev, *next;
} conn;

static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;
static conn *conns;
static pthread_t reaper_th;
static int reaper_on, reaper_stop;

static void notify_conn(void *cls, struct MHD_Connection *c, void **socket_ctx, enum MHD_ConnectionNotificationCode toe)
{
    (void)cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        conn *k = calloc(1, sizeof *k);
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!k)
            return;
        k->fd = ci ? ci->connect_fd : -1;
        k->since = mono_now();
        pthread_mutex_lock(&conns_lock);
        k->next = conns;
        if (conns)
            conns->prev = k;
        conns = k;
        pthread_mutex_unlock(&conns_lock);
        *socket_ctx = k;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_ctx) {
        conn *k = *socket_ctx;
        pthread_mutex_lock(&conns_lock);
        if (k->prev)
            k->prev->next = k->next;
        else
            conns = k->next;
        if (k->next)
            k->next->prev = k->prev;
        pthread_mutex_unlock(&conns_lock);
        free(k);
        *socket_ctx = NULL;
    }
}

/* Connection C enters a request (1) or waits for the next one (0). */
static void conn_phase(struct MHD_Connection *c, int in_request)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    conn *k = ci ? ci->socket_context : NULL;
    if (!k)
        return;
    pthread_mutex_lock(&conns_lock);
    k->in_request = in_request;
    k->since = mono_now();
    pthread_mutex_unlock(&conns_lock);
}

static void *reaper(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(200000);
        pthread_mutex_lock(&conns_lock);
        if (reaper_stop) {
            pthread_mutex_unlock(&conns_lock);
            return NULL;
        }
        double now = mono_now();
        for (conn *k = conns; k; k = k->next)
            if (k->fd >= 0 && now - k->since > (k->in_request ? cfg.request_s : cfg.header_s)) {
                shutdown(k->fd, SHUT_RDWR);
                k->fd = -1; /* once */
            }
        pthread_mutex_unlock(&conns_lock);
    }
}

/* ------------------------------------------------------------ rate limit
 * A token bucket per client in a fixed table (its memory is bounded
 * whatever the clients): a client's key probes 8 slots; a slot whose
 * bucket has filled up again is free for another client; with all 8 busy
 * the client shares the first one's bucket (more refusals, never fewer). */
#define RL_SLOTS 2048
static struct bucket {
    char key[PL_NAME_MAX + 76];
    double tokens, t;
} buckets[RL_SLOTS];
static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;

/* Takes one request from KEY's bucket: 1, or 0 (refused; *wait: seconds
   until the next one would pass). */
static int rl_take(const char *key, double *wait)
{
    if (cfg.rate <= 0)
        return 1;
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    pthread_mutex_lock(&rl_lock);
    double now = mono_now();
    struct bucket *use = NULL, *spare = NULL;
    for (int i = 0; i < 8 && !use; i++) {
        struct bucket *b = &buckets[(h + (uint32_t)i) % RL_SLOTS];
        if (!strncmp(b->key, key, sizeof b->key - 1))
            use = b;
        else if (!spare && (!b->key[0] || b->tokens + (now - b->t) * cfg.rate >= cfg.burst))
            spare = b;
    }
    if (!use && spare) {
        use = spare;
        snprintf(use->key, sizeof use->key, "%s", key);
        use->tokens = cfg.burst;
        use->t = now;
    }
    if (!use)
        use = &buckets[h % RL_SLOTS];
    use->tokens += (now - use->t) * cfg.rate;
    if (use->tokens > cfg.burst)
        use->tokens = cfg.burst;
    use->t = now;
    int ok = use->tokens >= 1;
    if (ok)
        use->tokens -= 1;
    else
        *wait = (1 - use->tokens) / cfg.rate;
    pthread_mutex_unlock(&rl_lock);
    return ok;
}

/* -------------------------------------------------------------- answers */

/* The headers every answer has; queues R with STATUS and frees it. */
static enum MHD_Result respond(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; "
                            "frame-ancestors 'none'; base-uri 'none'");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static struct MHD_Response *text_response(const char *type, const char *body, size_t len)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (r)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    return r;
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *type, sbuf *b)
{
    if (b->oom) {
        sb_free(b);
        return MHD_NO;
    }
    enum MHD_Result rc = respond(c, status, text_response(type, b->s ? b->s : "", b->len));
    sb_free(b);
    return rc;
}

/* The request being begun on this thread while its refusals wait for its
   body (handle() sets it around begin(): see drain_first). */
static __thread struct req *deferring;
static void defer(struct req *r, unsigned status, int retry_after, const char *line);

/* A refusal: LINE (one line, its '\n' included) with STATUS, and a
   Retry-After of RETRY_AFTER seconds if not 0. */
static enum MHD_Result refusal(struct MHD_Connection *c, unsigned status, int retry_after, const char *line)
{
    if (deferring) {
        defer(deferring, status, retry_after, line);
        return MHD_YES;
    }
    struct MHD_Response *r = text_response("text/plain; charset=utf-8", line, strlen(line));
    if (r && status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"primlab\"");
    if (r && status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD, POST");
    if (r && retry_after) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, secs);
    }
    return respond(c, status, r);
}

/* A refusal: one line of text, with STATUS. */
static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    for (int i = 0; i < n; i++) /* one line, whatever went into it */
        if ((unsigned char)line[i] < 0x20)
            line[i] = ' ';
    line[n++] = '\n';
    line[n] = '\0';
    return refusal(c, status, 0, line);
}

/* ------------------------------------------------------------- requests */

enum route { R_NONE, R_PAGE, R_ICON, R_LOGIN, R_LOGOUT, R_SUBMIT, R_JOBS, R_JOB, R_FILE, R_NAME, R_BOARD, R_API_BOARD };

typedef struct req {
    enum route route;
    long id;            /* R_JOB, R_FILE */
    char file[16];      /* R_FILE */
    char lab[8];        /* R_SUBMIT, R_BOARD */
    char who[PL_NAME_MAX + 1];
    int role, known;    /* known: who holds a token */
    int fd;             /* R_SUBMIT: the upload being written; -1 */
    char upload[40];    /* its name in uploads/; "" once it belongs to a job */
    char submission[PL_SUBMISSION_CHARS + 1]; /* X-Primlab-Submission; "" */
    long repeat;        /* the job an earlier request of that submission made; 0 */
    long got;           /* bytes of body so far */
    unsigned char magic[2];
    int io_error;       /* errno of a failed write */
    char body[4 * PL_DISPLAY_MAX + 8]; /* R_NAME */
    char token[PL_TOKEN_CHARS + 8];    /* R_LOGIN: the form's token */
    struct MHD_PostProcessor *pp;
    unsigned refused;   /* a refusal waiting for the body to be read (drain_first) */
    int refused_retry;
    char refused_line[512];
} req;

static void defer(req *r, unsigned status, int retry_after, const char *line)
{
    r->refused = status;
    r->refused_retry = retry_after;
    snprintf(r->refused_line, sizeof r->refused_line, "%s", line);
}

/* Whether a refusal of this request waits until its body is read. An
   answer sent while a client still sends its body is lost when the
   connection closes on the unread rest (the peer sees a reset; nginx, a
   502): so a body of a known, bounded length is read and dropped first,
   unless the client waits for our word before it sends one (Expect:
   100-continue), or the body is far too large to be worth reading (it is
   refused at once). */
static int drain_first(struct MHD_Connection *c)
{
    const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    const char *expect = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT);
    long long n = len ? atoll(len) : 0, bound = 4LL * cfg.max_upload;
    return n > 0 && n <= (bound > 65536 ? bound : 65536) && !(expect && !strcasecmp(expect, "100-continue"));
}

static const char *const FILES[][2] = {
    {"report.txt", "text/plain; charset=utf-8"},
    {"results.json", "application/json"},
    {"scores.tsv", "text/plain; charset=utf-8"},
    {"figure.svg", "image/svg+xml"},
};

/* An id: 1 to 15 digits, no sign, no leading zero. */
static long parse_id(const char *s, size_t n)
{
    if (n == 0 || n > 15 || s[0] == '0')
        return 0;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* URL and METHOD to a route (R_NONE: no such page); *bad_method: the route
   is there, not for METHOD. */
static enum route route_of(req *r, const char *url, const char *method, int *bad_method)
{
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST");
    enum route want = R_NONE;
    int is_post = 0;
    if (!strcmp(url, "/"))
        want = R_PAGE;
    else if (!strcmp(url, "/favicon.ico"))
        want = R_ICON;
    else if (!strcmp(url, "/login"))
        want = R_LOGIN, is_post = 1;
    else if (!strcmp(url, "/logout"))
        want = R_LOGOUT, is_post = 1;
    else if (!strcmp(url, "/api/jobs"))
        want = post ? R_SUBMIT : R_JOBS, is_post = post;
    else if (!strcmp(url, "/api/name"))
        want = R_NAME, is_post = 1;
    else if (!strncmp(url, "/api/jobs/", 10)) {
        const char *p = url + 10, *slash = strchr(p, '/');
        r->id = parse_id(p, slash ? (size_t)(slash - p) : strlen(p));
        if (r->id && !slash)
            want = R_JOB;
        else if (r->id)
            for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
                if (!strcmp(slash + 1, FILES[i][0])) {
                    snprintf(r->file, sizeof r->file, "%s", FILES[i][0]);
                    want = R_FILE;
                }
    } else if (!strncmp(url, "/board/", 7) || !strncmp(url, "/api/board/", 11)) {
        const char *lab = url[1] == 'b' ? url + 7 : url + 11;
        if (lab_known(lab)) {
            snprintf(r->lab, sizeof r->lab, "%s", lab);
            want = url[1] == 'b' ? R_BOARD : R_API_BOARD;
        }
    }
    *bad_method = want != R_NONE && (is_post ? !post : !get);
    return want;
}

/* The client's address, for its bucket (behind a proxy trusted with
   SERVE_TRUST_PROXY=1, the address it names in X-Real-IP). */
static void client_address(struct MHD_Connection *c, char *out, size_t cap)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    snprintf(out, cap, "?");
    int loopback = 0;
    if (sa && sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)cap);
        loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    } else if (sa && sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, out, (socklen_t)cap);
        loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
    }
    const char *real = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Real-IP");
    if (cfg.trust_proxy && loopback && real && *real && strlen(real) < 64)
        snprintf(out, cap, "%s", real);
}

/* The caller's token into tok (cap bytes): 1; 0 when there is none; -1
   when the Authorization header is not "Bearer <token68>". The cookie
   counts for a GET alone (a form elsewhere cannot POST with it: SameSite
   too). A token longer than tok is no token ("": nobody). */
static int credentials(struct MHD_Connection *c, int cookie_ok, char *tok, size_t cap)
{
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    const char *t = NULL;
    size_t n = 0;
    if (h) {
        if (strncasecmp(h, "Bearer ", 7) != 0)
            return -1;
        t = h + 7;
        while (*t == ' ')
            t++;
        n = strlen(t);
        if (n == 0)
            return -1;
        for (size_t i = 0; i < n; i++)
            if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=", t[i]))
                return -1;
    } else if (cookie_ok && (t = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, COOKIE)) && *t)
        n = strlen(t);
    else
        return 0;
    if (n >= cap)
        n = 0;
    memcpy(tok, t, n);
    tok[n] = '\0';
    return 1;
}

/* Who TOKEN names, into r: 1, 0 (nobody), -1 (an error: why). */
static int lookup(req *r, const char *token, char *why, size_t cap)
{
    pl_queue *q = db_lock();
    int rc = pl_queue_who(q, token, r->who, sizeof r->who, &r->role, why, cap);
    db_unlock();
    r->known = rc == 1;
    return rc;
}

/* Content-Length as a number; -1 when there is none (or a chunked body). */
static long long content_length(struct MHD_Connection *c)
{
    const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!v || !*v)
        return -1;
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    return errno || *end || n < 0 ? -1 : n;
}

/* X-Primlab-Submission's value: PL_SUBMISSION_CHARS lowercase hex digits. */
static int submission_shaped(const char *s)
{
    return strlen(s) == PL_SUBMISSION_CHARS && strspn(s, "0123456789abcdef") == PL_SUBMISSION_CHARS;
}

/* The status of a queue's refusal of a submission. */
static unsigned refusal_status(const char *why)
{
    if (strstr(why, "in the last hour"))
        return MHD_HTTP_TOO_MANY_REQUESTS;
    if (strstr(why, "queue is full"))
        return MHD_HTTP_SERVICE_UNAVAILABLE;
    return MHD_HTTP_INTERNAL_SERVER_ERROR;
}

/* -------------------------------------------------- the routes' answers */

static int may_see(const req *r, const pl_job *j)
{
    return r->role == PL_ROLE_INSTRUCTOR || !strcmp(j->student, r->who);
}

/* Job ID as its caller may see it: 1 with *j (and its position), or an
   answer queued (404, 500) and 0. */
static int find_job(struct MHD_Connection *c, const req *r, pl_job *j, long *pos, enum MHD_Result *rc)
{
    char why[256];
    pl_queue *q = db_lock();
    int found = pl_queue_get(q, r->id, j, why, sizeof why);
    if (found == 1 && pos)
        *pos = j->state == PL_JOB_QUEUED ? pl_queue_position(q, r->id) : -1;
    db_unlock();
    if (found < 0) {
        *rc = refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", why);
        return 0;
    }
    if (found == 0 || !may_see(r, j)) {
        *rc = refuse(c, MHD_HTTP_NOT_FOUND, "no job %ld of yours", r->id);
        return 0;
    }
    return 1;
}

static enum MHD_Result answer_job(struct MHD_Connection *c, const req *r)
{
    pl_job j;
    long pos = -1;
    enum MHD_Result rc;
    if (!find_job(c, r, &j, &pos, &rc))
        return rc;
    char sub[32], start[32], end[32];
    iso_time(j.submitted, sub, sizeof sub);
    iso_time(j.started, start, sizeof start);
    iso_time(j.finished, end, sizeof end);
    sbuf b = {0};
    sb_printf(&b, "id\t%ld\nlab\t%s\nstudent\t%s\nstate\t%s\n", j.id, j.lab, j.student, state_name(j.state));
    if (j.state == PL_JOB_QUEUED)
        sb_printf(&b, "position\t%ld\n", pos < 0 ? 0 : pos);
    if (j.gpu >= 0)
        sb_printf(&b, "gpu\t%d\n", j.gpu);
    else
        sb_printf(&b, "gpu\t\n");
    sb_printf(&b, "model\t%s\nsubmitted\t%s\nstarted\t%s\nfinished\t%s\nreason\t%s\n", j.model, sub, start, end,
              j.reason);
    return answer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", &b);
}

static int list_line(const pl_job *j, void *ctx)
{
    char sub[32];
    iso_time(j->submitted, sub, sizeof sub);
    sb_printf(ctx, "%ld\t%s\t%s\t%s\t%s\n", j->id, j->lab, j->student, state_name(j->state), sub);
    return 0;
}

static enum MHD_Result answer_jobs(struct MHD_Connection *c, const req *r)
{
    sbuf b = {0};
    char why[256];
    pl_queue *q = db_lock();
    int rc = pl_queue_each(q, r->role == PL_ROLE_INSTRUCTOR ? NULL : r->who, -1, list_line, &b, why, sizeof why);
    db_unlock();
    if (rc != 0) {
        sb_free(&b);
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", why);
    }
    return answer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", &b);
}

static enum MHD_Result answer_file(struct MHD_Connection *c, const req *r)
{
    pl_job j;
    enum MHD_Result rc;
    if (!find_job(c, r, &j, NULL, &rc))
        return rc;
    if (j.state == PL_JOB_QUEUED || j.state == PL_JOB_RUNNING)
        return refuse(c, MHD_HTTP_NOT_FOUND, "job %ld has no %s yet: it is %s", j.id, r->file, state_name(j.state));
    char path[PATH_MAX];
    pathf(path, sizeof path, "%s/jobs/%ld/%s", cfg.dir, j.id, r->file);
    /* the runner's files: never through a link it left */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return refuse(c, MHD_HTTP_NOT_FOUND, "job %ld has no %s", j.id, r->file);
    }
    struct MHD_Response *resp = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
    if (!resp) {
        close(fd);
        return MHD_NO;
    }
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        if (!strcmp(r->file, FILES[i][0]))
            MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, FILES[i][1]);
    return respond(c, MHD_HTTP_OK, resp);
}

/* /board/NN (a page of its own) and /api/board/NN (TSV): serve_board
   (page.c) is the hook. */
static enum MHD_Result answer_board(struct MHD_Connection *c, const req *r)
{
    sbuf b = {0};
    int html = r->route == R_BOARD;
    if (html) {
        char title[64];
        snprintf(title, sizeof title, "lab %s: the leaderboard", r->lab);
        page_head(&b, title, 0);
        sb_printf(&b, "<h1>Lab %s: the leaderboard</h1>\n", r->lab);
    }
    if (serve_board(&b, r->lab, html ? PL_BOARD_HTML_TABLE : PL_BOARD_TSV) < 0) {
        sb_free(&b);
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the leaderboard of lab %s cannot be made now", r->lab);
    }
    if (html)
        sb_printf(&b, "<p><a href=\"../\">the check service</a></p></body></html>\n");
    return answer(c, MHD_HTTP_OK, html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8", &b);
}

static enum MHD_Result answer_page(struct MHD_Connection *c, const req *r, unsigned status, const char *notice,
                                   const char *cookie)
{
    sbuf b = {0};
    page_render(&b, r->known ? r->who : NULL, r->role, notice);
    if (b.oom) {
        sb_free(&b);
        return MHD_NO;
    }
    struct MHD_Response *resp = text_response("text/html; charset=utf-8", b.s, b.len);
    sb_free(&b);
    if (resp && cookie)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, cookie);
    return respond(c, status, resp);
}

/* A redirect to the page, setting the cookie to VALUE ("" clears it). */
static enum MHD_Result to_page(struct MHD_Connection *c, const char *value)
{
    char cookie[256];
    snprintf(cookie, sizeof cookie, "%s=%s; Path=/; HttpOnly; Secure; SameSite=Strict%s", COOKIE, value,
             *value ? "" : "; Max-Age=0");
    struct MHD_Response *resp = text_response("text/plain; charset=utf-8", "", 0);
    if (resp) {
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, "./");
        MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, cookie);
    }
    return respond(c, MHD_HTTP_SEE_OTHER, resp);
}

static enum MHD_Result form_field(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                  const char *type, const char *encoding, const char *data, uint64_t off, size_t size)
{
    (void)kind, (void)filename, (void)type, (void)encoding;
    req *r = cls;
    if (strcmp(key, "token") != 0)
        return MHD_YES;
    if (off + size >= sizeof r->token) { /* longer than any token: nobody's */
        r->token[0] = '\0';
        return MHD_YES;
    }
    memcpy(r->token + off, data, size);
    r->token[off + size] = '\0';
    return MHD_YES;
}

/* -------------------------------------------------------------- uploads */

static void drop_upload(req *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    if (r->upload[0]) {
        char path[PATH_MAX];
        pathf(path, sizeof path, "%s/uploads/%s", cfg.dir, r->upload);
        unlink(path);
        r->upload[0] = '\0';
    }
}

/* A new upload's file: 0, or -1 with errno. */
static int open_upload(req *r)
{
    unsigned char raw[8];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return -1;
    int n = snprintf(r->upload, sizeof r->upload, "u");
    for (size_t i = 0; i < sizeof raw; i++)
        n += snprintf(r->upload + n, sizeof r->upload - (size_t)n, "%02x", raw[i]);
    snprintf(r->upload + n, sizeof r->upload - (size_t)n, ".tar.gz");
    char path[PATH_MAX];
    pathf(path, sizeof path, "%s/uploads/%s", cfg.dir, r->upload);
    r->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (r->fd < 0)
        r->upload[0] = '\0';
    return r->fd < 0 ? -1 : 0;
}

static enum MHD_Result submitted(struct MHD_Connection *c, long id, long pos, unsigned status);

/* The whole upload is in: on the disk, then the job (or, for a repeat of a
   submission, the job it made). */
static enum MHD_Result finish_submit(struct MHD_Connection *c, req *r)
{
    if (r->repeat) {
        pl_queue *q = db_lock();
        long pos = pl_queue_position(q, r->repeat);
        db_unlock();
        return submitted(c, r->repeat, pos, MHD_HTTP_OK);
    }
    if (r->io_error) {
        int e = r->io_error;
        drop_upload(r);
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the check service could not store your upload: %s",
                      strerror(e));
    }
    if (r->got < 2 || r->magic[0] != 0x1f || r->magic[1] != 0x8b) {
        drop_upload(r);
        return refuse(c, MHD_HTTP_BAD_REQUEST, "the upload is not a .tar.gz (make submit sends the lab's files as one)");
    }
    char dir[PATH_MAX];
    pathf(dir, sizeof dir, "%s/uploads", cfg.dir);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int synced = fsync(r->fd) == 0 && dfd >= 0 && fsync(dfd) == 0;
    int e = errno;
    if (dfd >= 0)
        close(dfd);
    close(r->fd);
    r->fd = -1;
    if (!synced) {
        drop_upload(r);
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the check service could not store your upload: %s",
                      strerror(e));
    }
    char why[256];
    int existed = 0;
    pl_queue *q = db_lock();
    long id = pl_queue_submit_once(q, r->who, r->lab, r->upload, r->submission, wall_now(), &cfg.lim, &existed, why,
                                   sizeof why);
    long pos = id > 0 ? pl_queue_position(q, id) : -1;
    db_unlock();
    if (id < 0) {
        drop_upload(r);
        return refuse(c, refusal_status(why), "%s", why);
    }
    if (existed) /* a request of the same submission made it meanwhile */
        drop_upload(r);
    r->upload[0] = '\0'; /* the job's now */
    claim_wake();
    return submitted(c, id, pos, existed ? MHD_HTTP_OK : MHD_HTTP_CREATED);
}

/* The answer to a submission: job ID, POS jobs before it (-1: it is not
   queued now), with STATUS (201 new, 200 a repeat). */
static enum MHD_Result submitted(struct MHD_Connection *c, long id, long pos, unsigned status)
{
    sbuf b = {0};
    sb_printf(&b, "id\t%ld\nposition\t%ld\n", id, pos < 0 ? 0 : pos);
    if (b.oom) {
        sb_free(&b);
        return MHD_NO;
    }
    struct MHD_Response *resp = text_response("text/plain; charset=utf-8", b.s, b.len);
    char where[64];
    snprintf(where, sizeof where, "/api/jobs/%ld", id);
    if (resp)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, where);
    sb_free(&b);
    return respond(c, status, resp);
}

/* ------------------------------------------------------------ the handler */

/* The per-client limit, the client being the account whose token the
   request carries, else its address: 0 when the request may go on, 1 when
   it was refused (429, answered in *rc). */
static int over_rate(struct MHD_Connection *c, const req *r, enum MHD_Result *rc)
{
    char key[PL_NAME_MAX + 72];
    if (r->known)
        snprintf(key, sizeof key, "a:%s", r->who);
    else {
        char addr[64];
        client_address(c, addr, sizeof addr);
        snprintf(key, sizeof key, "ip:%s", addr);
    }
    double wait = 1;
    if (rl_take(key, &wait))
        return 0;
    char line[160];
    snprintf(line, sizeof line, "too many requests from you: at most %g a second (%d at once); wait %d s\n", cfg.rate,
             cfg.burst, (int)wait + 1);
    *rc = refusal(c, MHD_HTTP_TOO_MANY_REQUESTS, (int)wait + 1, line);
    return 1;
}

/* POST /api/jobs, before its body: the lab, the length, the limits; then
   the upload's file. */
static enum MHD_Result begin_submit(struct MHD_Connection *c, req *r)
{
    char why[256];
    const char *lab = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "lab");
    if (!lab || !*lab)
        return refuse(c, MHD_HTTP_BAD_REQUEST, "no lab: POST /api/jobs?lab=NN, NN one of %s", cfg.labs);
    if (!lab_known(lab)) { /* named back only when it is a plain word */
        int plain = strlen(lab) <= 8 && strspn(lab, "0123456789abcdefghijklmnopqrstuvwxyz-_") == strlen(lab);
        return refuse(c, MHD_HTTP_BAD_REQUEST, "no lab%s%s%s here: the labs are %s", plain ? " '" : "",
                      plain ? lab : "", plain ? "'" : "", cfg.labs);
    }
    snprintf(r->lab, sizeof r->lab, "%s", lab);
    const char *sub = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Primlab-Submission");
    if (sub && !submission_shaped(sub))
        return refuse(c, MHD_HTTP_BAD_REQUEST, "a malformed X-Primlab-Submission header: %d lowercase hex digits, an id "
                                               "of the submission's own (make submit makes one)",
                      PL_SUBMISSION_CHARS);
    snprintf(r->submission, sizeof r->submission, "%s", sub ? sub : "");
    long long len = content_length(c);
    if (len < 0)
        return refuse(c, MHD_HTTP_LENGTH_REQUIRED,
                      "an upload needs a Content-Length (curl --data-binary @lab.tar.gz sends one)");
    if (len > cfg.max_upload)
        return refuse(c, MHD_HTTP_CONTENT_TOO_LARGE, "the upload is %lld bytes, the course's limit %ld", len,
                      cfg.max_upload);
    pl_queue *q = db_lock();
    long made = r->submission[0] ? pl_queue_find_submission(q, r->who, r->submission, why, sizeof why) : 0;
    int ok = made != 0 ? 0 : pl_queue_admit(q, r->who, wall_now(), &cfg.lim, why, sizeof why);
    db_unlock();
    if (made < 0)
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", why);
    if (made > 0) { /* a repeat: its body is read and dropped, then the job it made */
        r->repeat = made;
        return MHD_YES;
    }
    if (ok != 0)
        return refuse(c, refusal_status(why), "%s", why);
    if (open_upload(r) != 0)
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the check service could not store your upload: %s",
                      strerror(errno));
    return MHD_YES;
}

/* A small body (the sign-in form, a display name) with its length said,
   at most MAX bytes: MHD_YES to read it, or the refusal (WHAT; RULE says
   what may come). */
static enum MHD_Result small_body(struct MHD_Connection *c, const char *what, long long max, const char *rule)
{
    long long len = content_length(c);
    if (len < 0)
        return refuse(c, MHD_HTTP_LENGTH_REQUIRED, "%s needs a Content-Length", what);
    if (len > max)
        return refuse(c, MHD_HTTP_CONTENT_TOO_LARGE, "%s of %lld bytes: %s", what, len, rule);
    return MHD_YES;
}

/* The first call of a request: its headers are in. Every refusal that
   needs no body is answered here, before a byte of the body is read. In
   order: the client's rate, the route, the method, the token's form; the
   page and the sign-in need no token, the API one that names an account. */
static enum MHD_Result begin(struct MHD_Connection *c, req *r, const char *url, const char *method)
{
    int bad_method = 0;
    r->route = route_of(r, url, method, &bad_method);
    int get = r->route == R_PAGE || r->route == R_ICON || r->route == R_JOBS || r->route == R_JOB ||
              r->route == R_FILE || r->route == R_BOARD || r->route == R_API_BOARD;
    char tok[PL_TOKEN_CHARS + 8], why[256];
    enum MHD_Result rc;
    int cred = credentials(c, get, tok, sizeof tok);
    if (cred == 1 && lookup(r, tok, why, sizeof why) < 0)
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", why);
    if (over_rate(c, r, &rc))
        return rc;
    if (r->route == R_NONE)
        return refuse(c, MHD_HTTP_NOT_FOUND, "no such page: %s", url);
    if (bad_method)
        return refuse(c, MHD_HTTP_METHOD_NOT_ALLOWED, "%s is not for %s", method, url);
    if (cred < 0)
        return refuse(c, MHD_HTTP_BAD_REQUEST, "a malformed Authorization header: send 'Authorization: Bearer plk_...'");
    switch (r->route) {
    case R_PAGE:
        return answer_page(c, r, MHD_HTTP_OK, cred == 1 && !r->known ? "that token names no account: sign in again" : NULL,
                           NULL);
    case R_ICON: /* every browser asks for it: no icon, and no error in its console */
        return respond(c, MHD_HTTP_NO_CONTENT, MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT));
    case R_BOARD:
    case R_API_BOARD:
        return answer_board(c, r);
    case R_LOGOUT:
        return to_page(c, "");
    case R_LOGIN:
        if ((rc = small_body(c, "the sign-in form", 1024, "a token is 68 bytes")) != MHD_YES)
            return rc;
        r->pp = MHD_create_post_processor(c, 1024, form_field, r);
        return r->pp ? MHD_YES
                     : refuse(c, MHD_HTTP_BAD_REQUEST, "the sign-in form is application/x-www-form-urlencoded");
    default:
        break;
    }
    if (cred == 0)
        return refuse(c, MHD_HTTP_UNAUTHORIZED, "no token: send 'Authorization: Bearer plk_...' (make submit reads "
                                                "~/.config/primlab/token)");
    if (!r->known)
        return refuse(c, MHD_HTTP_UNAUTHORIZED, "that token names no account here (a new one replaces the old: ask "
                                                "your instructor)");
    switch (r->route) {
    case R_JOBS:
        return answer_jobs(c, r);
    case R_JOB:
        return answer_job(c, r);
    case R_FILE:
        return answer_file(c, r);
    case R_NAME:
        return small_body(c, "a display name", 4 * PL_DISPLAY_MAX, "one has at most " PL_STR(PL_DISPLAY_MAX) " bytes");
    case R_SUBMIT:
        return begin_submit(c, r);
    default:
        return refuse(c, MHD_HTTP_NOT_FOUND, "no such page: %s", url);
    }
}

/* A piece of the body. */
static enum MHD_Result take(req *r, const char *data, size_t n)
{
    switch (r->route) {
    case R_SUBMIT:
        if (r->got + (long)n > cfg.max_upload) /* Content-Length said otherwise: never */
            return MHD_NO;
        if (r->repeat) { /* its job has its upload */
            r->got += (long)n;
            return MHD_YES;
        }
        for (size_t i = 0; i < n && r->got + (long)i < 2; i++)
            r->magic[r->got + (long)i] = (unsigned char)data[i];
        r->got += (long)n;
        for (size_t off = 0; !r->io_error && off < n;) {
            ssize_t w = write(r->fd, data + off, n - off);
            if (w < 0 && errno != EINTR)
                r->io_error = errno;
            else if (w > 0)
                off += (size_t)w;
        }
        return MHD_YES;
    case R_NAME:
        if (r->got + n > sizeof r->body - 1)
            return MHD_NO;
        memcpy(r->body + r->got, data, n);
        r->got += (long)n;
        return MHD_YES;
    case R_LOGIN:
        return MHD_post_process(r->pp, data, n);
    default:
        return MHD_YES;
    }
}

/* The body is all in. */
static enum MHD_Result finish(struct MHD_Connection *c, req *r)
{
    char why[256];
    switch (r->route) {
    case R_SUBMIT:
        return finish_submit(c, r);
    case R_NAME: {
        size_t n = (size_t)r->got;
        r->body[n] = '\0';
        if (strlen(r->body) != n)
            return refuse(c, MHD_HTTP_BAD_REQUEST, "a display name holds no NUL byte");
        /* one line as echo or printf '%s\n' would send it */
        if (n && r->body[n - 1] == '\n')
            r->body[--n] = '\0';
        if (n && r->body[n - 1] == '\r')
            r->body[--n] = '\0';
        pl_queue *q = db_lock();
        int rc = pl_queue_set_display(q, r->who, r->body, why, sizeof why);
        db_unlock();
        if (rc != 0)
            return refuse(c, MHD_HTTP_BAD_REQUEST, "%s", why);
        board_names_changed();
        char pseudonym[32];
        board_pseudonym(r->who, pseudonym, sizeof pseudonym);
        sbuf b = {0};
        sb_printf(&b, "display\t%s\npseudonym\t%s\n", r->body, pseudonym);
        return answer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", &b);
    }
    case R_LOGIN: {
        if (lookup(r, r->token, why, sizeof why) < 0)
            return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", why);
        if (!r->known)
            return answer_page(c, r, MHD_HTTP_UNAUTHORIZED, "that token names no account here: check it, or ask "
                                                            "your instructor for a new one",
                               NULL);
        return to_page(c, r->token);
    }
    default:
        return refuse(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no answer");
    }
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **ctx)
{
    (void)cls, (void)version;
    req *r = *ctx;
    if (!r) {
        if (!(r = calloc(1, sizeof *r)))
            return MHD_NO;
        r->fd = -1;
        *ctx = r;
        conn_phase(c, 1);
        deferring = drain_first(c) ? r : NULL;
        enum MHD_Result rc = begin(c, r, url, method);
        deferring = NULL;
        return rc;
    }
    if (*size && r->refused) { /* read, and dropped */
        *size = 0;
        return MHD_YES;
    }
    if (*size) {
        enum MHD_Result rc = take(r, data, *size);
        *size = 0;
        return rc;
    }
    if (r->refused)
        return refusal(c, r->refused, r->refused_retry, r->refused_line);
    return finish(c, r);
}

static void completed(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)toe;
    req *r = *ctx;
    conn_phase(c, 0);
    if (!r)
        return;
    drop_upload(r); /* a request that ended before its job was queued */
    if (r->pp)
        MHD_destroy_post_processor(r->pp);
    free(r);
    *ctx = NULL;
}

struct MHD_Daemon *http_start(int fd, char *why, size_t cap)
{
    reaper_stop = 0;
    if (pthread_create(&reaper_th, NULL, reaper, NULL) != 0) {
        snprintf(why, cap, "the HTTP side: cannot start a thread");
        return NULL;
    }
    reaper_on = 1;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD;
    if (getenv("SERVE_DEBUG"))
        flags |= MHD_USE_ERROR_LOG;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, handle, NULL, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_THREAD_POOL_SIZE,
        (unsigned)cfg.threads, MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg.conns, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        (unsigned)cfg.per_ip, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg.header_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_NOTIFY_CONNECTION, notify_conn, NULL, MHD_OPTION_END);
    if (!d) {
        snprintf(why, cap, "libmicrohttpd would not start on SERVE_ADDR '%s'", cfg.addr);
        http_stop(NULL);
    }
    return d;
}

void http_stop(struct MHD_Daemon *d)
{
    if (d)
        MHD_stop_daemon(d);
    if (reaper_on) {
        pthread_mutex_lock(&conns_lock);
        reaper_stop = 1;
        pthread_mutex_unlock(&conns_lock);
        pthread_join(reaper_th, NULL);
        reaper_on = 0;
    }
}
