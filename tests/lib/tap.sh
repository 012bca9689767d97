# tests/lib/tap.sh: sourced by the suites that print TAP lines
# (tests/unit/test_handout_figures.sh, test_lab09_tiles.sh) for their
# self-tests after the checker's own lines.
#
#   report NAME STATUS   "ok N - NAME" when STATUS is 0, else "not ok N -
#                        NAME" and fail=1; N counts on from the caller's n
report() {
    n=$((n + 1))
    if [ "$2" = 0 ]; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1"
        fail=1
    fi
}
