#!/usr/bin/env python3
"""tests/unit/lab09_tiles.py: check what lab 09's handout says about the
solution's tiles against the solution's constants, the lab's test sizes
and the committed data. Driven by tests/unit/test_lab09_tiles.sh; Python 3
standard library only, and tests/unit/handout_figures.py for the data.

THE SOLUTION'S TILES, read from solutions/09-onesweep-sort/onesweep_sort.cu:
parts b, c and cs take THREADS x ITEMS keys a tile; part d the same up to
SORT_SHORT_TILES_UP_TO keys and SORT_THREADS x SORT_ITEMS above; part dp
PAIR_THREADS x PAIR_ITEMS. That rule is read from the source too (the
defaults of digit_pass, the entry points, the branches of sort()): when
the source no longer says it, the check fails and asks for this file to
learn the new rule, rather than check claims against an old one.

THE SIZES are test_sizes[] of harness/parent/labs/lab09.c, each element a
C constant expression of numbers, parentheses, <<, +, - and *.

MARKERS, in the handout, right after what they check, as the figures'
markers are (no text in between; invisible when rendered):

    6529<!-- tile: one-past parts=b,c,d -->

    marker := '<!-- tile:' KIND [parts=P,... | part=P] [n=N] [of: FIG] '-->'

- test-size: the size quoted before it (6529, 2^24 + 1) is in test_sizes;
- one-past parts=P,...: a test size, and for each part P one key past a
  whole number (one or more) of the tiles P takes at that size;
- keys part=P n=N: the number before is the keys of a tile of part P at
  N keys; shape: the text before ends with 'T x I' of that tile;
- tiles, whole, last part=P n=N: the tiles of P at N keys, the whole ones
  among them, and the keys of the last (a number or a word: 'two');
- per-tile part=P n=N of: FIG: the value of the figure marker FIG (the
  syntax of handout_figures.py, scale= and fmt= included) over the tiles
  of P at N keys: a time a tile, a hand-off of the chained pass.
N is a number, 2^K or 2^K+M. When a file marks test sizes, the sizes it
marks (test-size and one-past) must be test_sizes exactly, no more, no
fewer: a size added to the lab, or dropped, shows.

usage: lab09_tiles.py [--solution F] [--lab F] [--data DIR] FILE...
Prints 'ok N - ...' or 'not ok N - file:line: ...' for the rule, each
marker and each file's list of sizes, then '# markers: M failed: F' and
'# tests: T'; exits 1 if anything failed, 2 on bad usage.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handout_figures as hf  # noqa: E402  (the figures' data and number rendering)

TILE = re.compile(r"<!--\s*tile:(.*?)-->")
SIZE_BEFORE = re.compile(r"(\d[\d,]*(?:\s*\^\s*\d+)?(?:\s*[+-]\s*\d+)?)\s*$")
KINDS = ("test-size", "one-past", "keys", "shape", "tiles", "whole", "last", "per-tile")
PARTS = ("a", "b", "c", "cs", "d", "dp")
NAMES = ("THREADS", "ITEMS", "SORT_THREADS", "SORT_ITEMS", "SORT_SHORT_TILES_UP_TO", "PAIR_THREADS", "PAIR_ITEMS")


class TileError(Exception):
    pass


def c_value(expr):
    """The value of a C constant expression of numbers, (), <<, +, -, *."""
    e = re.sub(r"(\d+)[uUlL]+\b", r"\1", expr.strip())
    if not re.fullmatch(r"[0-9()<>+\-* \t\n]*", e) or not e.strip():
        raise TileError("'%s' is not a constant of numbers and << + - *" % expr.strip())
    try:
        return int(eval(e, {"__builtins__": {}}, {}))  # digits and operators only, checked above
    except Exception as ex:  # a syntax error in the source
        raise TileError("cannot evaluate '%s': %s" % (expr.strip(), ex))


def size_value(text):
    """6529, 65,537, 2^24, 2^24 + 1 or 2^24+1 -> an int."""
    t = re.sub(r"\s+", "", text).replace(",", "")
    m = re.fullmatch(r"(\d+)(?:\^(\d+))?(?:([+-])(\d+))?", t)
    if not m:
        raise TileError("'%s' is not a size (6529, 2^24 + 1)" % text)
    v = int(m.group(1)) ** int(m.group(2)) if m.group(2) else int(m.group(1))
    if m.group(3):
        v += int(m.group(4)) if m.group(3) == "+" else -int(m.group(4))
    return v


def strip_comments(src):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", src, flags=re.S)


class Solution:
    """The tile constants of the solution, and its rule for which applies."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            src = f.read()
        self.path = path
        self.k = {}
        for name in NAMES:
            m = re.search(r"^#define\s+%s\s+(.+?)\s*(?:/\*.*)?$" % name, src, re.M)
            if not m:
                raise TileError("%s: no '#define %s'" % (path, name))
            self.k[name] = c_value(m.group(1))
        code = " ".join(strip_comments(src).split())
        # the rule, as the source says it (whitespace folded, comments out)
        rule = [
            ("the passes' default tile is THREADS x ITEMS",
             r"template <bool LOOKBACK, bool PAIRS, int T = THREADS, int I = ITEMS,"),
            ("part b calls the pass with its defaults", r"onesweep_pass_chained\(.*?digit_pass<false, false>\("),
            ("part c calls the pass with its defaults", r"onesweep_pass_lookback\(.*?digit_pass<true, false>\("),
            ("pairs sort in PAIR_THREADS x PAIR_ITEMS",
             r"if \(vals_in\) sort_with<true, PAIR_THREADS, PAIR_ITEMS,"),
            ("keys above SORT_SHORT_TILES_UP_TO sort in SORT_THREADS x SORT_ITEMS",
             r"else if \(n > SORT_SHORT_TILES_UP_TO\) sort_with<false, SORT_THREADS, SORT_ITEMS,"),
            ("other keys sort in THREADS x ITEMS", r"else sort_with<false, THREADS, ITEMS,"),
        ]
        self.rule = [(what, re.search(pat, code) is not None) for what, pat in rule]

    def shape(self, part, n):
        k = self.k
        if part in ("b", "c", "cs") or (part == "d" and n <= k["SORT_SHORT_TILES_UP_TO"]):
            return k["THREADS"], k["ITEMS"]
        if part == "d":
            return k["SORT_THREADS"], k["SORT_ITEMS"]
        if part == "dp":
            return k["PAIR_THREADS"], k["PAIR_ITEMS"]
        raise TileError("part %s has no tiles (one of b, c, cs, d, dp)" % part)

    def tile(self, part, n):
        t, i = self.shape(part, n)
        return t * i


