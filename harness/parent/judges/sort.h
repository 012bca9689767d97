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
#include "../rng.h"

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

/* The key distributions of the sorting labs (05 and 09), a test's param:
   all 32 bits random; one value; ascending (i * 61, so up to 2^26 keys
   stay below 2^32); descending; 8 random values; only the top 8 bits
   random (the low digits' passes see one digit). */
enum { PL_KEYS_RANDOM, PL_KEYS_EQUAL, PL_KEYS_SORTED, PL_KEYS_REVERSED, PL_KEYS_FEW, PL_KEYS_HIGH, PL_KEYS_DISTS };
extern const char *const pl_keys_dist_names[PL_KEYS_DISTS];
extern const double pl_keys_dists[PL_KEYS_DISTS];

/* A random 32-bit word of r: the keys' draw. */
unsigned pl_keys_word(pl_rng *r);

/* n unsigned keys of distribution dist, in chunks of PL_GEN_CHUNK, each
   from its own stream, in parallel (a limit test makes 2^31 keys); the
   values a distribution draws once (one, few) from a stream of their own. */
void pl_keys_u32(unsigned *k, size_t n, uint64_t seed, int dist);

#ifdef __cplusplus
}
#endif

#endif
