#!/usr/bin/env bash
# tests/grading/test_grade_jobs.sh: make grade JOBS=N (issue 17), a class graded N
# students at a time on one host, each grader pinned to its own GPU and an
# equal share of the CPUs. Without a GPU: the dry run (PRIMLAB_NO_GPU=1,
# no score: the gradebook's cells blank) on two GPUs named by
# PRIMLAB_GPUS="0 1". A timeout
# first on PATH (tests/grading/timeout_log.sh) logs, from inside each grader, its
# CUDA_VISIBLE_DEVICES, its CPUs and when it ran.
#   1. JOBS=1 and JOBS=2 over eight submissions (folders, a .tar.gz, a .zip,
#      a file that does not compile, one with no lab file): all graded;
#      with JOBS=2 graders ran side by side, never two at once on one GPU,
#      on disjoint CPUs; the progress lines (done, running, left, time);
#      the record says which GPU graded whom; the two gradebooks are the
#      same file, each student's rows the same; whole rows; nothing left
#      in .work/, no temporary files;
#      the locks (GRADE_LOCK_WAIT=0: no waiting), tried while the JOBS=2
#      run grades (one student held in his grader): a dry run into other
#      grades runs beside it, in the same grading kit, and grades; one
#      into the same grades is refused (OUT/.grade.lock), and so is a run
#      on the GPUs (it keeps the kit to itself: no two graders on one
#      GPU), status 2, one line each; the held run then finishes as if
#      alone (the JOBS=1 gradebook);
#   2. JOBS=3 with two GPUs: refused (status 2, one line);
#   3. a JOBS=2 run stopped (SIGTERM) while a student is being graded: the
#      graders stop with it, no student is half-published, .work/ is empty;
#      then a run into the same grades killed outright (SIGKILL) as it
#      grades the students not recorded: its graders stop all the same;
#      the rerun clears what it left in .work/, grades exactly the
#      students not recorded, and ends with the JOBS=1 gradebook;
#   4. a GPU lost after the check before the build (an nvidia-smi first on
#      PATH lists two GPUs, CUDA finds none), PRIMLAB_NO_GPU unset, JOBS=2:
#      the first student fails as the grading machine's fault, nobody is
#      started after it (the grader beside it finishes), those not graded
#      are listed in .ungraded.tsv, status 3.
# Prints one line per check, then `N passed, N failed, N skipped`; without a
# bwrap that starts a sandbox here (make grade needs one), SKIP.
set -u
cd "$(dirname "$0")/../.." || exit 2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
unset PRIMLAB_SEED JOBS SLURM CUDA_VISIBLE_DEVICES
export PRIMLAB_LIMITS=0 PRIMLAB_NO_GPU=1 PRIMLAB_GPUS="0 1"
# make test runs the other grading tests beside this one, in the same kit:
# wait for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=900

. tests/lib/verdict.sh # say, verdict, finish, and the counts

if ! command -v bwrap >/dev/null || ! err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    say SKIP "grading with JOBS" "bwrap is missing or cannot start a sandbox here (${err:-not installed}): make grade needs it"
    finish
fi
make -s --no-print-directory build/primlab-results >"$t/make.log" 2>&1 ||
    { say FAIL "make build/primlab-results" "$(tail -n 3 "$t/make.log")"; finish; }

# the logging timeout, first on PATH
mkdir -p "$t/shim"
export TIMEOUT_LOG_REAL
TIMEOUT_LOG_REAL=$(command -v timeout)
ln -s "$PWD/tests/grading/timeout_log.sh" "$t/shim/timeout"
export PATH=$t/shim:$PATH

# Eight students.
s=$t/subs
stub=labs/01-prefix-sum/prefix_sum.cu
mkdir -p "$s/ann/01-prefix-sum" "$s/bob" "$s/cat" "$s/fay/01-prefix-sum" "$s/fay/02-blelloch-scan" \
    "$s/gus/01-prefix-sum" "$s/hal" "$t/dan/01-prefix-sum" "$t/eve"
cp "$stub" "$s/ann/01-prefix-sum/"
echo "int oops = ;" >"$s/bob/prefix_sum.cu"
echo "notes only" >"$s/cat/README"
cp "$stub" "$t/dan/01-prefix-sum/" && tar -czf "$s/dan.tar.gz" -C "$t/dan" .
cp "$stub" "$t/eve/prefix_sum.cu" && python3 -c "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])" "$s/eve" "$t/eve"
cp "$stub" "$s/fay/01-prefix-sum/" && cp labs/02-blelloch-scan/blelloch_scan.cu "$s/fay/02-blelloch-scan/"
cp "$stub" "$s/gus/01-prefix-sum/"
cp "$stub" "$s/hal/prefix_sum.cu"
students="ann bob cat dan eve fay gus hal"

