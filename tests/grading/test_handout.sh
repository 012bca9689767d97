#!/usr/bin/env bash
# tests/grading/test_handout.sh: the student handout works on its own, our
# distcheck. `make handout`, the tarball unpacked in a fresh folder outside
# this kit, then there:
#   1. it has no solutions/ and none of the files the handout leaves out
#      (harness/kit-files.sh --handout);
#   2. `make` builds it (the kit's own objects from ccache, when there);
#   3. its `make test` passes, run on the suites that can tell the handout
#      from the kit: the handout differs from the kit only by the files it
#      leaves out, so a suite that names none of them (solutions, or a
#      folder left out: tests/fixtures/plants/instructors) reads the same
#      files in both, and the kit's own make test proved it; one that names
#      one is run here (they include every suite that grades a class, which
#      here grades in place, as a handout does);
#   4. `make check` grades the stubs: a Score line, 0 points on a GPU (no
#      test could run without one), and no lab that fails to build;
#   5. self-tests: in a second copy, a suite that needs a file the handout
#      leaves out and one that reads solutions/ are picked and fail its make
#      test, and one that names neither is not picked.
# HANDOUT_KEEP=1 keeps the folder and says where.
# tier: slow (the handout unpacked, built and tested on its own; CI and make test-slow run it)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
t=$(mktemp -d -p /var/tmp primlab-handout-test.XXXXXX)
[ "${HANDOUT_KEEP:-0}" = 1 ] && echo "handout test folder: $t" || trap 'rm -rf "$t"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)

make -s --no-print-directory handout >"$t/handout.log" 2>&1
tarball=$(sed -n 's/^wrote \(dist\/[^ ]*\.tar\.gz\) .*/\1/p' "$t/handout.log")
if [ -z "$tarball" ] || ! tar -xzf "$tarball" -C "$t"; then
    say FAIL "make handout" "$(tail -n 1 "$t/handout.log")"
    finish
fi
kit=$(find "$t" -mindepth 1 -maxdepth 1 -type d -name 'primlab-handout-*')

