#!/usr/bin/env python3
"""tests/unit/handout_figures.py: check the figures quoted in the handouts against
the committed benchmark data (plots/data/*.tsv), and the handouts' pointers
(sections, labs, paths, figures, planted bugs) against the kit. Driven by
tests/unit/test_handout_figures.sh; Python 3 standard library only.

FIGURES. A quoted figure is followed, with no text in between, by a marker
that says where it comes from, invisible when the markdown is rendered:

    3.02<!-- fig: lab01.tsv part=b variant=solution n=2^28 col=time_ms --> ms

    marker := '<!-- fig:' TERM [ '/' TERM ] [by=COL [where=OPNUM]... over=F]
              [scale=X] [add=X] [fmt=F | sig=K] '-->'
    TERM   := [FILE.tsv] ( header=KEY | SEL... [col=COLUMN] [agg=A] [nth=K] )
    SEL    := COLUMN OP VALUE | @SET        OP: = != < <= > >=

- FILE is a file of plots/data.
- A selector keeps the rows whose COLUMN compares so with VALUE: as numbers
  when both sides are numbers (n=2^28 matches 268435456, param=0.5 matches
  0.50), else as text; quote a value with spaces (phase="pass count").
  '=' and '!=' take a comma list: any of the values, none of them
  (param_label=cant,consph). <, <=, >, >= need numbers on both sides (a
  'nan' cell matches none). @SET stands for the selectors of a named
  selection, defined once anywhere in the same file (outside code) by
      <!-- figset: SET SEL... -->
- A term must match exactly one row, unless it says how to combine them:
  agg=sum|mean|min|max|count over the matching rows (count needs no col;
  agg=sum is lab05_passes.tsv's phase summed over the passes); nth=K takes
  the K-th of several matching rows, in file order, for data that measures
  one configuration twice (lab04.tsv at n = 2^24, keep 0.5: the size sweep
  and the keep sweep); nth on a single match is an error too.
- header=KEY reads a '# KEY: value' line (copy_gbps, device).
- TERM / TERM is the ratio of the two. The divisor starts as a copy of the
  first term (file, selectors, col, agg, nth) and changes only what it names
  (a column it names replaces every selector of the first term on that
  column): '... variant=solution n=2^28 col=time_ms / variant=cub' divides
  by CUB's time at the same n.
- by=COL makes a derived claim over groups: the rows the first term selects
  are grouped by their COL value; in each group the marker's value is
  computed as above (each term restricted to the group, the divisor matched
  on the same COL value), where=OPNUM filters the groups by that value
  (where=<1, where=>=1.005; repeat for a range), and over= combines what is
  left: count, sum, mean, min, max, or argmin / argmax (the COL value of the
  smallest / largest group, a text the quoted text must end with).
  Examples: 'faster on 10 of the 15 matrices' is a count with where=>=1.005;
  'within 0.97 to 1.16' is a min and a max of one ratio over a size range.
- scale=X multiplies the result (100 for a percentage, 0.001 for ms to s),
  then add=X adds to it (scale=100 add=-100: '12 % faster' from a ratio).
- fmt is a printf format; sig=K rounds to K significant digits; without
  either the value is rounded to as many decimals as the quoted number has.
  The quoted number may be plain (12, 0.605, 27,191), scientific as the handouts
  write it (3.8·10^-7: the mantissa is compared, at the quoted exponent),
  or a whole number in words from zero to twenty ('slower on four').
  A text value (device, argmax) must end the quoted text (a closing ` or *
  of its markup aside).
- Markers inside fenced code blocks are examples and are not checked.

POINTERS, found in the text (outside fenced code) with no marker:
- 'section 6.2', 'sections 3.1 and 4.2', 'section 4.5 (i)', and the bare
  '(4.3)' or '(4.2, 4.3)' of a handout (N up to its number of sections):
  a heading numbered so in the same file; 'lab 06, section 5.1' and
  "lab 01's section 8": a heading of that lab's README. A section of a
  cited work (*Title*, section 4.2) is not ours and is skipped.
- 'lab 07', 'labs 01, 02 and 04', 'labs 01-05': a folder labs/NN-*.
- a path in a code span whose first part is one of the kit's top-level
  folders (labs/..., plots/data/lab06.tsv, tests/bench/bench_lab08_knobs.sh):
  it exists (a glob matches); build/... and dist/... are made by make and
  are not looked for; plots/figures/NAME.png needs plots/NAME.gp. In a
  handout (any file but docs/*.md, which instructors read and which name
  their own folders) a code span that is one relative path outside the kit
  (../x, cub/x.cuh) must be marked so right after it:
  '`cub/agent/agent_scan.cuh`<!-- outside: CUB, in the CUDA toolkit -->'.
- a figure named in a code span, `lab07_rowlen`: plots/lab07_rowlen.gp;
  a figure of another GPU's data, `lab09_sweep_h200` (plots/render.sh):
  plots/lab09_sweep.gp and plots/data/lab09_h200.tsv.
- a planted bug named in a code span after 'planted bug' (or in a list
  that follows it, up to the sentence's end): some tests/fixtures/plants/*.plants
  plants it ('== NAME').

usage: handout_figures.py [--data DIR] FILE...
Prints 'ok N - ...' or 'not ok N - file:line: ...' per marker and pointer,
then '# markers: M failed: F', '# derived: D' (markers with by=, over= or
agg=: summaries, not one row's figure), '# pointers: P failed: Q' and
'# tests: T'; exits 1 if anything failed, 2 on bad usage.
"""
import functools
import glob
import math
import os
import re
import shlex
import sys

