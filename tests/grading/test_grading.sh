#!/usr/bin/env bash
# tests/grading/test_grading.sh: the grading pipeline end to end, with a real JSON
# parser (Python's) reading back what it writes:
#   1. build/primlab-results on a crafted scores file: exact fields, escaping,
#      hidden tests, the leaderboard, Autolab's last line;
#   2. without bubblewrap, harness/grade.sh and a sandboxed check.sh refuse;
#   3. the record's skip rule (harness/record.sh) on crafted lines: a dry
#      line never stands for a run on a GPU, another seed or kit regrades;
#   4. harness/grade.sh on planted submissions (a folder, a .tar.gz, a .zip,
#      one that does not compile, one that ships a modified harness file, one
#      with no lab file, hostile archives: '..', absolute paths, links, a zip
#      bomb, too many files; a lab file that #includes the solution): results
#      per student, the refusals and ignored files, the gradebook, planted
#      result folders, the grading kit, a rerun that skips everyone, a changed
#      submission regraded, a run with a secret seed after the dry run
#      without one that regrades everyone and says why, the seed in no file
#      (the record keeps a keyed fingerprint), a record from before the mode,
#      seed and kit columns still skipping, FORCE=1, and .zip files read
#      without unzip. Needs a working bwrap, else SKIP.
# The GPU is switched off (PRIMLAB_NO_GPU=1): this tests the pipeline, so it
# runs the same with or without a GPU; scoring on a GPU is `make check`'s.
set -u
export PRIMLAB_NO_GPU=1
unset PRIMLAB_SEED
# make test runs tests/grading/test_infra.sh beside this one, and it grades in the
# same kit: wait for each other's make grade (build/grade.lock)
export GRADE_LOCK_WAIT=900
pass=0 fail=0
t=$(mktemp -d)
# PATH folders made by the tests: not under /tmp, which the build sandbox hides
pathdirs=$(mktemp -d -p /var/tmp 2>/dev/null || mktemp -d)
trap 'rm -rf "$t" "$pathdirs"' EXIT
check() { # check NAME COMMAND...
    if "${@:2}" >"$t/log" 2>&1; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1"; sed 's/^/    /' "$t/log" | tail -n 15
    fi
}
not() { ! "$@"; } # not COMMAND...: COMMAND fails
# Grading here is about files, folders and records, not sizes: the limit
# tests (2^31 elements per part) would make each student's run on a GPU
# cost a minute.
export PRIMLAB_LIMITS=0
command -v python3 >/dev/null || { echo "test_grading: python3 not found (make bootstrap)"; echo "0 passed, 1 failed"; exit 1; }
# A dry run's results.json has no score and no test (no score without a
# GPU): what each student's tests were is read from the published
# scores.tsv, as data. tests(GRADES, WHO): its rows as results.json's tests
# would have them (max_score, tags, output: status, reason, detail).
cat >"$t/rows.py" <<'PY'
import os

def tests(g, who):
    out = []
    for line in open(os.path.join(g, who, "scores.tsv")):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        out.append({"name": f[1], "max_score": float(f[6]), "tags": ["lab" + f[0], f[2]],
                    "output": "\n".join([f[4], f[9], f[10]]), "hidden": f[3] == "1"})
    return out
PY
export PYTHONPATH=$t
make -s --no-print-directory build/primlab-results build/tables/lab01 >/dev/null || exit 1

# ---------------------------------------------------------------- 1
printf '01\t01.a scan, n=33\tcorrectness\t0\tOK\t1.0000\t1\t0.300\t\t\t\n' >"$t/s.tsv"
printf '01\t01.b scan "quoted", n=9\tcorrectness\t1\tFAIL\t0.0000\t1\t0.250\t\tshifted by one\\tbadly\tline 1\\nline 2 \\\\ end\n' >>"$t/s.tsv"
printf '01\t01.c performance vs the vendor library, n=16777216\tperformance\t0\tOK\t1.5000\t2\t0.900\t0.1200\t0.2 ms\t\n' >>"$t/s.tsv"
build/primlab-results "$t/s.tsv" --labs 01 --json "$t/r.json" --autolab >"$t/stdout"
check "results.json fields" python3 - "$t/r.json" "$t/stdout" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("score", "execution_time", "output", "output_format", "visibility", "stdout_visibility", "tests", "leaderboard"):
    assert k in r, k
