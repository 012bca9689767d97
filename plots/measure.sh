#!/usr/bin/env bash
# plots/measure.sh BIN: measure a lab's figure data afresh on this machine's
# GPU. BIN is a lab's binary (build/solutions/lab03); `BIN commands` lists
# its commands, as its table declares them, with the data file each writes
# and how `make plots` runs it (show, quiet, or - for not at all); each one
# to run is called as `BIN NAME --out DATA`, its stdout dropped when quiet.
# A command's options column adds OPTION VALUE for each OPTION=VARIABLE
# word whose environment variable is set ("--matrix=MATRICES": make plots
# MATRICES=DIR). Called by `make plots`, from the top of the kit, once the
# lab's `info` found a GPU; stops at the first command that fails.
set -u
bin=${1:?usage: plots/measure.sh BIN}
list=$("$bin" commands) || { echo "measure.sh: '$bin commands' failed" >&2; exit 1; }
while IFS=$'\t' read -r name data _gpu how opts; do
    [ "$name" = name ] && continue # the header
    [ "$data" != - ] && [ "$how" != - ] || continue
    args=(--out "$data")
    if [ "$opts" != - ]; then
        for o in $opts; do
            var=${o#*=}
            [ -n "${!var:-}" ] && args+=("${o%%=*}" "${!var}")
        done
    fi
    if [ "$how" = quiet ]; then
        "$bin" "$name" "${args[@]}" >/dev/null || exit 1
    else
        "$bin" "$name" "${args[@]}" || exit 1
    fi
done <<<"$list"
