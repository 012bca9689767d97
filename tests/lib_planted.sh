# tests/lib_planted.sh: planted bugs as submissions, for test_planted07.sh
# and test_planted08.sh. Sourced, after setting
#   sol    the solution file (solutions/NN-name/file.cu)
#   t      a scratch folder (build/impl-<t with / as ->-NAME/ are the builds)
#   pass, fail   the counts
# plant NAME PERL
#   the solution with the perl -0pe program PERL applied, built as an
#   implementation (IMPL=$t/NAME); the lab binary's path in $bin. A plant
#   that changes nothing or does not build is a failure, counted here.
# expect NAME PATTERN BIN ARGS...
#   `BIN check ARGS` (no limit tests) must print a line matching PATTERN
#   (a failing test's reason, or the Score line). PLANT_ONLY=1: only the
#   build is checked, and counted.
plant_dir=$(basename "$(dirname "$sol")") # 07-segmented-spmv
plant_lab=lab${plant_dir%%-*}             # lab07
plant() {
    local out=$t/$1/$plant_dir/$(basename "$sol")
    mkdir -p "$(dirname "$out")"
    perl -0pe "$2" "$sol" >"$out"
    if cmp -s "$sol" "$out"; then
        printf '%-9s FAIL  the planting program changed nothing (the solution moved on?)\n' "$1"
        fail=$((fail + 1)); return 1
    fi
    bin=build/impl-${t//\//-}-$1/$plant_lab
    make -s --no-print-directory IMPL="$t/$1" "$bin" "$bin-worker" >"$t/$1.build" 2>&1 && return 0
    printf '%-9s FAIL  does not build: %s\n' "$1" "$(grep -m 1 error "$t/$1.build")"
    fail=$((fail + 1)); return 1
}
expect() {
    local name=$1 pat=$2 bin=$3 line
    shift 3
    if [ "${PLANT_ONLY:-0}" = 1 ]; then
        printf '%-9s BUILT %s\n' "$name" "$bin"; pass=$((pass + 1)); return
    fi
    PRIMLAB_LIMITS=0 "$bin" check "$@" >"$t/$name.out" 2>&1
    line=$(grep -E -m 1 -- "$pat" "$t/$name.out")
    if [ -n "$line" ]; then
        printf '%-9s OK    %s\n' "$name" "$(sed 's/^ *//' <<<"$line" | cut -c 1-200)"; pass=$((pass + 1))
    else
        printf '%-9s FAIL  no line matching /%s/; the report: %s\n' "$name" "$pat" \
            "$(grep -m 2 -E 'FAIL|^    |Score' "$t/$name.out" | tr '\n' ' ' | cut -c 1-240)"; fail=$((fail + 1))
    fi
}
