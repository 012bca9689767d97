#!/usr/bin/env bash
# tests/grading/test_feedback.sh: what a student is handed back, and the one answer
# without a GPU:
#   1. harness/student_paths.py, the one function that takes the grader's
#      paths out of feedback, on a table of lines (nvcc, ptxas, nvlink, ld,
#      the lab binaries' and check.sh's own), and on a scores file;
#   2. a dry-run class (PRIMLAB_NO_GPU=1, as tests/grading/test_grading.sh makes
#      one): alice (lab 01's stub and a notes file), bob (lab 01 that does
#      not compile), carol (lab 01 calling a __device__ function that no
#      file defines: nvlink's error); each report.txt lists the files graded
#      and ignored; a compiler message names only the student's file; no
#      score anywhere: report.txt, the summary under the student's name, the
#      gradebook (blank cells) and results.json (no score, no scored test);
#   3. make check of bob's folder without a GPU: the same answer;
#   4. make feedback: GRADES/feedback/<student>/ and <student>.zip for each
#      graded student, a line for one with no results, and no file (nor a
#      member of a .zip) naming the kit's absolute path, GRADES, /build/,
#      /stage/, /tmp/ or $HOME;
#   5. the grading machine checked first: with an nvidia-smi that lists no
#      GPU and no PRIMLAB_NO_GPU, make grade says so in one line for the
#      instructor, exits 3, records nothing (no GRADES folder) and builds
#      nothing (make and nvcc never run).
# Needs bubblewrap (make grade does) for 2 to 4, else SKIP.
set -u
cd "$(dirname "$0")/../.." || exit 2
unset PRIMLAB_SEED CUDA_VISIBLE_DEVICES PRIMLAB_GPUS
export PRIMLAB_LIMITS=0 GRADE_LOCK_WAIT=900
. tests/lib/verdict.sh # say, verdict, finish
t=$(mktemp -d /tmp/primlab-feedback.XXXXXX) || exit 2
trap '[ -n "${KEEP:-}" ] && echo "kept: $t" || rm -rf "$t"' EXIT
kit=$PWD

# ---------------------------------------------------------------- 1
# (the student's lines, in a grading tree and in make check of labs/)
if python3 - >"$t/1.log" 2>&1 <<'PY'; then say OK "student_paths: each line as the student may read it"; else
import sys
sys.path.insert(0, "harness")
from student_paths import student_text, scores_text

K = "/srv/kit/build/grade-kit"
T = "/g/.work/bob.Ab12Cd/labs"
S = K + "/build/impl--g-.work-bob.Ab12Cd-labs/stage/01-prefix-sum"
labs = {"01-prefix-sum": {"prefix_sum.h"}}
cases = [  # (text, impl, want)
    (S + "/prefix_sum.cu(107): error: expected an expression", T,
     "01-prefix-sum/prefix_sum.cu(107): error: expected an expression"),
    ('1 error detected in the compilation of "' + S + '/prefix_sum.cu".', T,
     '1 error detected in the compilation of "01-prefix-sum/prefix_sum.cu".'),
    ("In file included from " + S + "/prefix_sum.h:3,", T, "In file included from labs/01-prefix-sum/prefix_sum.h:3,"),
    (S + "/sub/util.cuh(4): error: x", T, "01-prefix-sum/sub/util.cuh(4): error: x"),
    ("lab02: '" + T + "/02-blelloch-scan/blelloch_scan.cu' is missing", T,
     "lab02: '02-blelloch-scan/blelloch_scan.cu' is missing"),
    ("ptxas fatal   : Unresolved extern function '_Z1fv' in /tmp/primlab-cc-x1/obj/parts/0-a.o", T,
     "ptxas fatal   : Unresolved extern function '_Z1fv' in 0-a.o"),
    ("nvlink error   : Undefined reference to '_Z1gv' in '" + K + "/build/impl--g-labs/obj/01-prefix-sum/p.files/parts/0-p.o'",
     T, "nvlink error   : Undefined reference to '_Z1gv' in '01-prefix-sum/p.o'"),
    ("/usr/bin/ld: build/impl--g-labs/obj/01-prefix-sum/prefix_sum.o: in function `f':", T,
     "/usr/bin/ld: 01-prefix-sum/prefix_sum.o: in function `f':"),
    ("/usr/local/cuda/include/cuda_runtime.h(9): warning", T, "/usr/local/cuda/include/cuda_runtime.h(9): warning"),
    ("the worker (" + K + "/build/impl--g-labs/lab01-worker) crashed; see " + K + "/harness/worker/worker.cu:7", T,
     "the worker (lab01-worker) crashed; see harness/worker/worker.cu:7"),
    ("bwrap: Can't find source path /home/ta/grades/x: No such file or directory", T,
     "bwrap: Can't find source path x: No such file or directory"),
    ("lab01 subtotal: 0/50 and 3/4 tests, n = 0/1", T, "lab01 subtotal: 0/50 and 3/4 tests, n = 0/1"),
    ("timed out after 10 s in /tmp/tmpxft_0001-6_prefix_sum.cudafe1.cpp", T,
     "timed out after 10 s in tmpxft_0001-6_prefix_sum.cudafe1.cpp"),
    ("build/labs/stage/01-prefix-sum/prefix_sum.cu(3): error", "labs", "labs/01-prefix-sum/prefix_sum.cu(3): error"),
    # the line to run one failing test again names the lab binary as the
    # student's own make check builds it
    ("alone: make && build/impl--g-.work-bob.Ab12Cd-labs/lab01 check --part b --n 1", T,
     "alone: make && build/labs/lab01 check --part b --n 1"),
    ("alone: make && compute-sanitizer build/labs/lab01 check --part b --n 1", "labs",
     "alone: make && compute-sanitizer build/labs/lab01 check --part b --n 1"),
]
bad = 0
for text, impl, want in cases:
    got = student_text(text, K, impl, labs)
    if got != want:
        print("got  %r\nwant %r" % (got, want))
        bad = 1
