#!/usr/bin/env bash
# harness/kit-hidden.sh SRC: the folders of kit SRC that student code
# graded in a copy of it (make grade's build/grade-kit) must not see, one a
# line: SRC itself (solutions/, its builds, dist/) and its git history
# when that lies outside SRC (a worktree's common folder). The sandboxes
# bind back only what they need of the copy. Used by harness/grade.sh
# (hidden_paths) and harness/serve/run-job.sh, for PRIMLAB_SANDBOX_HIDE.
set -u
[ $# = 1 ] || { echo "usage: harness/kit-hidden.sh SRC" >&2; exit 2; }
echo "$1"
git_dir=$(git -C "$1" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || exit 0
case "$git_dir/" in "$1"/*) ;; *) echo "$git_dir" ;; esac
