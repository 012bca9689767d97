#!/usr/bin/env bash
# harness/sandbox-compile.sh SRC_DIR OBJ_DIR COMPILER ARGS...: compile a
# student's file (staged in SRC_DIR beside its lab's contract) into OBJ_DIR,
# under bubblewrap: the file system read-only, the kit's solutions/ and
# build/ hidden but for these two folders, PRIMLAB_SANDBOX_HIDE's folders
# (make grade: the submissions and the grades) hidden, a private /tmp, no
# network. So an #include can reach no solution, no other student's file
# and nothing the grader writes. Without bwrap it compiles as it is, with
# a warning, unless PRIMLAB_REQUIRE_SANDBOX=1 (make grade), where that is
# an error. The environment is cleared but for PATH and the CUDA paths.
set -u
src=$(realpath "$1") obj=$(realpath "$2")
shift 2
kit=$(realpath "$(dirname "$0")/..")
env_args=(env -i "PATH=$PATH" "HOME=/tmp" ${CUDA_HOME:+"CUDA_HOME=$CUDA_HOME"} \
    ${LD_LIBRARY_PATH:+"LD_LIBRARY_PATH=$LD_LIBRARY_PATH"})
bwrap=$(command -v bwrap || true)
if [ -n "$bwrap" ] && ! "$bwrap" --ro-bind / / --unshare-all --die-with-parent true 2>/dev/null; then
    bwrap=""
fi
if [ -z "$bwrap" ]; then
    if [ "${PRIMLAB_REQUIRE_SANDBOX:-0}" != 0 ]; then
        echo "sandbox-compile: bubblewrap (bwrap) is missing or cannot run here, and grading needs it" >&2
        exit 2
    fi
    exec "${env_args[@]}" "$@"
fi
args=(--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-all --die-with-parent --new-session)
hide=("$kit/solutions" "$kit/build" "${HOME:-}")
IFS=: read -r -a extra <<<"${PRIMLAB_SANDBOX_HIDE:-}"
for d in "${hide[@]}" "${extra[@]}"; do
    case "$d" in "" | / | /usr | /lib | /lib64 | /bin | /etc | /tmp | /opt | /var) continue ;; esac
    # (a kit under HOME is hidden with it: the two folders below come back)
    [ -d "$d" ] && [ "$d" != "$kit" ] && args+=(--tmpfs "$d")
done
args+=(--ro-bind "$src" "$src" --bind "$obj" "$obj" --chdir "$src")
exec "${env_args[@]}" "$bwrap" "${args[@]}" -- "$@"
