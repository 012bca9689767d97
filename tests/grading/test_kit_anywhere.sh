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
finish
