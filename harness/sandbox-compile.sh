#!/usr/bin/env bash
# harness/sandbox-compile.sh SRC_DIR OBJ_DIR COMPILER ARGS...: compile a
# student's file (staged in SRC_DIR beside its lab's contract) into OBJ_DIR.
#
# An #include can read any file the compiler can, and the compiler's errors
# go back to the student as feedback. So the compiler runs in bubblewrap, as
# uid 65534 when the grader is root, on a private copy of SRC_DIR (a fresh
# folder under /tmp, bound back into an otherwise empty /tmp): the file
# system read-only, the kit, $HOME, /root, /run, /var/tmp and the folders in
# PRIMLAB_SANDBOX_HIDE (make grade: the submissions and the grades) hidden,
# no network, the environment cleared but for PATH and the CUDA paths, under
# an address-space limit (PRIMLAB_COMPILE_MEM_GB, 8) and a time limit
# (PRIMLAB_COMPILE_S, 600). ARGS naming SRC_DIR or OBJ_DIR are rewritten to
# the copy; the object is moved to OBJ_DIR after a successful compile.
# Without bwrap it compiles as it is, with a warning, unless
# PRIMLAB_REQUIRE_SANDBOX=1 (make grade), where that is an error.
set -u
src=$(realpath "$1") obj=$(realpath "$2")
shift 2
kit=$(realpath "$(dirname "$0")/..")
env_args=(env -i "PATH=$PATH" "HOME=/tmp" ${CUDA_HOME:+"CUDA_HOME=$CUDA_HOME"}
    ${LD_LIBRARY_PATH:+"LD_LIBRARY_PATH=$LD_LIBRARY_PATH"})
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    as_user=(setpriv --reuid 65534 --regid 65534 --clear-groups --)
fi
# a bwrap the compiling user can run (a root-only folder on PATH is skipped)
. "$(dirname "$0")/sandbox-probe.sh" # sandbox_starts, sandbox_retry
bwrap=$("${as_user[@]}" sh -c 'command -v bwrap' 2>/dev/null || true)
if [ -n "$bwrap" ] && ! sandbox_starts "${as_user[@]}" "$bwrap" >/dev/null; then
    bwrap=""
fi
if [ -z "$bwrap" ]; then
    if [ "${PRIMLAB_REQUIRE_SANDBOX:-0}" != 0 ]; then
        echo "sandbox-compile: bubblewrap (bwrap) is missing or cannot run here, and grading needs it" >&2
        exit 2
    fi
    exec "${env_args[@]}" "$@"
fi

# hidden_roots DIR...: the folders to cover with an empty tmpfs, each
# ended by a NUL. Each is resolved (a symlinked folder is hidden where it
# really is); one inside another one hidden, or inside /tmp (a fresh tmpfs
# already), is covered by it; one the compiling user cannot reach is hidden
# from it already, and bwrap, which runs as that user, could not mount over
# it (a kit under root's 0700 home, compiled as uid 65534). System folders
# are never hidden.
hidden_roots() {
    local d r keep=() k inside
    for d in "$@"; do
        [ -n "$d" ] && [ -d "$d" ] || continue
        r=$(realpath -e -- "$d" 2>/dev/null) || continue
        case "$r" in / | /usr | /lib | /lib64 | /bin | /sbin | /etc | /opt | /var | /dev | /proc | /sys) continue ;; esac
        case "$r/" in /tmp/*) continue ;; esac
        "${as_user[@]}" test -x "$r" 2>/dev/null || continue
        keep+=("$r")
    done
    for r in "${keep[@]}"; do
        inside=0
        for k in "${keep[@]}"; do
            [ "$k" != "$r" ] && case "$r/" in "$k"/*) inside=1 ;; esac
        done
        [ $inside = 0 ] && printf '%s\0' "$r"
    done | sort -zu
}

# the private copy, which uid 65534 can read and write
tmp=$(mktemp -d /tmp/primlab-cc-XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/obj" && cp -R "$src/." "$tmp/src/" && chmod -R a+rX "$tmp" || exit 2
if [ ${#as_user[@]} -gt 0 ]; then chown 65534:65534 "$tmp/obj"; else chmod 777 "$tmp/obj"; fi
args=()
for a in "$@"; do
    a=${a//"$src"/"$tmp/src"}
    args+=("${a//"$obj"/"$tmp/obj"}")
done

sb=(--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-all --die-with-parent --new-session)
IFS=: read -r -a extra <<<"${PRIMLAB_SANDBOX_HIDE:-}"
mapfile -d '' -t hide < <(hidden_roots "$kit" "${HOME:-}" /root /run /var/tmp "${extra[@]}")
for d in "${hide[@]}"; do sb+=(--tmpfs "$d"); done
sb+=(--ro-bind "$tmp/src" "$tmp/src" --bind "$tmp/obj" "$tmp/obj" --chdir "$tmp/src")
compile_in_sandbox() {
    (
        ulimit -v $((${PRIMLAB_COMPILE_MEM_GB:-8} << 20))
        exec timeout --kill-after=5 "${PRIMLAB_COMPILE_S:-600}" "${env_args[@]}" "${as_user[@]}" "$bwrap" "${sb[@]}" -- "${args[@]}"
    )
}
sandbox_retry "$tmp/out" compile_in_sandbox # (again when it fails for want of processes)
rc=$?
# (the compiler's messages name the staged file, not the private copy)
FROM=$tmp/src TO=$src awk '{
    rest = $0; line = ""
    while ((i = index(rest, ENVIRON["FROM"])) > 0) {
        line = line substr(rest, 1, i - 1) ENVIRON["TO"]; rest = substr(rest, i + length(ENVIRON["FROM"])) }
    print line rest }' "$tmp/out"
[ "$rc" = 124 ] && echo "sandbox-compile: the compiler was stopped after ${PRIMLAB_COMPILE_S:-600} s" >&2
[ "$rc" = 0 ] || exit "$rc"
for f in "$tmp/obj"/*; do
    [ -e "$f" ] && { mv -f "$f" "$obj/" && chown "$(id -u):$(id -g)" "$obj/${f##*/}"; } || exit 2
done
