/* harness/parent/results.h: grading results: read the per-test scores that lab
 * binaries append (TSV), and write what course tools read: a Gradescope
 * results.json, the Autolab scores line, a gradebook row.
 *
 * Scores TSV, one row per graded test (text fields escaped with
 * pl_tsv_escape): lab, name, kind (correctness|performance), hidden (0|1),
 * status (OK|FAIL|ERROR|CRASH|TIMEOUT|SKIP|NOBUILD|MISSING), points, max,
 * seconds, value (a performance test's ratio, or empty), reason, detail.
 */
#ifndef PRIMLAB_RESULTS_H
#define PRIMLAB_RESULTS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_score {
    char lab[8], kind[16], status[12];
    char name[128], value[32];
    char *reason, *detail; /* unescaped, owned */
    int hidden;
    double points, max, seconds;
} pl_score;

typedef struct pl_scores {
    pl_score *rows;
    int n, cap;
} pl_scores;

/* Appends the rows of a scores file; returns 0, or -1 with errno. */
int pl_scores_read(pl_scores *s, const char *path);
void pl_scores_free(pl_scores *s);
/* Sum of points and of max over rows of lab (NULL: all labs). */
void pl_scores_total(const pl_scores *s, const char *lab, double *got, double *max);

/* Gradescope's results.json. extra: text added to the top-level output
   (e.g. the files of a submission that were ignored), or NULL. */
void pl_write_gradescope(FILE *f, const pl_scores *s, const char *extra);
/* {"scores": {"Lab01": x, ...}, "scoreboard": [total, lab01, ...]} */
void pl_write_autolab(FILE *f, const pl_scores *s, const char *const *labs, int nlabs);

void pl_json_string(FILE *f, const char *text);

/* Points for people: "3", "0.55", "30.12" (a static buffer per slot 0..3). */
const char *pl_points_str(double v, int slot);

#ifdef __cplusplus
}
#endif

#endif
