#!/usr/bin/env bash
# tests/grading/test_new_lab.sh: docs/adding-a-lab.md's recipe, followed in a
# scratch copy of the kit: a small lab 99 ("add one": out[i] = in[i] + 1,
# one part, no vendor yardstick) made of the files the recipe lists and
# nothing else, then built, listed, its CPU reference timed, checked
# without a GPU (the stub and the solution), and its generated suites run
# (on a GPU they grade the solution; without one they say SKIP). Then the one property a lab
# as a plug-in has: no file of the kit outside the new lab's own changed,
# and every new file is one of the lab's own (git status in the copy).
#
# The copy is a git repository of its own, made from the kit's files, with
# the kit's built objects copied in (so only the new lab compiles).
# Prints one line per check and `N passed, N failed`; exits 1 on a failure.
# KEEP=1 keeps the copy and says where.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/verdict.sh
unset PRIMLAB_SEED
export PRIMLAB_LIMITS=0 PRIMLAB_NO_GPU=1
kit=$(pwd -P)
make -s --no-print-directory build/libprimlab.a build/libworker.a build/primlab-results >/dev/null ||
    { say FAIL "the kit's own parts do not build here"; finish; }
t=$(mktemp -d /tmp/primlab-newlab.XXXXXX) || exit 2
log=$(mktemp) || exit 2
trap 'rm -f "$log"; [ "${KEEP:-0}" = 1 ] && echo "kept: $t" || rm -rf "$t"' EXIT

# ---------------------------------------------------------------- the copy
harness/kit-files.sh | tar --null -T - -cf - | tar -xf - -C "$t" || { say FAIL "cannot copy the kit"; finish; }
mkdir -p "$t/build" && cp -a build/obj build/libprimlab.a build/libworker.a build/primlab-results build/.flags \
    build/.bootstrap "$t/build/" 2>/dev/null
# the copied objects newer than the copied sources: only what changes builds
find "$t/build" -type f -exec touch {} +
(cd "$t" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm kit) ||
    { say FAIL "cannot make the copy a git repository"; finish; }

# ------------------------------------------------- the recipe's files, filled in
# 1. the student's side: contract, stub, handout
mkdir -p "$t/labs/99-add-one" "$t/solutions/99-add-one"
cat >"$t/labs/99-add-one/add_one.h" <<'EOF'
/* labs/99-add-one/add_one.h: the contract of lab 99, add one.
 * add_one(d_in, d_out, n): d_out[i] = d_in[i] + 1 for 0 <= i < n, with
 * 0 <= n <= AO_MAX_N; device pointers; n = 0 writes nothing; the call is
 * asynchronous on the default stream. */
#ifndef PRIMLAB_LAB99_ADD_ONE_H
#define PRIMLAB_LAB99_ADD_ONE_H
#define AO_MAX_N (1 << 28)
#ifdef __cplusplus
extern "C" {
#endif
void add_one(const int *d_in, int *d_out, int n);
#ifdef __cplusplus
}
#endif
#endif
EOF
cat >"$t/labs/99-add-one/add_one.cu" <<'EOF'
/* labs/99-add-one/add_one.cu: lab 99's stub. */
#include "add_one.h"

extern "C" void add_one(const int *d_in, int *d_out, int n)
{
    /* TODO(lab99): launch a kernel that writes d_in[i] + 1 to d_out[i]. */
    (void)d_in, (void)d_out, (void)n;
}
EOF
printf '# Lab 99: add one\n\nWrite `add_one` (add_one.h): `out[i] = in[i] + 1`.\n' >"$t/labs/99-add-one/README.md"
# 2. the solution
cat >"$t/solutions/99-add-one/add_one.cu" <<'EOF'
/* solutions/99-add-one/add_one.cu: lab 99's solution. */
#include "add_one.h"

__global__ static void add_one_k(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1;
}

extern "C" void add_one(const int *d_in, int *d_out, int n)
{
    if (n > 0)
        add_one_k<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
}
EOF
# 3. the wire header: what both sides agree on
cat >"$t/harness/wire/lab99.h" <<'EOF'
/* harness/wire/lab99.h: the parts lab 99's two tables expand. */
#ifndef PRIMLAB_WIRE_LAB99_H
#define PRIMLAB_WIRE_LAB99_H
#include "parts.h"
#define PL_LAB99_PARTS(X) X(a)
#endif
EOF
# 4. the worker's table: the call into the contract
cat >"$t/harness/worker/labs/lab99.cu" <<'EOF'
/* harness/worker/labs/lab99.cu: lab 99's entry point as the worker calls it. */
#include "../../../labs/99-add-one/add_one.h"
#include "../../wire/lab99.h"
#include "../ops.h"

