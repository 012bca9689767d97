# mk/serve.mk: the check service (issue 55; docs/check-service.md), built
# step by step: the durable queue of jobs on SQLite (harness/serve/queue.h),
# its accounts and tokens, and its Check suite; the service itself on
# libmicrohttpd (harness/serve/serve.h). Built only where SQLite's and
# OpenSSL's headers are, the service only where libmicrohttpd's is too
# (harness/bootstrap.sh installs libsqlite3-dev, libssl-dev and
# libmicrohttpd-dev): elsewhere their suites are not listed, or skip, and
# make test says nothing of them.
#
#   build/tests/test_serve_queue   the queue's suite (run by make test)
#   build/primlab-serve-admin      the instructor's tool (make tokens, make prune-jobs)
#   build/primlab-serve            the service (make serve)
serve_header = $(firstword $(wildcard /usr/include/$(1) $(addsuffix /$(1),$(subst :, ,$(CPATH)))))
SERVE_HEADERS := $(call serve_header,sqlite3.h) $(call serve_header,openssl/evp.h)
SERVE_HTTP_HEADER := $(call serve_header,microhttpd.h)
SERVE_OBJ := $(call obj,$(wildcard harness/serve/*.c))

ifeq ($(words $(SERVE_HEADERS)),2)
build/tests/test_serve_queue: build/obj/tests/unit/test_serve_queue.o build/obj/harness/serve/queue.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -lsqlite3 -lcrypto

build/primlab-serve-admin: build/obj/harness/serve/admin_main.o build/obj/harness/serve/queue.o
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -lsqlite3 -lcrypto

CPU_TESTS += build/tests/test_serve_queue
TOOLS += build/primlab-serve-admin

ifneq ($(SERVE_HTTP_HEADER),)
build/primlab-serve: $(filter-out %/admin_main.o %/board.o,$(SERVE_OBJ)) build/libprimlab.a
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -lmicrohttpd -lsqlite3 -lcrypto -lm -pthread
TOOLS += build/primlab-serve
endif
endif

# make tokens ROSTER=export.csv: a token for each student of the course's
# roster (Canvas, Gradescope or Moodle gradebook export) without one yet,
# in the service's database SERVE_DB, written to TOKENS (mode 0600), a
# line "<student>\t<token>" each, to hand out; AGAIN=1: new tokens for all
# (the old ones stop working); INSTRUCTOR="name": an instructor's token.
# Both outside the kit, which make clean empties (build/) and a new
# version of the kit replaces.
SERVE_DIR ?= $(HOME)/.local/share/primlab
SERVE_DB ?= $(SERVE_DIR)/serve.db
TOKENS ?= $(SERVE_DIR)/tokens.tsv
.PHONY: tokens
tokens: build/primlab-serve-admin
	$(Q)harness/serve/tokens.sh "$(SERVE_DB)" "$(TOKENS)" "$(ROSTER)" "$(INSTRUCTOR)" "$(AGAIN)"

# make prune-jobs DAYS=30: of each job of the service in SERVE_DIR that
# ended more than 30 days ago, the files of its folder but scores.tsv
# (the leaderboard's) removed; every row of the database kept
# (docs/check-service.md, "What the service keeps").
.PHONY: prune-jobs
prune-jobs: build/primlab-serve-admin
	$(Q)SERVE_DB="$(SERVE_DB)" build/primlab-serve-admin prune "$(SERVE_DIR)" "$(DAYS)"

# make serve: the check service on SERVE_ADDR (a reverse proxy in front
# gives it TLS: docs/check-service.md, "Running it"), its state in
# SERVE_DIR, one claimer per GPU of SERVE_GPUS (default: every GPU
# nvidia-smi lists; SERVE_DRY=1: two slots, each job a dry run). Each
# setting left empty takes the service's default (harness/serve/serve.h).
# Its jobs run in the grading kit make grade grades in: unless SERVE_RUNNER
# names another runner, the kit is first made current for every lab
# (harness/grade.sh --kit: build/grade-kit, from the handout, its parts
# built), then each job is that kit's harness/serve/run-job.sh.
# SERVE_SLURM=1, on a Slurm cluster's login node: SERVE_SLOTS jobs at once
# (2), each a Slurm job on a node (harness/serve/slurm-job.sh; its options
# SERVE_PARTITION, SERVE_GRES, SERVE_TIME and SERVE_SRUN reach it from the
# command line, as make grade SLURM=1's GRADE_ ones do), the kit built for
# the nodes as make grade SLURM=1 builds it: ARCH, else this host's GPU's,
# else the portable set.
SERVE_ADDR ?= 127.0.0.1:8750
SERVE_VARS := SERVE_ADDR SERVE_DIR SERVE_DB SERVE_GPUS SERVE_DRY SERVE_SLURM SERVE_SLOTS SERVE_RUNNER \
              SERVE_JOB_TIMEOUT SERVE_BUSY_PAUSE \
              SERVE_LOCK_WAIT SERVE_LOG_MAX SERVE_PER_HOUR \
              SERVE_CAP SERVE_MAX_UPLOAD SERVE_RATE SERVE_BURST SERVE_HEADER_S SERVE_REQUEST_S SERVE_CONNS \
              SERVE_PER_IP SERVE_THREADS SERVE_TRUST_PROXY
.PHONY: serve
ifneq ($(words $(SERVE_HEADERS) $(SERVE_HTTP_HEADER)),3)
serve:
	@echo "make serve: the headers of SQLite, OpenSSL or libmicrohttpd are missing (harness/bootstrap.sh installs libsqlite3-dev, libssl-dev, libmicrohttpd-dev)" >&2; exit 2
else
serve: build/primlab-serve
	$(Q)$(if $(filter 1,$(SERVE_SLURM)),$(if $(ARCH),,export ARCH=$(if $(GPU_CC),sm_$(GPU_CC),portable);)) \
	runner="$(SERVE_RUNNER)"; \
	if [ -z "$$runner" ]; then \
	    kit=$$(LAB= LABS="$(LAB_IDS)" harness/grade.sh --kit) || exit $$?; \
	    runner=$$kit/harness/serve/run-job.sh; \
	fi; \
	$(foreach v,$(filter-out SERVE_RUNNER,$(SERVE_VARS)),$(v)="$($(v))") SERVE_RUNNER="$$runner" \
	    SERVE_LABS="$(LAB_IDS)" exec build/primlab-serve
endif
