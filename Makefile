# primlab: every entry point. `make help` lists them.
#
# Layout of the build (all under build/, safe to delete):
#   build/obj/...            harness, references, lab tables (shared)
#   build/libprimlab.a       the harness and the references
#   build/<impl>/labNN       one binary per lab and implementation,
#                            <impl> = labs (student code) or solutions
#   build/tests/...          the project's own Check tests
#
# Variables: LAB=01 (one lab), IMPL=labs|solutions (or a folder laid out like
# labs/), ARCH=sm_90 (CUDA architecture; detected from the GPU otherwise),
# V=1 (show commands), PRIMLAB_TIMEOUT=60 (seconds per test),
# PRIMLAB_LIMITS=1 (the 2^31-element limit tests; on by default with PRIMLAB_SEED)
# (leave out the limit tests, each within 1024 of a contract's largest n).

.DEFAULT_GOAL := all
SHELL := /bin/bash

# ------------------------------------------------------------------ tools
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(shell command -v nvcc 2>/dev/null || for d in "$(CUDA_HOME)" "$(CUDA_PATH)" /usr/local/cuda; do \
          test -x "$$d/bin/nvcc" && { echo "$$d/bin/nvcc"; break; }; done)
CUDA_ROOT := $(patsubst %/bin/nvcc,%,$(NVCC))
CC ?= cc
CXX ?= c++

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-6s %s\n'
endif

# The architecture: ARCH if given, else the GPU's, else sm_75 with its PTX
# (CUDA 13's oldest: what compiles for it compiles for every newer GPU, so a
# machine without a GPU finds the same compile errors, at a third of the
# cost of the portable set). ARCH=portable asks for that set, sm_75, sm_80
# and sm_90 with PTX for newer GPUs, on any machine (make grade SLURM=1: a
# login node without a GPU and the cluster's nodes must build the kit alike).
# Binaries built here without a GPU never run on one: a build with a GPU
# has other flags (build/.flags) and builds everything again.
# nvidia-smi is asked once: its answer goes to the makes that recipes run
# (make check runs two a lab), through the environment.
ifeq ($(origin PRIMLAB_GPU_CC),environment)
GPU_CC := $(PRIMLAB_GPU_CC)
else
GPU_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ')
endif
export PRIMLAB_GPU_CC := $(GPU_CC)
PORTABLE_GENCODE := -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
           -gencode arch=compute_90,code=[sm_90,compute_90]
ifeq ($(ARCH),portable)
GENCODE := $(PORTABLE_GENCODE)
else ifneq ($(ARCH),)
GENCODE := -arch=sm_$(ARCH:sm_%=%)
else ifneq ($(GPU_CC),)
GENCODE := -arch=sm_$(GPU_CC)
else
GENCODE := -arch=sm_75
endif

# ccache, when it is installed (harness/bootstrap.sh installs it), keeps
# the kit's own objects by their content: the grading kit, a handout
# unpacked, a copy of the kit built again find them there (the paths are
# relative, and the folder they are built in is not part of the key:
# CCACHE_NOHASHDIR). Never a student's file: that compile runs in the
# sandbox, as it is (harness/sandbox-compile.sh). CCACHE= turns it off.
CCACHE ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_NOHASHDIR := 1

CHECK_FLAGS := $(shell pkg-config --cflags --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -pthread)
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall -Wextra -fopenmp
NVCCFLAGS ?= -O3 -lineinfo
NVCCFLAGS += -std=c++17 $(GENCODE) -Xcompiler -Wall,-Wextra,-fopenmp
# The worker's side has no GNU-unique symbols (C++ headers' static members,
# cuda::std's constants): objcopy cannot make those local, and a student's
# object that includes the same headers would clash with them.
WORKER_FLAGS := -Xcompiler -fno-gnu-unique
LDLIBS := -fopenmp -L$(CUDA_ROOT)/lib64 -lcudart_static -ldl -lrt -lpthread

