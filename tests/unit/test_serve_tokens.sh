#!/usr/bin/env bash
# tests/unit/test_serve_tokens.sh: make tokens (mk/serve.mk,
# harness/serve/tokens.sh), the check service's accounts from a course's
# roster: for the Canvas, Gradescope and Moodle fixtures' gradebook
# exports (tests/fixtures/lms/), a token for each student and no one else,
# in a file of mode 0600, each naming its student (primlab-serve-admin
# who); a second run keeps them; AGAIN=1 replaces them (the old ones name
# nobody, the file holds the new ones alone); INSTRUCTOR= an instructor's;
# a missing roster or none named: one line, status 2. The queue's own
# suite (build/tests/test_serve_queue) tests the database; this tests the
# command an instructor runs. Without SQLite's or OpenSSL's headers (no
# rule for the tool): SKIP.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
if ! make -s --no-print-directory build/primlab-serve-admin >/dev/null 2>&1; then
    say SKIP "make tokens" "build/primlab-serve-admin is not built here (SQLite's or OpenSSL's headers missing)"
    finish
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
tok() { make -s --no-print-directory tokens SERVE_DB="$t/$1.db" TOKENS="$t/$1.tsv" "${@:2}"; }
who() { printf '%s\n' "$2" | build/primlab-serve-admin who "$t/$1.db"; }

for lms in canvas gradescope moodle; do
    roster=$(ls tests/fixtures/lms/$lms/*export*.csv | head -n 1)
    tok "$lms" ROSTER="$roster" >"$t/$lms.out" 2>&1
    rc=$?
    p=""
    [ $rc = 0 ] || p="$p; status $rc"
    n=$(python3 harness/lms.py names "$roster" | grep -c .)
    [ "$(grep -c . "$t/$lms.tsv" 2>/dev/null)" = "$n" ] || p="$p; not $n lines in the tokens file"
    [ "$(stat -c %a "$t/$lms.tsv" 2>/dev/null)" = 600 ] || p="$p; the tokens file is not mode 0600"
    diff <(cut -f 1 "$t/$lms.tsv") <(python3 harness/lms.py names "$roster") >/dev/null || p="$p; the names differ from the roster's"
    while IFS=$'\t' read -r name token; do
        [ "$(who "$lms" "$token")" = "$name"$'\tstudent' ] || p="$p; $name's token does not name them"
    done <"$t/$lms.tsv"
    ! grep -qa -f <(cut -f 2 "$t/$lms.tsv" | cut -c 5-) "$t/$lms.db"* || p="$p; a token is in the database's files"
    verdict "$lms: a token for each of the roster's $n students, mode 0600, each naming its student" "$p" "$t/$lms.out"
done

r=tests/fixtures/lms/canvas/gradebook-export.csv
cp "$t/canvas.tsv" "$t/first.tsv"
tok canvas ROSTER="$r" >"$t/again0.out" 2>&1
p=""
cmp -s "$t/canvas.tsv" "$t/first.tsv" || p="the tokens file changed"
grep -q '^tokens: 0 new in ' "$t/again0.out" || p="$p; not '0 new': $(head -n 1 "$t/again0.out")"
verdict "a second make tokens keeps every token" "$p" "$t/again0.out"

tok canvas ROSTER="$r" AGAIN=1 >"$t/again1.out" 2>&1
p=""
[ "$(grep -c . "$t/canvas.tsv")" = 4 ] || p="the file does not hold one line a student"
while IFS=$'\t' read -r name token; do
    [ "$(who canvas "$token")" = nobody ] || p="$p; $name's old token still works"
done <"$t/first.tsv"
while IFS=$'\t' read -r name token; do
    [ "$(who canvas "$token")" = "$name"$'\tstudent' ] || p="$p; $name's new token does not name them"
done <"$t/canvas.tsv"
verdict "AGAIN=1: new tokens, the old ones name nobody, the file the new ones alone" "$p" "$t/again1.out"

tok canvas INSTRUCTOR=prof >"$t/prof.out" 2>&1
token=$(awk -F '\t' '$1 == "prof" { print $2 }' "$t/canvas.tsv")
[ "$(who canvas "$token")" = $'prof\tinstructor' ]
verdict "INSTRUCTOR=prof: an instructor's token" "$([ $? = 0 ] || echo "it names: $(who canvas "$token")")" "$t/prof.out"

p=""
tok none >"$t/none.out" 2>&1
[ $? = 2 ] && [ "$(grep -c '^tokens: ' "$t/none.out")" = 1 ] || p="no roster: not status 2 with one line"
tok none ROSTER=/nonexistent.csv >"$t/missing.out" 2>&1
[ $? = 2 ] && grep -q "^lms: ROSTER='/nonexistent.csv': No such file or directory" "$t/missing.out" || p="$p; a missing roster: $(head -n 1 "$t/missing.out")"
[ ! -e "$t/none.tsv" ] || p="$p; a tokens file was made"
verdict "no roster, or a missing one: status 2, one line, no file" "$p"
finish