# grade JOBS GRADES LOG: make grade's script with JOBS, the timeout's log in LOG.log
grade() {
    JOBS=$1 TIMEOUT_LOG=$3.log harness/grade.sh "$s" "$2" >"$3" 2>&1
}

# held GRADES N JOBS: make grade of the class into GRADES, JOBS at a time,
# in the background (pid gpid; output $t/N.out, the timeout's log
# $t/N.out.log), once gus's grader has started, where it waits while
# $t/hold exists (the students go in order: ann, bob ... are done, or
# being graded, before him)
held() {
    touch "$t/hold"
    TIMEOUT_LOG_HOLD=$t/hold TIMEOUT_LOG_HOLD_WHO=gus TIMEOUT_LOG=$t/$2.out.log JOBS=$3 \
        harness/grade.sh "$s" "$1" >"$t/$2.out" 2>&1 &
    gpid=$!
    for _ in $(seq 600); do grep -q "^start .*/gus\." "$t/$2.out.log" 2>/dev/null && break; sleep 0.1; done
}

# intervals LOG: problems with the graders LOG saw: two at once on one GPU,
# none side by side (when JOBS=2: $2 = parallel), CPUs shared between GPUs
intervals() {
    python3 - "$1" "${2:-}" "$(nproc)" <<'PY'
import sys
log, parallel, ncpu = sys.argv[1], sys.argv[2] == "parallel", int(sys.argv[3])
starts, runs = {}, []
for line in open(log):
    kind, dev, cpus, when, tree = line.split(None, 4)
    if kind == "start":
        starts[tree] = (dev, cpus, float(when))
    elif tree in starts:
        dev, cpus, t0 = starts.pop(tree)
        runs.append((dev, cpus, t0, float(when), tree.strip()))
runs += [(d, c, t0, float("inf"), tr.strip()) for tr, (d, c, t0) in starts.items()]
p = []
both = lambda a, b: a[2] < b[3] and b[2] < a[3]
pairs = [(a, b) for i, a in enumerate(runs) for b in runs[i + 1:]]
shared = [(a[4], b[4]) for a, b in pairs if a[0] == b[0] and both(a, b)]
if shared:
    p.append("one GPU graded two at once: %s" % shared[:2])
if parallel:
    if not any(a[0] != b[0] and both(a, b) for a, b in pairs):
        p.append("no two graders ran side by side")
    devs = sorted({r[0] for r in runs})
    if devs != ["0", "1"]:
        p.append("GPUs used: %s, not 0 and 1" % devs)
    sets = {}
    for r in runs:
        sets.setdefault(r[0], set()).add(r[1])
    if ncpu >= 2 and any(len(v) != 1 for v in sets.values()):
        p.append("a GPU's graders had different CPUs: %s" % sets)
    elif ncpu >= 2 and len(sets) == 2:
        a, b = (set(x.split(",")) for x in (next(iter(v)) for v in sets.values()))
        if a & b:
            p.append("the two GPUs' graders share CPUs: %s" % sets)
else:
    if any(both(a, b) for a, b in pairs):
        p.append("graders overlapped with JOBS=1")
print("; ".join(p))
PY
    [ $? = 0 ] || echo "the analysis of $1 failed"
}

# same_rows G1 G2: each student's rows (lab, test, kind, hidden, status,
# points, maximum) are the same in G1 and G2
same_rows() {
    local who p=""
    for who in $students; do
        cmp -s <(cut -f 1-7 "$1/$who/scores.tsv" 2>/dev/null) <(cut -f 1-7 "$2/$who/scores.tsv" 2>/dev/null) ||
            p="$p; $who's rows differ"
        [ -s "$1/$who/scores.tsv" ] || p="$p; $who has no scores.tsv"
    done
    echo "$p"
}

