# mk/serve.mk: the check service (issue 55; docs/check-service.md), built
# step by step. Its first part, the durable queue of jobs on SQLite
# (harness/serve/queue.h), its accounts and tokens, and its Check suite.
# Built only where SQLite's and OpenSSL's headers are (harness/bootstrap.sh
# installs libsqlite3-dev and libssl-dev): elsewhere the suite is not
# listed, and make test says nothing of it.
#
#   build/tests/test_serve_queue   the queue's suite (run by make test)
#   build/primlab-serve-admin      the instructor's tool (make tokens)
serve_header = $(firstword $(wildcard /usr/include/$(1) $(addsuffix /$(1),$(subst :, ,$(CPATH)))))
SERVE_HEADERS := $(call serve_header,sqlite3.h) $(call serve_header,openssl/evp.h)

ifeq ($(words $(SERVE_HEADERS)),2)
build/tests/test_serve_queue: build/obj/tests/unit/test_serve_queue.o build/obj/harness/serve/queue.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -lsqlite3 -lcrypto

build/primlab-serve-admin: build/obj/harness/serve/admin_main.o build/obj/harness/serve/queue.o
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $^ -lsqlite3 -lcrypto

CPU_TESTS += build/tests/test_serve_queue
TOOLS += build/primlab-serve-admin
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
