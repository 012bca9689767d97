#!/usr/bin/env bash
# tests/gpu/plant.sh [build|grade|make DEST|bugs] [NAME...]: the planted bugs of
# tests/fixtures/plants/NN-lab.plants, each a copy of a lab's file with a few lines
# replaced, made as a submission (a folder laid out like labs/, IMPL=folder),
# built, and graded where the bug shows: what it must be told is asserted.
#
#   build      plant and build every copy (no GPU needed: CI); a plant whose
#              text is not found, or that does not build, fails; one planted
#              not to build must fail to build, and is graded all the same
#              (a compile error needs no GPU)
#   grade      build, then grade each case and check its diagnosis (a GPU)
#   (none)     grade with a GPU, build without one (what make test runs)
#   make DEST  only write the copies, DEST/NAME/NN-lab/file.cu, and print
#              their names (tests/bench/bench_grade_jobs.sh grades them as a class)
#   bugs       print `NAME<TAB>CODES` for each plant with a bugs line (the
#              census test grades them as a class: tests/grading/test_class_census.sh)
# NAME...: only the plants so named (stub, or 07.stub: lab 07's), those of
# the labs so named (07, or 07-segmented-spmv), or of the sets so named;
# none: every plant outside a set; K/N among them (1/2, 2/2): only the Kth
# of N shares of those plants (every Nth one, from the Kth), so that make
# test runs the plants in two suites, one on each GPU of a 2-GPU host;
# PLANT_JOBS=N builds N at a time (default: the CPUs). Prints `lab plant.case OK|FAIL
# line`, then `N passed, N failed`.
#
# A table holds plants, each opened by a line `== NAME`, then:
#   from solution|stub|FILE  the file planted: the lab's solution, its stub,
#                            or FILE (relative to tests/fixtures/plants/)
#   builds no                the copy must not compile
#   set SET                  graded only when SET is named (make
#                            test-slow runs `tests/gpu/plant.sh class`)
#   bugs CODE...             graded as a student of a class, the bug
#                            classes (harness/parent/bugs.h) its scores
#                            rows must name, or NOBUILD for a copy that
#                            does not compile
#   - TEXT                   whole lines replaced (`-` alone: an empty line);
#   + TEXT                   the lines that replace them. Each run of - lines
#                            and the + lines after it is one edit; its text
#                            must occur exactly once in the file. A plant
#                            without edits is the file as it is.
#   check ARGS               a case: `labNN check ARGS` (one test, the limit
#                            tests left out); ARGS read as shell words
#   grade [VAR=VALUE...]     a case: harness/check.sh on the copy, the whole
#                            lab, with these variables set
#   expect ERE               the case's output must have a line matching
#                            ERE: a test's reason, the report or, for grade,
#                            a scores row written `scores: KIND STATUS: NAME`
#                            and each reason and detail; @max@ is the lab's
#                            maximum for the case (its table's list)
#   reject ERE               ... and no line matching ERE
#   within SECONDS ERE       grade: the tests whose names match ERE took
#                            SECONDS at most in all
# and `#` comments. Every edit and every case of a plant must hold.
set -u
cd "$(dirname "$0")/../.." || exit 2
mode=auto dest=
case "${1:-}" in
build | grade) mode=$1; shift ;;
make) [ -n "${2:-}" ] || { echo "usage: tests/gpu/plant.sh make DEST [NAME...]" >&2; exit 2; }
    mode=make dest=$2; shift 2 ;;
bugs) mode=bugs; shift ;;
-*) echo "usage: tests/gpu/plant.sh [build|grade|make DEST|bugs] [NAME...]" >&2; exit 2 ;;
esac
share="" # K/N: the Kth of N shares of the plants chosen
names_given=()
for a in "$@"; do
    if [[ $a =~ ^[1-9][0-9]*/[1-9][0-9]*$ ]]; then share=$a; else names_given+=("$a"); fi
done
want=" ${names_given[*]} "
jobs=${PLANT_JOBS:-$(nproc 2>/dev/null || echo 2)}
t=$(mktemp -d /tmp/primlab-plants.XXXXXX) || exit 2
trap 'kill $(jobs -p) 2>/dev/null; wait; rm -rf "$t" build/impl-"${t//\//-}"-*' EXIT
pass=0 fail=0

