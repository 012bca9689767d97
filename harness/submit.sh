#!/usr/bin/env bash
# harness/submit.sh LAB [JOB], harness/submit.sh --name NAME: `make
# submit`, the check service's client (docs/check-service.md): a student
# without a GPU sends a lab to the course's GPU host and gets back the
# report `make check` gives there, or chooses the name the leaderboard
# shows them under.
#
#   make submit LAB=01          pack lab 01's source files, send them, wait,
#                               print the report
#   make submit LAB=01 WAIT=0   send them, print the job's id and return
#   make submit JOB=17          wait for job 17 (if need be) and fetch it
#   make submit NAME='Ada L.'   the leaderboard shows you as Ada L.
#   make submit NAME=           ... under your pseudonym again
#
# What is sent: the lab's own file (labs/01-prefix-sum/prefix_sum.cu) and
# the source files lying with it (harness/source-files.sh: .cu .cuh .h .hpp
# .inl, in its folder and subfolders), picked by the rules `make grade`
# picks a submission's files by (harness/grade.sh's lab_sources): not
# another lab's file or contract header, nor a subfolder holding another
# lab's file; no link, no README, nothing of build/. Packed as a .tar.gz
# of the lab's folder (01-prefix-sum/...), the body of
# POST $SERVE_URL/api/jobs?lab=01, with the token as
# `Authorization: Bearer plk_...` (passed to curl on its standard input,
# never on its command line, where ps shows it) and an id of this
# submission's own, `X-Primlab-Submission:` 32 hex digits (128 bits of
# /dev/urandom). When no answer comes (the connection failed or timed
# out, or a proxy answered 502 or 504), it is sent once more with the
# same id, SUBMIT_POLL seconds later: a service that had stored the job
# answers with that job (200), not a second one.
#
# A name: POST $SERVE_URL/api/name, the body exactly NAME (text/plain;
# empty: the pseudonym again), the token as for a job; the service judges
# it (at most 40 bytes of UTF-8, no line break or other control
# character: 400, or 413 when far too long) and answers the name it keeps
# and the pseudonym, which are printed. Sent once more when no answer comes, as a job is:
# setting the same name twice is setting it once. mk/submit.mk passes
# --name only for a NAME given on make's command line, never one from the
# environment (WSL sets NAME to the computer's name).
#
# What comes back, when the job is done: its report.txt, printed, and
# with it results.json, scores.tsv, figure.svg (when the service drew
# one) and job.tsv (the job's state lines), in build/submit/lab01/
# (SUBMIT_DIR=dir: another folder for build/submit), replaced whole.
# While it waits it prints the job's place in the queue when that changes.
#
# Settings: SERVE_URL (https://...) from the environment, else the kit's
# serve.conf (a line SERVE_URL=https://..., which `make handout
# SERVE_URL=...` writes); the token from PRIMLAB_TOKEN, else
# ${XDG_CONFIG_HOME:-~/.config}/primlab/token (its first line; mode 0600,
# else a warning); WAIT=0 (do not wait), SUBMIT_POLL=seconds between
# questions while waiting (3).
#
# Runs on a student's laptop: no GPU, no CUDA, no build; bash 3.2 (macOS)
# and BSD or GNU tools, curl and tar. Every failure is one line on stderr.
# Exit status: 0 the job is done at full marks (or the name set); 1 done
# below them (as make check); 2 this client could not do its part (no
# token, no service address, the service unreachable or refusing, no such
# lab or job, a name refused, NAME with LAB or JOB); 3
# the service failed the job (its reason printed); 130 stopped while
# waiting (the job goes on: make submit JOB=N fetches it).
set -u
cd "$(dirname "$0")/.." || exit 2
. harness/source-files.sh

