#!/usr/bin/env bash
# harness/stage-submission.sh SRC KIT_LAB STAGE: lay out a student's lab
# folder SRC for compiling: its source files (.cu, .cuh, .h, .hpp, .inl,
# in SRC and its subfolders, relative paths kept) with the kit's pristine
# contract headers (KIT_LAB/*.h) beside them, in STAGE, and STAGE/.manifest
# saying what was taken. Called by the Makefile for every implementation
# folder but solutions/ (harness/compile-submission.sh then compiles STAGE).
#
# The contract is always the kit's: a student's file named like one of its
# headers, wherever it lies, is left out (and said to be, unless it is the
# contract itself, unchanged, where the lab has it). So are links, names with
# characters other than letters, digits and _ . + - (or starting with . or
# -), files past a depth of 4 or beyond the first 100 source files; the
# manifest gives each reason. Other files (a README, objects) are not
# source and are not mentioned.
#
# .manifest: one line per file, fields separated by a tab:
#   compile <path>           a .cu to compile; the lab's own file first
#   header  <path>           a header or included file
#   ignored <path> <why>
# STAGE is replaced only when what it would hold changed, so that make
# (which depends on STAGE/.manifest) recompiles only then.
#
# Exit status: 0; 2 when SRC lacks the lab's own file or STAGE cannot be
# written.
set -u
. "$(dirname "$0")/source-files.sh"
src=${1%/} kit=${2%/} stage=${3%/}
max_files=100
stub=$(cd "$kit" && ls -- *.cu 2>/dev/null | head -n 1)
if [ -z "$stub" ] || [ ! -f "$src/$stub" ]; then
    echo "stage-submission: '$src/${stub:-<the lab file>}' is missing" >&2
    exit 2
fi
mapfile -t contract < <(cd "$kit" && ls -- *.h 2>/dev/null)

mkdir -p "$(dirname "$stage")" && new=$(mktemp -d "$stage.new.XXXXXX") || exit 2
trap 'rm -rf "$new"' EXIT
manifest=$new/.manifest
: >"$manifest"
compiled=("$stub") headers=() ignored=()
is_contract() {
    local h
    for h in "${contract[@]}"; do [ "$1" = "$h" ] && return 0; done
    return 1
}
# each folder and the file named in letters, digits and _ . + -, not
# starting with . or - (LC_ALL=C: no letters of other alphabets)
good_path='^([A-Za-z0-9_][A-Za-z0-9_.+-]*/)*[A-Za-z0-9_][A-Za-z0-9_.+-]*$'
export LC_ALL=C
taken=1
while IFS= read -r -d '' p; do
    p=${p#./}
    [ "$p" = "$stub" ] && continue
    base=${p##*/}
    pl_is_source "$base" || continue
    why="" slashes=${p//[^\/]/}
    if [ -L "$src/$p" ]; then
        why="a symbolic link: only regular files are compiled"
    elif [ ! -f "$src/$p" ]; then
        continue
    elif ! [[ $p =~ $good_path ]]; then
        why="its name has characters other than letters, digits and _ . + - (or starts with . or -)"
    elif is_contract "$base"; then
        cmp -s "$src/$p" "$kit/$base" && [ "$p" = "$base" ] && continue # the contract itself, unchanged
        why="the kit's own contract header is used, not this copy of it"
    elif [ ${#slashes} -ge 4 ]; then
        why="deeper than 4 folders"
    elif [ $taken -ge $max_files ]; then
        why="more than $max_files source files: the rest are left out"
    fi
    if [ -n "$why" ]; then # the name as shown: one line, one field
        ignored+=("$(printf '%s' "$p" | tr -c '[:print:]' '?')"$'\t'"$why")
        continue
    fi
    taken=$((taken + 1))
    case "$base" in *.cu) compiled+=("$p") ;; *) headers+=("$p") ;; esac
done < <(cd "$src" && LC_ALL=C find . -mindepth 1 -maxdepth 6 \( -name '.*' -prune \) -o \( -type f -o -type l \) -print0 |
    LC_ALL=C sort -z)

for p in "${compiled[@]}" "${headers[@]}"; do
    mkdir -p "$new/$(dirname "$p")" && cp -- "$src/$p" "$new/$p" && chmod 644 "$new/$p" || exit 2
done
for h in "${contract[@]}"; do cp -- "$kit/$h" "$new/$h" || exit 2; done
{
    for p in "${compiled[@]}"; do printf 'compile\t%s\n' "$p"; done
    for p in "${headers[@]}"; do printf 'header\t%s\n' "$p"; done
    for p in "${ignored[@]}"; do printf 'ignored\t%s\n' "$p"; done
} >"$manifest"

if [ -d "$stage" ] && diff -r -q "$stage" "$new" >/dev/null 2>&1; then
    exit 0
fi
rm -rf "$stage" && mv -T "$new" "$stage" || exit 2
