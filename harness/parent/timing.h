/* harness/parent/timing.h: CPU timing with omp_get_wtime, and the median rule
 * shared with the GPU timer. */
#ifndef PRIMLAB_TIMING_H
#define PRIMLAB_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

/* Median of v[0..n); reorders v. n >= 1. */
double pl_median(double *v, int n);

/* One variant's timed repetitions of a performance test, as the parent
   saw them, ms: the worker's CUDA-event time of each call, the parent's
   clock around its CALL request, and around its whole window (from the
   STAGE request to the FETCH reply). reps <= 64. */
typedef struct pl_rep_times {
    int reps;
    const double *ev, *call, *window;
} pl_rep_times;

/* What the clock may show besides a call before it counts against it: a
   fixed part and a share of what the clock measured. */
#define PL_CLOCK_SLACK_MS 0.25
#define PL_CLOCK_SLACK_FRAC 0.05

/* The median of clock[k] - ev[k] over n repetitions (n <= 64): what the
   clock saw besides the calls. */
double pl_median_over(const double *clock, const double *ev, int n);

/* What the yardstick's repetitions (y, run in a worker no submission ran
   in) show besides their calls: the median of CALL less event, and the
   longest window less event. */
void pl_clock_allowance(const pl_rep_times *y, double *call_over, double *window_over);

/* The time believed for a submission's calls. The worker shares its
   address space with the submission, which may run on a stream the
   events miss, answer the protocol itself, or work while staging and
   fetching; so the parent's clock bounds each repetition k below by (1)
   its CALL less the yardstick's median CALL overhead and (2) its window
   (STAGE to FETCH) less the yardstick's longest window overhead, each less
   the slack. The time believed is the larger of two medians: of each
   repetition's event time raised to (1), and of (2). An honest window
   varies with the host (the input's upload, page placement, other load)
   by as much as the yardstick's own do, and a bound tighter than that
   took honest submissions' points; work hidden in STAGE or FETCH shows in
   every window it is done in.

   Two medians, not the median of each repetition's largest: on a busy
   host an honest sort's events were slow in three repetitions of seven
   and its windows long in two others, and the largest per repetition
   made 1.20 ms 1.75. Hiding work gains nothing by it: a median below some
   time for each means four repetitions below it in the CALL and four in
   the window, so one below it in both, a call that did its work nowhere
   the parent looks (a result made before the CALL is wrong: the CALL
   patches the input). (1) stays with the events because a call's own
   work shows in both. y NULL (a CPU yardstick): (1) alone, the CALL less
   the slack. *event_med: the events' median; *clock_used: the time
   believed is above it; *clock_med: then that time, else the larger
   median of the two bounds alone. */
double pl_believed_ms(const pl_rep_times *code, const pl_rep_times *y, double *event_med, double *clock_med,
                      int *clock_used);

/* A timing taken again: its time (the time believed, or a yardstick's
   events' median) more than PL_DISTURBED times its fastest call's event
   time. An honest call's events stay within a few per cent of each other
   (at most 1.14 in the checks of 2026-11-27/28, the yardsticks included);
   on a busy H200 host a scan's events read 0.61-1.02 ms over seven
   repetitions and its windows 45-52 ms, and the rule believed 1.28 ms for
   a call of 0.61. Something outside the call slowed it down; what a
   submission hides raises the time it is charged in every timing. */
#define PL_DISTURBED 1.25
int pl_timing_disturbed(const pl_rep_times *t, double time_ms);

/* The event time of t's fastest call, ms; 0 when none has a positive one. */
double pl_fastest_ms(const pl_rep_times *t);

/* Median time in ms of up to reps calls of call(arg), after one warm-up;
   stops early (at least 3 calls) once budget_s seconds have been spent.
   A warm-up longer than budget_s is the only sample (its page faults
   included): a CPU sort of 2^28 keys takes seconds. */
double pl_time_cpu_ms(void (*call)(void *), void *arg, int reps, double budget_s, int *done);

/* The CPU quota, in CPUs, of the cgroup that `self` (a /proc/PID/cgroup
   file) names under `root` (where the hierarchy is mounted): the smallest
   of its folder's and every folder's above it, cgroup v2 cpu.max or v1's
   cpu.cfs_quota_us / cpu.cfs_period_us. A Slurm job or a container
   without its own cgroup namespace has its quota below the top folder.
   0 when there is none. */
double pl_cgroup_cpus(const char *root, const char *self);

/* The CPUs this process can keep busy: those of its affinity mask, no more
   than its cgroup's CPU quota allows (pl_cgroup_cpus of /sys/fs/cgroup
   and /proc/self/cgroup), rounded up; at least 1. */
int pl_cpu_budget(void);

/* Sizes the OpenMP team of the CPU references to pl_cpu_budget() unless
   OMP_NUM_THREADS says otherwise: a team larger than the CPUs it may use
   spins at its barriers against a quota, and its rows measure the
   throttling, not the code. Returns the team's size. */
int pl_omp_team_fit(void);

/* How many of this process's threads other than the caller are running
   (state R in /proc/self/task/TID/stat); -1 when /proc cannot say. */
int pl_threads_running(void);

/* Waits until this process's other threads sleep, for at most cap_s: the
   OpenMP threads of the inputs, the references and the copies spin on
   every core for a while after their work (libgomp's GOMP_SPINCOUNT), and
   may delay a worker's launches in a timing window opened next. Without
   /proc, the whole cap. Returns 1 when they slept within it. */
int pl_settle_threads(double cap_s);

/* Ends the spinning of this thread's OpenMP team at once, then waits as
   pl_settle_threads does for any other: omp_pause_resource_all ends the
   team's threads (within 0.1-0.5 ms here, where their spin lasted 6-11
   ms, 8.5 on an H100 host), and the next parallel region starts new ones.
   Only between parallel regions, never for a region that is timed. */
int pl_quiet_threads(double cap_s);

#ifdef __cplusplus
}
#endif

#endif
