# mk/lab06.mk: lab 06's grader tested on the CPU (tests/test_lab06_judge.c,
# linked with its table), whether or not the lab itself is built (WIP).
build/tests/test_lab06_judge: build/obj/tests/test_lab06_judge.o build/obj/harness/parent/labs/lab06.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_lab06_judge

# Lab 06's workers link cuSPARSE (the SpMV parts' yardstick), the shared
# library of the toolkit, found at run time where it was at link time.
LDLIBS_LAB06 := -lcusparse -Wl,-rpath,$(CUDA_ROOT)/lib64
