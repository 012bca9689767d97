/* harness/parent/judges/judge.h: the judge interface: what a part's input is,
 * what its result must be, and what is wrong with a result that is not.
 *
 * Every part of a lab table (lab.h) has one judge. A judge is a kind (its
 * functions, one pl_judge_kind per file of this folder: array.c (and its
 * scan kind, the array judge with a proof), sort.c, compact.c, real.c,
 * stress.c) and that kind's configuration for the part.
 * The runner (lab_run.c) asks the judge, never the part's kind:
 *   - the input: its length in words for (n, param), its words from a
 *     seed, and the span of words graded timing may patch;
 *   - the output's length, and the scratch the contract sizes;
 *   - the expected result, and the comparison that fills a pl_diag;
 *   - how many runs one test makes, and what they add up to.
 * A member left NULL in a kind takes the default written beside it. Kinds
 * share the comparison of diagnose.h; what they add is their own findings.
 */
#ifndef PRIMLAB_JUDGE_H
#define PRIMLAB_JUDGE_H

#include "../diagnose.h"
#include "../lab.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The input side every kind has: words made from a seed. */
typedef struct pl_input {
    /* The input's length in words for (n, param); the same pair always gives
       the same length. NULL: n. */
    long (*words)(long n, double param);
    /* The words of an input of len words, or NULL: uniform in the lab's
       [gen_lo, gen_hi]. */
    void (*gen)(int *a, size_t len, uint64_t seed, double param);
    /* In place of gen, for inputs made of several arrays (a matrix and its
       vector), which need the size and not only the length. */
    void (*make)(int *a, long n, double param, uint64_t seed);
    /* The words graded timing may patch, [*lo, *hi), or NULL: every word.
       A matrix's values, never its structure. */
    void (*span)(const int *in, long n, double param, long *lo, long *hi);
} pl_input;

/* One result to judge: the input as the call saw it and what the worker
   left. */
typedef struct pl_judged {
    long n;
    double param;
    const int *in;                  /* the input, in_words words */
    long in_words;
    const int *want;                /* the kind's expect wrote it (out words) */
    const int *got, *got2;          /* the output; got2: a second run's, or NULL */
    const uint8_t *front, *back;    /* the output's guard zones (PL_GUARD_BYTES each), or NULL */
    /* The input after the second run, or NULL: then neither is the input
       checked for changes nor are values traced back to it. */
    const int *in_after;
} pl_judged;

/* The runs of one test that makes several (pl_judge_runs), added up. */
typedef struct pl_tally {
    int runs;        /* the test's runs */
    int wrong;       /* of them, judged wrong */
    int first;       /* the first wrong one, from 0 */
    pl_diag first_d; /* and its diagnosis */
} pl_tally;

typedef struct pl_judge_kind {
    const char *name; /* "array", "sort", ... */
    /* Its input side (required). */
    const pl_input *(*input)(const pl_judge *j);
    /* The output's length in words. NULL: the input's. */
    long (*out_words)(const pl_judge *j, long n, double param);
    /* The length the lab's scratch_ints is asked for. NULL: the longer of
       input and output. */
    long (*scratch_elems)(const pl_judge *j, long n, double param);
    /* The words graded timing may patch and the step between them (2: a
       word stays in its double's half). NULL: the input's span, step 1. */
    void (*patch)(const pl_judge *j, const int *in, long n, double param, long *lo, long *hi, long *step);
    /* The expected result into want (out_words). NULL: the part's CPU
       reference (pl_part's oracle). */
    void (*expect)(const pl_judge *j, const pl_part *p, const int *in, long n, double param, int *want);
    /* 1 when out (out_words, a copy the worker cannot reach) is certainly
       the expected result, by a check that needs no reference: a sort's
       output in order, with the input's keys, stable; a scan's words each
       the one before plus its input word. The runner then takes it as the
       expected result and spares the reference, which is computed only for
       an output this check does not prove (a wrong one, for its diagnosis):
       in correctness tests and in a performance test's timed repetitions,
       after each call (lab_run.c). NULL: the reference, always. */
    int (*proven)(const pl_judge *j, const int *in, long n, double param, const int *out);
    /* Fills d; 1 when the result is right (required). */
    int (*compare)(const pl_judge *j, const pl_judged *r, pl_diag *d);
    /* Runs a test makes, each on a fresh input. NULL: 1 (two calls of one
       input, which look for races). */
    int (*runs)(const pl_judge *j);
    /* The verdict of several runs into reason and detail. NULL: the first
       wrong run's. */
    void (*summarize)(const pl_judge *j, const pl_tally *t, char *reason, size_t rcap, char *detail, size_t dcap);
    /* The STAGE flags of a test's second run (protocol.h), e.g.
       PL_RQ_POISON_NAN. NULL: 0. */
    unsigned (*second_stage)(const pl_judge *j);
} pl_judge_kind;

struct pl_judge {
    const pl_judge_kind *kind;
    const void *cfg; /* the kind's configuration (its header's pl_<kind>_judge) */
};

/* The judge of a part: its own, or the plain array judge (int32 words
   against the part's CPU reference, the lab's uniform input). */
const pl_judge *pl_part_judge(const pl_part *p);

/* What the runner asks, with the kinds' defaults. */
long pl_judge_in_words(const pl_judge *j, long n, double param);
long pl_judge_out_words(const pl_judge *j, long n, double param);
long pl_judge_scratch_elems(const pl_judge *j, long n, double param);
void pl_judge_make_input(const pl_judge *j, const pl_lab *lab, int *a, long len, long n, double param,
                         uint64_t seed);
void pl_judge_patch(const pl_judge *j, const int *in, long n, double param, long *lo, long *hi, long *step);
void pl_judge_expect(const pl_judge *j, const pl_part *p, const int *in, long n, double param, int *want);
/* Whether the kind has a proven check, and its verdict (0 without one). */
int pl_judge_can_prove(const pl_judge *j);
int pl_judge_proven(const pl_judge *j, const int *in, long n, double param, const int *out);
int pl_judge_compare(const pl_judge *j, const pl_judged *r, pl_diag *d);
int pl_judge_runs(const pl_judge *j);
void pl_judge_summarize(const pl_judge *j, const pl_tally *t, char *reason, size_t rcap, char *detail,
                        size_t dcap);
unsigned pl_judge_second_stage(const pl_judge *j);

/* The CPU reference that gives the expected result at n: the serial one
   (the oracle), or above a million input words the OpenMP one, which
   tests/unit/test_cpu_refs.c holds equal to it and which answers sooner. */
pl_cpu_op pl_part_oracle(const pl_part *p, long in_words);

/* An output still all poison: never written ("not implemented yet",
   whatever the expected values: no generated input's answer is all
   0xA5A5A5A5 words). Stops at the first written word. */
int pl_all_poison(const int *got, size_t len);

/* For the kinds: the input side's own defaults (words n, every word). */
long pl_input_words(const pl_input *in, long n, double param);
void pl_input_span(const pl_input *in, const int *a, long n, double param, long *lo, long *hi);
/* A pl_cmp of r's words against want, its guards and its input filled in. */
pl_cmp pl_judged_cmp(const pl_judged *r, size_t out_words);

#ifdef __cplusplus
}
#endif

#endif
