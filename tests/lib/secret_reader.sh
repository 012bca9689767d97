# tests/lib/secret_reader.sh: sourced by the check service's suites
# (tests/grading/test_serve_job.sh, test_serve_e2e.sh), which send the
# service a lab 01 file that tries to read what only the service may:
#
#   secret_reader STUB [--include] PATH...
#
# prints STUB (the lab's file) with a reader put in front: each PATH (a
# path, or a printf pattern with one %d, read for the ids 1 to 8) is read
# from a constructor, which runs without a GPU (a read that works prints
# what it read and exits with status 42), and from the host code of the
# entry points, which the tests call on a GPU (status 43); the report
# would name either status. --include: each plain PATH is also #included
# when the compiler can see it (__has_include), so that the file compiles
# when the sandbox hides them, as it must.
secret_reader() {
    local stub=$1 include=0 p
    shift
    [ "${1:-}" = --include ] && { include=1; shift; }
    printf '#include <stdio.h>\n#include <unistd.h>\n'
    if [ $include = 1 ]; then
        for p in "$@"; do
            case $p in *%d*) ;; *) printf '#if __has_include("%s")\n#include "%s"\n#endif\n' "$p" "$p" ;; esac
        done
    fi
    cat <<'EOF'
static void hx_try(const char *path, int status)
{
    char line[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        fputs(line, stdout), fputs(line, stderr);
    fflush(stdout);
    _exit(status);
}
static void hx_read_all(int status)
{
    char path[4096];
    (void)path;
EOF
    for p in "$@"; do
        case $p in
        *%d*) printf '    for (int id = 1; id <= 8; id++) {\n        snprintf(path, sizeof path, "%s", id);\n        hx_try(path, status);\n    }\n' "$p" ;;
        *) printf '    hx_try("%s", status);\n' "$p" ;;
        esac
    done
    printf '}\n__attribute__((constructor)) static void hx_ctor(void) { hx_read_all(42); }\n'
    sed 's|^    (void)d_in, (void)d_out, (void)n[,;]|    hx_read_all(43);\n&|' "$stub"
}
