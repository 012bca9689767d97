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
harness/kit-files.sh --handout >"$stage/files"
tar -cf - --null -T "$stage/files" | tar -xf - -C "$stage/$name"
if [ -e "$stage/$name/solutions" ]; then
    echo "handout: solutions/ would ship in the handout; stopping" >&2
    exit 1
fi
tar -czf "dist/$name.tar.gz" -C "$stage" "$name"
echo "wrote dist/$name.tar.gz ($(tr -cd '\0' <"$stage/files" | wc -c) files, no solutions/)"
