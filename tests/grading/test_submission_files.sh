#!/usr/bin/env bash
# tests/grading/test_submission_files.sh: a lab submitted as several files, as
# students split their code (a .cu of kernels, a header, helpers in
# subfolders), is staged, compiled in the sandbox and linked into the lab's
# worker, by `make check IMPL=dir` and by `make grade` alike:
#   1. harness/stage-submission.sh's manifest: what is compiled, what is a
#      header, what is left out and why (a changed copy of the contract, a
#      link, an odd name); the stage is not touched when nothing changed;
#   2. lab 01's solution split in three (tests/lib/split_kernels.awk: the stub's
#      file with the host code, kernels.cu, kernels.cuh) builds into one
#      object and a worker (device code of two files, so -rdc and a device
#      link), and so does a submission whose kernel calls a __device__
#      function of another file, with a static name in two files;
#   3. make check IMPL=dir names every file compiled and every one ignored;
#      a lab that does not build says so in one line, never "compiled"
#      first: the file with errors and those that compiled, or that they
#      all compiled and the link failed;
#   4. make grade takes a lab's other files from a folder, a .tar.gz in a
#      subfolder, and a flat folder shared by two labs (headers taken, the
#      other .cu not: no lab's); the report names them;
#   5. on a GPU: the split solution scores full marks through make check
#      and make grade.
# Without solutions/ (the handout) 2's split and 5 are skipped; without a
# bwrap that starts, 2-5 are (every student build is sandboxed).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
export GRADE_LOCK_WAIT=900 PRIMLAB_LIMITS=0
unset PRIMLAB_SEED
t=$(mktemp -d)
trap 'rm -rf "$t" build/impl-"${t//\//-}"-*' EXIT
tag() { echo "impl-${1//\//-}"; }
lab=01-prefix-sum

# ---------------------------------------------------------------- 1
s=$t/stage-src/$lab
mkdir -p "$s/sub" "$s/deep/a/b/c"
cp labs/$lab/prefix_sum.cu labs/$lab/prefix_sum.h "$s/"
echo '__device__ int twice(int x) { return 2 * x; }' >"$s/more.cu"
echo '#pragma once' >"$s/kernels.cuh"
echo '#define SUB 1' >"$s/sub/util.h"
echo '/* changed */' >"$s/sub/prefix_sum.h"
echo '#define DEEP 1' >"$s/deep/a/b/c/too_deep.h"
echo x >"$s/we ird.cu"
echo notes >"$s/notes.txt"
ln -s more.cu "$s/link.cu"
echo x >"$s/"$'x\ncompile\tevil.cu' # a name that would forge a line of the manifest
harness/stage-submission.sh "$s" labs/$lab "$t/stage" >"$t/stage.log" 2>&1
printf 'compile\tprefix_sum.cu\ncompile\tmore.cu\nheader\tkernels.cuh\nheader\tsub/util.h\n' >"$t/want"
printf 'ignored\tdeep/a/b/c/too_deep.h\tdeeper than 4 folders\n' >>"$t/want"
printf 'ignored\tlink.cu\ta symbolic link: only regular files are compiled\n' >>"$t/want"
printf "ignored\tsub/prefix_sum.h\tthe kit's own contract header is used, not this copy of it\n" >>"$t/want"
printf 'ignored\twe ird.cu\tits name has characters other than letters, digits and _ . + - (or starts with . or -)\n' >>"$t/want"
printf 'ignored\tx?compile?evil.cu\tits name has characters other than letters, digits and _ . + - (or starts with . or -)\n' >>"$t/want"
verdict "stage: the manifest lists what is compiled, the headers, and what is left out with why" \
    "$(diff "$t/want" "$t/stage/.manifest" | sed 's/^/; /' | tr -d '\n')" "$t/stage.log"
