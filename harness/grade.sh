#!/usr/bin/env bash
# harness/grade.sh SUBMISSIONS [OUT]: grade a class. Called by `make grade`.
#
# Each entry of SUBMISSIONS is one student: a folder, a .tar.gz (.tgz) or a
# .zip, named after the student. Only each lab's student file (e.g.
# prefix_sum.cu) is taken from a submission, into a fresh folder laid out
# like labs/, and graded by harness/check.sh against a grading kit made from
# the handout (no solutions/); every other file is ignored and listed as
# ignored in that student's feedback. A student whose code does not compile,
# crashes or hangs costs only that student (each test is isolated; the whole
# student is also stopped after GRADE_TIMEOUT seconds).
#
# Trust: student code is built and run in bubblewrap only (no bwrap, no
# grading), never sees the grading seed, OUT or SUBMISSIONS, and writes
# nothing that is graded. This script and the lab binaries write every
# result:
#   OUT/<student>/{results.json, report.txt, scores.tsv}: made in a fresh
#       folder OUT/.work/<student>.XXXXXX, then renamed over the old one;
#   OUT/.graded.tsv: the record, one line per grading (student, sha256 of the
#       submission, UTC time), appended (atomically) once the results land;
#   OUT/gradebook.csv: student, a score per lab, total; one row per student
#       in the record, rebuilt (atomically) at the end of every run.
# A rerun skips a student whose last record line has the submission's
# current checksum (and whose results are there); a changed submission is
# regraded; FORCE=1 regrades everyone. A folder in OUT is not a student.
#
# A failure of the grading machine is never a student's: when check.sh says
# so (status 3: the kit does not build, a shared library is missing, no GPU
# unless PRIMLAB_NO_GPU=1), that student is not graded (nothing published or
# recorded, an earlier grade kept) and the run stops, since every student
# after would fail the same way: the reason is printed, and
#   OUT/.ungraded.tsv: student, UTC time, why, for each student a run left
#       ungraded (rewritten by every run; absent when there is none);
# the run exits 3, and a rerun once the machine is fixed grades them.
#
# The grading kit: a kit with solutions/ grades in build/grade-kit/, the
# handout (harness/handout.sh, which also refreshes dist/) unpacked; it is
# kept across students and runs and replaced (its build/ kept) when its
# files differ from the handout's. A kit without solutions/ grades in place.
#
# Environment: FORCE=1, GRADE_TIMEOUT (seconds per student, default 1800),
# GRADE_MAX_BYTES and GRADE_MAX_FILES (what one submission may unpack to,
# default 64 MiB and 10000), GRADE_LOCK_WAIT (seconds to wait for another
# make grade in this kit to finish; default 0, stop at once), PRIMLAB_SEED
# (the grading seed: only the lab binaries get it), PRIMLAB_TIMEOUT (per
# test), PRIMLAB_NO_GPU=1 (a dry run without a GPU: every test scores 0;
# without it a machine with no GPU grades nobody). Exports to check.sh and the
# lab binaries PRIMLAB_REQUIRE_SANDBOX=1 and PRIMLAB_SANDBOX_HIDE (the
# folders student code must not see, colon-separated).
set -u
seed_set=${PRIMLAB_SEED+1}
seed=${PRIMLAB_SEED-}
unset PRIMLAB_SEED

subs=${1:-}
out=${2:-build/grades}
force=${FORCE:-0}
limit=${GRADE_TIMEOUT:-1800}
max_bytes=${GRADE_MAX_BYTES:-$((64 << 20))}
max_files=${GRADE_MAX_FILES:-10000}
src=$(cd "$(dirname "$0")/.." && pwd -P)

die() { echo "grade: $*" >&2; exit 2; }

# what to remove on any exit: the student being graded, a kit being made
work="" student_build="" stage="" kit=""
trap 'rm -rf "$work" "$student_build" "$stage"' EXIT

# ------------------------------------------------------------------ setup

