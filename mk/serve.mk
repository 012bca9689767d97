# mk/serve.mk: the check service (issue 55; docs/check-service.md), built
# step by step. Its first part, the durable queue of jobs on SQLite
# (harness/serve/queue.h), its accounts and tokens, and its Check suite.
# Built only where SQLite's and OpenSSL's headers are (harness/bootstrap.sh
# installs libsqlite3-dev and libssl-dev): elsewhere the suite is not
# listed, and make test says nothing of it.
#
#   build/tests/test_serve_queue   the queue's suite (run by make test)
serve_header = $(firstword $(wildcard /usr/include/$(1) $(addsuffix /$(1),$(subst :, ,$(CPATH)))))
SERVE_HEADERS := $(call serve_header,sqlite3.h) $(call serve_header,openssl/evp.h)

ifeq ($(words $(SERVE_HEADERS)),2)
build/tests/test_serve_queue: build/obj/tests/unit/test_serve_queue.o build/obj/harness/serve/queue.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -lsqlite3 -lcrypto

CPU_TESTS += build/tests/test_serve_queue
endif