# --------------------------------------------------------------- sources
# Labs under construction (a WIP file in their folder) only with PRIMLAB_WIP=1.
export PRIMLAB_WIP
LAB_DIRS := $(sort $(patsubst labs/%/,%,$(shell PRIMLAB_WIP=$(PRIMLAB_WIP) harness/lab-dirs.sh)))
LAB_IDS := $(foreach d,$(LAB_DIRS),$(firstword $(subst -, ,$(d))))
lab_dir = $(filter $(1)-%,$(LAB_DIRS))
lab_src = $(notdir $(wildcard labs/$(call lab_dir,$(1))/*.cu))
lab_base = $(basename $(call lab_src,$(1)))

# The parent (no CUDA): tables, inputs, references, verdicts, reports. A
# lab's own modules sit beside its table (harness/parent/labs/labNN_*.c, an
# analyzer, an experiment) and go into the library with the rest, where only
# the binaries that use them pick them up; each table, labNN.c, is linked
# into its lab's binaries alone. The check service's leaderboard
# (harness/serve/board.c: data only, no library of the service's) is there
# too: the class report draws it.
PARENT_SRC := $(filter-out harness/parent/driver.c harness/parent/%_main.c,$(wildcard harness/parent/*.c)) \
              $(wildcard harness/parent/judges/*.c) $(wildcard harness/parent/labs/*_*.c) $(wildcard kernels_ref/cpu/*.c) \
              $(wildcard harness/serve/board.c)
obj = $(patsubst %,build/obj/%.o,$(basename $(1)))
PARENT_OBJ := $(call obj,$(PARENT_SRC))
# The worker (CUDA): its main, device buffers, timing, vendor yardsticks.
WORKER_LIB_SRC := $(filter-out harness/worker/worker.cu,$(wildcard harness/worker/*.cu)) $(wildcard kernels_ref/vendor/*.cu)
WORKER_LIB_OBJ := $(call obj,$(WORKER_LIB_SRC))
CPU_TEST_SRC := $(filter-out harness/parent/lab_run.c,$(PARENT_SRC))

# Labs whose solution is here (the student handout ships none).
SOL_LAB_IDS := $(foreach l,$(LAB_IDS),$(if $(wildcard solutions/$(call lab_dir,$(l))/$(call lab_src,$(l))),$(l)))
NOSOL_LAB_IDS := $(filter-out $(SOL_LAB_IDS),$(LAB_IDS))
# `make demo` runs the first lab, the solution when there is one.
DEMO_LAB := $(firstword $(LAB_IDS))
SHOW_IMPL := $(if $(filter $(DEMO_LAB),$(SOL_LAB_IDS)),solutions,labs)
# The labs with a profile of their own (make profile).
PROFILE_SCRIPTS := $(sort $(wildcard harness/labs/lab*-profile.sh))

# IMPL: labs -> build/labs, solutions -> build/solutions, a folder -> build/impl-<folder>
IMPL ?= labs
impl_tag = $(if $(filter labs solutions,$(1)),$(1),impl-$(subst /,-,$(patsubst %/,%,$(1))))
impl_variant = $(if $(filter solutions,$(1)),solution,student)
IMPLS := $(sort labs $(if $(SOL_LAB_IDS),solutions) $(patsubst %/,%,$(IMPL)))

# Rebuild everything when the compilers or their flags change.
FLAGS_SIG := $(NVCC) $(CC) $(GENCODE) $(CFLAGS) $(NVCCFLAGS) $(WORKER_FLAGS)
build/.flags: FORCE
	@mkdir -p build; echo '$(FLAGS_SIG)' | cmp -s - $@ || echo '$(FLAGS_SIG)' > $@
# (harness/grade.sh: whether its grading kit was built with these flags)
.PHONY: flags-signature
flags-signature:
	@echo '$(FLAGS_SIG)'

# The bootstrap runs once (the stamp records it); delete build/ to redo it.
build/.bootstrap:
	$(Q)harness/bootstrap.sh && mkdir -p build && touch $@
build/.bootstrap-plots:
	$(Q)harness/bootstrap.sh --plots && mkdir -p build && touch $@
build/.bootstrap-fuzz:
	$(Q)harness/bootstrap.sh --fuzz && mkdir -p build && touch $@

# ------------------------------------------------------------------ rules
build/obj/%.o: %.c build/.flags | build/.bootstrap
	$(quiet) CC $@
	$(Q)mkdir -p $(@D) && $(CCACHE) $(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@
build/obj/%.o: %.cu build/.flags | build/.bootstrap
	$(quiet) NVCC $@
	$(Q)mkdir -p $(@D) && $(CCACHE) $(NVCC) $(NVCCFLAGS) $(WORKER_FLAGS) $(DEPFLAGS) -c $< -o $@


build/libprimlab.a: $(PARENT_OBJ)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^
build/libworker.a: $(WORKER_LIB_OBJ)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

# A lab's worker core: the worker's main and the lab's ops, with what they
# use of libworker.a, linked into one object in which every symbol is local
# but main and the functions the lab's contract lends (primlab_*, read from
# its header). Student code linked with it can neither call nor replace the
# harness's functions; defining a CUDA runtime function fails to link.
lent = $(sort $(shell grep -ho 'primlab_[a-z_]*' labs/$(call lab_dir,$(1))/*.h 2>/dev/null))
# The CUDA runtime's allocation functions, wrapped in every link of a core so
# that a student's call of them is counted (harness/worker/allocs.cu, whose
# __wrap_ definitions name them); the core keeps the wrappers global.
ALLOC_FNS := $(patsubst __wrap_%,%,$(sort $(shell grep -ho '__wrap_cuda[A-Za-z0-9_]*' harness/worker/allocs.cu 2>/dev/null)))
ALLOC_WRAP := $(ALLOC_FNS:%=-Wl,--wrap=%)
ALLOC_KEEP := $(ALLOC_FNS:%=-G __wrap_%)
define core_rules
build/obj/worker/lab$(1)-core.o: build/obj/harness/worker/worker.o build/obj/harness/worker/labs/lab$(1).o build/libworker.a
	$$(quiet) CORE $$@
	$$(Q)mkdir -p $$(@D) && ld -r --force-group-allocation -o $$@.tmp $$^ && \
	  objcopy -w -G main $$(ALLOC_KEEP) $$(foreach f,$$(call lent,$(1)),-G $$(f)) $$@.tmp $$@ && rm -f $$@.tmp
endef
$(foreach l,$(LAB_IDS),$(eval $(call core_rules,$(l))))

# One set of rules per implementation folder. The solutions are the kit's
# own and compile in place; any other folder's lab (a student's) is staged,
# its source files beside its lab's pristine contract
# (harness/stage-submission.sh), and compiled there, so that it can include
# nothing of the kit but that header, under harness/sandbox-compile.sh (the
# kit's solutions/, build/ and the PRIMLAB_SANDBOX_HIDE folders hidden) by
# harness/compile-submission.sh: one object, however many .cu files.
define impl_rules
build/$(call impl_tag,$(1))/obj/driver.o: harness/parent/driver.c build/.flags | build/.bootstrap
	$$(quiet) CC $$@
	$$(Q)mkdir -p $$(@D) && $$(CCACHE) $$(CC) $$(CFLAGS) $$(DEPFLAGS) -DPL_IMPL_VARIANT='"$(call impl_variant,$(1))"' -c $$< -o $$@
ifeq ($(1),solutions)
build/solutions/obj/%.o: solutions/%.cu build/.flags | build/.bootstrap
	$$(quiet) NVCC $$@
	$$(Q)mkdir -p $$(@D) && $$(CCACHE) $$(NVCC) $$(NVCCFLAGS) $$(DEPFLAGS) -Ilabs/$$(*D) -c $$< -o $$@
else
$(foreach l,$(LAB_IDS),$(call submission_rules,$(1),$(call lab_dir,$(l)),$(call lab_base,$(l))))
endif
endef
# (impl, lab folder, lab file's base name): the staged lab and its object.
define submission_rules
build/$(call impl_tag,$(1))/stage/$(2)/.manifest: FORCE | build/.bootstrap
	$$(Q)harness/stage-submission.sh "$(1)/$(2)" "labs/$(2)" "$$(@D)"
build/$(call impl_tag,$(1))/obj/$(2)/$(3).o: build/$(call impl_tag,$(1))/stage/$(2)/.manifest build/.flags | build/.bootstrap
	$$(quiet) NVCC $$@
	$$(Q)harness/compile-submission.sh "$$(<D)" "$$@" $$(NVCC) $$(NVCCFLAGS)

endef
$(foreach i,$(IMPLS),$(eval $(call impl_rules,$(i))))

# Per lab and implementation: the parent, build/<impl>/labNN (no student
# code: it builds even when the student's file does not compile), and the
# worker, build/<impl>/labNN-worker, with a list of the vendor library's
# symbols found in the student's own object (labNN-worker.vendor), and of
# the calls that load a library or look up a function by its name at run
# time (dlopen, dlsym, ...: cuSPARSE, linked into a sparse lab's worker, or
# NPP could be reached through them without naming a vendor symbol).
VENDOR_SYMS := (^|[^A-Za-z0-9_])(cub|thrust)::|(^|[^A-Za-z0-9_])(cublas|cusparse|cufft|curand|npp[a-z]*)[A-Z_]
RUNTIME_LOAD_SYMS := ^(dlopen|dlmopen|dlsym|dlvsym|dl_iterate_phdr|_r_debug|__libc_dl[a-z_]*|_dl_[a-z_]*)(@.*)?$$
define lab_rules
build/$(call impl_tag,$(2))/lab$(1): build/$(call impl_tag,$(2))/obj/driver.o build/obj/harness/parent/labs/lab$(1).o build/libprimlab.a \
    | build/vendor/lab$(1)-worker
	$$(quiet) LINK $$@
	$$(Q)$$(CC) -o $$@ $$^ $$(CHECK_FLAGS) -fopenmp -lm
build/$(call impl_tag,$(2))/lab$(1)-worker: build/obj/worker/lab$(1)-core.o \
    build/$(call impl_tag,$(2))/obj/$(call lab_dir,$(1))/$(call lab_base,$(1)).o
	$$(quiet) LINK $$@
	$$(Q)$$(CXX) -o $$@ $$^ $$(ALLOC_WRAP) $$(LDLIBS) $$(LDLIBS_LAB$(1)) && \
	  { nm -C $$(word 2,$$^) | sed -n 's/^.* [A-Za-z] //p' | grep -E '$$(VENDOR_SYMS)' | head -n 3 || true; \
	    nm -u $$(word 2,$$^) | sed -n 's/^ *U //p' | grep -E '$$(RUNTIME_LOAD_SYMS)' | head -n 1 | \
	      sed 's/$$$$/: loads a library or finds its functions at run time/' || true; } >$$@.vendor
endef
$(foreach i,$(IMPLS),$(foreach l,$(LAB_IDS),$(eval $(call lab_rules,$(l),$(i)))))
lab_bins = $(foreach l,$(2),build/$(call impl_tag,$(1))/lab$(l) build/$(call impl_tag,$(1))/lab$(l)-worker)

# The yardstick's worker: the core alone, no student code (the entry points
# stay unresolved and are never called), so that performance tests time the
# vendor library in a process the submission never ran in.
build/vendor/lab%-worker: build/obj/worker/lab%-core.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CXX) -o $@ $^ -no-pie -Wl,--unresolved-symbols=ignore-all $(LDLIBS) $(LDLIBS_LAB$*)
VENDOR_WORKERS := $(LAB_IDS:%=build/vendor/lab%-worker)

# The table alone (the parent of the student variant), for `labNN list`.
define lab_table_rules
build/tables/lab$(1): build/labs/lab$(1)
	$$(Q)mkdir -p $$(@D) && cp $$< $$@
endef
$(foreach l,$(LAB_IDS),$(eval $(call lab_table_rules,$(l))))

build/primlab-results: build/obj/harness/parent/results_main.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -lm
# The class report of a grading folder (make report).
build/primlab-report: build/obj/harness/parent/class_report_main.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -lm
# The Matrix Market reader of the sparse labs, as a command for instructors.
build/mtx-check: build/obj/harness/parent/mtx_main.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -lm

# The project's own tests: CPU units (with a scripted fake worker that
# misbehaves on request), the harness on the device with wrong scans
# (tests/gpu/wrong_scans.cu), and each lab's suites run against its solution's
# worker; the planted bugs of tests/fixtures/plants/ (tests/gpu/plant.sh) after them.
# The units without a GPU, one test binary each (tests/unit/test_<unit>.c).
CPU_UNITS := rng diagnose report worker_client lab_run rubric results banks cpu_refs summary scores mtx class_report board roofs alg_rows
$(CPU_UNITS:%=build/tests/test_%): build/tests/%: build/obj/tests/unit/%.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
# The judges' suites (tests/unit/judges/test_*.c), one runner.
build/tests/test_judges: build/obj/tests/unit/test_judges.o $(call obj,$(wildcard tests/unit/judges/test_*.c)) build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
build/tests/fake-worker: build/obj/tests/unit/fake_worker.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^
build/tests/test_gpu_harness: build/obj/tests/gpu/test_gpu_harness.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm
build/obj/worker/wrong-scans-core.o: build/obj/harness/worker/worker.o build/obj/tests/gpu/wrong_scans_ops.o build/libworker.a
	$(quiet) CORE $@
	$(Q)mkdir -p $(@D) && ld -r --force-group-allocation -o $@.tmp $^ && objcopy -w -G main $(ALLOC_KEEP) $@.tmp $@ && rm -f $@.tmp
build/tests/wrong-scans-worker: build/obj/worker/wrong-scans-core.o build/obj/tests/gpu/wrong_scans.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CXX) -o $@ $^ $(ALLOC_WRAP) $(LDLIBS)
build/tests/test_gpu_hold: build/obj/tests/gpu/test_gpu_hold.o build/obj/harness/worker/gpu.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CXX) -o $@ $^ $(LDLIBS)
define lab_test_rules
build/tests/test_lab$(1): build/obj/tests/gpu/test_lab.o build/obj/harness/parent/labs/lab$(1).o build/libprimlab.a
	$$(quiet) LINK $$@
	$$(Q)mkdir -p $$(@D) && $$(CC) -o $$@ $$^ $$(CHECK_FLAGS) -fopenmp -lm
endef
$(foreach l,$(SOL_LAB_IDS),$(eval $(call lab_test_rules,$(l))))
# A lab's grader tested on the CPU (tests/unit/test_labNN_judge.c), linked with
# the lab's table; harness/labs/labNN.mk adds it to CPU_TESTS.
build/tests/test_lab%_judge: build/obj/tests/unit/test_lab%_judge.o build/obj/harness/parent/labs/lab%.o build/libprimlab.a
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -fopenmp -lm

# The CPU suites run beside the GPU ones in make test, and the grading
# tests (test_grading.sh, test_grade_jobs.sh, test_slurm.sh,
# test_submission_files.sh, test_kit_anywhere.sh) beside both (none of them
# times anything).
CPU_TESTS := $(CPU_UNITS:%=build/tests/test_%) build/tests/test_judges
# The class report of 1,000 students in at most 10 s (build/primlab-report).
CPU_TESTS += tests/unit/test_class_report_scale.sh
GPU_TESTS := build/tests/test_gpu_harness build/tests/test_gpu_hold $(SOL_LAB_IDS:%=build/tests/test_lab%)
TESTS = $(CPU_TESTS) $(GPU_TESTS)
TEST_WORKERS := build/tests/fake-worker build/tests/wrong-scans-worker
# A lab's own command-line tests (tests/gpu/test_labNN_*.sh), with the GPU suites.
LAB_SCRIPTS := $(sort $(wildcard tests/gpu/test_lab[0-9][0-9]_*.sh))
LAB_BINS := $(call lab_bins,labs,$(LAB_IDS)) $(call lab_bins,solutions,$(SOL_LAB_IDS)) $(VENDOR_WORKERS)
TOOLS := build/primlab-results build/primlab-report build/mtx-check $(LAB_IDS:%=build/tables/lab%)
# Pieces of the build kept beside the code they build: shared ones in mk/,
# a lab's own in harness/labs/labNN.mk (its tests, its workers' link flags,
# LDLIBS_LABNN). Each may add to CPU_TESTS, GPU_TESTS and TOOLS and define
# its own rules.
include $(sort $(wildcard mk/*.mk))
include $(sort $(wildcard harness/labs/*.mk))

.SECONDARY:

# ---------------------------------------------------------------- targets
.PHONY: all help test test-unit test-gpu test-grading test-slow test-sanitize fuzz check grade feedback report handout profile demo plots clean bootstrap FORCE

all: $(LAB_BINS) $(TESTS) $(TEST_WORKERS) $(TOOLS)
	@echo "built: $(LAB_BINS)"
	@echo "next: make test (the project's tests), make check LAB=$(DEMO_LAB) (grade your lab), make demo"

help:
	@echo "primlab targets:"
	@echo "  make                 build every lab (student and solution) and the tests"
	@echo "  make test            the project's own tests: the unit, gpu and grading tiers (GPU suites skip without a GPU)"
	@echo "  make check           grade the student code: LAB=NN for one lab (LABS=\"01 02\" for several),"
	@echo "                       IMPL=solutions for the solutions"
	@echo "  make grade SUBMISSIONS=dir   grade a class: GRADES=dir for the output, FORCE=1 to regrade,"
	@echo "                       JOBS=N students at a time (one per GPU), SLURM=1 as a Slurm job array,"
	@echo "                       LAB=NN or LABS=\"01 02\" (an assignment: those labs only), STUDENT=name (regrade one)"
	@echo "  make feedback        each student's report.txt and results.json to hand back, a folder and a .zip"
	@echo "                       each, in GRADES/feedback/ (GRADES=dir)"
	@echo "  make report          the class report of a graded class: GRADES/report.html and report.md;"
	@echo "                       GRADES=dir, ANON=1 (pseudonyms), REFERENCE=scores.tsv (the solution's ratios)"
	@echo "  make tokens          the check service's tokens (docs/check-service.md), one per student of"
	@echo "                       ROSTER=export.csv (or INSTRUCTOR=name), in TOKENS (mode 0600); AGAIN=1 renews them"
	@echo "  make serve           the check service on SERVE_ADDR (127.0.0.1:8750), its state in SERVE_DIR, a job per"
	@echo "                       GPU of SERVE_GPUS at a time; SERVE_DRY=1: dry runs (docs/check-service.md, \"Running it\")"
	@echo "                       SERVE_SLURM=1 on a cluster's login node: SERVE_SLOTS jobs at once, each a Slurm job"
	@echo "  make prune-jobs      DAYS=N: of the check service's jobs that ended over N days ago, the files removed"
	@echo "                       but scores.tsv (the leaderboard's); every row of its database kept"
	@echo "  make submit LAB=NN   no GPU here: send lab NN to the course's check service and print its report"
	@echo "                       (docs/student-guide.md): WAIT=0 returns at once with the job's id, JOB=N fetches job N;"
	@echo "                       make submit NAME='Ada L.': your name on its leaderboard (NAME=: your pseudonym again);"
	@echo "                       SERVE_URL (else serve.conf), PRIMLAB_TOKEN (else ~/.config/primlab/token),"
	@echo "                       SUBMIT_DIR=dir (where the report goes; build/submit), SUBMIT_POLL=seconds"
	@echo "  make handout         the student tarball, dist/primlab-handout-<version>.tar.gz (no solutions/);"
	@echo "                       SERVE_URL=https://... writes the check service's address into its serve.conf"
	@echo "  make demo            run lab $(DEMO_LAB)'s solution against the CPU and CUB, print the table, draw figures"
	@echo "  make plots           figures in plots/figures (measured afresh with a GPU, else reference data);"
	@echo "                       IMPL=labs LAB=NN: yours, labNN_student.svg, beside CUB and the solution (a GPU)"
	@for f in $(PROFILE_SCRIPTS); do l=$${f##*/lab}; \
	  printf '  %-20s %s\n' "make profile LAB=$${l%%-profile.sh}" "$$(sed -n 's/^# help: //p' $$f)"; done
	@echo "  make test-unit       the unit tier: Check suites and CPU scripts, no grading (tests/unit)"
	@echo "  make test-gpu        the GPU tier: each lab's suites and the planted bugs (tests/gpu; without a GPU, built only)"
	@echo "  make test-grading    the grading tier: make check and make grade end to end (tests/grading)"
	@echo "  make test-slow       the slow end-to-end suites CI runs besides make test: the hostile submissions,"
	@echo "                       the handout on its own, the walkthrough, Slurm, the class census (tests/README.md)"
	@echo "  make test-list       every suite of make test and make test-slow, as run:tier:path"
	@echo "                       (SUITES=\"path ...\" runs only those; TIER_ARGS=\"--jobs N\" sets how many at a time)"
	@echo "  make test-sanitize   the CPU tests under AddressSanitizer and UndefinedBehaviorSanitizer"
	@echo "  make fuzz            the Matrix Market reader under libFuzzer for FUZZ_SECONDS=600 (needs clang)"
	@echo "  build/mtx-check FILE...      a Matrix Market file as the sparse labs read it, or why it is refused"
	@echo "  build/mtx-gen --list         synthetic sparse matrices shaped like the SpMV paper's (--out FILE.mtx)"
	@echo "  make matrices        download the SpMV paper's matrices from SuiteSparse (NAMES=..., MATRICES_DIR=...)"
	@echo "  make bootstrap       find or install nvcc, Check, OpenMP and gnuplot"
	@echo "  make clean           remove build/"
	@echo "variables: LAB=NN IMPL=labs|solutions ARCH=sm_90 V=1 PRIMLAB_TIMEOUT=seconds PRIMLAB_LIMITS=0|1"
	@echo "  check, grade: PRIMLAB_SEED=N (grade for real: hidden tests, the limit tests; never printed or stored)"
	@echo "                PRIMLAB_NO_GPU=1 (a dry run: nothing runs on a GPU, no test scores), PRIMLAB_WIP=1 (labs marked WIP too)"
	@echo "                AUTOLAB=1 CHECK_OUT=dir (make check: Autolab's scores line; where the results go)"
	@echo "                PRIMLAB_COMPILE_S=seconds PRIMLAB_COMPILE_MEM_GB=N (a student's compile: time, memory)"
	@echo "                PRIMLAB_PHASES=1 (seconds by phase of each performance test, and of each correctness test over 50 ms, on stderr)"
	@echo "                PRIMLAB_NO_PROOF=1 (a sort's or a scan's result checked against the CPU reference, not proven right)"
	@echo "  grade:        PRIMLAB_GPUS=\"0 1\" (which GPUs) GRADE_TIMEOUT=seconds (a student) GRADE_LOCK_WAIT=seconds"
	@echo "                GRADE_MAX_BYTES=N GRADE_MAX_FILES=N (an archive's unpacked size and files)"
	@echo "                GRADE_PROGRESS_S=seconds (between the lines saying how far the grading kit's build is; 30)"
	@echo "  grade SLURM=1: GRADE_PARTITION GRADE_TIME GRADE_GRES GRADE_SBATCH=\"options\" GRADE_POLL=seconds"
	@echo "  serve SERVE_SLURM=1: SERVE_SLOTS=N SERVE_PARTITION SERVE_TIME SERVE_GRES SERVE_SRUN=\"options\""
	@echo "  grade, an LMS: DUE=2026-11-20T23:59 (UTC; +01:00 or \" Europe/Paris\" after it: a zone) LATE=none|10%/day[,max=50%]"
	@echo "                ROSTER=export.csv ASSIGNMENT=\"Lab 1\" (Canvas, Gradescope, Moodle: GRADES/lms-import.csv)"
	@echo "  data:         PRIMLAB_MATRICES=dir MATRICES_DIR=dir (the real matrices), FUZZ_SECONDS=N"
	@echo "labs: $(LAB_DIRS)"

bootstrap:
	$(Q)harness/bootstrap.sh --plots && mkdir -p build && touch build/.bootstrap build/.bootstrap-plots

# The project's own tests, in tiers (tests/README.md), each suite run by
# tests/run.sh: its log in build/test-logs/<run>/, a line as it ends, then
# the time table and the run's budget (tests/budget). make test runs the
# unit, gpu and grading tiers; make test-slow the slow end-to-end suites
# (a `# tier: slow` line in their header) and the planted class, which CI
# runs too. SUITES="tests/unit/test_wire.sh build/tests/test_rng" runs only
# those of a run's suites (make test-list lists them); TIER_ARGS passes
# options to tests/run.sh (--jobs N).
UNIT_SUITES := $(sort $(CPU_TESTS) $(wildcard tests/unit/test_*.sh))
# (the plants are graded in two halves, one on each GPU of a 2-GPU host;
# they come first, the longest: with one GPU the lane is 170 s so, 190 s
# with them last, on an H200)
GPU_SUITES := tests/gpu/plant.sh:1/2 tests/gpu/plant.sh:2/2 $(GPU_TESTS) $(LAB_SCRIPTS)
SLOW_SUITES := $(sort $(shell grep -l '^\# tier: slow' tests/grading/test_*.sh 2>/dev/null))
GRADING_SUITES := $(filter-out $(SLOW_SUITES),$(sort $(wildcard tests/grading/test_*.sh)))
RUN_test := $(GRADING_SUITES:%=grading:%) $(GPU_SUITES:%=gpu:%) $(UNIT_SUITES:%=unit:%)
RUN_test-unit := $(UNIT_SUITES:%=unit:%)
RUN_test-gpu := $(GPU_SUITES:%=gpu:%)
RUN_test-grading := $(GRADING_SUITES:%=grading:%)
RUN_test-slow := $(SLOW_SUITES:%=slow:%) slow:tests/gpu/plant.sh:class
# a run's suites, or those of them SUITES names (by path)
run_suites = $(if $(SUITES),$(foreach s,$(RUN_$(1)),$(if $(filter $(SUITES),$(word 2,$(subst :, ,$(s)))),$(s))),$(RUN_$(1)))
.PHONY: test-list
test test-unit test-gpu test-grading test-slow: $(TESTS) $(TEST_WORKERS) $(TOOLS) $(LAB_BINS) | build/.bootstrap
	$(Q)$(if $(filter test test-gpu,$@),$(foreach l,$(NOSOL_LAB_IDS),echo "SKIP: lab$(l)'s GPU suites test solutions/, which this copy (a handout?) has not";)) \
	NVCC="$(NVCC)" CC="$(CC)" tests/run.sh $(TIER_ARGS) --run $@ $(call run_suites,$@)
test-list:
	@printf '%s\n' $(foreach r,test test-slow,$(RUN_$(r):%=$(r):%))

# The CPU-side tests once more, built with the sanitizers (no CUDA in them):
# each source compiled once into build/asan/, the tests linked with what
# they use of it, and run side by side by tests/run.sh (its time table).
# The isolation tests crash children on purpose: the sanitizers let those signals through.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_TESTS := $(CPU_UNITS:%=test_%) test_ref06
build/asan/obj/%.o: %.c build/.flags | build/.bootstrap
	$(quiet) CC $@
	$(Q)mkdir -p $(@D) && $(CCACHE) $(CC) -std=c11 -O1 -g -Wall -Wextra -fopenmp $(SAN) $(DEPFLAGS) -c $< -o $@
build/asan/libprimlab.a: $(patsubst build/obj/%,build/asan/obj/%,$(call obj,$(PARENT_SRC)))
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^
$(SAN_TESTS:%=build/asan/%): build/asan/%: build/asan/obj/tests/unit/%.o build/asan/libprimlab.a
	$(quiet) LINK $@
	$(Q)$(CC) -fopenmp $(SAN) -o $@ $^ $(CHECK_FLAGS) -lm
test-sanitize: build/tests/fake-worker build/mtx-check build/primlab-report $(SAN_TESTS:%=build/asan/%) | build/.bootstrap
	$(Q)ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_abort=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  tests/run.sh $(TIER_ARGS) --run $@ $(SAN_TESTS:%=unit:build/asan/%)

# The Matrix Market reader under libFuzzer, ASan and UBSan (tests/unit/fuzz):
# seeds from tests/unit/fuzz/corpus and tests/fixtures/mtx, new inputs kept in
# build/fuzz/corpus, a crash's input in build/fuzz/crashes. FUZZ_JOBS=2
# runs two fuzzers side by side. Without a clang that builds libFuzzer
# targets: a warning, and status 0. The reader reads files through a
# 7-byte buffer here, so that lines meet the buffer's edges.
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 1
FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DPL_MTX_BUF_BYTES=7
fuzz: | build/.bootstrap-fuzz
	$(Q)mkdir -p build/fuzz/corpus build/fuzz/crashes && \
	if ! $(FUZZ_CC) $(FUZZ_FLAGS) tests/unit/fuzz/fuzz_mtx.c harness/parent/mtx.c -lm -o build/fuzz/fuzz_mtx >build/fuzz/build.log 2>&1; then \
	  echo "fuzz: warning: '$(FUZZ_CC)' cannot build a libFuzzer target (build/fuzz/build.log; harness/bootstrap.sh --fuzz installs clang): no fuzz run"; exit 0; fi; \
	echo "fuzz: tests/unit/fuzz/fuzz_mtx for $(FUZZ_SECONDS) s; new inputs in build/fuzz/corpus, crashes in build/fuzz/crashes"; \
	cd build/fuzz && ./fuzz_mtx -max_total_time=$(FUZZ_SECONDS) -timeout=10 -dict=../../tests/unit/fuzz/mtx.dict \
	  -artifact_prefix=crashes/ $(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) \
	  corpus ../../tests/unit/fuzz/corpus ../../tests/fixtures/mtx

# LAB=01 or LABS="01 02": only those labs (harness/check.sh).
check: | build/.bootstrap
	$(Q)harness/check.sh "$(IMPL)" "$(strip $(LAB) $(LABS))"

# Batch grading: one results.json per student and a gradebook. JOBS=N (N
# students at a time, one per GPU; default one per GPU seen) and SLURM=1 (a
# Slurm job array: GRADE_PARTITION, GRADE_TIME, GRADE_GRES, GRADE_SBATCH)
# reach harness/grade.sh from the command line (docs/grading-a-class.md),
# as do LAB=01 or LABS="01 02" (an assignment: those labs only),
# STUDENT=name (regrade that student alone) and an LMS's DUE, LATE, ROSTER
# and ASSIGNMENT (harness/lms.py).
GRADES ?= build/grades
grade: | build/.bootstrap
	$(Q)harness/grade.sh "$(SUBMISSIONS)" "$(GRADES)"

# The feedback to hand back: GRADES/feedback/<student>/ (report.txt,
# results.json) and <student>.zip, from the published results, no grader's
# path in them (harness/feedback.sh).
feedback:
	$(Q)harness/feedback.sh "$(GRADES)"

# The class report of GRADES (harness/parent/class_report.h): one page
# for a browser or a printer, and the same tables in Markdown. ANON=1 shows
# students under pseudonyms; REFERENCE=build/solutions/scores.tsv
# (make check IMPL=solutions) sets the solution's ratios beside the class's.
# The tool is make grade's, build/grade-kit/build/primlab-report, when the
# grading kit's stamp says it was built from this kit's files with these
# flags (harness/grade.sh's kit_current: the files' checksum, then make
# flags-signature), so that a kit that only graded compiles nothing;
# else build/primlab-report, built here. (Worked out only for make report.)
ifneq ($(filter report,$(MAKECMDGOALS)),)
GRADE_KIT_BUILD := build/grade-kit/build
REPORT_TOOL := $(shell s=$(GRADE_KIT_BUILD)/.grade-kit; test -x $(GRADE_KIT_BUILD)/primlab-report && \
  test "$$(sed -n 2p $$s 2>/dev/null)" = '$(FLAGS_SIG)' && \
  test "$$(sed -n 1p $$s)" = "$$(harness/kit-files.sh --sum $(if $(wildcard solutions),--handout))" && \
  echo $(GRADE_KIT_BUILD)/primlab-report)
endif
REPORT_TOOL := $(or $(REPORT_TOOL),build/primlab-report)
report: $(REPORT_TOOL)
	$(Q)$(REPORT_TOOL) $(if $(filter 1,$(ANON)),--anon) $(if $(REFERENCE),--reference "$(REFERENCE)") "$(GRADES)" && \
	  echo "report: $(GRADES)/report.html (open it in a browser, or print it), $(GRADES)/report.md"

DEMO_SIZES ?= 2^16,2^20,2^24
demo: build/$(SHOW_IMPL)/lab$(DEMO_LAB) build/$(SHOW_IMPL)/lab$(DEMO_LAB)-worker
	@echo "== lab $(DEMO_LAB) ($(subst -, ,$(patsubst $(DEMO_LAB)-%,%,$(call lab_dir,$(DEMO_LAB))))): the $(SHOW_IMPL) code against the CPU references and CUB"
	$(Q)build/$(SHOW_IMPL)/lab$(DEMO_LAB) run --n $(DEMO_SIZES) --reps 10 --out build/demo-lab$(DEMO_LAB).tsv
	@echo "== figures from the reference data in plots/data (measured on the GPU named in each figure)"
	$(Q)if harness/bootstrap.sh --plots >build/bootstrap-plots.log 2>&1; then \
	  for d in $(LAB_IDS); do test ! -f plots/data/lab$$d.tsv || plots/render.sh $$d || exit 1; done; \
	  echo "demo done: figures in plots/figures/"; \
	else tail -n 1 build/bootstrap-plots.log; echo "demo: figures not drawn: gnuplot is missing (see above)"; fi

# With a GPU, measure afresh (replacing the reference data): every command
# that a lab's table says writes figure data (plots/measure.sh; `sweep`
# unless the lab has data of its own); then render. Variables that a
# lab's command takes from make plots (MATRICES=DIR) reach it from the
# command line.
# A student's code (IMPL=labs, or a handout, which has no solutions/) never
# replaces the reference data: the lecture figures are drawn from it, and
# with a GPU each lab's sweep of the student's code (build/plots/) gives
# plots/figures/labNN_student.svg and .png: the student's throughput as a
# fraction of CUB's against n, for each performance test's part, beside
# the solution's reference data (harness/serve/figure.sh, the check
# service's figure; the tests' names from `labNN fill`).
PLOTS_IMPL := $(if $(filter command line environment,$(origin IMPL)),$(patsubst %/,%,$(IMPL)),$(SHOW_IMPL))
PLOTS_LABS := $(if $(LAB),$(LAB),$(LAB_IDS))
ifneq ($(PLOTS_IMPL),solutions)
plots: $(call lab_bins,$(PLOTS_IMPL),$(PLOTS_LABS)) | build/.bootstrap-plots
	$(Q)for d in $(PLOTS_LABS); do \
	  bin=build/$(call impl_tag,$(PLOTS_IMPL))/lab$$d data=build/plots/lab$$d-$(call impl_tag,$(PLOTS_IMPL)); \
	  if [ -s plots/data/lab$$d.tsv ]; then echo "== lab $$d: the lecture figures, from the reference data"; \
	    plots/render.sh $$d plots/data/lab$$d.tsv plots/figures || exit 1; fi; \
	  if ! $$bin info >/dev/null 2>&1; then \
	    echo "== lab $$d: no GPU here: your code is not measured (make submit LAB=$$d draws your figure on the check service)"; \
	    continue; fi; \
	  echo "== lab $$d: measuring the code of $(PLOTS_IMPL)/ on the GPU"; \
	  mkdir -p build/plots plots/figures && $$bin sweep --out $$data.tsv || exit 1; \
	  rm -f $$data-tests.tsv && $$bin fill --scores $$data-tests.tsv >/dev/null || exit 1; \
	  for f in svg png; do \
	    harness/serve/figure.sh --sweep $$data.tsv --tests $$data-tests.tsv $$d plots/figures/lab$${d}_student.$$f || exit 1; \
	    echo "  PLOT   plots/figures/lab$${d}_student.$$f"; done; done
else
plots: $(call lab_bins,$(SHOW_IMPL),$(LAB_IDS)) | build/.bootstrap-plots
	$(Q)for d in $(PLOTS_LABS); do \
	  if build/$(SHOW_IMPL)/lab$$d info >/dev/null 2>&1; then \
	    echo "== lab $$d: measuring on the GPU"; \
	    plots/measure.sh build/$(SHOW_IMPL)/lab$$d || exit 1; \
	  elif [ ! -s plots/data/lab$$d.tsv ]; then echo "== lab $$d: no GPU and no reference data yet (plots/data/lab$$d.tsv): nothing drawn"; continue; \
	  else echo "== lab $$d: no GPU, rendering the reference data"; fi; \
	  plots/render.sh $$d plots/data/lab$$d.tsv plots/figures || exit 1; done
endif

# SERVE_URL given on the command line goes into the handout's serve.conf
# (make submit's address); one in the environment does not.
handout:
	$(Q)harness/handout.sh $(if $(filter command line,$(origin SERVE_URL)),--serve-url "$(SERVE_URL)")

# Nsight Compute on a lab's kernels, for the labs with a profile
# (harness/labs/labNN-profile.sh); without LAB, the first of them.
profile: $(LAB_BINS)
	$(Q)harness/profile.sh "$(LAB)" $(SHOW_IMPL)

clean:
	rm -rf build dist

-include $(shell find build -name '*.d' 2>/dev/null)
