/* tests/unit/test_judges.c: runs the judges' suites (tests/unit/judges/test_*.c), on
 * the CPU, no GPU.
 *
 *   build/tests/test_judges */
#include "judges/suites.h"

#include <stdlib.h>

int main(void)
{
    SRunner *sr = srunner_create(array_suite());
    srunner_add_suite(sr, sort_suite());
    srunner_add_suite(sr, compact_suite());
    srunner_add_suite(sr, real_suite());
    srunner_add_suite(sr, stress_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
