#!/usr/bin/env bash
# harness/bootstrap.sh: find or install what primlab needs.
#
#   harness/bootstrap.sh            the build, the tests and grading: nvcc, a C
#                                   compiler with OpenMP, Check, pkg-config,
#                                   python3 (grading's archive reader and the
#                                   tests' JSON parser); bubblewrap and ccache
#                                   if it can
#   harness/bootstrap.sh --plots    also gnuplot with PNG, SVG and PDF output
#   harness/bootstrap.sh --fuzz     also clang with libFuzzer (make fuzz), optional
#   harness/bootstrap.sh --slurm    also Slurm and MUNGE (slurmctld, slurmd, sbatch, srun,
#                                   munged: tests/grading/test_slurm.sh and test_serve_slurm.sh
#                                   start a one-node cluster with them), optional
#   harness/bootstrap.sh --browser  also Chromium (tests/lib/report_browser.sh opens
#                                   the HTML class report in it), optional
#
# Installs missing packages with apt-get when it can (root, or sudo without a
# password); otherwise prints the exact command and exits 1. A Check that is
# already reachable through CPATH / LIBRARY_PATH / PKG_CONFIG_PATH (unpacked
# from .deb files on a machine with no package registry) is accepted as is.
# bubblewrap (bwrap, the sandbox student code runs in) is optional: when it
# cannot be installed or cannot start here, a one-line warning says what
# that costs (make grade refuses to run) and this still exits 0; so is
# ccache (without it every build compiles everything), clang's libFuzzer, asked for with --fuzz (without it make fuzz skips),
# Slurm with --slurm (without it the Slurm test skips; make grade SLURM=1
# needs only the client commands, on a cluster's login node), and Chromium
# with --browser (without it tests/unit/test_report_browser.sh skips).
# The Makefile runs this when its stamp file is missing.
set -u

want_plots=0
want_fuzz=0
want_slurm=0
want_browser=0
for a in "$@"; do
    case "$a" in
    --plots) want_plots=1 ;;
    --fuzz) want_fuzz=1 ;;
    --slurm) want_slurm=1 ;;
    --browser) want_browser=1 ;;
    -h | --help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "bootstrap: unknown option '$a'" >&2; exit 2 ;;
    esac
done

say() { printf 'bootstrap: %s\n' "$*"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

find_nvcc() {
    if command -v nvcc >/dev/null 2>&1; then command -v nvcc; return 0; fi
    for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
        if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then echo "$d/bin/nvcc"; return 0; fi
    done
    return 1
}

check_flags() {
    if pkg-config --exists check 2>/dev/null; then
        pkg-config --cflags --libs check
    else
        echo "-lcheck -lsubunit -lm -lrt -pthread"
    fi
}

have_check() {
    cat >"$tmp/c.c" <<'C'
#include <check.h>
START_TEST(t) { ck_assert_int_eq(1, 1); }
END_TEST
int main(void) { Suite *s = suite_create("s"); TCase *tc = tcase_create("c"); tcase_add_test(tc, t);
  suite_add_tcase(s, tc); SRunner *r = srunner_create(s); srunner_set_fork_status(r, CK_NOFORK);
  srunner_run_all(r, CK_SILENT); int f = srunner_ntests_failed(r); srunner_free(r); return f; }
C
    # shellcheck disable=SC2046
    ${CC:-cc} "$tmp/c.c" -o "$tmp/c" $(check_flags) >"$tmp/c.log" 2>&1 && "$tmp/c"
}

have_openmp() {
    printf '#include <omp.h>\nint main(void){return omp_get_max_threads() < 1;}\n' >"$tmp/o.c"
    ${CC:-cc} -fopenmp "$tmp/o.c" -o "$tmp/o" >/dev/null 2>&1 && "$tmp/o"
}

# have_libfuzzer: clang builds a fuzz target with the sanitizers make fuzz uses.
have_libfuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$tmp/f.c"
    clang -fsanitize=fuzzer,address,undefined "$tmp/f.c" -o "$tmp/f" >/dev/null 2>&1
}

