/* harness/parent/lab_run.c: one correctness test, one performance test, and
 * the benchmark of a lab (see lab.h), run by the parent through its worker
 * (worker_client.h). Each part's judge (judges/judge.h) makes the inputs,
 * the expected results and the verdicts, which stay here; the worker only
 * sees an input and a part to call. */
#define _GNU_SOURCE
#include "lab.h"

#include "alg_rows.h"
#include "bugs.h"
#include "diagnose.h"
#include "judges/judge.h"
#include "report.h"
#include "rng.h"
#include "rubric.h"
#include "timing.h"
#include "worker_client.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* memcpy, or memset to zero when src is NULL, by OpenMP threads when it is
   large: the first write of a page of the shared region faults it in, and
   8 GiB of faults on one thread take seconds; a stub's reference (zeros,
   256 MiB at 2^26) took 0.15 s. */
static void copy_big(void *dst, const void *src, size_t bytes)
{
    const size_t chunk = (size_t)8 << 20; /* 2^26 words: 32 chunks, every core */
    long nchunks = (long)((bytes + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (long k = 0; k < nchunks; k++) {
        size_t at = (size_t)k * chunk, len = bytes - at < chunk ? bytes - at : chunk;
        if (src)
            memcpy((char *)dst + at, (const char *)src + at, len);
        else
            memset((char *)dst + at, 0, len);
    }
}

/* Faults in [p, p + bytes) of the shared region, by OpenMP threads when it
   is large, before a worker copies into it or pins it: pages the first
   touch finds missing are allocated and zeroed there, and that took the
   worker's pinning about 1 ms a MiB on an H100 host, five times what
   pinning pages already there costs. Pages already there cost a look. */
static void prefault(unsigned char *p, size_t bytes)
{
    if (!bytes)
        return;
    const size_t chunk = (size_t)64 << 20;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1), hi = (uintptr_t)p + bytes;
    long nchunks = (long)((hi - lo + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (long k = 0; k < nchunks; k++) {
        uintptr_t a = lo + (uintptr_t)k * chunk, b = hi - a < chunk ? hi : a + chunk;
#ifdef MADV_POPULATE_WRITE
        if (madvise((void *)a, b - a, MADV_POPULATE_WRITE) == 0)
            continue;
#endif
        for (volatile unsigned char *q = (unsigned char *)a; (uintptr_t)q < b; q += page)
            *q = *q; /* an older kernel: a write to each page, of what it holds */
    }
}

/* prefault of the shared region's first bytes, once for each mapping: the
   look at pages already there cost a test of 2^22 words about 6 ms, and
   the session remembers how far it went (a worker that frees pages only
   slows down its own copies). */
static void prefault_head(pl_session *s, unsigned char *shm, size_t bytes)
{
    size_t *done = pl_session_faulted(s);
    if (bytes <= *done)
        return;
    prefault(shm + *done, bytes - *done);
    *done = bytes;
}

static void *xmalloc(size_t bytes, pl_result *r)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "out of host memory in the grader (%.1f MiB)", bytes / 1048576.0);
    }
    return p;
}

/* Every part gets its own inputs for each (seed, n, param). */
static uint64_t test_seed(uint64_t seed, const pl_part *p, long n, double param)
{
    uint64_t pbits = 0;
    if (p->params.n)
        memcpy(&pbits, &param, sizeof pbits);
    return pl_seed_mix(seed ^ pbits, pl_part_hash(p), (uint64_t)n);
}

static void gen_input(const pl_lab *lab, const pl_part *p, int *a, size_t len, long n, uint64_t seed, double param)
{
    pl_judge_make_input(pl_part_judge(p), lab, a, (long)len, n, param, seed);
}

static long part_max_n(const pl_part *p) { return p->sizes.max > 0 ? p->sizes.max : INT_MAX; }
static long in_len(const pl_part *p, long n, double param) { return pl_judge_in_words(pl_part_judge(p), n, param); }
static long out_len(const pl_part *p, long n, double param) { return pl_judge_out_words(pl_part_judge(p), n, param); }
/* The scratch the contract sizes for the judge's length (the longer of
   input and output, or what the judge says). */
static long scratch_len(const pl_lab *lab, const pl_part *p, long n, double param)
{
    return lab->scratch_ints ? (long)lab->scratch_ints(pl_judge_scratch_elems(pl_part_judge(p), n, param)) : 0;
}

/* A result as the worker left it in the shared region, for the judge: the
   first run's output and guards; a second run's output and the input after
   it when twice. */
static pl_judged judged(long n, double param, const int *in, long in_words, const int *want, const unsigned char *shm,
                        const pl_shm_layout *l, int twice)
{
    pl_judged r;
    memset(&r, 0, sizeof r);
    r.n = n, r.param = param, r.in = in, r.in_words = in_words, r.want = want;
    r.got = (const int *)(shm + l->out[0]);
    r.front = shm + l->guard_front, r.back = shm + l->guard_back;
    if (twice) {
        r.got2 = (const int *)(shm + l->out[1]);
        r.in_after = in_words > 0 ? (const int *)(shm + l->in_after) : NULL; /* nothing to check in an empty input */
    }
    return r;
}

static int judge(const pl_part *p, const pl_judged *r, pl_diag *d) { return pl_judge_compare(pl_part_judge(p), r, d); }

static void expect(const pl_part *p, const int *in, int *want, long n, double param)
{
    pl_judge_expect(pl_part_judge(p), p, in, n, param, want);
}

/* The expected result into want, given the run's output got (len words):
   got itself where the judge proves it right without the reference (a
   sort), else the reference. got is copied first and the copy proven, so
   that the worker, which can still write to shared memory, cannot change
   what was proven; the judge then compares got with it as with any
   reference. */
static int proves(const pl_part *p)
{
    static int refs = -1; /* PRIMLAB_NO_PROOF=1: the reference every time (to compare, or to distrust) */
    if (refs < 0)
        refs = getenv("PRIMLAB_NO_PROOF") && strcmp(getenv("PRIMLAB_NO_PROOF"), "0") != 0;
    return !refs && pl_judge_can_prove(pl_part_judge(p));
}

static void expect_from(const pl_part *p, const int *in, int *want, long n, double param, const int *got, size_t len)
{
    const pl_judge *j = pl_part_judge(p);
    if (proves(p)) {
        copy_big(want, got, len * sizeof *want);
        if (pl_judge_proven(j, in, n, param, want))
            return;
    }
    expect(p, in, want, n, param);
}

/* ------------------------------------------------------------ requests */

/* One test's conversation with the worker: the part, the size, the lengths
   and the deadline all its requests share. */
typedef struct conv {
    pl_session *s;
    const pl_part *p;
    int variant;
    long n, in_len, out_len, scratch_len;
    int reps;
    double deadline, limit_s;
    pl_result *r;
    pl_shm_layout l;
    unsigned char *shm;
    long patch_at;     /* sent with CALL requests when PL_RQ_PATCH is set */
    int started;       /* the worker was up when the deadline was set */
    int patch_value;
} conv;

static void pl_req_patch(conv *c, long at, int value)
{
    c->patch_at = at;
    c->patch_value = value;
}

static int conv_begin(conv *c, pl_session *s, const pl_lab *lab, const pl_part *p, int variant, long n, double param,
                      int reps, double timeout_s, pl_result *r)
{
    memset(c, 0, sizeof *c);
    c->s = s, c->p = p, c->variant = variant, c->n = n, c->reps = reps, c->r = r;
    c->in_len = in_len(p, n, param), c->out_len = out_len(p, n, param), c->scratch_len = scratch_len(lab, p, n, param);
    c->limit_s = timeout_s;
    c->deadline = pl_now() + (timeout_s > 0 ? timeout_s : 1e9);
    c->l = pl_shm_layout_for(c->in_len, c->out_len, reps);
    if (!(c->shm = pl_session_shm(s, c->l.total))) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "cannot grow the shared region to %.1f MiB", c->l.total / 1048576.0);
        return 0;
    }
    return 1;
}

/* Adds a bugs.h class to the test's (the scores' bugs column). */
static void bug(pl_result *r, const char *code) { pl_bug_add(r->bugs, sizeof r->bugs, code); }

/* A CUDA error's likely cause at the test's size, after the reason (as far
   as it fits) and as a detail line. */
static void cuda_cause(conv *c, const char *err)
{
    bug(c->r, PL_BUG_CUDA_ERROR);
    char hint[200];
    pl_cuda_error_hint(err, c->n, pl_part_size_name(c->p), hint, sizeof hint);
    if (!hint[0])
        return;
    size_t rl = strlen(c->r->reason), dl = strlen(c->r->detail);
    if (rl + 3 < sizeof c->r->reason)
        snprintf(c->r->reason + rl, sizeof c->r->reason - rl, ": %.*s", (int)(sizeof c->r->reason - rl - 3), hint);
    snprintf(c->r->detail + dl, sizeof c->r->detail - dl, "  likely cause: %s\n", hint);
}