MARKER = re.compile(r"<!--\s*fig:(.*?)-->")
SETDEF = re.compile(r"<!--\s*figset:(.*?)-->")
NUMBER = re.compile(r"(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*$")
SCIENTIFIC = re.compile(r"(-?\d+(?:\.\d+)?)\s*[·×]\s*10\^\(?([-−]?\d+)\)?\s*$")
WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen twenty").split()
WORD = re.compile(r"\b(%s)\s*$" % "|".join(WORDS), re.I)
SELECTOR = re.compile(r"^(\w+)(<=|>=|!=|<|>|=)(.+)$")
TERM_KEYS = ("col", "agg", "nth", "header")
MARKER_KEYS = ("scale", "add", "fmt", "sig", "by", "where", "over")
AGGS = ("sum", "mean", "min", "max", "count")
OVERS = ("count", "sum", "mean", "min", "max", "argmin", "argmax")


class FigError(Exception):
    pass


@functools.lru_cache(maxsize=None)  # the same cells are read again for every marker
def as_number(text):
    """A float for '12', '0.5', '2^28' or '-1', else None."""
    m = re.fullmatch(r"\s*(-?\d+)\^(\d+)\s*", text)
    if m:
        return float(int(m.group(1)) ** int(m.group(2)))
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


class Table:
    """One TSV file: '# key: value' header lines, a column line, rows."""

    def __init__(self, path):
        self.name = os.path.basename(path)
        self.header, self.columns, self.rows = {}, None, []
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#"):
                    m = re.match(r"#\s*([A-Za-z_][\w]*):\s*(.*\S)\s*$", line)
                    if m:
                        self.header[m.group(1)] = m.group(2)
                elif not line.strip():
                    continue
                elif self.columns is None:
                    self.columns = line.split("\t")
                else:
                    self.rows.append(line.split("\t"))
        if self.columns is None:
            raise FigError("%s: no column line" % self.name)


class Data:
    def __init__(self, folder):
        self.folder, self.tables = folder, {}

    def table(self, name):
        if name not in self.tables:
            path = os.path.join(self.folder, name)
            if not os.path.isfile(path):
                raise FigError("no data file '%s' in %s" % (name, self.folder))
            self.tables[name] = Table(path)
        return self.tables[name]


# ------------------------------------------------------------------ parsing

