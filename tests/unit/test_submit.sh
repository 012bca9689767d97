#!/usr/bin/env bash
# tests/unit/test_submit.sh: make submit (harness/submit.sh, mk/submit.mk),
# the check service's client, against a mock of the service's HTTP
# interface (docs/check-service.md) written here in Python (http.server on
# a free loopback port), in a copy of the kit's Makefile, harness/, mk/ and
# labs/ where nvcc cannot be found: make submit builds nothing and needs
# no CUDA. It proves what the end-to-end test against build/primlab-serve
# (the integrator's) does not isolate:
#   - what is sent: POST /api/jobs?lab=01 with `Authorization: Bearer`
#     and the token, never the token on curl's command line, and an id of
#     the submission (X-Primlab-Submission, 32 hex digits); a .tar.gz of
#     exactly the lab's sources (the own file, headers and .cu beside it
#     and in subfolders), not its README, another lab's file or contract,
#     a subfolder holding another lab, a link, build/; the same files
#     harness/prepare-submission.sh picks from that folder;
#   - the wait: the queue position printed when it changes (once each),
#     then running, done, the report printed, report.txt, results.json,
#     scores.tsv, figure.svg and job.tsv saved; status 1 below full marks,
#     0 at full marks; WAIT=0 prints the job and how to fetch it; JOB=N
#     fetches it; a job the service failed: its reason, status 3;
#   - a POST whose answer is lost (the connection closed unanswered): sent
#     once more with the same X-Primlab-Submission id, one job;
#   - one line on stderr and status 2 for each failure: 401, 404, 413,
#     429, 503 with the service's reason passed through, a proxy's HTML
#     page, the service unreachable, no token, a malformed one, no
#     address, no such lab, no lab named, curl missing; a token file
#     others can read: a warning, and the job still sent;
#   - NAME, the leaderboard's name: make submit NAME='...' sends POST
#     /api/name, the body exactly the name (a quote, $(...), a backquote
#     and UTF-8 through make and the shell untouched), the Bearer token,
#     never on curl's command line, no submission's id; one line with the
#     name the service keeps, status 0; NAME= (empty, on make's command
#     line) the pseudonym again (an empty body); a NAME in the environment
#     alone (WSL sets one) ignored; one line on stderr and status 2 for a
#     name of 41 bytes (400), of 300 (413), with a line break (400), with
#     the service's reason, for 401, the service unreachable, no token,
#     NAME with LAB or with JOB (nothing sent);
#   - make handout SERVE_URL=...: serve.conf in the handout with
#     harness/submit.sh and mk/submit.mk, and make submit in the unpacked
#     handout sends to that address.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
for tool in curl python3 tar; do
    command -v $tool >/dev/null 2>&1 || { say SKIP "make submit" "$tool is not installed"; finish; }
done
t=$(mktemp -d)
mock_pid=""
trap '[ -z "$mock_pid" ] || kill "$mock_pid" 2>/dev/null; rm -rf "$t"' EXIT
trap 'exit 2' INT TERM

