#!/usr/bin/env bash
# tests/grading/test_kit_anywhere.sh: the kit builds and checks a student's code
# wherever it is unpacked, as root and as an ordinary user:
#   1. under a folder of root's that only root may enter (mode 0700, as
#      root's home is), when run as root: the sandboxed compile runs as uid
#      65534, which cannot reach the kit (it was refused: "bwrap: Can't
#      mkdir <kit>: Permission denied");
#   2. under a path with a space in it;
#   3. reached through a symlinked path;
#   4. as an ordinary user (uid 65534, run by setpriv when this is root),
#      in a folder of its own.
# In each, `make check LAB=01` builds the stub in the sandbox, names the
# file compiled, and gives a Score line with no "grading machine" fault
# (0 points on a GPU; no test could run without one). The kit's files are
# copied (as the handout and the grading kit are made), with the
# kit's own objects already built here (harness and references: the same
# for every copy), so that each copy compiles the student's file itself.
#   5. a handout (no solutions/: it grades in place) whose kit is not
#      built yet: make grade (harness/grade.sh, a dry run of an empty
#      class) builds the kit's parts and says so, never silent for long:
#      a line when the first file is built, one every GRADE_PROGRESS_S
#      seconds (1 here, with a make that lingers 3 s after its build), and
#      one with the files built and the seconds; a second run, the kit
#      built, says none of it. (No faster test builds a kit: the grading
#      suites share one already built.)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
unset PRIMLAB_SEED
export PRIMLAB_LIMITS=0
if ! bwrap --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null; then
    say SKIP "the kit anywhere" "bwrap is missing or cannot start a sandbox here"
    finish
fi
make -s --no-print-directory build/libprimlab.a build/libworker.a build/obj/worker/lab01-core.o \
    build/vendor/lab01-worker build/primlab-results >/dev/null || { say FAIL "the kit's own parts do not build here"; finish; }
me=$(id -u)
dirs=()
trap 'rm -rf "${dirs[@]}"' EXIT

# copy_kit DEST: the kit's files (their times kept) and the kit's built parts
copy_kit() {
    mkdir -p "$1" && harness/kit-files.sh | tar --null -T - -cf - | tar -xf - -C "$1" &&
        mkdir -p "$1/build" && cp -a build/obj build/libprimlab.a build/libworker.a build/vendor build/.flags \
            build/.bootstrap "$1/build/"
}

# check_in NAME DIR [AS...]: make check LAB=01 in DIR (run by AS...), judged
check_in() {
    local name=$1 dir=$2 log problems=""
    shift 2
    log=$(mktemp)
    (cd "$dir" && "$@" env HOME="${home:-$HOME}" make -s --no-print-directory check LAB=01) >"$log" 2>&1
    grep -q "grading machine" "$log" && problems+="; $(grep -m 1 'grading machine' "$log")"
    grep -q "^lab01: compiled prefix_sum.cu$" "$log" || problems+="; no 'lab01: compiled prefix_sum.cu' line"
    grep -q "^Score: " "$log" || problems+="; no Score line"
    if has_gpu && ! grep -q "^Score: 0/" "$log"; then problems+="; not 0 points: $(grep -m 1 '^Score' "$log")"; fi
    [ -s "$dir/build/labs/obj/01-prefix-sum/prefix_sum.o" ] || problems+="; the stub's object is not there"
    verdict "$name" "$problems" "$log"
    rm -f "$log"
}

# 1. under a folder only root may enter
if [ "$me" = 0 ]; then
    base=$(mktemp -d -p "${HOME:-/root}" primlab-anywhere.XXXXXX) && dirs+=("$base")
    chmod 700 "$base"
    copy_kit "$base/kit"
    check_in "as root, under a 0700 folder of root's ($base)" "$base/kit"
else
    say SKIP "as root, under a 0700 folder of root's" "not root"
fi

