# harness/labs/lab08.mk: lab 08's own build rules, included by the Makefile
# with every harness/labs/*.mk: its grader tested on the CPU
# (tests/unit/test_lab08_judge.c, linked with its table): the known mistakes it
# names, the stress part's word on the tile counter, the float parts judged
# exactly. Run with the CPU suites of `make test`.
CPU_TESTS += build/tests/test_lab08_judge