problems=""
cmp -s labs/$lab/prefix_sum.h "$t/stage/prefix_sum.h" || problems+="; the stage's contract is not the kit's"
[ -e "$t/stage/notes.txt" ] && problems+="; notes.txt was staged"
[ -e "$t/stage/link.cu" ] && problems+="; the link was staged"
[ -e "$t/stage/sub/prefix_sum.h" ] && problems+="; the copy of the contract was staged"
verdict "stage: the kit's contract beside the student's sources, nothing else" "$problems"
touch -d '2000-01-01' "$t/stage/.manifest"
harness/stage-submission.sh "$s" labs/$lab "$t/stage"
problems=""
[ "$(stat -c %Y "$t/stage/.manifest")" = "$(date -d 2000-01-01 +%s)" ] || problems+="; restaged with nothing changed"
echo '#define SUB 2' >"$s/sub/util.h"
harness/stage-submission.sh "$s" labs/$lab "$t/stage"
[ "$(stat -c %Y "$t/stage/.manifest")" = "$(date -d 2000-01-01 +%s)" ] && problems+="; a changed header left the stage as it was"
grep -q 'SUB 2' "$t/stage/sub/util.h" || problems+="; the changed header is not in the stage"
verdict "stage: replaced only when what it holds changes" "$problems"
rm "$s/prefix_sum.cu"
harness/stage-submission.sh "$s" labs/$lab "$t/stage2" >"$t/stage2.log" 2>&1
rc=$?
problems=""
[ $rc = 2 ] || problems+="; status $rc, not 2"
grep -qx "stage-submission: '$s/prefix_sum.cu' is missing" "$t/stage2.log" || problems+="; not the one line"
verdict "stage: a folder without the lab's own file is refused in one line" "$problems" "$t/stage2.log"

# ---------------------------------------------------------------- 2
if ! bwrap --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null; then
    say SKIP "several files built and graded" "bwrap is missing or cannot start a sandbox here"
    finish
fi
# split SOLUTION DIR: DIR/<lab>/ holds SOLUTION split into three files
split() {
    local d=$2/$lab
    mkdir -p "$d" && (cd "$d" && awk -v K=k.cu -v H=kernels.cuh -v M=m.cu -f "$OLDPWD/tests/lib/split_kernels.awk" "$OLDPWD/$1") &&
        { echo '#include "kernels.cuh"'; cat "$d/m.cu"; } >"$d/prefix_sum.cu" &&
        { echo '#include "kernels.cuh"'; cat "$d/k.cu"; } >"$d/kernels.cu" && rm "$d/m.cu" "$d/k.cu" &&
        sed -i '1i #pragma once' "$d/kernels.cuh"
}
have_sol=0
[ -f solutions/$lab/prefix_sum.cu ] && have_sol=1
if [ $have_sol = 1 ]; then
    split solutions/$lab/prefix_sum.cu "$t/split"
    make -s --no-print-directory IMPL="$t/split" "build/$(tag "$t/split")/lab01-worker" >"$t/split.log" 2>&1
    problems=""
    [ -x "build/$(tag "$t/split")/lab01-worker" ] || problems+="; no worker"
    obj=build/$(tag "$t/split")/obj/$lab/prefix_sum.o
    syms=$(nm -C "$obj" 2>/dev/null | awk '$2 == "T" { sub(/\(.*/, "", $3); print $3 }')
    for f in scan_inclusive scan_exclusive scan_k1_block add_k2_block_sums; do
        grep -qx "$f" <<<"$syms" || problems+="; $f is not in the object"
    done
    grep -q "__global__" "$t/split/$lab/prefix_sum.cu" && problems+="; the split left a kernel in prefix_sum.cu"
    verdict "the solution split in three: one object with the host code and both kernels, and a worker" \
        "$problems" "$t/split.log"
else
    say SKIP "the solution split in three" "no solutions/ here (the handout)"
