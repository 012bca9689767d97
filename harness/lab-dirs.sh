#!/bin/sh
# harness/lab-dirs.sh: the labs the kit builds, checks and grades, one
# folder a line (labs/NN-name/), in order. A lab under construction has a
# file named WIP in its folder, saying what is missing: it is left out
# unless PRIMLAB_WIP=1 (make PRIMLAB_WIP=1 check LAB=06).
cd "$(dirname "$0")/.." || exit 2
for d in labs/[0-9][0-9]-*/; do
    [ -d "$d" ] || continue
    if [ -e "${d}WIP" ] && [ "${PRIMLAB_WIP:-0}" != 1 ]; then continue; fi
    echo "$d"
done