# require_sandbox: bubblewrap must start a sandbox here, or nothing is graded.
require_sandbox() {
    local err
    command -v bwrap >/dev/null 2>&1 ||
        die "bubblewrap (bwrap) is not installed: grading a class without a sandbox is not allowed (apt-get install bubblewrap)"
    err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1) ||
        die "bwrap cannot start a sandbox here ($(head -n 1 <<<"$err")): grading a class without a sandbox is not allowed"
}

# tree_sum DIR: one checksum of DIR's file names and contents, build/ aside.
tree_sum() {
    (cd "$1" && find . -path ./build -prune -o -type f -print0 | LC_ALL=C sort -z |
        xargs -0 -r sha256sum) | sha256sum | cut -c 1-64
}

# make_grading_kit: set kit to the folder to grade in: this kit when it has
# no solutions/, else build/grade-kit, made or refreshed from the handout.
make_grading_kit() {
    local name tree
    kit=$src
    [ -d "$src/solutions" ] || return 0
    kit=$src/build/grade-kit
    name=primlab-handout-$(cat "$src/VERSION") || return 1
    (cd "$src" && harness/handout.sh >/dev/null) || return 1
    stage=$(mktemp -d "$kit.new.XXXXXX") && tar -xzf "$src/dist/$name.tar.gz" -C "$stage" || return 1
    tree=$stage/$name
    [ ! -e "$tree/solutions" ] || return 1
    if [ ! -d "$kit" ] || [ "$(tree_sum "$tree")" != "$(tree_sum "$kit")" ]; then
        if [ -d "$kit/build" ]; then mv "$kit/build" "$tree/build" || return 1; fi
        rm -rf "$kit" && mv "$tree" "$kit" || return 1
    fi
    rm -rf "$stage"
}

