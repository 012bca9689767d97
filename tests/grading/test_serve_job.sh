#!/usr/bin/env bash
# tests/grading/test_serve_job.sh: the check service's executor,
# harness/serve/run-job.sh UPLOAD LAB JOBDIR, on uploads as students send
# them (a .tar.gz of labs/01-prefix-sum/), in the shared grading kit
# (build/grade-kit, as make grade makes it), with a service folder
# SERVE_DIR (serve.db, tokens.tsv, uploads/, jobs/) holding secrets. What
# no faster test proves: that the one piece of the service that touches
# student code leaves exactly the files and the status the service reads,
# turns every bad upload into one line for the student, writes nothing
# outside the job's folder, and hides the service's database, its tokens
# and the other jobs from student code. The jobs run two at a time, as two
# GPUs' claimers run them (with a GPU, those that need it one at a time:
# two on one GPU would disturb the solution's performance points).
#   1. a lab's solution: status done; report.txt, results.json, scores.tsv
#      and the log there, no grader's path in any (with a GPU: full marks);
#   2. the stub, in an archive that also holds '../' (climbing out of the
#      job), a symbolic link and a name with a line break: done, each
#      refusal one line of the report (with a GPU: 0 points); a
#      PRIMLAB_SEED in the caller's environment adds no hidden test;
#   3. a file that does not compile (and 40 links, refused): done, the
#      compiler's error in report.txt, its log cut at SERVE_LOG_MAX=1024
#      bytes with a line saying so, and the status after it;
#   4. 10^5 files, more than GRADE_MAX_BYTES, not an archive, no file of
#      the lab: failed, one line why, and no report;
#   5. a LAB that is not the kit's: one line, status 2, no job folder;
#   6. the GPU gone (CUDA_VISIBLE_DEVICES=-1, no dry run): machine, status 3;
#   7. code that reads SERVE_DIR/serve.db, SERVE_DIR/tokens.tsv and another
#      job's report at compile time (#include of their absolute paths) and
#      at run time (fopen from a constructor, which runs without a GPU, and
#      from the host code the tests call, with a GPU): the secrets are
#      nowhere in the job's folder, and no read succeeded (a read that
#      works exits the worker with status 42 or 43, which the report would
#      say). SERVE_DIR lies beside the kit, where only
#      PRIMLAB_SANDBOX_HIDE hides it (not under /tmp, /var/tmp or $HOME,
#      which the sandboxes hide anyway), its files readable by anyone;
#   8. the hostile submissions of tests/fixtures/hostile/ that attack what a
#      job can reach without a GPU: compile_leak (another job's report at
#      compile time), include_solution and include_solution_abs (the
#      solutions of the kit the grading kit was made from), write_kit (the
#      kit, the service's folder, the other jobs), sleepers (processes that
#      outlive the job); the GPU ones and the rest are listed in a SKIP
#      line (tests/grading/test_hostile.sh, slow tier, grades them all);
#   9. around every job: no file written outside its folder (the service's
#      folder and the scratch), the grading kit unchanged, the job's graded
#      tree and its build folder removed;
#  10. a make grade on the GPUs waiting for the grading kit (it holds the
#      turnstile, build/grade.lock.turn): after SERVE_LOCK_WAIT seconds,
#      busy, exit 4, nothing published (the service hands the job back).
# Without a GPU the jobs are dry runs (PRIMLAB_NO_GPU=1: no score); without
# a bwrap that starts, only 4 and 5 run (nothing else is graded).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
. tests/lib/secret_reader.sh
unset PRIMLAB_SEED SERVE_DB TOKENS
export PRIMLAB_LIMITS=0 GRADE_LOCK_WAIT=900 SERVE_LOCK_WAIT=900
t=$(mktemp -d) || exit 2
sd=""
trap 'rm -rf "$t" "$sd"' EXIT
lab=01-prefix-sum

