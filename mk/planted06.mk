# mk/planted06.mk: lab 06's solution with three planted bugs
# (tests/test_planted06.c): the reductions round n down to a multiple of 32,
# and both SpMV row loops stop one entry short. Each sed must change the
# file, or the build fails. Only when lab 06 is built (WIP).
ifneq ($(filter 06,$(SOL_LAB_IDS)),)
PLANTED06 := build/planted/06-shuffle-reduction/shuffle_reduction.cu
$(PLANTED06): solutions/06-shuffle-reduction/shuffle_reduction.cu
	$(quiet) PLANT $@
	$(Q)mkdir -p $(@D) && sed -e 's|^    const int w = vec<T>::width;$$|    n = n / 32 * 32; /* planted */\n&|' \
	    -e 's|e < end; e += G)|e < end - 1; e += G)|' -e 's|e < end; e++)|e < end - 1; e++)|' $< >$@ && \
	  [ "$$(diff $< $@ | grep -c '^>')" = 3 ]
build/planted/obj/shuffle_reduction.o: $(PLANTED06) build/.flags | build/.bootstrap
	$(quiet) NVCC $@
	$(Q)mkdir -p $(@D) && $(NVCC) $(NVCCFLAGS) -MMD -MP -MF $(@:.o=.d) -Ilabs/06-shuffle-reduction -c $< -o $@
build/planted/lab06-worker: build/obj/worker/lab06-core.o build/planted/obj/shuffle_reduction.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CXX) -o $@ $^ $(ALLOC_WRAP) $(LDLIBS) $(LDLIBS_LAB06)
build/tests/test_planted06: build/obj/tests/test_planted06.o build/obj/harness/parent/labs/lab06.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
GPU_TESTS += build/tests/test_planted06
TEST_WORKERS += build/planted/lab06-worker
endif