def test_sizes(path):
    with open(path, encoding="utf-8") as f:
        src = strip_comments(f.read())
    m = re.search(r"\btest_sizes\s*\[\s*\]\s*=\s*\{(.*?)\}\s*;", src, re.S)
    if not m:
        raise TileError("%s: no 'test_sizes[] = {...};'" % path)
    return [c_value(e) for e in m.group(1).split(",") if e.strip()]


def parse(spec):
    """'one-past parts=b,c' -> (kind, {key: value}, figure spec or None)."""
    spec = " ".join(spec.split())
    fig = None
    if " of: " in spec:
        spec, fig = spec.split(" of: ", 1)
    words = spec.split()
    if not words or words[0] not in KINDS:
        raise TileError("the kind '%s' is not one of %s" % (words[0] if words else "", ", ".join(KINDS)))
    kind, args = words[0], {}
    for w in words[1:]:
        key, eq, value = w.partition("=")
        if not eq or key not in ("part", "parts", "n") or not value:
            raise TileError("'%s': part=P, parts=P,Q or n=N" % w)
        args[key] = value
    need = {"test-size": set(), "one-past": {"parts"}, "per-tile": {"part", "n"}}.get(kind, {"part", "n"})
    if set(args) != need:
        raise TileError("%s takes %s" % (kind, " and ".join(sorted(need)) or "nothing"))
    if (kind == "per-tile") != (fig is not None):
        raise TileError("'of: FIG' goes with per-tile, and only there")
    return kind, args, fig


