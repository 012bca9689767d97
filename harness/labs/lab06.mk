# harness/labs/lab06.mk: lab 06's own build rules, included by the Makefile
# with every harness/labs/*.mk: its tests on the CPU, built whether or not
# the lab itself is (WIP), and its workers' link flags.
#
#   build/tests/test_lab06_judge   the grader (tests/unit/test_lab06_judge.c,
#                                  linked with the lab's table)
#   build/tests/test_ref06         the CPU references (kernels_ref/cpu/reduce.c,
#                                  spmv.c; in build/libprimlab.a), tests/unit/test_ref06.c
#   build/tests/test_sumerr        the `sumerr` command, the summation-error
#                                  experiment (harness/parent/labs/lab06_sumerr.c,
#                                  in build/libprimlab.a), tests/unit/test_sumerr.c
# All three run with the CPU suites of `make test`.
build/tests/test_ref06 build/tests/test_sumerr: build/tests/%: build/obj/tests/unit/%.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_lab06_judge build/tests/test_ref06 build/tests/test_sumerr

# Lab 06's workers link cuSPARSE (the SpMV parts' yardstick), the shared
# library of the toolkit, found at run time where it was at link time.
LDLIBS_LAB06 := -lcusparse -Wl,-rpath,$(CUDA_ROOT)/lib64
