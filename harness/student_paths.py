#!/usr/bin/env python3
"""harness/student_paths.py: the paths in what a student reads, as the
student knows them. The one place where the grader's paths are taken out of
feedback: the compiler's messages (nvcc, ptxas, nvlink, ld), the lab
binaries' reasons (a crash, a timeout, the sandbox), the lines check.sh
writes. Called by harness/check.sh (make check) and harness/grade-student.sh
(make grade) on every file that reaches a student.

    student_paths.py --kit DIR [--impl DIR] filter          stdin to stdout
    student_paths.py --kit DIR [--impl DIR] files FILE...   each file, in place
    student_paths.py --kit DIR [--impl DIR] scores FILE     a scores file's reason
                                                            and detail, in place
    student_paths.py --kit DIR [--impl DIR] json FILE...    every string of a JSON
                                                            file (results.json), in place

KIT: the kit whose build/ and labs/ the paths name (the grading kit);
IMPL: the folder graded, laid out like labs/ (make check's IMPL, make
grade's student tree). A path in the text becomes:
  - the student's own file, staged (build/<impl>/stage/<lab>/<file>), built
    (build/<impl>/obj/<lab>/..., an object of several .cu files by its
    source's name) or in IMPL: "<lab>/<file>", under IMPL's own
    name when IMPL is relative (make check: "labs/01-prefix-sum/x.cu"), the
    lab folder alone when it is absolute (a grading tree);
  - the kit's copy of a lab's contract header in the stage:
    "labs/<lab>/<name>.h", as the kit has it;
  - a lab binary (build/<impl>/labNN, in a command to run a test again): as
    the student's own make check builds it, build/labs/labNN
    (build/solutions/ for the solutions);
  - any other file of the kit: its path in the kit ("labs/...", "harness/..."),
    a file under build/ by its name alone;
  - a file of the system (/usr, /opt, /lib, /etc, ...): as it is;
  - anything else absolute (/tmp, a home, the grades, the submissions): its
    name alone.
A relative path is rewritten only when it runs through build/ or .work/: a
"0/50" is points, never a path. student_text() is the function; the tests
are in tests/grading/test_feedback.sh.
"""
import json
import os
import re
import sys

# a path: a run of name characters holding a '/', not preceded by one
PATH = re.compile(r"(?<![A-Za-z0-9._+~@%=/-])(/?[A-Za-z0-9._+~@%=-]+(?:/[A-Za-z0-9._+~@%=-]*)+|/[A-Za-z0-9._+~@%=-]+)")
SYSTEM = ("/usr/", "/opt/", "/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/", "/etc/", "/proc/", "/dev/", "/sys/")
STAGED = re.compile(r"(?:^|/)build/[^/]+/(?:stage|obj)/(.+)$")
LAB_BINARY = re.compile(r"build/([^/]+)/(lab[0-9]{2})")
PARTS = re.compile(r"[^/]+\.files/(?:parts|link)/(?:[0-9]+-)?")  # harness/compile-submission.sh's


def lab_headers(kit):
    """{lab folder: set of its contract headers} of the kit's labs/."""
    labs = {}
    root = os.path.join(kit, "labs")
    for lab in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        d = os.path.join(root, lab)
        if os.path.isdir(d):
            labs[lab] = {f for f in os.listdir(d) if f.endswith(".h")}
    return labs


def both_forms(folder):
    """A folder's absolute paths, as given and with links resolved, the
    longest first; () for none."""
    if not folder:
        return ()
    return tuple(sorted({os.path.abspath(folder), os.path.realpath(folder)}, key=len, reverse=True))


def student_file(rest, impl_shown):
    """A file of the graded folder, "<lab>/<file>", as the student knows it."""
    return impl_shown + "/" + rest if impl_shown else rest


def one_path(p, kit, impl, impl_shown, labs):
    """The path p as the student may read it (see the head comment)."""
    for i in impl:
        if p == i or p.startswith(i + "/"):
            return student_file(p[len(i) + 1:], impl_shown) or "."
    rel = None
    for k in kit:
        if p.startswith(k + "/"):
            rel = p[len(k) + 1:]
            break
    if rel is None and not p.startswith("/"):
        rel = p
    if rel is not None:
        m = STAGED.search(rel)
        if m:
            # an object of several .cu files: named for its source, as one file's
            staged = PARTS.sub("", m.group(1))
            lab, _, name = staged.partition("/")
            if name in labs.get(lab, ()):
                return "labs/%s/%s" % (lab, name)
            return student_file(staged, impl_shown)
        m = LAB_BINARY.fullmatch(rel)
        if m:
            # a lab binary in a command to run again (the reproduce line):
            # where the student's own `make check` builds it
            return "build/%s/%s" % (m.group(1) if m.group(1) in ("labs", "solutions") else "labs", m.group(2))
        parts = rel.split("/")
        if "build" in parts or ".work" in parts:
            return parts[-1] or rel
        return rel
    if p.startswith(SYSTEM) and "/build/" not in p and "/stage/" not in p:
        return p
    return os.path.basename(p.rstrip("/")) or p


