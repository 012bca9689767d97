# tests/lib/verdict.sh: the counted verdict lines of the shell tests that
# grade (test_infra, test_grade_jobs, test_slurm). Sourced, not run:
#   . tests/lib/verdict.sh
#   say OK|FAIL|SKIP NAME [WHY]       one line, counted
#   verdict NAME PROBLEMS [LOG]       OK when PROBLEMS ("; a; b") is empty, else
#                                     FAIL with them and the last lines of LOG
#   finish                            the counts; exits 0 only without a FAIL
#   has_gpu                           whether the kit's lab binary sees a GPU
#                                     here, whatever PRIMLAB_NO_GPU says (the
#                                     tests set it for their dry runs)
pass=0 fail=0 skip=0
say() {
    printf '%-4s  %s%s\n' "$1" "$2" "${3:+: $3}"
    case "$1" in OK) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; SKIP) skip=$((skip + 1)) ;; esac
}
verdict() {
    if [ -z "$2" ]; then say OK "$1"; return; fi
    say FAIL "$1" "${2#; }"
    [ -z "${3:-}" ] || tail -n 8 "$3" | sed 's/^/      /'
}
finish() {
    echo "$pass passed, $fail failed, $skip skipped"
    [ $fail = 0 ]
    exit
}
has_gpu() {
    env -u PRIMLAB_NO_GPU build/labs/lab01 info >/dev/null 2>&1
}