# ------------------------------------------------------------ the mock
TOKEN=plk_$(printf '%064d' 0 | tr 0 a)
mkdir -p "$t/mock"
cat >"$t/mock.py" <<'PY'
# The check service's HTTP interface, as docs/check-service.md gives it,
# with answers set by the file MODE: ok (jobs 17, 18, ...: each asked for
# 7 times, queued 2, 2, 1, 0, running twice, then done), 401, 413, 429,
# 503, html (a proxy's 502 page), failjob (the job fails), drop (the job
# stored, the connection closed without an answer). Each new job's POST
# is kept as upload-N.tar.gz and upload-N.txt (the request line and
# headers); every POST's X-Primlab-Submission, a line of posts.txt. A
# POST of a submission seen before: 200 and its job, as the service does.
# POST /api/name, as http.c and queue.c judge it (their reasons): each
# kept as name-N.txt (request line, headers) and name-N.body, N from 1.
import http.server, os, sys, urllib.parse
state = sys.argv[1]
polls, next_id, seen, names = {}, [17], {}, [0]
FILES = {
    "report.txt": "== lab 01\n01.a inclusive scan, one block, n=1024: OK (0.1s)\nScore: %s\n",
    "results.json": '{"score": 1.0, "tests": [], "leaderboard": []}\n',
    "scores.tsv": "01\t01.a inclusive scan\tcorrectness\t0\tOK\t1.0000\t%s\t0.100\t\t\t\t\t\t\n",
    "figure.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>\n',
}
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def answer(self, code, text, ctype="text/plain"):
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def mode(self):
        return open(os.path.join(state, "MODE")).read().strip()
    def authorized(self):
        if self.headers.get("Authorization") != "Bearer " + open(os.path.join(state, "TOKEN")).read().strip():
            self.answer(401, "no such token\n")
            return False
        return True
    def name(self, body):
        names[0] += 1
        with open(os.path.join(state, "name-%d.txt" % names[0]), "w") as f:
            f.write("%s %s\n%s" % (self.command, self.path, self.headers))
        with open(os.path.join(state, "name-%d.body" % names[0]), "wb") as f:
            f.write(body)
        if self.mode() == "401":
            return self.answer(401, "no such token\n")
        if not self.authorized():
            return
        if len(body) > 160:
            return self.answer(413, "a display name of %d bytes: one has at most 40 bytes\n" % len(body))
        for end in (b"\n", b"\r"):
            body = body[:-1] if body.endswith(end) else body
        if len(body) > 40:
            return self.answer(400, "a display name has at most 40 bytes (this one %d)\n" % len(body))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = "\x00"
        if any(ord(c) < 0x20 or ord(c) == 0x7f for c in text):
            return self.answer(400, "a display name is UTF-8 text without a control character (a line break, a tab)\n")
        self.answer(200, "display\t%s\npseudonym\tstudent-0123abcd\n" % text)
    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        mode = self.mode()
        if url.path == "/api/name":
            return self.name(body)
        if url.path != "/api/jobs":
            return self.answer(404, "no such page\n")
        if mode == "html":
            return self.answer(502, "<html><body><h1>502 Bad Gateway</h1></body></html>\n", "text/html")
        if mode == "401" or not self.authorized():
            return self.answer(401, "no such token\n")
        if mode == "413":
            return self.answer(413, "the upload is over 1048576 bytes\n")
        if mode == "429":
            return self.answer(429, "at most 20 jobs an hour: the next at 14:05 UTC\n")
        if mode == "503":
            return self.answer(503, "the queue is full (200 jobs): try again in a few minutes\n")
        sub = self.headers.get("X-Primlab-Submission", "")
        with open(os.path.join(state, "posts.txt"), "a") as f:
            f.write(sub + "\n")
        if sub and sub in seen:
            return self.answer(200, "id\t%d\nposition\t0\n" % seen[sub])
        n = next_id[0]
        next_id[0] += 1
        with open(os.path.join(state, "upload-%d.tar.gz" % n), "wb") as f:
            f.write(body)
        with open(os.path.join(state, "upload-%d.txt" % n), "w") as f:
            f.write("%s %s\n%s" % (self.command, self.path, self.headers))
        polls[n] = "failjob" if mode == "failjob" else "full" if n == 18 else "ok"
        if sub:
            seen[sub] = n
        if mode == "drop":
            self.close_connection = True
            return
        self.answer(201, "id\t%d\nposition\t2\n" % n)
    def do_GET(self):
        if not self.authorized():
            return
        parts = urllib.parse.urlsplit(self.path).path.strip("/").split("/")
        if len(parts) < 3 or parts[:2] != ["api", "jobs"] or not parts[2].isdigit() or int(parts[2]) not in polls:
            return self.answer(404, "no job %s of yours\n" % (parts[2] if len(parts) > 2 else ""))
        n = int(parts[2])
        kind = polls[n]
        if len(parts) == 4:
            name = parts[3]
            if name not in FILES or (name == "figure.svg" and kind != "ok"):
                return self.answer(404, "no %s for job %d\n" % (name, n))
            return self.answer(200, FILES[name].replace("%s", "6/10" if kind == "ok" else "10/10")
                               .replace("\t6/10\t", "\t10\t").replace("\t10/10\t", "\t1\t"))
        k = polls.setdefault(("asked", n), 0)
        polls[("asked", n)] = k + 1
        lines = ["id\t%d" % n, "lab\t01", "student\tana"]
        if kind == "failjob":
            lines += ["state\tfailed", "reason\tthe upload is not a .tar.gz"]
        elif kind == "full" or k >= 6:
            lines += ["state\tdone", "gpu\t0", "model\tNVIDIA H200"]
        elif k >= 4:
            lines += ["state\trunning", "gpu\t0", "model\tNVIDIA H200"]
        else:
            lines += ["state\tqueued", "position\t%d" % [2, 2, 1, 0][k]]
        self.answer(200, "\n".join(lines) + "\n")
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(os.path.join(state, "PORT.tmp"), "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(os.path.join(state, "PORT.tmp"), os.path.join(state, "PORT"))
srv.serve_forever()
PY
echo "$TOKEN" >"$t/mock/TOKEN"
echo ok >"$t/mock/MODE"
python3 "$t/mock.py" "$t/mock" 2>"$t/mock.err" &
mock_pid=$!
for _ in $(seq 100); do [ -s "$t/mock/PORT" ] && break; sleep 0.05; done
[ -s "$t/mock/PORT" ] || { say FAIL "the mock service did not start" "$(tail -n 1 "$t/mock.err")"; finish; }
URL=http://127.0.0.1:$(cat "$t/mock/PORT")
# a loopback port no one listens on
closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# ------------------------------------------------------------ the kit
# a copy of the kit's build files and labs, lab 01 planted with files to
# take and files to leave; no nvcc to be found (PATH without CUDA's, NVCC
# and CUDA_HOME pointing nowhere)
k=$t/kit
mkdir -p "$k"
cp -R Makefile VERSION harness mk labs "$k/"
l=$k/labs/01-prefix-sum
mkdir -p "$l/sub/deep/a/b/c" "$l/other" "$l/build"
echo '// helper' >"$l/helper.cuh"
echo '// more' >"$l/sub/more.cu"
echo '// depth 5' >"$l/sub/deep/a/b/x.h"
echo '// depth 6' >"$l/sub/deep/a/b/c/too_deep.h"
echo '// dot' >"$l/.hidden.cuh"
echo 'notes' >"$l/notes.txt"
echo '// another contract' >"$l/blelloch_scan.h"
echo '// another lab in a subfolder' >"$l/other/onesweep_sort.cu"
echo '// with it' >"$l/other/x.cuh"
echo 'obj' >"$l/build/prefix_sum.o"
echo '// control' >"$l/bad"$'\n'"name.cu"
ln -s prefix_sum.cu "$l/link.cu"
mkdir -p "$k/build/obj" && echo x >"$k/build/obj/kept.o"
want="01-prefix-sum/.hidden.cuh
01-prefix-sum/helper.cuh
01-prefix-sum/prefix_sum.cu
01-prefix-sum/prefix_sum.h
01-prefix-sum/sub/deep/a/b/x.h
01-prefix-sum/sub/more.cu"
nopath=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd : -)
# (the makes here are not the caller's sub-makes: none of its flags, jobs
# or variables)
unset MAKEFLAGS MFLAGS MAKELEVEL
export HOME=$t/home XDG_CONFIG_HOME=
mkdir -p "$HOME/.config/primlab"
printf '%s\n' "$TOKEN" >"$HOME/.config/primlab/token"
chmod 600 "$HOME/.config/primlab/token"
# sub NAME ARGS...: make submit in the kit copy, stdout and stderr apart
# (make's own line for a recipe that failed, "make: *** [...] Error N",
# left out of stderr: its status is make's, 2 for any failure); script
# NAME LAB JOB [VAR=VALUE...]: harness/submit.sh itself, for its status
sub() {
    local name=$1
    shift
    (cd "$k" && env PATH="$nopath" SUBMIT_POLL=0.02 SUBMIT_DIR="$t/out" \
        make -s --no-print-directory NVCC=/nonexistent/nvcc CUDA_HOME=/nonexistent submit "$@") \
        >"$t/$name.out" 2>"$t/$name.make"
    echo $? >"$t/$name.rc"
    grep -v '^make: \*\*\* \[.*\] Error [0-9]*$' "$t/$name.make" >"$t/$name.err"
}
script() {
    local name=$1 lab=$2 job=$3
    shift 3
    (cd "$k" && env PATH="$nopath" SUBMIT_POLL=0.02 SUBMIT_DIR="$t/out" "$@" harness/submit.sh "$lab" "$job") \
        >"$t/$name.out" 2>"$t/$name.err"
    echo $? >"$t/$name.rc"
}
rc() { cat "$t/$1.rc"; }
errline() { [ "$(grep -c . "$t/$1.err")" = 1 ] && cat "$t/$1.err"; }