def split_words(spec):
    try:
        return shlex.split(spec)
    except ValueError as e:
        raise FigError("cannot split the marker: %s" % e)


def parse_selector(word):
    m = SELECTOR.match(word)
    if not m:
        raise FigError("'%s' is neither FILE.tsv, @SET nor KEY=VALUE" % word)
    key, op, value = m.groups()
    if op in ("<", "<=", ">", ">=") and as_number(value) is None:
        raise FigError("'%s': %s needs a number" % (word, op))
    return (key, op, value)


def parse_sets(text):
    """The named selections of a file: {name: [selectors]}."""
    sets = {}
    for spec in SETDEF.findall(text):
        words = split_words(" ".join(spec.split()))
        if len(words) < 2:
            raise FigError("figset '%s' names no selector" % spec.strip())
        name = words[0]
        if name in sets:
            raise FigError("figset '%s' defined twice" % name)
        sets[name] = [parse_selector(w) for w in words[1:]]
    return sets


def parse(spec, sets=None):
    """The marker's text -> (terms, opts); each term a dict."""
    sets = sets or {}
    terms, cur, opts = [], {"file": None, "sel": []}, {"scale": 1.0, "add": 0.0, "where": []}
    for w in split_words(spec):
        if w == "/":
            terms.append(cur)
            cur = {"file": None, "sel": []}
            continue
        if w.startswith("@"):
            if w[1:] not in sets:
                raise FigError("no figset '%s' in this file" % w[1:])
            cur["sel"] += sets[w[1:]]
            continue
        if "=" not in w and not re.search(r"[<>]", w):
            if w.endswith(".tsv") and cur["file"] is None and not cur["sel"]:
                cur["file"] = w
                continue
            raise FigError("'%s' is neither FILE.tsv, @SET nor KEY=VALUE" % w)
        key, _, value = w.partition("=")
        if key in MARKER_KEYS:
            if not value:
                raise FigError("empty value in '%s'" % w)
            if key in ("scale", "add"):
                opts[key] = as_number(value)
                if opts[key] is None:
                    raise FigError("%s '%s' is not a number" % (key, value))
            elif key == "where":
                m = re.fullmatch(r"(<=|>=|!=|<|>|=)(.+)", value)
                if not m or as_number(m.group(2)) is None:
                    raise FigError("where '%s': an operator and a number (where=<1)" % value)
                opts["where"].append((m.group(1), as_number(m.group(2))))
            elif key in opts:
                raise FigError("'%s' given twice" % key)
            else:
                opts[key] = value
        elif key in TERM_KEYS:
            if not value:
                raise FigError("empty key or value in '%s'" % w)
            if key in cur:
                raise FigError("'%s' given twice in one term" % key)
            cur[key] = value
        else:
            cur["sel"].append(parse_selector(w))
    terms.append(cur)
    if len(terms) > 2:
        raise FigError("at most one '/' in a marker")
    if terms[0]["file"] is None:
        raise FigError("the marker names no FILE.tsv")
    if len(terms) == 2:
        first, second = terms
        if second["file"] is None:
            second["file"] = first["file"]
        if "header" not in first and "header" not in second:
            # the divisor is the first term with what it names changed
            named = {k for k, _, _ in second["sel"]}
            second["sel"] = [s for s in first["sel"] if s[0] not in named] + second["sel"]
            for key in ("col", "agg", "nth"):
                if key in first and key not in second:
                    second[key] = first[key]
    for t in terms:
        if "header" in t:
            if t["sel"] or set(t) & {"col", "agg", "nth"}:
                raise FigError("header= takes no selectors, col, agg or nth")
        elif "col" not in t and t.get("agg") != "count":
            raise FigError("a term without col= (or header=, or agg=count)")
        if t.get("agg") not in (None,) + AGGS:
            raise FigError("agg '%s': one of %s" % (t["agg"], ", ".join(AGGS)))
        if "agg" in t and "nth" in t:
            raise FigError("agg and nth in one term")
    if "sig" in opts:
        if "fmt" in opts:
            raise FigError("fmt and sig in one marker")
        if not re.fullmatch(r"[1-9]", opts["sig"]):
            raise FigError("sig '%s': 1 to 9 significant digits" % opts["sig"])
    if "by" in opts:
        if any("header" in t for t in terms):
            raise FigError("by= takes no header= term")
        if opts.get("over") not in OVERS:
            raise FigError("by= needs over=%s" % "|".join(OVERS))
    elif "over" in opts or opts["where"]:
        raise FigError("over= and where= need by=COL")
    return terms, opts


