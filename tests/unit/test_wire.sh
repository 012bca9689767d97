#!/usr/bin/env bash
# tests/unit/test_wire.sh: a part that one side of the trust boundary lacks is a
# compile error, not a run-time surprise (harness/wire/parts.h). Needs no GPU.
#
#   1. lab 01's worker table (harness/worker/labs/lab01.cu), copied with the
#      headers it includes into a scratch tree, compiles as it is;
#   2. the same table without op_c, the definition of a listed part, does
#      not compile, and the error names op_c;
#   3. the table as it is, with an id added to the wire list
#      (harness/wire/lab01.h) and no op for it, does not compile, and the
#      error names the missing op;
#   4. the parent's expansion, PL_PART_REF, over the same list, on a
#      minimal C table of part_<id> values written as parts.h asks of the
#      parent's tables: it compiles with every listed part defined, and
#      without part_bte the error names part_bte;
#   5. every lab's parent table tests its parts under the ids its wire list
#      spells, in the list's order (`labNN list` against PL_LABNN_PARTS):
#      the .id strings are typed by hand beside the list.
#
# The worker's cases need nvcc (skipped without it, as make test's other
# nvcc tests are); the parent's need only CC. Run by make test.
#
#   tests/unit/test_wire.sh          NVCC and CC from the environment, as make test sets them
set -u
cd "$(dirname "$0")/../.." || exit 2
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cc=${CC:-cc}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok $((pass + fail)) - $1"; }
show() { sed -n '1,8s/^/    /p' "$1"; }

# expect_error LOG NAME: an error of the compiler's log says NAME is not
# declared (nvcc: identifier "op_c" is undefined; gcc: 'part_bte'
# undeclared; clang: undeclared identifier 'part_bte'), the compilers
# speaking plain ASCII under LC_ALL=C
export LC_ALL=C
expect_error() { grep -qE "error: .*(undeclared identifier [\"']$2[\"']|[\"']$2[\"'] (is undefined|undeclared))" "$1"; }

# ---------------------------------------------------------------- worker
if [ ! -x "$nvcc" ]; then
    echo "SKIP: test_wire worker cases: nvcc not found; not counted as passed"
