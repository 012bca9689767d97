/* harness/serve/admin_main.c: build/primlab-serve-admin, the instructor's
 * side of the check service's database (harness/serve/queue.h).
 *
 *   primlab-serve-admin tokens DB [--again] [--instructor]
 *       reads account names, one a line, on stdin (make tokens pipes the
 *       roster's students in: harness/lms.py names), and prints
 *       "<name>\t<token>" for each account given a token: those without
 *       one, or every one named with --again (their old tokens then stop
 *       working); --instructor: the accounts are instructors'. Then one
 *       line on stderr: how many were made, kept and refused.
 *
 *   primlab-serve-admin who DB
 *       reads a token on stdin (never an argument, which ps shows) and
 *       prints the account it names and its role, or "nobody" (status 1).
 *
 * Exit status 0; 1 when a name was refused (the others are still made);
 * 2 on a usage error or when the database cannot be opened. */
#define _GNU_SOURCE
#include "queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int usage(void)
{
    fprintf(stderr, "usage: primlab-serve-admin tokens DB [--again] [--instructor] < names\n"
                    "       primlab-serve-admin who DB < token\n");
    return 2;
}

static int who(const char *db)
{
    char why[256], token[PL_TOKEN_CHARS + 2] = "", name[PL_NAME_MAX + 1];
    if (!fgets(token, sizeof token, stdin))
        token[0] = '\0';
    token[strcspn(token, "\r\n")] = '\0';
    pl_queue *q = pl_queue_open(db, 20000, why, sizeof why);
    if (!q) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    int role = 0, rc = pl_queue_who(q, token, name, sizeof name, &role, why, sizeof why);
    pl_queue_close(q);
    if (rc < 0) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    if (rc == 0) {
        printf("nobody\n");
        return 1;
    }
    printf("%s\t%s\n", name, role == PL_ROLE_INSTRUCTOR ? "instructor" : "student");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "who"))
        return who(argv[2]);
    if (argc < 3 || strcmp(argv[1], "tokens") != 0)
        return usage();
    int again = 0, role = PL_ROLE_STUDENT;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--again"))
            again = 1;
        else if (!strcmp(argv[i], "--instructor"))
            role = PL_ROLE_INSTRUCTOR;
        else
            return usage();
    }
    char why[256];
    pl_queue *q = pl_queue_open(argv[2], 20000, why, sizeof why);
    if (!q) {
        fprintf(stderr, "primlab-serve-admin: %s\n", why);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int made = 0, kept = 0, refused = 0;
    long lineno = 0;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        if (!again && pl_queue_has_account(q, line) == 1) {
            kept++;
            continue;
        }
        char token[PL_TOKEN_CHARS + 1];
        if (pl_queue_issue_token(q, line, role, (double)time(NULL), token, why, sizeof why) != 0) {
            fprintf(stderr, "primlab-serve-admin: line %ld: %s: no token\n", lineno, why);
            refused++;
            continue;
        }
        printf("%s\t%s\n", line, token);
        made++;
    }
    free(line);
    pl_queue_close(q);
    fprintf(stderr, "primlab-serve-admin: %d token%s made, %d account%s kept with the token %s had%s\n", made,
            made == 1 ? "" : "s", kept, kept == 1 ? "" : "s", kept == 1 ? "it" : "they",
            refused ? ", some names refused (above)" : "");
    return refused ? 1 : 0;
}
