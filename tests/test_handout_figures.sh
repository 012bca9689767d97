#!/bin/sh
# tests/test_handout_figures.sh: every figure the handouts quote with a
# '<!-- fig: ... -->' marker (labs/*/README.md, docs/*.md) equals the
# committed benchmark data of plots/data/, at the precision quoted. The markup
# is described at the top of tests/handout_figures.py, which does the lookups.
#
#   sh tests/test_handout_figures.sh       (from the top of the kit; no GPU)
#
# Prints 'ok N - ...' or 'not ok N - file:line: ...' per marker, then its
# self-tests (a copy of a handout with one figure changed must fail; a marker
# that matches no row, several rows, no column or no header key must fail),
# then the plan and a count. Exits 0 only when all of that holds and at least
# MIN_MARKERS (default 20) markers were found, so it cannot pass vacuously.
set -u
cd "$(dirname "$0")/.." || exit 2
py=${PYTHON:-python3}
helper=tests/handout_figures.py
min=${MIN_MARKERS:-20}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
fail=0

# ------------------------------------------------------------ the handouts
"$py" $helper labs/*/README.md docs/*.md >"$tmp/out"
rc=$?
grep -v '^#' "$tmp/out"
markers=$(sed -n 's/^# markers: \([0-9]*\) .*/\1/p' "$tmp/out")
if [ -z "$markers" ]; then
    echo "not ok 1 - handout figures: '$helper' did not run (exit $rc)"
    exit 1
fi
[ "$rc" = 0 ] || fail=1
n=$markers

# report NAME STATUS: one TAP line for a self-test that passed when STATUS is 0
report() {
    n=$((n + 1))
    if [ "$2" = 0 ]; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1"
        fail=1
    fi
}

# ------------------------------------------------------------- self-tests
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
    "$py" $helper "$tmp/copy/README.md" >"$tmp/self" 2>&1
    st=$?
    grep -q "^not ok [0-9]* - $tmp/copy/README.md:$line: quoted" "$tmp/self"
    found=$?
    [ "$st" = 1 ] && [ "$found" = 0 ]
    report "self-test: a changed figure at line $line of a copy of $src fails the check" $?
fi

# Markers that do not name exactly one value fail loudly.
bad() {
    printf '%s\n' "$2" >"$tmp/bad.md"
    "$py" $helper "$tmp/bad.md" >"$tmp/self" 2>&1
    st=$?
    grep -q "^not ok 1 - $tmp/bad.md:1: .*$3" "$tmp/self"
    found=$?
    [ "$st" = 1 ] && [ "$found" = 0 ]
    report "self-test: a marker with $1 fails" $?
}
bad "no matching row" '1<!-- fig: lab01.tsv part=zz variant=solution n=2^28 col=time_ms -->' 'no row'
bad "several matching rows" '1<!-- fig: lab01.tsv part=b n=2^28 col=time_ms -->' 'rows of'
bad "a missing column" '1<!-- fig: lab01.tsv part=b variant=solution n=2^28 col=nosuch -->' 'no column'
bad "a missing header key" '1<!-- fig: lab01.tsv header=nosuch -->' 'no header'
bad "no number before it" 'about<!-- fig: lab01.tsv header=copy_gbps -->' 'no number'

# ----------------------------------------------------------------- count
[ "$markers" -ge "$min" ]
report "marker count: $markers markers in labs/*/README.md and docs/*.md (at least $min)" $?

echo "1..$n"
if [ "$fail" = 0 ]; then
    echo "# handout figures: $n tests, all ok"
else
    echo "# handout figures: $n tests, some failed (see 'not ok' above)"
fi
exit "$fail"