# 2. a path with a space; 3. reached through a symlink
base=$(mktemp -d -p /var/tmp primlab-anywhere.XXXXXX) && dirs+=("$base")
copy_kit "$base/with space/kit"
check_in "a path with a space ($base/with space/kit)" "$base/with space/kit"
ln -s "with space/kit" "$base/link"
rm -rf "$base/with space/kit/build/labs"
check_in "through a symlinked path ($base/link)" "$base/link"

# 4. an ordinary user, in a folder of its own
if [ "$me" = 0 ] && command -v setpriv >/dev/null; then
    base=$(mktemp -d -p /var/tmp primlab-anywhere.XXXXXX) && dirs+=("$base")
    chmod 755 "$base" && copy_kit "$base/home/kit" && chown -R 65534:65534 "$base/home" && chmod 700 "$base/home"
    home=$base/home check_in "as an ordinary user (uid 65534), under its own 0700 folder" "$base/home/kit" \
        setpriv --reuid 65534 --regid 65534 --clear-groups --
else
    check_in "as an ordinary user (uid $me)" "$base/with space/kit"
fi

# 5. a handout whose kit is built by make grade, saying so
name="make grade in a handout: a line when the kit's build starts, one every GRADE_PROGRESS_S, one at its end"
base=$(mktemp -d -p /var/tmp primlab-anywhere.XXXXXX) && dirs+=("$base")
k=$base/handout
mkdir -p "$k/build" "$base/bin" "$base/none" &&
    harness/kit-files.sh --handout | tar --null -T - -cf - | tar -xf - -C "$k" &&
    cp -a build/obj build/libprimlab.a build/libworker.a build/vendor build/.flags build/.bootstrap "$k/build/"
# make as it is, lingering after the build of the kit's parts (the only
# make whose targets name build/primlab-report)
printf '#!/bin/sh\n%q "$@"\nrc=$?\ncase " $* " in *" build/primlab-report "*) sleep 3 ;; esac\nexit $rc\n' \
    "$(command -v make)" >"$base/bin/make" && chmod +x "$base/bin/make"
run_grade() { # run_grade LOG: a dry run of the empty class, lab 01
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$base/bin:$PATH" GRADE_PROGRESS_S=1 PRIMLAB_NO_GPU=1 LAB=01 \
        GRADE_LOCK_WAIT=0 "$k/harness/grade.sh" "$base/none" "$base/grades" >"$1" 2>&1
}
run_grade "$base/1.log"
rc=$?
p=""
[ $rc = 0 ] || p="; status $rc"
# the kit's lines, in order: the start, then a line a second, then the end
kit_lines=$(grep -E '^buil(t|ding) the grading kit' "$base/1.log" | sed -E 's/[0-9]+/N/g' | uniq)
want="building the grading kit (in place): what changed since its last build (minutes on a first run), a line every N s
building the grading kit: N files, N s so far
built the grading kit: N files in N s"
[ "$kit_lines" = "$want" ] || p+="; the kit's lines: $(tr '\n' '|' <<<"$kit_lines")"
[ "$(grep -cE '^building the grading kit: [0-9]+ files, [0-9]+ s so far$' "$base/1.log")" -ge 2 ] ||
    p+="; not a line a second while make ran 3 s"
grep -qE '^built the grading kit: [1-9][0-9]* files in [0-9]+ s$' "$base/1.log" || p+="; no file counted as built"
grep -q '^graded 0, skipped 0' "$base/1.log" || p+="; not 'graded 0, skipped 0'"
[ -x "$k/build/tables/lab01" ] && [ -x "$k/build/primlab-report" ] && [ -f "$k/build/.grade-kit" ] ||
    p+="; the kit's parts or its stamp are not there"
run_grade "$base/2.log"
grep -q 'the grading kit' "$base/2.log" && p+="; a second run, the kit built, said: $(grep -m 1 'the grading kit' "$base/2.log")"
verdict "$name" "$p" "$base/1.log"
finish
