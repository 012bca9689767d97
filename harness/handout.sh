#!/usr/bin/env bash
# harness/handout.sh: build dist/primlab-handout-<version>.tar.gz, the kit
# students get: every file of the project except solutions/ (and build
# outputs). Called by `make handout`. In a git checkout the files git tracks
# are taken, as they are in the working tree, and those it neither tracks
# nor ignores (a lab's new file not yet added), which are named, so that
# one meant to stay out is seen (.gitignore it); elsewhere every file
# (harness/kit-files.sh). --serve-url URL (make handout SERVE_URL=URL): the
# handout's serve.conf holds the line SERVE_URL=URL, the course's check
# service that `make submit` sends labs to (harness/submit.sh).
set -euo pipefail
serve_url=""
while [ $# -gt 0 ]; do
    case "$1" in
    --serve-url) serve_url=${2:-} && shift ;;
    *) echo "handout: bad argument '$1' (--serve-url URL)" >&2; exit 2 ;;
    esac
    shift
done
if [ -n "$serve_url" ]; then
    url_re='^https?://[^[:space:]"'"'"'\\]+$'
    local_re='^http://(127\.0\.0\.1|localhost|\[::1\])([:/]|$)'
    if ! [[ $serve_url =~ $url_re ]]; then
        echo "handout: SERVE_URL='$serve_url' is not an http:// or https:// URL" >&2
        exit 2
    fi
    if [[ $serve_url != https://* ]] && ! [[ $serve_url =~ $local_re ]]; then
        echo "handout: warning: SERVE_URL is http:// to another host: the students' tokens would cross the network unencrypted" >&2
    fi
fi
version=$(cat VERSION)
name=primlab-handout-$version
# (a stage of its own and a rename: two runs at once, a test's and make
# grade's, never mix their files)
mkdir -p build dist
stage=$(mktemp -d build/handout.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name"
harness/kit-files.sh --handout >"$stage/files"
tar -cf - --null -T "$stage/files" | tar -xf - -C "$stage/$name"
if [ -n "$serve_url" ]; then
    printf '# the check service that make submit sends labs to (docs/student-guide.md)\nSERVE_URL=%s\n' \
        "${serve_url%/}" >"$stage/$name/serve.conf"
fi
if [ -e "$stage/$name/solutions" ]; then
    echo "handout: solutions/ would ship in the handout; stopping" >&2
    exit 1
fi
tar -czf "$stage/$name.tar.gz" -C "$stage" "$name"
mv -f "$stage/$name.tar.gz" "dist/$name.tar.gz"
echo "wrote dist/$name.tar.gz ($(tr -cd '\0' <"$stage/files" | wc -c) files, no solutions/${serve_url:+; make submit sends to $serve_url})"
mapfile -d '' -t untracked < <(harness/kit-files.sh --handout --untracked)
if [ ${#untracked[@]} -gt 0 ]; then
    echo "handout: with files git does not track (${#untracked[@]}; git add them, or .gitignore them):" \
        "$(printf '%s\n' "${untracked[@]:0:20}" | paste -sd ' ')$([ ${#untracked[@]} -le 20 ] || echo " ... and $((${#untracked[@]} - 20)) more")"
fi