# ---------------------------------------------------------------- lookups

def compare(cell, op, want):
    a = as_number(cell)
    if op in ("=", "!="):
        hit = False
        for w in want.split(","):
            b = as_number(w)
            hit = hit or (a == b if a is not None and b is not None else cell == w)
        return hit if op == "=" else not hit
    b = as_number(want)
    return a is not None and b is not None and holds(a, op, b)


def holds(a, op, b):
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b, "!=": a != b}[op]


def describe(tab, sel):
    return "%s %s" % (tab.name, " ".join("%s%s%s" % s for s in sel) or "(no selector)")


def select(data, term, extra=()):
    """(table, rows) of the term's selectors and the extra ones."""
    tab = data.table(term["file"])
    sel = list(term["sel"]) + list(extra)
    for key in [k for k, _, _ in sel] + ([term["col"]] if "col" in term else []):
        if key not in tab.columns:
            raise FigError("%s has no column '%s'" % (tab.name, key))
    idx = [(tab.columns.index(k), op, v) for k, op, v in sel]
    rows = [r for r in tab.rows if all(i < len(r) and compare(r[i], op, v) for i, op, v in idx)]
    return tab, rows, sel


def reduce_rows(tab, rows, sel, term):
    """One number from the term's rows: exactly one, the nth, or agg."""
    what = describe(tab, sel)
    agg = term.get("agg")
    if agg == "count":
        return float(len(rows))
    if not rows:
        raise FigError("no row of %s" % what)
    if "nth" in term:
        k = as_number(term["nth"])
        if k is None or k < 1 or k != int(k):
            raise FigError("nth '%s' is not a row number from 1" % term["nth"])
        if len(rows) == 1:
            raise FigError("nth=%s but only one row of %s: drop nth" % (term["nth"], what))
        if int(k) > len(rows):
            raise FigError("nth=%s but only %d rows of %s" % (term["nth"], len(rows), what))
        rows = [rows[int(k) - 1]]
    elif len(rows) > 1 and agg is None:
        raise FigError("%d rows of %s: add a selector (or nth=K, agg=...)" % (len(rows), what))
    c = tab.columns.index(term["col"])
    vals = []
    for r in rows:
        v = as_number(r[c]) if c < len(r) else None
        if v is None:
            raise FigError("column %s of %s is '%s', not a number" % (term["col"], what, r[c] if c < len(r) else ""))
        vals.append(v)
    if agg == "mean":
        return sum(vals) / len(vals)
    if agg == "min":
        return min(vals)
    if agg == "max":
        return max(vals)
    return sum(vals)  # one row, or agg=sum


def header_value(data, term):
    tab = data.table(term["file"])
    key = term["header"]
    if key not in tab.header:
        raise FigError("%s has no header '%s' (it has: %s)" % (tab.name, key, ", ".join(sorted(tab.header))))
    v = as_number(tab.header[key])
    return tab.header[key] if v is None else v


def term_value(data, term, extra=()):
    if "header" in term:
        return header_value(data, term)
    tab, rows, sel = select(data, term, extra)
    return reduce_rows(tab, rows, sel, term)


def combine(vals, opts):
    """The terms' values -> the marker's number (ratio, scale, add)."""
    v = vals[0]
    if len(vals) == 2:
        if vals[1] == 0:
            raise FigError("ratio by zero")
        v /= vals[1]
    return v * opts["scale"] + opts["add"]


