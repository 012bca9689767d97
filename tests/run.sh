#!/usr/bin/env bash
# tests/run.sh: the test runner of make test and make test-<tier>
# (tests/README.md says which tier is which).
#
#   tests/run.sh [--run NAME] [--jobs N] TIER:SUITE[:ARG]...
#
# Runs every SUITE (a Check binary under build/tests/, a script under
# tests/<tier>/; ARG, if any, is its one argument), N at a time (default:
# this machine's CPUs, at least 2), the longest first by its seconds the
# last time a run NAME ran it (NAME.seconds.tsv; else as given). A suite of the gpu tier
# runs on a GPU of its own when there are GPUs (CUDA_VISIBLE_DEVICES): no
# other gpu suite runs on it meanwhile (they would disturb each other's
# timings, and processes sharing a GPU take turns: four lab suites side by
# side on an H200 took longer than one after another), and the other
# suites run at a lower priority (nice 10) with OpenMP teams of 4 that
# sleep when they wait, since the gpu suites' lane is the longest. Without a GPU the gpu tier's suites say what they skip and
# run like the rest.
# The suites find python3 first on PATH as the interpreter it names here,
# not a version manager's shim (below).
# Each suite's output goes to build/test-logs/NAME/<suite>.log; a line is
# printed as each one ends. Exit status 77 is a skip (the suite says why),
# any other but 0 a failure.
#
# At the end: the log of every failing suite (its last 150 lines), the
# time table (each suite's seconds, its start and end in the run and its
# slot, so that what ran beside what shows; sorted, the slowest first),
# the wall time and the seconds of all suites, also as data in
# build/test-logs/NAME.times.tsv; then the run's budget (tests/budget,
# tests/budget.sh): over it, a warning naming the three slowest suites;
# over twice, a failure. NAME (default: test) names the budget's line.
#
# Exit status: 0 when every suite passed or skipped and the budget held
# (within twice), 1 otherwise, 2 for a usage error.
set -u
cd "$(dirname "$0")/.." || exit 2

run=test jobs=""
while [ $# -gt 0 ]; do
    case "$1" in
    --run) run=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,31p' "$0"; exit 0 ;;
    -*) echo "tests/run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "tests/run.sh: no suite to run (TIER:SUITE...)" >&2; exit 2; }
case "$jobs" in
"") jobs=$(nproc 2>/dev/null || echo 2); [ "$jobs" -ge 2 ] || jobs=2 ;;
*[!0-9]* | 0) echo "tests/run.sh: --jobs '$jobs' is not a number of suites at a time" >&2; exit 2 ;;
esac

logs=build/test-logs/$run
times=build/test-logs/$run.times.tsv
# each suite's seconds when it last ran in a run NAME, whatever else ran
# with it: the order of the next run (a run of a few suites, SUITES=...,
# leaves the others' seconds as they were)
seconds=build/test-logs/$run.seconds.tsv
rm -rf "$logs" && mkdir -p "$logs" || exit 2

# python3 as the suites' commands find it, resolved once: where python3 is
# a version manager's shim (pyenv's: a shell script that looks the
# interpreter up on every call, 60 ms of CPU each), a link to the
# interpreter it picks goes first on PATH. The suites call python3 some
# thousands of times (make grade: several calls a student), a fifth of
# the grading suites' CPU time through the shim.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && [ "$(command -v python3)" != "$py" ]; then
    mkdir -p "$logs/.bin" && ln -s "$py" "$logs/.bin/python3" && export PATH=$PWD/$logs/.bin:$PATH
fi

# the GPUs a gpu suite may take, each once; none without a GPU the kit sees
gpus=()
if command -v nvidia-smi >/dev/null 2>&1 && [ -z "${PRIMLAB_NO_GPU:-}" ]; then
    mapfile -t gpus < <(timeout 60 nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null |
        tr -d ' ' | grep -E '^[0-9]+$')
fi

