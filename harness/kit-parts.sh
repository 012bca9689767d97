#!/bin/sh
# harness/kit-parts.sh ID...: the kit's own parts (no student code in them)
# that harness/check.sh needs to grade the labs ID... (01 02) in any
# folder, one make target a line: build/primlab-results, and each lab's
# table, parent object, worker core and yardstick's (vendor) worker. Built
# once before graders run side by side in one kit (harness/grade.sh's
# build_kit_parts, harness/serve/run-job.sh), so that two of them never
# build the same file at once; each grader then only reads them.
echo build/primlab-results
for id in "$@"; do
    printf '%s\n' "build/tables/lab$id" "build/vendor/lab$id-worker" "build/obj/worker/lab$id-core.o" \
        "build/obj/harness/parent/labs/lab$id.o"
done