/* Sends one request; 1 when the worker did it. Otherwise r says why. */
static int ask(conv *c, int kind, unsigned flags, int slot, pl_reply *rep, double *wall)
{
    pl_req q;
    memset(&q, 0, sizeof q);
    q.kind = (uint32_t)kind;
    snprintf(q.part, sizeof q.part, "%s", c->p->id);
    q.variant = c->variant;
    q.flags = flags;
    q.slot = slot;
    q.reps = c->reps;
    q.n = c->n, q.in_len = c->in_len, q.out_len = c->out_len, q.scratch_len = c->scratch_len;
    q.patch_at = c->patch_at;
    q.patch_value = c->patch_value;
    double w;
    /* A worker (re)started here, under its own limit and with its own
       reason (worker_client.c): below, a timeout is the request's. The
       limit is the code's time, not the worker's start. */
    if (!pl_session_start(c->s, c->r))
        return 0;
    if (c->limit_s > 0 && !c->started) {
        c->started = 1;
        c->deadline = pl_now() + c->limit_s;
    }
    if (!pl_session_request(c->s, &q, rep, c->deadline, wall ? wall : &w, c->r)) {
        if (c->r->status == PL_TIMEOUT) {
            snprintf(c->r->reason, sizeof c->r->reason, "timed out after %g s and was killed (%s)", c->limit_s,
                     c->n == 0 ? "at n = 0, an empty input: a loop or log2(n) that never ends?"
                               : "a kernel or loop that never finishes?");
            bug(c->r, c->n == 0 ? PL_BUG_HANG_EMPTY : PL_BUG_HANG);
        }
        else if (c->r->cuda_error) /* its own error check printed one, then exited */
            cuda_cause(c, c->r->cuda_error);
        return 0;
    }
    switch (rep->status) {
    case PL_W_OK: return 1;
    case PL_W_NOFIT: c->r->status = PL_SKIP; break;
    default: c->r->status = PL_ERROR; break;
    }
    snprintf(c->r->reason, sizeof c->r->reason, "%s", rep->reason);
    if (rep->status == PL_W_CALL_ERROR) /* the worker caught a launch error or a kernel fault */
        cuda_cause(c, pl_find_cuda_error(rep->reason));
    return 0;
}

/* ------------------------------------------------------------- the test */

/* Host buffers kept between tests and grown when needed: a fresh malloc per
   test pays its page faults again. */
static int *grow(int **buf, size_t *cap, size_t bytes, pl_result *r)
{
    if (bytes > *cap) {
        free(*buf);
        *cap = 0;
        if (!(*buf = xmalloc(bytes, r)))
            return NULL;
        *cap = bytes;
    }
    return *buf;
}

/* The last limit test's input and expected result, kept for the next one:
   at the contract's largest size each costs seconds, and parts whose
   judges make the same input and expect the same result (several
   transposes of one matrix) share them. */
static struct {
    int valid;             /* 1: the input; 2: the expected result too */
    pl_input input;        /* the judge's input side */
    void (*expect)(const pl_judge *, const pl_part *, const int *, long, double, int *); /* the judge kind's */
    pl_cpu_op ref;         /* the oracle the default expect uses */
    long n, in_len, out_len;
    uint64_t seed;
    double param;
} kept;

static int same_input(const pl_input *a, const pl_input *b)
{
    return a->words == b->words && a->gen == b->gen && a->make == b->make && a->span == b->span;
}

/* A test of several runs (the judge's runs): each call on a fresh input
   staged into freshly poisoned buffers, every result judged, the judge
   adding them up. Stops at a call the worker could not make, and at an
   output never written (a stub: one run says it all). */
static void run_repeated(pl_session *s, const pl_lab *lab, const pl_part *part, int runs, long n, double param,
                         uint64_t seed, double timeout_s, pl_result *r)
{
    static int *in, *want;
    static size_t in_cap, want_cap;
    conv c;
    if (!conv_begin(&c, s, lab, part, PL_VAR_IMPL, n, param, 0, timeout_s, r))
        return;
    size_t ibytes = (size_t)c.in_len * 4, len = (size_t)c.out_len;
    if (!grow(&in, &in_cap, ibytes, r) || !grow(&want, &want_cap, len * 4, r))
        return;
    kept.valid = 0; /* in and want are about to change */
    pl_tally t;
    memset(&t, 0, sizeof t);
    t.runs = runs, t.first = -1;
    pl_diag d;
    pl_reply rep;
    double ph[5] = {0}, t0 = pl_now(); /* input, copy, run, oracle, judge */
    for (int k = 0; k < runs; k++) {
        double ta = pl_now();
        gen_input(lab, part, in, (size_t)c.in_len, n, pl_seed_mix(test_seed(seed, part, n, param), 0x72756e73ull, (uint64_t)k),
                  param);
        double tb = pl_now();
        copy_big(c.shm + c.l.in, in, ibytes);
        double tc = pl_now();
        ph[0] += tb - ta, ph[1] += tc - tb;
        if (!ask(&c, PL_REQ_STAGE, PL_RQ_UPLOAD, 0, &rep, NULL) || !ask(&c, PL_REQ_CALL, 0, 0, &rep, NULL) ||
            !ask(&c, PL_REQ_FETCH, PL_RQ_GUARDS, 0, &rep, NULL)) {
            char reason[sizeof r->reason];
            snprintf(reason, sizeof reason, "run %d of %d: %.160s", k + 1, runs, r->reason);
            memcpy(r->reason, reason, sizeof reason);
            return;
        }
        const int *got = (const int *)(c.shm + c.l.out[0]);
        double td = pl_now();
        int unwritten = pl_all_poison(got, len);
        if (unwritten)
            copy_big(want, NULL, len * sizeof *want);
        else
            expect_from(part, in, want, n, param, got, len);
        double te = pl_now();
        pl_judged v = judged(n, param, in, c.in_len, want, c.shm, &c.l, 0);
        if (!judge(part, &v, &d) && t.wrong++ == 0)
            t.first = k, t.first_d = d;
        ph[2] += td - tc, ph[3] += te - td, ph[4] += pl_now() - te;
        if (unwritten)
            break;
    }
    if (getenv("PRIMLAB_PHASES"))
        fprintf(stderr, "phases %s.%s n=%ld: %.3f s: %d runs: input %.3f copy %.3f run %.3f oracle %.3f judge %.3f\n",
                lab->id, part->id, n, pl_now() - t0, runs, ph[0], ph[1], ph[2], ph[3], ph[4]);
    if (!t.wrong) {
        r->status = PL_PASS;
        return;
    }
    r->status = PL_FAIL;
    r->findings = t.first_d.findings;
    bug(r, pl_bug_of_finding(t.first_d.chosen));
    if (t.wrong < runs)
        bug(r, PL_BUG_FLAKY);
    pl_judge_summarize(pl_part_judge(part), &t, r->reason, sizeof r->reason, r->detail, sizeof r->detail);
}