# sandbox_error: nothing when bwrap starts a sandbox here, else why not.
sandbox_error() {
    local err
    err=$(bwrap --ro-bind / / --unshare-all --die-with-parent true 2>&1) && return 0
    head -n 1 <<<"${err:-bwrap exited with an error}"
}

# apt_install PKG...: install packages with apt-get (as root, or with sudo
# without a password). On failure, sets why (what to run instead), returns 1.
apt_updated=0
apt_install() {
    local cmd="apt-get install -y --no-install-recommends $*" sudo=""
    if ! command -v apt-get >/dev/null 2>&1; then
        why="there is no apt-get here: install them with your package manager"
        return 1
    fi
    if [ "$(id -u)" != 0 ]; then
        if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
            why="run: sudo apt-get update && sudo $cmd"
            return 1
        fi
        sudo="sudo -n"
    fi
    say "installing $*"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086 # $sudo is empty or "sudo -n"
    if ! { { [ "$apt_updated" = 1 ] || $sudo apt-get update -qq; } &&
        $sudo apt-get install -y --no-install-recommends -qq "$@"; } >"$tmp/apt.log" 2>&1; then
        tail -n 5 "$tmp/apt.log" | sed 's/^/bootstrap:   /'
        why="apt-get could not install them (no network or registry?); run: apt-get update && $cmd"
        return 1
    fi
    apt_updated=1
}

have_gnuplot() {
    command -v gnuplot >/dev/null 2>&1 || return 1
    local terms
    terms=$(gnuplot -e 'set terminal' 2>&1)
    for t in pngcairo svg pdfcairo; do
        grep -qw "$t" <<<"$terms" || return 1
    done
}

missing_pkgs=()
problems=()

if nvcc=$(find_nvcc); then
    say "nvcc: $nvcc ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))"
else
    problems+=("nvcc not found (looked on PATH, in \$CUDA_HOME/bin, \$CUDA_PATH/bin and /usr/local/cuda/bin): install the CUDA Toolkit, or set CUDA_HOME to its folder")
fi

if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
    missing_pkgs+=(build-essential)
elif ! have_openmp; then
    problems+=("the C compiler '${CC:-cc}' cannot build OpenMP code (-fopenmp): install gcc")
fi
command -v pkg-config >/dev/null 2>&1 || missing_pkgs+=(pkg-config)
# the grader reads archives and the grading tests read JSON with Python
command -v python3 >/dev/null 2>&1 || missing_pkgs+=(python3)
if have_check; then
    say "check: found ($(check_flags))"
else
    missing_pkgs+=(check libsubunit-dev)
fi
if [ "$want_plots" = 1 ]; then
    if have_gnuplot; then
        say "gnuplot: $(gnuplot --version)"
    else
        missing_pkgs+=(gnuplot-nox)
    fi
fi

