#!/usr/bin/env bash
# harness/kit-files.sh [--handout]: the kit's files, relative to its root,
# each ended by a NUL: in a git checkout of its own the files git tracks
# that are there (one deleted but not yet committed, a lab's WIP marker, is
# not part of the kit), elsewhere (an unpacked handout, a kit inside
# another repository) every file but build outputs. --handout leaves out
# what stays with the instructors: solutions/, and tests/plants/instructors/
# (working lab code with bugs planted by a switch: with the switch off, a
# solution).
# Used by harness/handout.sh and tests/test_kit_anywhere.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
skip='^$'
[ "${1:-}" = --handout ] && skip='^(solutions|tests/plants/instructors)/'
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files -z
else
    find . -type f ! -path './build/*' ! -path './dist/*' ! -path './.git/*' -print0 | sed -z 's|^\./||'
fi | grep -zvE "$skip" | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"
done
