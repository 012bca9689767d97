/* hostile: split_include, the second .cu of a submission in several files,
 * in a subfolder: it includes the instructor's solution by relative paths
 * that climb out of wherever the lab's files are compiled (the staging
 * folder build/<impl>/stage/NN/parts/ of the kit, a grading kit inside the
 * kit's build/, a student's tree under the grades), and by a copy of the
 * contract of its own in this folder. Each .cu is compiled from a private
 * copy of the staged files, in a sandbox where the kit is hidden.
 * The grader must give: "does not compile", 0 points. */
#include "kernels.cuh"

#if __has_include("../../../../../solutions/01-prefix-sum/prefix_sum.cu")
#include "../../../../../solutions/01-prefix-sum/prefix_sum.cu"
#elif __has_include("../../../../../../../solutions/01-prefix-sum/prefix_sum.cu")
#include "../../../../../../../solutions/01-prefix-sum/prefix_sum.cu"
#elif __has_include("../../../../../../../../../solutions/01-prefix-sum/prefix_sum.cu")
#include "../../../../../../../../../solutions/01-prefix-sum/prefix_sum.cu"
#else
#include "../../../solutions/01-prefix-sum/prefix_sum.cu"
#endif