fi
# a kernel that calls a __device__ function of another file, and a static
# helper of the same name in two files
r=$t/rdc/$lab
mkdir -p "$r"
cat >"$r/helpers.cuh" <<'EOF'
#pragma once
__device__ int twice(int x);
EOF
cat >"$r/helpers.cu" <<'EOF'
#include "helpers.cuh"
static __device__ int clash(void) { return 2; }
__device__ int twice(int x) { return clash() * x / 2; }
EOF
{
    echo '#include "helpers.cuh"'
    echo 'static int clash(void) { return 1; }'
    echo '__global__ void doubled(const int *in, int *out, int n) { int i = threadIdx.x; if (i < n) out[i] = twice(in[i]); }'
    sed 's|^    (void)d_in, (void)d_out, (void)n;$|    doubled<<<1, 1024>>>(d_in, d_out, n + clash() - 1);|' labs/$lab/prefix_sum.cu
} >"$r/prefix_sum.cu"
make -s --no-print-directory IMPL="$t/rdc" "build/$(tag "$t/rdc")/lab01-worker" >"$t/rdc.log" 2>&1
problems=""
[ -x "build/$(tag "$t/rdc")/lab01-worker" ] || problems+="; no worker"
grep -q 'doubled<<<' "$r/prefix_sum.cu" || problems+="; the fixture did not launch its kernel"
verdict "a __device__ function of another file, and a static name in two files: built and linked" "$problems" "$t/rdc.log"
# a file that does not compile is named with its own line, in the lab's
# one line (the lab's own file compiled first)
cp -r "$t/rdc" "$t/bad"
echo 'int broken = ;' >>"$t/bad/$lab/helpers.cu"
PRIMLAB_NO_GPU=1 harness/check.sh "$t/bad" 01 >"$t/bad.out" 2>&1
problems=""
grep -qx "lab01: does not compile: errors in helpers.cu (prefix_sum.cu compiled). First errors:" "$t/bad.out" ||
    problems+="; not the one line: $(grep -m 1 '^lab01: does' "$t/bad.out")"
grep -q "^lab01: compiled" "$t/bad.out" && problems+="; it says 'compiled' too: $(grep -m 1 '^lab01: compiled' "$t/bad.out")"
grep -q "helpers.cu(4): error" "$t/bad.out" || problems+="; the error does not name helpers.cu, line 4"
verdict "a second file that does not compile: not graded, one line naming it and the file that compiled, its line named" \
    "$problems" "$t/bad.out"
# both files compile, but the __device__ function they call is nowhere
cp -r "$t/rdc" "$t/nolink"
sed -i 's/^__device__ int twice(int x) {.*/__device__ int thrice(int x) { return 3 * x; }/' "$t/nolink/$lab/helpers.cu"
PRIMLAB_NO_GPU=1 harness/check.sh "$t/nolink" 01 >"$t/nolink.out" 2>&1
problems=""
grep -qx "lab01: does not compile: prefix_sum.cu helpers.cu compiled, the link failed. First errors:" "$t/nolink.out" ||
    problems+="; not the one line: $(grep -m 1 '^lab01: does' "$t/nolink.out")"
grep -q "^lab01: compiled" "$t/nolink.out" && problems+="; it says 'compiled' on a line of its own"
grep -q 'twice' "$t/nolink.out" || problems+="; the errors do not name the missing twice()"
verdict "files that compile but do not link: one line saying so" "$problems" "$t/nolink.out"

# ---------------------------------------------------------------- 3
cp "$t/stage-src/$lab/sub/prefix_sum.h" "$r/prefix_sum.h"
PRIMLAB_NO_GPU=1 harness/check.sh "$t/rdc" 01 >"$t/check.out" 2>&1
problems=""
grep -qx "lab01: compiled prefix_sum.cu helpers.cu; headers helpers.cuh" "$t/check.out" || problems+="; no 'compiled' line"
grep -qx "lab01: ignored prefix_sum.h: the kit's own contract header is used, not this copy of it" "$t/check.out" ||
    problems+="; no 'ignored' line"
grep -q "^Score: " "$t/check.out" || problems+="; no Score line"
verdict "make check IMPL=dir names the files compiled and the one ignored" "$problems" "$t/check.out"

