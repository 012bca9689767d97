# harness/assignment.sh: the labs an assignment is made of (make check
# LABS="01 02", make grade LAB=01). Sourced by harness/check.sh,
# harness/grade.sh and harness/grade-student.sh, from the kit's root.
#
#   assignment_ids LIST...   LIST: lab ids (01, 1, or the lab's folder,
#                            01-prefix-sum), spaces or commas between;
#                            nothing: every lab of the kit. Prints the ids
#                            comma-separated, each once, in the kit's order
#                            (01,02: what the record keeps); for an id that
#                            is no lab of the kit, one line naming the labs
#                            there are instead, and status 2.

# assignment_ids LIST...: see above
assignment_ids() {
    local all=() want=() w id hit pick=()
    mapfile -t all < <("$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lab-dirs.sh" | sed 's|^labs/||; s|/$||')
    read -r -a want <<<"$(printf '%s ' "$@" | tr ',' ' ')"
    for w in "${want[@]}"; do
        hit=""
        for id in "${all[@]}"; do
            [ "$w" = "${id%%-*}" ] || [ "$w" = "$id" ] || [ "0$w" = "${id%%-*}" ] && hit=${id%%-*}
        done
        if [ -z "$hit" ]; then
            echo "no lab '$w' in this kit (labs: $(printf '%s\n' "${all[@]}" | sed 's/-.*//' | paste -sd ' '))"
            return 2
        fi
        pick+=("$hit")
    done
    for id in "${all[@]}"; do
        id=${id%%-*}
        if [ ${#want[@]} = 0 ]; then echo "$id"; continue; fi
        for w in "${pick[@]}"; do [ "$w" = "$id" ] && { echo "$id"; break; }; done
    done | paste -sd ,
}
