#!/usr/bin/env bash
# tests/unit/test_given_code.sh [--write]: the code a stub gives the student,
# between a line "/* ---- given code ..." and "/* ---- end of the given
# code */", must read the same in the solution's file of the same name, so
# that the solution runs exactly what the student is given. The stub stays
# one self-contained file: a student submits it alone, and it is graded as
# before. --write (`make given`) copies each stub's block over its
# solution's instead, after the stub's given code was edited.
# Likewise a solution's file that two labs use (lab 02's blelloch_tile.cuh,
# which lab 03's solution includes too): each lab's folder holds its own
# copy, so that the solution is graded as a student's submission is (a lab
# compiled from its own folder), and the copies must be identical; the
# original is the one whose first line names its own path, and --write
# copies it over the others. Prints one line per stub with given code and
# per shared file, then `N passed, N failed`.
set -u
cd "$(dirname "$0")/../.." || exit 2
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

# Shared solution files: the same name in two labs' solution folders.
for name in $(ls solutions/*/*.cuh solutions/*/*.h 2>/dev/null | xargs -r -n 1 basename | sort | uniq -d); do
    orig=""
    for f in solutions/*/"$name"; do head -n 1 "$f" | grep -qF "/* $f:" && orig=$f; done
    if [ -z "$orig" ]; then
        echo "FAIL: solutions/*/$name: no copy's first line names its own path (the original)"; fail=$((fail + 1)); continue
    fi
    for f in solutions/*/"$name"; do
        [ "$f" = "$orig" ] && continue
        [ $write = 1 ] && ! cmp -s "$orig" "$f" && cp "$orig" "$f" && echo "wrote: $orig over $f"
        if cmp -s "$orig" "$f"; then
            echo "ok: $f is $orig ($(wc -l <"$f") lines)"; pass=$((pass + 1))
        else
            echo "FAIL: $f differs from $orig (make given copies it):"
            diff "$orig" "$f" | head -n 8 | sed 's/^/    /'
            fail=$((fail + 1))
        fi
    done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
