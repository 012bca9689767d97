#!/bin/sh
# tests/unit/test_serve_systemd.sh: harness/serve/primlab-serve.service,
# the check service's systemd unit (docs/check-service.md, "On the GPU
# host"), as systemd reads it: `systemd-analyze verify` finds nothing to
# say of it (an unknown key, a bad value, a program that is not there
# are warnings it prints with status 0: any line fails), with the kit's
# /srv/primlab moved to a scratch root holding stand-ins of the two
# programs it runs; those programs are the kit's (harness/grade.sh, and
# build/primlab-serve, which mk/serve.mk builds), and each SERVE_*
# setting it names is one the service reads. Its self-tests break a copy
# (an unknown key, a program missing) and must see verify complain, so a
# verify that says nothing of anything cannot pass. No systemd runs:
# verify reads files.
#
#   sh tests/unit/test_serve_systemd.sh       (from anywhere; no GPU)
#
# Prints TAP lines, then the plan. Exits 0 when all hold; 77 (a SKIP line)
# without systemd-analyze.
set -u
cd "$(dirname "$0")/../.." || exit 2
unit=harness/serve/primlab-serve.service
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "SKIP: systemd-analyze is not installed here: $unit is not verified"
    exit 77
fi
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
trap 'exit 2' INT TERM
n=0 fail=0
. tests/lib/tap.sh

# the kit's root, /srv/primlab in the unit, in the scratch: the programs
# it runs as stand-ins that do nothing
root=$t/srv/primlab
mkdir -p "$root/harness" "$root/build" "$root/docs" || exit 2
for p in harness/grade.sh build/primlab-serve; do
    printf '#!/bin/sh\nexit 0\n' >"$root/$p" && chmod +x "$root/$p" || exit 2
done
: >"$root/docs/check-service.md"

# verify NAME SED-EXPR: systemd-analyze verify of the unit, rooted in the
# scratch and edited by SED-EXPR, in a folder of its own: what it says in
# $t/NAME.out, its status in $t/NAME.rc
verify() {
    mkdir -p "$t/$1"
    sed -e "s|/srv/primlab|$root|g" -e "$2" "$unit" >"$t/$1/primlab-serve.service"
    (cd "$t/$1" && systemd-analyze verify ./primlab-serve.service) >"$t/$1.out" 2>&1
    echo $? >"$t/$1.rc"
}
# said NAME: verify's lines, as one
said() { tr '\n' '|' <"$t/$1.out"; }

verify unit ''
[ "$(cat "$t/unit.rc")" = 0 ] && [ ! -s "$t/unit.out" ]
rc=$?
[ $rc = 0 ] || echo "# systemd-analyze verify said (status $(cat "$t/unit.rc")): $(said unit)"
report "systemd-analyze verify $unit: status 0, nothing said" $rc

# the programs and the page it names are the kit's
missing="" found=0
for p in $(sed -n 's|^Exec[A-Za-z]*=-\{0,1\}/srv/primlab/\([^ ]*\).*|\1|p; s|^Documentation=file:///srv/primlab/||p' "$unit"); do
    found=$((found + 1))
    case "$p" in
    build/primlab-serve) grep -q '^build/primlab-serve:' mk/serve.mk || missing="$missing $p (no rule in mk/serve.mk)" ;;
    *) [ -f "$p" ] || missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && [ $found -ge 3 ]
rc=$?
[ $rc = 0 ] || echo "# $found paths under /srv/primlab found (ExecStartPre, ExecStart, Documentation); not in the kit:$missing"
report "the programs and the page the unit names (ExecStartPre, ExecStart, Documentation) are the kit's" $rc

# each SERVE_* it sets, or names in a comment, the service reads
unread=""
for v in $(grep -o 'SERVE_[A-Z_]*' "$unit" | sort -u); do
    grep -q "\"$v\"" harness/serve/serve.c || unread="$unread $v"
done
[ -z "$unread" ]
rc=$?
[ $rc = 0 ] || echo "# SERVE_* the service does not read:$unread"
report "each SERVE_* setting the unit names is one harness/serve/serve.c reads" $rc

# ------------------------------------------------------------- self-tests
verify unknown_key 's/^KillMode=/KillMod=/'
grep -q "Unknown key.*KillMod" "$t/unknown_key.out"
rc=$?
[ $rc = 0 ] || echo "# verify said: $(said unknown_key)"
report "self-test: an unknown key (KillMod=) is one verify names" $rc
verify no_program 's|^ExecStart=.*|ExecStart=/nonexistent/primlab-serve|'
grep -q "/nonexistent/primlab-serve" "$t/no_program.out"
rc=$?
[ $rc = 0 ] || echo "# verify said: $(said no_program)"
report "self-test: an ExecStart= program that is not there is one verify names" $rc

echo "1..$n"
exit "$fail"
