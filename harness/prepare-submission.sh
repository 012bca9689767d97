#!/usr/bin/env bash
# harness/prepare-submission.sh ENTRY TREE LABS: prepare one submission for
# grading. Called by harness/grade.sh for each student of a class, and by
# harness/serve/run-job.sh for each job of the check service; run from
# anywhere (the kit is the one this script is in).
#
# ENTRY is what a student handed in: a folder, a .tar.gz (.tgz) or a .zip.
# It is unpacked (regular files and folders only, never outside TREE, at
# most GRADE_MAX_BYTES bytes, default 64 MiB, and GRADE_MAX_FILES files and
# folders, default 10000; a '..', an absolute path, a link or a device is
# refused and listed), and only the files of each lab of LABS are taken:
# the lab's own file (e.g. prefix_sum.cu) and the .cu, .cuh, .h, .hpp and
# .inl files beside it (lab_sources); every other file is listed as
# ignored. LABS: the assignment, lab ids comma-separated (01, or 01,02;
# harness/assignment.sh).
#
# TREE (an empty folder, made if missing) is left as harness/grade-student.sh
# grades it:
#   TREE/labs/<lab>/   each lab's files, laid out like labs/
#   TREE/feedback.txt  what unpacking and picking said: the files graded,
#                      those ignored, each entry refused; file names on one
#                      line each (a control character shown as '?')
#   TREE/assignment    LABS, as harness/assignment.sh writes it
# The unpacked submission is not kept.
#
# Exit status: 0 when TREE is prepared; 1 when it is, but ENTRY could not
# be unpacked (not an archive, over a limit: feedback.txt says so, every
# lab scores 0), the one line why printed; 2 for a usage error or a TREE
# that cannot be written.
set -u
die() { echo "prepare-submission: $*" >&2; exit 2; }
[ $# = 3 ] || die "usage: harness/prepare-submission.sh ENTRY TREE LABS (a folder, .tar.gz or .zip; an empty folder; e.g. 01,02)"
abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }
entry=$(abs "$1") tree=$(abs "$2")
[ -e "$entry" ] || die "no submission '$1'"
mkdir -p "$tree" || die "cannot make the folder '$2'"
[ -z "$(ls -A "$tree")" ] || die "'$2' is not empty"
cd "$(dirname "$0")/.." || exit 2
. harness/source-files.sh
. harness/assignment.sh
[ -n "$3" ] || die "no labs to prepare (LABS, e.g. 01,02)"
assignment=$(assignment_ids "$3") || die "$assignment"
kit_csv=$(assignment_ids) || die "$kit_csv"
max_bytes=${GRADE_MAX_BYTES:-$((64 << 20))}
max_files=${GRADE_MAX_FILES:-10000}

# labs: the assignment's; lab_stubs, lab_contracts: every lab's (a file of
# another lab is never taken as one of the assignment's)
labs=() lab_stubs=() lab_contracts=()
for dir in $(harness/lab-dirs.sh); do
    id=$(basename "$dir" | cut -d- -f1)
    case ",$assignment," in *",$id,"*) labs+=("$(basename "$dir")") ;; esac
    lab_stubs+=("$(cd "$dir" && ls -- *.cu)")
    mapfile -t -O ${#lab_contracts[@]} lab_contracts < <(cd "$dir" && ls -- *.h)
done

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

# lab_sources ROOT LAB: the source files (harness/source-files.sh) that
# belong with LAB, whose own file lies in folder ROOT, relative to it: those
# of ROOT and its subfolders, but not a subfolder holding another lab's
# file (that lab's), not another lab's own file or contract header, and, in
# a folder shared by several labs' files, no other .cu (whose would it
# be?). A copy of LAB's own contract is taken: the stage says it is not used.
lab_sources() {
    local root=$1 own mine=() shared=0 o p d skip
    own=$(cd "labs/$2" && ls -- *.cu)
    mapfile -t mine < <(cd "labs/$2" && ls -- *.h)
    for o in "${lab_stubs[@]}"; do [ "$o" != "$own" ] && [ -f "$root/$o" ] && shared=1; done
    (cd "$root" && find . -mindepth 1 -maxdepth 5 -type f -print0 | sed -z 's|^\./||' | LC_ALL=C sort -z) |
        while IFS= read -r -d '' p; do
            [ "$p" = "$own" ] && continue
            [[ $p == *[[:cntrl:]]* ]] && continue # a line break would split the name (listed as ignored)
            pl_is_source "${p##*/}" || continue
            skip=0 d=$(dirname "$p")
            for o in "${lab_stubs[@]}" "${lab_contracts[@]}"; do [ "${p##*/}" = "$o" ] && skip=1; done
            for o in "${mine[@]}"; do [ "${p##*/}" = "$o" ] && skip=0; done
            while [ "$d" != . ]; do
                for o in "${lab_stubs[@]}"; do [ -f "$root/$d/$o" ] && skip=1; done
                d=$(dirname "$d")
            done
            [ $shared = 1 ] && case "$p" in *.cu) skip=1 ;; esac
            [ $skip = 0 ] && printf '%s\0' "$p"
        done
}

