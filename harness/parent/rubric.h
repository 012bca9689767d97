/* harness/parent/rubric.h: the list of graded tests of a lab, and their points.
 *
 * Built from the lab table alone: every part at each of its test sizes,
 * then (with a secret seed) hidden sizes derived from that seed, then the
 * performance tests. Pure C, shared by `labNN check` and the tests.
 */
#ifndef PRIMLAB_RUBRIC_H
#define PRIMLAB_RUBRIC_H

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_test {
    const pl_part *part;  /* the part under test */
    const pl_perf *perf;  /* NULL: a correctness test */
    long n;
    double param;         /* the part's input parameter, or NaN */
    int hidden;           /* derived from the secret seed */
    int limit;            /* within 1024 of the part's largest size (max_n) */
    double max;           /* points */
    char name[112];
} pl_test;

/* Fills up to cap tests; returns how many. only: one part or NULL; sizes:
   override the table's sizes (and drop performance tests) when nsizes > 0;
   hidden: add lab->hidden_per_part sizes per part derived from seed. Last
   come the limit tests: each part whose contract states a largest size
   (max_n) more than 1024 above its largest test size is tested once within
   1024 of max_n (derived from seed), when pl_limits_on(hidden). They come
   after the performance tests, which want a machine not yet filled with
   gigabytes, and whether they fit the machine is for the driver to say
   (pl_lab_fits). */
int pl_lab_tests(const pl_lab *lab, const pl_part *only, const long *sizes, int nsizes, int hidden,
                 uint64_t seed, pl_test *out, int cap);

const pl_part *pl_find_part(const pl_lab *lab, const char *id);

/* Whether the limit tests run: PRIMLAB_LIMITS=0 or 1 says so; unset, they
   come with the secret seed (hidden), like the hidden sizes. A 2^31-element
   test costs seconds to tens of seconds, which a student's `make check`
   should not pay at every try. */
int pl_limits_on(int hidden);

/* The size of part's limit test, or 0 when it has none (see pl_lab_tests). */
long pl_part_limit_n(const pl_lab *lab, const pl_part *p, uint64_t seed);

/* Escapes backslash, tab and newline so a text fits one TSV field. */
void pl_tsv_escape(const char *in, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
