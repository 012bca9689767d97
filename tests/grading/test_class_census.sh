#!/usr/bin/env bash
# tests/grading/test_class_census.sh [GRADES]: the class report's bug-class census
# against a class whose bugs are known. The class: every planted submission
# of tests/fixtures/plants that names its bug classes (a `bugs` line; tests/gpu/plant.sh
# bugs lists them), the instructor's solution and the untouched stub of
# every lab, graded by one `make grade` (the grading kit, the sandbox, a
# GPU) and reported by build/primlab-report. Then, from the scores rows
# (their bugs and cause columns, never a reason's words) and the report:
#   - each plant's rows name each class its table line names (NOBUILD: its
#     lab does not compile), and report.md's census lists the plant under
#     that class;
#   - the solution has full marks and no class at all; the stub is
#     counted under not_implemented.
# Prints one line per check, `N passed, N failed`; exits 1 on a failure,
# 77 without a GPU (nothing to grade then; a dry run would name no class).
# GRADES (default: a scratch folder, removed) keeps the class's results.
# Several minutes on one H100 (about 20 students, each graded on its lab).
# tier: slow (about 20 planted students graded on a GPU; make test-slow runs it, with a GPU)
set -u
cd "$(dirname "$0")/../.." || exit 2
[ -d solutions ] || { echo "SKIP: needs solutions/ (the solution is a student here)"; exit 77; }
build/labs/lab01 info >/dev/null 2>&1 || make -s --no-print-directory build/labs/lab01 build/labs/lab01-worker >/dev/null 2>&1
if [ "${PRIMLAB_NO_GPU:-0}" = 1 ] || ! build/labs/lab01 info >/dev/null 2>&1; then
    echo "SKIP: no GPU (build/labs/lab01 info fails): the census needs tests that run"
    exit 77
fi
# make test-slow runs the other grading suites beside this one, in the
# same kit: wait for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=${GRADE_LOCK_WAIT:-900}
t=$(mktemp -d /tmp/primlab-census.XXXXXX) || exit 2
trap 'rm -rf "$t"' EXIT
out=${1:-$t/grades}
out=$(realpath -m "$out")
pass=0 fail=0
ok() { printf 'OK    %s\n' "$*"; pass=$((pass + 1)); }
bad() { printf 'FAIL  %s\n' "$*"; fail=$((fail + 1)); }

# ------------------------------------------------------------- the class
tests/gpu/plant.sh bugs 01 04 05 06 07 08 >"$t/bugs.tsv" || { echo "tests/gpu/plant.sh bugs failed" >&2; exit 2; }
mapfile -t plants < <(cut -f 1 "$t/bugs.tsv")
tests/gpu/plant.sh make "$t/subs" "${plants[@]}" >/dev/null || { echo "tests/gpu/plant.sh make failed" >&2; exit 2; }
mkdir -p "$t/subs/solution" "$t/subs/stub"
for d in $(harness/lab-dirs.sh); do
    d=$(basename "$d")
    cp -r "solutions/$d" "$t/subs/solution/" && cp -r "labs/$d" "$t/subs/stub/" || exit 2
done
n=$(ls "$t/subs" | wc -l)
echo "grading $n students (${#plants[@]} planted, the solution, the stub) into $out"
start=$(date +%s)
PRIMLAB_LIMITS=0 PRIMLAB_TIMEOUT=${PRIMLAB_TIMEOUT:-10} make -s --no-print-directory grade \
    SUBMISSIONS="$t/subs" GRADES="$out" JOBS=1 >"$t/grade.log" 2>&1
rc=$?
echo "make grade: status $rc, $(($(date +%s) - start)) s; $(tail -n 1 "$t/grade.log")"
[ -s "$out/report.md" ] && ok "make grade wrote the class report" || bad "no $out/report.md: $(grep -m 1 'report' "$t/grade.log")"

# The classes a student's rows name (bugs column, comma-separated), and
# NOBUILD / MISSING from the cause column, one a line.
classes() {
    awk -F '\t' '!/^#/ { n = split($13, b, ","); for (i = 1; i <= n; i++) if (b[i] != "") print b[i];
                         if ($12 == "NOBUILD") print "NOBUILD" }' "$out/$1/scores.tsv" 2>/dev/null | sort -u
}
# The census line of a class in report.md names the student.
in_census() { grep -E "(^|[^a-z_])$1([^a-z_]|$)" "$out/report.md" | grep -qF -- "$2"; }

while IFS=$'\t' read -r plant want; do
    who=${plant#*.}
    have=$(classes "$who")
    for c in $want; do
        if ! grep -qx -- "$c" <<<"$have"; then
            bad "$plant: its rows lack $c (they name: $(paste -sd ' ' <<<"$have"))"
        elif [ "$c" != NOBUILD ] && ! in_census "$c" "$who"; then
            bad "$plant: report.md's census does not list it under $c"
        else
            ok "$plant: $c, in its rows and the census"
        fi
    done
    extra=$(grep -vxF -f <(tr ' ' '\n' <<<"$want") <<<"$have" | paste -sd ' ')
    [ -z "$extra" ] || echo "      $plant also: $extra"
done <"$t/bugs.tsv"

sol=$(classes solution)
read -r got max < <(build/primlab-results "$out/solution/scores.tsv" --subtotals 2>/dev/null |
    awk '{ split($NF, a, "/"); g += a[1]; m += a[2] } END { print g + 0, m + 0 }')
[ -z "$sol" ] && [ "$got" = "$max" ] && [ "$max" != 0 ] && ok "solution: $got/$max, no class" ||
    bad "solution: $got/$max, classes: $(paste -sd ' ' <<<"$sol")"
stub=$(classes stub)
grep -qx not_implemented <<<"$stub" && ok "stub: not_implemented ($(paste -sd ' ' <<<"$stub"))" ||
    bad "stub: not_implemented missing ($(paste -sd ' ' <<<"$stub"))"

echo "report: $out/report.html, $out/report.md"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
