/* tests/gpu/test_lab.c: the GPU suites of one lab, run against its solution.
 * Linked once per lab (build/tests/test_labNN) with that lab's table, so
 * the suites come from the same table that `labNN check` grades with.
 *
 * Every test goes through the solution's worker (build/solutions/labNN-worker),
 * started once, as grading does. Without a GPU the suites are not run: one
 * SKIP line says so and nothing is counted as passed. */
#include "../../harness/parent/lab.h"
#include "gpu_suite.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *const pl_impl_variant = "solution";

#define MAX_CASES 1024
static const pl_lab *lab;
static struct {
    const pl_part *part;
    long n;
    double param;
    uint64_t seed;
} cases[MAX_CASES];
static int ncases;

START_TEST(gpu_case)
{
    const pl_part *p = cases[_i].part;
    long n = cases[_i].n;
    pl_result r;
    pl_lab_test(suite_session, lab, p, n, cases[_i].param, cases[_i].seed, 120, &r);
    ck_assert_msg(r.status == PL_PASS, "lab%s part %s (%s) %s=%ld param %g seed %llu: %s: %s\n%s", lab->id, p->id,
                  p->title, pl_part_size_name(p), n, cases[_i].param, (unsigned long long)cases[_i].seed, pl_status_name(r.status), r.reason,
                  r.detail);
}
END_TEST

/* One TCase per part: the table's sizes with the public seed, and the
   sizes that are not multiples of 32 once more with another seed (for parts
   with an input parameter, at its benchmark value only). */
Suite *check_suite(void)
{
    static char suite_name[32], tcase_names[16][16]; /* Check keeps the pointers */
    snprintf(suite_name, sizeof suite_name, "lab%s", lab->id);
    Suite *s = suite_create(suite_name);
    for (int k = 0; k < lab->nparts; k++) {
        const pl_part *p = lab->parts[k];
        int first = ncases;
        int nsizes;
        const long *sizes = pl_part_test_sizes(lab, p, &nsizes);
        for (int seed = 1; seed <= 2; seed++)
            for (int i = 0; i < nsizes && ncases < MAX_CASES; i++) {
                long n = sizes[i];
                if ((p->sizes.max && n > p->sizes.max) || (seed == 2 && n % 32 == 0))
                    continue;
                for (int q = 0; q < (p->params.n ? p->params.n : 1) && ncases < MAX_CASES; q++) {
                    if (seed == 2 && p->params.n && p->params.values[q] != p->params.bench)
                        continue;
                    cases[ncases].part = p;
                    cases[ncases].n = n;
                    cases[ncases].param = p->params.n ? p->params.values[q] : NAN;
                    cases[ncases++].seed = (uint64_t)seed;
                }
            }
        char *name = tcase_names[k % 16];
        snprintf(name, sizeof tcase_names[0], "part_%s", p->id);
        TCase *t = tcase_create(name);
        tcase_add_loop_test(t, gpu_case, first, ncases);
        suite_add_tcase(s, t);
    }
    return s;
}

static void gpu_suite_names(char *what, size_t what_size, char *worker, size_t worker_size)
{
    lab = pl_this_lab();
    snprintf(what, what_size, "lab%s GPU suites (%s solution)", lab->id, lab->name);
    snprintf(worker, worker_size, "build/solutions/lab%s-worker", lab->id);
}
