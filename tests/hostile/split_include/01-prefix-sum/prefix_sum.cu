/* hostile: split_include, the lab file of a submission in three files.
 * parts/kernels.cu climbs out of the folder it is compiled in toward the
 * kit's solutions/ (see there); this file and parts/kernels.cuh are
 * ordinary: the contract's functions, doing nothing.
 * The grader must give: "does not compile", 0 points. */
#include "prefix_sum.h"
#include "parts/kernels.cuh"

extern "C" void scan_inclusive_block(const int *, int *, int) {}
extern "C" void scan_inclusive(const int *, int *, int, int *) {}
extern "C" void scan_inclusive_threads(const int *, int *, int, int *, int) {}
extern "C" void scan_exclusive(const int *, int *, int, int *) {}