# ------------------------------------------------------------ the tables
# Each plant becomes a folder $t/p/NN.NAME (NN: its lab) of files: lab (its
# folder), order, from, no-build, set, old.K and new.K (edit K's lines),
# cases (its case lines, in order).
parse() { # parse TABLE
    local lab line p='' k=0 side='' n=0
    lab=$(basename "$1" .plants)
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
        '== '*)
            p=$t/p/${lab%%-*}.${line#== }; k=0 side=
            [ -e "$p" ] && { echo "$1: plant '${line#== }' twice" >&2; exit 2; }
            mkdir -p "$p" && echo "$lab" >"$p/lab" && echo solution >"$p/from" && echo "$((n += 1))" >"$p/order" ;;
        '' | '#'*) side= ;;
        *) [ -n "$p" ] || { echo "$1: '$line' before the first plant" >&2; exit 2; } ;;&
        'from '*) echo "${line#from }" >"$p/from" ;;
        'builds no') touch "$p/no-build" ;;
        'set '*) echo "${line#set }" >"$p/set" ;;
        'bugs '*) echo "${line#bugs }" >"$p/bugs" ;;
        - | '- '*)
            [ "$side" = - ] || { k=$((k + 1)); : >"$p/old.$k"; : >"$p/new.$k"; }
            side=-; printf '%s\n' "${line#-}" | sed 's/^ //' >>"$p/old.$k" ;;
        + | '+ '*)
            [ "$side" = - ] || [ "$side" = + ] || { echo "$1: '$line' without lines to replace" >&2; exit 2; }
            side=+; printf '%s\n' "${line#+}" | sed 's/^ //' >>"$p/new.$k" ;;
        'check '* | check | 'grade '* | grade | 'expect '* | 'reject '* | 'within '*) side=; printf '%s\n' "$line" >>"$p/cases" ;;
        *) echo "$1: cannot read '$line'" >&2; exit 2 ;;
        esac
    done <"$1"
}
for f in tests/fixtures/plants/*.plants; do parse "$f"; done
chosen() {
    [ "$want" = "  " ] && { [ ! -e "$t/p/$1/set" ]; return; }
    [[ $want == *" $(cat "$t/p/$1/set" 2>/dev/null) "* ]] || [[ $want == *" ${1%%.*} "* ]] || [[ $want == *" ${1#*.} "* ]] || [[ $want == *" $1 "* ]] || [[ $want == *" $(cat "$t/p/$1/lab") "* ]]
}
names=$(for p in "$t"/p/*; do
    n=${p##*/}; chosen "$n" && echo "$(cat "$p/lab") $(cat "$p/order") $n"
done | sort -k1,1 -k2,2n | cut -d ' ' -f 3)
[ -n "$names" ] || { echo "tests/gpu/plant.sh: no plant, lab or set named${want% }" >&2; exit 2; }
if [ -n "$share" ]; then # every Nth plant from the Kth, so that each share holds some of every lab
    k=${share%/*} n=${share#*/}
    [ "$k" -le "$n" ] || { echo "tests/gpu/plant.sh: share $share: K is more than N" >&2; exit 2; }
    names=$(awk -v k="$k" -v n="$n" '(NR - 1) % n == k - 1' <<<"$names")
fi

# -------------------------------------------------------------- planting
labfile() { (cd "labs/$1" && ls -- *.cu); } # the lab's one student file
# The base file of plant $1, or nothing when this kit lacks it (a handout
# has no solutions/, and not the files kept for instructors).
base() {
    local lab from
    lab=$(cat "$t/p/$1/lab") from=$(cat "$t/p/$1/from")
    case "$from" in
    solution) echo "solutions/$lab/$(labfile "$lab")" ;;
    stub) echo "labs/$lab/$(labfile "$lab")" ;;
    *) echo "tests/fixtures/plants/$from" ;;
    esac
}
# plant NAME DIR: DIR/lab/file.cu, the base with every edit applied; on
# failure, why on stdout and status 1.
plant() {
    local p=$t/p/$1 src text old new k lab
    src=$(base "$1") lab=$(cat "$p/lab")
    IFS= read -r -d '' text <"$src"
    text=$'\n'$text
    for k in $(ls "$p" | sed -n 's/^old\.//p' | sort -n); do
        IFS= read -r -d '' old <"$p/old.$k"
        IFS= read -r -d '' new <"$p/new.$k"
        old=$'\n'$old new=$'\n'$new
        case "$text" in
        *"$old"*"$old"*) echo "edit $k: its text is in $src more than once: $(head -c 80 "$p/old.$k" | head -n 1)"; return 1 ;;
        *"$old"*) text=${text/"$old"/"$new"} ;;
        *) echo "edit $k: its text is not in $src (the file moved on?): $(head -n 1 "$p/old.$k" | sed 's/^ *//' | cut -c 1-80)"; return 1 ;;
        esac
    done
    mkdir -p "$2/$lab"
    printf '%s' "${text#$'\n'}" >"$2/$lab/$(labfile "$lab")"
}

