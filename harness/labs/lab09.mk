# harness/labs/lab09.mk: lab 09's own build rules, included by the Makefile
# with every harness/labs/*.mk: its grader tested on the CPU
# (tests/test_lab09_judge.c, linked with its table): the known mistakes it
# names in the histogram and the digit passes, the stress part's word on
# the tile counter. Run with the CPU suites of `make test`.
build/tests/test_lab09_judge: build/obj/tests/test_lab09_judge.o build/obj/harness/parent/labs/lab09.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_lab09_judge
