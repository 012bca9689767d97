/* harness/parent/results_main.c: build/primlab-results, the last step of grading:
 * what is made from a scores file (scores.h), by results.h's writers.
 *
 *   primlab-results SCORES [--labs 01,02] [--json FILE] [--extra FILE]
 *                   [--autolab] [--check] [--dry] [--csv-row NAME | --csv-max NAME]
 *   primlab-results SCORES --fault LAB | --subtotals
 *
 * Prints `Score: x/y` (exit 0 only at full marks, else 1); --json writes
 * Gradescope's results.json atomically; --autolab prints Autolab's scores
 * line last; --csv-row prints one gradebook row (NAME, a score per lab, the
 * total of those labs) instead of the Score line, --csv-max the same row of
 * each lab's maximum (the points possible). Rows with no score (a row not run for
 * want of a GPU, or --dry: the run was a dry one, PRIMLAB_NO_GPU=1, or the
 * record says so) give one answer everywhere: the Score line says "none"
 * and why, results.json has no score (pl_write_gradescope_not_run), the
 * gradebook row is blank, --subtotals prints nothing, and --autolab prints
 * why in place of the scores line, with status 3 (the grading machine's
 * failure: Autolab shows the job failed). --check is accepted as before
 * (make check's report) and changes nothing now.
 * --fault LAB prints the one line (machine output) saying why LAB's run
 * stopped on the grading machine's account (its lab binary's status 3).
 * --subtotals prints "labNN subtotal: x/y" for each lab, in the rows' order.
 */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "scores.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *scores = NULL, *json = NULL, *extra = NULL, *labs_arg = NULL, *csv = NULL, *fault = NULL;
    const char *csv_max = NULL;
    int autolab = 0, check = 0, subtotals = 0, dry = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--json") && more) json = argv[++i];
        else if (!strcmp(a, "--extra") && more) extra = argv[++i];
        else if (!strcmp(a, "--labs") && more) labs_arg = argv[++i];
        else if (!strcmp(a, "--csv-row") && more) csv = argv[++i];
        else if (!strcmp(a, "--csv-max") && more) csv_max = argv[++i];
        else if (!strcmp(a, "--fault") && more) fault = argv[++i];
        else if (!strcmp(a, "--autolab")) autolab = 1;
        else if (!strcmp(a, "--check")) check = 1;
        else if (!strcmp(a, "--dry")) dry = 1;
        else if (!strcmp(a, "--subtotals")) subtotals = 1;
        else if (a[0] != '-' && !scores) scores = a;
        else {
            fprintf(stderr, "primlab-results: bad argument '%s'\n", a);
            return 2;
        }
    }
    if (!scores) {
        fprintf(stderr, "usage: primlab-results SCORES [--labs 01,02] [--json FILE] [--extra FILE] [--autolab] [--check] [--dry]\n"
                        "                       [--csv-row NAME | --csv-max NAME] | SCORES --fault LAB | SCORES --subtotals\n");
        return 2;
    }
    pl_scores s = {0};
    if (pl_scores_read(&s, scores) != 0) {
        fprintf(stderr, "primlab-results: cannot read '%s': %s\n", scores, strerror(errno));
        return 2;
    }
    const char *labs[64];
    int nlabs = 0;
    char *labs_copy = labs_arg ? strdup(labs_arg) : NULL, *save = NULL;
    for (char *t = labs_copy ? strtok_r(labs_copy, ",", &save) : NULL; t && nlabs < 64; t = strtok_r(NULL, ",", &save))
        labs[nlabs++] = t;

    (void)check;
    const char *none = pl_scores_unscored(&s, dry);
    if (json) {
        size_t extra_len;
        char *extra_text = extra ? pl_read_file(extra, &extra_len, NULL) : NULL;
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", json);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "primlab-results: cannot write '%s': %s\n", tmp, strerror(errno));
            return 2;
        }
        if (none)
            pl_write_gradescope_not_run(f, &s, extra_text, none);
        else
            pl_write_gradescope(f, &s, extra_text);
        if (fclose(f) != 0 || rename(tmp, json) != 0) {
            fprintf(stderr, "primlab-results: cannot write '%s': %s\n", json, strerror(errno));
            return 2;
        }
        free(extra_text);
    }
    int rc = pl_scores_full(&s) ? 0 : 1;
    if (fault) {
        char line[512];
        pl_machine_fault(&s, fault, line, sizeof line);
        printf("%s\n", line);
        rc = 0;
    } else if (subtotals) {
        if (!none)
            pl_write_subtotals(stdout, &s);
        rc = 0;
    } else if (csv && none) {
        pl_write_gradebook_blank(stdout, csv, nlabs);
    } else if (csv) {
        pl_write_gradebook_row(stdout, &s, csv, labs, nlabs);
    } else if (csv_max) {
        pl_write_gradebook_max(stdout, &s, csv_max, labs, nlabs);
        rc = 0;
    } else {
        if (none)
            pl_write_no_score_line(stdout, none);
        else
            pl_write_score_line(stdout, &s, 0);
        if (autolab && none) {
            printf("check: %s\n", PL_AUTOLAB_REFUSED);
            rc = 3;
        } else if (autolab) {
            pl_write_autolab(stdout, &s, labs, nlabs);
        }
    }
    pl_scores_free(&s);
    free(labs_copy);
    return rc;
}
