#!/usr/bin/env bash
# tests/unit/test_handout_untracked.sh: make handout (harness/handout.sh,
# harness/kit-files.sh) in a git checkout ships a lab's file that git does
# not track yet, and says so, but never a file git ignores, nor solutions/.
# In a small git repository of its own (the scripts, one lab, its
# solution), committed, then: an untracked header in the lab, an ignored
# object file beside it, an untracked draft in solutions/. Checks the
# tarball, the line naming the untracked file, and that the kit's version
# (harness/record.sh, which the record keeps) follows the untracked file;
# then a tracked file deleted (the last git lists): made without it.
# Seconds, no build, no GPU. Prints one line per check, then the counts.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh # say, verdict, finish
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
k=$t/kit
mkdir -p "$k/harness" "$k/labs/01-prefix-sum" "$k/solutions/01-prefix-sum"
cp VERSION .gitignore "$k/" && cp harness/handout.sh harness/kit-files.sh harness/record.sh "$k/harness/" &&
    cp labs/01-prefix-sum/*.h labs/01-prefix-sum/*.cu "$k/labs/01-prefix-sum/" &&
    cp labs/01-prefix-sum/*.cu "$k/solutions/01-prefix-sum/" || { say FAIL "copy the kit's files"; finish; }
# (the scratch kit's solution is lab 01's stub: its content does not matter,
# and a handout, which runs this test too, has no solutions/)
git -C "$k" init -q && git -C "$k" add -A &&
    git -C "$k" -c user.name=test -c user.email=test@localhost commit -q -m kit || { say FAIL "git commit"; finish; }
version() { (cd "$k" && . harness/record.sh && kit_version); }
before=$(version)
echo '/* a helper the stub will include */' >"$k/labs/01-prefix-sum/scan_helpers.cuh"
echo 'object' >"$k/labs/01-prefix-sum/scratch.o"
echo '/* the instructor draft */' >"$k/solutions/01-prefix-sum/draft.cu"
(cd "$k" && harness/handout.sh) >"$t/handout.out" 2>&1
rc=$?
name=primlab-handout-$(cat VERSION)
tar -tzf "$k/dist/$name.tar.gz" 2>/dev/null | sed "s|^$name/||" >"$t/files"

p=""
[ $rc = 0 ] || p="; status $rc"
grep -qx 'labs/01-prefix-sum/scan_helpers.cuh' "$t/files" || p+="; the untracked header is not in the tarball"
grep -qx 'labs/01-prefix-sum/prefix_sum.cu' "$t/files" || p+="; the tracked stub is not in the tarball"
verdict "make handout ships the lab's untracked file" "$p" "$t/handout.out"
p=""
grep -q 'scratch.o' "$t/files" && p+="; the ignored scratch.o shipped"
grep -q '^solutions' "$t/files" && p+="; solutions/ shipped: $(grep -m 1 '^solutions' "$t/files")"
verdict "... never a file git ignores, nor an untracked file of solutions/" "$p" "$t/handout.out"
grep -qx 'handout: with files git does not track (1; git add them, or .gitignore them): labs/01-prefix-sum/scan_helpers.cuh' \
    "$t/handout.out"
verdict "... and names it, in one line" "$([ $? = 0 ] || echo "; $(grep -v '^wrote' "$t/handout.out" | head -n 2 | paste -sd ' ')")" \
    "$t/handout.out"
after=$(version)
echo '/* changed */' >>"$k/labs/01-prefix-sum/scan_helpers.cuh"
changed=$(version)
p=""
[ "$before" != "$after" ] || p="; the kit's version ignores the untracked file ($before)"
[ "$after" != "$changed" ] || p+="; the kit's version ignores a change of the untracked file"
verdict "the kit's version (the record's) follows the untracked file" "$p"
# A tracked file deleted and not yet committed, the last of git's list
# (zz...): the handout is still made, without it (kit-files.sh once failed
# when the last file it read was gone, and make grade with it)
echo '/* last */' >"$k/zz-last.txt" && git -C "$k" add zz-last.txt &&
    git -C "$k" -c user.name=test -c user.email=test@localhost commit -q -m last && rm "$k/zz-last.txt"
(cd "$k" && harness/handout.sh) >"$t/handout2.out" 2>&1
rc=$?
p=""
[ $rc = 0 ] || p="; status $rc"
tar -tzf "$k/dist/$name.tar.gz" 2>/dev/null | grep -q 'zz-last' && p+="; the deleted file is in the tarball"
verdict "a tracked file deleted, last in git's list: the handout is made without it" "$p" "$t/handout2.out"
finish