def evaluate(data, spec, sets=None):
    """(value, opts): a float, or a string for a text header or argmin/max."""
    terms, opts = parse(spec, sets)
    if "by" not in opts:
        vals = [term_value(data, t) for t in terms]
        if any(isinstance(v, str) for v in vals):
            if len(vals) > 1 or opts["scale"] != 1.0 or opts["add"] or "fmt" in opts or "sig" in opts:
                raise FigError("a text value takes no ratio, scale, add, fmt or sig")
            return vals[0], opts
        return combine(vals, opts), opts
    key = opts["by"]
    tab, rows, _ = select(data, terms[0])
    if key not in tab.columns:
        raise FigError("%s has no column '%s' (by=)" % (tab.name, key))
    kc = tab.columns.index(key)
    groups = []
    for r in rows:
        k = r[kc] if kc < len(r) else ""
        if not any(compare(k, "=", g) for g in groups):
            groups.append(k)
    if not groups:
        raise FigError("no row of %s to group by %s" % (describe(tab, terms[0]["sel"]), key))
    kept = []
    for g in groups:
        if "," in g:
            raise FigError("by=%s: the value '%s' has a comma" % (key, g))
        v = combine([term_value(data, t, [(key, "=", g)]) for t in terms], opts)
        if all(holds(v, op, w) for op, w in opts["where"]):
            kept.append((g, v))
    over = opts["over"]
    if over == "count":
        return float(len(kept)), opts
    if not kept:
        raise FigError("no group of %s by %s is left by where" % (describe(tab, terms[0]["sel"]), key))
    vals = [v for _, v in kept]
    if over in ("argmin", "argmax"):
        if "fmt" in opts or "sig" in opts:
            raise FigError("%s gives a text: no fmt or sig" % over)
        best = (min if over == "argmin" else max)(kept, key=lambda kv: kv[1])
        return best[0], opts
    return {"sum": sum(vals), "mean": sum(vals) / len(vals), "min": min(vals), "max": max(vals)}[over], opts


def is_derived(spec):
    """A summary over rows (by/over/agg) rather than one row's figure."""
    return bool(re.search(r"(^|\s)(by|over|agg)=", spec))


# ---------------------------------------------------------------- rendering

def render(value, opts, quoted):
    fmt, sig = opts.get("fmt"), opts.get("sig")
    if sig:
        k = int(sig)
        if value == 0:
            return "0"
        exp = math.floor(math.log10(abs(value)))
        rounded = float("%.*e" % (k - 1, value))
        return "%.*f" % (max(0, k - 1 - exp), rounded)
    if fmt is None:
        decimals = len(quoted.split(".")[1]) if "." in quoted else 0
        fmt = "%%.%df" % decimals
    try:
        if re.search(r"%[-+ 0#]*\d*[diu]", fmt):
            return fmt % int(round(value))
        return fmt % value
    except (TypeError, ValueError) as e:
        raise FigError("fmt '%s': %s" % (fmt, e))


def check_number(value, opts, before):
    """(quoted, wanted, shown) for the number just before the marker: the
    quoted text, the value rendered as it should read there, and that value
    as a person would write it (the mantissa of 3.8·10^-7, a word's digits)."""
    m = SCIENTIFIC.search(before)
    if m:
        mant, exp = m.group(1), int(m.group(2).replace("−", "-"))
        want = render(value / 10.0 ** exp, opts, mant)
        return mant, want, "%s·10^%d" % (want, exp)
    m = NUMBER.search(before)
    if m:
        quoted = m.group(1).replace(",", "")
        want = render(value, opts, quoted)
        if "," in m.group(1):  # thousands separated, as in 27,191
            whole, dot, frac = want.partition(".")
            want = "{:,}".format(int(whole)) + dot + frac
        return m.group(1), want, want
    m = WORD.search(before)
    if m:
        n = WORDS.index(m.group(1).lower())
        if abs(value - round(value)) > 1e-9:
            raise FigError("quoted '%s' (%d), the data gives %.6g, not a whole number" % (m.group(1), n, value))
        got = int(round(value))
        return str(n), str(got), WORDS[got] if 0 <= got < len(WORDS) else str(got)
    raise FigError("no number just before the marker ('%s')" % before[-30:].lstrip())


