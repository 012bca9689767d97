#!/usr/bin/env bash
# tests/unit/test_contract.sh: every lab's stub and its solution implement
# the one contract header. Each file #includes its lab's header (a line
# `#include "name.h"`), so that the build compiles it against the header
# and a definition whose signature drifted from its declaration is a
# compile error there (or, with other parameter types, a C++ overload with
# no C linkage: the next check); and each function the header declares is
# defined, with C linkage, in the object make built of it (nm; the
# primlab_* functions are the harness's, lent to the student). The objects
# are the kit's own build's (build/labs/obj, build/solutions/obj), made
# here if they are not yet: no file is compiled twice for this test.
# Without solutions/ (the handout) only the stubs are checked.
set -u
cd "$(dirname "$0")/../.." || exit 2
fail=0 checked=0
objs=()
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir") src=$(cd "$dir" && ls -- *.cu)
    for impl in labs solutions; do
        [ -f "$impl/$lab/$src" ] && objs+=("build/$impl/obj/$lab/${src%.cu}.o")
    done
done
# the kit's own build (nothing to do when it is built); an object whose
# make failed is named in make's error lines (an old one may still be there)
failed=$(make -k -s --no-print-directory "${objs[@]}" 2>&1 | sed -n 's/^make: \*\*\* \[[^]]*: \([^]]*\)\] Error .*/\1/p')
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    hdr=$(cd "$dir" && ls -- *.h)
    src=$(cd "$dir" && ls -- *.cu)
    # the declared entry points: "type name(" at the start of a line; names
    # starting with primlab_ are the harness's, lent to the student
    mapfile -t fns < <(sed -n 's/^[a-z_][a-z0-9_ ]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' "$dir$hdr" | grep -v '^primlab_')
    if [ ${#fns[@]} = 0 ]; then
        echo "contract $lab: no function declared in $dir$hdr"
        fail=1
        continue
    fi
    for impl in labs solutions; do
        file=$impl/$lab/$src
        [ -f "$file" ] || continue
        obj=build/$impl/obj/$lab/${src%.cu}.o
        if ! grep -q "^#include \"$hdr\"" "$file"; then
            echo "contract $lab: $file does not #include \"$hdr\", so nothing compiles it against its contract"
            fail=1
            continue
        fi
        if [ ! -s "$obj" ] || grep -qxF "$obj" <<<"$failed"; then
            echo "contract $lab: $file does not compile (make $obj failed)"
            fail=1
            continue
        fi
        defined=$(nm -g --defined-only "$obj" | awk '$2 == "T" { print $3 }')
        for f in "${fns[@]}"; do
            if ! grep -qx "$f" <<<"$defined"; then
                echo "contract $lab: $file does not define $f (with C linkage) from $hdr"
                fail=1
            fi
        done
        checked=$((checked + 1))
    done
    echo "contract $lab: ${fns[*]}"
done
echo "contract: $checked files checked, $([ $fail = 0 ] && echo 'no drift' || echo 'DRIFT FOUND')"
exit $fail
