# harness/source-files.sh: what counts as a student's source file, for the
# scripts that pick a lab's files from a submission (harness/grade.sh) and
# stage them for the compiler (harness/stage-submission.sh). Sourced:
#   . harness/source-files.sh
#   pl_is_source NAME     a .cu, .cuh, .h, .hpp or .inl file name
pl_is_source() {
    case "$1" in *.cu | *.cuh | *.h | *.hpp | *.inl) return 0 ;; esac
    return 1
}
