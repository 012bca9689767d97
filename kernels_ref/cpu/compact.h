/* kernels_ref/cpu/compact.h: CPU stream compaction, the references of
 * lab 04: keep the elements > 0, in order, at the front of out; return how
 * many. Only out[0 .. count) is the result: compact_cpu_scan and compact_omp
 * write nothing past it, but compact_cpu stores every element at its cursor
 * (branch-free), so it may also write out[count] when count < n. Unlike the
 * GPU contract, out[count .. n) is not promised untouched here; lab 04's
 * table poisons it again after the reference runs.
 *   compact_cpu:      one loop with a write cursor (no scan)
 *   compact_cpu_scan: flags, exclusive scan, scatter (the GPU's recipe)
 *   compact_omp:      per-thread chunk counts, scanned, then each chunk copied
 */
#ifndef PRIMLAB_REF_COMPACT_H
#define PRIMLAB_REF_COMPACT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t compact_cpu(const int *in, int *out, size_t n);
size_t compact_cpu_scan(const int *in, int *out, size_t n);
size_t compact_omp(const int *in, int *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