# ------------------------------------------------------------------ markers

def unfenced(lines):
    """(lineno, line) of the lines outside fenced code blocks."""
    fence = None
    for lineno, line in enumerate(lines, 1):
        fm = re.match(r"\s*(```|~~~)", line)
        if fm:
            fence = None if fence == fm.group(1) else fence or fm.group(1)
        if fence or fm:
            continue
        yield lineno, line


def check_markers(data, path, lines, n, out):
    """One TAP line per marker of path; returns (markers, derived, failures)."""
    count = derived = failed = 0
    try:
        sets = parse_sets("\n".join(line for _, line in unfenced(lines)))
    except FigError as e:
        out.append("not ok %d - %s: %s" % (n + 1, path, e))
        return 1, 0, 1
    for lineno, line in unfenced(lines):
        for m in MARKER.finditer(line):
            count += 1
            n += 1
            before = line[: m.start()]
            where = "%s:%d" % (path, lineno)
            spec = " ".join(m.group(1).split())
            derived += is_derived(spec)
            try:
                value, opts = evaluate(data, spec, sets)
                if isinstance(value, str):
                    if not before.rstrip("`*").endswith(value):
                        raise FigError("quoted text '%s' does not end with the data's '%s'" % (before[-40:].lstrip(), value))
                    out.append("ok %d - %s '%s' (%s)" % (n, where, value, spec))
                    continue
                quoted, want, shown = check_number(value, opts, before)
                if want != quoted:
                    raise FigError("quoted '%s', the data gives '%s' (%.6g; %s)" % (quoted, shown, value, spec))
                out.append("ok %d - %s %s (%s)" % (n, where, shown, spec))
            except FigError as e:
                failed += 1
                out.append("not ok %d - %s: %s" % (n, where, e))
    return count, derived, failed


# ----------------------------------------------------------------- pointers

KIT_TOP = ("labs", "solutions", "kernels_ref", "harness", "tests", "plots", "docs", "mk", "build", "dist")
MADE_BY_MAKE = ("build/", "dist/")
# What harness/handout.sh leaves out of the student handout: a kit without
# solutions/ is a handout, and its docs may still name these instructors'
# paths.
INSTRUCTORS_ONLY = ("solutions/", "solutions", "tests/fixtures/plants/instructors/")
SECTION_REF = re.compile(
    r"(?:\b[Ll]ab (\d\d)(?:'s|,)? )?\b[Ss]ections? (\d+(?:\.\d+)*(?:(?:,\s*|\s+and\s+|\s+or\s+|\s+to\s+)\d+(?:\.\d+)*)*)")
BARE_REF = re.compile(r"\((\d+\.\d+(?:,\s*\d+\.\d+)*)\)")
LAB_REF = re.compile(r"\b[Ll]abs? (\d\d)((?:(?:,\s*|\s+and\s+|\s+or\s+|\s*-\s*|\s*–\s*|\s+to\s+)\d\d\b)*)")
CITED = re.compile(r"\*[^*]+\*,\s*(?:[\w. ]+,\s*)?$")
CODE = re.compile(r"`([^`]+)`(<!--\s*outside:[^>]*-->)?")
PLANTED = re.compile(r"planted bugs?\b([^.]*)")


def headings(path, cache):
    """The section numbers of a markdown file's headings: {'6.2': title}."""
    if path not in cache:
        found = {}
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except OSError:
            lines = []
        for _, line in unfenced(lines):
            m = re.match(r"#+\s+(\d+(?:\.\d+)*)\.?\s+(.*)", line)
            if m:
                found[m.group(1)] = m.group(2).strip()
        cache[path] = found
    return cache[path]


