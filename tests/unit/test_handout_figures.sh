#!/bin/sh
# tests/unit/test_handout_figures.sh: every figure the handouts quote with a
# '<!-- fig: ... -->' marker (labs/*/README.md, docs/*.md) equals the
# committed benchmark data of plots/data/, at the precision quoted, and so
# does every summary they derive from it (a count of rows meeting a
# condition, a range of a ratio over sizes: markers with by=, over=, agg=);
# and their pointers (sections, labs, paths of the kit, figures, planted
# bugs) resolve. The markup is described at the top of
# tests/unit/handout_figures.py, which does the lookups. What lab 09's
# handout derives from the solution's tiles (test sizes one past a tile,
# tile counts, the time a hand-off of the chained pass from this data) is
# checked by tests/unit/test_lab09_tiles.sh.
#
#   sh tests/unit/test_handout_figures.sh       (from the top of the kit; no GPU)
#
# Prints 'ok N - ...' or 'not ok N - file:line: ...' per marker and pointer,
# then its self-tests (a copy of a handout with one figure changed must fail,
# and so must one with a derived count changed, a pointer to a section that
# does not exist, or a path outside the kit left unmarked; a marker that
# matches no row, several rows, no column or no header key must fail), then
# the plan and the counts. Exits 0 only when all of that holds and at least
# MIN_MARKERS (default 20) markers, MIN_DERIVED (10) derived claims and
# MIN_POINTERS (100) pointers were found, so it cannot pass vacuously.
set -u
cd "$(dirname "$0")/../.." || exit 2
py=${PYTHON:-python3}
helper=tests/unit/handout_figures.py
min=${MIN_MARKERS:-20}
min_derived=${MIN_DERIVED:-10}
min_pointers=${MIN_POINTERS:-100}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
fail=0

# ------------------------------------------------------------ the handouts
"$py" $helper labs/*/README.md docs/*.md >"$tmp/out"
rc=$?
grep -v '^#' "$tmp/out"
markers=$(sed -n 's/^# markers: \([0-9]*\) .*/\1/p' "$tmp/out")
derived=$(sed -n 's/^# derived: \([0-9]*\)$/\1/p' "$tmp/out")
pointers=$(sed -n 's/^# pointers: \([0-9]*\) .*/\1/p' "$tmp/out")
tests=$(sed -n 's/^# tests: \([0-9]*\)$/\1/p' "$tmp/out")
if [ -z "$markers" ] || [ -z "$derived" ] || [ -z "$pointers" ] || [ -z "$tests" ]; then
    echo "not ok 1 - handout figures: '$helper' did not run (exit $rc)"
    exit 1
fi
[ "$rc" = 0 ] || fail=1
n=$tests

# report NAME STATUS: one TAP line for a self-test (tests/lib/tap.sh)
. tests/lib/tap.sh

# ------------------------------------------------------------- self-tests
# fails_at FILE LINE EXPECT NAME: the helper run on FILE alone must fail,
# with a 'not ok' line that names FILE:LINE and matches EXPECT.
fails_at() {
    "$py" $helper "$1" >"$tmp/self" 2>&1
    st=$?
    grep -q "^not ok [0-9]* - $1:$2: .*$3" "$tmp/self"
    found=$?
    [ "$st" = 1 ] && [ "$found" = 0 ]
    report "self-test: $4" $?
}

# A copy of a handout checks as the original does ...
src=labs/01-prefix-sum/README.md
mkdir "$tmp/copy"
cp "$src" "$tmp/copy/README.md"
"$py" $helper "$tmp/copy/README.md" >"$tmp/self" 2>&1
report "self-test: an unchanged copy of $src checks" $?

# ... and fails once the first figure quoted before a marker has one digit
# changed, naming that line.
awk -v out="$tmp/line" '
    !done {
        rest = $0; off = 0
        while ((i = index(rest, "<!-- fig:")) > 0) {
            c = substr($0, off + i - 1, 1)
            if (c ~ /[0-9]/) {
                $0 = substr($0, 1, off + i - 2) ((c + 1) % 10) substr($0, off + i)
                done = NR; print NR > out
                break
            }
            off += i; rest = substr(rest, i + 1)
        }
    }
    { print }' "$src" >"$tmp/copy/README.md"
line=$(cat "$tmp/line" 2>/dev/null)
if [ -z "$line" ] || cmp -s "$src" "$tmp/copy/README.md"; then
    report "self-test: found a figure to change in $src" 1
else
    fails_at "$tmp/copy/README.md" "$line" quoted "a changed figure at line $line of a copy of $src fails the check"
fi

