#!/usr/bin/env bash
# tests/unit/test_mtx_refusals.sh: the Matrix Market inputs of issue 28 (items
# 3-6) refused by every command that reads them, before anything needs a
# GPU: build/mtx-check FILE, build/<impl>/lab06 run --matrix FILE and
# build/<impl>/lab07 table --matrix FILE (solutions when built, else the
# student's labs: the parent binary is the same). For each input and
# command: status 2, exactly one line on stderr naming the file and its
# line (the file alone where there is no line), nothing on stdout, and,
# measured with /usr/bin/time, under 1 s and under 64 MB of peak RSS.
# The inputs are made here, in a temporary folder: the 78-byte file whose
# size line asks for 2^31 - 1 columns, a sparse 3 GiB file with no
# banner, /dev/zero, a FIFO, a socket, a directory, CR line ends, a UTF-8
# byte-order mark, a no-break space in an index, a truncated file (named
# at its last line), a one-word banner, rows over the labs' contracts, a
# value beyond float's range (read by mtx-check, refused by the labs), and
# a folder of 300 good files and one bad one (lab07 table names it: no
# file dropped). Needs no GPU. Prints one line per check, then `N passed,
# N failed, N skipped`.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh # say, finish, and the counts
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

impl=solutions
[ -x build/solutions/lab06 ] || impl=labs
for b in build/mtx-check build/$impl/lab06 build/$impl/lab07; do
    [ -x "$b" ] || { say FAIL "$b" "not built (make $b)"; finish; }
done
timer=/usr/bin/time
[ -x "$timer" ] || timer=""

# run NAME STATUS WANT CMD...: CMD exits STATUS with WANT as its only line
# on stderr (nothing at all when WANT is empty) and nothing on stdout, in
# under 1 s and 64 MB.
run() {
    local name=$1 status=$2 want=$3 problems="" rc s kb
    shift 3
    if [ -n "$timer" ]; then
        timeout 20 "$timer" -f '%e %M' -o "$t/time" "$@" >"$t/out" 2>"$t/err"
    else
        timeout 20 "$@" >"$t/out" 2>"$t/err"
    fi
    rc=$?
    [ $rc = "$status" ] || problems+="; status $rc, expected $status"
    if [ "$status" = 2 ]; then
        [ "$(cat "$t/err")" = "$want" ] || problems+="; stderr '$(head -c 300 "$t/err")', expected '$want'"
        [ ! -s "$t/out" ] || problems+="; stdout '$(head -c 200 "$t/out")'"
    fi
    local measured=""
    # (time's last line: a line saying the status may come before it)
    if [ -n "$timer" ] && read -r s kb < <(tail -n 1 "$t/time") && [[ "$s $kb" =~ ^[0-9.]+\ [0-9]+$ ]]; then
        measured=" ($s s, $kb KB)"
        awk -v s="$s" 'BEGIN { exit !(s < 1.0) }' || problems+="; $s s, more than 1 s"
        [ "$kb" -lt 65536 ] || problems+="; $kb KB of peak RSS, more than 64 MB"
    fi
    if [ -z "$problems" ]; then
        say OK "$name$measured"
    else
        say FAIL "$name$measured" "${problems#; }"
    fi
}

# refused NAME FILE SUFFIX [LAB_SUFFIX]: the three commands refuse FILE with
# FILE followed by SUFFIX (the labs with LAB_SUFFIX when given: their own
# limits; mtx-check then says SUFFIX, or reads the file when SUFFIX is "").
refused() {
    local name=$1 f=$2 msg=$3 lab=${4:-$3}
    if [ -n "$msg" ]; then
        run "mtx-check: $name" 2 "$f$msg" build/mtx-check "$f"
    else
        run "mtx-check: $name (read: no float part)" 0 "" build/mtx-check "$f"
    fi
    run "lab06 run --matrix: $name" 2 "lab06: $f${lab//@LAB@/06}" build/$impl/lab06 run --matrix "$f"
    run "lab07 table --matrix: $name" 2 "lab07 table: $f${lab//@LAB@/07}" build/$impl/lab07 table --matrix "$f"
}

banner='%%MatrixMarket matrix coordinate real general'

# 3. a 78-byte file asks for x of 2^31 - 1 columns
printf '%s\n1 2147483647 1\n1 2147483647 1.0\n' "$banner" >"$t/cols.mtx"
[ "$(wc -c <"$t/cols.mtx")" = 78 ] || say FAIL "cols.mtx is not the issue's 78 bytes"
refused "1 x 2147483647, one entry" "$t/cols.mtx" \
    ":2: 2147483647 columns: at least 2147483646 would be empty, more than the reader's limit of 16777216"

