#!/usr/bin/env bash
# tests/unit/test_contract.sh: every lab's stub and its solution implement the one
# contract header. Each file is compiled with the header forced in (so a
# signature that drifted from it is a compile error even without an
# #include), and each function the header declares must be defined, with C
# linkage, in both (except primlab_* functions, which the harness provides). Without solutions/ (the handout) only the stubs are checked.
set -u
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 checked=0
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    hdr=$(ls "$dir"*.h)
    src=$(cd "$dir" && ls -- *.cu)
    # the declared entry points: "type name(" at the start of a line; names
    # starting with primlab_ are the harness's, lent to the student
    mapfile -t fns < <(sed -n 's/^[a-z_][a-z0-9_ ]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' "$hdr" | grep -v '^primlab_')
    if [ ${#fns[@]} = 0 ]; then
        echo "contract $lab: no function declared in $hdr"
        fail=1
        continue
    fi
    for impl in labs solutions; do
        file=$impl/$lab/$src
        [ -f "$file" ] || continue
        obj=$tmp/$impl-$lab.o
        if ! "$nvcc" -std=c++17 -arch=sm_75 -include "$hdr" -I"$dir" -c "$file" -o "$obj" 2>"$tmp/err"; then
            echo "contract $lab: $file does not compile against $hdr:"
            grep -m 5 error "$tmp/err" | sed 's/^/    /'
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
