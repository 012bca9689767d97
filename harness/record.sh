# harness/record.sh: what a line of the record (GRADES/.graded.tsv) says
# about the run that wrote it, and whether it still stands for this run.
# Sourced by harness/grade.sh; tests/grading/test_grading.sh calls these functions
# on crafted lines. Columns 10 to 13 of a record line:
#   mode  gpu: the tests ran on a GPU; dry: they did not (PRIMLAB_NO_GPU, or
#         a test of the student's scores did not run for want of a GPU)
#   seed  public without PRIMLAB_SEED, else its fingerprint: HMAC-SHA256 of
#         the seed under GRADES/.seed-key (a random key, mode 0600), 16 hex
#         digits; never the seed, nor a plain hash of it (seeds are small
#         numbers: a plain hash gives the seed back to anyone who tries them)
#   kit   the kit's version: VERSION, "+", 12 hex digits of a sha256 over
#         the names and contents of the grading kit's files
#         (harness/kit-files.sh) but docs/ and *.md, which grade nothing
#   assignment  the labs graded, comma-separated (01, or 01,02; every lab
#         of the kit when the run named none: harness/assignment.sh); a
#         line of 12 fields, from before this column, graded every lab
#
#   run_mode                  gpu or dry: what this run's gradings will be
#   record_mode SCORES        gpu or dry: what a student's grading was
#   seed_fingerprint KEYFILE  the fingerprint of the seed on standard input
#                             (KEYFILE made on first use)
#   kit_version [SKIP...]     the version of the kit in the current folder;
#                             files under a SKIP folder left out
#   record_stands LINE SUM MODE SEED KIT [ASSIGNMENT ALL]   (below)
#   slurm_task_stands BATCH NAME SUM ASSIGNMENT ALL SEED KIT  (below)

# run_mode: dry when PRIMLAB_NO_GPU asks for no GPU (as the lab binaries
# read it: set, and neither empty nor 0), else gpu
run_mode() {
    case "${PRIMLAB_NO_GPU:-0}" in 0) echo gpu ;; *) echo dry ;; esac
}

# record_mode SCORES: dry when a row of SCORES has cause NOGPU, or this run
# is dry (a student none of whose labs compiles has no NOGPU row), else gpu
record_mode() {
    if awk -F '\t' '!/^#/ && $12 == "NOGPU" { found = 1; exit } END { exit !found }' "$1" 2>/dev/null; then
        echo dry
    else
        run_mode
    fi
}

# seed_fingerprint KEYFILE: the seed on standard input (never an argument,
# which ps shows), its HMAC under KEYFILE's key; KEYFILE is made (mode 0600,
# linked into place whole, so that a reader never sees it half written)
# when it is not there
seed_fingerprint() {
    python3 -c '
import hashlib, hmac, os, sys, tempfile
path = sys.argv[1]
if not os.path.exists(path):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".seed-key.")  # mode 0600
    with os.fdopen(fd, "w") as f:
        f.write(os.urandom(32).hex() + "\n")
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
key = bytes.fromhex(open(path).read().strip())
print(hmac.new(key, sys.stdin.buffer.read(), hashlib.sha256).hexdigest()[:16])
' "$1"
}

# kit_version [SKIP...]: VERSION+<12 hex digits>, from the current folder
kit_version() {
    local f d version
    version=$(tr -d ' \t\r\n' <VERSION 2>/dev/null)
    printf '%s+' "${version:-unknown}"
    harness/kit-files.sh | LC_ALL=C sort -z | while IFS= read -r -d '' f; do
        case "$f" in docs/* | *.md) continue ;; esac
        for d in "$@"; do case "$PWD/$f" in "$d"/*) continue 2 ;; esac; done
        printf '%s\0' "$f"
    done | xargs -0 -r sha256sum | sha256sum | cut -c 1-12
}

# record_stands LINE SUM MODE SEED KIT [ASSIGNMENT ALL]: whether LINE, a
# student's last record line, stands for a run of this MODE, SEED, KIT and
# ASSIGNMENT (the labs it grades; ALL: every lab of the kit, what a line of
# 12 fields graded) grading a submission whose checksum is SUM. Status 0:
# it stands (skip the student). Status 1: grade; when only the mode, seed,
# kit or assignment differ, one line says why. A dry line stands only for a
# dry run; a gpu line for any dry run, of any seed, kit or assignment (a dry
# run never replaces a real grade). A line of 9 fields, from before these
# columns, stands when its checksum does, as it always did. Without
# ASSIGNMENT, the assignment is not compared.
record_stands() {
    local f=()
    [ -n "$1" ] && mapfile -t -d $'\t' f < <(printf '%s' "$1")
    [ "${f[1]:-}" = "$2" ] || return 1
    [ ${#f[@]} -gt 9 ] || return 0
    # a dry run never replaces a real grade, whatever its seed or kit
    [ "${f[9]:-}" = gpu ] && [ "$3" = dry ] && return 0
    if [ "${f[9]:-}" != gpu ] && [ "$3" = gpu ]; then
        echo "the last grading was a dry run (no GPU)"
    elif [ "${f[10]:-}" != "$4" ]; then
        case "${f[10]:-}:$4" in
        public:*) echo "the last grading was without a seed (no hidden tests)" ;;
        *:public) echo "the last grading was with a seed, and this run has none" ;;
        *) echo "the last grading was with another seed" ;;
        esac
    elif [ "${f[11]:-}" != "$5" ]; then
        echo "the last grading was by another kit version (${f[11]:-none}, now $5)"
    elif [ -n "${6:-}" ] && [ "${f[12]:-${7:-}}" != "$6" ]; then
        echo "the last grading was of another assignment (labs ${f[12]:-${7:-}}, now $6)"
    else
        return 0
    fi
    return 1
}

# slurm_task_stands BATCH NAME SUM ASSIGNMENT ALL SEED KIT: whether the
# grade an earlier Slurm batch (BATCH: GRADES/.slurm, harness/grade-slurm.sh)
# left for student NAME stands for this run: graded, of the submission whose
# checksum is SUM, of ASSIGNMENT (ALL: what a task from before its
# assignment file graded), by a batch whose seed fingerprint is SEED and
# whose kit version is KIT. Status 0: merge it; else grade the student
# again. A batch from before its kit file is graded again (the kit that
# graded it cannot be told, and the record would name this run's).
slurm_task_stands() {
    local batch=$1 tree=$1/tasks/$2
    [ -f "$batch/tasks.tsv" ] && [ "$(head -n 1 "$tree/status" 2>/dev/null)" = graded ] &&
        [ "$(cat "$tree/assignment" 2>/dev/null || echo "$5")" = "$4" ] && [ -d "$tree/final" ] &&
        awk -F '\t' -v n="$2" -v s="$3" '$2 == n && $3 == s { f = 1 } END { exit !f }' "$batch/tasks.tsv" &&
        [ "$(cat "$batch/seed.tag" 2>/dev/null)" = "$6" ] && [ "$(cat "$batch/kit" 2>/dev/null)" = "$7" ]
}