# changed: NAME FILE LINE-REGEX SED-EXPR EXPECT: a copy of FILE with the
# first line matching LINE-REGEX edited by SED-EXPR must fail, naming that
# line and EXPECT.
changed() {
    line=$(grep -n -m 1 -e "$3" "$2" | cut -d: -f1)
    if [ -z "$line" ]; then
        report "self-test: $1: no line of $2 matches '$3'" 1
        return
    fi
    mkdir -p "$tmp/ch"
    sed "${line}$4" "$2" >"$tmp/ch/README.md"
    if cmp -s "$2" "$tmp/ch/README.md"; then
        report "self-test: $1: the edit changed nothing at $2:$line" 1
        return
    fi
    fails_at "$tmp/ch/README.md" "$line" "$5" "$1 (line $line of a copy of $2) fails the check"
}
l07=labs/07-segmented-spmv/README.md
# (each line picked holds one marker, the one named)
changed "a derived count changed" $l07 '^[0-9]*<!-- fig:.*over=count' 's/^\([0-9]*\)<!-- fig:/1\1<!-- fig:/' 'quoted'
changed "a range's end changed" $l07 '^ *[0-9.]*<!-- fig:.*over=max' 's/\([0-9]\)<!-- fig:/\1\1<!-- fig:/' 'quoted'
changed "an argmax naming the wrong row" $l07 '[a-z0-9_]<!-- fig:.*over=argmax' 's/[A-Za-z0-9_]*<!-- fig:/cant<!-- fig:/' 'does not end with'
changed "a pointer to a section that does not exist" $l07 'section 4\.3' 's/section 4\.3/section 4.9/' 'no heading numbered 4.9'
changed "a pointer to a lab that does not exist" $l07 'lab 06' 's/lab 06/lab 89/' 'no folder labs/89'
changed "a figure of a GPU with no data" labs/09-onesweep-sort/README.md '`lab09_sweep_h200`' 's/`lab09_sweep_h200`/`lab09_sweep_h300`/' 'no plots/lab09_sweep_h300.gp'
changed "a kit path that does not exist" $l07 '`plots/data/lab07.tsv`' 's|`plots/data/lab07.tsv`|`plots/data/lab77.tsv`|' 'no such file'
changed "a path outside the kit left unmarked" labs/08-single-pass-scan/README.md '<!-- outside:' 's/<!-- outside:[^>]*-->//' 'mark it'
# lab 02's bound on a reduce-then-scan's ratio to CUB, per GPU and n, is
# (2/3) x copy / CUB's bandwidth from the data, not a figure typed in
l02=labs/02-blelloch-scan/README.md
changed "a bound per GPU changed" $l02 '^ *1\.12<!-- fig:.*col=copy_gbps / col=gbps' 's/1\.12<!-- fig:/1.21<!-- fig:/' 'quoted'
changed "a bound taken from another size" $l02 '^ *0\.90<!-- fig:.*col=copy_gbps / col=gbps' 's/n=2^28 col=copy_gbps/n=2^24 col=copy_gbps/' 'quoted'

# Markers that do not name exactly one value fail loudly.
bad() {
    printf '%s\n' "$2" >"$tmp/bad.md"
    fails_at "$tmp/bad.md" 1 "$3" "a marker with $1 fails"
}
bad "no matching row" '1<!-- fig: lab01.tsv part=zz variant=solution n=2^28 col=time_ms -->' 'no row'
bad "several matching rows" '1<!-- fig: lab01.tsv part=b n=2^28 col=time_ms -->' 'rows of'
bad "a missing column" '1<!-- fig: lab01.tsv part=b variant=solution n=2^28 col=nosuch -->' 'no column'
bad "a missing header key" '1<!-- fig: lab01.tsv header=nosuch -->' 'no header'
bad "no number before it" 'about<!-- fig: lab01.tsv header=copy_gbps -->' 'no number'
bad "by= without over=" '1<!-- fig: lab01.tsv part=b variant=solution col=time_ms by=n -->' 'needs over'
bad "over= without by=" '1<!-- fig: lab01.tsv part=b variant=solution n=2^28 col=time_ms over=max -->' 'need by'
bad "a where that leaves no group" '1<!-- fig: lab01.tsv part=b variant=solution col=time_ms by=n where=<0 over=max -->' 'no group'
bad "an unknown figset" '1<!-- fig: lab01.tsv @nosuch col=time_ms -->' 'no figset'

# ----------------------------------------------------------------- count
[ "$markers" -ge "$min" ]
report "marker count: $markers markers in labs/*/README.md and docs/*.md (at least $min)" $?
[ "$derived" -ge "$min_derived" ]
report "derived claims: $derived of the markers summarise rows (by=, over=, agg=; at least $min_derived)" $?
[ "$pointers" -ge "$min_pointers" ]
report "pointer count: $pointers pointers checked (at least $min_pointers)" $?

echo "1..$n"
summary="$((markers - derived)) figures, $derived derived claims, $pointers pointers"
if [ "$fail" = 0 ]; then
    echo "# handout figures: $n tests, all ok ($summary)"
else
    echo "# handout figures: $n tests, some failed (see 'not ok' above; $summary)"
fi
exit "$fail"
