# mk/ref07.mk: lab 07's CPU reference (kernels_ref/cpu/segscan.c; built into
# build/libprimlab.a with every kernels_ref/cpu/*.c) and its Check suite,
# tests/test_ref07.c, run by `make test` with the CPU suites.
build/tests/test_ref07: build/obj/tests/test_ref07.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_ref07