name_set=0 name="" submission=""
if [ "${1:-}" = --name ]; then
    name_set=1 name=${2-}
    shift $(($# < 2 ? $# : 2))
fi
lab_arg=${1:-} job_arg=${2:-}
wait_for=${WAIT:-1}
poll=${SUBMIT_POLL:-3}
out_root=${SUBMIT_DIR:-build/submit}

die() { echo "submit: $*" >&2; exit "${status:-2}"; }
say() { echo "submit: $*"; }

# (before anything is sent, or a token asked for)
if [ $name_set = 1 ] && [ -n "$lab_arg$job_arg" ]; then
    other=$([ -n "$lab_arg" ] && echo "LAB=$lab_arg" || echo "JOB=$job_arg")
    die "NAME and $other together: one at a time (make submit NAME='Your Name' sets your name on the leaderboard alone; make submit $other)"
fi

# ------------------------------------------------------------ settings

command -v curl >/dev/null 2>&1 ||
    die "curl is not installed: install it (apt install curl, dnf install curl, brew install curl) and try again"
command -v tar >/dev/null 2>&1 || die "tar is not installed: install it and try again"

# The service's address: SERVE_URL, else serve.conf's line SERVE_URL=...
url=${SERVE_URL:-}
from="SERVE_URL"
if [ -z "$url" ] && [ -f serve.conf ]; then
    url=$(sed -n 's/^[[:space:]]*SERVE_URL[[:space:]]*=[[:space:]]*//p' serve.conf | tail -n 1 | tr -d '\r"'"'")
    url=${url%"${url##*[![:space:]]}"}
    from="serve.conf"
fi
[ -n "$url" ] ||
    die "no address for the check service: set SERVE_URL=https://... (your instructor gives it), or put the kit's serve.conf back"
[[ $url =~ ^https?://[^[:space:]\\]+$ ]] || die "$from's address '$url' is not an http:// or https:// URL"
url=${url%/}

# The token: PRIMLAB_TOKEN, else the token file's first line.
token_file=${XDG_CONFIG_HOME:-$HOME/.config}/primlab/token
if [ -n "${PRIMLAB_TOKEN:-}" ]; then
    token=$PRIMLAB_TOKEN where="PRIMLAB_TOKEN"
elif [ -f "$token_file" ]; then
    where=$token_file
    [ -r "$token_file" ] || die "cannot read the token file '$token_file'"
    perms=$(ls -ln "$token_file" | cut -c 5-10)
    [ "$perms" = "------" ] ||
        echo "submit: warning: '$token_file' can be read by others: chmod 600 '$token_file'" >&2
    token=$(head -n 1 "$token_file")
else
    die "no token: save the one your instructor gave you in '$token_file' (chmod 600), or set PRIMLAB_TOKEN"
fi
token=$(printf '%s' "$token" | tr -d ' \t\r\n')
[[ $token =~ ^plk_[0-9a-f]{64}$ ]] || die "$where does not hold a check-service token (plk_ and 64 hex digits)"

case "$wait_for" in 0 | no | false) wait_for=0 ;; *) wait_for=1 ;; esac
[[ $poll =~ ^[0-9]*\.?[0-9]+$ ]] || die "SUBMIT_POLL='$poll' is not a number of seconds"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/primlab-submit.XXXXXX") || die "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT

# ---------------------------------------------------------------- HTTP

# http METHOD PATH OUT [FILE]: ask the service; the status in $code, the
# answer in OUT; a failure to reach it ends here, with curl's reason. A
# POST sends FILE: the lab's .tar.gz with the submission's id
# ($submission), or else a name as text. Either, when its answer is lost,
# is sent once more (the header says when).
http() {
    local args=(-sS -o "$3" -w '%{http_code} %{content_type}' --connect-timeout 15 --max-time 300
        -A "primlab-submit/$(cat VERSION 2>/dev/null || echo 0)" --config -)
    local got ok tries=1 why
    if [ "$1" = POST ]; then
        if [ -n "$submission" ]; then
            args+=(-H "Content-Type: application/gzip" -H "X-Primlab-Submission: $submission")
        else
            args+=(-H "Content-Type: text/plain; charset=utf-8")
        fi
        args+=(-X POST -H "Expect:" --data-binary "@$4")
        tries=2
    fi
    while :; do
        ok=1
        got=$(printf 'header = "Authorization: Bearer %s"\n' "$token" | curl "${args[@]}" "$url$2" 2>"$tmp/curl.err") || ok=0
        why=$(tail -n 1 "$tmp/curl.err" | sed 's/^curl: ([0-9]*) //')
        code=${got%% *} ctype=${got#* }
        if [ $ok = 1 ]; then
            case "$code" in 502 | 504) why="a proxy's $code" ;; *) return ;; esac
        fi
        tries=$((tries - 1))
        [ $tries -gt 0 ] || break
        say "no answer from the check service ($why): sending it again${submission:+, as the same submission}"
        sleep "$poll"
    done
    [ $ok = 1 ] || die "cannot reach the check service at $url: $why"
}

# reason FILE: the service's one-line reason, as printable text
reason() {
    local r
    case "$ctype" in text/html*) echo "(an HTML page instead of the service's answer: a proxy's error?)"; return ;; esac
    r=$(grep -v '^[[:space:]]*$' "$1" 2>/dev/null | head -n 1 | tr -d '\r\n' | tr -c '[:print:]' '?' | cut -c 1-300)
    echo "${r:-no reason given}"
}

