#!/usr/bin/env bash
# harness/serve/figure.sh RESULTS_JSON LAB OUT: a student's figure (issue 55
# item 3): their throughput as a fraction of the vendor library's (CUB;
# cuSPARSE for lab 06's SpMV), measured in the same run, against n, beside
# the solution's reference data (plots/data/labLAB.tsv, measured on the GPU
# it names), drawn by plots/student.gp in the project's style
# (plots/style.gp). OUT's name ends in .svg, .png or .pdf.
#
#   harness/serve/figure.sh JOBDIR/results.json 01 JOBDIR/figure.svg
#                                   a check-service job (harness/serve/run-job.sh)
#   harness/serve/figure.sh --sweep SWEEP.tsv --tests TESTS.tsv 01 OUT.svg
#                                   a `labNN sweep` of the student's code;
#                                   TESTS.tsv, `labNN fill --scores` into an
#                                   empty file: the lab's tests as score rows
#                                   (make plots IMPL=labs)
#
# Each performance test of LAB timed against the vendor library ("vs the
# vendor library", or "vs its roof", whose ratio to the vendor is its
# leaderboard entry all the same) is a series:
# its part, and its parameter when its name has one ("01.b performance vs
# the vendor library, n=16777216", harness/parent/rubric.c's format; ",
# dist=random" after it picks the rows of that parameter: a number equal
# to the data's param column, or a name equal to its param_label; a part
# measured at one parameter only takes those rows). Tests against the
# CPU are left out.
# From results.json: the tests with a ratio (their "leaderboard" entries,
# harness/parent/results.c), each at the size its name gives. A job's
# performance tests time one size each: each is drawn as a point with its
# value beside it, never joined into a curve, and the title says so.
# From a sweep: the student's rows (variant "student") of each test's part
# and parameter, a line across n (a point where there is one size); the
# tests from TESTS.tsv, or without it every part with the student's ratio
# at two sizes or more. Beside each, the solution's reference rows of the
# same part and parameter, a dashed line.
#
# Exit status: 0 with OUT written; 1 with one line on stderr saying why
# there is none (gnuplot or python3 missing: a warning, the figure is
# optional; no ratio of LAB in the results; gnuplot failed); 2 for bad
# arguments.
set -u
usage() {
    echo "usage: harness/serve/figure.sh [--sweep SWEEP.tsv [--tests TESTS.tsv] | RESULTS_JSON] LAB OUT.svg|.png|.pdf" >&2
    exit 2
}
mode=results tests="" src=""
while [ $# -gt 0 ]; do
    case "$1" in
    --sweep) [ $# -gt 1 ] || usage; mode=sweep src=$2 && shift ;;
    --tests) [ $# -gt 1 ] || usage; tests=$2 && shift ;;
    -*) usage ;;
    *) break ;;
    esac
    shift
