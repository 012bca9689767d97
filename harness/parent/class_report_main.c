/* harness/parent/class_report_main.c: build/primlab-report, the class
 * report of a grading folder (class_report.h; make report runs it).
 *
 *   primlab-report [--anon] [--reference SCORES] GRADES
 *
 * Writes GRADES/report.html (one page, readable offline and printable) and
 * GRADES/report.md. --anon shows every student under a pseudonym;
 * --reference gives the solution's scores (make check IMPL=solutions
 * writes build/solutions/scores.tsv), whose performance ratios the
 * report sets beside the class's. Status 2 for bad arguments or a GRADES
 * that cannot be read, 1 when a report cannot be written. Without gnuplot,
 * one warning and a page without figures.
 */
#include "class_report.h"

#include <stdio.h>
#include <string.h>

static int usage(const char *why, const char *arg)
{
    fprintf(stderr, "primlab-report: %s%s%s%s (usage: primlab-report [--anon] [--reference SCORES] GRADES)\n", why,
            arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return 2;
}

int main(int argc, char **argv)
{
    pl_report_opts o = {.gnuplot = "gnuplot", .warn = stderr};
    const char *grades = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--anon"))
            o.anon = 1;
        else if (!strcmp(argv[i], "--reference") && i + 1 < argc)
            o.reference = argv[++i];
        else if (!strcmp(argv[i], "--reference"))
            return usage("--reference needs a scores file", NULL);
        else if (argv[i][0] == '-' || grades)
            return usage("bad argument", argv[i]);
        else
            grades = argv[i];
    }
    if (!grades)
        return usage("no grading folder given", NULL);
    char err[1024];
    int rc = pl_class_report(grades, &o, err, sizeof err);
    if (rc)
        fprintf(stderr, "primlab-report: %s\n", err);
    return rc;
}