# whole GRADES: problems with the gradebook's rows (a field count the
# header's, a total the sum of the labs) and leftovers
whole() {
    python3 - "$1/gradebook.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
p = []
for r in rows[1:]:
    if len(r) != len(rows[0]):
        p.append("row %s has %d fields, the header %d" % (r[:1], len(r), len(rows[0])))
    elif all(x == "" for x in r[1:]):  # no score (a dry run): every cell blank
        continue
    elif "" in r[1:] or abs(sum(float(x) for x in r[1:-1]) - float(r[-1])) > 1e-6:
        p.append("row %s: the labs do not add up to the total" % r[:1])
print("; ".join(p))
PY
    [ -z "$(find "$1" -name '*.tmp')" ] || echo "; temporary files left: $(find "$1" -name '*.tmp' | head -n 3)"
    [ -z "$(ls -A "$1/.work" 2>/dev/null)" ] || echo "; .work/ not empty: $(ls -A "$1/.work" | head -n 3)"
}

# ---------------------------------------------------------------- 1
g1=$t/g1 g2=$t/g2
TIMEOUT_LOG_SLEEP=0 grade 1 "$g1" "$t/1.out"
rc1=$?
p=""
[ $rc1 = 0 ] || p="$p; JOBS=1: exit status $rc1"
grep -q '^graded 8, skipped 0; gradebook: ' "$t/1.out" || p="$p; JOBS=1: not 'graded 8, skipped 0'"
grep -q '^grading 8, 1 at a time, on GPU 0$' "$t/1.out" || p="$p; JOBS=1: no 'grading 8, 1 at a time, on GPU 0'"
p="$p$(intervals "$t/1.out.log" | sed 's/^./; JOBS=1: &/')"
verdict "JOBS=1: eight graded, one at a time, on the first GPU" "$p" "$t/1.out"
# the JOBS=2 run is held at gus while the locks are tried, then let finish
TIMEOUT_LOG_SLEEP=1 held "$g2" 2 2
# (the kit is built and stamped by now: the JOBS=1 run graded in it)
mkdir -p "$t/subs10" && cp -r "$s/ann" "$t/subs10/"
GRADE_LOCK_WAIT=0 TIMEOUT_LOG=$t/10.out.log harness/grade.sh "$t/subs10" "$t/g10" >"$t/10.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="$p; exit status $rc"
grep -q '^graded 1, skipped 0; gradebook: ' "$t/10.out" || p="$p; not 'graded 1, skipped 0'"
grep -q "^start .*/gus\." "$t/2.out.log" && ! grep -q "^end .*/gus\." "$t/2.out.log" ||
    p="$p; (gus was not being graded meanwhile)"
verdict "a dry run beside another dry run, into other grades: graded at once, in the same kit" "$p" "$t/10.out"
GRADE_LOCK_WAIT=0 harness/grade.sh "$s" "$g2" >"$t/11.out" 2>&1
rc=$?
p=""
[ $rc = 2 ] || p="$p; exit status $rc, not 2"
[ "$(grep -c . "$t/11.out")" = 1 ] || p="$p; not one line"
grep -q "^grade: another make grade is writing into '$g2'" "$t/11.out" || p="$p; not 'another make grade is writing into'"
verdict "a second run into the same grades meanwhile: refused, one line (status 2)" "$p" "$t/11.out"
mkdir -p "$t/smi2"
printf '#!/bin/sh\n[ "$1" = -L ] || exit 6\necho "GPU 0: Some GPU (UUID: GPU-0)"\n' >"$t/smi2/nvidia-smi" &&
    chmod +x "$t/smi2/nvidia-smi"
env -u PRIMLAB_NO_GPU PATH="$t/smi2:$PATH" GRADE_LOCK_WAIT=0 harness/grade.sh "$t/subs10" "$t/g12" >"$t/12.out" 2>&1
rc=$?
p=""
[ $rc = 2 ] || p="$p; exit status $rc, not 2"
grep -q '^grade: another make grade is running in this kit' "$t/12.out" || p="$p; not 'another make grade is running in this kit'"
[ ! -e "$t/g12/gradebook.csv" ] || p="$p; a gradebook was written"
verdict "a run on the GPUs while a dry run grades: refused, the kit is not shared with it (status 2)" "$p" "$t/12.out"
# the held run then finishes as if alone: its status, count and JOBS=1's
# gradebook are the verdicts below
rm -f "$t/hold"
wait $gpid
rc2=$?
p=""
[ $rc2 = 0 ] || p="$p; exit status $rc2"
grep -q '^graded 8, skipped 0; gradebook: ' "$t/2.out" || p="$p; not 'graded 8, skipped 0'"
grep -q '^grading 8, 2 at a time, on GPU 0 1' "$t/2.out" || p="$p; no 'grading 8, 2 at a time, on GPU 0 1'"
[ "$(grep -c '^-- [0-9]* done, [0-9]* running, [0-9]* left ([0-9]*:[0-9][0-9] so far)$' "$t/2.out")" = 8 ] ||
    p="$p; not eight progress lines"
