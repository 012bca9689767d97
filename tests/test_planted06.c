/* tests/test_planted06.c: lab 06's solution with planted bugs, to prove on
 * a real device that the grader names them (mk/planted06.mk makes the
 * copy): the reductions round n down to a multiple of 32 (the last partial
 * warp left out), and both SpMV row loops stop one entry short. Sizes that
 * are multiples of 32 must still pass (the copy otherwise works). The
 * cases run through build/planted/lab06-worker. */
#include "../harness/parent/lab.h"
#include "../harness/parent/rubric.h"
#include "gpu_suite.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const pl_impl_variant = "planted";

static const struct {
    const char *part;
    long n;
    const char *matrix; /* the SpMV case, by name */
    const char *expect; /* in the reason; NULL: must pass */
} cases[] = {
    {"bf", 1025, NULL, "the last element left out: n rounded down to a multiple of 32 (the last partial warp?)"},
    {"ad", 65537 + 30, NULL, "the last 31 elements left out: n rounded down to a multiple of 32"},
    {"bd", 31, NULL, "the last 31 elements left out"},
    {"af", 1024, NULL, NULL},
    {"cf", 1025, "fem", "each row's last entry left out: a row loop that stops one short?"},
    {"df", 65537, "uniform", "each row's last entry left out: a row loop that stops one short?"},
    {"dd", 1025, "longrows g8", "each row's last entry left out: a row loop that stops one short?"},
};

static double matrix_param(const pl_part *p, const char *name)
{
    for (int q = 0; name && q < p->nparams; q++)
        if (!strcmp(p->param_labels[(int)p->params[q]], name))
            return p->params[q];
    ck_assert_msg(!name, "part %s has no case '%s'", p->id, name);
    return NAN;
}

START_TEST(planted)
{
    const pl_lab *lab = pl_this_lab();
    const pl_part *p = pl_find_part(lab, cases[_i].part);
    ck_assert_ptr_nonnull(p);
    double param = matrix_param(p, cases[_i].matrix);
    pl_result r;
    memset(&r, 0, sizeof r);
    pl_lab_test(suite_session, lab, p, cases[_i].n, param, 1, 120, &r);
    if (!cases[_i].expect) {
        ck_assert_msg(r.status == PL_PASS, "part %s n=%ld: %s", p->id, cases[_i].n, r.reason);
        return;
    }
    ck_assert_msg(r.status == PL_FAIL && strstr(r.reason, cases[_i].expect),
                  "part %s n=%ld: wanted FAIL with \"%s\", got %s: %s", p->id, cases[_i].n, cases[_i].expect,
                  pl_status_name(r.status), r.reason);
    printf("planted, part %s n=%ld%s%s: FAIL: %s\n", p->id, cases[_i].n, cases[_i].matrix ? " " : "",
           cases[_i].matrix ? cases[_i].matrix : "", r.reason);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("planted06");
    TCase *t = tcase_create("planted");
    tcase_add_loop_test(t, planted, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, t);
    return s;
}

static void gpu_suite_names(char *what, size_t what_size, char *worker, size_t worker_size)
{
    snprintf(what, what_size, "planted bugs (lab06)");
    snprintf(worker, worker_size, "build/planted/lab06-worker");
}