def student_text(text, kit, impl=None, labs=None):
    """text with every path rewritten as the student may read it. kit, impl:
    absolute or relative folders (impl relative: shown under its own name);
    labs: {lab: contract headers} (lab_headers(kit) when None)."""
    impl_shown = ""
    if impl:
        impl = impl.rstrip("/")
        if not os.path.isabs(impl):
            impl_shown = impl
    if labs is None:
        labs = lab_headers(kit) if kit else {}
    kit, impl = both_forms(kit), both_forms(impl)

    def fix(m):
        p = m.group(1)
        if not p.startswith("/") and "build/" not in p and ".work/" not in p:
            return p
        return one_path(p, kit, impl, impl_shown, labs)

    return PATH.sub(fix, text)


ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def unescape(field):
    """A scores file's field (scores.h's escapes) as text."""
    out, i = [], 0
    while i < len(field):
        c = field[i]
        if c != "\\" or i + 1 >= len(field):
            out.append(c)
            i += 1
            continue
        n = field[i + 1]
        if n == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", field[i + 2:i + 4]):
            out.append(chr(int(field[i + 2:i + 4], 16)))
            i += 4
            continue
        out.append({"n": "\n", "t": "\t", "r": "\r"}.get(n, n))
        i += 2
    return "".join(out)


def escape(text):
    """Text as a scores file's field."""
    return "".join(ESCAPES.get(c) or ("\\x%02x" % ord(c) if ord(c) < 0x20 or ord(c) == 0x7f else c) for c in text)


def rewrite(path, change):
    """Replace the file at path by change(its text), through a renamed copy."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        text = f.read()
    new = change(text)
    if new == text:
        return
    tmp = path + ".paths.tmp"
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(new)
    os.replace(tmp, path)


def clean_text(text, clean):
    """A text file's text, cleaned."""
    return clean(text)


def scores_text(text, clean):
    """A scores file's text with its reason and detail (columns 10, 11) cleaned."""
    lines = []
    for line in text.split("\n"):
        fields = line.split("\t")
        if not line.startswith("#") and len(fields) > 9:
            for k in (9, 10):
                if k < len(fields):
                    fields[k] = escape(clean(unescape(fields[k])))
        lines.append("\t".join(fields))
    return "\n".join(lines)


def json_text(text, clean):
    """A JSON document's text with every string in it cleaned."""
    def walk(v):
        if isinstance(v, str):
            return clean(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {clean(k): walk(x) for k, x in v.items()}
        return v
    return json.dumps(walk(json.loads(text)), indent=2, ensure_ascii=False) + "\n"


def main(argv):
    kit = impl = None
    args = list(argv)
    while args and args[0].startswith("--"):
        if len(args) < 2:
            break
        opt, val = args[0], args[1]
        if opt == "--kit":
            kit = val
        elif opt == "--impl":
            impl = val
        else:
            break
        args = args[2:]
    modes = {"files": clean_text, "scores": scores_text, "json": json_text}
    if not args or args[0] not in ("filter", *modes):
        print("usage: student_paths.py --kit DIR [--impl DIR] filter | files FILE... | scores FILE... | json FILE...",
              file=sys.stderr)
        return 2
    labs = lab_headers(os.path.realpath(kit)) if kit else {}

    def clean(t):
        return student_text(t, kit, impl, labs)

    if args[0] == "filter":
        inp = open(sys.stdin.fileno(), encoding="utf-8", errors="surrogateescape", newline="")
        out = open(sys.stdout.fileno(), "w", encoding="utf-8", errors="surrogateescape", newline="")
        for line in inp:
            out.write(clean(line))
            out.flush()
        return 0
    status = 0
    for path in args[1:]:
        try:
            rewrite(path, lambda t: modes[args[0]](t, clean))
        except ValueError as e:
            print("student_paths: '%s' is not JSON: %s" % (path, e), file=sys.stderr)
            status = 2
        except OSError as e:
            if not (isinstance(e, FileNotFoundError) and args[0] == "files"):
                print("student_paths: cannot rewrite '%s': %s" % (path, e.strerror), file=sys.stderr)
                status = 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