else
    # the kit's tree, as far as the table's includes reach
    for d in harness/worker harness/worker/labs harness/wire kernels_ref/vendor labs/01-prefix-sum; do
        mkdir -p "$t/kit/$d"
    done
    cp harness/worker/*.h "$t/kit/harness/worker/"
    cp harness/wire/*.h "$t/kit/harness/wire/"
    cp kernels_ref/vendor/*.h "$t/kit/kernels_ref/vendor/"
    cp labs/01-prefix-sum/*.h "$t/kit/labs/01-prefix-sum/"
    table=$t/kit/harness/worker/labs/lab01.cu wire=$t/kit/harness/wire/lab01.h
    compile() { "$nvcc" -std=c++17 -Xcompiler -Wall,-Wextra -c "$table" -o "$t/lab01.o" >"$1" 2>&1; }

    # 1. as it is
    cp harness/worker/labs/lab01.cu "$table"
    if compile "$t/1.log"; then
        ok "lab 01's worker table compiles in the scratch tree"
    else
        not_ok "lab 01's worker table does not compile in the scratch tree:"
        show "$t/1.log"
    fi

    # 2. a listed part without its op
    sed '/^static constexpr pl_op_def op_c = /d' harness/worker/labs/lab01.cu >"$table"
    if cmp -s harness/worker/labs/lab01.cu "$table"; then
        not_ok "op_c's definition was not found in harness/worker/labs/lab01.cu (the test is stale)"
    elif compile "$t/2.log"; then
        not_ok "the worker table without op_c compiles: a listed part can be missing on the worker's side"
    elif expect_error "$t/2.log" op_c; then
        ok "the worker table without op_c does not compile, and the error names op_c"
    else
        not_ok "the worker table without op_c fails, but the error does not name op_c:"
        show "$t/2.log"
    fi

    # 3. an id in the list that no op answers
    cp harness/worker/labs/lab01.cu "$table"
    sed 's/^#define PL_LAB01_PARTS(X) \(.*\)$/#define PL_LAB01_PARTS(X) \1 X(zz)/' harness/wire/lab01.h >"$wire"
    if cmp -s harness/wire/lab01.h "$wire"; then
        not_ok "PL_LAB01_PARTS was not found in harness/wire/lab01.h (the test is stale)"
    elif compile "$t/3.log"; then
        not_ok "the worker table compiles with part zz listed and no op_zz"
    elif expect_error "$t/3.log" op_zz; then
        ok "a part added to the wire list without its op does not compile, and the error names op_zz"
    else
        not_ok "the table with part zz listed fails, but the error does not name op_zz:"
        show "$t/3.log"
    fi
    cp harness/wire/lab01.h "$wire"
fi

# ---------------------------------------------------------------- parent
# The parent's table in miniature: part_<id> values listed by expanding
# the real wire list, as harness/parent/labs/lab01.c will list its own.
parent_table() { # parent_table ID_TO_LEAVE_OUT
    echo '#include "harness/wire/lab01.h"'
    echo 'typedef struct pl_part { const char *id; } pl_part;'
    for id in $(sed -n 's/^#define PL_LAB01_PARTS(X) //p' harness/wire/lab01.h | grep -o 'X([a-z0-9_]*)' | tr -d 'X()'); do
        [ "$id" = "$1" ] || echo "static const pl_part part_$id = {\"$id\"};"
    done
    echo 'static const pl_part *const parts[] = {PL_LAB01_PARTS(PL_PART_REF)};'
    echo 'const char *part_id(int k) { return k < (int)(sizeof parts / sizeof parts[0]) ? parts[k]->id : 0; }'
}
parent_table none >"$t/parent.c"
if ! grep -q 'part_bte = ' "$t/parent.c"; then
    not_ok "part bte is not in PL_LAB01_PARTS of harness/wire/lab01.h (the test is stale)"
elif "$cc" -std=c11 -Wall -Wextra -Werror -I. -c "$t/parent.c" -o "$t/parent.o" >"$t/4.log" 2>&1; then
    ok "a C table of part_<id> values, listed by PL_LAB01_PARTS(PL_PART_REF), compiles"
else
    not_ok "a C table of part_<id> values, listed by PL_LAB01_PARTS(PL_PART_REF), does not compile:"
    show "$t/4.log"
fi
parent_table bte >"$t/parent.c"
if "$cc" -std=c11 -Wall -Wextra -I. -c "$t/parent.c" -o "$t/parent.o" >"$t/5.log" 2>&1; then
    not_ok "the C table without part_bte compiles: a listed part can be missing on the parent's side"
elif expect_error "$t/5.log" part_bte; then
    ok "the C table without part_bte does not compile, and the error names part_bte"
else
    not_ok "the C table without part_bte fails, but the error does not name part_bte:"
    show "$t/5.log"
fi

# 6. Each lab's parent table names its parts (.id, typed by hand) as its
#    wire list spells them, in its order: the ids `labNN list` shows, by
#    first appearance, against the X(...) of PL_LABNN_PARTS.
for h in harness/wire/lab[0-9][0-9].h; do
    id=$(basename "$h" .h) id=${id#lab}
    bin=build/tables/lab$id
    if [ ! -x "$bin" ]; then
        echo "skip: lab$id's ids: no $bin (make builds it); not counted"
        continue
    fi
    want=$(sed -n "s/^#define PL_LAB${id}_PARTS(X) *//p" "$h" | grep -o 'X([a-z0-9_]*)' | sed 's/^X(//; s/)$//' | paste -sd ' ')
    got=$("$bin" list 2>/dev/null | awk -v p="$id." 'index($1, p) == 1 { s = substr($1, length(p) + 1); if (!seen[s]++) print s }' | paste -sd ' ')
    if [ -n "$want" ] && [ "$want" = "$got" ]; then
        ok "lab$id's parent table lists the wire header's parts by their ids, in order ($want)"
    else
        not_ok "lab$id: the wire header lists '$want', the parent's table tests '$got'"
    fi
done

echo "wire: $pass passed, $fail failed"
[ $fail = 0 ]
