/* harness/parent/judges/sort.h: the sort judge: keys (and values) against
 * the part's stable CPU sort.
 *
 * Keys are 32-bit words read as unsigned, signed or float numbers. With
 * pairs, input and output hold n keys then n values, the values being the
 * keys' input positions, so that the stable sort is the one right answer.
 * A wrong result is diagnosed as a sort: keys lost (two written to one
 * slot), keys out of order (and whether in the order of their raw bits, or
 * with negative floats reversed), values parted from their keys, equal keys
 * out of input order. No shift or block finding: a sort's positions move.
 */
#ifndef PRIMLAB_JUDGES_SORT_H
#define PRIMLAB_JUDGES_SORT_H

#include "judge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the keys compare. */
enum pl_sort { PL_SORT_NONE, PL_SORT_U32, PL_SORT_I32, PL_SORT_F32 };

typedef struct pl_sort_judge {
    pl_input in;
    int keys;  /* enum pl_sort */
    int pairs; /* 1: n keys then n values (words = 2n; the scratch is the keys') */
} pl_sort_judge;

extern const pl_judge_kind pl_sort_kind;

/* c's want and got as sorted keys (enum pl_sort), with pairs their values
   after them (c->in: the input, to trace each value back, or NULL). Fills
   d; 1 when right. */
int pl_compare_sorted(const pl_cmp *c, int keys, int pairs, pl_diag *d);

/* The stable CPU sorts of u32 keys (and pairs: n keys, then n values) as a
   part's references (pl_cpu_op): serial (8-bit digits) and OpenMP, by
   kernels_ref/cpu/radix.h, into out. A sort that runs out of host memory
   ends the lab binary (status 2, one line): a reference has no way to say
   it failed. pl_sort_must(rc) is that check for a lab's own calls. */
void pl_sort_keys_cpu(const int *in, int *out, size_t n);
void pl_sort_keys_omp(const int *in, int *out, size_t n);
void pl_sort_pairs_cpu(const int *in, int *out, size_t n);
void pl_sort_pairs_omp(const int *in, int *out, size_t n);
void pl_sort_must(int rc);

#ifdef __cplusplus
}
#endif

#endif