row = "01\tlab 01\tcorrectness\t0\tNOBUILD\t0\t50\t0\t\t" + S + "/prefix_sum.cu: x\\nin " + T + "/a.cu\t\tNOBUILD\t\t\n"
got = scores_text(row, lambda x: student_text(x, K, T, labs))
want = "01\tlab 01\tcorrectness\t0\tNOBUILD\t0\t50\t0\t\t01-prefix-sum/prefix_sum.cu: x\\nin a.cu\t\tNOBUILD\t\t\n"
if got != want:
    print("scores: got  %r\n        want %r" % (got, want))
    bad = 1
sys.exit(bad)
PY
    say FAIL "student_paths: each line as the student may read it" "$(head -n 6 "$t/1.log" | paste -sd ' ')"
fi

# ---------------------------------------------------------------- 5
# (nothing built: make and nvcc, shims first on PATH, log any call; build/
# itself is not compared, since make test runs other suites that build
# beside this one)
mkdir -p "$t/fakegpu" "$t/subs5/ann/01-prefix-sum"
cp labs/01-prefix-sum/prefix_sum.cu "$t/subs5/ann/01-prefix-sum/"
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$t/fakegpu/nvidia-smi"
for tool in make nvcc; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$tool" "$t/built" >"$t/fakegpu/$tool"
done
chmod +x "$t/fakegpu"/*
PATH=$t/fakegpu:$PATH env -u PRIMLAB_NO_GPU harness/grade.sh "$t/subs5" "$t/g5" >"$t/5.log" 2>&1
rc=$?
p=""
[ $rc = 3 ] || p="$p; exit status $rc, not 3"
[ "$(grep -c . "$t/5.log")" = 1 ] || p="$p; not one line"
grep -qx "grade: no GPU is visible on this machine (nvidia-smi lists none: No devices were found): nobody graded. Run on a GPU node, or PRIMLAB_NO_GPU=1 for a practice run with no scores." "$t/5.log" ||
    p="$p; not the instructor's line"
[ ! -e "$t/g5" ] || p="$p; the grades folder was made"
[ ! -e "$t/built" ] || p="$p; built: $(head -n 1 "$t/built")"
verdict "grade: no GPU listed, no PRIMLAB_NO_GPU: one line for the instructor, status 3, nothing built or recorded" "$p" "$t/5.log"

if ! command -v bwrap >/dev/null || ! bwrap --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null; then
    say SKIP "a dry-run class, make check and make feedback" "no working bubblewrap here: make grade needs it"
    finish
fi

# ---------------------------------------------------------------- 2
export PRIMLAB_NO_GPU=1
s=$t/subs g=$t/grades l1=01-prefix-sum
mkdir -p "$s/alice/$l1" "$s/bob" "$s/carol/$l1"
cp labs/$l1/prefix_sum.cu "$s/alice/$l1/"
echo "my notes" >"$s/alice/NOTES.txt"
printf '#include "prefix_sum.h"\nint oops = ;\n' >"$s/bob/prefix_sum.cu"
{ cat labs/$l1/prefix_sum.cu
  printf '__device__ int helper(int x);\n__global__ void use_helper(int *p) { p[0] = helper(p[0]); }\n'
} >"$s/carol/$l1/prefix_sum.cu"
printf '// helper() was meant to be here\n__device__ int other(int x) { return x; }\n' >"$s/carol/$l1/helper.cu"
make -s --no-print-directory grade SUBMISSIONS="$s" GRADES="$g" >"$t/grade.log" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^graded 3, skipped 0" "$t/grade.log" && say OK "make grade: a dry-run class of 3 graded" ||
    { say FAIL "make grade: status $rc" "$(tail -n 1 "$t/grade.log")"; tail -n 8 "$t/grade.log"; finish; }

p=""
grep -qx "graded: 01-prefix-sum/prefix_sum.cu" "$g/alice/report.txt" || p="$p; alice: no 'graded:' line"
grep -qx "ignored (only the lab files are graded):" "$g/alice/report.txt" && grep -qx "  NOTES.txt" "$g/alice/report.txt" ||
    p="$p; alice: NOTES.txt not listed as ignored"
grep -qx "graded: prefix_sum.cu" "$g/bob/report.txt" || p="$p; bob: no 'graded:' line"
grep -q "^graded: .*01-prefix-sum/helper.cu" "$g/carol/report.txt" || p="$p; carol: helper.cu not listed as graded"
verdict "report.txt names the files graded and ignored" "$p" "$g/alice/report.txt"

p=""
grep -qE '^    01-prefix-sum/prefix_sum\.cu\(2\): error: ' "$g/bob/report.txt" ||
    p="$p; bob: no '01-prefix-sum/prefix_sum.cu(2): error' line"
grep -qE '^   +01-prefix-sum/prefix_sum\.cu\(2\): error: ' <(sed -n '/^== bob$/,/^--/p' "$t/grade.log") ||
    p="$p; bob's summary does not name his file"
grep -qiE 'nvlink.*helper|helper.*undefined|undefined.*helper' "$g/carol/report.txt" || p="$p; carol: no nvlink error"
verdict "compiler messages name the student's file (nvcc, nvlink)" "$p" "$g/bob/report.txt"

# leaks FILE...: the lines of FILEs naming a grader's path
leaks() {
    grep -HnE -e "$kit" -e "$g" -e "$t" -e '/build/' -e '/stage/' -e '/tmp/' ${HOME:+-e "$HOME/"} "$@" 2>/dev/null
}
sed -n '/^== /,/^-- /p' "$t/grade.log" | grep -v '^   graded on ' >"$t/summaries.txt"
found=$(leaks "$g"/{alice,bob,carol}/{report.txt,results.json,scores.tsv} "$t/summaries.txt" | head -n 5)
verdict "no grader's path in the published files nor the summaries" "${found:+; $found}"

# the one answer without a GPU
p=""
for who in alice bob carol; do
    grep -qx "Score: none, no test could run on this machine: no GPU (PRIMLAB_NO_GPU is set)" "$g/$who/report.txt" ||
        p="$p; $who: report.txt's Score line: $(grep -m 1 '^Score' "$g/$who/report.txt")"
    grep -qE 'subtotal: [0-9]|: 0 points' "$g/$who/report.txt" && p="$p; $who: points in report.txt"
done
summary_scores=$(grep -E '^   Score: ' "$t/grade.log" | sort -u)
[ "$summary_scores" = "   Score: none, no test could run on this machine: no GPU (PRIMLAB_NO_GPU is set)" ] ||
    p="$p; the summaries' Score lines: $(paste -sd '|' <<<"$summary_scores")"
grep -qE '^   .*(subtotal: [0-9]|[0-9]/[0-9])' "$t/grade.log" && p="$p; points in a summary"
# the students' rows blank; the Points Possible row is the tables' maxima
[ "$(tail -n +2 "$g/gradebook.csv" | grep -v '^Points Possible,' | cut -d, -f 2- | tr -d ',\n')" = "" ] ||
    p="$p; gradebook cells not blank: $(tail -n +2 "$g/gradebook.csv" | grep -v '^Points Possible,' | paste -sd ' ')"
python3 - "$g" >"$t/json.log" 2>&1 <<'PY' || p="$p; results.json: $(head -n 1 "$t/json.log")"
import json, os, sys
for who in ("alice", "bob", "carol"):
    r = json.load(open(os.path.join(sys.argv[1], who, "results.json")))
    assert "score" not in r, (who, "a score", r["score"])
    assert not any("score" in x for x in r["tests"]), (who, "a scored test")
    assert r["output"].startswith("No score: the tests did not run on the grading machine: no GPU"), (who, r["output"])
bob = json.load(open(os.path.join(sys.argv[1], "bob", "results.json")))["output"]
assert "lab01: 01-prefix-sum/prefix_sum.cu: does not compile" in bob, bob
PY
verdict "no GPU, one answer: report.txt, the summary, the gradebook (blank), results.json (no score)" "$p" "$t/grade.log"

# ---------------------------------------------------------------- 3
mkdir -p "$t/bob-check/$l1" && cp "$s/bob/prefix_sum.cu" "$t/bob-check/$l1/"
CHECK_OUT=$t/o3 harness/check.sh "$t/bob-check" 01 >"$t/3.log" 2>&1
p=""
grep -qx "Score: none, no test could run on this machine: no GPU (PRIMLAB_NO_GPU is set)" "$t/3.log" ||
    p="$p; Score line: $(grep -m 1 '^Score' "$t/3.log")"
grep -qE '^    01-prefix-sum/prefix_sum\.cu\(2\): error: ' "$t/3.log" || p="$p; the error does not name the file as '01-prefix-sum/prefix_sum.cu'"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit("score" in r or r["tests"] != [])' "$t/o3/results.json" ||
    p="$p; results.json has a score or tests"
found=$(leaks "$t/3.log" "$t/o3/results.json" "$t/o3/scores.tsv" | head -n 3)
verdict "make check without a GPU: no score, the file as the student knows it" "$p${found:+; $found}" "$t/3.log"

# ---------------------------------------------------------------- 4
printf 'zed\t2026-01-01T00:00:00Z\tthe grader stopped without a result\n' >"$g/.ungraded.tsv"
make -s --no-print-directory feedback GRADES="$g" >"$t/4.log" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="$p; exit status $rc"
grep -qx "feedback: zed: no results (not graded yet), skipped" "$t/4.log" || p="$p; no line skipping zed"
for who in alice bob carol; do
    for f in report.txt results.json; do
        [ -s "$g/feedback/$who/$f" ] || p="$p; no $who/$f"
    done
    python3 -c 'import sys, zipfile; n = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(sorted(n) != [sys.argv[2] + "/report.txt", sys.argv[2] + "/results.json"])' \
        "$g/feedback/$who.zip" "$who" 2>/dev/null || p="$p; $who.zip does not hold report.txt and results.json"
done
[ ! -e "$g/feedback/zed" ] || p="$p; a folder for zed"
verdict "make feedback: a folder and a .zip per graded student, a line for one with none" "$p" "$t/4.log"
# every file, and every member of each .zip, grepped
python3 - "$g/feedback" "$t/unzipped" <<'PY'
import os, sys, zipfile
for f in sorted(os.listdir(sys.argv[1])):
    if f.endswith(".zip"):
        zipfile.ZipFile(os.path.join(sys.argv[1], f)).extractall(os.path.join(sys.argv[2], f))
PY
mapfile -t files < <(find "$g/feedback" "$t/unzipped" -type f)
found=$(leaks "${files[@]}" | head -n 5)
[ ${#files[@]} -ge 12 ] || found="only ${#files[@]} files; $found"
verdict "make feedback: no file names the kit, GRADES, /build/, /stage/, /tmp/ or \$HOME (${#files[@]} files)" \
    "${found:+; $found}"
finish