# 4. a 3 GiB file with no banner (sparse), and an endless character device
if truncate -s 3G "$t/nobanner.mtx" 2>/dev/null; then
    refused "3 GiB, no banner" "$t/nobanner.mtx" ":1: not a Matrix Market file: line 1 does not start with %%MatrixMarket"
else
    say SKIP "3 GiB, no banner" "no sparse file here"
fi
refused "/dev/zero" /dev/zero ": a character device, not a regular file"

# 5. a FIFO with no writer (each command would block on it), a socket, a directory
mkfifo "$t/fifo.mtx"
refused "a FIFO" "$t/fifo.mtx" ": a FIFO (named pipe), not a regular file"
if command -v python3 >/dev/null &&
    python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$t/sock.mtx" 2>/dev/null; then
    refused "a socket" "$t/sock.mtx" ": a socket, not a regular file"
else
    say SKIP "a socket" "no python3 to make one"
fi
mkdir "$t/dir.mtx"
run "mtx-check: a directory" 2 "$t/dir.mtx: a directory, not a regular file" build/mtx-check "$t/dir.mtx"
run "lab06 run --matrix: a directory" 2 "lab06: $t/dir.mtx: a directory, not a regular file" \
    build/$impl/lab06 run --matrix "$t/dir.mtx"

# 6. each refusal names its real cause
printf '%s\r2 2 1\r1 1 1\r' "$banner" >"$t/cr.mtx"
refused "CR line ends" "$t/cr.mtx" \
    ":1: a carriage return (\\r) not followed by a line feed: lines end in LF or CRLF, not CR alone"
printf '\xef\xbb\xbf%s\n2 2 1\n1 1 1\n' "$banner" >"$t/bom.mtx"
refused "a UTF-8 byte-order mark" "$t/bom.mtx" \
    ":1: line 1 starts with a UTF-8 byte-order mark (\\xef\\xbb\\xbf) before %%MatrixMarket: save the file without it"
printf '%s\n2 2 1\n1\xc2\xa01 1\n' "$banner" >"$t/nbsp.mtx"
refused "a no-break space in an index" "$t/nbsp.mtx" \
    ":3: row index '1\\xc2\\xa01' is not an integer (\\xc2\\xa0 is a no-break space: only spaces and tabs separate words)"
printf '%s\n4 4 5\n1 1 1\n2 2 2\n3 3 3\n' "$banner" >"$t/truncated.mtx"
refused "truncated (its last line named)" "$t/truncated.mtx" \
    ":5: truncated: the size line says 5 entries, the file has 3"
printf '%%%%MatrixMarket matrix\n2 2 1\n1 1 1\n' >"$t/oneword.mtx"
refused "a one-word banner" "$t/oneword.mtx" \
    ":1: the banner has 1 word after %%MatrixMarket, expected 4: matrix coordinate FIELD SYMMETRY"
printf '%s\n67108865 67108865 67108865\n1 1 1\n' "$banner" >"$t/rows.mtx"
refused "rows over the labs' contracts" "$t/rows.mtx" \
    ":3: truncated: the size line says 67108865 entries, the file has 1" \
    ":2: 67108865 rows, more than lab @LAB@'s contract allows (67108864)"
printf '%s\n2 2 2\n1 1 1\n2 2 1e39\n' "$banner" >"$t/float.mtx"
run "mtx-check: beyond float's range (read: no float part)" 0 "" build/mtx-check "$t/float.mtx"
run "lab06 run --matrix: beyond float's range" 2 "lab06: $t/float.mtx:4: value '1e39' is beyond the range of float \
(largest 3.40282e+38): run times the float parts (cf, df) on every --matrix file" build/$impl/lab06 run --matrix "$t/float.mtx"
run "lab07 table --matrix: beyond float's range" 2 "lab07 table: $t/float.mtx:4: value '1e39' is beyond the range of \
float (largest 3.40282e+38): lab 07 computes in float" build/$impl/lab07 table --matrix "$t/float.mtx"

# a folder of more than 256 files: every one read before the GPU, none dropped
mkdir "$t/many"
for i in $(seq -w 0 299); do printf '%s\n2 2 1\n1 1 1\n' "$banner" >"$t/many/m$i.mtx"; done
cp "$t/cols.mtx" "$t/many/zzz.mtx"
run "lab07 table --matrix: a folder of 301 files, the last one bad" 2 "lab07 table: $t/many/zzz.mtx:2: 2147483647 \
columns: at least 2147483646 would be empty, more than the reader's limit of 16777216" build/$impl/lab07 table --matrix "$t/many"
finish
