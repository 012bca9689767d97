#!/usr/bin/env bash
# tests/test_planted08.sh: lab 08's planted bugs, each the solution with a
# few lines changed (perl), built as a submission and checked on the parts
# and inputs where the bug shows; each must be named in its diagnosis:
#   fence      the status split into two words (flag in one, value in
#              another 512 bytes away), the flag stored first and no fence
#              on either side: part bs, the stress test, must find a run
#              that read a flag before its value
#   fenced     the same two words written value, __threadfence(), flag and
#              read flag, __threadfence(), value: the control, part bs must
#              pass (so what the stress test finds in `fence` is the order,
#              not the layout)
#   blockidx   tile ids from blockIdx.x, not the counter: part bs names it
#   stopfirst  the look-back takes the nearest tile's value, aggregate or
#              not, and stops: part b names it
# and the untouched stub must say "not implemented yet" on every part.
# Prints `name OK|FAIL line`, then `N passed, N failed`; needs a GPU
# (without one it says SKIP). STRESS_N=N picks part bs's size (default
# 2^22 + 5, its largest); PLANT_ONLY=1 only plants and builds (no GPU needed).
set -u
cd "$(dirname "$0")/.." || exit 2
sol=solutions/08-single-pass-scan/single_pass_scan.cu
[ -f "$sol" ] || { echo "SKIP: planted bugs of lab 08: no solution here; not counted as passed"; exit 0; }
make -s --no-print-directory build/solutions/lab08 >/dev/null 2>&1 || { echo "test_planted08: make failed" >&2; exit 2; }
if [ "${PLANT_ONLY:-0}" != 1 ] && ! build/solutions/lab08 info >/dev/null 2>&1; then
    echo "SKIP: planted bugs of lab 08: no GPU; not counted as passed"
    exit 0
fi
t=$(mktemp -d /tmp/primlab-planted08.XXXXXX) || exit 2
trap 'rm -rf "$t" build/impl-*primlab-planted08.*' EXIT
pass=0 fail=0
stress_n=${STRESS_N:-4194309}

. tests/lib_planted.sh # plant, expect

# The status word of part b split in three 32-bit slots: tile t's flag in
# the high half of word t, its inclusive prefix in the low half, and its
# aggregate in the low half of word tiles + t (gridDim.x is the tile count;
# the scratch has room for it). An aggregate and a prefix need slots of
# their own: a tile publishes twice, and a reader that saw the flag A could
# otherwise read the prefix written after it. Volatile, so that each access
# is one load or store. "fence" stores the flag first and reads without a
# fence; "fenced", the control, stores the value, fences, stores the flag,
# and reads the flag, fences, reads the value: it must pass the stress part,
# so that fence's failure is the order's, not the layout's.
split='volatile unsigned *f = (volatile unsigned *)&status[t] + 1, *vp = (volatile unsigned *)&status[t], *va = (volatile unsigned *)&status[gridDim.x + t];'
publish_from='status_ref\(status\[t\]\)\.store\(pack\(flag, value\), cuda::memory_order_relaxed\);'
peek_from='return status_ref\(status\[t\]\)\.load\(cuda::memory_order_relaxed\);'
if plant fence "s/$publish_from/$split *f = flag; *(flag == ST_P ? vp : va) = value;/; s/$peek_from/$split unsigned fl = *f; unsigned v = fl == ST_P ? *vp : *va; return pack(fl, v);/"; then
    expect fence 'wrong in [0-9]+ of [0-9]+ runs under load' "$bin" --part bs --n "$stress_n"
fi
if plant fenced "s/$publish_from/$split *(flag == ST_P ? vp : va) = value; __threadfence(); *f = flag;/; s/$peek_from/$split unsigned fl = *f; __threadfence(); unsigned v = fl == ST_P ? *vp : *va; return pack(fl, v);/"; then
    expect fenced '^Score: ([0-9.]+)/\1$' "$bin" --part bs --n "$stress_n"
fi
if plant blockidx 's/\*slot = \(int\)atomicAdd\(counter, 1u\);/*slot = (int)blockIdx.x;/'; then
    expect blockidx 'tile counter still 0 after the call.*blockIdx' "$bin" --part bs --n 65537
fi
if plant stopfirst 's/unsigned needed = p_lanes \? [^;]*;/unsigned needed = 1u; p_lanes = 1u;/'; then
    expect stopfirst 'look-back stopped at the first aggregate' "$bin" --part b --n 4194307
fi
make -s --no-print-directory build/labs/lab08 build/labs/lab08-worker >/dev/null 2>&1
for p in a b bs c ci cf cfi; do
    n=1000; [ $p = bs ] && n=65537
    expect "stub.$p" 'not implemented yet' build/labs/lab08 --part "$p" --n $n
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