def lab_readme(num):
    hits = sorted(glob.glob("labs/%s-*/README.md" % num))
    return hits[0] if hits else None


def paragraphs(lines):
    """(first line number, text, line starts) of each paragraph outside code."""
    para, first, starts = [], None, []
    prev = None
    for lineno, line in unfenced(lines):
        if not line.strip() or (prev is not None and lineno != prev + 1):
            if para:
                yield first, " ".join(para), starts
            para, first, starts = [], None, []
            if not line.strip():
                prev = lineno
                continue
        if first is None:
            first = lineno
        starts.append((sum(len(p) + 1 for p in para), lineno))
        para.append(line.strip())
        prev = lineno
    if para:
        yield first, " ".join(para), starts


def line_at(starts, pos):
    line = starts[0][1]
    for off, lineno in starts:
        if off <= pos:
            line = lineno
    return line


def expand(numbers):
    """'01-05' or '01, 02 and 04' -> ['01', ..]."""
    out, prev, dash = [], None, False
    for tok in re.findall(r"\d+|[-–]|to", numbers):
        if tok in ("-", "–", "to"):
            dash = True
            continue
        if dash and prev is not None:
            out += ["%02d" % k for k in range(int(prev) + 1, int(tok))]
        out.append(tok)
        prev, dash = tok, False
    return out


def pointer_checks(path, lines, cache):
    """[(lineno, what, error or None)] for the pointers of one handout."""
    res = []
    handout = not os.path.normpath(path).startswith("docs" + os.sep)
    own = headings(path, cache)
    top = max([int(k) for k in own if "." not in k] or [0])
    for _, text, starts in paragraphs(lines):
        for m in SECTION_REF.finditer(text):
            if CITED.search(text[: m.start()]):
                continue
            lab, nums = m.group(1), m.group(2)
            target = lab_readme(lab) if lab else path
            ln = line_at(starts, m.start())
            if lab and not target:
                res.append((ln, "lab %s" % lab, "no folder labs/%s-*" % lab))
                continue
            heads = headings(target, cache)
            for num in re.findall(r"\d+(?:\.\d+)*", nums):
                what = "%ssection %s" % ("lab %s, " % lab if lab else "", num)
                res.append((ln, what, None if num in heads else "no heading numbered %s in %s" % (num, target)))
        for m in BARE_REF.finditer(text):
            nums = re.findall(r"\d+\.\d+", m.group(1))
            if any(int(x.split(".")[0]) > top for x in nums):
                continue  # a value such as (56.3), not one of our sections
            for num in nums:
                res.append((line_at(starts, m.start()), "(%s)" % num,
                            None if num in own else "no heading numbered %s in %s" % (num, path)))
        for m in LAB_REF.finditer(text):
            for num in expand(m.group(1) + m.group(2)):
                res.append((line_at(starts, m.start()), "lab %s" % num,
                            None if lab_readme(num) else "no folder labs/%s-*" % num))
        for m in CODE.finditer(text):
            res += code_span_checks(m.group(1), m.group(2), line_at(starts, m.start()), handout)
        for m in PLANTED.finditer(text):
            for name in re.findall(r"`(\w+)`", m.group(1)):
                hit = any(re.search(r"^== %s$" % re.escape(name), open(f, encoding="utf-8").read(), re.M)
                          for f in glob.glob("tests/fixtures/plants/*.plants"))
                res.append((line_at(starts, m.start()), "planted bug '%s'" % name,
                            None if hit else "no tests/fixtures/plants/*.plants plants '%s'" % name))
    return res


def drawn(stem):
    """Whether plots/render.sh draws figure STEM: plots/STEM.gp, or for a
    figure of another GPU's data, labNN_what_GPU, plots/labNN_what.gp and
    plots/data/labNN_GPU.tsv."""
    if os.path.isfile("plots/%s.gp" % stem):
        return True
    m = re.fullmatch(r"(lab\d\d)_([a-z0-9_]+)_([a-z]\d+)", stem)
    return bool(m) and os.path.isfile("plots/%s_%s.gp" % m.group(1, 2)) \
        and os.path.isfile("plots/data/%s_%s.tsv" % m.group(1, 3))


