/* tests/unit/fake_session.h: a session with the scripted fake worker
 * (tests/unit/fake_worker.c), for the tests of the worker client and of the runner. */
#ifndef PRIMLAB_TESTS_FAKE_SESSION_H
#define PRIMLAB_TESTS_FAKE_SESSION_H

#include "../../harness/parent/worker_client.h"

#include <check.h>

/* The scripted fake worker (tests/unit/fake_worker.c): each part misbehaves in
   one way, as a hostile submission would. */
#define FAKE "build/tests/fake-worker"

static pl_session *fake_session(void)
{
    char why[256];
    pl_session_opts o = {.worker = FAKE, .log = "build/tests/fake-worker.log", .start_s = 20};
    pl_session *s = pl_session_open(&o, why, sizeof why);
    ck_assert_msg(s != NULL, "cannot start the fake worker: %s", why);
    return s;
}

#endif