done
[ $mode = sweep ] || { [ $# -gt 0 ] && src=$1 && shift; }
[ $# = 2 ] && [ -n "$src" ] || usage
[ -z "$tests" ] || [ -r "$tests" ] || { echo "figure: cannot read '$tests'" >&2; exit 1; }
lab=$1 out=$2
[[ $lab =~ ^[0-9][0-9]$ ]] || { echo "figure: '$lab' is not a lab's number (01)" >&2; exit 2; }
case "$out" in *.svg) fmt=svg ;; *.png) fmt=png ;; *.pdf) fmt=pdf ;; *) usage ;; esac
command -v gnuplot >/dev/null 2>&1 ||
    { echo "figure: warning: gnuplot is not installed (make bootstrap installs it): no figure" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 ||
    { echo "figure: warning: python3 is not installed: no figure" >&2; exit 1; }
[ -r "$src" ] || { echo "figure: cannot read '$src'" >&2; exit 1; }
abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
src=$(abs "$src") out=$(abs "$out")
[ -z "$tests" ] || tests=$(abs "$tests")
kit=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/primlab-figure.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The data (lab, part, variant, n, x_vendor, series) and the setup file
# plots/student.gp loads; or one line why there is nothing to draw.
python3 - "$mode" "$src" "$tests" "$lab" "$kit/plots/data/lab$lab.tsv" "$tmp/data.tsv" "$tmp/setup.gp" \
    2>"$tmp/py.err" <<'PY' ||
import json, math, re, sys
mode, src, tests_path, lab, ref_path, data_path, setup_path = sys.argv[1:]

def num(s):
    try:
        v = float(s)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None

def read_tsv(path):
    """Rows of a lab data file (plots/README.md), as dicts; its # lines apart."""
    meta, rows, head = {}, [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("#"):
                k, _, v = line[1:].strip().partition(":")
                meta.setdefault(k.strip(), v.strip())
            elif head is None:
                head = line.split("\t")
            elif line:
                rows.append(dict(zip(head, line.split("\t"))))
    return meta, rows

def size_str(n):
    """n as gnuplot's enhanced text shows it: 2^{24}, or the number."""
    n = int(n)
    return "2^{%d}" % (n.bit_length() - 1) if n > 0 and n & (n - 1) == 0 else str(n)

def esc(s):
    """Text shown as it is in gnuplot's enhanced text."""
    return re.sub(r"([_^{}@&~\\])", r"\\\1", s)

def fail(why):
    print(why, file=sys.stderr)
    sys.exit(1)

NAME_RE = re.compile(r"^(\d+)\.(\S+) performance vs (.+?), ([A-Za-z_]+)=(\d+)(?:, ([A-Za-z_]+)=(.+))?$")

def perf_test(name):
    """(part, size name, n, param name, param) of a performance test of LAB
    timed against the vendor library (scored by its ratio, or by its roof:
    its leaderboard entry is its ratio all the same), or None."""
    m = NAME_RE.match(name)
    if not m or m.group(1) != lab or m.group(3) not in ("the vendor library", "its roof"):
        return None
    return m.group(2), m.group(4), int(m.group(5)), m.group(6), m.group(7)

def matching(rows, part, param, variant):
    """The rows of variant, part and param (the header says how) with a ratio."""
    rows = [r for r in rows if r.get("part") == part and r.get("variant") == variant
            and num(r.get("x_vendor")) and num(r.get("n"))]
    if param is None:
        return [r for r in rows if num(r.get("param")) is None] or rows
    p = num(param)
    pick = [r for r in rows if (p is not None and num(r.get("param")) is not None
                                and abs(num(r["param"]) - p) <= 1e-9 * max(1, abs(p)))
            or (p is None and r.get("param_label") == param)]
    if not pick and p is None and not any(r.get("param_label") not in (None, "", "nan") for r in rows) \
            and len({r.get("param") for r in rows}) == 1:
        pick = rows  # a part measured at one parameter, with no names for it
    return pick

def points(rows):
    return sorted((int(num(r["n"])), num(r["x_vendor"])) for r in rows)

def key_of(part, size, n, pname, param):
    return "%s.%s %s=%s%s" % (esc(lab), esc(part), esc(size), size_str(n),
                              ", %s=%s" % (esc(pname), esc(param)) if param else "")

# The series: (part, param, label for the key, [(n, ratio)]).
series, sizes = [], set()
if mode == "results":
    try:
        res = json.load(open(src, encoding="utf-8"))
    except (OSError, ValueError) as e:
        fail("cannot read '%s' as results.json: %s" % (src, e))
    for e in res.get("leaderboard") or []:
        t, v = perf_test(str(e.get("name", ""))), num(e.get("value"))
        if t and v and v > 0:
            part, size, n, pname, param = t
            sizes.add(size)
            series.append((part, param, "yours, %s: %.3fx" % (key_of(*t), v), [(n, v)]))
    if not series:
        fail("no performance test of lab %s has a ratio in '%s' (its leaderboard holds a lab's ratios only once "
             "every correctness test passed): nothing to draw" % (lab, src))
    what = ("yours: the one performance test of your job, at one size: a point, not a curve" if len(series) == 1
            else "yours: the %d performance tests of your job, one size each: a point each, not a curve" % len(series))
else:
    meta, rows = read_tsv(src)
    rows = [r for r in rows if r.get("lab", lab) == lab]
    if tests_path:
        with open(tests_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                col = line.rstrip("\r\n").split("\t")
                t = perf_test(col[1]) if len(col) > 2 and col[2] == "performance" else None
                if t:
                    part, size, n, pname, param = t
                    sizes.add(size)
                    pts = points(matching(rows, part, param, "student"))
                    if pts:
                        series.append((part, param, "yours, part %s%s (the test: %s)" % (
                            esc(part), ", " + esc(param) if param else "", key_of(*t)), pts))
    else:
        for part in sorted({r.get("part") for r in rows if r.get("variant") == "student"}):
            params = {r.get("param") for r in matching(rows, part, None, "student")} or {None}
            for param in sorted(p for p in params if p is not None and num(p) is not None) or [None]:
                pts = points(matching(rows, part, param, "student"))
                if len({n for n, _ in pts}) >= 2:
                    series.append((part, param, "yours, part %s%s" % (esc(part), ", param " + esc(param) if param else ""), pts))
    if not series:
        fail("no performance test of lab %s has the student's ratio to the vendor library in '%s': nothing to draw"
             % (lab, src))
    series = series[:6]
    what = "yours: a sweep of your code%s, a line per test's part" % (
        " on " + meta["device"] if meta.get("device") else "")

# The solution's reference rows of each series.
ref_rows, ref_device = [], ""
try:
    ref_meta, ref_rows = read_tsv(ref_path)
    ref_device = ref_meta.get("device", "")
except OSError:
    pass
vendors = set()
for part, _, _, _ in series:
    for r in ref_rows:
        if r.get("part") == part and r.get("variant") in ("cub", "cusparse"):
            vendors.add({"cub": "CUB", "cusparse": "cuSPARSE"}[r["variant"]])
vendor = " and ".join(sorted(vendors)) or "the vendor library"

lines, sol_titles, missing = [], [], []
for i, (part, param, key, pts) in enumerate(series, 1):
    for n, v in pts:
        lines.append("%s\t%s\tstudent\t%d\t%.6g\t%d" % (lab, part, n, v, i))
    ref = points(matching(ref_rows, part, param, "solution"))
    for n, v in ref:
        lines.append("%s\t%s\tsolution\t%d\t%.6g\t%d" % (lab, part, n, v, i))
    label = "part %s%s" % (part, ", %s" % param if param else "")
    sol_titles.append(esc("solution, %s" % label) if ref else "")
    if not ref:
        missing.append(label)
with open(data_path, "w") as f:
    f.write("lab\tpart\tvariant\tn\tx_vendor\tseries\n" + "\n".join(lines) + "\n")

ns = [int(l.split("\t")[3]) for l in lines]
vs = [float(l.split("\t")[4]) for l in lines] + [1.0]
lo_n, hi_n = min(ns), max(ns)
xmin, xmax = 2 ** (math.floor(math.log2(lo_n)) - 1), 2 ** (math.ceil(math.log2(hi_n)) + 1)
ymin, ymax = min(vs) / 2, max(vs) * 2
sub2 = "solution: %s" % (
    "the kit's reference data" + (", measured on " + ref_device if ref_device else "")
    if len(missing) < len(series) else "no reference data for lab %s" % lab)
if missing and len(missing) < len(series):
    sub2 += " (none for %s)" % ", ".join(missing)

def gp(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
with open(setup_path, "w") as f:
    f.write("part = %s\nnseries = %d\n" % (gp(series[0][0]), len(series)))
    f.write("array yours_title[%d]\narray sol_title[%d]\n" % (len(series), len(series)))
    for i, (_, _, key, _) in enumerate(series, 1):
        f.write("yours_title[%d] = %s\nsol_title[%d] = %s\n" % (i, gp(key), i, gp(sol_titles[i - 1])))
    f.write("joined = %d\nlabelled = %d\n" % (mode == "sweep", mode == "results"))
    f.write("title_text = %s\n" % gp("Lab %s: your throughput as a fraction of %s's, measured in the same run"
                                     % (lab, vendor)))
    f.write("sub_text = %s\nsub2_text = %s\n" % (gp(what), gp(sub2)))
    f.write("vendor_title = %s\n" % gp(esc("%s, the same run (= 1)" % vendor)))
    f.write("xmin = %g\nxmax = %g\nymin = %g\nymax = %g\n" % (xmin, xmax, ymin, ymax))
    f.write("xlabel_text = %s\n" % gp("" if sizes <= {"n"} else esc("the test's size (%s)" % ", ".join(sorted(sizes)))))
PY
    { echo "figure: $(tail -n 1 "$tmp/py.err")" >&2; exit 1; }

rm -f "$out"
if ! gnuplot -e "plotdir='$kit/plots'; datafile='$tmp/data.tsv'; setup='$tmp/setup.gp'; fmt='$fmt'; \
        outfile='$tmp/figure.$fmt'; device='-'; copy_gbps=NaN" "$kit/plots/student.gp" >"$tmp/gp.out" 2>&1 ||
    [ ! -s "$tmp/figure.$fmt" ]; then
    echo "figure: gnuplot failed: $(grep -v '^[[:space:]]*$' "$tmp/gp.out" | tail -n 1)" >&2
    exit 1
fi
mv -f "$tmp/figure.$fmt" "$out" || { echo "figure: cannot write '$out'" >&2; exit 1; }
