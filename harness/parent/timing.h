/* harness/parent/timing.h: CPU timing with omp_get_wtime, and the median rule
 * shared with the GPU timer. */
#ifndef PRIMLAB_TIMING_H
#define PRIMLAB_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

/* Median of v[0..n); reorders v. n >= 1. */
double pl_median(double *v, int n);

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
