# mk/planted18.mk: the classes of real students' bugs (issue 18), planted and
# graded through harness/check.sh (tests/test_planted18.sh; SKIP without a
# GPU). Lab 04's plants are made from its solution, so only with it.
ifneq ($(filter 01,$(SOL_LAB_IDS)),)
ifneq ($(filter 04,$(SOL_LAB_IDS)),)
GPU_TESTS += tests/test_planted18.sh
endif
endif
