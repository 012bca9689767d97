#!/usr/bin/env python3
"""tests/handout_figures.py: check the figures quoted in the handouts against
the committed benchmark data (plots/data/*.tsv). Driven by
tests/test_handout_figures.sh; Python 3 standard library only.

A quoted figure is followed, with no text in between, by a marker that says
where it comes from, invisible when the markdown is rendered:

    3.02<!-- fig: lab01.tsv part=b variant=solution n=2^28 col=time_ms --> ms

    marker := '<!-- fig:' TERM [ '/' TERM ] [scale=X] [fmt=F] '-->'
    TERM   := [FILE.tsv] ( header=KEY | COLUMN=VALUE ... col=COLUMN [agg=sum] [nth=K] )

- FILE is a file of plots/data.
- COLUMN=VALUE selects rows; values compare as numbers when both sides are
  numbers (n=2^28 matches 268435456, param=0.5 matches 0.50), else as text;
  quote a value with spaces (phase="pass count").
  The selectors must match exactly one row: zero or several is an error,
  unless the term says how to combine them. agg=sum adds every matching
  row (lab05_passes.tsv: a phase summed over the passes); nth=K takes the
  K-th of several matching rows, in file order, for data that measures one
  configuration twice (lab04.tsv at n = 2^24, keep 0.5: the size sweep and
  the keep sweep); nth on a single match is an error too.
- header=KEY reads a '# KEY: value' line (copy_gbps, device).
- TERM / TERM is the ratio of the two. The divisor starts as a copy of the
  first term (file, selectors, col, agg, nth) and changes only what it names:
  '... variant=solution n=2^28 col=time_ms / variant=cub' divides by CUB's
  time at the same n. scale=X multiplies the result (100 for a percentage,
  0.001 for ms to s).
- fmt is a printf format; without it the value is rounded to as many decimals
  as the quoted number has. A text value (device) must end the quoted text.
- Markers inside fenced code blocks are examples and are not checked.

usage: handout_figures.py [--data DIR] FILE...
Prints 'ok N - ...' or 'not ok N - file:line: ...' per marker, then
'# markers: M failed: F'; exits 1 if any marker failed, 2 on bad usage.
"""
import math
import os
import re
import shlex
import sys

MARKER = re.compile(r"<!--\s*fig:(.*?)-->")
NUMBER = re.compile(r"(-?\d+(?:\.\d+)?)\s*$")
TERM_KEYS = ("col", "agg", "nth", "header")


class FigError(Exception):
    pass


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


def parse(spec):
    """The marker's text -> (terms, scale, fmt); each term a dict."""
    try:
        words = shlex.split(spec)
    except ValueError as e:
        raise FigError("cannot split the marker: %s" % e)
    terms, cur, scale, fmt = [], {"file": None, "sel": []}, 1.0, None
    for w in words:
        if w == "/":
            terms.append(cur)
            cur = {"file": None, "sel": []}
            continue
        if "=" not in w:
            if w.endswith(".tsv") and cur["file"] is None and not cur["sel"]:
                cur["file"] = w
                continue
            raise FigError("'%s' is neither FILE.tsv nor KEY=VALUE" % w)
        key, value = w.split("=", 1)
        if not key or not value:
            raise FigError("empty key or value in '%s'" % w)
        if key == "scale":
            scale = as_number(value)
            if scale is None:
                raise FigError("scale '%s' is not a number" % value)
        elif key == "fmt":
            fmt = value
        elif key in TERM_KEYS:
            if key in cur:
                raise FigError("'%s' given twice in one term" % key)
            cur[key] = value
        else:
            cur["sel"].append((key, value))
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
            named = dict(second["sel"])
            sel = [(k, named.pop(k, v)) for k, v in first["sel"]]
            second["sel"] = sel + list(named.items())
            for key in ("col", "agg", "nth"):
                if key in first and key not in second:
                    second[key] = first[key]
    for t in terms:
        if "header" in t:
            if t["sel"] or set(t) & {"col", "agg", "nth"}:
                raise FigError("header= takes no selectors, col, agg or nth")
        elif "col" not in t:
            raise FigError("a term without col= (or header=)")
        if t.get("agg") not in (None, "sum"):
            raise FigError("agg '%s': only agg=sum is known" % t["agg"])
        if "agg" in t and "nth" in t:
            raise FigError("agg and nth in one term")
    return terms, scale, fmt


