#!/usr/bin/env bash
# tests/unit/test_docs_figures.sh: the point totals and the lab lists that
# README.md and docs/*.md state come from the labs' tables:
#   - a total of points is written with a marker after its number,
#     `1537<!-- points: all --> points`: the labs (all, or ids: 01,02) and,
#     after them, `seed` (graded with PRIMLAB_SEED: the hidden tests and
#     the limit tests) or `limits` (PRIMLAB_LIMITS=1 without a seed);
#     neither: the public tests alone. It must equal the sum of those labs'
#     maxima, computed here as grading computes the gradebook's Points
#     Possible row (labNN fill into an empty scores file, then
#     build/primlab-results --csv-max). A number followed by "points" with
#     no marker is a claim no one checks, and fails (but "N points each", a
#     test's own points);
#   - a count of the labs ("the eight labs", "over 8 labs") is the kit's;
#   - README.md's table of labs has a row for each lab of the kit, in order;
#   - a lab named (lab 05, lab05, LAB=05, 05-radix-sort) is one of the kit.
# Each failure names the doc, the line and the right figure. Then
# self-tests: copies of a doc with a total, a count, the table or a lab
# reference made wrong, or a total left unmarked, must fail so. Prints
# 'ok N - ...' or 'not ok N - ...' per claim, then the counts; exits 0 only
# when all hold and at least 2 totals, 1 count and the table were found.
#
#   tests/unit/test_docs_figures.sh            (from anywhere; no GPU)
set -u
cd "$(dirname "$0")/../.." || exit 2
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
make -s --no-print-directory build/primlab-results $(harness/lab-dirs.sh | sed 's|^labs/\([0-9]*\)-.*|build/tables/lab\1|') \
    >"$t/make.log" 2>&1 || { echo "not ok 1 - make the labs' tables: $(tail -n 1 "$t/make.log")"; exit 1; }
ids=$(harness/lab-dirs.sh | sed 's|^labs/||; s|-.*||' | paste -sd ,)

# maxima KIND: "Points Possible,<lab>,...,<total>" of every lab, as make
# grade's gradebook row: public, seed (hidden and limit tests) or limits
maxima() {
    local id f=$t/$1.tsv
    for id in ${ids//,/ }; do
        case "$1" in
        public) env -u PRIMLAB_SEED PRIMLAB_LIMITS=0 "build/tables/lab$id" fill --scores "$f" ;;
        seed) env -u PRIMLAB_LIMITS PRIMLAB_SEED=1 "build/tables/lab$id" fill --scores "$f" ;;
        limits) env -u PRIMLAB_SEED PRIMLAB_LIMITS=1 "build/tables/lab$id" fill --scores "$f" ;;
        esac >/dev/null || return 1
    done
    build/primlab-results "$f" --labs "$ids" --csv-max "Points Possible"
}
for kind in public seed limits; do
    maxima "$kind" >"$t/max.$kind" || { echo "not ok 1 - the tables' maxima ($kind): labNN fill failed"; exit 1; }
done
dirs=$(harness/lab-dirs.sh | sed 's|^labs/||; s|/$||' | paste -sd ,)

# check FILE...: the claims of FILEs, one TAP line each (numbered from
# N0, default 1); the last line "# totals T counts C tables B"
check() {
    python3 - "$ids" "$dirs" "$t/max.public" "$t/max.seed" "$t/max.limits" "$@" <<'PY'
import os, re, sys

ids = sys.argv[1].split(",")
dirs = sys.argv[2].split(",")
maxima = {}
for kind, path in zip(("public", "seed", "limits"), sys.argv[3:6]):
    row = open(path).read().strip().split(",")
    maxima[kind] = dict(zip(ids, (float(x) for x in row[1:-1])))
files = sys.argv[6:]
n = int(os.environ.get("N0", "1"))
WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
KIND_SAYS = {"public": "the public tests", "seed": "with PRIMLAB_SEED: hidden and limit tests",
             "limits": "with PRIMLAB_LIMITS=1"}
fails = totals = counts = tables = 0

def say(ok, text):
    global n, fails
    print(("ok %d - " if ok else "not ok %d - ") % n + text)
    n += 1
    fails += not ok

def fmt(v):
    return "%g" % v

def number(s):
    s = s.lower().replace(",", "")
    return float(WORDS.index(s)) if s in WORDS else float(s)

marker = re.compile(r"(\d[\d,]*(?:\.\d+)?)<!-- points: ([^>]*?) -->")
unmarked = re.compile(r"(?<![\w.<])(\d[\d,]*(?:\.\d+)?)\s+points\b(?!\s+each)")
count = re.compile(r"(?i)(?:\b(?:the|all|over|of)\s+|^\s*|[.:;]\s+)(%s|\d+)\s+labs\b" % "|".join(WORDS))
lab_ref = re.compile(r"\b(?:[Ll]ab ?|LAB=)(\d\d)\b|\b(\d\d-[a-z][a-z0-9-]*[a-z0-9])\b")
for path in files:
    lines = open(path).read().split("\n")
    in_table = False
    rows = []
    for no, line in enumerate(lines, 1):
        where = "%s:%d" % (path, no)
        for m in marker.finditer(line):
            totals += 1
            spec = m.group(2).split()
            kind = spec[1] if len(spec) > 1 else "public"
            labs = ids if spec and spec[0] == "all" else spec[0].split(",") if spec else []
            if kind not in maxima or not labs or any(l not in ids for l in labs) or len(spec) > 2:
                say(False, "%s: bad marker '<!-- points: %s -->' (labs: all or %s; then seed or limits)"
                    % (where, m.group(2), ",".join(ids)))
                continue
            want = sum(maxima[kind][l] for l in labs)
            what = "%s points of %s, %s" % (m.group(1), "every lab" if spec[0] == "all" else "lab " + spec[0],
                                            KIND_SAYS[kind])
            if abs(number(m.group(1)) - want) < 1e-9:
                say(True, "%s: %s" % (where, what))
            else:
                say(False, "%s: %s: the tables give %s" % (where, what, fmt(want)))
        for m in unmarked.finditer(line):
            totals += 1
            say(False, "%s: '%s points' is not marked: write %s<!-- points: all --> for every lab's total "
                "(the tables give %s; %s with the seed), or the labs it counts"
                % (where, m.group(1), m.group(1), fmt(sum(maxima["public"].values())), fmt(sum(maxima["seed"].values()))))
        for m in count.finditer(line):
            counts += 1
            got = number(m.group(1))
            right = WORDS[len(ids)] if m.group(1).lower() in WORDS and len(ids) < len(WORDS) else str(len(ids))
            say(got == len(ids), "%s: '%s labs'%s" % (where, m.group(1),
                "" if got == len(ids) else ": the kit has %s (%s)" % (right, " ".join(ids))))
        for m in lab_ref.finditer(line):
            if m.group(1) and m.group(1) not in ids:
                say(False, "%s: lab %s is not a lab of the kit (labs: %s)" % (where, m.group(1), " ".join(ids)))
            elif m.group(2) and m.group(2)[:2] in ids and m.group(2) not in dirs:
                say(False, "%s: '%s' is not the kit's folder: labs/%s" % (where, m.group(2),
                    dirs[ids.index(m.group(2)[:2])]))
        if os.path.basename(path) == "README.md" and re.match(r"\|\s*lab\s*\|", line):
            in_table, start = True, no
            continue
        if in_table:
            cell = re.match(r"\|\s*([^|]*?)\s*\|", line)
            if not cell:
                in_table = False
                tables += 1
                ok = rows == ids
                say(ok, "%s:%d: the table of labs: %s%s" % (path, start, " ".join(rows),
                    "" if ok else "; the kit's labs are %s" % " ".join(ids)))
            elif not re.fullmatch(r"-+", cell.group(1)):
                rows.append(cell.group(1))
print("# totals %d counts %d tables %d" % (totals, counts, tables))
sys.exit(1 if fails else 0)
PY
}

