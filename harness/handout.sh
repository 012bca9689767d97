#!/usr/bin/env bash
# harness/handout.sh: build dist/primlab-handout-<version>.tar.gz, the kit
# students get: every file of the project except solutions/ (and build
# outputs). Called by `make handout`. In a git checkout the tracked files are
# taken, as they are in the working tree; elsewhere every file.
set -euo pipefail
version=$(cat VERSION)
name=primlab-handout-$version
stage=build/handout
rm -rf "$stage" && mkdir -p "$stage/$name" dist
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked files that are there: one deleted but not yet committed (a
    # lab's WIP marker) is not part of the kit
    # tests/planted18/ holds working lab code with bugs planted by a switch:
    # with the switch off it is a solution, so it stays with the instructors
    git ls-files -z | grep -zv -e '^solutions/' -e '^tests/planted18/' | while IFS= read -r -d '' f; do
        [ -e "$f" ] && printf '%s\0' "$f"
    done >"$stage/files"
else
    find . -type f ! -path './solutions/*' ! -path './tests/planted18/*' ! -path './build/*' ! -path './dist/*' ! -path './.git/*' \
        -print0 | sed -z 's|^\./||' >"$stage/files"
fi
tar -cf - --null -T "$stage/files" | tar -xf - -C "$stage/$name"
if [ -e "$stage/$name/solutions" ]; then
    echo "handout: solutions/ would ship in the handout; stopping" >&2
    exit 1
fi
tar -czf "dist/$name.tar.gz" -C "$stage" "$name"
echo "wrote dist/$name.tar.gz ($(tr -cd '\0' <"$stage/files" | wc -c) files, no solutions/)"
