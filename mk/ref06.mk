# mk/ref06.mk: lab 06's CPU references (kernels_ref/cpu/reduce.c, spmv.c;
# built into build/libprimlab.a with every kernels_ref/cpu/*.c) and their
# Check suite, tests/test_ref06.c, run by `make test` with the CPU suites.
build/tests/test_ref06: build/obj/tests/test_ref06.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_ref06