PL_OP(a_gpu, add_one(in, out, n))
static constexpr pl_op_def op_a = {"add_one", a_gpu, NULL};
static constexpr pl_op ops[] = {PL_LAB99_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, NULL)
EOF
# 5. the parent's table: the part, its reference, sizes and points
cat >"$t/harness/parent/labs/lab99.c" <<'EOF'
/* harness/parent/labs/lab99.c: lab 99's table, add one. */
#include "../../../labs/99-add-one/add_one.h"
#include "../../wire/lab99.h"
#include "../lab.h"

static void add_one_cpu(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] + 1;
}

static const pl_part part_a = {.id = "a", .title = "add one, any n", .entry = "add_one", .sizes = {.max = AO_MAX_N},
                               .points = 1, .bench = 1, .cpu = add_one_cpu};
static const pl_part *const parts[] = {PL_LAB99_PARTS(PL_PART_REF)};
static const long test_sizes[] = {0, 1, 31, 1000, 1025, 65537};
static const long bench_sizes[] = {1L << 20, 1L << 24};

static const pl_lab lab99 = {
    .id = "99", .name = "add-one", .title = "add one", .parts = parts, .nparts = 1,
    .test_sizes = test_sizes, .ntest_sizes = 6, .bench_sizes = bench_sizes, .nbench_sizes = 2,
    .sweep_lo = 10, .sweep_hi = 24, .gen_lo = -1000, .gen_hi = 1000, .bytes_per_elem = 2 * sizeof(int),
};
const pl_lab *pl_this_lab(void) { return &lab99; }
EOF

# ------------------------------------------------------------ build and run
cd "$t" || exit 2
problems=""
make -s --no-print-directory build/solutions/lab99 build/solutions/lab99-worker build/labs/lab99 \
    build/labs/lab99-worker build/tests/test_lab99 >"$log" 2>&1 || problems="; $(grep -m 3 -iE 'error|No rule' "$log" | paste -sd ' ')"
verdict "the new lab builds (student and solution binaries, workers, its suites)" "$problems" "$log"

problems=""
build/solutions/lab99 list >"$log" 2>&1 || problems="; list failed"
grep -q "^total: 6 points" "$log" || problems+="; not 'total: 6 points': $(tail -n 1 "$log")"
verdict "lab99 list reads its table: 6 tests of 1 point" "$problems" "$log"

problems=""
build/solutions/lab99 run --n 2^20 --reps 3 >"$log" 2>&1 || problems="; run failed"
grep -qE "^a +cpu_serial +1048576 " "$log" || problems+="; no cpu_serial row at n = 1048576"
verdict "its CPU rows: lab99 run times the table's serial reference" "$problems" "$log"

problems=""
build/tests/test_lab99 >"$log" 2>&1; rc=$?
grep -qE "SKIP|100%" "$log" || problems="; no SKIP or pass line (rc $rc)"
verdict "its generated suites run (without a GPU: one SKIP line)" "$problems" "$log"

problems=""
make -s --no-print-directory check LAB=99 >"$log" 2>&1
grep -q "^lab99: compiled add_one.cu$" "$log" || problems+="; no 'lab99: compiled add_one.cu'"
grep -qE "^lab99 subtotal: (0/6|none, no test ran)$" "$log" || problems+="; no 'lab99 subtotal: 0/6' (none without a GPU)"
grep -q "grading machine" "$log" && problems+="; $(grep -m 1 'grading machine' "$log")"
verdict "make check LAB=99 grades the stub (0/6; no score without a GPU)" "$problems" "$log"

problems=""
make -s --no-print-directory check LAB=99 IMPL=solutions >"$log" 2>&1
grep -qE "^lab99 subtotal: (0/6|none, no test ran)$" "$log" || problems+="; no 'lab99 subtotal: 0/6' (none without a GPU)"
verdict "make check LAB=99 IMPL=solutions runs through (no score without a GPU)" "$problems" "$log"

problems=""
make -s --no-print-directory help >"$log" 2>&1
grep -q "99-add-one" "$log" || problems="; make help does not list 99-add-one"
verdict "make help lists the new lab" "$problems" "$log"

# ------------------------------------------------- only the lab's own paths
own='^(labs/99-add-one/|solutions/99-add-one/|harness/wire/lab99\.h$|harness/worker/labs/lab99\.cu$|harness/parent/labs/lab99\.c$)'
git status --porcelain --untracked-files=all >"$log"
problems=""
changed=$(grep -v '^??' "$log")
[ -n "$changed" ] && problems+="; kit files changed: $(echo "$changed" | paste -sd ' ')"
created=$(sed -n 's/^?? //p' "$log")
stray=$(grep -vE "$own" <<<"$created")
[ -n "$stray" ] && problems+="; new files outside the lab's own: $(echo "$stray" | paste -sd ' ')"
[ "$(grep -c . <<<"$created")" = 7 ] || problems+="; $(grep -c . <<<"$created") new files, not the recipe's 7"
verdict "no kit file changed; the new files are the lab's own" "$problems" "$log"
echo "created:"
sed 's/^/  /' <<<"$created"
cd "$kit" || exit 2
finish