grep -q '^-- 8 done, 0 running, 0 left ' "$t/2.out" || p="$p; no last progress line '8 done, 0 running, 0 left'"
[ "$(grep -c . "$t/2.out.log")" = 16 ] || p="$p; the timeout did not see 8 graders start and end"
p="$p$(intervals "$t/2.out.log" parallel | sed 's/^./; &/')"
verdict "JOBS=2: graders side by side, never two at once on one GPU, disjoint CPUs" "$p" "$t/2.out"
p=""
awk -F '\t' '{ print $5 }' "$g2/.graded.tsv" | sort -u | paste -sd ' ' | grep -qx '0 1' || p="$p; the record's GPUs are not 0 and 1"
for who in $students; do
    grep -q "^== $who$" "$t/2.out" || p="$p; no block for $who"
done
grep -qE '^   graded on [^,]*, GPU [01]( \([^)]*\))?, in [0-9.]* s$' "$t/2.out" ||
    p="$p; no 'graded on HOST, GPU n (MODEL), in s' line"
verdict "JOBS=2: each student's block, and the GPU that graded them in the record" "$p" "$t/2.out"
p=""
cmp -s "$g1/gradebook.csv" "$g2/gradebook.csv" || p="$p; the gradebooks differ: $(diff "$g1/gradebook.csv" "$g2/gradebook.csv" | head -n 4 | paste -sd ' ')"
p="$p$(same_rows "$g1" "$g2")"
[ "$(grep -c . "$g2/gradebook.csv")" = 10 ] || p="$p; not 8 rows, a header and the points possible"
verdict "JOBS=1 and JOBS=2 (held while the locks were tried): the same gradebook, each student's rows the same" "$p"
p="$(whole "$g1" | sed 's/^./; JOBS=1: &/')$(whole "$g2" | sed 's/^./; JOBS=2: &/')"
verdict "whole rows, no temporary files, .work/ empty" "$p"

# ---------------------------------------------------------------- 2
JOBS=3 harness/grade.sh "$s" "$t/g3" >"$t/3.out" 2>&1
rc=$?
p=""
[ $rc = 2 ] || p="$p; exit status $rc, not 2"
[ "$(grep -c . "$t/3.out")" = 1 ] || p="$p; not one line"
grep -q "^grade: JOBS=3, but only 2 GPUs are seen (0 1): never two graders on one GPU" "$t/3.out" || p="$p; not the refusal"
[ ! -e "$t/g3/gradebook.csv" ] || p="$p; a gradebook was written"
verdict "JOBS=3 with two GPUs: refused before grading anyone" "$p" "$t/3.out"

# ---------------------------------------------------------------- 3
# gus is held in his grader until the run is stopped
g4=$t/g4
held "$g4" 4 2
sleep 0.5
kill -TERM $gpid
wait $gpid
rc=$?
rm -f "$t/hold"
sleep 0.5
p=""
[ $rc = 143 ] || p="$p; exit status $rc, not 143"
grep -q "^killed .*/gus\." "$t/4.out.log" || p="$p; gus's grader was not stopped"
alive=$(for f in /proc/[0-9]*/cmdline; do { tr '\0' ' ' <"$f"; } 2>/dev/null | grep -F "$g4/"; done | head -n 3)
[ -z "$alive" ] || p="$p; processes of the run alive: $alive"
[ -z "$(ls -A "$g4/.work" 2>/dev/null)" ] || p="$p; .work/ not empty: $(ls -A "$g4/.work")"
recorded=$(cut -f 1 "$g4/.graded.tsv" 2>/dev/null | sort -u | paste -sd ' ')
published=$(cd "$g4" && ls -d */ 2>/dev/null | tr -d / | sort | paste -sd ' ')
for who in $published; do
    for f in results.json report.txt scores.tsv; do [ -s "$g4/$who/$f" ] || p="$p; $who/$f missing"; done
done
for who in $recorded; do case " $published " in *" $who "*) ;; *) p="$p; $who recorded, not published" ;; esac; done
case " $recorded " in *" gus "*) p="$p; gus is recorded" ;; esac
[ -n "$recorded" ] || p="$p; nobody graded before the stop"
verdict "a JOBS=2 run stopped midway: graders stopped, every result whole or absent" "$p" "$t/4.out"