def matches(cell, want):
    a, b = as_number(cell), as_number(want)
    if a is not None and b is not None:
        return a == b
    return cell == want


def lookup(data, term):
    """The term's value: a float, or a string for a text header."""
    tab = data.table(term["file"])
    if "header" in term:
        key = term["header"]
        if key not in tab.header:
            raise FigError("%s has no header '%s' (it has: %s)" % (tab.name, key, ", ".join(sorted(tab.header))))
        v = as_number(tab.header[key])
        return tab.header[key] if v is None else v
    cols = tab.columns
    for key in [k for k, _ in term["sel"]] + [term["col"]]:
        if key not in cols:
            raise FigError("%s has no column '%s'" % (tab.name, key))
    idx = [(cols.index(k), v) for k, v in term["sel"]]
    rows = [r for r in tab.rows if all(i < len(r) and matches(r[i], v) for i, v in idx)]
    what = "%s %s" % (tab.name, " ".join("%s=%s" % kv for kv in term["sel"]) or "(no selector)")
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
    elif len(rows) > 1 and term.get("agg") != "sum":
        raise FigError("%d rows of %s: add a selector (or nth=K, agg=sum)" % (len(rows), what))
    c = cols.index(term["col"])
    total = 0.0
    for r in rows:
        v = as_number(r[c]) if c < len(r) else None
        if v is None:
            raise FigError("column %s of %s is '%s', not a number" % (term["col"], what, r[c] if c < len(r) else ""))
        total += v
    return total


def evaluate(data, spec):
    terms, scale, fmt = parse(spec)
    vals = [lookup(data, t) for t in terms]
    if any(isinstance(v, str) for v in vals):
        if len(vals) > 1 or scale != 1.0 or fmt:
            raise FigError("a text value takes no ratio, scale or fmt")
        return vals[0], None
    v = vals[0]
    if len(vals) == 2:
        if vals[1] == 0:
            raise FigError("ratio by zero")
        v /= vals[1]
    return v * scale, fmt


def render(value, fmt, quoted):
    if fmt is None:
        decimals = len(quoted.split(".")[1]) if "." in quoted else 0
        fmt = "%%.%df" % decimals
    try:
        if re.search(r"%[-+ 0#]*\d*[diu]", fmt):
            return fmt % int(round(value))
        return fmt % value
    except (TypeError, ValueError) as e:
        raise FigError("fmt '%s': %s" % (fmt, e))


def check_file(data, path, n, out):
    """One TAP line per marker of path; returns (markers, failures)."""
    count = failed = 0
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    fence = None
    for lineno, line in enumerate(lines, 1):
        fm = re.match(r"\s*(```|~~~)", line)
        if fm:  # markers inside fenced code are examples, shown as text
            fence = None if fence == fm.group(1) else fence or fm.group(1)
        if fence or fm:
            continue
        for m in MARKER.finditer(line):
            count += 1
            n += 1
            before = line[: m.start()]
            where = "%s:%d" % (path, lineno)
            spec = " ".join(m.group(1).split())
            try:
                value, fmt = evaluate(data, spec)
                if isinstance(value, str):
                    if not before.endswith(value):
                        raise FigError("quoted text '%s' does not end with the data's '%s'" % (before[-40:].lstrip(), value))
                    out.append("ok %d - %s '%s' (%s)" % (n, where, value, spec))
                    continue
                q = NUMBER.search(before)
                if not q:
                    raise FigError("no number just before the marker ('%s')" % before[-30:].lstrip())
                want = render(value, fmt, q.group(1))
                if want != q.group(1):
                    raise FigError("quoted '%s', the data gives '%s' (%.6g; %s)" % (q.group(1), want, value, spec))
                out.append("ok %d - %s %s (%s)" % (n, where, want, spec))
            except FigError as e:
                failed += 1
                out.append("not ok %d - %s: %s" % (n, where, e))
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
    data, out, total, failed = Data(data_dir), [], 0, 0
    for path in files:
        c, f = check_file(data, path, total, out)
        total, failed = total + c, failed + f
    for line in out:
        print(line)
    print("# markers: %d failed: %d" % (total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
