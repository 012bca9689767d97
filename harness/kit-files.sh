#!/usr/bin/env bash
# harness/kit-files.sh [--handout] [--untracked]: the kit's files, relative
# to its root, each ended by a NUL: in a git checkout of its own the files
# git tracks that are there (one deleted but not yet committed, a lab's WIP
# marker, is not part of the kit) and those it neither tracks nor ignores
# (a lab's new file not yet added: `git ls-files --others
# --exclude-standard`), elsewhere (an unpacked handout, a kit inside
# another repository) every file but build outputs. --handout leaves out
# what stays with the instructors: solutions/, and tests/fixtures/plants/instructors/
# (working lab code with bugs planted by a switch: with the switch off, a
# solution). --untracked lists only the files git does not track (none
# outside a git checkout), which harness/handout.sh names.
# Used by harness/handout.sh, harness/record.sh and tests/grading/test_kit_anywhere.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
skip='^$' which=--cached
for a in "$@"; do
    case "$a" in
    --handout) skip='^(solutions|tests/fixtures/plants/instructors)/' ;;
    --untracked) which="" ;;
    *) echo "kit-files: bad argument '$a' (--handout, --untracked)" >&2; exit 2 ;;
    esac
done
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files -z $which --others --exclude-standard
elif [ -n "$which" ]; then
    find . -type f ! -path './build/*' ! -path './dist/*' ! -path './.git/*' -print0 | sed -z 's|^\./||'
fi | grep -zvE "$skip" | while IFS= read -r -d '' f; do
    if [ -e "$f" ]; then printf '%s\0' "$f"; fi # (a file deleted last in the list is no failure)
done
