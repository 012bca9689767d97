#!/usr/bin/env bash
# tests/unit/test_arch.sh: the device code that differs by architecture
# compiles for each architecture it names. Without a GPU make builds for
# sm_75 alone (the Makefile's ARCH), so a branch taken only on newer GPUs
# (`#if __CUDA_ARCH__ == 750 ... #else`) would go uncompiled until a GPU
# host: every .cu file of the kit that names __CUDA_ARCH__ (itself, or a
# .cuh of the kit it includes) is compiled here, device code only
# (-cubin), for sm_80 and sm_90 (the portable set's others) and for the
# lowest other architecture its text compares __CUDA_ARCH__ with (a branch
# for 860, 870 and 890: sm_86). Needs nvcc, no GPU. Prints one line per file and architecture, then the counts.
set -u
cd "$(dirname "$0")/../.." || exit 2
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "SKIP: test_arch: nvcc not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# the kit's .cu files, and the headers of the kit each includes by name
mapfile -t files < <(harness/kit-files.sh | tr '\0' '\n' | grep -E '^(labs|solutions|harness|kernels_ref)/.*\.cu$' | sort)
for f in "${files[@]}"; do
    dir=$(dirname "$f")
    texts=("$f")
    while read -r inc; do [ -f "$dir/$inc" ] && texts+=("$dir/$inc"); done < <(sed -n 's/^#include "\([^"]*\.cuh\)"/\1/p' "$f")
    grep -q '__CUDA_ARCH__' "${texts[@]}" || continue
    archs=$( { echo 80; echo 90; grep -ohE '__CUDA_ARCH__ *(==|>=|>|<=|<) *[0-9]{3}' "${texts[@]}" |
        grep -oE '[0-9]{3}$' | awk '$1 > 750 && $1 != 800 && $1 != 900 { print int($1 / 10) }' | sort -n | head -n 1; } | sort -un)
    lab=$(basename "$dir")
    for a in $archs; do
        if "$nvcc" -std=c++17 -O3 -arch=sm_$a -cubin -I"$dir" -I"labs/$lab" -Iharness/worker "$f" \
            -o "$tmp/x.cubin" >"$tmp/err" 2>&1; then
            echo "ok    $f for sm_$a"; pass=$((pass + 1))
        else
            echo "FAIL  $f for sm_$a: $(grep -m 1 error "$tmp/err")"; fail=$((fail + 1))
        fi
    done
done
echo "$pass passed, $fail failed"
if [ $pass = 0 ] && [ $fail = 0 ]; then
    # the kit's own device code that names it is the solutions' (lab 08, 09)
    [ -d solutions ] || { echo "SKIP: no file names __CUDA_ARCH__ here (no solutions/: a handout)"; exit 77; }
    echo "FAIL: no file names __CUDA_ARCH__: the search found nothing"; exit 1
fi
[ $fail = 0 ]