if [ $mode = bugs ]; then
    for n in $names; do [ ! -f "$t/p/$n/bugs" ] || printf '%s\t%s\n' "$n" "$(cat "$t/p/$n/bugs")"; done
    exit 0
fi
if [ $mode = make ]; then
    for n in $names; do
        [ -f "$(base "$n")" ] || continue
        [ -e "$dest/${n#*.}" ] && { echo "tests/gpu/plant.sh: two plants named ${n#*.}: name the lab too" >&2; exit 2; }
        why=$(plant "$n" "$dest/${n#*.}") || { echo "plant ${n#*.}: $why" >&2; fail=1; continue; }
        echo "${n#*.}"
    done
    exit $fail
fi

# -------------------------------------------------------------- building
# The kit's own parts of each lab first (its table, the stub's lab), so
# that the plants' builds, side by side, make only their own files.
labs=$(for n in $names; do cat "$t/p/$n/lab"; done | sort -u)
kit=(build/primlab-results)
for l in $labs; do kit+=("build/tables/lab${l%%-*}" "build/labs/lab${l%%-*}" "build/labs/lab${l%%-*}-worker"); done
make -s --no-print-directory "${kit[@]}" >"$t/kit.build" 2>&1 ||
    { echo "tests/gpu/plant.sh: the kit does not build: $(grep -m 1 -i error "$t/kit.build")" >&2; exit 2; }
gpu=0
build/labs/lab${labs%%-*} info >/dev/null 2>&1 && gpu=1
[ $mode = auto ] && { [ $gpu = 1 ] && mode=grade || mode=build; }
[ $mode = grade ] && [ $gpu = 0 ] && { echo "tests/gpu/plant.sh: grading needs a GPU (build/labs/lab${labs%%-*} info fails); tests/gpu/plant.sh build only builds" >&2; exit 2; }