# ------------------------------------------------------- a lab, waited for
sub wait SERVE_URL="$URL" LAB=01
p=""
[ "$(rc wait)" = 2 ] || p="$p; make's status $(rc wait), not 2 (below full marks, as make check)"
[ -s "$t/wait.err" ] && p="$p; stderr: $(head -n 1 "$t/wait.err")"
got=$(sed -n 's/^submit: //p' "$t/wait.out" | sed '/^saved in/d')
exp="sent labs/01-prefix-sum (6 files, BYTES bytes packed) to $URL: job 17
job 17 queued: 2 jobs before it
job 17 queued: 1 job before it
job 17 queued: next to run
job 17 running on GPU 0 (NVIDIA H200)
job 17 done"
[ "$(sed -E 's/[0-9]+ bytes packed/BYTES bytes packed/' <<<"$got")" = "$exp" ] ||
    p="$p; its lines were: $(paste -sd '|' <<<"$got")"
grep -qx 'Score: 6/10' "$t/wait.out" || p="$p; the report was not printed"
for f in report.txt results.json scores.tsv figure.svg job.tsv; do
    [ -s "$t/out/lab01/$f" ] || p="$p; no $f saved"
done
grep -q "^submit: saved in $t/out/lab01/: " "$t/wait.out" || p="$p; no line saying where it saved them"
[ "$(find "$k/build" -type f | wc -l)" = 1 ] || p="$p; it built something: $(find "$k/build" -type f | head -n 3 | paste -sd ' ' -)"
verdict "make submit LAB=01 without nvcc: sent, the place in the queue once per change, running, done, the report printed and saved" "$p" "$t/wait.err"