# refused WHAT [BODY]: one line for a status that is not the one hoped
# for, with the service's reason (from BODY, by default the last answer)
refused() {
    local why
    why=$(reason "${2:-$tmp/body}")
    case "$code" in
    401) die "the check service refused the token ($where) (401): $why" ;;
    404) die "$1 (404): $why" ;;
    413) die "the lab's files are too large for the check service (413): $why" ;;
    429) die "not now (429): $why" ;;
    503) die "the check service cannot take it now (503): $why" ;;
    3??) die "the check service answered $code (a redirect): is SERVE_URL ($url) its address?" ;;
    000) die "no answer from the check service at $url" ;;
    *) die "the check service answered $code: $why" ;;
    esac
}

# field NAME FILE: a value of the service's "key<TAB>value" lines
field() { sed -n "s/^$1	//p" "$2" | head -n 1; }

# ------------------------------------------------------------ the name

# set_name: $name sent as the leaderboard's display name, the name the
# service keeps (its answer: display<TAB>name) said in one line
set_name() {
    local kept pseudonym
    printf '%s' "$name" >"$tmp/name"
    http POST /api/name "$tmp/body" "$tmp/name"
    case "$code" in
    200) ;;
    400 | 413) die "the check service refused that name ($code): $(reason "$tmp/body")" ;;
    *) refused "the check service at $url has no /api/name: is SERVE_URL its address?" ;;
    esac
    grep -q '^display	' "$tmp/body" || die "the check service's answer names no display name: $(reason "$tmp/body")"
    kept=$(field display "$tmp/body")
    pseudonym=$(field pseudonym "$tmp/body")
    if [ -n "$kept" ]; then
        say "on the leaderboard you are now '$kept'"
    elif [ -n "$pseudonym" ]; then
        say "on the leaderboard you are now your pseudonym, $pseudonym (nobody else sees whose it is)"
    else # (a service older than its pseudonym line)
        say "on the leaderboard you are now your pseudonym (signed in, $url/ names it)"
    fi
}

# ------------------------------------------------------------ the lab

