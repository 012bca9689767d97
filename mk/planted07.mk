# mk/planted07.mk: lab 07's planted bugs (tests/test_planted07.sh: the
# solution with one line changed, and the stub), named by the diagnosis;
# SKIP without a GPU.
GPU_TESTS += tests/test_planted07.sh