# The kit's own build of a stub or solution left as it is, when only
# `check` cases run it (grade cases stage a copy, as a student's).
kit_own() {
    [ ! -e "$t/p/$1/old.1" ] && ! grep -q '^grade' "$t/p/$1/cases" 2>/dev/null &&
        case $(cat "$t/p/$1/from") in stub) echo labs ;; solution) echo solutions ;; *) false ;; esac
}
bin() {
    local own
    own=$(kit_own "$1") || own=impl-${t//\//-}-$1
    echo "build/$own/lab${1%%.*}"
}
build_one() { # the copy of $1 planted and built; $t/$1.status says how (written last, whole)
    local why b st
    if [ ! -f "$(base "$1")" ]; then
        st=skip
    elif kit_own "$1" >/dev/null; then
        b=$(bin "$1")
        make -s --no-print-directory "$b" "$b-worker" >"$t/$1.build" 2>&1 && st=built ||
            st="unbuilt $(grep -m 1 'error' "$t/$1.build" | cut -c 1-160)"
    elif ! why=$(plant "$1" "$t/$1"); then
        st="FAIL  $why"
    else
        b=$(bin "$1")
        if make -s --no-print-directory IMPL="$t/$1" "$b" "$b-worker" >"$t/$1.build" 2>&1; then st=built
        else st="unbuilt $(grep -m 1 'error' "$t/$1.build" | cut -c 1-160)"; fi
    fi
    echo "$st" >"$t/$1.status.tmp" && mv "$t/$1.status.tmp" "$t/$1.status"
}
# The plants build in the background, jobs at a time, in the order they
# are graded below: grading (on the GPU) starts with the first one built.
(
    running=0
    for n in $names; do
        if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
        build_one "$n" &
        running=$((running + 1))
    done
    wait
) &
builds=$!
# built NAME: wait until NAME's build is done (its status file)
built() {
    while [ ! -e "$t/$1.status" ]; do
        kill -0 "$builds" 2>/dev/null || { [ -e "$t/$1.status" ] || echo "FAIL  its build never ended" >"$t/$1.status"; break; }
        sleep 0.2
    done
}

# --------------------------------------------------------------- grading
say() { printf 'lab%s %-22s %s\n' "${1%%.*}" "${2#*.}" "$3"; }
ok() { say "$1" "$2" "OK    $3"; pass=$((pass + 1)); }
bad() { say "$1" "$2" "FAIL  $3"; fail=$((fail + 1)); }
# run NAME ID CASELINE: the case's output in $t/ID.out
run() {
    local lab env=() args
    lab=$(cat "$t/p/$1/lab")
    case "$3" in
    check*)
        eval "args=(${3#check})"
        PRIMLAB_LIMITS=0 "$(bin "$1")" check "${args[@]}" >"$t/$2.out" 2>&1 ;;
    grade*)
        eval "env=(${3#grade})"
        local s=$SECONDS
        env "${env[@]}" PRIMLAB_LIMITS=0 CHECK_OUT="$t/out-$2" harness/check.sh "$t/$1" "${lab%%-*}" >"$t/$2.out" 2>&1
        echo $((SECONDS - s)) >"$t/$2.seconds"
        awk -F '\t' '{ print "scores: " $3 " " $5 ": " $2 }' "$t/out-$2/scores.tsv" >>"$t/$2.out" 2>/dev/null
        cut -f 10,11 "$t/out-$2/scores.tsv" 2>/dev/null | sed 's/\\n/\n/g' >>"$t/$2.out" ;;
    esac
    # the lab's maximum, for @max@: as the table lists it with the case's variables
    env "${env[@]}" PRIMLAB_LIMITS=0 "build/tables/lab${lab%%-*}" list 2>/dev/null |
        sed -n 's/^total: \([0-9.]*\) points$/\1/p' >"$t/$2.max"
}
# judge NAME ID: every expect, reject and within line of the case
judge() {
    local c=$1 id=$2 line pat max got
    max=$(cat "$t/$id.max")
    while IFS= read -r line; do
        pat=${line#* } pat=${pat//@max@/$max}
        case "$line" in
        expect*)
            got=$(grep -E -m 1 -- "$pat" "$t/$id.out")
            if [ -n "$got" ]; then ok "$c" "$id" "$(sed 's/^ *//' <<<"$got" | cut -c 1-190)"
            else bad "$c" "$id" "no line matching /$pat/: $(report "$id")"; fi ;;
        reject*)
            got=$(grep -E -m 1 -- "$pat" "$t/$id.out")
            if [ -z "$got" ]; then ok "$c" "$id" "no line matches /$pat/"
            else bad "$c" "$id" "a line matches /$pat/: $(cut -c 1-160 <<<"$got")"; fi ;;
        within*)
            local s=${pat%% *} re=${pat#* } took
            took=$(awk -F '\t' -v re="$re" '$2 ~ re { s += $8 } END { printf "%.1f", s }' "$t/out-$id/scores.tsv" 2>/dev/null)
            if [ -n "$took" ] && awk -v a="$took" -v b="$s" 'BEGIN { exit !(a <= b) }'; then
                ok "$c" "$id" "the tests matching /$re/ took $took s in all (the lab graded in $(cat "$t/$id.seconds") s)"
            else bad "$c" "$id" "the tests matching /$re/ took ${took:-?} s in all, more than $s s"; fi ;;
        esac
    done
}
report() { # the start of what a case said, for a failure
    if [ -s "$t/out-$1/scores.tsv" ]; then
        awk -F '\t' '$1 !~ /^#/ && $1 != "lab" && $5 != "OK" { print "first failing test: " $2 ": " $10; exit }' "$t/out-$1/scores.tsv" | cut -c 1-200
    else
        grep -m 2 -E 'FAIL|^    |Score|error' "$t/$1.out" | tr '\n' ' ' | cut -c 1-240
    fi
}
for n in $names; do
    built "$n"
    read -r status why <"$t/$n.status"
    case "$status" in
    skip) say "$n" "$n" "SKIP  $(base "$n") is not in this kit"; continue ;;
    FAIL) bad "$n" "$n" "$why"; continue ;;
    built) if [ -e "$t/p/$n/no-build" ]; then bad "$n" "$n" "builds, but was planted not to"; continue; fi ;;
    unbuilt) if [ ! -e "$t/p/$n/no-build" ]; then bad "$n" "$n" "does not build: $why"; continue; fi ;;
    esac
    if [ -e "$t/p/$n/no-build" ]; then
        ok "$n" "$n" "does not build, as planted" # and is graded even without a GPU
    elif [ $mode = build ]; then
        ok "$n" "$n" "built"; continue
    fi
    [ -f "$t/p/$n/cases" ] || continue
    # the case lines, split into one file per case
    awk -v d="$t/p/$n" '/^(check|grade)( |$)/ { k++ } { print > (d "/case." k) }' "$t/p/$n/cases"
    cases=$(ls "$t/p/$n" | sed -n 's/^case\.//p' | sort -n)
    for c in $cases; do
        id=$n; [ "$(wc -w <<<"$cases")" -gt 1 ] && id=$n.$c
        IFS= read -r line <"$t/p/$n/case.$c"
        run "$n" "$id" "$line"
        judge "$n" "$id" < <(tail -n +2 "$t/p/$n/case.$c")
    done
done
wait "$builds"
echo "$pass passed, $fail failed"
[ $mode = build ] && [ $gpu = 0 ] &&
    echo "SKIP: grading the planted bugs: no GPU (each was only built); not counted as graded"
[ $fail = 0 ]