static void run_test(pl_session *s, const pl_lab *lab, const pl_part *part, long n, double param, uint64_t seed,
                     double timeout_s, int once, pl_result *r)
{
    static int *in, *want;
    static size_t in_cap, want_cap;
    double t0 = pl_now();
    memset(r, 0, sizeof *r);
    if (n < 0 || n > part_max_n(part)) {
        r->status = PL_SKIP;
        snprintf(r->reason, sizeof r->reason, "%s = %ld is outside part (%s)'s contract (0 <= %s <= %ld)",
                 pl_part_size_name(part), n, part->id, pl_part_size_name(part), part_max_n(part));
        return;
    }
    const pl_judge *j = pl_part_judge(part);
    int runs = pl_judge_runs(j);
    if (runs > 1 && !once) {
        run_repeated(s, lab, part, runs, n, param, seed, timeout_s, r);
        r->seconds = pl_now() - t0;
        return;
    }
    conv c;
    if (!conv_begin(&c, s, lab, part, PL_VAR_IMPL, n, param, 0, timeout_s, r))
        return;
    size_t ibytes = (size_t)c.in_len * 4;
    prefault_head(s, c.shm, c.l.times); /* the input, both outputs, the guards, the input after */
    pl_reply rep;
    /* A limit test's input depends on the lab, not the part, so that parts
       with one input and one reference share the work (see kept). */
    uint64_t tseed = once ? pl_seed_mix(seed, 0x6c696d6974ull /* "limit" */, (uint64_t)n) : test_seed(seed, part, n, param);
    const pl_input *input = j->kind->input(j);
    pl_cpu_op ref = pl_part_oracle(part, c.in_len);
    int same_in = once && kept.valid && same_input(&kept.input, input) && kept.n == n && kept.in_len == c.in_len &&
                  kept.seed == tseed && (kept.param == param || (isnan(param) && isnan(kept.param)));
    int same_want = same_in && kept.valid == 2 && kept.expect == j->kind->expect && kept.ref == ref &&
                    kept.out_len == c.out_len;
    if (!once)
        kept.valid = 0; /* in and want are about to change */
    if (grow(&in, &in_cap, ibytes, r) && grow(&want, &want_cap, (size_t)c.out_len * 4, r)) {
        double tg = pl_now();
        if (!same_in) {
            kept.valid = 0;
            gen_input(lab, part, in, (size_t)c.in_len, n, tseed, param);
            if (once) {
                kept.valid = 1, kept.input = *input, kept.expect = NULL, kept.ref = NULL, kept.n = n;
                kept.in_len = c.in_len, kept.out_len = c.out_len, kept.seed = tseed, kept.param = param;
            }
        }
        double tcp = pl_now();
        copy_big(c.shm + c.l.in, in, ibytes);
        double tr1 = pl_now();
        /* Two runs from freshly poisoned outputs: a race shows as a difference.
           A limit test runs once: at that size a run costs seconds, and the
           smaller sizes look for races. */
        int staged = ask(&c, PL_REQ_STAGE, PL_RQ_UPLOAD, 0, &rep, NULL);
        /* At the limit the device may still hold the last lab's buffers for a
           moment (a worker being torn down): a limit test that does not fit
           waits a second and tries again, for up to 15 s. Whether it should
           fit was decided before any student code ran (pl_lab_fits); a
           worker that says "does not fit" only ever costs itself the test. */
        for (int tries = 0; once && !staged && r->status == PL_SKIP && tries < 15 && pl_now() + 1 < c.deadline; tries++) {
            struct timespec second = {1, 0};
            nanosleep(&second, NULL);
            memset(r, 0, sizeof *r);
            staged = ask(&c, PL_REQ_STAGE, PL_RQ_UPLOAD, 0, &rep, NULL);
        }
        int ran = staged && ask(&c, PL_REQ_CALL, 0, 0, &rep, NULL) &&
                  ask(&c, PL_REQ_FETCH, PL_RQ_GUARDS, 0, &rep, NULL);
        /* Compared where the worker left them. Its process could change them
           meanwhile, but only to a result it could have sent. */
        const int *got = (const int *)(c.shm + c.l.out[0]);
        /* An output never written: the reference and the second run are
           spared for the stubs' many tests. */
        size_t len = (size_t)c.out_len;
        int unwritten = ran && pl_all_poison(got, len);
        int twice = !once && !unwritten;
        /* the judge may poison the second run otherwise: float and double
           outputs start it as NaN, so that an output read before it is
           written (y[r] += ...) cannot hide in the usual poison, which is a
           float of -2.9e-16 */
        double tr2 = pl_now();
        if (ran && twice)
            ran = ask(&c, PL_REQ_STAGE, pl_judge_second_stage(j), 0, &rep, NULL) &&
                  ask(&c, PL_REQ_CALL, 0, 0, &rep, NULL) &&
                  ask(&c, PL_REQ_FETCH, PL_RQ_IN_AFTER, 1, &rep, NULL);
        double to = pl_now(), tj = to;
        if (ran) {
            if (unwritten) {
                copy_big(want, NULL, len * sizeof *want);
                if (kept.valid == 2)
                    kept.valid = 1;
            } else if (!same_want) {
                expect_from(part, in, want, n, param, got, len);
                if (once && kept.valid)
                    kept.valid = 2, kept.expect = j->kind->expect, kept.ref = ref, kept.out_len = c.out_len;
            }
            tj = pl_now();
            pl_judged v = judged(n, param, in, c.in_len, want, c.shm, &c.l, twice);
            pl_diag d;
            r->status = judge(part, &v, &d) ? PL_PASS : PL_FAIL;
            r->findings = d.findings;
            bug(r, pl_bug_of_finding(d.chosen));
            snprintf(r->reason, sizeof r->reason, "%s", d.reason);
            snprintf(r->detail, sizeof r->detail, "%s", d.detail);
        }
        double te = pl_now();
        if (getenv("PRIMLAB_PHASES") && te - t0 > 0.05)
            fprintf(stderr,
                    "phases %s.%s n=%ld: %.3f s: start %.3f input %.3f copy %.3f run %.3f run2 %.3f oracle %.3f "
                    "judge %.3f\n",
                    lab->id, part->id, n, te - t0, tg - t0, tcp - tg, tr1 - tcp, tr2 - tr1, to - tr2, tj - to, te - tj);
    }

    /* n = 0 has nothing to compare: a stub would pass it. Probe n = 1 too,
       so that only a part that works scores this test. */
    if (n == 0 && r->status == PL_PASS) {
        run_test(s, lab, part, 1, param, seed, c.deadline - pl_now(), 0, r);
        if (r->status != PL_PASS) {
            char reason[sizeof r->reason];
            snprintf(reason, sizeof reason, "n = 0 is fine, but the n = 1 probe: %.160s", r->reason);
            memcpy(r->reason, reason, sizeof reason);
        }
    }
    r->seconds = pl_now() - t0;
}

void pl_lab_test(pl_session *s, const pl_lab *lab, const pl_part *part, long n, double param, uint64_t seed,
                 double timeout_s, pl_result *r)
{
    run_test(s, lab, part, n, param, seed, timeout_s, 0, r);
}

void pl_lab_test_limit(pl_session *s, const pl_lab *lab, const pl_part *part, long n, double param, uint64_t seed,
                       double timeout_s, pl_result *r)
{
    run_test(s, lab, part, n, param, seed, timeout_s, 1, r);
}

/* ------------------------------------------------------ timed, verified */

/* A variant timed as grading times it: every repetition on a fresh input
   whose result is checked, each call timed by the worker's CUDA events and
   by this process's clock around the request. */
typedef struct timing {
    int reps;
    double ev[64];      /* the worker's CUDA-event time of each call */
    double call[64];    /* the parent's clock around each CALL request */
    double window[64];  /* ... and from the STAGE request to the FETCH reply */
    double copy[64], stage[64], fetch[64]; /* the window's parts: the input into shared memory, STAGE, FETCH */
    double cpu_ms;      /* CPU time the worker's processes used in the windows, as the kernel counts it */
    double window_ms;   /* the windows' total */
    int lent_calls;     /* lent functions called, over all repetitions */
    /* The CUDA runtime's allocation functions the calls made (the worker's
       word: a note in the report, never points) */
    long allocs[PL_AF_COUNT]; /* calls of each, over all repetitions */
    double alloc_ms[64];      /* host time in them, each call */
    int alloc_reps;           /* repetitions whose call made any */
} timing;

/* Where a performance test's seconds go, summed over its repetitions (both
   variants): printed to stderr when PRIMLAB_PHASES is set, to find what the
   grader itself costs (input, oracle, copies, the worker's requests, the
   judge) against the calls it times. */
enum { PH_GEN, PH_EXPECT, PH_SETTLE, PH_COPY, PH_STAGE, PH_CALL, PH_FETCH, PH_JUDGE, PH_COUNT };
static const char *const ph_name[PH_COUNT] = {"input", "oracle", "settle", "copy", "stage", "call", "fetch", "judge"};
typedef struct phases {
    double sum[PH_COUNT];
    double warm_stage;     /* the warm-up repetitions' STAGE: a worker's start, its first pinning */
    int settles, settled;  /* pl_quiet_threads calls, and those whose threads slept within the cap */
} phases;
static phases timed_ph; /* the performance test under way */

static void phases_report(const char *what, double total_s)
{
    if (!getenv("PRIMLAB_PHASES"))
        return;
    fprintf(stderr, "phases %s: %.3f s:", what, total_s);
    for (int i = 0; i < PH_COUNT; i++)
        fprintf(stderr, " %s %.3f", ph_name[i], timed_ph.sum[i]);
    fprintf(stderr, " (warm-up stage %.3f; threads asleep in %d of %d settles)\n", timed_ph.warm_stage,
            timed_ph.settled, timed_ph.settles);
}

/* With PRIMLAB_PHASES, each timed repetition of a performance test: the
   worker's event time and the parent's window (STAGE to FETCH), ms, for
   the submission and its GPU yardstick (y; NULL: a CPU yardstick), to see
   how much a ratio moves from one repetition, or one check, to the next. */
static void reps_report(const char *what, const timing *t, const timing *y)
{
    if (!getenv("PRIMLAB_PHASES"))
        return;
    for (int v = 0; v < 2; v++) {
        const timing *x = v ? y : t;
        if (!x)
            continue;
        fprintf(stderr, "reps %s %s: event", what, v ? "yardstick" : "code");
        for (int k = 0; k < x->reps; k++)
            fprintf(stderr, " %.4f", x->ev[k]);
        fprintf(stderr, "; window");
        for (int k = 0; k < x->reps; k++)
            fprintf(stderr, " %.4f", x->window[k]);
        fprintf(stderr, "\n");
    }
}

/* trusted: the yardstick, in a worker no submission ran in. Its timed
   repetitions reuse the warm-up's input, checked there: fresh inputs and a
   check of every repetition are for the submission's calls, and cost the
   grader as much again (2^28 words: input, reference and judge). */
