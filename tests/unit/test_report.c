/* tests/unit/test_report.c: Check tests of the benchmark rows
 * (harness/parent/report.h): the TSV header and rows, roofs (the device's
 * and the algorithm's), the table. */
#define _GNU_SOURCE
#include "../../harness/parent/report.h"
#include "../lib/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ tsv */

START_TEST(tsv_header_and_row)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    pl_tsv_begin(f, "Test GPU", NULL, 3000.0, NAN, "measured", "# alg_c: 3n words: twice read, once written\n");
    /* 3n words of 2^20 elements (12 MiB) at 3000 GB/s: 4.194 us, 0.839 % of 0.5 ms */
    pl_row r = {"01", "c", "solution", "Test GPU", 1048576, 20, 0.5, 16.777, 0.559, 3000.0, 10.0, NAN, 0.25, NAN,
                "copy", 3000.0, 0.559, NAN, NULL, 12.0 * 1048576};
    pl_tsv_row(f, &r);
    fclose(f);
    /* the driver's line comes between, on a machine that has a driver */
    char driver[64], want[160];
    if (pl_driver_version("/proc/driver/nvidia/version", driver, sizeof driver))
        snprintf(want, sizeof want, "# device: Test GPU\n# driver: %s\n# copy_gbps: 3000.0\n", driver);
    else
        snprintf(want, sizeof want, "# device: Test GPU\n# copy_gbps: 3000.0\n");
    ck_assert_ptr_nonnull(strstr(buf, want));
    /* the notes after the metadata, before the columns */
    ck_assert_ptr_nonnull(strstr(buf, "# source: measured\n# alg_c: 3n words: twice read, once written\nlab\t"));
    ck_assert_ptr_nonnull(strstr(buf, "\nlab\tpart\tvariant\tn\treps\ttime_ms\tgbps\tpct_copy\tcopy_gbps\t"
                                      "x_serial\tx_omp\tx_vendor\tdevice\tparam\troof\troof_gbps\tpct_roof\tgflops\tparam_label\t"
                                      "alg_bytes\tpct_alg\n"));
    ck_assert_ptr_null(strstr(buf, "smem_gbps")); /* not measured: no line */
    ck_assert_ptr_null(strstr(buf, "# vendor")); /* not known: no line */
    const char *row = strstr(buf, "\n01\t");
    ck_assert_ptr_nonnull(row);
    ck_assert_str_eq(row + 1, "01\tc\tsolution\t1048576\t20\t0.500000\t16.78\t0.56\t3000.0\t10.000\tnan\t0.250\tTest GPU\t"
                              "nan\tcopy\t3000.0\t0.56\tnan\tnan\t12582912\t0.84\n");
    /* every data line has the header's 21 fields */
    int tabs = 0;
    for (const char *p = row + 1; *p && *p != '\n'; p++)
        tabs += *p == '\t';
    ck_assert_int_eq(tabs, 20);
    free(buf);
    /* a shared-memory row: its roof, the measured peak in the header, no
       fraction of copy; a CPU row: no roof */
    f = open_memstream(&buf, &len);
    pl_tsv_begin(f, "Test GPU", "CCCL 3.0.1", 3000.0, 30000.0, "measured", NULL);
    pl_row sm = {"03", "a4", "solution", "Test GPU", 1, 10, 0.05, 21000.0, NAN, 3000.0, 70.0, NAN, NAN, NAN,
                 "smem", 30000.0, 70.0, NAN, NULL, 0};
    pl_tsv_row(f, &sm);
    pl_row cpu = {"03", "a4", "cpu_serial", "Test GPU", 1, 10, 3.5, 300.0, NAN, 3000.0, 1.0, NAN, NAN, NAN, NULL, NAN, NAN, NAN,
                  NULL, 0};
    pl_tsv_row(f, &cpu);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "# copy_gbps: 3000.0\n# smem_gbps: 30000.0\n"));
    ck_assert_ptr_nonnull(strstr(buf, "# device: Test GPU\n# vendor: CCCL 3.0.1\n"));
    ck_assert_ptr_nonnull(strstr(buf, "# source: measured\nlab\t")); /* no notes */
    /* no algorithm's bytes stated: nan, nan */
    ck_assert_ptr_nonnull(strstr(buf, "\tnan\tsmem\t30000.0\t70.00\tnan\tnan\tnan\tnan\n"));
    ck_assert_ptr_nonnull(strstr(buf, "cpu_serial\t1\t10\t3.500000\t300.00\tnan\t3000.0\t1.000\tnan\tnan\tTest GPU\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tnan\n"));
    free(buf);
    /* the table names each row's roof, and its algorithm's beside it */
    f = open_memstream(&buf, &len);
    pl_table_begin(f, NULL);
    pl_table_row(f, &sm);
    pl_table_row(f, &r);
    pl_table_row(f, &cpu);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "% of roof"));
    ck_assert_ptr_nonnull(strstr(buf, "% alg roof"));
    ck_assert_ptr_nonnull(strstr(buf, "70.0% smem          -"));
    ck_assert_ptr_nonnull(strstr(buf, "0.6% copy       0.8%"));
    /* the columns line up: every line as long as the header, up to param */
    char *line = buf, *nl;
    size_t width = 0;
    while ((nl = strchr(line, '\n'))) {
        size_t w = (size_t)(nl - line);
        if (!width)
            width = w;
        ck_assert_uint_eq(w, width);
        line = nl + 1;
    }
    free(buf);
}
END_TEST

/* The driver's version from both modules' wording; none from a file
   without one, or no file. */
START_TEST(driver_version_line)
{
    static const char *const lines[] = {
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U16)  "
        "Thu Oct 30 2025\n",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n",
        "something else entirely\n"};
    static const char *const want[] = {"580.159.04", "535.104.05", NULL};
    char path[] = "/tmp/primlab-nvver-XXXXXX", v[64];
    for (int k = 0; k < 3; k++) {
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        FILE *f = fdopen(fd, "w");
        fputs(lines[k], f);
        fclose(f);
        int got = pl_driver_version(path, v, sizeof v);
        ck_assert_int_eq(got, want[k] != NULL);
        if (want[k])
            ck_assert_str_eq(v, want[k]);
        unlink(path);
        strcpy(path, "/tmp/primlab-nvver-XXXXXX");
    }
    ck_assert_int_eq(pl_driver_version("/nonexistent/version", v, sizeof v), 0);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("report");
    TCase *t;
    t = tcase_create("report");
    tcase_add_test(t, tsv_header_and_row);
    tcase_add_test(t, driver_version_line);
    suite_add_tcase(s, t);
    return s;
}