# The service's folder: beside the kit when that folder can be written
# (hidden there by PRIMLAB_SANDBOX_HIDE alone), else under the scratch.
sd=$(mktemp -d -p "$(dirname "$PWD")" primlab-serve-test.XXXXXX 2>/dev/null) || sd=$(mktemp -d -p "$t")
beside=1
case "$sd" in "$t"/*) beside=0 ;; esac
chmod 755 "$sd" && mkdir -p "$sd/uploads" "$sd/jobs/other" && chmod 755 "$sd/jobs" "$sd/jobs/other" || exit 2
secret=hx_secret_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
echo "${secret}_db" >"$sd/serve.db"
printf 'ann_%s_tok\tplk_%s\n' "$secret" "$secret" >"$sd/tokens.tsv"
# (each a line of C: a compiler that reads it names the secret in its
# error line, which the report shows)
for f in report.txt results.json scores.tsv; do echo "int hx_other = ${secret}_job; /* the other job's $f */" >"$sd/jobs/other/$f"; done
chmod 644 "$sd/serve.db" "$sd/tokens.tsv" "$sd/jobs/other"/*
export SERVE_DIR=$sd

# (the upload of 10^5 files takes seconds to make: meanwhile, the rest)
python3 - "$sd/uploads/many.tar.gz" labs/$lab/prefix_sum.cu <<'PY' &
import sys, tarfile
with tarfile.open(sys.argv[1], "w:gz", compresslevel=1) as t:
    t.add(sys.argv[2], "01-prefix-sum/prefix_sum.cu")
    for k in range(100000):
        t.addfile(tarfile.TarInfo("01-prefix-sum/f%06d.h" % k))
PY
many_pid=$!

gpu=0
make -s --no-print-directory build/labs/lab01 >"$t/make.log" 2>&1 && has_gpu && gpu=1
[ $gpu = 1 ] || export PRIMLAB_NO_GPU=1
sandbox=1
err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1) || sandbox=0

# The grading kit the other grading suites share (built once per test run,
# harness/grade.sh): made current for lab 01 (harness/grade.sh --kit, as
# make serve makes it for every lab).
kit=$PWD
if [ $sandbox = 1 ]; then
    kit=$(LAB=01 harness/grade.sh --kit 2>"$t/kit.log") ||
        { say FAIL "the grading kit (harness/grade.sh --kit)" "$(tail -n 1 "$t/kit.log")"; finish; }
fi
run_job=$kit/harness/serve/run-job.sh

# ------------------------------------------------------------- uploads

# pack NAME DIR: DIR's lab folder as a student's upload, $sd/uploads/NAME.tar.gz
pack() { tar -czf "$sd/uploads/$1.tar.gz" -C "$2" "$lab"; }
# folder NAME: a fresh folder to pack, its lab folder made; printed
folder() { mkdir -p "$t/src/$1/$lab" && echo "$t/src/$1"; }

if [ -f solutions/$lab/prefix_sum.cu ]; then
    d=$(folder solution) && cp solutions/$lab/prefix_sum.cu "$d/$lab/" && pack solution "$d"
fi
# the stub, and entries tar would not make: with Python's tarfile
python3 - "$sd/uploads/stub.tar.gz" labs/$lab/prefix_sum.cu "$t/outside" <<'PY' || exit 2
import io, sys, tarfile
dest, stub, outside = sys.argv[1:4]
with tarfile.open(dest, "w:gz") as t:
    t.add(stub, "01-prefix-sum/prefix_sum.cu")
    for name, data in [("../../../../hx-escaped", b"escaped\n"), ("01-prefix-sum/hx\nlab01: compiled forged.cu", b"x\n")]:
        i = tarfile.TarInfo(name); i.size = len(data); t.addfile(i, io.BytesIO(data))
    i = tarfile.TarInfo("01-prefix-sum/hx-link"); i.type = tarfile.SYMTYPE; i.linkname = outside; t.addfile(i)
    i = tarfile.TarInfo("01-prefix-sum/hx-link/hx-through"); i.size = 2; t.addfile(i, io.BytesIO(b"x\n"))
PY
mkdir -p "$t/outside"
# (with 40 links, each refused in a line of the log: a log over 1024 bytes)
d=$(folder nocompile) && { cat labs/$lab/prefix_sum.cu; echo 'int hx_broken = ;'; } >"$d/$lab/prefix_sum.cu" &&
    for i in $(seq -w 40); do ln -s prefix_sum.cu "$d/$lab/hx-link-$i.h"; done && pack nocompile "$d"
# the secrets: at compile time
d=$(folder include) && {
    printf '#include "%s"\n' "$sd/tokens.tsv" "$sd/serve.db" "$sd/jobs/other/report.txt"
    cat labs/$lab/prefix_sum.cu
} >"$d/$lab/prefix_sum.cu" && pack include "$d"
# and at run time: a constructor (no GPU needed), the entry points' host code
# (with a GPU); a read that works exits with 42 or 43 after printing it
d=$(folder readrun) && secret_reader labs/$lab/prefix_sum.cu "$sd/serve.db" "$sd/tokens.tsv" "$sd/jobs/other/results.json" \
    >"$d/$lab/prefix_sum.cu" && pack readrun "$d"
grep -q 'hx_read_all(43)' "$t/src/readrun/$lab/prefix_sum.cu" || say FAIL "the run-time reader calls hx_read_all from no entry point"
# the uploads that cannot be graded
d=$(folder nolab) && echo notes >"$d/$lab/README.md" && pack nolab "$d"
head -c 3000 /dev/urandom >"$sd/uploads/junk.tar.gz"
d=$(folder big) && cp labs/$lab/prefix_sum.cu "$d/$lab/" && head -c $((2 << 20)) /dev/zero >"$d/$lab/data.h" && pack big "$d"
cp "$sd/uploads/stub.tar.gz" "$sd/uploads/machine.tar.gz"
wait "$many_pid" || say FAIL "the upload of 10^5 files could not be made"

# the hostile submissions (tests/fixtures/hostile/), their markers filled
# in as tests/grading/test_hostile.sh fills them (_lib/README.md), for the
# paths of this service: the kit the grading kit came from, the other job
# as the grades, the uploads as the submissions
hostile=(compile_leak include_solution include_solution_abs write_kit sleepers)
for c in "${hostile[@]}"; do
    d=$(folder "$c") &&
        sed -e "s|@@KIT@@|$PWD|g" -e "s|@@HOME@@|${HOME:-/nonexistent}|g" -e "s|@@TMP@@|$t|g" \
            -e "s|@@SUBS@@|$sd/uploads|g" -e "s|@@GRADES@@|$sd/jobs|g" -e "s|@@SECRET@@|$sd/jobs/other/report.txt|g" \
            -e "s|@@ARMED@@|1|g" "tests/fixtures/hostile/$c/$lab/prefix_sum.cu" >"$d/$lab/prefix_sum.cu" &&
        ! grep -q '@@[A-Z]' "$d/$lab/prefix_sum.cu" && pack "$c" "$d" ||
        say FAIL "hostile $c could not be staged"
done

# ---------------------------------------------------------------- jobs

# job NAME [ENV=VALUE...]: run-job.sh on upload NAME, lab 01, into
# $sd/jobs/NAME, in the background, two at a time (four with a GPU, whose
# host has the CPUs); its status in $t/rc/NAME, its output in $t/out/NAME.
# With a GPU, only the jobs whose GPU run proves something run on it (the
# solution's full marks, the stub's 0, the host code's reads, the run-time
# attacks), one at a time, as a claimer runs them; the rest are dry runs
# beside them: their cases are decided before any GPU work (all on the
# GPU, one after another, they took 202 s of a make test on an H200).
mkdir -p "$t/rc" "$t/out"
side_by_side=$((gpu == 1 ? 4 : 2))
job() {
    local name=$1 on_gpu=0
    shift
    [ $gpu = 1 ] && case $name in solution | stub | readrun | write_kit | sleepers) on_gpu=1 ;; esac
    while [ "$(jobs -rp | wc -l)" -ge $side_by_side ]; do wait -n; done
    (
        if [ $on_gpu = 1 ]; then
            flock "$t/gpu.lock" env "$@" "$run_job" "$sd/uploads/$name.tar.gz" 01 "$sd/jobs/$name"
        elif [ $gpu = 1 ] && [ "$name" != machine ]; then
            env "$@" PRIMLAB_NO_GPU=1 "$run_job" "$sd/uploads/$name.tar.gz" 01 "$sd/jobs/$name"
        else
            env "$@" "$run_job" "$sd/uploads/$name.tar.gz" 01 "$sd/jobs/$name"
        fi >"$t/out/$name" 2>&1
        echo $? >"$t/rc/$name"
    ) &
}
rc() { cat "$t/rc/$1" 2>/dev/null || echo none; }
status() { head -c 600 "$sd/jobs/$1/status" 2>/dev/null; }

# sums: what no job may change: the grading kit's files and binaries, the
# service's files, the other job, the scratch's own files
sums() {
    {
        find "$kit" \( -path "$kit/build" -o -path "$kit/dist" -o -path "$kit/.git" \) -prune -o -type f -print0 |
            xargs -0 -r sha256sum
        sha256sum "$kit/build/primlab-results" "$kit/build/tables/lab01" 2>/dev/null
        find "$sd" -path "$sd/jobs" -prune -o -type f -print0 | xargs -0 -r sha256sum
        find "$sd/jobs/other" "$t/outside" -type f -print0 | xargs -0 -r sha256sum
        # the kit the grading kit was made from
        [ "$kit" = "$PWD" ] || git ls-files -z 2>/dev/null | xargs -0 -r sha256sum 2>&1
    } | LC_ALL=C sort -k 2
}
# (the lock the GPU jobs take turns by, made before the stamp: no job writes it)
: >"$t/gpu.lock"
sums >"$t/sums.before"
touch "$t/stamp"
sleep 1 # (whole seconds on some file systems)

SECONDS=0
names=()
if [ $sandbox = 1 ]; then
    [ -f "$sd/uploads/solution.tar.gz" ] && names+=(solution)
    names+=(stub nocompile include readrun "${hostile[@]}")
fi
names+=(nolab junk)
for n in "${names[@]}"; do
    # (a grading seed in the caller's environment: the stub's job must not
    # see it; a log cap the compiler's errors exceed)
    case $n in
    stub) job "$n" PRIMLAB_SEED=12345 ;;
    nocompile) job "$n" SERVE_LOG_MAX=1024 ;;
    *) job "$n" ;;
    esac
done
job big GRADE_MAX_BYTES=$((1 << 20))
names+=(big)
[ $sandbox = 0 ] || { job machine -u PRIMLAB_NO_GPU CUDA_VISIBLE_DEVICES=-1; names+=(machine); }
job many
names+=(many)
wait
jobs_s=$SECONDS
# (a LAB that is not the kit's: in the foreground, before anything)
bad=""
for l in 10 1 ../01 ""; do
    "$run_job" "$sd/uploads/stub.tar.gz" "$l" "$sd/jobs/bad" >"$t/bad.out" 2>&1
    r=$?
    [ $r = 2 ] || bad+="; LAB='$l': status $r, not 2"
    [ "$(wc -l <"$t/bad.out")" = 1 ] || bad+="; LAB='$l': not one line: $(paste -sd ' ' "$t/bad.out")"
    [ -n "$l" ] && [ "$l" != ../01 ] && ! grep -qx "run-job: no lab '$l' in this kit (labs: 01 02 .*)" "$t/bad.out" &&
        bad+="; LAB='$l': $(head -n 1 "$t/bad.out")"
done
[ ! -e "$sd/jobs/bad" ] || bad+="; a job folder was made"
"$run_job" "$sd/uploads/stub.tar.gz" 01 >"$t/bad.out" 2>&1
[ $? = 2 ] && grep -q '^run-job: usage: ' "$t/bad.out" || bad+="; two arguments: not the usage line"
verdict "a LAB that is not the kit's (10, 1, ../01, empty), or two arguments: one line, status 2, no job folder" "$bad" "$t/bad.out"

# ---------------------------------------------------------------- checks

# grader_paths FILE...: the files that name a path of the grader's (the
# kit, the service's folder, the scratch, /tmp)
grader_paths() {
    grep -lF -e "$PWD/" -e "$kit/" -e "$sd" -e "$t" -e /tmp/ -- "$@" 2>/dev/null | sed "s|^$sd/jobs/||" | paste -sd ' '
}
# done_job NAME: the problems of a job that must be done, with its files
done_job() {
    local j=$sd/jobs/$1 f p=""
    [ "$(rc "$1")" = 0 ] || p+="; exit $(rc "$1")"
    [ "$(status "$1")" = "done" ] || p+="; status '$(status "$1" | tr '\t\n' '  ')'"
    for f in report.txt results.json scores.tsv log; do [ -s "$j/$f" ] || p+="; no $f"; done
    [ ! -f "$j/results.json" ] || python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$j/results.json" 2>/dev/null ||
        p+="; results.json is not JSON"
    f=$(grader_paths "$j/report.txt" "$j/results.json" "$j/scores.tsv" "$j/log")
    [ -z "$f" ] || p+="; a grader's path in $f"
    [ ! -e "$j/.upload" ] || p+="; the upload's copy is still there"
    [ ! -e "$j/tree" ] || p+="; the graded tree is still there"
    echo "$p"
}
# failed_job NAME WHY-PATTERN: the problems of a job that must fail with WHY
failed_job() {
    local j=$sd/jobs/$1 p="" s
    s=$(status "$1")
    [ "$(rc "$1")" = 0 ] || p+="; exit $(rc "$1")"
    [[ $s == failed$'\t'* ]] || p+="; status '$(tr '\t\n' '  ' <<<"$s")'"
    [ "$(wc -l <"$j/status" 2>/dev/null)" = 1 ] || p+="; the status is not one line"
    grep -qE "^failed	$2\$" "$j/status" 2>/dev/null || p+="; not the reason /$2/: '$(cut -f 2 "$j/status" 2>/dev/null)'"
    for f in report.txt results.json scores.tsv; do [ ! -e "$j/$f" ] || p+="; a $f"; done
    [ -z "$(grader_paths "$j/status" "$j/log")" ] || p+="; a grader's path in $(grader_paths "$j/status" "$j/log")"
    [ ! -e "$j/tree" ] || p+="; the graded tree is still there"
    echo "$p"
}
# points NAME: the job's points and maximum, from results.json ("none" in a dry run)
points() {
    python3 - "$sd/jobs/$1/results.json" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
m = sum(t["max_score"] for t in r.get("tests", []))
print("%g %g" % (r["score"], m) if "score" in r else "none %g" % m)
PY
}
report() { cat "$sd/jobs/$1/report.txt" 2>/dev/null; }
# scored NAME: the job's points in words, for a verdict's name
scored() {
    local got max
    read -r got max <<<"$(points "$1")"
    if [ "${got:-none}" = none ]; then echo "dry run: no score"; else echo "on the GPU: $got/$max"; fi
}

if [ $sandbox = 0 ]; then
    say SKIP "every case that grades (1-3, 6-9)" "bwrap is missing or cannot start a sandbox here (${err:-not installed})"
else
    # 1
    if [ -f "$sd/uploads/solution.tar.gz" ]; then
        p=$(done_job solution)
        read -r got max <<<"$(points solution)"
        if [ $gpu = 1 ]; then
            [ "$got" = "$max" ] && [ "${max:-0}" != 0 ] || p+="; $got of $max points, not full marks"
        else
            [ "$got" = none ] || p+="; a score ($got) in a dry run"
        fi
        grep -qx "lab01: compiled prefix_sum.cu" "$sd/jobs/solution/report.txt" 2>/dev/null || p+="; the report does not say it compiled"
        verdict "the solution: done, its report, results and scores, no grader's path ($(scored solution))" "$p" "$t/out/solution"
    else
        say SKIP "the solution" "no solutions/ here (the handout)"
    fi
    # 2
    p=$(done_job stub)
    read -r got max <<<"$(points stub)"
    [ $gpu = 0 ] || [ "$got" = 0 ] || p+="; $got points, not 0"
    for line in "unpacking lab01.tar.gz: refused '../../../../hx-escaped': a '..' in its path" \
        "unpacking lab01.tar.gz: refused '01-prefix-sum/hx-link': a symbolic link" \
        "  01-prefix-sum/hx?lab01: compiled forged.cu"; do
        [ "$(report stub | grep -cxF -- "$line")" = 1 ] || p+="; the report has not once the line '$line'"
    done
    report stub | grep -qx "lab01: compiled forged.cu" && p+="; a file name forged a line of the report"
    hidden=$(awk -F '\t' '!/^#/ && $4 == 1' "$sd/jobs/stub/scores.tsv" 2>/dev/null | wc -l)
    [ "$hidden" = 0 ] || p+="; $hidden hidden tests: the caller's PRIMLAB_SEED reached the grader"
    found=$(find "$sd" "$t" "$kit" -name hx-escaped 2>/dev/null | paste -sd ' ')
    [ -z "$found" ] || p+="; '../' wrote $found"
    [ -z "$(ls -A "$t/outside")" ] || p+="; the link wrote into the folder it named"
    verdict "the stub with '../', a link and a line break in a name: done, a line for each, no hidden test under a PRIMLAB_SEED ($(scored stub))" \
        "$p" "$t/out/stub"
    # 3
    p=$(done_job nocompile)
    report nocompile | grep -q "^lab01: does not compile" || p+="; the report does not say it does not compile"
    report nocompile | grep -qE "prefix_sum.cu\(?[0-9]+\)?:.*(error|expected)" || p+="; no compiler error naming prefix_sum.cu"
    j=$sd/jobs/nocompile/log
    cut_line=$(grep -n '^\.\.\. cut at 1024 bytes (SERVE_LOG_MAX): [0-9]* bytes more not kept$' "$j" | cut -d: -f 1)
    [ -n "$cut_line" ] && [ "$(head -n $((cut_line - 1)) "$j" | wc -c)" = 1025 ] ||
        p+="; the log ($(wc -c <"$j") bytes) not cut at 1024 bytes with a line saying so"
    [ "$(tail -n 1 "$j")" = "== status: done" ] || p+="; the log's last line: $(tail -n 1 "$j")"
    verdict "a file that does not compile: done, the compiler's error in the report, its log cut at SERVE_LOG_MAX=1024" "$p" "$t/out/nocompile"
    # 6
    p=""
    [ "$(rc machine)" = 3 ] || p+="; exit $(rc machine), not 3"
    grep -qE '^machine	.+' "$sd/jobs/machine/status" 2>/dev/null && [ "$(wc -l <"$sd/jobs/machine/status")" = 1 ] ||
        p+="; status '$(status machine | tr '\t\n' '  ')'"
    [ ! -e "$sd/jobs/machine/report.txt" ] || p+="; a report was published"
    verdict "no GPU where one is needed (CUDA_VISIBLE_DEVICES=-1): machine, exit 3, nothing published ($(status machine | cut -f 2 | cut -c 1-60)...)" \
        "$p" "$t/out/machine"
    # 7
    p=$(done_job include)
    report include | grep -q "^lab01: does not compile" || p+="; it compiled"
    where=$(grep -rlF "$secret" "$sd/jobs/include" | sed "s|^$sd/jobs/||" | paste -sd ' ')
    [ -z "$where" ] || p+="; a secret in $where"
    verdict "#include of serve.db, tokens.tsv and another job's report: does not compile, no secret in the job$(
        [ $beside = 1 ] || echo " (SERVE_DIR under /tmp: hidden anyway)")" "$p" "$t/out/include"
    p=$(done_job readrun)
    report readrun | grep -qE 'status 4[23]' && p+="; a read succeeded: $(report readrun | grep -m 1 -oE '[^.]*status 4[23][^.]*')"
    where=$(grep -rlF "$secret" "$sd/jobs/readrun" | sed "s|^$sd/jobs/||" | paste -sd ' ')
    [ -z "$where" ] || p+="; a secret in $where"
    if [ $gpu = 1 ]; then
        report readrun | grep -qE '^01\.a .* (FAIL|ERROR)|not implemented' || p+="; its tests did not run"
        what="from a constructor and from the host code"
    else
        what="from a constructor"
    fi
    verdict "fopen of serve.db, tokens.tsv and another job's results $what: none read, no secret in the job$(
        [ $beside = 1 ] || echo " (SERVE_DIR under /tmp: hidden anyway)")" "$p" "$t/out/readrun"
    [ $gpu = 1 ] || say SKIP "fopen of the service's files from the host code the tests call" "no GPU: no test calls it"
    # 8
    for c in "${hostile[@]}"; do
        p=$(done_job "$c")
        case $c in
        compile_leak | include_solution | include_solution_abs)
            report "$c" | grep -q "^lab01: does not compile" || p+="; it compiled"
            ! grep -rqF "$secret" "$sd/jobs/$c" || p+="; the other job's report is in its folder"
            ;;
        *)
            report "$c" | grep -q "^lab01: does not compile" && p+="; it does not compile"
            read -r got max <<<"$(points "$c")"
            [ $gpu = 0 ] || [ "$got" = 0 ] || p+="; $got points, not 0"
            ;;
        esac
        verdict "hostile $c: done$(case $c in write_kit | sleepers) echo ", 0 points" ;; *) echo ", does not compile" ;; esac)" \
            "$p" "$t/out/$c"
    done
    pwned=$(find "$kit" "$PWD" "$sd" "$t" -name '*primlab-pwned*' 2>/dev/null
        find "${HOME:-/nonexistent}" /tmp /var/tmp /dev/shm /run/lock -maxdepth 1 -name '*primlab-pwned-write_kit*' 2>/dev/null)
    verdict "hostile write_kit: no file of its own anywhere" "$([ -z "$pwned" ] || echo "; $(paste -sd ' ' <<<"$pwned")")"
    sleep 1
    alive=$(for p in /proc/[0-9]*; do
        [ "$(cat "$p/comm" 2>/dev/null)" = hx-sleepers ] && echo "${p#/proc/}"
    done | paste -sd ' ')
    verdict "hostile sleepers: none alive once its job is done" "$([ -z "$alive" ] || echo "; alive: $alive")"
    gpu_cases=$(sed -n '/^EXPECT=/,/^EOF$/p' tests/grading/test_hostile.sh |
        awk -F '|' 'NF >= 3 { gsub(/ /, "", $1); gsub(/ /, "", $3); if ($3 == "-" && $1 !~ /^(sol_a|sol_b|stub)$/) print $1 }' |
        paste -sd ' ')
    say SKIP "hostile cases that need a GPU (tests/grading/test_hostile.sh, slow tier, grades them)" "${gpu_cases:-none found}"
fi
# 4
verdict "10^5 files: failed, one line" "$(failed_job many "could not unpack lab01.tar.gz: more than [0-9]+ files and folders")" "$t/out/many"
verdict "more than GRADE_MAX_BYTES (1 MiB): failed, one line" \
    "$(failed_job big "could not unpack lab01.tar.gz: unpacks to more than 1 MiB")" "$t/out/big"
verdict "not an archive: failed, one line" "$(failed_job junk "could not unpack lab01.tar.gz: not a readable archive \(.*\)")" \
    "$t/out/junk"
verdict "no file of the lab: failed, one line" "$(failed_job nolab "the upload has no prefix_sum.cu \(lab 01's file\)")" "$t/out/nolab"
# 9
sums >"$t/sums.after"
p=""
changed=$(diff "$t/sums.before" "$t/sums.after" | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u | paste -sd ' ')
[ -z "$changed" ] || p+="; changed: $changed"
mine="^($sd/jobs/($(IFS='|'; echo "${names[*]}"))/|$t/(rc|out|sums|bad)[./])"
outside=$(find "$sd" "$t" ! -type d -newer "$t/stamp" 2>/dev/null | grep -vE "$mine" | paste -sd ' ')
[ -z "$outside" ] || p+="; written outside the jobs' folders: $outside"
left=$(ls -d "$kit"/build/impl-*"${sd//\//-}"* 2>/dev/null | paste -sd ' ')
[ -z "$left" ] || p+="; build folders left: $left"
verdict "${#names[@]} jobs in ${jobs_s} s: nothing written outside their folders, the grading kit and the service's files unchanged, no build folder left" "$p"
# 10
if [ $sandbox = 1 ] && exec 6>>build/grade.lock.turn && flock -w 60 6; then
    SERVE_LOCK_WAIT=1 "$run_job" "$sd/uploads/stub.tar.gz" 01 "$sd/jobs/busy" >"$t/out/busy" 2>&1
    r=$?
    flock -u 6
    p=""
    [ $r = 4 ] || p="exit $r, not 4"
    grep -qxE "busy	a make grade has this host's GPUs and the grading kit \(waited 1 s for it\): .*" "$sd/jobs/busy/status" 2>/dev/null ||
        p="$p; status '$(status busy | tr '\t\n' '  ')'"
    for f in report.txt results.json scores.tsv; do [ ! -e "$sd/jobs/busy/$f" ] || p="$p; a $f"; done
    verdict "a make grade on the GPUs waiting for the grading kit: busy after SERVE_LOCK_WAIT=1, exit 4, nothing published" "$p" "$t/out/busy"
else
    say SKIP "a make grade waiting for the grading kit" "$([ $sandbox = 0 ] && echo "no sandbox" || echo "build/grade.lock.turn not taken within 60 s")"
fi
finish
