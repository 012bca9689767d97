# mk/sumerr.mk: lab 06's summation-error command (harness/parent/sumerr.c,
# built into build/libprimlab.a with every harness/parent/*.c) and its Check
# suite, tests/test_sumerr.c, run by `make test` with the CPU suites.
build/tests/test_sumerr: build/obj/tests/test_sumerr.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
CPU_TESTS += build/tests/test_sumerr
