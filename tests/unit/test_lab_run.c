/* tests/unit/test_lab_run.c: Check tests of the runner
 * (harness/parent/lab_run.c) through the scripted fake worker: limit tests
 * that share their input and reference, stress parts that judge every run. */
#define _GNU_SOURCE
#include "../../harness/parent/judges/array.h"
#include "../../harness/parent/judges/stress.h"
#include "../../harness/parent/bugs.h"
#include "../../harness/parent/lab.h"
#include "../../harness/parent/outcome.h"
#include "../../harness/parent/timing.h"
#include "fake_session.h"
#include "../lib/check_main.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const pl_impl_variant = "fake"; /* lab_run.c names it in benchmark rows */
static const long fake_sizes[] = {0, 1, 1024, 1025, 1L << 20};

/* A limit test through a worker: one run, the verdict of a normal test, and
   the input and reference shared with the next limit test of a part that
   has the same ones (the fake worker's "ok" part answers input + 1). */
static int plus_one_calls;
static void plus_one(const int *in, int *out, size_t n)
{
    plus_one_calls++;
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] + 1;
}
static void minus_one(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] - 1;
}
static size_t no_scratch(long n) { return (void)n, 0; }
static const pl_part ok_parts[] = {
    {.id = "ok", .title = "plus one", .entry = "f_ok", .sizes = {.max = 3000000}, .points = 1, .cpu = plus_one},
    {.id = "ok", .title = "plus one again", .entry = "f_ok", .sizes = {.max = 3000000}, .points = 1, .cpu = plus_one},
    {.id = "ok", .title = "minus one", .entry = "f_ok", .sizes = {.max = 3000000}, .points = 1, .cpu = minus_one},
};
static const pl_part *const ok_parts_list[] = {&ok_parts[0], &ok_parts[1], &ok_parts[2]};
static const pl_lab ok_lab = {.id = "97", .name = "ok", .parts = ok_parts_list, .nparts = 3, .test_sizes = fake_sizes,
                              .ntest_sizes = 5, .gen_lo = -100, .gen_hi = 100, .scratch_ints = no_scratch};

