#!/usr/bin/env bash
# harness/serve/tokens.sh DB TOKENS ROSTER INSTRUCTOR AGAIN: make tokens
# (mk/serve.mk). The roster's students (harness/lms.py names ROSTER), or
# the instructor INSTRUCTOR, given tokens in the check service's database
# DB by build/primlab-serve-admin (mk/serve.mk's SERVE_DB: outside the kit); the new ones appended to TOKENS (mode
# 0600, "<name><TAB><token>" a line): hand each student their line. Only
# accounts without a token get one, unless AGAIN=1 (then every token named
# is new and the old ones stop working). One line at the end says how many.
set -u
db=$1 tokens=$2 roster=$3 instructor=$4 again=$5
cd "$(dirname "$0")/../.." || exit 2
die() { echo "tokens: $*" >&2; exit 2; }
[ -n "$roster" ] || [ -n "$instructor" ] ||
    die "name the students: make tokens ROSTER=<the course's gradebook export, .csv> (or INSTRUCTOR=name)"
args=()
case "${again:-0}" in 0 | "") ;; 1) args+=(--again) ;; *) die "AGAIN='$again': AGAIN=1 gives new tokens to all" ;; esac
[ -z "$instructor" ] || [ -z "$roster" ] || die "ROSTER= or INSTRUCTOR=, one at a time"
[ -z "$instructor" ] || args+=(--instructor)
mkdir -p "$(dirname "$db")" "$(dirname "$tokens")" || exit 2
names=$(mktemp) new=$(mktemp) || exit 2
trap 'rm -f "$names" "$new"' EXIT
if [ -n "$roster" ]; then
    python3 harness/lms.py names "$roster" >"$names" || exit 2
else
    printf '%s\n' "$instructor" >"$names"
fi
build/primlab-serve-admin tokens "$db" "${args[@]}" <"$names" >"$new"
rc=$?
[ $rc -le 1 ] || exit $rc
# the file: each account's latest token, one line each (a name given a new
# token loses its old line)
(umask 077 && awk -F '\t' 'NR == FNR { new[$1] = 1; print; next } !($1 in new)' "$new" "$tokens" 2>/dev/null \
    >"$tokens.new" || cat "$new" >"$tokens.new") && mv -f "$tokens.new" "$tokens" || die "cannot write '$tokens'"
chmod 600 "$tokens" || exit 2
echo "tokens: $(grep -c . "$new") new in $tokens (mode 0600: hand each student their line), $(grep -c . "$names") named; database $db"
exit $rc
