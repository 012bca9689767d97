#!/usr/bin/env bash
# tests/test_given_code.sh [--write]: the code a stub gives the student,
# between a line "/* ---- given code ..." and "/* ---- end of the given
# code */", must read the same in the solution's file of the same name, so
# that the solution runs exactly what the student is given. The stub stays
# one self-contained file: a student submits it alone, and it is graded as
# before. --write (`make given`) copies each stub's block over its
# solution's instead, after the stub's given code was edited. Prints one
# line per stub with given code, then `N passed, N failed`.
set -u
cd "$(dirname "$0")/.." || exit 2
start='^/\* -+ given code' end='^/\* -+ end of the given code \*/'
block() { sed -nE "\\|$start|,\\|$end|p" "$1"; }
write=0
[ "${1:-}" = --write ] && write=1
pass=0 fail=0
for stub in labs/*/*.cu; do
    grep -qE "$start" "$stub" || continue
    sol=solutions/${stub#labs/}
    [ -f "$sol" ] || continue # a handout: no solutions/
    if ! grep -qE "$start" "$sol" || ! grep -qE "$end" "$sol"; then
        echo "FAIL: $sol: no given code block (the lines that open and close it)"; fail=$((fail + 1)); continue
    fi
    if [ $write = 1 ] && ! cmp -s <(block "$stub") <(block "$sol"); then
        block "$stub" >"$sol.given"
        awk -v s="$start" -v e="$end" -v g="$sol.given" '
            $0 ~ s { while ((getline l < g) > 0) print l; skip = 1; next }
            skip && $0 ~ e { skip = 0; next }
            !skip' "$sol" >"$sol.new" && mv "$sol.new" "$sol"
        rm -f "$sol.given"
        echo "wrote: the given code of $stub into $sol"
    fi
    if cmp -s <(block "$stub") <(block "$sol"); then
        echo "ok: $sol gives what $stub gives ($(block "$stub" | wc -l) lines)"; pass=$((pass + 1))
    else
        echo "FAIL: the given code of $sol differs from $stub's (make given copies the stub's):"
        diff <(block "$stub") <(block "$sol") | head -n 8 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