# shown NAME: a file's name as feedback shows it, on one line (a control
# character, a line break among them, as '?').
shown() { printf '%s' "$1" | LC_ALL=C tr -c '[:print:]' '?'; }

# take_lab_files SRC LABS: copy the files of each lab of the assignment
# found in SRC into LABS/<lab>/: its own file (e.g. prefix_sum.cu) and the
# source files that lie with it (lab_sources), and list what was taken and
# what ignored (another lab's files too).
take_lab_files() {
    local lab f p pick dir found taken=() ignored
    for lab in "${labs[@]}"; do
        f=$(cd "labs/$lab" && ls -- *.cu)
        mapfile -d '' -t found < <(cd "$1" && find . -type f -name "$f" -print0 | sed -z 's|^\./||' | sort -z)
        pick=""
        for p in "${found[@]}"; do
            case "$p" in */"$lab/$f" | "$lab/$f") pick=$p ;; esac
        done
        [ -z "$pick" ] && [ ${#found[@]} -gt 0 ] && pick=${found[0]}
        [ ${#found[@]} -gt 1 ] && echo "several files named $f; graded $(shown "$pick")"
        if [ -n "$pick" ]; then
            mkdir -p "$2/$lab"
            cp "$1/$pick" "$2/$lab/$f"
            taken+=("$pick")
            dir=$(dirname "$pick")
            while IFS= read -r -d '' p; do
                mkdir -p "$2/$lab/$(dirname "$p")" && cp "$1/$dir/$p" "$2/$lab/$p"
                if [ "$dir" = . ]; then taken+=("$p"); else taken+=("$dir/$p"); fi
            done < <(lab_sources "$1/$dir" "$lab")
        fi
    done
    local -A was_taken=()
    for p in "${taken[@]}"; do was_taken[$p]=1; done
    echo "graded: $(shown "${taken[*]:-(no lab file found)}")"
    ignored=$(cd "$1" && find . -type f -print0 | sed -z 's|^\./||' | sort -z |
        while IFS= read -r -d '' p; do [ -n "${was_taken[$p]:-}" ] || { shown "$p"; echo; }; done)
    if [ -n "$ignored" ]; then
        if [ "$assignment" = "$kit_csv" ]; then echo "ignored (only the lab files are graded):"
        else echo "ignored (only the files of lab ${assignment//,/, } are graded):"; fi
        head -n 50 <<<"$ignored" | sed 's/^/  /'
        [ "$(wc -l <<<"$ignored")" -gt 50 ] && echo "  ... and $(($(wc -l <<<"$ignored") - 50)) more"
    fi
    return 0
}

# prepare ENTRY TREE: the student's tree: each lab's file taken from the

# prepare ENTRY TREE: the student's tree (above); status 1 when ENTRY could
# not be unpacked (the line why on the output), 2 when TREE cannot be written.
prepare() {
    local feedback=$2/feedback.txt base msg line rc=0
    base=$(basename "$1")
    mkdir "$2/src" "$2/labs" && : >"$feedback" && echo "$assignment" >"$2/assignment" || return 2
    if msg=$(unpack "$1" "$2/src" 2>&1); then
        [ -n "$msg" ] && while IFS= read -r line; do
            echo "unpacking $base: $line"
        done <<<"$msg" >>"$feedback"
    else
        echo "could not unpack $base: ${msg:-unknown error}; every lab scores 0" >>"$feedback"
        echo "could not unpack $base: ${msg:-unknown error}"
        rm -rf "$2/src" && mkdir "$2/src" || return 2
        rc=1
    fi
    take_lab_files "$2/src" "$2/labs" >>"$feedback" || return 2
    rm -rf "$2/src"
    return $rc
}

prepare "$entry" "$tree"
