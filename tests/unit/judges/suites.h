/* tests/unit/judges/suites.h: the judges' Check suites (harness/parent/judges/),
 * one per kind, each in tests/unit/judges/test_<kind>.c, run by tests/unit/test_judges.c. */
#ifndef PRIMLAB_TEST_JUDGES_SUITES_H
#define PRIMLAB_TEST_JUDGES_SUITES_H

#include <check.h>

Suite *array_suite(void);
Suite *sort_suite(void);
Suite *compact_suite(void);
Suite *real_suite(void);
Suite *stress_suite(void);

#endif
