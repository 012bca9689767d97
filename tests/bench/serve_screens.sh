#!/usr/bin/env bash
# tests/bench/serve_screens.sh JOBS.tar.gz OUTDIR: the check service's page,
# a lab's leaderboard and a student's figure, drawn from the jobs a GPU ran
# (tests/bench/bench_serve.sh's OUT/jobs.tar.gz, brought back from a GPU
# host), on this machine, which needs no GPU: for docs/ (issue 55).
#
# Each job of the archive (work/serve/jobs/N/, with its student sNN from
# work/sNN.submit.log) is replayed through a fresh build/primlab-serve on
# loopback: the student's account is made, their upload sent as make submit
# sends it, and the runner (a few lines below, in place of run-job.sh)
# copies the job's report.txt, results.json and scores.tsv as the GPU left
# them, so the boards rank the numbers the GPU measured and nothing else.
# Students s01 and s05 choose display names; the others stay pseudonyms.
# Then, in headless Chromium (tests/lib/report_browser.sh: no request
# leaves the page's origin, no console error): OUTDIR/serve-page.png (the
# page as the instructor sees it) and OUTDIR/serve-board-LAB.png (the
# first lab's board with the most students); and
# harness/serve/figure.sh on the first solution's results.json of lab 02
# (else the first job's): OUTDIR/serve-figure.svg. Prints what it wrote.
# Exit status 0; 2 (one line) when something it needs is missing.
set -u
cd "$(dirname "$0")/../.." || exit 2
die() { echo "serve_screens: $*" >&2; exit 2; }
[ $# = 2 ] || die "usage: tests/bench/serve_screens.sh JOBS.tar.gz OUTDIR"
[ -f "$1" ] || die "no archive '$1'"
arch=$(realpath "$1") out=$(realpath -m "$2")
make -s --no-print-directory build/primlab-serve build/primlab-serve-admin >/dev/null 2>&1 ||
    die "build/primlab-serve does not build (libmicrohttpd's headers: harness/bootstrap.sh)"
t=$(mktemp -d) || exit 2
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$t"' EXIT
tar -xzf "$arch" -C "$t" || die "'$1' does not unpack"
jobs=$t/work/serve/jobs
[ -d "$jobs" ] || die "'$1' holds no work/serve/jobs/ (tests/bench/bench_serve.sh's jobs.tar.gz)"
mkdir -p "$out" "$t/sd" "$t/up" || exit 2

# job N -> student, lab (from the client's line "... labs/NN-name ...: job N")
: >"$t/map"
for f in "$t"/work/s*.submit.log; do
    s=$(basename "$f" .submit.log)
    sed -n 's|^submit: sent labs/\([0-9][0-9]\)-[^ ]* .*: job \([0-9]*\)$|\2\t'"$s"'\t\1|p' "$f" >>"$t/map"
done
sort -n -o "$t/map" "$t/map"
[ -s "$t/map" ] || die "no job named in work/s*.submit.log"

# the runner: the upload holds the path of the job the GPU ran
cat >"$t/replay.sh" <<'EOF'
#!/usr/bin/env bash
set -u
from=$(tar -xzOf "$1" replay/from) && [ -s "$from/status" ] || { printf 'failed\tno job to replay\n' >"$3/status"; exit 0; }
for f in report.txt results.json scores.tsv; do cp "$from/$f" "$3/" 2>/dev/null; done
cp "$from/status" "$3/status"
EOF
chmod +x "$t/replay.sh"

cut -f 2 "$t/map" | build/primlab-serve-admin tokens "$t/sd/serve.db" >"$t/tokens.tsv" 2>"$t/admin.log" ||
    die "accounts: $(cat "$t/admin.log")"
printf 'prof\n' | build/primlab-serve-admin tokens "$t/sd/serve.db" --instructor >>"$t/tokens.tsv" 2>>"$t/admin.log" ||
    die "the instructor's account: $(cat "$t/admin.log")"
tok() { awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$t/tokens.tsv"; }
env SERVE_DIR="$t/sd" SERVE_ADDR=127.0.0.1:0 SERVE_RUNNER="$t/replay.sh" SERVE_DRY=1 SERVE_PER_HOUR=0 \
    build/primlab-serve >"$t/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$t/sd/serve.addr" ] && break; sleep 0.1; done
url=$(cat "$t/sd/serve.addr" 2>/dev/null)
[ -n "$url" ] || die "the service does not start: $(tail -n 1 "$t/serve.log")"

n=0
while IFS=$'\t' read -r id s lab; do
    [ -f "$jobs/$id/status" ] || continue
    mkdir -p "$t/up/$id/replay" && echo "$jobs/$id" >"$t/up/$id/replay/from" &&
        tar -czf "$t/up/$id.tar.gz" -C "$t/up/$id" replay || exit 2
    curl -sf -H "Authorization: Bearer $(tok "$s")" --data-binary @"$t/up/$id.tar.gz" \
        "$url/api/jobs?lab=$lab" >/dev/null || die "the service refused $s's job $id"
    n=$((n + 1))
done <"$t/map"
for s in s01 s05; do
    [ -n "$(tok "$s")" ] && curl -sf -H "Authorization: Bearer $(tok "$s")" \
        --data-binary "$([ $s = s01 ] && echo 'Ada L.' || echo 'scan fan')" "$url/api/name" >/dev/null
done
for _ in $(seq 300); do
    left=$(curl -sf -H "Authorization: Bearer $(tok prof)" "$url/api/jobs" | awk -F '\t' '$4 == "queued" || $4 == "running"' | wc -l)
    [ "$left" = 0 ] && break
    sleep 0.2
done
[ "$left" = 0 ] || die "the replayed jobs did not end"
echo "replayed $n jobs the GPU ran ($(basename "$1")) through $url"

# the lab whose board has the most students
lab=$(cut -f 3 "$t/map" | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2 }')
hdr="Authorization: Bearer $(tok prof)"
REPORT_BROWSER_HEADER="$hdr" tests/lib/report_browser.sh "$url/" "$out" serve-page.png >"$t/b1.log" 2>&1
echo "page: $(tail -n 1 "$t/b1.log") -> $out/serve-page.png"
REPORT_BROWSER_HEADER="$hdr" tests/lib/report_browser.sh "$url/board/$lab" "$out" "serve-board-$lab.png" >"$t/b2.log" 2>&1
echo "board $lab: $(tail -n 1 "$t/b2.log") -> $out/serve-board-$lab.png"
curl -sf -H "$hdr" "$url/api/board/$lab" | sed 's/^/  /'

# a student's figure: lab 02's solution if there is one
fig=$(awk -F '\t' '$3 == "02" { print $1; exit }' "$t/map")
[ -n "$fig" ] || fig=$(head -n 1 "$t/map" | cut -f 1)
flab=$(awk -F '\t' -v i="$fig" '$1 == i { print $3 }' "$t/map")
if harness/serve/figure.sh "$jobs/$fig/results.json" "$flab" "$out/serve-figure.svg" >"$t/fig.log" 2>&1; then
    echo "figure: job $fig (lab $flab) -> $out/serve-figure.svg"
else
    echo "figure: none ($(tail -n 1 "$t/fig.log"))"
fi
