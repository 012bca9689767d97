# mk/planted08.mk: lab 08's planted bugs (tests/test_planted08.sh: the
# solution with a few lines changed, and the stub), named by the diagnosis,
# the missing fence by the stress test; SKIP without a GPU.
GPU_TESTS += tests/test_planted08.sh
