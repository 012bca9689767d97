# harness/labs/lab09.mk: lab 09's own build rules, included by the Makefile
# with every harness/labs/*.mk: its grader tested on the CPU
# (tests/unit/test_lab09_judge.c, linked with its table): the known mistakes it
# names in the histogram and the digit passes, the stress part's word on
# the tile counter. Run with the CPU suites of `make test`.
CPU_TESTS += build/tests/test_lab09_judge