static int timed_variant(pl_session *s, const pl_lab *lab, const pl_part *p, int variant, long n, double param,
                         uint64_t seed, int reps, double timeout_s, int trusted, timing *t, pl_result *r)
{
    conv c;
    if (!conv_begin(&c, s, lab, p, variant, n, param, 0, timeout_s, r))
        return 0;
    static int *in, *want;
    static size_t in_cap, want_cap;
    size_t ibytes = (size_t)c.in_len * 4;
    int ok = grow(&in, &in_cap, ibytes, r) && grow(&want, &want_cap, (size_t)c.out_len * 4, r);
    prefault_head(s, c.shm, c.l.out[1]); /* the input and the first output */
    prefault(c.shm + c.l.guard_front, 2 * PL_GUARD_BYTES);
    memset(t, 0, sizeof *t);
    t->reps = reps = reps > 64 ? 64 : reps;
    pl_rng rng;
    pl_rng_seed(&rng, seed ^ 0x7061746368ull /* "patch" */);
    /* rep -1 is the warm-up: checked, not counted */
    for (int k = -1; ok && k < reps; k++) {
        uint64_t rep_seed = test_seed(seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(k + 2)), p, n, param);
        int reuse = trusted && k >= 0;
        double tp = pl_now();
        if (!reuse)
            gen_input(lab, p, in, (size_t)c.in_len, n, rep_seed, param);
        timed_ph.sum[PH_GEN] += pl_now() - tp, tp = pl_now();
        /* The staged input, then a patch that the CALL applies: one word
           takes another word's value, within the span the judge allows (so
           it stays a valid input: a pair's key, not its value; a matrix's
           values, not its structure). A result made before the CALL is
           wrong. */
        long lo, hi, step, half = 0;
        pl_judge_patch(pl_part_judge(p), in, n, param, &lo, &hi, &step);
        long span = hi - lo;
        /* step 2 (doubles): a word from the same half of another element,
           so that the patched element stays a finite double (lo is even) */
        long at = span >= step ? lo + step * (long)pl_rng_range(&rng, 0, (uint64_t)(span / step - 1)) : -1;
        if (at >= 0 && step == 2)
            at += half = (long)(pl_rng_next(&rng) & 1);
        int before = at >= 0 ? in[at] : 0, value = before;
        for (int tries = 0; at >= 0 && tries < 16 && value == before; tries++)
            value = in[lo + step * (long)pl_rng_range(&rng, 0, (uint64_t)(span / step - 1)) + half];
        /* The expected result is the patched input's. A part whose judge
           proves a right output (a scan, a sort) has it after the call,
           proven, and the reference only for an output the proof does not
           accept (expect_from); the others have the reference here, before
           the window. Either way the work is outside the window, with the
           threads asleep before it opens (below). The proof spares a
           reference for every repetition: 0.6 to 0.9 s of a sort's test at
           2^24 and of a scan's at 2^28 on an H100 host. (Tried once before
           the clock rule believed the larger of two medians, the parent's
           clock bounded an honest sort's time in two of six checks.) */
        const int prove = !reuse && proves(p);
        if (!reuse && !prove) {
            if (at >= 0)
                in[at] = value;
            expect(p, in, want, n, param);
            if (at >= 0)
                in[at] = before;
        }
        timed_ph.sum[PH_EXPECT] += pl_now() - tp, tp = pl_now();
        /* The window that bounds a call opens after the input is in shared
           memory, at the STAGE request. The copy is this process's own work,
           and its time depends on where the pages of each worker's region
           lie, not on the worker: on an H100 host, 12.9 ms for 64 MiB into a
           submission's region against 10.2 ms into the yardstick's, over 20
           repetitions, several times a fast scan's call; with the copy in it,
           the bound cost honest submissions their performance points. The
           copy is still timed (copy[]), for the report. What the bound gives
           up: work a worker does while the parent copies (reading the input
           as it lands); the hostile cases compute in STAGE, CALL or FETCH. */
        double cpu0 = pl_session_cpu_ms(s), t0 = pl_now();
        /* Copied again when reused too, though the region still holds
           it: the yardstick's windows bound the submission's, so what
           comes before them stays as when the thresholds were set. A run
           without this copy (2026-11-27, an H100) gave fake_time_slow and
           slow_yardstick of tests/grading/test_hostile.sh 4 performance points
           against slow_honest's 3.16, its only failures; with the copy
           back they passed. One run each: not proof, and ~1 s a check. */
        copy_big(c.shm + c.l.in, in, ibytes);
        double tc = pl_now();
        timed_ph.sum[PH_COPY] += tc - t0;
        /* The OpenMP threads of the input, the reference and the copy spin
           on every core after their work (8.5 ms on an H100 host), and may
           delay the worker's launches inside the window: the likely cause
           of runs on an H100 where the parent's clock said 0.6 ms more than
           the CUDA events. A fixed 10 ms was waited here; now the team is
           ended, and the window waits until every thread sleeps (outside
           the window and its CPU share; at most 10 ms). */
        timed_ph.settled += pl_quiet_threads(10e-3);
        double t1 = pl_now();
        timed_ph.sum[PH_SETTLE] += t1 - tc, timed_ph.settles++;
        pl_reply rep, other;
        double w = 0;
        ok = ask(&c, PL_REQ_STAGE, PL_RQ_UPLOAD | PL_RQ_TIMED, 0, &other, NULL);
        double t2 = pl_now();
        if (ok) {
            pl_req_patch(&c, at, value);
            ok = ask(&c, PL_REQ_CALL, PL_RQ_TIMED | (at >= 0 ? PL_RQ_PATCH : 0), 0, &rep, &w);
            pl_req_patch(&c, -1, 0);
        }
        double t3 = pl_now();
        ok = ok && ask(&c, PL_REQ_FETCH, PL_RQ_GUARDS, 0, &other, NULL);
        double t4 = pl_now(), window = (t4 - t1) * 1e3;
        timed_ph.sum[PH_STAGE] += t2 - t1, timed_ph.sum[PH_CALL] += t3 - t2, timed_ph.sum[PH_FETCH] += t4 - t3;
        if (k < 0)
            timed_ph.warm_stage += t2 - t1;
        if (k >= 0 && k < 64)
            t->copy[k] = (tc - t0) * 1e3, t->stage[k] = (t2 - t1) * 1e3, t->fetch[k] = (t4 - t3) * 1e3;
        if (ok && k >= 0)
            t->cpu_ms += pl_session_cpu_ms(s) - cpu0, t->window_ms += (tc - t0 + t4 - t1) * 1e3;
        if (!ok)
            break;
        if (!reuse) {
            pl_judged v = judged(n, param, in, c.in_len, want, c.shm, &c.l, 0);
            if (at >= 0) /* judged against the patched input, as the call saw it */
                in[at] = value;
            double tj = pl_now();
            if (prove) {
                expect_from(p, in, want, n, param, v.got, (size_t)c.out_len);
                tj = pl_now(), timed_ph.sum[PH_EXPECT] += tj - t4;
            }
            pl_diag d;
            int right = judge(p, &v, &d);
            if (at >= 0)
                in[at] = before;
            timed_ph.sum[PH_JUDGE] += pl_now() - tj;
            if (!right) {
                r->status = PL_FAIL;
                r->findings = d.findings;
                if (k >= 0)
                    bug(r, PL_BUG_TIMED_WRONG);
                bug(r, pl_bug_of_finding(d.chosen));
                if (k < 0)
                    snprintf(r->reason, sizeof r->reason, "wrong result, so not timed: %.160s", d.reason);
                else
                    snprintf(r->reason, sizeof r->reason, "timed repetition %d of %d gave a wrong result: %.140s",
                             k + 1, reps, d.reason);
                snprintf(r->detail, sizeof r->detail, "%s", d.detail);
                ok = 0;
                break;
            }
        }
        if (k < 0)
            continue;
        t->lent_calls += rep.lent_calls;
        long made = 0;
        for (int f = 0; f < PL_AF_COUNT; f++)
            if (rep.allocs[f] > 0)
                t->allocs[f] += rep.allocs[f], made += rep.allocs[f];
        t->alloc_ms[k] = made && rep.alloc_ms > 0 && rep.alloc_ms < 1e9 ? rep.alloc_ms : 0;
        t->alloc_reps += made > 0;
        t->ev[k] = rep.ms;
        t->call[k] = w;
        t->window[k] = window;
    }
    return ok;
}

/* A timing's repetitions as the clock rule reads them (timing.h). */
static pl_rep_times rep_times(const timing *t)
{
    return (pl_rep_times){t->reps, t->ev, t->call, t->window};
}

/* Whether a timing's processes used CPU time beyond the yardstick's own
   (y; NULL: a CPU yardstick) for over half its windows: the part computed
   on the CPU. */
static int on_host(const timing *t, const timing *y)
{
    double extra = t->cpu_ms - (y ? 2 * y->cpu_ms : 0);
    return extra > 30 && extra > 0.5 * t->window_ms;
}

/* The median of a timing's event times. */
static double events_ms(const timing *t)
{
    double ev[64];
    for (int k = 0; k < t->reps; k++)
        ev[k] = t->ev[k];
    return t->reps > 0 ? pl_median(ev, t->reps) : 0;
}

/* What the submission's calls took: pl_believed_ms over its timing and
   the trusted yardstick's (y; NULL: a CPU yardstick, then the CALL less
   a fixed allowance). */