# own_file DIR: the lab's own file: the .cu named like one of the
# folder's headers (prefix_sum.cu beside prefix_sum.h), the folder's name
# (01-prefix-sum: prefix_sum.cu) when several are, or its only .cu
own_file() {
    local d=$1 f base named="" n=0 only=""
    for f in "$d"/*.cu; do
        [ -f "$f" ] || continue
        base=$(basename "$f" .cu) only=$base.cu
        [ -f "$d/$base.h" ] && { n=$((n + 1)) named=$base.cu; }
    done
    if [ $n -gt 1 ]; then
        base=$(basename "$d") base=${base#*-}
        named=$(printf '%s' "$base" | tr - _).cu
        [ -f "$d/$named" ] || named=""
    fi
    [ $n = 0 ] && [ "$(ls "$d"/*.cu 2>/dev/null | wc -l)" -eq 1 ] && named=$only
    echo "$named"
}

# lab_sources ROOT OWN: the source files that lie with the lab's own file
# OWN in ROOT, relative to it, one a line: those of ROOT and its
# subfolders, but not a subfolder holding another lab's file (that lab's),
# not another lab's own file or contract header, and, in a folder shared
# by several labs' files, no other .cu. harness/grade.sh's lab_sources,
# in bash 3.2 (tests/unit/test_submit.sh compares the two).
lab_sources() {
    local root=$1 own=$2 shared=0 o p d skip base
    for o in "${stubs[@]}"; do [ "$o" != "$own" ] && [ -f "$root/$o" ] && shared=1; done
    (cd "$root" && find . -mindepth 1 -maxdepth 5 -type f -print0) |
        while IFS= read -r -d '' p; do
            p=${p#./} base=${p##*/}
            [ "$p" = "$own" ] && continue
            [[ $p == *[[:cntrl:]]* ]] && continue
            pl_is_source "$base" || continue
            skip=0 d=$(dirname "$p")
            for o in "${stubs[@]}" "${contracts[@]}"; do [ "$base" = "$o" ] && skip=1; done
            [ "$base" = "${own%.cu}.h" ] && skip=0
            while [ "$d" != . ]; do
                for o in "${stubs[@]}"; do [ -f "$root/$d/$o" ] && skip=1; done
                d=$(dirname "$d")
            done
            [ $shared = 1 ] && case "$p" in *.cu) skip=1 ;; esac
            [ $skip = 0 ] && printf '%s\n' "$p"
        done | LC_ALL=C sort
}

# pack LAB: lab LAB's files into $tmp/lab.tar.gz; $lab_dir, $nfiles set
pack() {
    local dir d own f files=()
    dirs=$(harness/lab-dirs.sh)
    stubs=() contracts=() lab_dir=""
    for d in $dirs; do
        d=${d%/} own=$(own_file "$d")
        [ -n "$own" ] && stubs+=("$own") contracts+=("${own%.cu}.h")
        case "$(basename "$d")" in "$1"-*) lab_dir=$d ;; esac
    done
    [ -n "$lab_dir" ] ||
        die "no lab '$1' in this kit (labs: $(for d in $dirs; do basename "$d" | cut -d- -f1; done | paste -sd ' ' -))"
    own=$(own_file "$lab_dir")
    [ -n "$own" ] && [ -f "$lab_dir/$own" ] || die "cannot tell which .cu file of '$lab_dir' is the lab's own"
    dir=$(basename "$lab_dir")
    files=("$dir/$own")
    while IFS= read -r f; do files+=("$dir/$f"); done < <(lab_sources "$lab_dir" "$own")
    nfiles=${#files[@]}
    # (COPYFILE_DISABLE: macOS's tar adds no ._ files of extended attributes)
    COPYFILE_DISABLE=1 tar -czf "$tmp/lab.tar.gz" -C labs -- "${files[@]}" 2>"$tmp/tar.err" ||
        die "cannot pack the lab's files: $(tail -n 1 "$tmp/tar.err")"
}

# ------------------------------------------------------------ the job

# show_state FILE: a line when the job's state or place changed
last=""
show_state() {
    local state pos now gpu model
    state=$(field state "$1") pos=$(field position "$1")
    case "$state" in
    queued)
        case "$pos" in
        '') now="queued" ;;
        0) now="queued: next to run" ;;
        1) now="queued: 1 job before it" ;;
        *) now="queued: $pos jobs before it" ;;
        esac ;;
    running)
        gpu=$(field gpu "$1") model=$(field model "$1")
        now="running${gpu:+ on GPU $gpu}${model:+ ($model)}" ;;
    *) now=$state ;;
    esac
    [ "$now" = "$last" ] || say "job $job $now"
    last=$now
}

# fetch: the done (or failed) job's files into its lab's folder, replaced
# whole; prints the report
fetch() {
    local lab dest f
    lab=$(field lab "$tmp/job") lab=${lab:-unknown}
    [[ $lab =~ ^[A-Za-z0-9_-]+$ ]] || lab=unknown
    dest=$out_root/lab$lab
    mkdir -p "$out_root" || die "cannot write in '$out_root'"
    new=$(mktemp -d "$out_root/.lab$lab.XXXXXX") || die "cannot write in '$out_root'"
    trap 'rm -rf "$tmp" ${new:+"$new"}' EXIT
    cp "$tmp/job" "$new/job.tsv"
    for f in report.txt results.json scores.tsv figure.svg; do
        http GET "/api/jobs/$job/$f" "$new/$f"
        case "$code" in
        200) ;;
        404) rm -f "$new/$f" ;;
        *) refused "job $job's $f" "$new/$f" ;;
        esac
    done
    rm -rf "$dest" && mv "$new" "$dest" || die "cannot write '$dest'"
    new=""
    [ -f "$dest/report.txt" ] && cat "$dest/report.txt"
    say "saved in $dest/: $(cd "$dest" && ls | paste -sd ' ' -)"
}

