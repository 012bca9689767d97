/* harness/parent/outcome.c: test statuses and time limits (see outcome.h). */
#include "outcome.h"

#include <stdlib.h>

const char *pl_status_name(int status)
{
    static const char *names[] = {"OK", "FAIL", "ERROR", "CRASH", "TIMEOUT", "SKIP"};
    return status >= 0 && status <= PL_SKIP ? names[status] : "?";
}

double pl_env_seconds(const char *name, double def)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return def;
    double v = strtod(s, &end);
    return (*end || v < 0) ? def : v;
}
