/* harness/parent/judges/real.h: the real-valued judge: float or double
 * outputs against a reference in higher precision, within tolerances.
 *
 * The part's expect fills, for an input, the reference want[] (in double),
 * the tolerance tol[] it states (an error bound every correct order of the
 * additions meets) and, in c, the suspects: known mistakes with the value
 * each position would hold under them (kept by the part until the next
 * call). pl_compare_real (diagnose.h) then names what is wrong. The input's
 * words are elements of the same type (graded timing patches a staged
 * input element by element). A test's second run starts its output as NaN,
 * so an output read before it is written cannot hide in the usual poison.
 * The part's cpu and omp only time the CPU.
 */
#ifndef PRIMLAB_JUDGES_REAL_H
#define PRIMLAB_JUDGES_REAL_H

#include "judge.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_real_judge {
    pl_input in;
    int elem;                 /* enum pl_elem (diagnose.h): PL_ELEM_F32 or PL_ELEM_F64 */
    long (*out_elems)(long n); /* the output's elements; NULL: n */
    void (*expect)(const int *in, long n, double param, double *want, double *tol, pl_cmp_real *c);
} pl_real_judge;

extern const pl_judge_kind pl_real_kind;

#ifdef __cplusplus
}
#endif

#endif