if [ ${#missing_pkgs[@]} -gt 0 ]; then
    if ! apt_install "${missing_pkgs[@]}"; then
        problems+=("missing: ${missing_pkgs[*]}; $why")
    else
        have_check || problems+=("check was installed but a test program still does not build: see 'pkg-config --libs check'")
        if [ "$want_plots" = 1 ] && ! have_gnuplot; then
            problems+=("gnuplot was installed but lacks the pngcairo, svg or pdfcairo terminal")
        fi
    fi
fi

# Optional: ccache, which keeps the kit's own objects by their content (the
# grading kit, a handout unpacked and a copy of the kit then build from it;
# the Makefile uses it when it is on PATH). Without it every build compiles.
if ! command -v ccache >/dev/null 2>&1 && ! apt_install ccache; then
    say "warning: ccache is missing ($why): every build compiles everything (the grading kit too)"
elif command -v ccache >/dev/null 2>&1; then
    say "ccache: $(command -v ccache) ($(ccache --version | head -n 1))"
fi

# Optional: SQLite and OpenSSL (SHA-256 of the tokens), for the check
# service's queue (harness/serve/, issue 55), and libmicrohttpd for the
# service itself (make serve). Without them the service and its suites
# are not built: the kit checks and grades all the same.
serve_pkgs=()
[ -f /usr/include/sqlite3.h ] || serve_pkgs+=(libsqlite3-dev)
[ -f /usr/include/openssl/evp.h ] || serve_pkgs+=(libssl-dev)
[ -f /usr/include/microhttpd.h ] || serve_pkgs+=(libmicrohttpd-dev)
if [ ${#serve_pkgs[@]} -gt 0 ] && ! apt_install "${serve_pkgs[@]}"; then
    say "warning: ${serve_pkgs[*]} missing ($why): the check service (harness/serve/, make serve) is not built nor tested"
else
    say "sqlite3, openssl, libmicrohttpd: their headers are there (the check service)"
fi

# Optional: the sandbox. Without it make check runs student code unsandboxed
# (with a warning) and make grade refuses to run.
if ! command -v bwrap >/dev/null 2>&1 && ! apt_install bubblewrap; then
    say "warning: bubblewrap (bwrap) is missing ($why): grading (make grade) will refuse to run"
elif err=$(sandbox_error) && [ -n "$err" ]; then
    say "warning: bwrap cannot start a sandbox here ($err): grading (make grade) will refuse to run"
else
    say "bwrap: $(command -v bwrap) (the sandbox starts)"
fi

# Optional, with --fuzz: clang and its libFuzzer runtime (a package of its
# own on Debian and Ubuntu, only recommended by clang).
if [ "$want_fuzz" = 1 ]; then
    why="clang is installed but cannot build -fsanitize=fuzzer"
    if have_libfuzzer || { apt_install clang libclang-rt-dev && have_libfuzzer; } ||
        { apt_install clang && have_libfuzzer; }; then
        say "clang: $(command -v clang) (builds libFuzzer targets)"
    else
        say "warning: clang with libFuzzer is missing ($why): make fuzz will skip its run"
    fi
fi

# Optional, with --slurm: a controller, a node daemon, the client commands
# and MUNGE (Slurm's authentication), as the distribution packages them.
have_slurm() {
    local c
    for c in slurmctld slurmd sbatch srun squeue scancel munged; do
        command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || return 1
    done
}
if [ "$want_slurm" = 1 ]; then
    if have_slurm || { apt_install slurmctld slurmd munge slurm-client && have_slurm; }; then
        say "slurm: $(slurmctld -V 2>/dev/null || /usr/sbin/slurmctld -V 2>/dev/null) (slurmctld, slurmd, sbatch, munged found)"
    else
        say "warning: Slurm or MUNGE is missing (${why:-installed, but a command is still not found}): tests/grading/test_slurm.sh and test_serve_slurm.sh will skip"
    fi
fi

# Optional, with --browser: Chromium, as tests/lib/report_browser.sh looks for
# it. Only the tests need it, and it is 80 MB to fetch (290 MB installed),
# so neither make nor make demo asks for it; .ci/run does.
find_browser() {
    local c
    for c in chromium chromium-browser google-chrome; do
        command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
    done
    return 1
}
if [ "$want_browser" = 1 ]; then
    why="installed, but not found on PATH"
    if browser=$(find_browser) || { apt_install chromium && browser=$(find_browser); }; then
        say "chromium: $browser ($("$browser" --version 2>/dev/null))"
    else
        say "warning: chromium is missing ($why): tests/unit/test_report_browser.sh will skip"
    fi
fi

if [ ${#problems[@]} -gt 0 ]; then
    for p in "${problems[@]}"; do echo "bootstrap: $p" >&2; done
    exit 1
fi
say "ok"
