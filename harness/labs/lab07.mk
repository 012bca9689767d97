# harness/labs/lab07.mk: lab 07's own build rules, included by the Makefile
# with every harness/labs/*.mk: its CPU reference's Check suite,
# tests/unit/test_ref07.c (kernels_ref/cpu/segscan.c, built into
# build/libprimlab.a with every kernels_ref/cpu/*.c), run with the CPU
# suites of `make test`; and its grader on the CPU (tests/unit/test_lab07_judge.c,
# linked with its table): a stub's output, a as it went in, stands for an
# output never written.
build/tests/test_ref07: build/obj/tests/unit/test_ref07.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_ref07
CPU_TESTS += build/tests/test_lab07_judge