# ---------------------------------------------------------------- suites
tier=() path=() arg=() name=() order=()
declare -A last=()
if [ -f "$seconds" ]; then
    while IFS=$'\t' read -r s secs; do last[$s]=$secs; done <"$seconds"
elif [ -f "$times" ]; then
    while IFS=$'\t' read -r s _ secs _; do last[$s]=$secs; done < <(tail -n +2 "$times")
fi
for spec in "$@"; do
    IFS=: read -r t p a <<<"$spec"
    case "$t" in unit | gpu | grading | slow) ;; *) echo "tests/run.sh: '$spec': no tier '$t'" >&2; exit 2 ;; esac
    [ -x "$p" ] || { echo "tests/run.sh: '$spec': '$p' is not an executable file (make builds the suites)" >&2; exit 2; }
    n=$p${a:+ $a}
    tier+=("$t") path+=("$p") arg+=("$a") name+=("$n")
done
# the longest first (a suite new to this run: as if the longest), then as given
mapfile -t order < <(for i in "${!name[@]}"; do printf '%s\t%s\n' "${last[${name[i]}]:-1e9}" "$i"; done |
    sort -t $'\t' -k1,1gr -k2,2n -s | cut -f 2)

logfile() { printf '%s/%s.log' "$logs" "$(printf '%s' "${name[$1]}" | tr -c 'A-Za-z0-9._-' '_')"; }
now() { date +%s.%N; }
t0=$(now)
since() { awk -v a="$t0" -v b="$1" 'BEGIN { printf "%.1f", b - a }'; }