static double believed_ms(const timing *t, const timing *y, int *clock_used, double *event_med, double *clock_med)
{
    pl_rep_times code = rep_times(t), yard = y ? rep_times(y) : code;
    return pl_believed_ms(&code, y ? &yard : NULL, event_med, clock_med, clock_used);
}

/* Timings made before their tests (pl_lab_perf_ahead): the submission's,
   then the yardstick's; a performance test finds its own here, by its
   pl_perf. */
#define MAX_AHEAD 32
static struct ahead {
    const pl_perf *perf;
    int reps;                  /* as asked */
    int code_ok;               /* the submission's timing went through (else rc says why) */
    pl_result rc;              /* the submission's result when it did not */
    timing ti;                 /* the submission's timing */
    int ok;                    /* the yardstick's went through (else reason) */
    char reason[sizeof ((pl_result *)0)->reason];
    double seconds;            /* its share of the time: both timings, the first one the worker's stop too */
    phases ph;                 /* its phases (PRIMLAB_PHASES), both variants */
    timing ty;                 /* the yardstick's timing */
} ahead[MAX_AHEAD];
static int nahead;

static void perf_copy_measure(pl_session *s);

static void phases_add(phases *to, const phases *from)
{
    for (int i = 0; i < PH_COUNT; i++)
        to->sum[i] += from->sum[i];
    to->warm_stage += from->warm_stage;
    to->settles += from->settles, to->settled += from->settled;
}

void pl_lab_perf_ahead(pl_session *s, pl_session *yard_s, const pl_lab *lab, const pl_perf *const *perfs,
                       const char *const *names, int n, int reps, uint64_t seed, double timeout_s)
{
    nahead = 0;
    int vendor = 0;
    for (int i = 0; i < n; i++)
        vendor += pl_perf_vendor_timed(perfs[i]) && pl_find_part(lab, perfs[i]->part);
    if (!yard_s || yard_s == s || !vendor)
        return;
    /* The copy bandwidth of the roofs, before the submission's timings and
       again after the yardsticks' (below), in the yardstick's worker: the
       higher is kept, so a submission that slows the GPU down (a kernel
       left running) lowers neither roof */
    double t_copy = pl_now();
    perf_copy_measure(yard_s);
    /* The submission first, in the worker its correctness tests left:
       no start, no first pinning of a new worker (0.2-0.8 s a lab on an
       H100 host) */
    for (int i = 0; i < n && nahead < MAX_AHEAD; i++) {
        const pl_part *p = pl_find_part(lab, perfs[i]->part);
        if (!p || !pl_perf_vendor_timed(perfs[i]))
            continue;
        struct ahead *a = &ahead[nahead++];
        memset(a, 0, sizeof *a);
        a->perf = perfs[i], a->reps = reps;
        if (names && names[i])
            pl_session_label(s, names[i]);
        memset(&timed_ph, 0, sizeof timed_ph);
        double t0 = nahead == 1 ? t_copy : pl_now();
        a->code_ok = timed_variant(s, lab, p, PL_VAR_IMPL, perfs[i]->n, perfs[i]->param, seed, reps, timeout_s, 0,
                                   &a->ti, &a->rc);
        a->ph = timed_ph;
        a->seconds = pl_now() - t0;
    }
    /* then the yardsticks, one after another, the submission's worker gone
       (it starts again at its next request): nothing it left running can
       slow them down */
    double t0 = pl_now();
    pl_session_restart(s);
    ahead[0].seconds += pl_now() - t0;
    for (int i = 0; i < nahead; i++) {
        struct ahead *a = &ahead[i];
        if (!a->code_ok) /* no ratio to make */
            continue;
        const pl_part *p = pl_find_part(lab, a->perf->part);
        memset(&timed_ph, 0, sizeof timed_ph);
        pl_result ry;
        memset(&ry, 0, sizeof ry);
        t0 = pl_now();
        a->ok = timed_variant(yard_s, lab, p, PL_VAR_VENDOR, a->perf->n, a->perf->param, seed + 1, reps, timeout_s, 1,
                              &a->ty, &ry);
        snprintf(a->reason, sizeof a->reason, "%s", ry.reason);
        phases_add(&a->ph, &timed_ph);
        a->seconds += pl_now() - t0;
    }
    t0 = pl_now();
    perf_copy_measure(yard_s);
    if (nahead)
        ahead[nahead - 1].seconds += pl_now() - t0;
}

/* A PL_YARD_ROOF test's score and reason (lab.h): the fraction of its roof
   (capped at 1) is what scores; the vendor's ratio is reported beside it.
   0 with r an ERROR when no fraction can be formed (no copy bandwidth: the
   machine's fault, not the code's). */
static int roof_scored(pl_result *r, const pl_perf *perf, double alg, double copy, double t_imp, double t_yard,
                       double pct_alg, double pct_copy)
{
    double frac = pl_perf_roof_fraction(alg, copy, t_imp);
    if (isnan(frac)) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "no roof to score against: %s",
                 alg > 0 ? "the copy bandwidth could not be measured" : "the part states no algorithm's bytes");
        return 0;
    }
    r->value = frac;
    r->score = pl_perf_points(perf, frac);
    snprintf(r->reason, sizeof r->reason,
             "%.1f%% of its roof%s (full marks from %.3g%%, none below %.3g%%): %.4f ms against its %.4f ms; "
             "%.3fx the vendor library (%.4f ms), %.1f%% of copy",
             pct_alg, pct_alg > 100 ? ", counted as 100%" : "", 100 * perf->full, 100 * perf->zero, t_imp,
             alg / (copy * 1e9) * 1e3, r->ratio, t_yard, pct_copy);
    return 1;
}

