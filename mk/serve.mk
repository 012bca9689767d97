# mk/serve.mk: the check service (issue 55; docs/check-service.md), built
# step by step. Its first part, the durable queue of jobs on SQLite
# (harness/serve/queue.h), and its Check suite. Built only where SQLite's
# header is (harness/bootstrap.sh installs libsqlite3-dev): elsewhere the
# suite is not listed, and make test says nothing of it.
#
#   build/tests/test_serve_queue   the queue's suite (run by make test)
SQLITE_H := $(firstword $(wildcard /usr/include/sqlite3.h $(addsuffix /sqlite3.h,$(subst :, ,$(CPATH)))))

ifneq ($(SQLITE_H),)
build/tests/test_serve_queue: build/obj/tests/unit/test_serve_queue.o build/obj/harness/serve/queue.o
	$(quiet) LINK $@
	$(Q)mkdir -p $(@D) && $(CC) -o $@ $^ $(CHECK_FLAGS) -lsqlite3

CPU_TESTS += build/tests/test_serve_queue
endif