# left: the kit's files the handout leaves out, as the shallowest folders
# (or files) that hold nothing the handout has
harness/kit-files.sh | tr '\0' '\n' | sort >"$t/kit.files"
harness/kit-files.sh --handout | tr '\0' '\n' | sort >"$t/handout.files"
comm -23 "$t/kit.files" "$t/handout.files" >"$t/left.files"
mapfile -t left < <(awk -F / '
    NR == FNR { p = $1; kept[p] = 1; for (i = 2; i < NF; i++) { p = p "/" $i; kept[p] = 1 } next }
    { p = $1; i = 1; while ((p in kept) && i < NF) { i++; p = p "/" $i } print p }' \
    "$t/handout.files" "$t/left.files" | sort -u)
problems=""
[ ${#left[@]} -gt 0 ] || problems+="; the handout leaves nothing out (not even solutions/)"
for p in "${left[@]}"; do [ ! -e "$kit/$p" ] || problems+="; $p shipped"; done
verdict "make handout: $tarball unpacks, without ${left[*]}" "$problems" "$t/handout.log"

(cd "$kit" && make -s -j"$jobs" --no-print-directory) >"$t/build.log" 2>&1
verdict "the handout builds (make -j$jobs)" "$([ $? = 0 ] || echo "; make failed")" "$t/build.log"

# picked KIT: the suites of KIT's make test (make test-list) whose file
# names a path the handout leaves out (a Check suite's: its test_*.c), one
# per line: suite, then the path named
picked() {
    local tier suite src p
    (cd "$1" && make -s --no-print-directory test-list) | sed -n 's/^test://p' | while IFS=: read -r tier suite _; do
        src=$suite
        case "$suite" in build/tests/*) src=$(cd "$1" && find tests -name "$(basename "$suite").c" | head -n 1) ;; esac
        [ -n "$src" ] && [ -f "$1/$src" ] || continue
        for p in "${left[@]}"; do
            if grep -qF -- "$p" "$1/$src"; then printf '%s\t%s\n' "$suite" "$p"; break; fi
        done
    done
}
# run_picked KIT LOG: KIT's make test on the suites picked; its status
run_picked() {
    local suites
    suites=$(picked "$1" | cut -f 1 | paste -sd ' ')
    echo "picked: $suites" >"$2"
    [ -n "$suites" ] || { echo "no suite picked" >>"$2"; return 2; }
    (cd "$1" && make -s --no-print-directory test SUITES="$suites") >>"$2" 2>&1
}
picked "$kit" >"$t/picked.tsv"
run_picked "$kit" "$t/test.log"
rc=$?
problems=""
[ $rc = 0 ] || problems+="; make test exited $rc: $(grep -E '^FAIL|^==== FAIL' "$t/test.log" | head -n 5 | tr '\n' ' ')"
grep -q "^test: [0-9]* passed, 0 failed" "$t/test.log" || problems+="; no 'N passed, 0 failed' line"
verdict "the handout's make test passes on the $(grep -c . "$t/picked.tsv") suites that name what it leaves out" \
    "$problems" "$t/test.log"
sed 's/^/      /; s/\t/ names /' "$t/picked.tsv"

(cd "$kit" && make -s --no-print-directory check) >"$t/check.log" 2>&1
problems=""
score=$(sed -n 's/^Score: //p' "$t/check.log")
[ -n "$score" ] || problems+="; no Score line"
grep -q "does not compile\|grading machine" "$t/check.log" &&
    problems+="; $(grep -m 1 'does not compile\|grading machine' "$t/check.log")"
if has_gpu; then
    case "$score" in 0/*) ;; *) problems+="; the stubs scored '$score', not 0" ;; esac
fi
verdict "the handout's make check grades the stubs (Score: $score)" "$problems" "$t/check.log"

# ---------------------------------------------------------------- 5
# A second copy (its build/ too: nothing compiles) with three suites of
# its own: they must be picked, or not, and fail there, as a kit's suite
# that reaches for what the handout leaves out would.
self=$t/self
mkdir -p "$self" && cp -a "$kit/." "$self/" || { say FAIL "self-tests: cannot copy the handout"; finish; }
instr=$(printf '%s\n' "${left[@]}" | grep -v '^solutions$' | head -n 1)
write_suite() { # write_suite NAME BODY
    printf '#!/bin/sh\n# a self-test of tests/grading/test_handout.sh\ncd "$(dirname "$0")/../.." || exit 2\n%s\n' "$2" \
        >"$self/tests/grading/$1" && chmod +x "$self/tests/grading/$1"
}
write_suite test_zz_solution.sh 'test -f solutions/01-prefix-sum/prefix_sum.cu'
write_suite test_zz_instructors.sh "test -e ${instr:-tests/fixtures/plants/instructors}"
write_suite test_zz_neither.sh 'test -f labs/01-prefix-sum/prefix_sum.cu'
got=$(cd "$self" && bash -c "$(declare -f picked); $(declare -p left); picked ." | cut -f 1 | grep '/test_zz_' | sort | paste -sd ' ')
problems=""
[ "$got" = "tests/grading/test_zz_instructors.sh tests/grading/test_zz_solution.sh" ] &&
    [ -n "$instr" ] || problems+="; picked: '$got', not the two that name what is left out"
(cd "$self" && make -s --no-print-directory test SUITES="tests/grading/test_zz_solution.sh tests/grading/test_zz_instructors.sh") \
    >"$t/self.log" 2>&1 && problems+="; their make test passed"
for s in test_zz_solution.sh test_zz_instructors.sh; do
    grep -q "^FAIL .*tests/grading/$s" "$t/self.log" || problems+="; $s did not fail"
done
verdict "self-test: a suite that reads solutions/ and one that needs ${instr:-a folder left out} are picked and fail in the handout; one that names neither is not picked" \
    "$problems" "$t/self.log"
finish