def check_marker(sol, sizes, data, kind, args, fig, before, marked):
    """What the marker checked, as text; raises TileError if it does not hold."""
    if kind in ("test-size", "one-past"):
        m = SIZE_BEFORE.search(before)
        if not m:
            raise TileError("no size just before the marker ('%s')" % before[-20:].lstrip())
        n = size_value(m.group(1))
        if n not in sizes:
            said = "" if m.group(1) == str(n) else " (%s)" % m.group(1)
            raise TileError("%d%s is not in the lab's test_sizes" % (n, said))
        marked.append(n)
        if kind == "test-size":
            return "%d is a test size" % n
        said = []
        for p in args["parts"].split(","):
            t, i = sol.shape(p, n)
            if n <= t * i or n % (t * i) != 1:
                raise TileError("%d is not one past a tile of part %s: at that n it takes %d x %d = %d keys a "
                                "tile, %d whole and %d keys over" % (n, p, t, i, t * i, n // (t * i), n % (t * i)))
            said.append("%s: %d x %d" % (p, t, i))
        return "%d is one past tiles of %s" % (n, ", ".join(said))
    part, n = args["part"], size_value(args["n"])
    t, i = sol.shape(part, n)
    tile = t * i
    if kind == "shape":
        want = "%d x %d" % (t, i)
        if not before.rstrip("`*").endswith(want):
            raise TileError("the text before ends '%s', the solution's tile is %s" % (before[-12:].lstrip(), want))
        return "part %s at n = %d: %s" % (part, n, want)
    tiles = -(-n // tile)
    value = {"keys": tile, "tiles": tiles, "whole": n // tile, "last": n - (tiles - 1) * tile}.get(kind)
    opts = {}
    if kind == "per-tile":
        try:
            value, opts = hf.evaluate(data, " ".join(fig.split()))
        except hf.FigError as e:
            raise TileError("of: %s" % e)
        if isinstance(value, str):
            raise TileError("of: a text, not a number")
        value /= tiles
    try:
        quoted, want, shown = hf.check_number(float(value), opts, before)
    except hf.FigError as e:
        raise TileError(str(e))
    if want != quoted:
        raise TileError("quoted '%s', the solution's tiles give '%s' (part %s, n = %d, %d x %d)"
                        % (quoted, shown, part, n, t, i))
    return "%s of part %s at n = %d (%d x %d): %s" % (kind, part, n, t, i, shown)


def main(argv):
    sol_path = "solutions/09-onesweep-sort/onesweep_sort.cu"
    lab_path = "harness/parent/labs/lab09.c"
    data_dir, files = "plots/data", []
    it = iter(argv)
    for a in it:
        if a in ("--solution", "--lab", "--data"):
            v = next(it, None)
            if v is None:
                files = []
                break
            if a == "--solution":
                sol_path = v
            elif a == "--lab":
                lab_path = v
            else:
                data_dir = v
        elif a.startswith("-"):
            print("lab09_tiles: unknown option '%s'" % a, file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files:
        print("usage: lab09_tiles.py [--solution F] [--lab F] [--data DIR] FILE...", file=sys.stderr)
        return 2
    out, n, failed, markers = [], 0, 0, 0

    def tap(ok, text):
        nonlocal n, failed
        n += 1
        failed += not ok
        out.append("%s %d - %s" % ("ok" if ok else "not ok", n, text))

    try:
        sol = Solution(sol_path)
        sizes = test_sizes(lab_path)
    except (OSError, TileError) as e:
        print("not ok 1 - %s" % e)
        print("# markers: 0 failed: 0\n# tests: 1")
        return 1
    for what, held in sol.rule:
        tap(held, "%s: %s%s" % (sol_path, what, "" if held else
                                 " no longer reads so: teach tests/unit/lab09_tiles.py the new rule"))
    data = hf.Data(data_dir)
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        marked = []
        for lineno, line in hf.unfenced(lines):
            for m in TILE.finditer(line):
                markers += 1
                where = "%s:%d" % (path, lineno)
                try:
                    kind, args, fig = parse(m.group(1))
                    tap(True, "%s %s" % (where, check_marker(sol, sizes, data, kind, args, fig,
                                                              line[: m.start()], marked)))
                except TileError as e:
                    tap(False, "%s: %s" % (where, e))
        if marked:
            extra = sorted(set(marked) - set(sizes))
            missing = sorted(set(sizes) - set(marked))
            twice = sorted({x for x in marked if marked.count(x) > 1})
            tap(not (missing or twice or extra),
                "%s: its marked sizes are %s's test_sizes, each once%s%s%s" % (
                    path, lab_path, "; not marked: %s" % missing if missing else "",
                    "; marked twice: %s" % twice if twice else "", "; not tested: %s" % extra if extra else ""))
    for line in out:
        print(line)
    print("# markers: %d failed: %d" % (markers, failed))
    print("# tests: %d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
