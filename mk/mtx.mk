# mk/mtx.mk: the Matrix Market inputs of issue 28 refused by build/mtx-check
# and the sparse labs' --matrix, each in one line, in under 1 s and 64 MB,
# before any GPU is asked for (tests/unit/test_mtx_refusals.sh; the reader's own
# suite is build/tests/test_mtx, in the Makefile's CPU_TESTS).
CPU_TESTS += tests/unit/test_mtx_refusals.sh