p=""
req=$t/mock/upload-17.txt
head -n 1 "$req" | grep -qx 'POST /api/jobs?lab=01' || p="$p; request line $(head -n 1 "$req")"
grep -qx "Authorization: Bearer $TOKEN" "$req" || p="$p; no Bearer token"
grep -qix 'Content-Type: application/gzip' "$req" || p="$p; not Content-Type: application/gzip"
grep -qE '^X-Primlab-Submission: [0-9a-f]{32}$' "$req" || p="$p; no X-Primlab-Submission of 32 hex digits"
members=$(python3 -c 'import sys, tarfile
t = tarfile.open(sys.argv[1], "r:gz")
bad = [m.name for m in t.getmembers() if not m.isfile()]
print("\n".join(sorted(m.name for m in t.getmembers() if m.isfile()) + ["not a file: " + b for b in bad]))' \
    "$t/mock/upload-17.tar.gz" 2>&1)
[ "$members" = "$want" ] || p="$p; the archive holds: $(paste -sd ' ' <<<"$members")"
python3 -c 'import sys, tarfile
t = tarfile.open(sys.argv[1], "r:gz")
sys.exit(t.extractfile("01-prefix-sum/prefix_sum.cu").read() != open(sys.argv[2], "rb").read())' \
    "$t/mock/upload-17.tar.gz" "$l/prefix_sum.cu" || p="$p; prefix_sum.cu is not the lab's file"
verdict "the upload: POST /api/jobs?lab=01, the Bearer token, a submission's id, a .tar.gz of exactly the lab's 6 sources (no README, notes, other lab, link, build/, file past depth 5)" "$p"

# the same files as make grade would take: harness/prepare-submission.sh
# (what make grade and the service's runner unpack and pick a lab's files
# with) run on the planted folder for lab 01
p=""
rm -rf "$t/prep" && mkdir -p "$t/prep-src" && cp -a "$l" "$t/prep-src/"
if ! harness/prepare-submission.sh "$t/prep-src" "$t/prep" 01 >"$t/prep.log" 2>&1; then
    p="harness/prepare-submission.sh failed: $(tail -n 1 "$t/prep.log")"
else
    theirs=$(cd "$t/prep/labs" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
    [ "$theirs" = "$want" ] || p="make grade takes: $(paste -sd ' ' <<<"$theirs")"
fi
verdict "the files sent are those make grade takes from the same folder (harness/prepare-submission.sh)" "$p"

# ------------------------------------------------- WAIT=0, JOB=, a failed job
chmod 644 "$HOME/.config/primlab/token"
# (a curl that notes its arguments, where ps would show them)
mkdir -p "$t/wrap"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s"\nexec "%s" "$@"\n' "$t/curl-args" "$(command -v curl)" >"$t/wrap/curl"
chmod +x "$t/wrap/curl"
nopath_saved=$nopath nopath=$t/wrap:$nopath
sub nowait SERVE_URL="$URL" LAB=1 WAIT=0
nopath=$nopath_saved
p=""
[ -s "$t/curl-args" ] || p="$p; the curl wrapper was not run"
grep -q "${TOKEN#plk_}" "$t/curl-args" && p="$p; the token is on curl's command line"
[ "$(rc nowait)" = 0 ] || p="$p; status $(rc nowait)"
grep -qx "submit: job 18 queued with 2 jobs before it; make submit JOB=18 fetches its report when it is done" "$t/nowait.out" ||
    p="$p; no line naming job 18 and JOB=18: $(tail -n 1 "$t/nowait.out")"
grep -q "^submit: warning: '$HOME/.config/primlab/token' can be read by others: chmod 600" "$t/nowait.err" ||
    p="$p; no warning for the token file's mode 0644"
[ -e "$t/mock/upload-18.tar.gz" ] || p="$p; not sent despite the warning"
[ -e "$t/out/lab01/report.txt" ] && grep -q '10/10' "$t/out/lab01/report.txt" && p="$p; fetched without being asked"
verdict "WAIT=0 (LAB=1): the job's id and how to fetch it, status 0; a token file others can read: a warning; no token in curl's arguments" "$p" "$t/nowait.err"
chmod 600 "$HOME/.config/primlab/token"

sub job SERVE_URL="$URL" JOB=18
p=""
[ "$(rc job)" = 0 ] || p="$p; status $(rc job), not 0 (full marks)"
grep -qx 'Score: 10/10' "$t/job.out" || p="$p; report not printed"
[ -e "$t/out/lab01/figure.svg" ] && p="$p; a figure.svg left from job 17 (the folder is not replaced whole)"
grep -qx 'id	18' "$t/out/lab01/job.tsv" || p="$p; job.tsv is not job 18's"
script job17 "" 17 SERVE_URL="$URL"
[ "$(rc job17)" = 1 ] || p="$p; harness/submit.sh '' 17: status $(rc job17), not 1 (below full marks)"
verdict "JOB=18: fetched, the report printed, the lab's folder replaced whole, status 0 at full marks (job 17: 1)" "$p" "$t/job.err"

echo failjob >"$t/mock/MODE"
script failed 01 "" SERVE_URL="$URL"
p=""
[ "$(rc failed)" = 3 ] || p="$p; status $(rc failed), not 3"
[ "$(errline failed)" = "submit: job 19 failed on the check service: the upload is not a .tar.gz" ] ||
    p="$p; stderr: $(paste -sd '|' "$t/failed.err")"
verdict "a job the service failed: its reason in one line, status 3" "$p"

# ------------------------------------------------------------ refusals
# refusal NAME MODE STDERR-LINE ARGS...: one line on stderr, make's status 2
refusal() {
    local name=$1 mode=$2 line=$3
    shift 3
    echo "$mode" >"$t/mock/MODE"
    sub "$name" "$@"
    local p=""
    [ "$(rc "$name")" = 2 ] || p="; status $(rc "$name"), not 2"
    [ "$(errline "$name")" = "$line" ] || p="$p; stderr: $(paste -sd '|' "$t/$name.err")"
    verdict "$name: one line, status 2" "$p"
}
refusal 401 401 "submit: the check service refused the token ($HOME/.config/primlab/token) (401): no such token" \
    SERVE_URL="$URL" LAB=01
refusal 413 413 "submit: the lab's files are too large for the check service (413): the upload is over 1048576 bytes" \
    SERVE_URL="$URL" LAB=01
refusal 429 429 "submit: not now (429): at most 20 jobs an hour: the next at 14:05 UTC" SERVE_URL="$URL" LAB=01
refusal 503 503 "submit: the check service cannot take it now (503): the queue is full (200 jobs): try again in a few minutes" \
    SERVE_URL="$URL" LAB=01
refusal "404 (JOB=99)" ok "submit: no job 99 of yours on the check service (404): no job 99 of yours" SERVE_URL="$URL" JOB=99
refusal "a proxy's 502 page" html \
    "submit: the check service answered 502: (an HTML page instead of the service's answer: a proxy's error?)" \
    SERVE_URL="$URL" LAB=01
echo ok >"$t/mock/MODE"
sub unreachable SERVE_URL="http://127.0.0.1:$closed" LAB=01
p=""
[ "$(rc unreachable)" = 2 ] || p="; status $(rc unreachable)"
[[ "$(errline unreachable)" == "submit: cannot reach the check service at http://127.0.0.1:$closed: "?* ]] ||
    p="$p; stderr: $(paste -sd '|' "$t/unreachable.err")"
verdict "the service unreachable: one line with curl's reason, status 2" "$p"
refusal "no such lab" ok "submit: no lab '42' in this kit (labs: 01 02 03 04 05 06 07 08 09)" SERVE_URL="$URL" LAB=42
refusal "no lab named" ok "submit: which lab? make submit LAB=01 (labs: 01 02 03 04 05 06 07 08 09)" SERVE_URL="$URL"
refusal "no address" ok \
    "submit: no address for the check service: set SERVE_URL=https://... (your instructor gives it), or put the kit's serve.conf back" \
    LAB=01
refusal "a malformed token" ok \
    "submit: PRIMLAB_TOKEN does not hold a check-service token (plk_ and 64 hex digits)" \
    SERVE_URL="$URL" LAB=01 PRIMLAB_TOKEN=plk_123
mv "$HOME/.config/primlab/token" "$t/token.saved"
refusal "no token" ok \
    "submit: no token: save the one your instructor gave you in '$HOME/.config/primlab/token' (chmod 600), or set PRIMLAB_TOKEN" \
    SERVE_URL="$URL" LAB=01
mv "$t/token.saved" "$HOME/.config/primlab/token"
# curl missing: a PATH of every command here but curl
mkdir -p "$t/bin"
IFS=: read -r -a dirs <<<"$nopath"
for d in "${dirs[@]}"; do
    for f in "$d"/*; do
        b=${f##*/}
        [ "$b" = curl ] || [ -e "$t/bin/$b" ] || ln -s "$f" "$t/bin/$b" 2>/dev/null
    done
done
nopath_saved=$nopath nopath=$t/bin
refusal "curl missing" ok \
    "submit: curl is not installed: install it (apt install curl, dnf install curl, brew install curl) and try again" \
    SERVE_URL="$URL" LAB=01
nopath=$nopath_saved
[ -z "$(ls "$t"/mock/upload-2[0-9]* 2>/dev/null)" ] || say FAIL "a refused run still sent something"

# ------------------------------------------------- the answer lost: once more
# the mock stores job 20 and closes the connection unanswered; the client
# sends it again with the same id, and the mock answers with job 20 (200)
echo drop >"$t/mock/MODE"
: >"$t/mock/posts.txt"
script lost 01 "" SERVE_URL="$URL" WAIT=0
echo ok >"$t/mock/MODE"
p=""
[ "$(rc lost)" = 0 ] || p="$p; status $(rc lost): $(paste -sd '|' "$t/lost.err")"
[ "$(grep -c . "$t/mock/posts.txt")" = 2 ] || p="$p; $(grep -c . "$t/mock/posts.txt") POSTs, not 2"
[ "$(sort -u "$t/mock/posts.txt" | grep -cE '^[0-9a-f]{32}$')" = 1 ] && [ "$(sort -u "$t/mock/posts.txt" | wc -l)" = 1 ] ||
    p="$p; not one id twice: $(paste -sd ' ' "$t/mock/posts.txt")"
[ -e "$t/mock/upload-20.tar.gz" ] && [ ! -e "$t/mock/upload-21.tar.gz" ] || p="$p; not one job (20): $(cd "$t/mock" && echo upload-*)"
grep -q "^submit: no answer from the check service (.*): sending it again, as the same submission$" "$t/lost.out" ||
    p="$p; no line saying it sends again"
grep -qx "submit: job 20 queued with 0 jobs before it; make submit JOB=20 fetches its report when it is done" "$t/lost.out" ||
    p="$p; not job 20: $(tail -n 1 "$t/lost.out")"
[ -s "$t/lost.err" ] && p="$p; stderr: $(head -n 1 "$t/lost.err")"
verdict "the answer lost (the connection closed): sent once more with the same id, one job, status 0" "$p" "$t/lost.out"

# ------------------------------------------------ NAME: the leaderboard's name
# names_sent: how many POST /api/name the mock has had
names_sent() { find "$t/mock" -name 'name-*.txt' | wc -l | tr -d ' '; }
: >"$t/curl-args"
nopath_saved=$nopath nopath=$t/wrap:$nopath
sub name SERVE_URL="$URL" NAME='Ada L.'
nopath=$nopath_saved
p=""
[ "$(rc name)" = 0 ] || p="$p; status $(rc name)"
[ "$(cat "$t/name.out")" = "submit: on the leaderboard you are now 'Ada L.'" ] ||
    p="$p; stdout: $(paste -sd '|' "$t/name.out")"
req=$t/mock/name-1.txt
head -n 1 "$req" 2>/dev/null | grep -qx 'POST /api/name' || p="$p; request line $(head -n 1 "$req" 2>&1)"
grep -qx "Authorization: Bearer $TOKEN" "$req" || p="$p; no Bearer token"
grep -qix 'Content-Type: text/plain; charset=utf-8' "$req" || p="$p; not Content-Type: text/plain; charset=utf-8"
grep -qi '^X-Primlab-Submission:' "$req" && p="$p; a submission's id with it"
[ "$(od -An -c "$t/mock/name-1.body")" = "$(printf 'Ada L.' | od -An -c)" ] ||
    p="$p; the body: $(od -An -c "$t/mock/name-1.body" | tr -s ' ')"
[ -s "$t/curl-args" ] || p="$p; the curl wrapper was not run"
grep -q "${TOKEN#plk_}" "$t/curl-args" && p="$p; the token is on curl's command line"
[ "$(names_sent)" = 1 ] || p="$p; $(names_sent) names sent, not 1"
[ -e "$t/mock/upload-21.tar.gz" ] && p="$p; a lab sent too"
verdict "NAME='Ada L.': POST /api/name, the body exactly the name, the Bearer token (not on curl's command line), one line with the name kept, status 0" \
    "$p" "$t/name.err"

odd="O'Brien \$(HOME) \"q\" \`x\` & $(printf '\303\251')"
sub oddname SERVE_URL="$URL" NAME="$odd"
p=""
[ "$(rc oddname)" = 0 ] || p="$p; status $(rc oddname)"
[ "$(cat "$t/oddname.out")" = "submit: on the leaderboard you are now '$odd'" ] ||
    p="$p; stdout: $(paste -sd '|' "$t/oddname.out")"
[ "$(od -An -c "$t/mock/name-2.body")" = "$(printf '%s' "$odd" | od -An -c)" ] ||
    p="$p; the body: $(od -An -c "$t/mock/name-2.body" | tr -s ' ')"
verdict "NAME with a quote, \$(HOME), a backquote, & and UTF-8: sent as typed (make expands nothing, the shell nothing)" \
    "$p" "$t/oddname.err"

sub unname SERVE_URL="$URL" NAME=
p=""
[ "$(rc unname)" = 0 ] || p="$p; status $(rc unname)"
[ "$(cat "$t/unname.out")" = "submit: on the leaderboard you are now your pseudonym, student-0123abcd (nobody else sees whose it is)" ] ||
    p="$p; stdout: $(paste -sd '|' "$t/unname.out")"
[ -e "$t/mock/name-3.body" ] && [ ! -s "$t/mock/name-3.body" ] || p="$p; not an empty body: $(od -An -c "$t/mock/name-3.body" 2>&1)"
grep -qix 'Content-Length: 0' "$t/mock/name-3.txt" || p="$p; no Content-Length: 0"
verdict "NAME= (empty, on make's command line): the pseudonym again, an empty body, one line, status 0" "$p" "$t/unname.err"

# NAME in the environment alone (WSL sets it to the computer's name): not
# a name to send; LAB=01 is sent as without it
NAME=laptop-wsl sub envname SERVE_URL="$URL" LAB=01 WAIT=0
p=""
[ "$(rc envname)" = 0 ] || p="$p; status $(rc envname): $(paste -sd '|' "$t/envname.err")"
grep -q "^submit: sent labs/01-prefix-sum .*: job 21$" "$t/envname.out" || p="$p; not sent: $(head -n 1 "$t/envname.out")"
[ "$(names_sent)" = 3 ] || p="$p; a name sent: $(cat "$t/mock/name-4.body" 2>/dev/null)"
verdict "NAME in the environment alone (as WSL sets it): no name sent, LAB=01 sent as without it" "$p" "$t/envname.err"

refusal "NAME of 41 bytes" ok \
    "submit: the check service refused that name (400): a display name has at most 40 bytes (this one 41)" \
    SERVE_URL="$URL" NAME="$(printf 'a%.0s' $(seq 41))"
refusal "NAME of 300 bytes" ok \
    "submit: the check service refused that name (413): a display name of 300 bytes: one has at most 40 bytes" \
    SERVE_URL="$URL" NAME="$(printf 'a%.0s' $(seq 300))"
refusal "NAME with a line break" ok \
    "submit: the check service refused that name (400): a display name is UTF-8 text without a control character (a line break, a tab)" \
    SERVE_URL="$URL" NAME=$'Ada\nroot'
p=""
[ "$(od -An -c "$t/mock/name-6.body")" = "$(printf 'Ada\nroot' | od -An -c)" ] ||
    p="the body: $(od -An -c "$t/mock/name-6.body" 2>&1 | tr -s ' ')"
verdict "NAME with a line break: sent whole through make, for the service to judge" "$p"
refusal "NAME, a token refused" 401 "submit: the check service refused the token ($HOME/.config/primlab/token) (401): no such token" \
    SERVE_URL="$URL" NAME='Ada L.'
echo ok >"$t/mock/MODE"
sub name-unreachable SERVE_URL="http://127.0.0.1:$closed" NAME='Ada L.'
p=""
[ "$(rc name-unreachable)" = 2 ] || p="; status $(rc name-unreachable)"
[[ "$(errline name-unreachable)" == "submit: cannot reach the check service at http://127.0.0.1:$closed: "?* ]] ||
    p="$p; stderr: $(paste -sd '|' "$t/name-unreachable.err")"
verdict "NAME, the service unreachable: one line with curl's reason, status 2" "$p"
before=$(names_sent)
mv "$HOME/.config/primlab/token" "$t/token.saved"
refusal "NAME, no token" ok \
    "submit: no token: save the one your instructor gave you in '$HOME/.config/primlab/token' (chmod 600), or set PRIMLAB_TOKEN" \
    SERVE_URL="$URL" NAME='Ada L.'
mv "$t/token.saved" "$HOME/.config/primlab/token"
refusal "NAME with LAB" ok \
    "submit: NAME and LAB=01 together: one at a time (make submit NAME='Your Name' sets your name on the leaderboard alone; make submit LAB=01)" \
    SERVE_URL="$URL" NAME='Ada L.' LAB=01
refusal "NAME= with JOB" ok \
    "submit: NAME and JOB=17 together: one at a time (make submit NAME='Your Name' sets your name on the leaderboard alone; make submit JOB=17)" \
    SERVE_URL="$URL" NAME= JOB=17
if [ "$(names_sent)" != "$before" ] || [ -e "$t/mock/upload-22.tar.gz" ]; then
    say FAIL "NAME without a token, or with LAB or JOB, still sent something"
fi

# -------------------------------------------------- the handout's serve.conf
p=""
(cd "$k" && make -s --no-print-directory NVCC=/nonexistent/nvcc handout SERVE_URL="$URL/") >"$t/handout.out" 2>&1 ||
    p="make handout failed: $(tail -n 1 "$t/handout.out")"
h=$(ls "$k"/dist/primlab-handout-*.tar.gz 2>/dev/null | head -n 1)
if [ -z "$p" ] && [ -n "$h" ]; then
    mkdir -p "$t/student" && tar -xzf "$h" -C "$t/student"
    s=$(ls -d "$t"/student/primlab-handout-*)
    [ "$(grep -v '^#' "$s/serve.conf" 2>/dev/null)" = "SERVE_URL=$URL" ] || p="$p; serve.conf: $(paste -sd '|' "$s/serve.conf" 2>&1)"
    for f in harness/submit.sh mk/submit.mk; do [ -f "$s/$f" ] || p="$p; no $f in the handout"; done
    (cd "$s" && env PATH="$nopath" SUBMIT_POLL=0.02 make -s --no-print-directory NVCC=/nonexistent/nvcc \
        CUDA_HOME=/nonexistent submit LAB=02 WAIT=0) >"$t/fromhandout.out" 2>&1 ||
        p="$p; make submit in the handout: $(tail -n 1 "$t/fromhandout.out")"
    grep -q "^submit: sent labs/02-blelloch-scan (2 files, [0-9]* bytes packed) to $URL: job " "$t/fromhandout.out" ||
        p="$p; not sent to serve.conf's address: $(head -n 1 "$t/fromhandout.out")"
else
    p="$p; no handout in $k/dist"
fi
verdict "make handout SERVE_URL=: serve.conf, harness/submit.sh and mk/submit.mk in the handout; make submit there sends to it" "$p" "$t/handout.out"

finish