# full FILE: whether a scores file's rows earned all their points
full() {
    [ -f "$1" ] && awk -F'\t' '!/^#/ && NF >= 7 { got += $6; max += $7 } END { exit !(max > 0 && got >= max - 1e-9) }' "$1"
}

# await: ask for the job until it is done or failed (WAIT=0: once)
await() {
    local misses=0
    trap 'echo; say "stopped waiting; job $job goes on: make submit JOB=$job fetches it"; exit 130' INT
    while :; do
        http GET "/api/jobs/$job" "$tmp/body"
        case "$code" in
        200) misses=0; cp "$tmp/body" "$tmp/job" ;;
        404) refused "no job $job of yours on the check service" ;;
        5??) misses=$((misses + 1))
            [ $misses -lt 5 ] || refused "job $job" ;;
        *) refused "job $job" ;;
        esac
        if [ $misses = 0 ]; then
            show_state "$tmp/job"
            case "$(field state "$tmp/job")" in done | failed) break ;; esac
            [ "$wait_for" = 1 ] || break
        fi
        sleep "$poll"
    done
    trap - INT
}

# ---------------------------------------------------------------- main

if [ $name_set = 1 ]; then
    set_name
    exit 0
fi
if [ -n "$job_arg" ] && [ -n "$lab_arg" ]; then
    die "LAB=$lab_arg or JOB=$job_arg, not both: LAB sends a lab, JOB fetches a job sent before"
fi
if [ -n "$job_arg" ]; then
    [[ $job_arg =~ ^[0-9]+$ ]] || die "JOB='$job_arg' is not a job's number"
    job=$((10#$job_arg))
else
    [ -n "$lab_arg" ] ||
        die "which lab? make submit LAB=01 (labs: $(harness/lab-dirs.sh | sed 's|^labs/||; s|-.*||' | paste -sd ' ' -))"
    lab=$lab_arg
    [[ $lab =~ ^[0-9]$ ]] && lab=0$lab
    pack "$lab"
    submission=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
    [[ $submission =~ ^[0-9a-f]{32}$ ]] || die "cannot make the submission's id (od -N16 of /dev/urandom)"
    http POST "/api/jobs?lab=$lab" "$tmp/body" "$tmp/lab.tar.gz"
    # (200: a repeat of this submission after a lost answer, its job)
    case "$code" in 200 | 201) ;; *) refused "the check service at $url has no /api/jobs: is SERVE_URL its address?" ;; esac
    job=$(field id "$tmp/body")
    [[ $job =~ ^[0-9]+$ ]] || die "the check service's answer names no job: $(reason "$tmp/body")"
    pos=$(field position "$tmp/body")
    size=$(wc -c <"$tmp/lab.tar.gz" | tr -d ' ')
    say "sent $lab_dir ($nfiles file$([ "$nfiles" = 1 ] || echo s), $size bytes packed) to $url: job $job"
    if [ "$wait_for" = 0 ]; then
        say "job $job queued${pos:+ with $pos job$([ "$pos" = 1 ] || echo s) before it}; make submit JOB=$job fetches its report when it is done"
        exit 0
    fi
fi

await
state=$(field state "$tmp/job")
case "$state" in
done)
    fetch
    full "$out_root/lab$(field lab "$tmp/job")/scores.tsv" && exit 0
    exit 1 ;;
failed)
    why=$(field reason "$tmp/job")
    fetch
    status=3 die "job $job failed on the check service: ${why:-no reason given}" ;;
*)
    say "job $job is $state; make submit JOB=$job fetches its report when it is done"
    exit 0 ;;
esac