assert abs(r["score"] - 2.5) < 1e-9, r["score"]
assert abs(r["execution_time"] - 1.45) < 0.1
assert r["output"].startswith("lab01: 2.50/4\ntotal: 2.50/4"), r["output"]
t = r["tests"]
assert len(t) == 3
for x in t:
    for k in ("score", "max_score", "status", "name", "number", "output", "tags", "visibility"):
        assert k in x, k
assert [x["status"] for x in t] == ["passed", "failed", "failed"]
assert t[1]["name"] == '01.b scan "quoted", n=9'
assert t[1]["visibility"] == "after_due_date" and t[0]["visibility"] == "visible"
assert t[1]["output"] == "FAIL (0.25s)\nshifted by one\tbadly\nline 1\nline 2 \\ end", repr(t[1]["output"])
assert t[2]["tags"] == ["lab01", "performance"] and t[2]["score"] == 1.5
# 01.b failed: lab 01's ratio does not count (harness/serve/board.h), as on the boards
assert r["leaderboard"] == [], r["leaderboard"]
out = open(sys.argv[2]).read().splitlines()
assert out[0] == "Score: 2.50/4", out
a = json.loads(out[-1])
assert a == {"scores": {"Lab01": 2.5}, "scoreboard": [2.5, 2.5]}, a
PY

sed 's/\tFAIL\t0.0000\t/\tOK\t1.0000\t/' "$t/s.tsv" >"$t/s2.tsv"
build/primlab-results "$t/s2.tsv" --labs 01 --json "$t/r2.json" >/dev/null
check "results.json's leaderboard: each ratio once the lab's correctness passed, and the lab's geometric mean" \
    python3 - "$t/r2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
name = "01.c performance vs the vendor library, n=16777216"
assert r["leaderboard"] == [{"name": name, "value": 0.12, "order": "desc"},
                            {"name": "lab01 geometric mean", "value": 0.12, "order": "desc"}], r["leaderboard"]
PY

# a stopped run: labNN fill adds a row for each test the scores lack, so the
# maximum holds; nothing for a lab recorded as not compiling
max_of() { "build/tables/lab$1" list | sed -n 's/^total: \([0-9]*\) points$/\1/p'; }
filled() { # filled LAB SCORES: fill, then the total it gives
    "build/tables/lab$1" fill --scores "$2" >/dev/null && build/primlab-results "$2" --labs "$1" | sed -n 's/^Score: //p'
}
printf '01\t01.a inclusive scan, one block, n=0\tcorrectness\t0\tOK\t1.0000\t1\t0.1\t\t\t\n' >"$t/stopped.tsv"
cp "$t/stopped.tsv" "$t/stopped2.tsv"
check "fill: a stopped run keeps every test in the maximum" test "$(filled 01 "$t/stopped.tsv")" = "1/$(max_of 01)"
check "fill: with the seed, the hidden tests too" \
    test "$(PRIMLAB_SEED=7 filled 01 "$t/stopped2.tsv")" = "1/$(PRIMLAB_SEED=7 max_of 01)"
printf '02\tlab 02 (02-blelloch-scan)\tcorrectness\t0\tNOBUILD\t0\t43\t0\t\tdoes not compile\t\n' >"$t/nobuild.tsv"
check "fill: nothing for a lab that does not compile" test "$(filled 02 "$t/nobuild.tsv")" = "0/43"

