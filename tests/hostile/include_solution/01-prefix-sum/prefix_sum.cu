/* hostile: include_solution. Includes the instructor's solution by a
 * relative path from wherever the grader compiles it: the kit's
 * solutions/ seen from labs/NN/ (../../), from the staging folder
 * build/<impl>/stage/NN/ (../../../../), and from a grading kit inside the
 * kit's build/ (../../../../../../). The file is compiled from a staged copy
 * beside its contract only, in a sandbox where solutions/, build/ and the
 * kit the grading copy came from are hidden.
 * The grader must give: "does not compile", 0 points. */
#include "prefix_sum.h"

/* (no __has_include of the plain path: GCC then lets a later #include of
   that missing file pass silently) */
#if __has_include("../../../../solutions/01-prefix-sum/prefix_sum.cu")
#include "../../../../solutions/01-prefix-sum/prefix_sum.cu"
#elif __has_include("../../../../../../solutions/01-prefix-sum/prefix_sum.cu")
#include "../../../../../../solutions/01-prefix-sum/prefix_sum.cu"
#else
#include "../../solutions/01-prefix-sum/prefix_sum.cu"
#endif