# ... then killed outright (SIGKILL, no cleanup), into the same grades: it
# skips those recorded and starts gus (held) at once, and the one before
# or after him beside; its graders stop all the same (setpriv
# --pdeathsig), and the rerun below clears what it left in .work/
name="a JOBS=2 run killed outright: its graders stop too, the next run clears .work/ and grades the rest"
killed=""
if ! setpriv --help 2>/dev/null | grep -q -- --pdeathsig; then
    say SKIP "$name" "setpriv has no --pdeathsig here"
else
    held "$g4" 7 2
    kill -KILL $gpid
    wait $gpid 2>/dev/null
    for _ in $(seq 50); do grep -q "^killed .*/gus\." "$t/7.out.log" && break; sleep 0.1; done
    rm -f "$t/hold"
    pk=""
    grep -q "^killed .*/gus\." "$t/7.out.log" || pk="$pk; gus's grader did not stop with the run"
    [ -n "$(ls -A "$g4/.work" 2>/dev/null)" ] || pk="$pk; (nothing was left in .work/ to clear)"
    killed=1
fi
TIMEOUT_LOG=$t/5.out.log JOBS=2 harness/grade.sh "$s" "$g4" >"$t/5.out" 2>&1
rc=$?
n_rec=$(echo "$recorded" | wc -w)
p=""
[ $rc = 0 ] || p="$p; exit status $rc"
grep -q "^graded $((8 - n_rec)), skipped $n_rec; gradebook: " "$t/5.out" || p="$p; not 'graded $((8 - n_rec)), skipped $n_rec'"
for who in $recorded; do grep -q "^== $who: already graded, skipped" "$t/5.out" || p="$p; $who graded again"; done
cmp -s "$g1/gradebook.csv" "$g4/gradebook.csv" || p="$p; the gradebook is not JOBS=1's"
p="$p$(whole "$g4")"
verdict "the rerun grades only the rest ($((8 - n_rec)) of 8), and the gradebook is JOBS=1's" "$p" "$t/5.out"
if [ -n "$killed" ]; then
    [ $rc = 0 ] || pk="$pk; the next run: exit status $rc"
    cmp -s "$g1/gradebook.csv" "$g4/gradebook.csv" || pk="$pk; the gradebook is not JOBS=1's"
    pk="$pk$(whole "$g4")"
    verdict "$name" "$pk" "$t/5.out"
fi

# ---------------------------------------------------------------- 4
name="a GPU lost mid-run, PRIMLAB_NO_GPU unset, JOBS=2: the grading machine's fault; nobody started after it (status 3)"
if has_gpu; then
    say SKIP "$name" "this machine has a GPU"
else
    # ann's stub needs the GPU; bob's file does not compile, so nothing of
    # his runs and his grader, started beside ann's, finishes and counts.
    # make grade checks for a GPU before building (nvidia-smi -L): this one
    # lists two, and says nothing else (no model, no compute capability)
    mkdir -p "$t/smi"
    printf '#!/bin/sh\n[ "$1" = -L ] || exit 6\necho "GPU 0: Gone (UUID: GPU-0)"\necho "GPU 1: Gone (UUID: GPU-1)"\n' \
        >"$t/smi/nvidia-smi" && chmod +x "$t/smi/nvidia-smi"
    g6=$t/g6
    env -u PRIMLAB_NO_GPU PATH="$t/smi:$PATH" TIMEOUT_LOG=$t/6.out.log JOBS=2 harness/grade.sh "$s" "$g6" >"$t/6.out" 2>&1
    rc=$?
    p=""
    [ $rc = 3 ] || p="$p; exit status $rc, not 3"
    grep -A 1 '^== ann$' "$t/6.out" | grep -q '^   not graded: the grading machine has no GPU' ||
        p="$p; ann not 'not graded: the grading machine has no GPU'"
    [ "$(grep -c ': not graded: grading stopped at ann$' "$t/6.out")" = 6 ] || p="$p; not six students left unstarted"
    [ "$(cut -f 1 "$g6/.ungraded.tsv" 2>/dev/null | sort | paste -sd ' ')" = "${students/bob /}" ] ||
        p="$p; .ungraded.tsv does not list all but bob"
    [ "$(cut -f 1 "$g6/.graded.tsv" 2>/dev/null)" = bob ] || p="$p; bob, already running, not recorded alone"
    tail -n 1 "$t/6.out" | grep -q '^grade: stopped at ann: the grading machine failed' || p="$p; no stop line last"
    verdict "$name" "$p" "$t/6.out"
fi

finish