# ---------------------------------------------------------------- 2
# path_without CMD...: print a PATH without CMDs: a folder on PATH that has
# one of them is replaced by a folder of links to its other commands
path_without() {
    local dir f c new=() links
    IFS=: read -r -a dirs <<<"$PATH"
    for dir in "${dirs[@]}"; do
        for c in "$@"; do
            [ -e "$dir/$c" ] && break
        done
        if [ ! -e "$dir/$c" ]; then new+=("$dir"); continue; fi
        links=$(mktemp -d "$pathdirs/path.XXXXXX")
        for f in "$dir"/*; do ln -s "$f" "$links/"; done
        for c in "$@"; do rm -f "$links/$c"; done
        new+=("$links")
    done
    (IFS=:; echo "${new[*]}")
}
no_bwrap=$(path_without bwrap)
mkdir -p "$t/empty"
refused() { # refused RC WANT OUTPUT: exit status WANT and a one-line error naming bwrap
    [ "$1" = "$2" ] && [ "$(wc -l <"$3")" = 1 ] && grep -q "bwrap" "$3"
}
# (make grade checks the grading machine first: status 3, nobody graded)
PATH=$no_bwrap harness/grade.sh "$t/empty" "$t/nobw" >"$t/nobw.out" 2>&1
check "grade: refuses without bwrap (exit 3, one line)" refused $? 3 "$t/nobw.out"
PATH=$no_bwrap PRIMLAB_REQUIRE_SANDBOX=1 CHECK_OUT=$t/nobw-check harness/check.sh labs 01 >"$t/nobw-check.out" 2>&1
check "check: PRIMLAB_REQUIRE_SANDBOX=1 refuses without bwrap" refused $? 2 "$t/nobw-check.out"

# ---------------------------------------------------------------- 3
. harness/record.sh
sum=$(printf '%064d' 7)
line=$'ann\t'$sum$'\t2025-03-04T10:00:00Z\thost\t0\tH100\t-\t2025-03-04T09:59:00Z\t61'
stands() { # stands WANT LINE SUM MODE SEED KIT: record_stands's status and its line
    local why rc
    why=$(record_stands "${@:2}") && rc=0 || rc=1
    [ "$rc:$why" = "$1" ] || { echo "got '$rc:$why', want '$1'"; return 1; }
}
check "record: the same, skipped" stands "0:" "$line"$'\tgpu\tpublic\t0.1.0+a' "$sum" gpu public 0.1.0+a
check "record: a dry line, a run on a GPU: regraded" stands "1:the last grading was a dry run (no GPU)" \
    "$line"$'\tdry\tpublic\t0.1.0+a' "$sum" gpu public 0.1.0+a
check "record: a dry line, a dry run: skipped" stands "0:" "$line"$'\tdry\tpublic\t0.1.0+a' "$sum" dry public 0.1.0+a
check "record: a gpu line, a dry run: skipped (never replaced)" stands "0:" \
    "$line"$'\tgpu\tpublic\t0.1.0+a' "$sum" dry public 0.1.0+a
check "record: a gpu line, a dry run of another seed and kit: skipped" stands "0:" \
    "$line"$'\tgpu\t0123456789abcdef\t0.1.0+a' "$sum" dry public 0.1.1+b
check "record: another seed" stands "1:the last grading was with another seed" \
    "$line"$'\tgpu\t0123456789abcdef\t0.1.0+a' "$sum" gpu fedcba9876543210 0.1.0+a
check "record: a seed, then none" stands "1:the last grading was with a seed, and this run has none" \
    "$line"$'\tgpu\t0123456789abcdef\t0.1.0+a' "$sum" gpu public 0.1.0+a
check "record: another kit" stands "1:the last grading was by another kit version (0.1.0+a, now 0.1.1+b)" \
    "$line"$'\tgpu\tpublic\t0.1.0+a' "$sum" gpu public 0.1.1+b
check "record: another submission: regraded, no reason" stands "1:" \
    "$line"$'\tdry\tpublic\t0.1.0+a' "$(printf '%064d' 8)" gpu public 0.1.0+a
check "record: no line: graded, no reason" stands "1:" "" "$sum" gpu public 0.1.0+a
check "record: a 9-field line stands on its checksum" stands "0:" "$line" "$sum" gpu 0123456789abcdef 0.1.1+b
# an earlier Slurm batch's grade: merged only for this run's submission,
# assignment, seed and kit (harness/grade-slurm.sh's slurm_earlier)
b=$t/batch
mkdir -p "$b/tasks/ann/final" && printf '0\tann\t%s\n' "$sum" >"$b/tasks.tsv" &&
    echo graded >"$b/tasks/ann/status" && echo 01 >"$b/tasks/ann/assignment" &&
    echo 0123456789abcdef >"$b/seed.tag" && echo 0.1.0+a >"$b/kit"
check "slurm: a task of this run's kit and seed is merged" \
    slurm_task_stands "$b" ann "$sum" 01 01,02 0123456789abcdef 0.1.0+a
check "slurm: a task of another kit is graded again" \
    not slurm_task_stands "$b" ann "$sum" 01 01,02 0123456789abcdef 0.1.1+b
check "slurm: a task of another seed is graded again" \
    not slurm_task_stands "$b" ann "$sum" 01 01,02 fedcba9876543210 0.1.0+a
check "slurm: a task of another submission is graded again" \
    not slurm_task_stands "$b" ann "$(printf '%064d' 8)" 01 01,02 0123456789abcdef 0.1.0+a
check "slurm: a task of another assignment is graded again" \
    not slurm_task_stands "$b" ann "$sum" 01,02 01,02 0123456789abcdef 0.1.0+a
rm "$b/kit"
check "slurm: a task of a batch that names no kit is graded again" \
    not slurm_task_stands "$b" ann "$sum" 01 01,02 0123456789abcdef 0.1.0+a
printf '# lab\tname\n01\ta\tcorrectness\t0\tSKIP\t0\t1\t0\t\t\t\tNOGPU\t\t\n' >"$t/nogpu.tsv"
printf '01\ta\tcorrectness\t0\tOK\t1\t1\t0.1\t\t\t\t\t\t\n' >"$t/ran.tsv"
check "record: a NOGPU row makes a dry grading" test "$(PRIMLAB_NO_GPU=0 record_mode "$t/nogpu.tsv")" = dry
check "record: tests that ran, a gpu one" test "$(PRIMLAB_NO_GPU=0 record_mode "$t/ran.tsv")" = gpu
check "record: PRIMLAB_NO_GPU=1 makes a dry one" test "$(PRIMLAB_NO_GPU=1 record_mode "$t/ran.tsv")" = dry

# ---------------------------------------------------------------- 4
if ! command -v bwrap >/dev/null || ! err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1); then
    echo "SKIP: grading a class (harness/grade.sh): bwrap is missing or cannot start a sandbox here" \
        "(${err:-not installed}); those tests are not counted as passed"
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit
fi
# A warp intrinsic without _sync (code from before CUDA 9): the build error
# is named, with the fix, in the report and in the scores' reason.
mkdir -p "$t/shfl/06-shuffle-reduction"
{ cat labs/06-shuffle-reduction/shuffle_reduction.cu
  printf '__global__ void warp_sum(float *p)\n{\n    float v = p[threadIdx.x];\n'
  printf '    for (int o = 16; o > 0; o /= 2)\n        v += __shfl_down(v, o);\n    p[threadIdx.x] = v;\n}\n'
} >"$t/shfl/06-shuffle-reduction/shuffle_reduction.cu"
PRIMLAB_WIP=1 CHECK_OUT=$t/shfl-check harness/check.sh "$t/shfl" 06 >"$t/shfl.out" 2>&1
check "check: __shfl_down without _sync is named" grep -q \
    "hint: __shfl_down without _sync no longer exists.*use __shfl_down_sync(mask, ...)" "$t/shfl.out"
check "check: the hint is in the scores' reason" grep -q "does not compile: __shfl_down without _sync" \
    "$t/shfl-check/scores.tsv"

s=$t/subs
stub=labs/01-prefix-sum/prefix_sum.cu
mkdir -p "$s/alice/01-prefix-sum" "$s/bob" "$s/carol/harness" "$s/frank" "$s/mallory" \
    "$s/sneaky/01-prefix-sum"
cp "$stub" "$s/alice/01-prefix-sum/"
echo "my notes" >"$s/alice/NOTES.txt"
echo "int oops = ;" >"$s/bob/prefix_sum.cu"
cp "$stub" "$s/carol/prefix_sum.cu"
echo "/* a harness that gives full marks */" >"$s/carol/harness/diagnose.c"
echo "nothing here" >"$s/frank/README"
cp "$stub" "$s/mallory/prefix_sum.cu"
tar -czf "$s/dave.tar.gz" -C "$s/alice" .
python3 -c "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])" "$s/erin" "$s/alice"
# a compile-time read of the solution, by its absolute path
echo "#include \"$PWD/solutions/01-prefix-sum/prefix_sum.cu\"" >"$s/sneaky/01-prefix-sum/prefix_sum.cu"
# hostile archives: eve.zip and tom.tgz escape, link and plant; zoe.zip is a
# bomb (65 MiB of zeros); yves.zip has 10001 entries
python3 - "$s" "$stub" "$t" <<'PY'
import io, os, stat, sys, tarfile, zipfile
s, stub, t = sys.argv[1:]
lab = open(stub, "rb").read()
with zipfile.ZipFile(os.path.join(s, "eve.zip"), "w") as z:
    z.writestr("01-prefix-sum/prefix_sum.cu", lab)
    z.writestr("../evil.txt", "x")
    z.writestr("../../../../../evil.txt", "x")
    z.writestr(os.path.join(t, "abs-evil.txt"), "x")
    link = zipfile.ZipInfo("link.cu")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    z.writestr(link, "/etc/passwd")
with tarfile.open(os.path.join(s, "tom.tgz"), "w:gz") as tf:
    def add(name, data=b"", **kw):
        i = tarfile.TarInfo(name)
        for k, v in kw.items():
            setattr(i, k, v)
        i.size = len(data)
        tf.addfile(i, io.BytesIO(data) if data else None)
    add("01-prefix-sum/prefix_sum.cu", lab)
    add("../tom-evil.txt", b"x")
    add(os.path.join(t, "abs-evil.txt"), b"x")
    add("etc", type=tarfile.SYMTYPE, linkname="/etc")
    add("hard.cu", type=tarfile.LNKTYPE, linkname="01-prefix-sum/prefix_sum.cu")
    add("pipe", type=tarfile.FIFOTYPE)
with zipfile.ZipFile(os.path.join(s, "zoe.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("01-prefix-sum/prefix_sum.cu", lab)
    with z.open("zeros.bin", "w", force_zip64=True) as f:
        for _ in range(65):
            f.write(bytes(1 << 20))
with zipfile.ZipFile(os.path.join(s, "yves.zip"), "w") as z:
    z.writestr("01-prefix-sum/prefix_sum.cu", lab)
    for i in range(10000):
        z.writestr("many/%05d" % i, "")
PY
students=(alice bob carol dave erin eve frank mallory sneaky tom yves zoe)
g=$t/grades
# planted before grading: mallory's full marks and a folder for nobody
mkdir -p "$g/mallory" "$g/ghost"
echo '{"score": 1000}' >"$g/mallory/results.json"
echo "planted" >"$g/mallory/planted.txt"
head -n 1 "$t/s.tsv" >"$g/ghost/scores.tsv"
# .zip files read without unzip: an unzip first on PATH that fails, and
# says so (a PATH without the folder of unzip would take the host compiler
# away from nvcc too, in the compiler's sandbox, which hides /var/tmp: a
# failure of the grading machine, which grades nobody)
mkdir -p "$t/nounzip"
printf '#!/bin/sh\necho "unzip was run" >>"%s"\nexit 1\n' "$t/unzip-ran" >"$t/nounzip/unzip"
chmod +x "$t/nounzip/unzip"
PATH=$t/nounzip:$PATH harness/grade.sh "$s" "$g" >"$t/grade1" 2>&1
check "grade: every student graded" grep -q "graded ${#students[@]}, skipped 0" "$t/grade1"
check "grade: a .zip with a failing unzip first on PATH" grep -qx "== erin" "$t/grade1"
check "grade: ... its lab file taken" grep -q "graded: 01-prefix-sum/prefix_sum.cu" "$g/erin/results.json"
check "grade: ... unzip never run (erin, eve, yves, zoe)" test ! -e "$t/unzip-ran"
mallory_regraded() { grep -qx "== mallory" "$t/grade1" && [ ! -e "$g/mallory/planted.txt" ]; }
check "grade: a planted results folder is not a graded student" mallory_regraded
check "grade: results per student" python3 - "$g" "${students[@]}" <<'PY'
import json, os, sys
from rows import tests
g = sys.argv[1]
res = {who: json.load(open(os.path.join(g, who, "results.json"))) for who in sys.argv[2:]}
for who in res:
    res[who]["tests"] = tests(g, who)
max_points = None
for who, r in res.items():
    assert "score" not in r, (who, r["score"])  # a dry run: no score
    assert r["output"].startswith("No score: the tests did not run"), (who, r["output"])
    total = sum(x["max_score"] for x in r["tests"])
    max_points = max_points or total
    assert total == max_points, (who, total, max_points)
al = res["alice"]
assert len(al["tests"]) > 10, len(al["tests"])
assert "ignored" in al["output"] and "NOTES.txt" in al["output"], al["output"]
lab01_max = sum(x["max_score"] for x in al["tests"] if "lab01" in x["tags"])
b1 = [x for x in res["bob"]["tests"] if "lab01" in x["tags"]]
assert len(b1) == 1 and "does not compile" in b1[0]["output"], b1
assert b1[0]["max_score"] == lab01_max, (b1, lab01_max)
carol = res["carol"]["output"]
assert "harness/diagnose.c" in carol and "graded: prefix_sum.cu" in carol, carol
fr = res["frank"]
assert all("missing" in x["output"] for x in fr["tests"]) and "README" in fr["output"], fr
for who in ("dave", "erin", "eve", "tom"):
    assert "01-prefix-sum/prefix_sum.cu" in res[who]["output"], (who, res[who]["output"])
assert "score" not in res["mallory"]
PY
check "grade: hostile .zip entries refused, one line each" python3 - "$g/eve/results.json" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))["output"]
for needle in ("refused '../evil.txt': a '..' in its path",
               "refused '../../../../../evil.txt': a '..' in its path",
               "abs-evil.txt': an absolute path",
               "refused 'link.cu': a symbolic link",
               "graded: 01-prefix-sum/prefix_sum.cu"):
    assert needle in out, (needle, out)
PY
check "grade: hostile .tar.gz entries refused, one line each" python3 - "$g/tom/results.json" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))["output"]
for needle in ("refused '../tom-evil.txt': a '..' in its path", "abs-evil.txt': an absolute path",
               "refused 'etc': a symbolic link", "refused 'hard.cu': a hard link",
               "refused 'pipe': not a regular file or folder", "graded: 01-prefix-sum/prefix_sum.cu"):
    assert needle in out, (needle, out)