void pl_lab_perf(pl_session *s, pl_session *yard_s, const pl_lab *lab, const pl_perf *perf, int reps, uint64_t seed,
                 double timeout_s, const char *no_points, pl_result *r)
{
    double t0 = pl_now();
    memset(r, 0, sizeof *r);
    const pl_part *p = pl_find_part(lab, perf->part);
    if (!p) {
        r->status = PL_ERROR;
        snprintf(r->reason, sizeof r->reason, "performance test names no part of this lab");
        return;
    }
    static timing ti, ty, other; /* other: the timing not kept, when the code's was taken twice */
    pl_session *code_s = s;
    const struct ahead *a = NULL;
    for (int i = 0; i < nahead && !a && yard_s && yard_s != s; i++)
        if (ahead[i].perf == perf && ahead[i].reps == reps)
            a = &ahead[i];
    memset(&timed_ph, 0, sizeof timed_ph);
    if (a) { /* both timings made ahead: their share, counted here */
        timed_ph = a->ph;
        t0 -= a->seconds;
        if (!a->code_ok) {
            *r = a->rc;
            r->seconds = pl_now() - t0;
            return;
        }
        ti = a->ti;
    } else if (!timed_variant(s, lab, p, PL_VAR_IMPL, perf->n, perf->param, seed, reps, timeout_s, 0, &ti, r)) {
        r->seconds = pl_now() - t0;
        return;
    }
    const char *yard = "the vendor library";
    char yard_again[200] = "", code_again[300] = "";
    double t_yard;
    const timing *trusted_y = NULL;
    if (pl_perf_vendor_timed(perf)) {
        /* The yardstick in a worker of its own, the submission's gone: nothing
           it left running can slow the yardstick down. Timed before, when
           pl_lab_perf_ahead was: the same, once for the lab's tests. */
        int trusted = yard_s && yard_s != s;
        pl_result ry;
        memset(&ry, 0, sizeof ry);
        int yard_ok;
        if (a) {
            ty = a->ty, yard_ok = a->ok;
            snprintf(ry.reason, sizeof ry.reason, "%s", a->reason);
        } else {
            if (trusted)
                pl_session_restart(s);
            yard_ok = timed_variant(trusted ? yard_s : s, lab, p, PL_VAR_VENDOR, perf->n, perf->param, seed + 1, reps,
                                    timeout_s, trusted, &ty, &ry);
        }
        if (!yard_ok) {
            r->status = PL_ERROR;
            snprintf(r->reason, sizeof r->reason, "the yardstick failed: %.170s", ry.reason);
            r->seconds = pl_now() - t0;
            return;
        }
        t_yard = events_ms(&ty);
        /* A disturbed yardstick (timing.h) is timed once more, the
           submission's worker stopped again, and the lower median kept: a
           slow one would give the submission points it did not earn. */
        pl_rep_times yt = rep_times(&ty);
        if (trusted && pl_timing_disturbed(&yt, t_yard)) {
            static timing ty2;
            memset(&ry, 0, sizeof ry);
            pl_session_restart(code_s);
            if (timed_variant(yard_s, lab, p, PL_VAR_VENDOR, perf->n, perf->param, seed + 3, reps, timeout_s, 1, &ty2,
                              &ry)) {
                double t2 = events_ms(&ty2);
                snprintf(yard_again, sizeof yard_again,
                         "the yardstick was timed twice: its calls' median %.4f ms was over %.2f times its fastest "
                         "(%.4f ms), then %.4f ms; the lower is kept\n",
                         t_yard, PL_DISTURBED, pl_fastest_ms(&yt), t2);
                if (t2 < t_yard)
                    ty = ty2, t_yard = t2;
            }
        }
        if (trusted)
            trusted_y = &ty;
    } else {
        yard = "CPU OpenMP";
        long il = in_len(p, perf->n, perf->param);
        int *in = xmalloc((size_t)il * 4, r), *out = xmalloc((size_t)out_len(p, perf->n, perf->param) * 4, r);
        if (!in || !out) {
            free(in), free(out);
            return;
        }
        gen_input(lab, p, in, (size_t)il, perf->n, test_seed(seed, p, perf->n, perf->param), perf->param);
        double ms[64];
        int k = reps < 64 ? reps : 64;
        for (int i = 0; i < k; i++) {
            double a = pl_now();
            p->omp(in, out, (size_t)perf->n);
            ms[i] = (pl_now() - a) * 1e3;
        }
        t_yard = pl_median(ms, k);
        free(in), free(out);
    }
    int clock_used;
    double ev_med, clock_med, t_imp = believed_ms(&ti, trusted_y, &clock_used, &ev_med, &clock_med);
    /* A disturbed timing of the submission (timing.h) is taken again, on
       fresh inputs, each checked, and the lower time believed kept: each
       is bounded by the parent's clock as the first, so work hidden from
       the events shows in both. A wrong result, a crash or a timeout the
       second time is the verdict, as the first time. The vendor library
       called or the CPU used in either timing loses the points. */
    pl_rep_times ct = rep_times(&ti);
    int twice = 0;
    if (trusted_y && pl_timing_disturbed(&ct, t_imp)) {
        static timing ti2;
        pl_result r2;
        memset(&r2, 0, sizeof r2);
        if (!timed_variant(code_s, lab, p, PL_VAR_IMPL, perf->n, perf->param, seed + 2, reps, timeout_s, 0, &ti2,
                           &r2)) {
            *r = r2;
            char reason[sizeof r->reason];
            snprintf(reason, sizeof reason, "timed again: %.180s", r2.reason);
            memcpy(r->reason, reason, sizeof reason);
            r->seconds = pl_now() - t0;
            return;
        }
        int cu2;
        double em2, cm2, t2 = believed_ms(&ti2, trusted_y, &cu2, &em2, &cm2);
        snprintf(code_again, sizeof code_again,
                 "timed twice: the first timing's %.4f ms was over %.2f times its fastest call (%.4f ms), as when "
                 "something else slows the GPU or the host down; the second gave %.4f ms; the lower is kept\n",
                 t_imp, PL_DISTURBED, pl_fastest_ms(&ct), t2);
        twice = 1;
        int lent = ti.lent_calls + ti2.lent_calls;
        if (t2 < t_imp) {
            other = ti, ti = ti2;
            t_imp = t2, clock_used = cu2, ev_med = em2, clock_med = cm2;
        } else {
            other = ti2;
        }
        ti.lent_calls = lent;
    }
    /* CPU time beyond the yardstick's own, as a share of the windows: of
       the timing kept, or of the other when only that one shows it */
    const timing *host = &ti;
    if (twice && !on_host(&ti, trusted_y) && on_host(&other, trusted_y))
        host = &other;
    double ratio = t_yard / t_imp;
    r->status = PL_PASS;
    r->value = r->ratio = ratio;
    r->score = pl_perf_points(perf, ratio);
    snprintf(r->reason, sizeof r->reason,
             "%.4f ms against %.4f ms for %s: %.3fx its throughput (full marks from %.3fx, none below %.3fx)", t_imp,
             t_yard, yard, ratio, perf->full, perf->zero);
    /* How near its own algorithm's roof, beside the copy's (roofs.h): the
       copy bandwidth measured by the yardstick's worker when there is one
       (no submission ran in it), the higher of before and after the
       timings (pl_perf_copy_gbps) */
    char roof_line[600] = "";
    {
        double copy = pl_perf_copy_gbps(trusted_y ? yard_s : code_s);
        double counted = p->bytes ? p->bytes(perf->n, perf->param) : lab->bytes_per_elem * (double)perf->n;
        double alg = pl_alg_bytes(&p->alg, perf->n, perf->param), pct_copy = pl_alg_pct(counted, copy, t_imp);
        double pct_alg = pl_alg_pct(alg, copy, t_imp);
        if (perf->yardstick == PL_YARD_ROOF) { /* its reason says both fractions */
            if (!roof_scored(r, perf, alg, copy, t_imp, t_yard, pct_alg, pct_copy)) {
                r->seconds = pl_now() - t0;
                return;
            }
        } else {
            size_t rl = strlen(r->reason);
            if (!isnan(pct_alg) && rl < sizeof r->reason)
                rl += (size_t)snprintf(r->reason + rl, sizeof r->reason - rl, "; %.1f%% of its roof", pct_alg);
            if (!isnan(pct_copy) && rl < sizeof r->reason)
                snprintf(r->reason + rl, sizeof r->reason - rl, "%s%.1f%% of copy", isnan(pct_alg) ? "; " : ", ",
                         pct_copy);
        }
        if (!isnan(pct_alg)) {
            size_t ll = (size_t)snprintf(roof_line, sizeof roof_line,
                                         "its roof: %s: %.4g MB at the copy's %.0f GB/s take %.4f ms (docs/roofs.md)",
                                         p->alg.text ? p->alg.text : "its algorithm's bytes", alg / 1e6, copy,
                                         alg / (copy * 1e9) * 1e3);
            double ven = pl_alg_bytes(&p->vendor_alg, perf->n, perf->param);
            if (pl_perf_vendor_timed(perf) && ven > 0 && ll < sizeof roof_line)
                snprintf(roof_line + ll, sizeof roof_line - ll, "; the vendor's: %s, %.1f%% of its roof",
                         p->vendor_alg.text ? p->vendor_alg.text : "its algorithm's bytes",
                         pl_alg_pct(ven, copy, t_yard));
        }
    }
    /* Performance points need performance of the part's own: not the
       vendor's, not the CPU's. */
    char why[sizeof r->detail] = "";
    if (no_points) {
        /* the worker's link or its loader calls (driver.c's vendor_use):
           a code of its own, so that readers of the scores (the boards)
           need not infer it from points refused */
        bug(r, PL_BUG_VENDOR);
        snprintf(why, sizeof why, "no performance points: %s\n", no_points);
    } else if (!p->lends && ti.lent_calls > 0) {
        bug(r, PL_BUG_VENDOR);
        snprintf(why, sizeof why,
                 "no performance points: part (%s) called primlab_scan_exclusive (the vendor library), which its "
                 "contract does not lend it\n",
                 p->id);
    } else if (on_host(host, trusted_y)) {
        bug(r, PL_BUG_HOST);
        snprintf(why, sizeof why,
                 "no performance points: the submission's processes used %.0f ms of CPU time in %.0f ms of timed "
                 "calls and their transfers: the part computed on the CPU\n",
                 host->cpu_ms, host->window_ms);
    }
    if (*why)
        r->score = 0;
    size_t dl = strlen(why);
    memcpy(r->detail, why, dl + 1);
    if (clock_used) {
        /* what the clock saw besides the calls, the submission's against the
           yardstick's: which of the two bounds raised the time */
        double ic = pl_median_over(ti.call, ti.ev, ti.reps), iw = pl_median_over(ti.window, ti.ev, ti.reps);
        double yc = NAN, yw = NAN;
        if (trusted_y) {
            pl_rep_times yard = rep_times(trusted_y);
            pl_clock_allowance(&yard, &yc, &yw);
        }
        double m[6];
        const double *parts[6] = {ti.copy, ti.stage, ti.fetch, ty.copy, ty.stage, ty.fetch};
        for (int i = 0; i < 6; i++)
            m[i] = i < 3 || trusted_y ? pl_median((double *)parts[i], i < 3 ? ti.reps : ty.reps) : NAN;
        snprintf(r->detail + dl, sizeof r->detail - dl,
                 "the worker's CUDA-event times (median %.4f ms) are below what the parent's clock allows (%.4f ms): "
                 "the parent's clock is used (besides the call, medians: a CALL request %.3f ms, the yardstick's "
                 "%.3f ms; the window from STAGE to FETCH %.3f ms, the yardstick's longest %.3f ms: STAGE %.3f "
                 "against %.3f, FETCH %.3f against %.3f; not counted, the input into shared memory %.3f against "
                 "%.3f)\n",
                 ev_med, clock_med, ic, yc, iw, yw, m[1], m[4], m[2], m[5], m[0], m[3]);
    }
    if (ti.alloc_reps > 0) {
        /* A note, not a verdict: the allocations' time is already in the
           measurement. Counts per call that allocated; its host time, the
           median over those calls, beside the believed time of a call. */
        char fns[512] = "";
        size_t fl = 0;
        int kinds = 0, k = 0, device_only = 1;
        for (int f = 0; f < PL_AF_COUNT; f++)
            kinds += ti.allocs[f] > 0;
        for (int f = 0; f < PL_AF_COUNT && fl < sizeof fns; f++) {
            if (ti.allocs[f] <= 0)
                continue;
            device_only &= !pl_alloc_fn_host(f);
            k++;
            fl += (size_t)snprintf(fns + fl, sizeof fns - fl, "%s%.10g %s", k == 1 ? "" : k == kinds ? " and " : ", ",
                                   (double)ti.allocs[f] / ti.alloc_reps, pl_alloc_fn_name(f));
        }
        double am[64];
        int na = 0;
        for (int j = 0; j < ti.reps; j++)
            if (ti.alloc_ms[j] > 0)
                am[na++] = ti.alloc_ms[j];
        bug(r, PL_BUG_ALLOC);
        char when[48] = "every call";
        if (ti.alloc_reps < ti.reps)
            snprintf(when, sizeof when, "%d of %d timed calls", ti.alloc_reps, ti.reps);
        size_t at = strlen(r->detail);
        snprintf(r->detail + at, sizeof r->detail - at,
                 "the code allocates %s in %s: %s %s, %.3f ms of the %.3f ms a call took: allocate once and "
                 "keep it%s\n",
                 device_only ? "device memory" : "memory", when, fns, ti.alloc_reps < ti.reps ? "in each" : "per call",
                 na ? pl_median(am, na) : 0.0, t_imp,
                 scratch_len(lab, p, perf->n, perf->param) > 0 ? ", or use the scratch the contract lends" : "");
    }
    size_t at = strlen(r->detail);
    snprintf(r->detail + at, sizeof r->detail - at, "%s%s%s%s", code_again, yard_again, roof_line,
             roof_line[0] ? "\n" : "");
    r->seconds = pl_now() - t0;
    char what[96];
    snprintf(what, sizeof what, "%s.%s n=%ld", lab->id, p->id, perf->n);
    phases_report(what, r->seconds);
    reps_report(what, &ti, pl_perf_vendor_timed(perf) ? &ty : NULL);
    if (twice) {
        snprintf(what, sizeof what, "%s.%s n=%ld (the timing not kept)", lab->id, p->id, perf->n);
        reps_report(what, &other, NULL);
    }
}