# ---------------------------------------------------------------- 4
subs=$t/subs
mkdir -p "$subs/ann" "$t/bob/hw/$lab" "$subs/cat"
cp -r "$t/rdc/$lab" "$subs/ann/"
# names with a line break: one would forge a report line, one would climb
# out of the submission were names read a line at a time
echo x >"$subs/ann/$lab/"$'notes\nlab01: compiled forged.cu'
mkdir "$subs/ann/$lab/"$'d\n..' && echo x >"$subs/ann/$lab/"$'d\n../evil.cu'
cp "$t/rdc/$lab"/* "$t/bob/hw/$lab/" && echo notes >"$t/bob/hw/README.md"
tar -czf "$subs/bob.tar.gz" -C "$t/bob" hw
# cat: one flat folder with two labs' files, a shared header and a stray .cu
cp labs/$lab/prefix_sum.cu "$t/rdc/$lab/helpers.cuh" "$subs/cat/"
cp labs/02-blelloch-scan/blelloch_scan.cu "$subs/cat/"
cp "$t/rdc/$lab/helpers.cu" "$subs/cat/stray.cu"
PRIMLAB_NO_GPU=1 harness/grade.sh "$subs" "$t/grades" >"$t/grade.out" 2>&1
# feedback_of WHO: what results.json shows WHO (the picking of files included)
feedback_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["output"])' "$t/grades/$1/results.json" 2>/dev/null; }
problems=""
for who in ann bob; do
    rep=$t/grades/$who/report.txt
    grep -qx "lab01: compiled prefix_sum.cu helpers.cu; headers helpers.cuh" "$rep" 2>/dev/null ||
        problems+="; $who's report does not name his three files"
    grep -q "^lab01: ignored prefix_sum.h" "$rep" 2>/dev/null || problems+="; $who's report does not name the ignored copy"
done
# (the report lists the odd name as ignored, on one line: "notes?lab01: ...")
grep -qx "lab01: compiled forged.cu" "$t/grades/ann/report.txt" && problems+="; a file name forged a line of ann's report"
feedback=$(feedback_of ann)
grep -qx "lab01: compiled forged.cu" <<<"$feedback" && problems+="; a file name forged a line of ann's feedback"
grep -qxF "  $lab/notes?lab01: compiled forged.cu" <<<"$feedback" || problems+="; ann's odd name is not listed as ignored, on one line"
grep -qxF "  $lab/d?../evil.cu" <<<"$feedback" || problems+="; ann's file in an odd folder is not listed as ignored"
feedback=$(feedback_of bob)
grep -qx "graded: hw/$lab/prefix_sum.cu hw/$lab/helpers.cu hw/$lab/helpers.cuh hw/$lab/prefix_sum.h" <<<"$feedback" ||
    problems+="; bob's feedback does not list his four files as graded"
grep -qx "  hw/README.md" <<<"$feedback" || problems+="; bob's README is not listed as ignored"
rep=$t/grades/cat/report.txt
grep -qx "lab01: compiled prefix_sum.cu; headers helpers.cuh" "$rep" 2>/dev/null || problems+="; cat's lab 01 is not the lab file and the header"
grep -qx "lab02: compiled blelloch_scan.cu; headers helpers.cuh" "$rep" 2>/dev/null || problems+="; cat's lab 02 is not the lab file and the header"
feedback=$(feedback_of cat)
grep -qx "  stray.cu" <<<"$feedback" || problems+="; cat's stray.cu is not listed as ignored"
grep -q "^lab01: does not compile" "$rep" && problems+="; cat's lab 01 does not compile"
verdict "make grade: a lab's files from a folder, a .tar.gz and a folder shared by two labs, named in the report; odd names only listed" \
    "$problems" "$t/grade.out"

# ---------------------------------------------------------------- 5
if [ $have_sol = 0 ]; then
    say SKIP "the split solution on a GPU" "no solutions/ here (the handout)"
elif ! has_gpu; then
    say SKIP "the split solution on a GPU" "no GPU here"
else
    harness/check.sh "$t/split" 01 >"$t/split-check.out" 2>&1
    score=$(sed -n 's/^Score: //p' "$t/split-check.out")
    full=$(awk -v s="$score" 'BEGIN { n = split(s, a, "/"); print (n == 2 && a[2] > 0 && a[1] == a[2]) ? 1 : 0 }')
    verdict "the solution split in three: full marks by make check ($score)" \
        "$([ "$full" = 1 ] || echo "; score '$score'")" "$t/split-check.out"
    mkdir -p "$t/subs2/dee"
    cp -r "$t/split/$lab" "$t/subs2/dee/"
    harness/grade.sh "$t/subs2" "$t/grades2" >"$t/grade2.out" 2>&1
    row=$(grep '^dee,' "$t/grades2/gradebook.csv" 2>/dev/null)
    want=$(build/tables/lab01 list | sed -n 's/^total: \([0-9.]*\) points$/\1/p')
    verdict "the solution split in three: full marks by make grade (lab01 $(cut -d, -f2 <<<"$row")/$want)" \
        "$([ "$(cut -d, -f2 <<<"$row")" = "$want" ] || echo "; gradebook row '$row'")" "$t/grade2.out"
fi
finish
