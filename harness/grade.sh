#!/usr/bin/env bash
# harness/grade.sh SUBMISSIONS [OUT]: grade a class. Called by `make grade`.
#
# Each entry of SUBMISSIONS is one student: a folder, a .tar.gz (.tgz) or a
# .zip, named after the student. Only each lab's student file (e.g.
# prefix_sum.cu) is taken from a submission, into a fresh folder laid out
# like labs/, and graded against this kit's pristine harness and headers;
# every other file is ignored and listed as ignored in that student's
# feedback. A student whose code does not compile, crashes or hangs costs
# only that student (each test is isolated; the whole student is also
# stopped after GRADE_TIMEOUT seconds).
#
# Writes OUT/<student>/{results.json, report.txt, scores.tsv} and
# OUT/gradebook.csv (student, a score per lab, total), each atomically. A
# rerun skips students who already have a results.json, unless FORCE=1.
set -u
subs=${1:-}
out=${2:-build/grades}
force=${FORCE:-0}
limit=${GRADE_TIMEOUT:-1800}
if [ -z "$subs" ] || [ ! -d "$subs" ]; then
    echo "grade: no submissions folder '${subs}' (make grade SUBMISSIONS=dir)" >&2
    exit 2
fi
make -s --no-print-directory build/primlab-results >/dev/null || exit 2
mkdir -p "$out"

labs=()
ids=()
for dir in labs/[0-9][0-9]-*/; do
    labs+=("$(basename "$dir")")
    ids+=("$(basename "$dir" | cut -d- -f1)")
done

# unpack ENTRY DEST: 0 on success
unpack() {
    case "$1" in
    *.tar.gz | *.tgz) tar -xzf "$1" -C "$2" --no-same-owner --no-same-permissions ;;
    *.zip)
        command -v unzip >/dev/null 2>&1 || { echo "unzip is not installed (apt-get install unzip)"; return 1; }
        unzip -q -o "$1" -d "$2" ;;
    *) [ -d "$1" ] && cp -R "$1/." "$2/" ;;
    esac
}

graded=0 skipped=0
for entry in "$subs"/*; do
    [ -e "$entry" ] || continue
    name=$(basename "$entry")
    name=${name%.tar.gz}
    name=${name%.tgz}
    name=${name%.zip}
    name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
    dest=$out/$name
    if [ -f "$dest/results.json" ] && [ "$force" != 1 ]; then
        echo "== $name: already graded, skipped (FORCE=1 regrades)"
        skipped=$((skipped + 1))
        continue
    fi
    work=build/grade/$name
    rm -rf "$work" && mkdir -p "$work/src" "$work/labs" "$work/out"
    feedback=$work/feedback.txt
    : >"$feedback"
    if ! msg=$(unpack "$entry" "$work/src" 2>&1); then
        echo "could not unpack $(basename "$entry"): ${msg:-not a folder, .tar.gz or .zip}" >>"$feedback"
    fi

    # Take each lab's student file; everything else is ignored.
    taken=()
    for lab in "${labs[@]}"; do
        f=$(cd "labs/$lab" && ls -- *.cu)
        mapfile -t found < <(cd "$work/src" && find . -type f -name "$f" | sed 's|^\./||' | sort)
        pick=""
        for p in "${found[@]}"; do
            case "$p" in */"$lab/$f" | "$lab/$f") pick=$p ;; esac
        done
        [ -z "$pick" ] && [ ${#found[@]} -gt 0 ] && pick=${found[0]}
        [ ${#found[@]} -gt 1 ] && echo "several files named $f; graded $pick" >>"$feedback"
        if [ -n "$pick" ]; then
            mkdir -p "$work/labs/$lab"
            cp "$work/src/$pick" "$work/labs/$lab/$f"
            taken+=("$pick")
        fi
    done
    {
        echo "graded: ${taken[*]:-(no lab file found)}"
        ignored=$(cd "$work/src" && find . -type f | sed 's|^\./||' | sort |
            { grep -vxF -f <(printf '%s\n' "${taken[@]}" "") || true; })
        if [ -n "$ignored" ]; then
            echo "ignored (only the lab files are graded):"
            printf '%s\n' "$ignored" | sed 's/^/  /'
        fi
    } >>"$feedback"

    echo "== $name"
    timeout --kill-after=10 "$limit" env CHECK_OUT="$work/out" CHECK_EXTRA="$feedback" \
        harness/check.sh "$work/labs" >"$work/out/report.txt" 2>&1
    rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then
        echo "grading stopped after $limit s (GRADE_TIMEOUT): the tests not reached score 0" >>"$feedback"
    fi
    # results.json from the scores (again, if check.sh was stopped before it)
    build/primlab-results "$work/out/scores.tsv" --labs "$(IFS=,; echo "${ids[*]}")" \
        --json "$work/out/results.json" --extra "$feedback" >"$work/out/score.txt"
    sed 's/^/   /' "$feedback"
    grep -A 3 -E '^lab[0-9]+: (does not compile|.* is missing)' "$work/out/report.txt" | sed 's/^/   /'
    grep -E 'subtotal' "$work/out/report.txt" | sed 's/^/   /'
    sed 's/^/   /' "$work/out/score.txt"
    mkdir -p "$dest"
    for f in report.txt scores.tsv; do
        cp "$work/out/$f" "$dest/$f.tmp" && mv "$dest/$f.tmp" "$dest/$f"
    done
    cp "$work/out/results.json" "$dest/results.json.tmp" && mv "$dest/results.json.tmp" "$dest/results.json"
    graded=$((graded + 1))
done

# The gradebook, from every graded student's scores, written atomically.
book=$out/gradebook.csv
{
    echo "student,$(printf 'lab%s,' "${ids[@]}")total"
    for d in "$out"/*/; do
        [ -f "$d/scores.tsv" ] || continue
        build/primlab-results "$d/scores.tsv" --labs "$(IFS=,; echo "${ids[*]}")" --csv-row "$(basename "$d")" || true
    done
} >"$book.tmp" && mv "$book.tmp" "$book"
echo "graded $graded, skipped $skipped; gradebook: $book"
