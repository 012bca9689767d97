#!/usr/bin/env bash
# harness/matrices.sh: `make matrices`, the real matrices of the paper's
# Table 2 (the presets of harness/parent/mtxgen.c) from the SuiteSparse
# Matrix Collection, https://sparse.tamu.edu/MM/<group>/<name>.tar.gz, each
# unpacked to MATRICES_DIR/<name>/<name>.mtx and checked with build/mtx-check.
# Run it from the kit's root, after building build/mtx-gen and build/mtx-check
# (make matrices does both).
#
# The list is `build/mtx-gen --list`'s presets (the paper's name, and the
# collection's group/name), so there is one table. Two entries are special:
#   qcd5_4  the collection has it as QCD/conf5_4-8x8-05, complex: its real
#           part is kept (same structure, a real file the reader accepts);
#   dense2  not in the collection: made here with build/mtx-gen (the
#           dense2-like preset, `build/mtx-gen dense --rows 2000 --cols 2000`).
# A file already there is skipped (not checked again); a file that fails the
# check is removed, with mtx-check's line, so that a rerun fetches it again.
#
# Environment: MATRICES_DIR (default build/matrices), NAMES (the paper's
# names, space-separated: NAMES="cant rail4284"; default all), MATRICES_URL
# (default https://sparse.tamu.edu/MM; file:// works with curl),
# MTX_GEN, MTX_CHECK (default build/mtx-gen, build/mtx-check),
# PROBE_TIMEOUT (seconds, default 10).
# Exit status: 0; 1 when the collection cannot be reached (one line: nothing
# is downloaded) or a matrix failed; 2 on a bad NAMES or missing tools.
set -u
set -f # NAMES is words, not patterns
dir=${MATRICES_DIR:-build/matrices}
url=${MATRICES_URL:-https://sparse.tamu.edu/MM}
url=${url%/}
gen=${MTX_GEN:-build/mtx-gen}
check=${MTX_CHECK:-build/mtx-check}
probe_s=${PROBE_TIMEOUT:-10}

say() { printf 'make matrices: %s\n' "$*"; }

for t in "$gen" "$check"; do
    [ -x "$t" ] || { say "$t is not built (make $t)"; exit 2; }
done
# matrix, collection ("-": not there), family, rows, cols: one line per preset
table=$("$gen" --list | awk -F'\t' '$1 == "preset" { print $8 "\t" $9 "\t" $3 "\t" $4 "\t" $5 }')
all=$(cut -f1 <<<"$table" | paste -sd' ')
names=${NAMES:-$all}
for n in $names; do
    awk -F'\t' -v n="$n" '$1 == n { found = 1 } END { exit !found }' <<<"$table" ||
        { say "unknown matrix '$n': one of $all"; exit 2; }
done
collection_of() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' <<<"$table"; }
recipe_of() { awk -F'\t' -v n="$1" '$1 == n { print $3 " --rows " $4 " --cols " $5 }' <<<"$table"; }
present() { [ -f "$dir/$1/$1.mtx" ]; }

# ------------------------------------------------------------- network
need=0
for n in $names; do
    present "$n" || [ "$(collection_of "$n")" = - ] || need=1
done
host=${url#*://}
host=${host%%/*}
if [ $need = 1 ]; then
    if command -v curl >/dev/null; then
        quiet=-sS
        [ -t 1 ] && quiet=-#
        fetch() { curl -fL "$quiet" --connect-timeout "$probe_s" --retry 2 -o "$2" "$1"; }
        probe() { curl -sI -o /dev/null --connect-timeout "$probe_s" --max-time "$probe_s" "$url/"; }
    elif command -v wget >/dev/null; then
        fetch() { wget -nv -T 30 -t 3 -O "$2" "$1"; }
        # 8: the server answered with an error, which is an answer
        probe() {
            wget -q --spider -T "$probe_s" -t 1 "$url/"
            local rc=$?
            [ $rc = 0 ] || [ $rc = 8 ]
        }
    else
        say "neither curl nor wget is installed: nothing downloaded"
        exit 1
    fi
    if ! probe; then
        say "cannot reach $host (no internet here?): nothing downloaded; the tests use ../shared/matrices and the synthetic families instead"
        exit 1
    fi
fi

# ------------------------------------------------------------ matrices
# The collection's file with a complex field as its real part (hermitian
# becomes symmetric), a comment saying so after the banner; else as it is.
real_part() {
    awk -v from="$3" 'NR == 1 {
            cplx = tolower($4) == "complex"
            if (cplx) { $4 = "real"; if (tolower($5) == "hermitian") $5 = "symmetric" }
            print
            if (cplx) print "% primlab: the real part of " from " (the collection'"'"'s file is complex)"
            next }
        /^[ \t]*%/ || NF == 0 { print; next }
        !size { size = 1; print; next }
        { if (cplx) print $1, $2, $3; else print }' "$1" >"$2"
}

mkdir -p "$dir" || exit 2
tmp=$(mktemp -d "$dir/.tmp-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
failed=0 got=0
for n in $names; do
    dest=$dir/$n/$n.mtx
    if present "$n"; then
        say "$n: present, $dest"
        got=$((got + 1))
        continue
    fi
    c=$(collection_of "$n")
    w=$tmp/$n # this matrix's scratch: the tarball, what it holds, out/$n
    rm -rf "$w" && mkdir -p "$w/out/$n" || exit 2
    if [ "$c" = - ]; then
        say "$n: not in the collection, made with $gen $(recipe_of "$n") (seed 1)"
        "$gen" "$n" --out "$w/out/$n/$n.mtx" >/dev/null || { failed=1; continue; }
    else
        say "$n: $url/$c.tar.gz"
        base=${c#*/}
        if ! fetch "$url/$c.tar.gz" "$w/$n.tar.gz" || ! tar -xzf "$w/$n.tar.gz" -C "$w"; then
            say "$n: download or unpacking failed: skipped"
            failed=1
            continue
        fi
        rm -f "$w/$n.tar.gz"
        if [ ! -f "$w/$base/$base.mtx" ]; then
            say "$n: $c.tar.gz has no $base/$base.mtx: skipped"
            failed=1
            continue
        fi
        if [ "$base" = "$n" ]; then
            rm -rf "$w/out/$n" && mv "$w/$base" "$w/out/$n"
        else
            real_part "$w/$base/$base.mtx" "$w/out/$n/$n.mtx" "$c" || { failed=1; continue; }
        fi
    fi
    if ! line=$("$check" "$w/out/$n/$n.mtx" 2>&1); then
        say "$n: refused by the reader, not kept: ${line#"$w/out/"}"
        failed=1
        continue
    fi
    if ! { rm -rf "${dir:?}/$n" && mv "$w/out/$n" "$dir/$n"; }; then
        failed=1
        continue
    fi
    rm -rf "$w"
    printf '%s\t%s\n' "$dest" "${line#*	}"
    got=$((got + 1))
done

say "$got of $(wc -w <<<"$names") matrices in $dir/<name>/<name>.mtx (build/mtx-check FILE: rows, cols, nnz as the labs read them)"
# the labs that read a file (their tables set load_matrix), for the hint
sparse=$(set +f; grep -l 'load_matrix = ' "$(dirname "$0")"/parent/labs/lab[0-9]*.c 2>/dev/null | sed 's|.*/lab\([0-9]*\)\.c$|\1|')
first=$(head -n 1 <<<"$sparse")
say "use one with, e.g., build/solutions/lab${first:-NN} run --matrix $dir/cant/cant.mtx (the labs that read one: $(echo $sparse | sed 's/ /, /g'));"
say "synthetic look-alikes of any size: build/mtx-gen --list, build/mtx-gen cant-like --scale 0.1 --out FILE.mtx"
exit $failed