echo "$run: ${#name[@]} suites, $jobs at a time ($(nproc 2>/dev/null || echo '?') CPUs, $(
    [ ${#gpus[@]} = 0 ] && echo "no GPU" || echo "GPU ${gpus[*]}")); logs in $logs/"

# ---------------------------------------------------------------- running
declare -A pid_of=() slot_of=() gpu_of=() start=() end=() result=()
free_slots=()
for ((k = 1; k <= jobs; k++)); do free_slots+=("$k"); done
declare -A busy=() # the GPUs a suite has
queue=("${order[@]}")

# gpu_for I: the free GPU suite I may start on, or nothing
gpu_for() {
    local g
    for g in "${gpus[@]}"; do [ -n "${busy[$g]:-}" ] || { echo "$g"; return; }; done
}

launch() { # launch I [GPU]: start suite I in a free slot (on GPU)
    local i=$1 g=${2:-} s
    s=${free_slots[0]}
    free_slots=("${free_slots[@]:1}")
    [ -z "$g" ] || busy[$g]=$i
    start[$i]=$(now) slot_of[$i]=$s gpu_of[$i]=$g
    (
        [ -z "$g" ] || export CUDA_VISIBLE_DEVICES=$g CUDA_DEVICE_ORDER=PCI_BUS_ID
        # with GPUs, the gpu suites are the run's longest lane: the others
        # give them the CPUs first (their references are on the CPU), and
        # run OpenMP teams of 4 that sleep when they wait, not 16 that spin
        if [ ${#gpus[@]} -gt 0 ] && [ "${tier[i]}" != gpu ]; then
            export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
            exec nice -n 10 "${path[i]}" ${arg[i]:+"${arg[i]}"}
        fi
        exec "${path[i]}" ${arg[i]:+"${arg[i]}"}
    ) </dev/null >"$(logfile "$i")" 2>&1 &
    pid_of[$i]=$!
}

# startable: the first suite of the queue that can start now and the GPU
# it takes ("I GPU"), or nothing
startable() {
    local q g
    [ ${#free_slots[@]} -gt 0 ] || return 0
    for q in "${queue[@]}"; do
        g=""
        if [ "${tier[q]}" = gpu ] && [ ${#gpus[@]} -gt 0 ]; then
            g=$(gpu_for "$q")
            [ -n "$g" ] || continue
        fi
        echo "$q $g"
        return 0
    done
}

pass=0 fail=0 skip=0
while [ ${#queue[@]} -gt 0 ] || [ ${#pid_of[@]} -gt 0 ]; do
    while next=$(startable) && [ -n "$next" ]; do
        read -r i g <<<"$next"
        launch "$i" "$g"
        rest=()
        for q in "${queue[@]}"; do [ "$q" = "$i" ] || rest+=("$q"); done
        queue=("${rest[@]}")
    done
    sleep 0.2
    for i in "${!pid_of[@]}"; do
        kill -0 "${pid_of[$i]}" 2>/dev/null && continue
        wait "${pid_of[$i]}"
        rc=$?
        end[$i]=$(now)
        unset "pid_of[$i]"
        free_slots+=("${slot_of[$i]}")
        [ -z "${gpu_of[$i]}" ] || unset "busy[${gpu_of[$i]}]"
        case $rc in
        0) result[$i]=ok; pass=$((pass + 1)) ;;
        77) result[$i]=skip; skip=$((skip + 1)) ;;
        *) result[$i]=FAIL; fail=$((fail + 1)) ;;
        esac
        printf '%-4s %7.1f s  %-7s %s\n' "${result[$i]}" "$(awk -v a="${start[$i]}" -v b="${end[$i]}" \
            'BEGIN { print b - a }')" "${tier[i]}" "${name[i]}$([ "${result[$i]}" = FAIL ] && echo " (exit $rc)")"
    done
done
wall=$(since "$(now)")

# ---------------------------------------------------------------- results
for i in "${!name[@]}"; do
    [ "${result[$i]}" = FAIL ] || continue
    echo
    echo "==== FAIL ${name[i]}: its log ($(logfile "$i")$([ "$(wc -l <"$(logfile "$i")")" -le 150 ] || echo ", the last 150 lines"))"
    tail -n 150 "$(logfile "$i")"
done

# the table, as data: suite, tier, seconds, start, end, slot, result, SKIP lines
{
    printf 'suite\ttier\tseconds\tstart\tend\tslot\tresult\tskip_lines\n'
    for i in "${!name[@]}"; do
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${name[i]}" "${tier[i]}" \
            "$(awk -v a="${start[$i]}" -v b="${end[$i]}" 'BEGIN { printf "%.1f", b - a }')" \
            "$(since "${start[$i]}")" "$(since "${end[$i]}")" "${slot_of[$i]}${gpu_of[$i]:+/GPU ${gpu_of[$i]}}" \
            "${result[$i]}" "$(grep -c '^SKIP' "$(logfile "$i")")"
    done | sort -t $'\t' -k3,3gr
} >"$times.tmp" && mv "$times.tmp" "$times"
for i in "${!name[@]}"; do last[${name[i]}]=$(awk -v a="${start[$i]}" -v b="${end[$i]}" 'BEGIN { printf "%.1f", b - a }'); done
for s in "${!last[@]}"; do printf '%s\t%s\n' "$s" "${last[$s]}"; done >"$seconds.tmp" && mv "$seconds.tmp" "$seconds"

echo
echo "$run: where the time went ($wall s of wall time; slot: which of the $jobs ran it)"
awk -F '\t' 'NR == 1 { printf "  %7s %7s %7s  %-8s %-7s %-5s %s\n", "seconds", "start", "end", "slot", "tier", "result", "suite"; next }
    { sum += $3; printf "  %7.1f %7.1f %7.1f  %-8s %-7s %-5s %s%s\n", $3, $4, $5, $6, $2, $7, $1,
        ($8 > 0 ? " (" $8 " SKIP line" ($8 > 1 ? "s" : "") ")" : "") }
    END { printf "  %7.1f seconds of suites in %s s of wall time\n", sum, w }' w="$wall" "$times"
echo "$run: $pass passed, $fail failed, $skip skipped"

tests/budget.sh "$run" "$wall" "$times"
budget=$?
[ $fail = 0 ] && [ $budget != 1 ]