/* ---------------------------------------------------------------- bench */

/* The variant timed for a benchmark row: checked once, then reps calls on
   one input. NaN when wrong or not runnable, with why in r. */
static double bench_gpu(pl_session *s, const pl_lab *lab, const pl_part *p, int variant, long n, double param,
                        const int *in, const int *want, int reps, pl_result *r, int check)
{
    conv c;
    if (!conv_begin(&c, s, lab, p, variant, n, param, reps, 0, r))
        return NAN;
    c.deadline = pl_now() + pl_env_seconds("PRIMLAB_TIMEOUT", 600);
    memcpy(c.shm + c.l.in, in, (size_t)c.in_len * 4);
    pl_reply rep;
    if (!ask(&c, PL_REQ_STAGE, PL_RQ_UPLOAD, 0, &rep, NULL) || !ask(&c, PL_REQ_CALL, 0, 0, &rep, NULL) ||
        !ask(&c, PL_REQ_FETCH, PL_RQ_GUARDS, 0, &rep, NULL))
        return NAN;
    pl_judged v = judged(n, param, in, c.in_len, want, c.shm, &c.l, 0);
    pl_diag d;
    if (check && !judge(p, &v, &d)) {
        r->status = PL_FAIL;
        snprintf(r->reason, sizeof r->reason, "%s", d.reason);
        return NAN;
    }
    if (!ask(&c, PL_REQ_TIME, 0, 0, &rep, NULL))
        return NAN;
    double *times = malloc(sizeof *times * (size_t)reps);
    if (!times)
        return NAN;
    memcpy(times, c.shm + c.l.times, sizeof *times * (size_t)reps);
    double med = pl_median(times, reps);
    free(times);
    return med;
}

struct cpu_arg {
    void (*fn)(const int *, int *, size_t);
    const int *in;
    int *out;
    long n;
};
static void call_cpu(void *p)
{
    struct cpu_arg *a = p;
    a->fn(a->in, a->out, (size_t)a->n);
}

/* A bandwidth the worker measures (COPY_BW, SMEM_BW), GB/s, or NaN with
   why (when why is not NULL). */
static double measured_gbps(pl_session *s, int kind, char *why, size_t cap)
{
    pl_req q;
    pl_reply rep;
    pl_result r;
    double w;
    memset(&q, 0, sizeof q);
    memset(&r, 0, sizeof r);
    memset(&rep, 0, sizeof rep);
    q.kind = (uint32_t)kind;
    if (pl_session_request(s, &q, &rep, pl_now() + 120, &w, &r) && rep.status == PL_W_OK)
        return rep.ms;
    if (why)
        snprintf(why, cap, "%s", r.reason[0] ? r.reason : rep.reason);
    return NAN;
}

/* The same, or NaN after printing why. */
static double device_gbps(pl_session *s, int kind)
{
    char why[200];
    double gbps = measured_gbps(s, kind, why, sizeof why);
    if (isnan(gbps))
        fprintf(stderr, "the %s measurement failed: %s\n",
                kind == PL_REQ_SMEM_BW ? "shared-memory bandwidth" : "copy bandwidth", why);
    return gbps;
}

/* the copy bandwidth of the performance tests' report and roofs: -1 before
   it is measured, then the highest measured (NaN: none could be) */
static double perf_copy = -1;

static void perf_copy_measure(pl_session *s)
{
    pl_result r;
    memset(&r, 0, sizeof r);
    double gbps = s && pl_session_start(s, &r) ? measured_gbps(s, PL_REQ_COPY_BW, NULL, 0) : NAN;
    if (!(gbps > 0) || isinf(gbps)) /* a worker that knows no copy (a test's fake) */
        gbps = NAN;
    if (perf_copy < 0 || isnan(perf_copy) || gbps > perf_copy)
        perf_copy = isnan(gbps) && perf_copy > 0 ? perf_copy : gbps;
}

double pl_perf_copy_gbps(pl_session *s)
{
    if (perf_copy < 0)
        perf_copy_measure(s);
    return perf_copy;
}

double pl_device_copy_gbps(pl_session *s) { return device_gbps(s, PL_REQ_COPY_BW); }

double pl_lab_time(pl_session *s, const pl_lab *lab, const pl_part *p, int vendor, long n, double param, int reps,
                   int check, pl_result *r)
{
    memset(r, 0, sizeof *r);
    long il = in_len(p, n, param), ol = out_len(p, n, param);
    int *in = xmalloc((size_t)il * 4, r), *want = in ? xmalloc((size_t)ol * 4, r) : NULL;
    double t = NAN;
    if (in && want) {
        gen_input(lab, p, in, (size_t)il, n, test_seed(1, p, n, param), param);
        memset(want, 0, (size_t)ol * 4);
        if (check)
            expect(p, in, want, n, param);
        t = bench_gpu(s, lab, p, vendor ? PL_VAR_VENDOR : PL_VAR_IMPL, n, param, in, want, reps, r, check);
    }
    free(in), free(want);
    return t;
}

