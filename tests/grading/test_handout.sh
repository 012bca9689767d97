#!/usr/bin/env bash
# tests/grading/test_handout.sh: the student handout works on its own. `make
# handout`, the tarball unpacked in a fresh folder outside this kit, then
# there: `make` builds, `make test` passes (the suites that need solutions/
# say they skip), and `make check` grades the stubs: a Score line, 0
# points on a GPU (no test could run without one), and no lab that fails
# to build. Run by .ci/run after make test (it builds the whole handout:
# minutes). HANDOUT_KEEP=1 keeps the folder and says where.
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
problems=""
[ -e "$kit/solutions" ] && problems+="; solutions/ shipped"
[ -e "$kit/tests/fixtures/plants/instructors" ] && problems+="; tests/fixtures/plants/instructors (working lab code) shipped"
verdict "make handout: $tarball unpacks, without solutions/" "$problems" "$t/handout.log"

(cd "$kit" && make -s -j"$jobs" --no-print-directory) >"$t/build.log" 2>&1
verdict "the handout builds (make -j$jobs)" "$([ $? = 0 ] || echo "; make failed")" "$t/build.log"

(cd "$kit" && make -s --no-print-directory test) >"$t/test.log" 2>&1
rc=$?
problems=""
[ $rc = 0 ] || problems+="; make test exited $rc: $(grep -E '^(FAIL|not ok)|[1-9][0-9]* failed' "$t/test.log" | head -n 5 | tr '\n' ' ')"
grep -q "^make test: all test binaries passed" "$t/test.log" || problems+="; no 'all test binaries passed' line"
verdict "the handout's make test passes ($(grep -c '^== ' "$t/test.log") suites)" "$problems" "$t/test.log"

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
finish