START_TEST(limit_test_runs_once_and_shares)
{
    pl_session *s = fake_session();
    pl_result r;
    long n = 2999500;
    plus_one_calls = 0;
    pl_lab_test_limit(s, &ok_lab, &ok_parts[0], n, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    pl_lab_test_limit(s, &ok_lab, &ok_parts[1], n, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 1); /* the reference ran once for both */
    /* another reference is not taken for the kept one */
    pl_lab_test_limit(s, &ok_lab, &ok_parts[2], n, NAN, 5, 30, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    /* a normal test in between: the next limit test computes afresh */
    pl_lab_test(s, &ok_lab, &ok_parts[0], 1025, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    plus_one_calls = 0;
    pl_lab_test_limit(s, &ok_lab, &ok_parts[0], n, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 1);
    /* another seed, another input */
    pl_lab_test_limit(s, &ok_lab, &ok_parts[1], n, NAN, 6, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 2);
    pl_session_close(s);
}
END_TEST

/* The timings made ahead, for a lab's performance tests: the submission's
   first, in its worker as it was (no start); then that worker is stopped,
   once, and the yardsticks are timed; the tests take both and start
   nothing. A test without them (not in the list) is timed as before: the
   submission's worker started again, and stopped before its yardstick. A
   submission wrong in a timed call keeps its verdict for its test. */
static const pl_perf ahead_perfs[] = {
    {.part = "ok", .n = 5000, .points = 1, .yardstick = PL_YARD_VENDOR, .full = 0.9, .zero = 0.1},
    {.part = "ok", .n = 7000, .points = 1, .yardstick = PL_YARD_VENDOR, .full = 0.9, .zero = 0.1},
    {.part = "ok", .n = 9000, .points = 1, .yardstick = PL_YARD_VENDOR, .full = 0.9, .zero = 0.1},
};
START_TEST(timings_made_ahead)
{
    pl_session *s = fake_session(), *y = fake_session();
    pl_lab lab = ok_lab;
    lab.perf = ahead_perfs, lab.nperf = 3;
    const pl_perf *list[] = {&ahead_perfs[0], &ahead_perfs[1]};
    const char *names[] = {"first", "second"};
    pl_result r;
    int started = pl_session_starts(s), yard_started = pl_session_starts(y);
    pl_lab_perf_ahead(s, y, &lab, list, names, 2, 3, 5, 30);
    ck_assert_int_eq(pl_session_starts(s), started); /* timed in the worker as it was */
    for (int k = 0; k < 2; k++) {
        pl_lab_perf(s, y, &lab, &ahead_perfs[k], 3, 5, 30, NULL, &r);
        ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
        /* The fake's calls all report 1 ms, so the ratio is 1 on an idle
           machine. Its windows are nothing but overhead, though, and the
           parent's clock bound raises a repetition whose window took
           longer than the yardstick's: on a loaded machine the ratio
           falls (0.55 seen on 2 busy cores), it never rises. A yardstick
           time lost or left at zero gives 0, inf or NaN. */
        ck_assert_msg(r.value > 0.05 && r.value < 1.05, "%g", r.value);
        ck_assert_msg(r.seconds > 0, "%g", r.seconds);
        /* a loaded machine may make the clock raise a timing enough for it
           to be taken again (disturbed_timing_taken_again), in a new worker:
           then stopped here again, as the yardsticks left it */
        if (strstr(r.detail, "timed twice: the first timing's")) {
            ck_assert_int_eq(pl_session_starts(s), ++started);
            pl_session_restart(s);
        }
        ck_assert_int_eq(pl_session_starts(s), started);
    }
    ck_assert_int_eq(pl_session_starts(y), yard_started);
    /* not made ahead: its worker was stopped before the yardsticks */
    pl_lab_perf(s, y, &lab, &ahead_perfs[2], 3, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    if (strstr(r.detail, "timed twice: the first timing's")) { /* stopped before its yardstick, started again */
        ck_assert_int_eq(pl_session_starts(s), ++started + 1);
        pl_session_restart(s);
    }
    ck_assert_int_eq(pl_session_starts(s), started + 1);
    pl_lab_test(s, &ok_lab, &ok_parts[0], 1025, NAN, 5, 30, &r);
    ck_assert_int_eq(pl_session_starts(s), started + 2);
    /* wrong when timed ahead (the reference says minus one): the test says so */
    static const pl_part *const wrong_list[] = {&ok_parts[2]};
    pl_lab wrong = lab;
    wrong.parts = wrong_list, wrong.nparts = 1;
    pl_lab_perf_ahead(s, y, &wrong, list, NULL, 1, 3, 5, 30);
    pl_lab_perf(s, y, &wrong, &ahead_perfs[0], 3, 5, 30, NULL, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    ck_assert_msg(strstr(r.reason, "wrong result, so not timed"), "%s", r.reason);
    ck_assert_int_eq(pl_session_starts(s), started + 2);
    pl_session_close(s);
    pl_session_close(y);
}
END_TEST

/* A timing that looks disturbed is taken again, and the lower time kept:
   the rule (timing.h), on the events of two checks, then through the fake
   worker's "noisy" part, whose timed calls 2 to 5 in a process are slow.
   The yardstick is taken again in its own worker, whose next calls are
   quiet: the lower median (1 ms, not 3) is kept. The submission's is
   taken again in a new worker, slow again: 3 ms both times, so the ratio
   is a third. Each says so in the detail. */
static const pl_part noisy_part = {.id = "noisy", .title = "noisy", .entry = "f_noisy", .sizes = {.max = 3000000},
                                   .points = 1, .cpu = plus_one};
static const pl_part *const noisy_list[] = {&noisy_part};
static const pl_perf noisy_perf = {.part = "noisy", .n = 5000, .points = 1, .yardstick = PL_YARD_VENDOR,
                                   .full = 0.9, .zero = 0.1};
START_TEST(disturbed_timing_taken_again)
{
    /* lab 04's compaction on an H100 (1.07 from fastest to median), lab
       08's scan on a busy H200 (1.45) */
    const double quiet[7] = {0.1326, 0.1451, 0.1418, 0.1410, 0.1404, 0.1515, 0.1700};
    const double busy[7] = {0.6147, 0.6214, 1.0159, 0.9902, 0.8903, 0.9711, 0.6231};
    pl_rep_times q = {7, quiet, NULL, NULL}, b = {7, busy, NULL, NULL}, none = {0, quiet, NULL, NULL};
    ck_assert(!pl_timing_disturbed(&q, 0.1418));
    ck_assert(pl_timing_disturbed(&b, 0.8903));
    ck_assert(pl_timing_disturbed(&q, 0.1326 * 1.26)); /* the clock raised it */
    ck_assert(!pl_timing_disturbed(&q, 0.1326 * 1.24));
    ck_assert(!pl_timing_disturbed(&none, 1.0));

    pl_session *s = fake_session(), *y = fake_session();
    pl_lab lab = ok_lab;
    lab.parts = noisy_list, lab.nparts = 1;
    int started = pl_session_starts(s), yard_started = pl_session_starts(y);
    pl_result r;
    pl_lab_perf(s, y, &lab, &noisy_perf, 7, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_msg(strstr(r.detail, "the yardstick was timed twice: its calls' median 3.0000 ms") &&
                      strstr(r.detail, "then 1.0000 ms; the lower is kept"), "%s", r.detail);
    ck_assert_msg(strstr(r.detail, "timed twice: the first timing's"), "%s", r.detail);
    ck_assert_msg(strstr(r.reason, "against 1.0000 ms"), "%s", r.reason);
    ck_assert_msg(r.value > 0.05 && r.value < 0.34, "%g: %s", r.value, r.reason);
    ck_assert_int_eq(pl_session_starts(s), started + 1);
    ck_assert_int_eq(pl_session_starts(y), yard_started);
    /* quiet both times: timed once each */
    lab.parts = ok_parts_list, lab.nparts = 3;
    pl_lab_perf(s, y, &lab, &ahead_perfs[0], 7, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_msg(!strstr(r.detail, "the yardstick was timed twice"), "%s", r.detail);
    pl_session_close(s);
    pl_session_close(y);
}
END_TEST

/* A part whose judge proves a right output has its timed repetitions'
   expected results from the proof, after each call, and no reference:
   "plus one" proven by looking. An output the proof does not accept (the
   fake's "flaky" part, wrong in its third call: the second timed
   repetition) gets the reference, and the test fails as before. */
static int proofs;
static int plus_one_proven(const pl_judge *j, const int *in, long n, double param, const int *out)
{
    (void)j, (void)param;
    proofs++;
    for (long i = 0; i < n; i++)
        if (out[i] != in[i] + 1)
            return 0;
    return 1;
}
START_TEST(timed_repetitions_proven)
{
    static pl_judge_kind plus_kind;
    plus_kind = pl_array_kind;
    plus_kind.name = "plus one", plus_kind.proven = plus_one_proven;
    static const pl_array_judge plus_cfg = {.hint_right = NULL};
    const pl_judge plus = {&plus_kind, &plus_cfg};
    const pl_part parts[] = {
        {.id = "ok", .title = "plus one", .entry = "f_ok", .sizes = {.max = 5000}, .points = 1, .cpu = plus_one,
         .judge = &plus},
        {.id = "flaky", .title = "flaky", .entry = "f_flaky", .sizes = {.max = 5000}, .points = 1,
         .cpu = plus_one, .judge = &plus},
    };
    const pl_part *const list[] = {&parts[0], &parts[1]};
    const pl_perf flaky_perf = {.part = "flaky", .n = 5000, .points = 1, .yardstick = PL_YARD_VENDOR,
                                .full = 0.9, .zero = 0.1};
    pl_session *s = fake_session(), *y = fake_session();
    pl_lab lab = ok_lab;
    lab.parts = list, lab.nparts = 2;
    pl_result r;
    plus_one_calls = proofs = 0;
    pl_lab_perf(s, y, &lab, &ahead_perfs[0], 3, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 0);
    ck_assert_int_ge(proofs, 5); /* the submission's warm-up and three repetitions, the yardstick's warm-up */
    plus_one_calls = proofs = 0;
    pl_lab_perf(s, y, &lab, &flaky_perf, 3, 5, 30, NULL, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    ck_assert_msg(strstr(r.reason, "timed repetition 2 of 3 gave a wrong result"), "%s", r.reason);
    ck_assert_int_eq(plus_one_calls, 1); /* for the one output not proven, to diagnose it */
    pl_session_close(s);
    pl_session_close(y);
}
END_TEST

/* PRIMLAB_PHASES prints every timed repetition of a performance test, the
   code's and its yardstick's: the fake's event times (1 ms each) and a
   window for each of the three. */
START_TEST(perf_repetitions_reported)
{
    pl_session *s = fake_session(), *y = fake_session();
    pl_lab lab = ok_lab;
    lab.perf = ahead_perfs, lab.nperf = 3;
    char path[] = "/tmp/primlab-reps-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    ck_assert_int_ge(fd, 0);
    setenv("PRIMLAB_PHASES", "1", 1);
    fflush(stderr);
    dup2(fd, 2);
    pl_result r;
    pl_lab_perf(s, y, &lab, &ahead_perfs[1], 3, 5, 30, NULL, &r);
    fflush(stderr);
    dup2(saved, 2);
    unsetenv("PRIMLAB_PHASES");
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    char text[4096] = "";
    FILE *f = fopen(path, "r");
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = 0;
    fclose(f), close(fd), unlink(path);
    const char *code = strstr(text, "reps 97.ok n=7000 code: event 1.0000 1.0000 1.0000; window ");
    const char *yard = strstr(text, "reps 97.ok n=7000 yardstick: event 1.0000 1.0000 1.0000; window ");
    ck_assert_msg(code && yard, "%s", text);
    double w[3];
    ck_assert_int_eq(sscanf(strchr(code, ';') + 9, "%lf %lf %lf", &w[0], &w[1], &w[2]), 3);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(w[k] > 0 && w[k] < 30000, "%s", text);
    pl_session_close(s);
    pl_session_close(y);
}
END_TEST

/* A performance test's report says how near its algorithm's roof the code
   is (roofs.h), beside its fraction of copy and its ratio: the fake
   worker's copy is 1 GB/s, so 2n words of 5000 take 0.04 ms there; the
   vendor's 3n 0.06 ms. */
static double two_words(long n, double p) { return (void)p, 8.0 * (double)n; }
static double three_words(long n, double p) { return (void)p, 12.0 * (double)n; }
static const pl_part roof_part = {.id = "ok", .title = "plus one", .entry = "f_ok", .sizes = {.max = 3000000},
                                  .points = 1, .cpu = plus_one, .vendor = 1, .alg = {two_words, "2n words: a test"},
                                  .vendor_alg = {three_words, "3n words: its yardstick"}};
static const pl_part *const roof_list[] = {&roof_part};
START_TEST(perf_reports_its_roof)
{
    pl_session *s = fake_session(), *y = fake_session();
    pl_lab lab = ok_lab;
    lab.parts = roof_list, lab.nparts = 1, lab.perf = ahead_perfs, lab.nperf = 1;
    lab.bytes_per_elem = 4; /* what the rows count: n words */
    pl_result r;
    pl_lab_perf(s, y, &lab, &ahead_perfs[0], 3, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    double t_imp, pct_alg, pct_copy;
    ck_assert_msg(sscanf(r.reason, "%lf ms against", &t_imp) == 1, "%s", r.reason);
    const char *at = strstr(r.reason, "; ");
    ck_assert_msg(at && sscanf(at, "; %lf%% of its roof, %lf%% of copy", &pct_alg, &pct_copy) == 2, "%s", r.reason);
    /* 100 * (bytes / 1e9 B/s) / (t_imp ms): the printed time has 4 decimals */
    double want_alg = 100 * (8.0 * 5000 / 1e9) / (t_imp * 1e-3), want_copy = want_alg / 2;
    ck_assert_msg(fabs(pct_alg - want_alg) <= 0.05 + want_alg * 1e-4 / t_imp, "%s: want %.3f", r.reason, want_alg);
    ck_assert_msg(fabs(pct_copy - want_copy) <= 0.05 + want_copy * 1e-4 / t_imp, "%s: want %.3f", r.reason, want_copy);
    ck_assert_msg(strstr(r.detail, "its roof: 2n words: a test: 0.04 MB at the copy's 1 GB/s take 0.0400 ms"), "%s",
                  r.detail);
    ck_assert_msg(strstr(r.detail, "; the vendor's: 3n words: its yardstick, "), "%s", r.detail);
    ck_assert_msg(strlen(r.reason) < sizeof r.reason - 1, "cut short: %s", r.reason);
    pl_session_close(s);
    pl_session_close(y);
}
END_TEST

/* A performance test scored by its roof (PL_YARD_ROOF, lab.h): the
   fraction of its roof is what scores, capped at 1; the vendor is timed
   all the same, in its worker, and its ratio is r->ratio. The fake's calls
   report 1 ms and its copy is 1 GB/s: 100 bytes an element of 5000 take
   0.5 ms there, so the fraction is 0.5 on an idle machine (less when the
   parent's clock raises the time, never more); 400 bytes take 2 ms, 200 %
   of the roof, which counts as 100 %. A submission refused its points (the
   vendor library in it) keeps its fraction, and scores 0. */
static double hundred_bytes(long n, double p) { return (void)p, 100.0 * (double)n; }
static double four_hundred_bytes(long n, double p) { return (void)p, 400.0 * (double)n; }
static const pl_part roof_parts[] = {
    {.id = "ok", .title = "plus one", .entry = "f_ok", .sizes = {.max = 3000000}, .points = 1, .cpu = plus_one,
     .vendor = 1, .alg = {hundred_bytes, "100 bytes an element"}, .vendor_alg = {two_words, "2n words"}},
    {.id = "ok", .title = "plus one", .entry = "f_ok", .sizes = {.max = 3000000}, .points = 1, .cpu = plus_one,
     .vendor = 1, .alg = {four_hundred_bytes, "400 bytes an element"}},
    {.id = "ok", .title = "plus one", .entry = "f_ok", .sizes = {.max = 3000000}, .points = 1, .cpu = plus_one,
     .vendor = 1},
};
static const pl_perf roof_perf = {.part = "ok", .n = 5000, .points = 2, .yardstick = PL_YARD_ROOF, .full = 0.4,
                                  .zero = 0.1};
START_TEST(perf_scored_by_its_roof)
{
    pl_session *s = fake_session(), *y = fake_session();
    pl_lab lab = ok_lab;
    const pl_part *const list0[] = {&roof_parts[0]}, *const list1[] = {&roof_parts[1]}, *const list2[] = {&roof_parts[2]};
    lab.parts = list0, lab.nparts = 1, lab.perf = &roof_perf, lab.nperf = 1, lab.bytes_per_elem = 4;
    int yard_started = pl_session_starts(y);
    pl_result r;
    pl_lab_perf(s, y, &lab, &roof_perf, 3, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_int_eq(pl_session_starts(y), yard_started); /* the vendor timed in its worker, as ever */
    double pct, full, zero, t_imp, t_roof, ratio, t_yard;
    ck_assert_msg(sscanf(r.reason, "%lf%% of its roof (full marks from %lf%%, none below %lf%%): %lf ms against its "
                                   "%lf ms; %lfx the vendor library (%lf ms)",
                         &pct, &full, &zero, &t_imp, &t_roof, &ratio, &t_yard) == 7,
                  "%s", r.reason);
    ck_assert_double_eq_tol(full, 40, 1e-9);
    ck_assert_double_eq_tol(zero, 10, 1e-9);
    ck_assert_double_eq_tol(t_roof, 0.5, 1e-9);
    ck_assert_msg(pct > 5 && pct < 50.5, "%s", r.reason);
    ck_assert_double_eq_tol(r.value, pct / 100, 1e-3 + 1e-4 / t_imp);
    ck_assert_double_eq_tol(r.score, pl_perf_points(&roof_perf, r.value), 1e-9);
    ck_assert_msg(r.ratio > 0.05 && r.ratio < 1.05 && fabs(r.ratio - ratio) < 1e-3, "%g: %s", r.ratio, r.reason);
    ck_assert_msg(strstr(r.detail, "its roof: 100 bytes an element: 0.5 MB at the copy's 1 GB/s take 0.5000 ms"),
                  "%s", r.detail);
    ck_assert_msg(strstr(r.detail, "; the vendor's: 2n words, "), "%s", r.detail);
    ck_assert_msg(strlen(r.reason) < sizeof r.reason - 1, "cut short: %s", r.reason);
    /* the vendor library in the submission: the same fraction, no points */
    pl_lab_perf(s, y, &lab, &roof_perf, 3, 5, 30, "uses the vendor library", &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    ck_assert_msg(r.value > 0.05, "%g", r.value);
    ck_assert_double_eq(r.score, 0);
    ck_assert_msg(strstr(r.detail, "no performance points: uses the vendor library"), "%s", r.detail);
    ck_assert_msg(pl_bug_has(r.bugs, PL_BUG_VENDOR), "bugs '%s'", r.bugs);
    /* above its roof: counted as 100 %, full marks and no more */
    lab.parts = list1;
    pl_lab_perf(s, y, &lab, &roof_perf, 3, 5, 30, NULL, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    if (strstr(r.reason, "counted as 100%")) {
        ck_assert_double_eq(r.value, 1);
        ck_assert_double_eq(r.score, 2);
    } else { /* a loaded machine's clock took it below 100 % */
        ck_assert_msg(r.value < 1, "%g: %s", r.value, r.reason);
    }
    /* no roof stated: nothing to score against, the machine's error */
    lab.parts = list2;
    pl_lab_perf(s, y, &lab, &roof_perf, 3, 5, 30, NULL, &r);
    ck_assert_int_eq(r.status, PL_ERROR);
    ck_assert_msg(strstr(r.reason, "no roof to score against: the part states no algorithm's bytes"), "%s", r.reason);
    pl_session_close(s);
    pl_session_close(y);
}
END_TEST

/* The copy bandwidth of the roofs: measured in the yardstick's worker
   before the submission's timings and after the yardsticks', the higher
   kept (pl_perf_copy_gbps). The fake's copy answers 0.5 GB/s first (a copy
   slowed down by what a submission left running), then 2: the roof is at
   2 GB/s, whichever comes first. */
START_TEST(roof_copy_the_higher_of_two)
{
    for (int order = 0; order < 2; order++) {
        pid_t pid = fork(); /* the copy is kept once a process */
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            pl_session *s = fake_session();
            setenv("FAKE_COPY_GBPS", order ? "2,0.5" : "0.5,2", 1);
            setenv("PRIMLAB_WORKER_PROFILE", "1", 1); /* the whole environment reaches the worker */
            pl_session *y = fake_session();
            unsetenv("PRIMLAB_WORKER_PROFILE");
            pl_lab lab = ok_lab;
            const pl_part *const list0[] = {&roof_parts[0]};
            lab.parts = list0, lab.nparts = 1, lab.perf = &roof_perf, lab.nperf = 1, lab.bytes_per_elem = 4;
            const pl_perf *perfs[] = {&roof_perf};
            pl_lab_perf_ahead(s, y, &lab, perfs, NULL, 1, 3, 5, 30);
            pl_result r;
            pl_lab_perf(s, y, &lab, &roof_perf, 3, 5, 30, NULL, &r);
            int ok = r.status == PL_PASS && strstr(r.detail, "at the copy's 2 GB/s take 0.2500 ms") &&
                     pl_perf_copy_gbps(y) == 2;
            if (!ok)
                fprintf(stderr, "%s\n%s", r.reason, r.detail);
            pl_session_close(s);
            pl_session_close(y);
            _exit(ok ? 0 : 1);
        }
        int status;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "order %d", order);
    }
}
END_TEST

/* A stress part (a stress judge's runs): every run on a fresh input, each judged;
   the fake worker's "flaky" part is wrong in every third call (index 0 off
   by one), "ok" never; a reference that is always wrong fails every run. */
static const pl_stress_judge seven_cfg = {NULL, 7};
static const pl_judge seven_runs = {&pl_stress_kind, &seven_cfg};
static const pl_part stress_parts[] = {
    {.id = "flaky", .title = "flaky", .entry = "f_flaky", .sizes = {.max = 5000}, .points = 1, .cpu = plus_one, .judge = &seven_runs},
    {.id = "ok", .title = "steady", .entry = "f_ok", .sizes = {.max = 5000}, .points = 1, .cpu = plus_one, .judge = &seven_runs},
    {.id = "ok", .title = "always wrong", .entry = "f_ok", .sizes = {.max = 5000}, .points = 1, .cpu = minus_one, .judge = &seven_runs},
};
static const pl_part *const stress_parts_list[] = {&stress_parts[0], &stress_parts[1], &stress_parts[2]};
static const pl_lab stress_lab = {.id = "96", .name = "stress", .parts = stress_parts_list, .nparts = 3,
                                  .test_sizes = fake_sizes, .ntest_sizes = 4, .gen_lo = -100, .gen_hi = 100,
                                  .scratch_ints = no_scratch};

START_TEST(stress_runs_count_the_wrong_ones)
{
    pl_session *s = fake_session();
    pl_result r;
    pl_lab_test(s, &stress_lab, &stress_parts[1], 1025, NAN, 5, 30, &r);
    ck_assert_msg(r.status == PL_PASS, "%s", r.reason);
    pl_lab_test(s, &stress_lab, &stress_parts[0], 1025, NAN, 5, 30, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    ck_assert_msg(strstr(r.reason, "wrong in 2 of 7 runs under load; run 3: ") != NULL, "%s", r.reason);
    ck_assert_msg(pl_bug_has(r.bugs, "flaky"), "%s", r.bugs);
    ck_assert_msg(strstr(r.detail, "first mismatch at index 0") != NULL, "%s", r.detail);
    pl_lab_test(s, &stress_lab, &stress_parts[2], 1025, NAN, 5, 30, &r);
    ck_assert_int_eq(r.status, PL_FAIL);
    ck_assert_msg(strstr(r.reason, "wrong in 7 of 7 runs") != NULL, "%s", r.reason);
    ck_assert_msg(!pl_bug_has(r.bugs, "flaky") && r.bugs[0], "%s", r.bugs);
    pl_session_close(s);
}
END_TEST

/* The CPU references' team fits the CPUs the process may use: one CPU in
   the affinity mask, a team of one; OMP_NUM_THREADS still decides when set. */
START_TEST(omp_team_fits_the_cpus)
{
    cpu_set_t all, one;
    ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
    ck_assert_int_ge(pl_cpu_budget(), 1);
    ck_assert_int_le(pl_cpu_budget(), CPU_COUNT(&all));
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all)) {
            CPU_SET(c, &one);
            break;
        }
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    ck_assert_int_eq(pl_cpu_budget(), 1);
    unsetenv("OMP_NUM_THREADS");
    ck_assert_int_eq(pl_omp_team_fit(), 1);
    setenv("OMP_NUM_THREADS", "3", 1);
    omp_set_num_threads(3);
    ck_assert_int_eq(pl_omp_team_fit(), 3);
    ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
}
END_TEST

/* The wait before a timing window: a thread that spins is seen running, and
   the wait gives up at its cap; once the threads sleep (a blocked thread,
   OpenMP's team after its spin) it returns at once. */
static volatile int spin_on = 1;
static int threads_here(void)
{
    DIR *d = opendir("/proc/self/task");
    ck_assert_ptr_nonnull(d);
    int count = 0;
    for (struct dirent *e; (e = readdir(d));)
        count += e->d_name[0] != '.';
    closedir(d);
    return count;
}
static void *spinner(void *arg)
{
    (void)arg;
    while (spin_on)
        ;
    return NULL;
}
START_TEST(settle_waits_for_spinning_threads)
{
    double a = pl_now();
    ck_assert_int_eq(pl_settle_threads(2.0), 1); /* whatever ran before sleeps */
    ck_assert_int_eq(pl_threads_running(), 0);
    ck_assert(pl_now() - a < 1.9);
    pthread_t t;
    spin_on = 1;
    ck_assert_int_eq(pthread_create(&t, NULL, spinner, NULL), 0);
    a = pl_now();
    while (pl_threads_running() < 1 && pl_now() - a < 2) /* until it is scheduled */
        ;
    ck_assert_int_ge(pl_threads_running(), 1);
    a = pl_now();
    ck_assert_int_eq(pl_settle_threads(0.03), 0);
    ck_assert(pl_now() - a >= 0.029);
    spin_on = 0;
    pthread_join(t, NULL);
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (long i = 0; i < 1L << 22; i++)
        sum += 1.0 / (double)(i + 1);
    ck_assert(sum > 1);
    ck_assert_int_eq(pl_settle_threads(2.0), 1); /* the team, done, goes to sleep */
    ck_assert_int_eq(pl_threads_running(), 0);
    /* the team ended, not only asleep: its threads are gone (a team that
       only sleeps keeps them), and a team works again afterwards */
    for (int k = 0; k < 3; k++) {
        double part = 0;
#pragma omp parallel for reduction(+ : part)
        for (long i = 0; i < 1L << 22; i++)
            part += 1.0 / (double)(i + 1);
        ck_assert(fabs(part - sum) < 1e-9);
        ck_assert_int_eq(pl_quiet_threads(2.0), 1);
        ck_assert_int_eq(pl_threads_running(), 0);
        a = pl_now();
        while (threads_here() > 1 && pl_now() - a < 2)
            ;
        if (omp_get_max_threads() > 1)
            ck_assert_int_eq(threads_here(), 1);
    }
}
END_TEST

/* The quota is found where a Slurm job or a container without a cgroup
   namespace has it, below the top folder, and the smallest on the way up
   counts; v1's cpu controller under its joint name or under "cpu". */
static void put(const char *dir, const char *rel, const char *text)
{
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    ck_assert_int_eq(system(cmd), 0);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(cgroup_quota_below_the_top)
{
    char root[] = "/tmp/primlab-cgroup-XXXXXX", self[600], cmd[600];
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(self, sizeof self, "%s/self", root);
    /* v2: none at the top, 3 CPUs at the job, none at the step */
    put(root, "v2/cpu.max", "max 100000\n");
    put(root, "v2/job/cpu.max", "300000 100000\n");
    put(root, "v2/job/step/cpu.max", "max 100000\n");
    put(root, "self", "0::/job/step\n");
    char v2[560], v1[560];
    snprintf(v2, sizeof v2, "%s/v2", root);
    ck_assert(fabs(pl_cgroup_cpus(v2, self) - 3.0) < 1e-9);
    put(root, "v2/job/step/cpu.max", "150000 100000\n"); /* the smaller one below */
    ck_assert(fabs(pl_cgroup_cpus(v2, self) - 1.5) < 1e-9);
    put(root, "self", "0::/\n"); /* a namespace of its own: the top folder is its */
    ck_assert(pl_cgroup_cpus(v2, self) == 0);
    /* v1, mounted under the joint name, with the other controllers' lines */
    snprintf(v1, sizeof v1, "%s/v1", root);
    put(root, "v1/cpu,cpuacct/slurm/uid_1/job_7/cpu.cfs_quota_us", "400000\n");
    put(root, "v1/cpu,cpuacct/slurm/uid_1/job_7/cpu.cfs_period_us", "100000\n");
    put(root, "v1/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    put(root, "v1/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    put(root, "self", "12:memory:/slurm/uid_1/job_7\n4:cpu,cpuacct:/slurm/uid_1/job_7/step_0\n1:name=systemd:/\n");
    ck_assert(fabs(pl_cgroup_cpus(v1, self) - 4.0) < 1e-9);
    /* no such file: no quota, no failure */
    snprintf(cmd, sizeof cmd, "%s/none", root);
    ck_assert(pl_cgroup_cpus(cmd, cmd) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The clock rule (pl_believed_ms): a trusted yardstick of 7 repetitions,
   0.1 ms calls, CALLs 0.15 ms longer, windows of 3.2-5.0 ms (an H100
   host's, 2^24 words staged). */
static const double y_ev[7] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
static const double y_call[7] = {0.25, 0.25, 0.26, 0.25, 0.24, 0.25, 0.25};
static const double y_win[7] = {3.2, 3.3, 3.9, 3.4, 5.0, 3.3, 3.5};
static const pl_rep_times yard7 = {7, y_ev, y_call, y_win};

/* Honest windows that vary as the yardstick's do: four of seven longer
   than its median by 1.3 ms, none beyond its longest. The events count
   (the rule before allowed the yardstick's median window, and charged
   0.82 ms a call: how the 06.dd row cost an honest solution 0.63 of its
   2 performance points). */
START_TEST(clock_rule_spares_honest_windows)
{
    const double ev[7] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, call[7] = {0.26, 0.25, 0.25, 0.27, 0.25, 0.25, 0.25};
    const double win[7] = {4.6, 4.8, 4.7, 4.9, 3.3, 3.4, 3.5};
    pl_rep_times code = {7, ev, call, win};
    double ev_med, clock_med;
    int used = -1;
    double t = pl_believed_ms(&code, &yard7, &ev_med, &clock_med, &used);
    ck_assert_msg(t == 0.1 && ev_med == 0.1 && !used && clock_med == 0, "%g %g %g %d", t, ev_med, clock_med, used);
    /* A busy host (an H100's, lab 05's sort, 2026-11-28): the events slow
       in three repetitions, the windows long in two others. The median of
       each repetition's larger time said 1.75 ms; the events' median is
       what the calls took. */
    const double ev_busy[7] = {1.75, 1.19, 1.80, 1.19, 2.06, 1.19, 1.20};
    double win_busy[7], call_busy[7];
    for (int k = 0; k < 7; k++)
        win_busy[k] = ev_busy[k] + 3.5, call_busy[k] = ev_busy[k] + 0.15;
    win_busy[1] = win_busy[4] = 9.0;
    code = (pl_rep_times){7, ev_busy, call_busy, win_busy};
    t = pl_believed_ms(&code, &yard7, &ev_med, &clock_med, &used);
    ck_assert_msg(t == 1.20 && !used, "%g %g %g %d", t, ev_med, clock_med, used);
}
END_TEST

/* Work hidden where the events do not see it costs what the clock saw. */
START_TEST(clock_rule_charges_hidden_work)
{
    double ev_med, clock_med, t;
    int used;
    /* (1) in every window (precomputed in STAGE, or done on the CPU in
       FETCH): 2 ms beyond the yardstick's longest window */
    const double ev[7] = {0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01}, call[7] = {0.16, 0.16, 0.16, 0.16, 0.16, 0.16, 0.16};
    const double win[7] = {7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0};
    pl_rep_times code = {7, ev, call, win};
    t = pl_believed_ms(&code, &yard7, &ev_med, &clock_med, &used);
    /* 7.0 - 4.9 (the longest window less its call) - 0.25 - 5 % of 7.0 */
    ck_assert_msg(used && fabs(t - 1.5) < 1e-9, "%g %d", t, used);
    /* (2) in four of the seven: the median is a charged one */
    const double win4[7] = {7.0, 3.3, 7.0, 3.4, 7.0, 3.3, 7.0};
    code.window = win4;
    t = pl_believed_ms(&code, &yard7, &ev_med, &clock_med, &used);
    ck_assert_msg(used && fabs(t - 1.5) < 1e-9, "%g %d", t, used);
    /* (3) events that enclose nothing: the work is in the CALL (the
       worker waits for the device there), 1 ms beyond the yardstick's */
    const double call1[7] = {1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25}, win1[7] = {3.3, 3.4, 3.3, 3.5, 3.3, 3.4, 3.3};
    code.call = call1, code.window = win1;
    t = pl_believed_ms(&code, &yard7, &ev_med, &clock_med, &used);
    /* 1.25 - 0.15 (the yardstick's median CALL less its call) - 0.25 - 5 % of 1.25 */
    ck_assert_msg(used && fabs(t - 0.7875) < 1e-9, "%g %d", t, used);
    /* (4) a CPU yardstick: the CALL less the slack alone */
    t = pl_believed_ms(&code, NULL, &ev_med, &clock_med, &used);
    ck_assert_msg(used && fabs(t - 0.9375) < 1e-9, "%g %d", t, used);
    /* (5) 1.5 ms of work a repetition, each done in its events, hidden
       in its CALL outside them, or hidden in its STAGE or FETCH: whichever
       repetition hides it where, a call counts at least what the CALL
       bound charges (1.65 - 0.15 - 0.25 - 5 % of 1.65 = 1.1675 ms), and
       1.5 ms when none hides it in the CALL */
    for (int mix = 0; mix < 2187; mix++) {
        double evm[7], callm[7], winm[7];
        int in_call = 0;
        for (int k = 0, m = mix; k < 7; k++, m /= 3) {
            evm[k] = m % 3 ? 0.01 : 1.5;
            callm[k] = (m % 3 == 1 ? 1.5 : evm[k]) + 0.15;
            winm[k] = m % 3 == 2 ? 7.0 : 1.5 + 3.3;
            in_call |= m % 3 == 1;
        }
        code = (pl_rep_times){7, evm, callm, winm};
        t = pl_believed_ms(&code, &yard7, &ev_med, &clock_med, &used);
        ck_assert_msg(in_call ? t > 1.1675 - 1e-9 : fabs(t - 1.5) < 1e-9, "mix %d: %g", mix, t);
    }
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("lab_run");
    TCase *t;
    t = tcase_create("lab_run");
    tcase_add_test(t, limit_test_runs_once_and_shares);
    tcase_add_test(t, timings_made_ahead);
    tcase_add_test(t, perf_repetitions_reported);
    tcase_add_test(t, perf_reports_its_roof);
    tcase_add_test(t, perf_scored_by_its_roof);
    tcase_add_test(t, roof_copy_the_higher_of_two);
    tcase_add_test(t, disturbed_timing_taken_again);
    tcase_add_test(t, timed_repetitions_proven);
    tcase_add_test(t, stress_runs_count_the_wrong_ones);
    tcase_add_test(t, omp_team_fits_the_cpus);
    tcase_add_test(t, settle_waits_for_spinning_threads);
    tcase_add_test(t, cgroup_quota_below_the_top);
    tcase_add_test(t, clock_rule_spares_honest_windows);
    tcase_add_test(t, clock_rule_charges_hidden_work);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