PY
check "grade: nothing unpacked outside a work folder" test -z "$(find "$t" -path "$s" -prune -o -name "*evil*" -print)"
check "grade: a zip bomb is refused" python3 - "$g" <<'PY'
import json, os, sys
from rows import tests
r = json.load(open(os.path.join(sys.argv[1], "zoe", "results.json")))
assert "could not unpack zoe.zip: unpacks to more than 64 MiB" in r["output"], r["output"]
assert all("missing" in x["output"] for x in tests(sys.argv[1], "zoe")), tests(sys.argv[1], "zoe")
PY
check "grade: too many files is refused" grep -q "could not unpack yves.zip: more than 10000 files" "$t/grade1"
check "grade: the compiler cannot read the solutions" python3 - "$g" <<'PY'
from rows import tests
import sys
t = [x for x in tests(sys.argv[1], "sneaky") if "lab01" in x["tags"]]
assert len(t) == 1 and "does not compile" in t[0]["output"], [x["output"] for x in t[:2]]
PY
check "grade: gradebook" python3 - "$g/gradebook.csv" "${students[*]}" $(harness/lab-dirs.sh) <<'PY'
import csv, os, sys
rows = list(csv.reader(open(sys.argv[1])))
labs = ["lab" + os.path.basename(d.rstrip("/"))[:2] for d in sys.argv[3:]]
assert rows[0] == ["student"] + labs + ["total"], rows[0]
assert rows[1][0] == "Points Possible" and all(float(x) > 0 for x in rows[1][1:]), rows[1]
assert float(rows[1][-1]) == sum(float(x) for x in rows[1][1:-1]), rows[1]
assert [r[0] for r in rows[2:]] == sys.argv[2].split(), rows
assert all(x == "" for r in rows[2:] for x in r[1:]), rows  # a dry run: no score, blank cells
PY
check "grade: the record" python3 - "$g/.graded.tsv" "$(cat VERSION)" "$(harness/lab-dirs.sh | sed 's|^labs/||; s|-.*||' | paste -sd ,)" "${students[@]}" <<'PY'
import re, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
assert sorted(r[0] for r in rows) == sorted(sys.argv[4:]), rows
assert all(re.fullmatch("[0-9a-f]{64}", r[1]) for r in rows), rows
assert all(len(r) == 13 for r in rows), rows
# the assignment: no LAB or LABS, every lab of the kit
assert {r[12] for r in rows} == {sys.argv[3]}, rows
# mode, seed, kit: a dry run (every test NOGPU), no seed, one kit version
assert {(r[9], r[10]) for r in rows} == {("dry", "public")}, rows
kits = {r[11] for r in rows}
assert len(kits) == 1 and re.fullmatch(re.escape(sys.argv[2]) + r"\+[0-9a-f]{12}", kits.pop()), rows
PY
if [ -d solutions ]; then
    check "grade: the grading kit is there" test -f build/grade-kit/Makefile
    check "grade: the grading kit has no solutions/" test ! -e build/grade-kit/solutions
