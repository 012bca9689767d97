#!/usr/bin/env bash
# harness/kit-files.sh [--handout] [--untracked] [--sum]: the kit's files, relative
# to its root, each ended by a NUL: in a git checkout of its own the files
# git tracks that are there (one deleted but not yet committed, a lab's WIP
# marker, is not part of the kit) and those it neither tracks nor ignores
# (a lab's new file not yet added: `git ls-files --others
# --exclude-standard`), elsewhere (an unpacked handout, a kit inside
# another repository) every file but build outputs. --handout leaves out
# what stays with the instructors: solutions/, and tests/fixtures/plants/instructors/
# (working lab code with bugs planted by a switch: with the switch off, a
# solution). --untracked lists only the files git does not track (none
# outside a git checkout), which harness/handout.sh names. --sum prints,
# instead of the list, one checksum (64 hex digits) of the listed files'
# names and contents: what the grading kit's stamp records
# (harness/grade.sh's handout_sum), and what `make report` compares with it.
# Used by harness/handout.sh, harness/record.sh, harness/grade.sh, the
# Makefile (make report) and tests/grading/test_kit_anywhere.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
skip='^$' which=--cached sum=0
for a in "$@"; do
    case "$a" in
    --handout) skip='^(solutions|tests/fixtures/plants/instructors)/' ;;
    --untracked) which="" ;;
    --sum) sum=1 ;;
    *) echo "kit-files: bad argument '$a' (--handout, --untracked, --sum)" >&2; exit 2 ;;
    esac
done
if [ $sum = 1 ]; then
    args=()
    for a in "$@"; do [ "$a" = --sum ] || args+=("$a"); done
    harness/kit-files.sh "${args[@]}" | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum | cut -c 1-64
    exit
fi
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files -z $which --others --exclude-standard
elif [ -n "$which" ]; then
    find . -type f ! -path './build/*' ! -path './dist/*' ! -path './.git/*' -print0 | sed -z 's|^\./||'
fi | grep -zvE "$skip" | while IFS= read -r -d '' f; do
    if [ -e "$f" ]; then printf '%s\0' "$f"; fi # (a file deleted last in the list is no failure)
done
