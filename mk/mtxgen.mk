# mk/mtxgen.mk: the synthetic sparse matrices of the sparse labs
# (harness/parent/mtxgen.h; the library part is in build/libprimlab.a with
# the rest of harness/parent), their command, their tests, and
# `make matrices`, the paper's real matrices from the SuiteSparse collection.
#
#   build/mtx-gen FAMILY|PRESET [...]    a matrix, its statistics, --out FILE.mtx
#   build/tests/test_mtxgen              the Check suite (run by make test)
#   make matrices [NAMES="cant rail4284"] [MATRICES_DIR=build/matrices]

build/mtx-gen: build/obj/harness/parent/mtxgen_main.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -fopenmp -lm
build/tests/test_mtxgen: build/obj/tests/unit/test_mtxgen.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm

CPU_TESTS += build/tests/test_mtxgen
TOOLS += build/mtx-gen

# Downloads into MATRICES_DIR/<name>/<name>.mtx, checks each with
# build/mtx-check, skips what is there; NAMES picks some (the paper's
# names, `build/mtx-gen --list` has them). Without internet: one line, status 1.
MATRICES_DIR ?= build/matrices
.PHONY: matrices
matrices: build/mtx-gen build/mtx-check
	$(Q)MATRICES_DIR="$(MATRICES_DIR)" NAMES="$(NAMES)" MTX_GEN=build/mtx-gen MTX_CHECK=build/mtx-check \
	  harness/matrices.sh