docs=(README.md docs/*.md)
check "${docs[@]}" >"$t/out"
rc=$?
grep -v '^#' "$t/out"
read -r _ _ totals _ counts _ tables < <(grep '^# totals' "$t/out")
fail=0
[ "$rc" = 0 ] || fail=1
n=$(($(grep -c '^\(not \)\?ok ' "$t/out") + 1))
if [ "${totals:-0}" -lt 2 ] || [ "${counts:-0}" -lt 1 ] || [ "${tables:-0}" -lt 1 ]; then
    echo "not ok $n - too few claims found (${totals:-0} totals, ${counts:-0} counts, ${tables:-0} tables): the search is broken"
    n=$((n + 1))
    fail=1
fi

# ------------------------------------------------------------- self-tests
# wrong NAME SED FILE EXPECT: FILE copied with SED applied must fail, with a
# line matching EXPECT (the doc, its line, the right figure)
wrong() {
    local copy
    copy=$t/self/$(basename "$3")
    mkdir -p "$t/self" && sed "$2" "$3" >"$copy"
    cmp -s "$copy" "$3" && { echo "not ok $n - self-test '$1': the edit changed nothing"; fail=1; n=$((n + 1)); return; }
    if N0=900 check "$copy" >"$t/self.out" && true; then
        echo "not ok $n - self-test '$1': passed"
        fail=1
    elif grep -q "^not ok [0-9]* - $4" "$t/self.out"; then
        echo "ok $n - self-test: $1"
    else
        echo "not ok $n - self-test '$1': no line like '$4': $(grep -m 1 '^not ok' "$t/self.out")"
        fail=1
    fi
    n=$((n + 1))
    rm -rf "$t/self"
}
public=$(cut -d, -f "$(($(tr -cd , <<<"$ids" | wc -c) + 3))" "$t/max.public")
guide=docs/instructor-guide.md
line=$(grep -n '<!-- points: all -->' $guide | head -n 1 | cut -d: -f 1)
wrong "a total one point off" "s/$public<!-- points: all -->/$((public - 1))<!-- points: all -->/" $guide \
    ".*/instructor-guide.md:$line: $((public - 1)) points of every lab, the public tests: the tables give $public$"
wrong "a total not marked" "s/$public<!-- points: all -->/$public/" $guide \
    ".*/instructor-guide.md:$line: '$public points' is not marked"
wrong "another count of labs" "${line}s/the [a-z]* labs/the three labs/" $guide ".*/instructor-guide.md:$line: 'three labs': the kit has"
wrong "a lab missing from the table" '/^| 02 |/d' README.md ".*/README.md:[0-9]*: the table of labs: .*; the kit's labs are"
wrong "a lab the kit has not" 's/lab 01/lab 42/' README.md ".*/README.md:[0-9]*: lab 42 is not a lab of the kit"
wrong "a lab's folder misnamed" 's|labs/01-prefix-sum/README.md|labs/01-prefix-scan/README.md|' README.md \
    ".*/README.md:[0-9]*: '01-prefix-scan' is not the kit's folder: labs/01-prefix-sum"
echo "# docs figures: $((n - 1)) tests ($totals totals, $counts counts of labs, $tables tables of labs), $([ $fail = 0 ] && echo "all ok" || echo "FAILED")"
exit $fail
