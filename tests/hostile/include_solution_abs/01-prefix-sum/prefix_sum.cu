/* hostile: include_solution_abs. Includes the instructor's solution by its
 * absolute path in the kit (@@KIT@@, filled in by tests/test_hostile.sh with
 * the kit's real path, which a student would have to guess), and failing
 * that the grading kit's copy. The compile sandbox hides solutions/, build/
 * and, under make grade, the whole kit the grading copy was made from.
 * The grader must give: "does not compile", 0 points. */
#include "prefix_sum.h"

#if __has_include("@@KIT@@/build/grade-kit/solutions/01-prefix-sum/prefix_sum.cu")
#include "@@KIT@@/build/grade-kit/solutions/01-prefix-sum/prefix_sum.cu"
#else
#include "@@KIT@@/solutions/01-prefix-sum/prefix_sum.cu"
#endif