# hidden_paths: the folders student code must not see, one a line: the
# submissions, the grades and, when grading in a copy, this whole kit
# (solutions/, its builds, dist/) and its git history. Each sandbox binds
# back only what it needs of the copy (harness/sandbox-compile.sh, the lab
# binaries' workers).
hidden_paths() {
    local git_dir
    printf '%s\n' "$subs" "$out"
    [ "$kit" != "$src" ] || return 0
    echo "$src"
    git_dir=$(git -C "$src" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || return 0
    case "$git_dir/" in "$src"/*) ;; *) echo "$git_dir" ;; esac
}

# ------------------------------------------------------------ submissions

# student_name ENTRY: the student's name, from the entry's file name, made
# safe; never starting with '.' (so never .work, .graded.tsv or a dotfile).
student_name() {
    local name
    name=$(basename "$1")
    name=${name%.tar.gz}
    name=${name%.tgz}
    name=${name%.zip}
    name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
    case "$name" in "" | .*) name=_$name ;; esac
    echo "$name"
}

# submission_sum ENTRY: sha256 of what the student handed in.
submission_sum() {
    if [ -d "$1" ]; then
        (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum) | sha256sum
    else
        sha256sum <"$1"
    fi | cut -c 1-64
}

# graded_already NAME SUM: the record's last line for NAME has SUM, and its
# results are there.
graded_already() {
    [ -f "$record" ] && [ -f "$out/$1/results.json" ] &&
        awk -F '\t' -v n="$1" -v s="$2" '$1 == n { last = $2 } END { exit !(last == s) }' "$record"
}

# new_tmp FILE: print a new empty file beside FILE, with the mode a new file
# gets (umask), to be renamed over FILE once written.
new_tmp() {
    local tmp
    tmp=$(mktemp "$1.XXXXXX.tmp") && chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$tmp" && echo "$tmp"
}

# record_graded NAME SUM: append to the record (a new file renamed over it).
record_graded() {
    local tmp
    tmp=$(new_tmp "$record") || return 1
    { [ -f "$record" ] && cat "$record"; printf '%s\t%s\t%s\n' "$1" "$2" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"; } >"$tmp" &&
        mv "$tmp" "$record"
}

# unpack ENTRY DEST: copy a folder, or unpack a .zip or .tar.gz, into DEST:
# regular files and folders only, never outside DEST, at most max_bytes and
# max_files. Prints a line per entry refused; on failure nothing in DEST
# counts and the one line printed says why.
unpack() {
    GRADE_MAX_BYTES=$max_bytes GRADE_MAX_FILES=$max_files python3 - "$1" "$2" <<'PY'
import os, stat, sys, tarfile, zipfile, zlib

src, dest = sys.argv[1], sys.argv[2]
max_bytes, max_files = int(os.environ["GRADE_MAX_BYTES"]), int(os.environ["GRADE_MAX_FILES"])

class Refused(Exception):
    pass

def members():
    """(name, kind, size, open) per member; kind: dir, file, symlink, hardlink, other."""
    if os.path.isdir(src):
        for root, dirs, files in os.walk(src):
            for n in sorted(dirs + files):
                p = os.path.join(root, n)
                m = os.lstat(p).st_mode
                kind = ("dir" if stat.S_ISDIR(m) else "file" if stat.S_ISREG(m)
                        else "symlink" if stat.S_ISLNK(m) else "other")
                opener = lambda p=p: os.fdopen(os.open(p, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb")
                yield os.path.relpath(p, src), kind, os.lstat(p).st_size, opener
    elif src.endswith(".zip"):
        z = zipfile.ZipFile(src)
        for i in z.infolist():
            fmt = stat.S_IFMT(i.external_attr >> 16)  # 0: no Unix type stored
            kind = ("dir" if i.is_dir() else "symlink" if fmt == stat.S_IFLNK
                    else "file" if fmt in (0, stat.S_IFREG) else "other")
            yield i.filename, kind, i.file_size, lambda i=i: z.open(i)
    elif src.endswith((".tar.gz", ".tgz")):
        t = tarfile.open(src, "r:gz")
        for i in t:
            kind = ("dir" if i.isdir() else "symlink" if i.issym() else "hardlink" if i.islnk()
                    else "file" if i.isreg() and not i.issparse() else "other")
            yield i.name, kind, i.size, lambda i=i: t.extractfile(i)
    else:
        raise Refused("not a folder, .tar.gz, .tgz or .zip")

WHY = {"symlink": "a symbolic link", "hardlink": "a hard link",
       "other": "not a regular file or folder"}

def why_not(name, kind):
    """The reason to refuse this member, or None."""
    if name.startswith("/"):
        return "an absolute path"
    if ".." in name.split("/"):
        return "a '..' in its path"
    return WHY.get(kind)

def copy(opener, target, budget):
    """Copy one member to a new file; return its size, at most budget."""
    size = 0
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with opener() as f, os.fdopen(fd, "wb") as o:
        while chunk := f.read(1 << 20):
            size += len(chunk)
            if size > budget:
                raise Refused("unpacks to more than %d MiB" % (max_bytes >> 20))
            o.write(chunk)
    return size

def show(name):
    return "".join(c if c.isprintable() else "?" for c in name)[:120]

refused, count, total = [], 0, 0
try:
    for name, kind, size, opener in members():
        count += 1
        if count > max_files:
            raise Refused("more than %d files and folders" % max_files)
        if total + (size if kind == "file" else 0) > max_bytes:
            raise Refused("unpacks to more than %d MiB" % (max_bytes >> 20))
        why = why_not(name, kind)
        if why:
            refused.append("refused '%s': %s" % (show(name), why))
            continue
        parts = [p for p in name.split("/") if p not in ("", ".")]
        if not parts:
            continue
        target = os.path.join(dest, *parts)
        try:
            if kind == "dir":
                os.makedirs(target, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                total += copy(opener, target, max_bytes - total)
        except OSError as e:
            refused.append("refused '%s': cannot be unpacked (%s)" % (show(name), e.strerror))
except Refused as e:
    print(e)
    sys.exit(1)
except (OSError, EOFError, ValueError, zlib.error, zipfile.BadZipFile, tarfile.TarError) as e:
    print("not a readable archive (%s)" % e)
    sys.exit(1)
for line in refused[:20]:
    print(line)
if len(refused) > 20:
    print("... and %d more entries refused" % (len(refused) - 20))
PY
}

# take_lab_files SRC LABS: copy each lab's student file found in SRC into
# LABS/<lab>/, and list what was graded and what ignored.
take_lab_files() {
    local lab f p pick found taken=() ignored
    for lab in "${labs[@]}"; do
        f=$(cd "labs/$lab" && ls -- *.cu)
        mapfile -t found < <(cd "$1" && find . -type f -name "$f" | sed 's|^\./||' | sort)
        pick=""
        for p in "${found[@]}"; do
            case "$p" in */"$lab/$f" | "$lab/$f") pick=$p ;; esac
        done
        [ -z "$pick" ] && [ ${#found[@]} -gt 0 ] && pick=${found[0]}
        [ ${#found[@]} -gt 1 ] && echo "several files named $f; graded $pick"
        if [ -n "$pick" ]; then
            mkdir -p "$2/$lab"
            cp "$1/$pick" "$2/$lab/$f"
            taken+=("$pick")
        fi
    done
    echo "graded: ${taken[*]:-(no lab file found)}"
    ignored=$(cd "$1" && find . -type f | sed 's|^\./||' | sort |
        { grep -vxF -f <(printf '%s\n' "${taken[@]}" "") || true; })
    if [ -n "$ignored" ]; then
        echo "ignored (only the lab files are graded):"
        head -n 50 <<<"$ignored" | sed 's/^/  /'
        [ "$(wc -l <<<"$ignored")" -gt 50 ] && echo "  ... and $(($(wc -l <<<"$ignored") - 50)) more"
    fi
    return 0
}

# grade_student ENTRY NAME: grade into a fresh $work and print the summary;
# leaves $work/final/ with the files to publish. Status 3, with the reason
# in machine: the grading machine failed, and nothing is to be published.
grade_student() {
    local feedback=$work/feedback.txt base msg line rc
    base=$(basename "$1")
    mkdir "$work/src" "$work/labs" "$work/out" "$work/final" && : >"$feedback" || return 2
    if msg=$(unpack "$1" "$work/src" 2>&1); then
        [ -n "$msg" ] && while IFS= read -r line; do
            echo "unpacking $base: $line"
        done <<<"$msg" >>"$feedback"
    else
        echo "could not unpack $base: ${msg:-unknown error}; every lab scores 0" >>"$feedback"
        rm -rf "$work/src" && mkdir "$work/src"
    fi
    take_lab_files "$work/src" "$work/labs" >>"$feedback"

    echo "== $2"
    student_build=build/impl-${work//\//-}-labs # check.sh's build folder for this IMPL
    (
        [ -n "$seed_set" ] && export PRIMLAB_SEED="$seed"
        export CHECK_OUT=$work/out CHECK_EXTRA=$feedback
        exec timeout --kill-after=10 "$limit" harness/check.sh "$work/labs"
    ) >"$work/out/report.txt" 2>&1
    rc=$?
    rm -rf "$student_build"
    student_build=""
    if [ $rc = 3 ]; then # the grading machine, not the student: check.sh's last line says what
        machine=$(tail -n 1 "$work/out/report.txt" | sed 's/^check: //' | tr '\t' ' ')
        echo "   not graded: $machine"
        return 3
    fi
    if [ $rc = 2 ] && [ ! -s "$work/out/scores.tsv" ]; then
        echo "grade: grading $2 failed before any test ran: $(tail -n 1 "$work/out/report.txt")" >&2
        return 2
    fi
    if [ $rc = 124 ] || [ $rc = 137 ]; then
        echo "grading stopped after $limit s (GRADE_TIMEOUT): the tests not reached score 0" >>"$feedback"
    fi
    # every test counts in the maximum, reached or not (the lab binaries hold no student code)
    for id in "${ids[@]}"; do
        if [ -n "$seed_set" ]; then PRIMLAB_SEED="$seed" "build/tables/lab$id" fill --scores "$work/out/scores.tsv"
        else "build/tables/lab$id" fill --scores "$work/out/scores.tsv"; fi >/dev/null
    done
    # results.json from the scores (again, if check.sh was stopped before it)
    build/primlab-results "$work/out/scores.tsv" --labs "$labs_csv" \
        --json "$work/final/results.json" --extra "$feedback" >"$work/out/score.txt"
    cp "$work/out/report.txt" "$work/out/scores.tsv" "$work/final/" || return 2
    sed 's/^/   /' "$feedback"
    awk '/^lab[0-9]+: (does not compile|.* is missing)/ { err = 1; print; next }
        err && /^    / { print; next } { err = 0 }' "$work/out/report.txt" | sed 's/^/   /'
    grep -E 'subtotal' "$work/out/report.txt" | sed 's/^/   /'
    sed 's/^/   /' "$work/out/score.txt"
}

# publish NEW DEST: NEW, a finished folder, takes DEST's place whole: the
# old DEST (whatever is there) is renamed away first, never merged into.
publish() {
    local old
    if [ -e "$2" ] || [ -L "$2" ]; then
        old=$(mktemp -u "$out/.work/old.XXXXXX") && mv -T "$2" "$old" || return 1
    fi
    mv -T "$1" "$2" && rm -rf "${old:-}"
}

# write_gradebook: one row per student in the record, renamed into place.
write_gradebook() {
    local book=$out/gradebook.csv tmp name
    tmp=$(new_tmp "$book") || return 1
    {
        echo "student,$(printf 'lab%s,' "${ids[@]}")total"
        [ ! -f "$record" ] || cut -f 1 "$record" | LC_ALL=C sort -u | while read -r name; do
            [ -f "$out/$name/scores.tsv" ] || continue
            build/primlab-results "$out/$name/scores.tsv" --labs "$labs_csv" --csv-row "$name" || true
        done
    } >"$tmp" && mv "$tmp" "$book" || return 1
    echo "$book"
}

# write_ungraded: the students this run left ungraded (the ungraded array:
# "student<TAB>why" lines) into OUT/.ungraded.tsv, renamed into place; the
# file goes when there are none, so a stale one never outlives the fix.
write_ungraded() {
    local list=$out/.ungraded.tsv tmp line now
    if [ ${#ungraded[@]} = 0 ]; then rm -f "$list"; return; fi
    tmp=$(new_tmp "$list") || return 1
    now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    for line in "${ungraded[@]}"; do
        printf '%s\t%s\t%s\n' "${line%%$'\t'*}" "$now" "${line#*$'\t'}"
    done >"$tmp" && mv "$tmp" "$list"
}

# ------------------------------------------------------------------- main

if [ -z "$subs" ] || [ ! -d "$subs" ]; then
    die "no submissions folder '${subs}' (make grade SUBMISSIONS=dir)"
fi
require_sandbox
subs=$(realpath "$subs") && out=$(realpath -m "$out") || exit 2
case "$subs:$out" in *:*:*) die "a ':' in '$subs' or '$out': PRIMLAB_SANDBOX_HIDE cannot name it" ;; esac
case "$out/" in "$subs"/*) die "the grades folder '$out' is inside the submissions '$subs'" ;; esac
case "$subs/" in "$out"/*) die "the submissions '$subs' are inside the grades folder '$out'" ;; esac
mkdir -p "$out" "$src/build" || exit 2
# one class at a time per kit: the grading kit and its build are shared
exec 9>"$src/build/grade.lock" || exit 2
if [ "${GRADE_LOCK_WAIT:-0}" = 0 ]; then flock -n 9; else flock -w "$GRADE_LOCK_WAIT" 9; fi ||
    die "another make grade is running in this kit (build/grade.lock)"
make_grading_kit || die "could not make the grading kit '$kit' from the handout (harness/handout.sh)"
case "$kit/" in "$out"/* | "$subs"/*) die "the grading kit '$kit' is inside '$out' or '$subs'" ;; esac
cd "$kit" || exit 2
hide=$(hidden_paths | paste -sd :)
export PRIMLAB_REQUIRE_SANDBOX=1 PRIMLAB_SANDBOX_HIDE=$hide
# The kit's own tools first: when they do not build (the bootstrap finds no
# Check, a compiler is missing), every student stays ungraded, listed with
# the reason, as when a lab of the kit fails under the first student.
no_kit=""
if ! err=$(make -s --no-print-directory build/primlab-results 2>&1 >/dev/null); then
    no_kit="cannot build the kit's build/primlab-results: $({ grep -m 1 -E 'error|not found|^bootstrap:' ||
        echo 'make failed'; } <<<"$err")"
fi
mkdir -p "$out/.work" || exit 2
record=$out/.graded.tsv

labs=() ids=()
for dir in $(harness/lab-dirs.sh); do
    labs+=("$(basename "$dir")")
    ids+=("$(basename "$dir" | cut -d- -f1)")
done
labs_csv=$(IFS=,; echo "${ids[*]}")

graded=0 skipped=0
stopped="" # once the grading machine fails: the student it failed on
ungraded=()
declare -A seen=()
for entry in "$subs"/*; do
    [ -e "$entry" ] || continue
    name=$(student_name "$entry")
    if [ -n "${seen[$name]:-}" ]; then
        echo "== $name: '$(basename "$entry")' has the same student name as '${seen[$name]}': skipped"
        skipped=$((skipped + 1))
        continue
    fi
    seen[$name]=$(basename "$entry")
    sum=$(submission_sum "$entry")
    if [ "$force" != 1 ] && graded_already "$name" "$sum"; then
        echo "== $name: already graded, skipped (FORCE=1 regrades)"
        skipped=$((skipped + 1))
        continue
    fi
    if [ -n "$no_kit" ]; then
        echo "== $name: not graded: the grading machine $no_kit"
        ungraded+=("$name"$'\t'"the grading machine $no_kit")
        continue
    fi
    if [ -n "$stopped" ]; then # would fail as $stopped did
        echo "== $name: not graded: grading stopped at $stopped"
        ungraded+=("$name"$'\t'"not reached: grading stopped at $stopped")
        continue
    fi
    work=$(mktemp -d "$out/.work/$name.XXXXXX") || exit 2
    grade_student "$entry" "$name"
    case $? in
    0) ;;
    3)
        stopped=$name
        ungraded+=("$name"$'\t'"$machine")
        rm -rf "$work"
        work=""
        continue
        ;;
    *) exit 2 ;;
    esac
    if ! publish "$work/final" "$out/$name" || ! record_graded "$name" "$sum"; then
        die "could not write the results of '$name' into '$out'"
    fi
    rm -rf "$work"
    work=""
    graded=$((graded + 1))
done

if [ -n "$no_kit" ]; then # no tool to write a gradebook with: the last one stays
    write_ungraded || die "could not write '$out/.ungraded.tsv'"
    echo "grade: the grading machine $no_kit; nobody graded, not the students' fault;" \
        "a rerun grades the ${#ungraded[@]} not graded once it is fixed ($out/.ungraded.tsv)" >&2
    exit 3
fi
book=$(write_gradebook) || die "could not write '$out/gradebook.csv'"
write_ungraded || die "could not write '$out/.ungraded.tsv'"
if [ -n "$stopped" ]; then
    echo "graded $graded, skipped $skipped, not graded ${#ungraded[@]} ($out/.ungraded.tsv); gradebook: $book"
    echo "grade: stopped at $stopped: the grading machine failed, not the students ($machine);" \
        "a rerun grades the ${#ungraded[@]} not graded once it is fixed" >&2
    exit 3
fi
echo "graded $graded, skipped $skipped; gradebook: $book"