else
    echo "SKIP: the grading kit: this kit has no solutions/ (a handout), so it grades in place"
fi
harness/grade.sh "$s" "$g" >"$t/grade2" 2>&1
check "grade: a rerun skips everyone" grep -q "graded 0, skipped ${#students[@]}" "$t/grade2"
echo "/* changed */" >>"$s/alice/01-prefix-sum/prefix_sum.cu"
harness/grade.sh "$s" "$g" >"$t/grade3" 2>&1
alice_regraded() { grep -q "graded 1, skipped $((${#students[@]} - 1))" "$t/grade3" && grep -qx "== alice" "$t/grade3"; }
check "grade: a changed submission is regraded, the others skipped" alice_regraded

# the real run after the dry one: with a secret seed (make and bwrap
# logging whether they see it), without FORCE=1, it regrades everyone
seed=918273645501
mkdir -p "$t/shim"
for tool in make bwrap; do
    cat >"$t/shim/$tool" <<SH
#!/bin/sh
[ -z "\${PRIMLAB_SEED+x}" ] || echo "$tool saw PRIMLAB_SEED" >>"$t/leaks"
exec $(command -v "$tool") "\$@"
SH
    chmod +x "$t/shim/$tool"
done
PATH=$t/shim:$PATH PRIMLAB_SEED=$seed harness/grade.sh "$s" "$g" >"$t/grade4" 2>&1
check "grade: a seed after a dry run without one regrades everyone" grep -q "graded ${#students[@]}, skipped 0" "$t/grade4"
said_why() { # each student's line says why, and nobody is "already graded"
    local who
    for who in "${students[@]}"; do
        grep -qx "== $who: regraded: the last grading was without a seed (no hidden tests)" "$t/grade4" || return 1
    done
    ! grep -q "already graded" "$t/grade4"
}
check "grade: ... and says why, one line per student" said_why
check "grade: the seed reaches the lab binaries (hidden tests), the same maximum for all" python3 - "$g" "${students[@]}" <<'PY'
import os, sys
from rows import tests
tot = {w: sum(x["max_score"] for x in tests(sys.argv[1], w)) for w in sys.argv[2:]}
assert len(set(tot.values())) == 1, tot
hidden = [x for x in tests(sys.argv[1], "alice") if "(hidden)" in x["name"]]
assert hidden, "no hidden tests with PRIMLAB_SEED set"
PY
check "grade: the seed never reaches make or bwrap" test ! -e "$t/leaks"
check "grade: the seed is in no output" test -z "$(grep -l "$seed" "$t/grade4")"
check "grade: the seed is in no file of the grades" test -z "$(grep -rl "$seed" "$g")"
fingerprinted() { # every last line: dry, the same 16 hex digits, not public; the key 0600
    [ "$(stat -c %a "$g/.seed-key")" = 600 ] &&
        [ "$(cut -f 10,11 "$g/.graded.tsv" | tail -n ${#students[@]} | sort -u | grep -cxE $'dry\t[0-9a-f]{16}')" = 1 ]
}
check "grade: the record keeps the seed's fingerprint, the key is mode 0600" fingerprinted
PRIMLAB_SEED=$seed harness/grade.sh "$s" "$g" >"$t/grade4b" 2>&1
check "grade: a rerun with the same seed and kit skips everyone" grep -q "graded 0, skipped ${#students[@]}" "$t/grade4b"
# a record from before the mode, seed and kit columns: skipped as before, on
# the checksum alone, and silently (here without the seed it was graded with)
cut -f 1-9 "$g/.graded.tsv" >"$t/old.tsv" && cp "$t/old.tsv" "$g/.graded.tsv"
harness/grade.sh "$s" "$g" >"$t/grade4c" 2>&1
old_skips() { grep -q "graded 0, skipped ${#students[@]}" "$t/grade4c" && ! grep -q "regraded:" "$t/grade4c"; }
check "grade: a 9-field record line still skips, silently" old_skips
check "grade: no temporary files left" test -z "$(find "$g" -name "*.tmp")$(ls -A "$g/.work")"

# FORCE=1: erin, whom the record above skips (silently), regraded alone
# (a folder of erin.zip alone, into the same grades), saying no reason
mkdir -p "$t/subs2" && cp "$s/erin.zip" "$t/subs2/"
FORCE=1 harness/grade.sh "$t/subs2" "$g" >"$t/grade6" 2>&1
forced() { grep -q "graded 1, skipped 0" "$t/grade6" && grep -qx "== erin" "$t/grade6" && ! grep -q "regraded:" "$t/grade6"; }
check "grade: FORCE=1 regrades a student the record skips, saying no reason" forced

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
