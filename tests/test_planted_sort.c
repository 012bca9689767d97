/* tests/test_planted_sort.c: lab 05's solution with one planted bug, to
 * prove on a real device that the harness names an unstable sort.
 *
 * The Makefile copies solutions/05-radix-sort/radix_sort.cu with one line
 * changed (sed): each warp ranks the keys of equal digits backwards, so
 * every pass is unstable but still puts each digit in its place. The
 * stability tests of part (c) must fail saying "not stable"; keys-only
 * sorts of random keys must fail asking whether every pass is stable (with
 * few distinct keys an unstable pass mostly swaps equal keys, unseen);
 * all-equal keys, which need no pass, must still pass (the copy otherwise
 * works).
 * The cases run through the planted worker, build/planted/lab05-worker. */
#include "../harness/parent/lab.h"
#include "../harness/parent/rubric.h"
#include "gpu_suite.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_impl_variant = "planted";

static const struct {
    const char *part;
    long n;
    int dist;           /* lab 05's distributions: 0 random, 1 equal, 4 few, 5 high */
    const char *expect; /* in the reason; NULL: must pass */
} cases[] = {
    {"c", 1025, 4, "not stable: out["},
    {"c", 65537, 4, "not stable: out["},
    {"c", 4194307, 5, "not stable: out["},
    {"c", 65537, 0, "is every pass stable?"},
    {"b", 65537, 0, "is every pass stable?"},
    {"c", 65537, 1, NULL},
};

START_TEST(planted_unstable)
{
    const pl_lab *lab = pl_this_lab();
    const pl_part *p = pl_find_part(lab, cases[_i].part);
    ck_assert_ptr_nonnull(p);
    pl_result r;
    memset(&r, 0, sizeof r);
    pl_lab_test(suite_session, lab, p, cases[_i].n, cases[_i].dist, 1, 120, &r);
    if (!cases[_i].expect) {
        ck_assert_msg(r.status == PL_PASS, "part %s n=%ld dist %d: %s", p->id, cases[_i].n, cases[_i].dist, r.reason);
        return;
    }
    ck_assert_msg(r.status == PL_FAIL && strstr(r.reason, cases[_i].expect),
                  "part %s n=%ld dist %d: wanted FAIL with \"%s\", got %s: %s", p->id, cases[_i].n, cases[_i].dist,
                  cases[_i].expect, pl_status_name(r.status), r.reason);
    printf("planted unstable sort, part %s n=%ld dist %s: FAIL: %s\n", p->id, cases[_i].n,
           p->param_labels[cases[_i].dist], r.reason);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("planted_sort");
    TCase *t = tcase_create("unstable");
    tcase_add_loop_test(t, planted_unstable, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, t);
    return s;
}

static void gpu_suite_names(char *what, size_t what_size, char *worker, size_t worker_size)
{
    snprintf(what, what_size, "planted unstable radix sort (lab05)");
    snprintf(worker, worker_size, "build/planted/lab05-worker");
}