int pl_lab_bench(pl_session *s, const pl_lab *lab, const pl_bench_opts *o)
{
    int wrong = 0;
    double copy = NAN, smem = NAN;
    const char *device = "cpu-only";
    int wants_smem = 0;
    for (int k = 0; k < lab->nparts; k++)
        wants_smem |= lab->parts[k]->bench && lab->parts[k]->roof == PL_ROOF_SMEM &&
                      (!o->part || o->part == lab->parts[k]);
    if (o->gpu) {
        const pl_reply *h = pl_session_hello(s);
        device = h->device;
        copy = device_gbps(s, PL_REQ_COPY_BW);
        FILE *say = o->progress ? o->progress : o->table;
        if (say)
            fprintf(say, "device: %s, %d SMs, copy bandwidth %.0f GB/s (read + write)%s%s\n", h->device, h->sms, copy,
                    h->vendor[0] ? "; yardstick " : "", h->vendor);
        if (wants_smem) {
            smem = device_gbps(s, PL_REQ_SMEM_BW);
            /* what the banks allow at the peak clock: 32 banks of 4 bytes per SM per cycle */
            double peak = (double)h->sms * 32 * 4 * h->clock_khz * 1e3 / 1e9;
            if (say)
                fprintf(say,
                        "shared memory: %.0f GB/s measured (conflict-free reads), the roof of the shared-memory rows; "
                        "%d SMs x 32 banks x 4 B x %.2f GHz = %.0f GB/s at the peak clock (%.0f%%)\n",
                        smem, h->sms, h->clock_khz / 1e6, peak, 100 * smem / peak);
        }
    }
    /* the algorithms' formulas of the parts timed (roofs.h): comment lines
       of the TSV, and the table's legend */
    char notes[4096] = "";
    size_t nl = 0;
    for (int k = 0; k < lab->nparts; k++)
        if (lab->parts[k]->bench && (!o->part || o->part == lab->parts[k]))
            pl_alg_notes(lab->parts[k], PL_NOTE_CODE | PL_NOTE_VENDOR, notes, sizeof notes, &nl);
    if (o->tsv)
        pl_tsv_begin(o->tsv, device, o->gpu ? pl_session_hello(s)->vendor : NULL, copy, smem,
                     o->source ? o->source : "measured", notes);
    if (o->table && notes[0]) {
        fprintf(o->table, "%% alg roof: each GPU row's time against its algorithm's roof, the bytes it must move\n"
                          "at the copy bandwidth (docs/roofs.md); each part's algorithm, and the vendor's:\n");
        for (const char *c = notes; *c;) { /* "# alg_b_cub: text" as "  b cub  text" */
            const char *key = c + strlen("# alg_"), *colon = strstr(key, ": "), *end = strchr(key, '\n');
            char id[48];
            snprintf(id, sizeof id, "%.*s", (int)(colon - key), key);
            for (char *u = strchr(id, '_'); u; u = strchr(u, '_'))
                *u = ' ';
            fprintf(o->table, "  %-12s %.*s\n", id, (int)(end - colon - 2), colon + 2);
            c = end + 1;
        }
    }
    if (o->table) { /* the yardstick the bench parts share, or "vendor" */
        const char *vendor = NULL;
        for (int k = 0; k < lab->nparts; k++) {
            const pl_part *p = lab->parts[k];
            const char *v = p->vendor_name ? p->vendor_name : "CUB";
            if (p->bench && (!o->part || o->part == p))
                vendor = !vendor || !strcmp(vendor, v) ? v : "vendor";
        }
        pl_table_begin(o->table, vendor);
    }

    for (int k = 0; k < lab->nparts; k++) {
        const pl_part *p = lab->parts[k];
        if (!p->bench || (o->part && o->part != p))
            continue;
        /* the (size, param) pairs to time */
        long pair_n[160];
        double pair_p[160];
        int npairs = 0, nsizes = o->nsizes;
        long pow2[64];
        const long *sizes = o->sizes;
        if (!sizes && o->sweep && !p->sizes.bench) {
            nsizes = 0;
            for (int e = lab->sweep_lo; e <= lab->sweep_hi && nsizes < 64; e++)
                pow2[nsizes++] = 1L << e;
            sizes = pow2;
        } else if (!sizes) {
            sizes = pl_part_bench_sizes(lab, p, &nsizes);
        }
        int np = o->params && p->params.n ? o->nparams : 1;
        for (int si = 0; si < nsizes; si++)
            for (int q = 0; q < np && npairs < 160; q++, npairs++) {
                pair_n[npairs] = sizes[si];
                pair_p[npairs] = !p->params.n ? NAN : o->params ? o->params[q] : p->params.bench;
            }
        /* and the parameter sweep at one length (not for parts whose size is
           not a length: a block-size part) */
        for (int q = 0; o->sweep && !o->sizes && p->params.n && !p->sizes.bench && q < lab->nsweep_params && npairs < 160;
             q++, npairs++) {
            pair_n[npairs] = lab->param_sweep_n;
            pair_p[npairs] = lab->sweep_params[q];
        }
        for (int si = 0; si < npairs; si++) {
            long n = pair_n[si];
            double param = pair_p[si];
            if (n > part_max_n(p))
                continue;
            if (o->progress)
                fprintf(o->progress, "[%s %2d/%d] %s = %ld\n", p->id, si + 1, npairs, pl_part_size_name(p), n);
            pl_result r;
            memset(&r, 0, sizeof r);
            long il = in_len(p, n, param), ol = out_len(p, n, param);
            int *in = xmalloc((size_t)il * 4, &r), *want = xmalloc((size_t)ol * 4, &r), *got = xmalloc((size_t)ol * 4, &r);
            if (!in || !want || !got) {
                fprintf(stderr, "lab%s: %s\n", lab->id, r.reason);
                free(in), free(want), free(got);
                return wrong + 1;
            }
            gen_input(lab, p, in, (size_t)il, n, test_seed(1, p, n, param), param);
            /* the timed serial reference (the oracle) writes the expected result */
            struct cpu_arg ca = {p->cpu, in, want, n};
            double t_ser = pl_time_cpu_ms(call_cpu, &ca, o->reps, 2.0, NULL);
            ca.fn = p->omp, ca.out = got;
            double t_omp = p->omp ? pl_time_cpu_ms(call_cpu, &ca, o->reps, 2.0, NULL) : NAN;
            double t_ven = NAN, t_imp = NAN;
            if (o->gpu && p->vendor) {
                t_ven = bench_gpu(s, lab, p, PL_VAR_VENDOR, n, param, in, want, o->reps, &r, 1);
                if (isnan(t_ven))
                    fprintf(stderr, "lab%s: part %s (vendor) at %s = %ld: %s\n", lab->id, p->id, pl_part_size_name(p),
                            n, r.reason);
            }
            if (o->gpu) {
                memset(&r, 0, sizeof r);
                t_imp = bench_gpu(s, lab, p, PL_VAR_IMPL, n, param, in, want, o->reps, &r, 1);
                if (isnan(t_imp)) {
                    fprintf(stderr, "lab%s: part %s (%s) at %s = %ld is not timed: %s%s\n", lab->id, p->id,
                            pl_impl_variant, pl_part_size_name(p), n, r.status == PL_FAIL ? "wrong: " : "", r.reason);
                    wrong++;
                }
            }
            double bytes = p->bytes ? p->bytes(n, param) : lab->bytes_per_elem * (double)n;
            struct {
                const char *variant;
                double t;
                int on_gpu;
            } v[] = {{"cpu_serial", t_ser, 0},
                     {"cpu_omp", t_omp, 0},
                     {p->vendor_name ? p->vendor_name : "cub", t_ven, 1},
                     {pl_impl_variant, t_imp, 1}};
            double flops = p->flops ? p->flops(n, param) : NAN;
            for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) {
                if (isnan(v[j].t))
                    continue;
                pl_row row;
                row.lab = lab->id;
                row.part = p->id;
                row.variant = v[j].variant;
                row.device = device;
                row.n = n;
                row.reps = o->reps;
                row.time_ms = v[j].t;
                row.gbps = bytes / (v[j].t * 1e-3) / 1e9;
                row.pct_copy = v[j].on_gpu ? 100.0 * row.gbps / copy : NAN;
                row.copy_gbps = copy;
                row.x_serial = t_ser / v[j].t;
                row.x_omp = t_omp / v[j].t;
                row.x_vendor = t_ven / v[j].t;
                row.param = param;
                row.param_label = p->params.labels && !isnan(param) ? p->params.labels[(int)param] : NULL;
                row.gflops = flops / (v[j].t * 1e-3) / 1e9;
                /* the code's rows its part's algorithm, the vendor's its own */
                row.alg_bytes = !v[j].on_gpu ? 0 : pl_alg_bytes(j == 2 ? &p->vendor_alg : &p->alg, n, param);
                row.roof = NULL;
                row.roof_gbps = row.pct_roof = NAN;
                if (v[j].on_gpu) {
                    int sm = p->roof == PL_ROOF_SMEM;
                    row.roof = sm ? "smem" : "copy";
                    row.roof_gbps = sm ? smem : copy;
                    row.pct_roof = 100.0 * row.gbps / row.roof_gbps;
                    if (sm) /* a fraction of a bandwidth it never uses means nothing */
                        row.pct_copy = NAN;
                }
                if (o->tsv)
                    pl_tsv_row(o->tsv, &row);
                if (o->table)
                    pl_table_row(o->table, &row);
            }
            free(in), free(want), free(got);
        }
    }
    return wrong;
}

/* ------------------------------------------------------------ limits */

static double meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double v = NAN;
    size_t kl = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == ':') {
            v = strtod(line + kl + 1, NULL) * 1024; /* kB */
            break;
        }
    if (f)
        fclose(f);
    return v;
}

int pl_lab_fits(const pl_lab *lab, const pl_part *part, long n, double param, const pl_reply *probe, char *why,
                size_t cap)
{
    const double gib = 1024.0 * 1024 * 1024;
    double in = 4.0 * (double)in_len(part, n, param), out = 4.0 * (double)out_len(part, n, param);
    double scratch = 4.0 * (double)scratch_len(lab, part, n, param);
    /* the worker: input, output and scratch with their guards (pl_dbuf) */
    double dev = in + out + scratch + 6.0 * PL_GUARD_BYTES;
    if (probe && probe->gpu_ok && dev > (double)probe->mem_bytes - 2 * gib) {
        snprintf(why, cap, "%s = %ld needs %.1f GiB of device memory; %s has %.1f GiB, 2 GiB of it kept for CUDA contexts",
                 pl_part_size_name(part), n, dev / gib, probe->device, (double)probe->mem_bytes / gib);
        return 0;
    }
    /* the parent: the input and the expected result, and the shared region's
       input and output (a limit test runs once: one output slot is touched) */
    double host = 2 * in + 2 * out, avail = meminfo_bytes("MemAvailable");
    /* (the worker pins the shared region only up to 8 GiB: larger regions
       stay pageable, so their untouched parts cost no memory) */
    if (avail == avail && host > avail - gib) {
        snprintf(why, cap, "%s = %ld needs %.1f GiB of host memory for the grader; %.1f GiB are available, 1 GiB of it kept free",
                 pl_part_size_name(part), n, host / gib, avail / gib);
        return 0;
    }
    return 1;
}
