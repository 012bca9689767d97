#!/usr/bin/env bash
# tests/test_grading.sh: the grading pipeline end to end, with a real JSON
# parser (Python's) reading back what it writes:
#   1. build/primlab-results on a crafted scores file: exact fields, escaping,
#      hidden tests, the leaderboard, Autolab's last line;
#   2. harness/grade.sh on planted submissions (a folder, a .tar.gz, a .zip,
#      one that does not compile, one that ships a modified harness file, one
#      with no lab file): results.json per student, the ignored files, the
#      gradebook, and a rerun that skips everyone, then FORCE=1.
# The GPU is switched off (PRIMLAB_NO_GPU=1): this tests the pipeline, so it
# runs the same with or without a GPU; scoring on a GPU is `make check`'s.
set -u
export PRIMLAB_NO_GPU=1
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
check() { # check NAME COMMAND...
    if "${@:2}" >"$t/log" 2>&1; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1"; sed 's/^/    /' "$t/log" | tail -n 15
    fi
}
command -v python3 >/dev/null || { echo "test_grading: python3 not found (make bootstrap)"; echo "0 passed, 1 failed"; exit 1; }
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
assert r["leaderboard"] == [{"name": t[2]["name"], "value": 0.12, "order": "desc"}]
out = open(sys.argv[2]).read().splitlines()
assert out[0] == "Score: 2.50/4", out
a = json.loads(out[-1])
assert a == {"scores": {"Lab01": 2.5}, "scoreboard": [2.5, 2.5]}, a
PY

# ---------------------------------------------------------------- 2
s=$t/subs
mkdir -p "$s/alice/01-prefix-sum" "$s/bob" "$s/carol/harness" "$s/frank" "$t/zip/erin/01-prefix-sum"
cp labs/01-prefix-sum/prefix_sum.cu "$s/alice/01-prefix-sum/"
echo "my notes" >"$s/alice/NOTES.txt"
echo "int oops = ;" >"$s/bob/prefix_sum.cu"
cp labs/01-prefix-sum/prefix_sum.cu "$s/carol/prefix_sum.cu"
echo "/* a harness that gives full marks */" >"$s/carol/harness/diagnose.c"
echo "nothing here" >"$s/frank/README"
tar -czf "$s/dave.tar.gz" -C "$s/alice" .
python3 -c "import shutil,sys; shutil.make_archive(sys.argv[1], 'zip', sys.argv[2])" "$s/erin" "$s/alice"
g=$t/grades
harness/grade.sh "$s" "$g" >"$t/grade1" 2>&1
check "grade: every student graded" grep -q "graded 6, skipped 0" "$t/grade1"
check "grade: results per student" python3 - "$g" <<'PY'
import json, os, sys
g = sys.argv[1]
max_points = None
for who in ("alice", "bob", "carol", "dave", "erin", "frank"):
    r = json.load(open(os.path.join(g, who, "results.json")))
    assert r["score"] == 0, (who, r["score"])
    total = sum(x["max_score"] for x in r["tests"])
    max_points = max_points or total
    assert total == max_points, (who, total, max_points)
    assert "total: 0/%g" % max_points in r["output"], r["output"]
al = json.load(open(os.path.join(g, "alice", "results.json")))
assert len(al["tests"]) > 10, len(al["tests"])
assert "ignored" in al["output"] and "NOTES.txt" in al["output"], al["output"]
lab01_max = sum(x["max_score"] for x in al["tests"] if "lab01" in x["tags"])
bob = json.load(open(os.path.join(g, "bob", "results.json")))
b1 = [x for x in bob["tests"] if "lab01" in x["tags"]]
assert len(b1) == 1 and "does not compile" in b1[0]["output"], b1
assert b1[0]["max_score"] == lab01_max, (b1, lab01_max)
carol = json.load(open(os.path.join(g, "carol", "results.json")))
assert "harness/diagnose.c" in carol["output"], carol["output"]
assert "graded: prefix_sum.cu" in carol["output"]
fr = json.load(open(os.path.join(g, "frank", "results.json")))
assert all("missing" in x["output"] for x in fr["tests"]) and "README" in fr["output"], fr
for who in ("dave", "erin"):
    assert "01-prefix-sum/prefix_sum.cu" in json.load(open(os.path.join(g, who, "results.json")))["output"]
PY
check "grade: gradebook" python3 - "$g/gradebook.csv" labs/[0-9][0-9]-*/ <<'PY'
import csv, os, sys
rows = list(csv.reader(open(sys.argv[1])))
labs = ["lab" + os.path.basename(d.rstrip("/"))[:2] for d in sys.argv[2:]]
assert rows[0] == ["student"] + labs + ["total"], rows[0]
assert sorted(r[0] for r in rows[1:]) == ["alice", "bob", "carol", "dave", "erin", "frank"], rows
assert all(float(x) == 0 for r in rows[1:] for x in r[1:])
PY
harness/grade.sh "$s" "$g" >"$t/grade2" 2>&1
check "grade: a rerun skips everyone" grep -q "graded 0, skipped 6" "$t/grade2"
FORCE=1 harness/grade.sh "$s" "$g" >"$t/grade3" 2>&1
check "grade: FORCE=1 regrades" grep -q "graded 6, skipped 0" "$t/grade3"
check "grade: no temporary files left" test -z "$(find "$g" -name '*.tmp')"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