def code_span_checks(span, outside, lineno, handout):
    """The pointers of one code span: a figure name, or paths. Any word of
    the span whose first part is a top folder of the kit is a kit path; a
    span that is one path-like word and nothing else (../x, cub/x.cuh) is
    a path outside the kit, which must be marked so. Absolute paths are the
    system's, and words with a placeholder (NN, <name>) are templates."""
    if re.fullmatch(r"lab\d\d_[a-z0-9_]+", span):
        gp = "plots/%s.gp" % span
        return [(lineno, "figure %s" % span, None if drawn(span) else "no %s" % gp)]
    res, words = [], span.split()
    for tok in words:
        tok = tok.strip("'\"(),;:")
        if not re.search(r"\w/|/\w", tok) or "://" in tok or tok.startswith(("-", "/")) or "=" in tok:
            continue
        if "NN" in tok or "<" in tok:
            continue  # a template: labs/NN-name/, build/matrices/<name>/
        first = tok.split("/")[0]
        if first not in KIT_TOP:
            lone = len(words) == 1
            pathlike = tok.startswith(("../", "./")) or tok.endswith("/") or re.search(r"\.\w+$", tok.split("/")[-1])
            if outside:
                res.append((lineno, "path %s (outside the kit)" % tok, None))
            elif lone and pathlike and handout:
                res.append((lineno, "path %s" % tok, "not in the kit: mark it <!-- outside: WHAT --> after the span"))
            continue
        if tok.startswith(MADE_BY_MAKE):
            continue
        if tok.startswith("plots/figures/"):
            stem = os.path.splitext(os.path.basename(tok.rstrip("/")))[0]
            if stem != "figures":
                gp = "plots/%s.gp" % stem
                res.append((lineno, "path %s" % tok, None if drawn(stem) else "no %s draws it" % gp))
            continue
        if tok.startswith(INSTRUCTORS_ONLY) and not os.path.isdir("solutions"):
            res.append((lineno, "path %s (instructors' only, not in a handout)" % tok, None))
            continue
        res.append((lineno, "path %s" % tok, None if glob.glob(tok.rstrip("/")) else "no such file in the kit"))
    return res


def check_pointers(path, lines, n, out, cache):
    count = failed = 0
    for lineno, what, err in pointer_checks(path, lines, cache):
        count += 1
        n += 1
        if err:
            failed += 1
            out.append("not ok %d - %s:%d: pointer %s: %s" % (n, path, lineno, what, err))
        else:
            out.append("ok %d - %s:%d: pointer %s" % (n, path, lineno, what))
    return count, failed


def main(argv):
    data_dir, files = "plots/data", []
    it = iter(argv)
    for a in it:
        if a == "--data":
            data_dir = next(it, None)
        elif a.startswith("-"):
            print("handout_figures: unknown option '%s'" % a, file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files or not data_dir:
        print("usage: handout_figures.py [--data DIR] FILE...", file=sys.stderr)
        return 2
    data, out, cache = Data(data_dir), [], {}
    total = derived = failed = 0
    texts = {}
    for path in files:
        with open(path, encoding="utf-8") as fh:
            texts[path] = fh.read().split("\n")
        c, d, f = check_markers(data, path, texts[path], total, out)
        total, derived, failed = total + c, derived + d, failed + f
    pointers = pfailed = 0
    for path in files:
        c, f = check_pointers(path, texts[path], total + pointers, out, cache)
        pointers, pfailed = pointers + c, pfailed + f
    for line in out:
        print(line)
    print("# markers: %d failed: %d" % (total, failed))
    print("# derived: %d" % derived)
    print("# pointers: %d failed: %d" % (pointers, pfailed))
    print("# tests: %d" % (total + pointers))
    return 1 if failed or pfailed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
