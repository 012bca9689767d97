#!/usr/bin/env python3
"""harness/lms.py: a learning management system's files into and out of
`make grade` (harness/grade.sh calls it; python3 stdlib only).

  lms.py check [--due D] [--late R] [--roster F] [--assignment A]
        DUE, LATE, ROSTER and ASSIGNMENT are usable, or one line says why
        (status 2; under it, for ASSIGNMENT, the roster's assignment
        columns), before any student is graded; with ROSTER, a line
        naming the column ASSIGNMENT is
  lms.py layout SUBMISSIONS
        prints plain, canvas or gradescope: what SUBMISSIONS holds
  lms.py names ROSTER
        each student of ROSTER on a line, as the run's lines name them
        ("Jones, Ann (ID 1002, SIS User ID S1002)"): the check service's
        accounts (make tokens)
  lms.py incoming SUBMISSIONS GRADES
        an LMS's download as one entry per student, in GRADES/.incoming/
        (rebuilt each run), and GRADES/submissions.tsv; a line per file of
        the download that names no student
  lms.py finish GRADES [--due D] [--late R] [--roster F] [--assignment A]
                [--points-public P --points-seed S [--seeded]]
        after the gradebook: with DUE, the late columns of gradebook.csv,
        a "late:" line in each student's report.txt and, on stdout, the
        students late and by how much; with P and S (the points possible
        without and with PRIMLAB_SEED; --seeded: this run has one) a line
        of both; with ROSTER, GRADES/lms-import.csv, GRADES/lms-unmatched.txt
        and, on stdout, each submission and the roster row it was matched to

ASSIGNMENT names a column of ROSTER by its title (Canvas's without the id,
Moodle's with or without "<module>: " and the display type), by Canvas's
assignment id, or by the start of its title ending at a word's end ("Lab 1"
is "Lab 1: prefix sum (88213)", never "Lab 10 (88240)"), when only one
column starts so; none or several: an error listing the assignment
columns. A new column only when asked for, ASSIGNMENT="new:<title>", and
only for Canvas (whose import makes the assignment): never in place of a
title that did not match, which would make a second assignment.

The formats, as the LMSs' own code writes and reads them:
- Canvas's "Download Submissions" zip: flat files named
  <sortable name>[_LATE]_<user id>_<attachment id>_<file name>
  (instructure/canvas-lms lib/content_zipper.rb: get_filename joins
  [users_name, "LATE" if late, user_id] with "_" and keeps only word
  characters; add_upload_submission appends _<attachment id>_<display
  name>; an anonymous assignment writes anon_<anonymous id> for the name
  and the id; text and URL entries are <name>_<id>_text.html, _link.html).
  A student who uploads a file again gets it renamed <base>-<n><ext>
  (app/models/attachment.rb make_unique_filename: n from 1, ext matched by
  (\\.[A-Za-z][A-Za-z0-9]*)*(\\.[A-Za-z0-9]*)$): the original name is
  restored (a name of the student's own that ends in -<n> loses it too:
  the zip cannot tell the two apart). The zip carries no submission time,
  only the late mark.
- Canvas's gradebook export and import (lib/gradebook_exporter.rb,
  lib/gradebook_importer.rb): header Student (or LastName, FirstName), ID,
  [SIS User ID], SIS Login ID, [Integration ID], [Root Account], Section,
  custom columns, then one column per assignment titled "<title> (<id>)";
  an optional row of "Manual Posting" cells; a row whose first cell holds
  "Points Possible". The importer finds a student by ID, then SIS User ID,
  then SIS Login ID, then name; a cell equal to the grade there changes
  nothing, a blank over a grade is a change (no_change_to_value?); a
  column with no "(<id>)" that names no assignment creates one (so a
  title that misses the existing column's makes a duplicate).
- Gradescope's "Export Submissions": a folder submission_<id>/ per
  submission and submission_metadata.yml (Ruby symbol keys):
      submission_<id>:
        :submitters:
        - :name: ...
          :sid: '...'
          :email: ...
        :created_at: 2026-04-26 17:34:00.861687000 Z
  (as test fixtures of tools that read it show; Gradescope documents
  created_at as the submission time, gradescope/autograder_samples
  advanced.md). It has no late mark: lateness is created_at against DUE.
  Its gradebook export ("Download Grades"): First Name, Last Name (or
  Name), SID, Email, Sections, then per assignment "<name>", "<name> - Max
  Points", "<name> - Submission Time", "<name> - Lateness (H:M:S)" (as
  the tools that read it expect). The import file keeps those first
  columns and the assignment's; Gradescope's own score import was not
  found documented, so its columns are not checked against Gradescope.
- Moodle's grade export (grade/export/lib.php format_column_name):
  First name, Last name, ID number, Institution, Department, Email
  address, then "<module>: <item name> (<display type>)" per grade item,
  e.g. "Assignment: Lab 1 (Real)"; its CSV import maps a column to the
  users by ID number or email and a column to a grade item.
- Late rule: Canvas's own late policy (app/models/late_policy.rb
  points_deducted): a percentage of the points possible per started
  interval late (ceil), never more than the score itself.
"""
import argparse
import csv
import datetime as dt
import io
import math
import os
import re
import shutil
import sys
import tempfile
import zipfile

ARCHIVES = (".tar.gz", ".tgz", ".zip")
MAX_BYTES = int(os.environ.get("GRADE_MAX_BYTES") or 64 << 20)
MAX_FILES = int(os.environ.get("GRADE_MAX_FILES") or 10000)


class Bad(Exception):
    """A one-line error about what the user gave; LINES, printed under it,
    list what it could have been (a roster's assignment columns)."""

    def __init__(self, message, lines=()):
        super().__init__(message)
        self.lines = list(lines)


# ---------------------------------------------------------------- names

# the files GRADES holds of its own: no student's folder may take their place
GRADES_OWN = ("gradebook.csv", "report.html", "report.md", "submissions.tsv", "lms-import.csv",
              "lms-unmatched.txt", "feedback")


def student_name(name):
    """The name harness/grade.sh's student_name makes of NAME: the archive
    suffixes off (.tar.gz, then .tgz, then .zip, as grade.sh takes them),
    every byte but A-Za-z0-9._- an '_', and an '_' before it when it starts
    with '.' or is one of GRADES's own files."""
    for suffix in (".tar.gz", ".tgz", ".zip"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    safe = "".join(chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "._-") else "_"
                   for b in name.encode("utf-8", "surrogateescape"))
    if safe == "" or safe.startswith(".") or safe in GRADES_OWN:
        safe = "_" + safe
    return safe


def shown(text):
    """TEXT on one printable line."""
    return "".join(c if c.isprintable() else "?" for c in text)[:160]


# ------------------------------------------------------------- due, late

def parse_due(text):
    """DUE: YYYY-MM-DDTHH:MM[:SS] then an optional zone (Z, +HH:MM, +HHMM,
    or a space and a tz database name such as Europe/Paris); UTC when none.
    Without seconds the whole minute is on time (23:59 is 23:59:59, as
    Canvas keeps a due time picked as 11:59 PM)."""
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)"
                     r"(?:(Z|[+-]\d{2}:?\d{2})|\s+([A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*))?", text.strip())
    if not m:
        raise Bad("DUE='%s' is not a date and time (2026-11-20T23:59, 2026-11-20T23:59+01:00 "
                  "or '2026-11-20T23:59 Europe/Paris')" % text)
    try:
        when = dt.datetime.fromisoformat(m.group(1) + "T" + m.group(2))
        if m.group(2).count(":") == 1:
            when += dt.timedelta(seconds=59)
    except ValueError as e:
        raise Bad("DUE='%s': %s" % (text, e))
    zone, name = m.group(3), m.group(4)
    if name:
        try:
            import zoneinfo
            tz = zoneinfo.ZoneInfo(name)
        except Exception:
            raise Bad("DUE='%s': no time zone '%s' here (a tz database name, e.g. America/New_York)" % (text, name))
    elif zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        tz = dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
    else:
        tz = dt.timezone.utc
    return when.replace(tzinfo=tz).astimezone(dt.timezone.utc)


def parse_late(text):
    """LATE, the late rule:
        LATE  := none | RATE "/day" [ ",max=" PCT ]
        RATE, PCT := a number and "%", from 0 to 100
    RATE of the points possible comes off per started day late (a day is
    24 hours from DUE), at most PCT in all, never more than the score.
    Returns (rate, cap) in percent; none is (0, 0)."""
    t = text.strip().replace(" ", "")
    if t in ("", "none"):
        return 0.0, 0.0
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(%?)/day(?:,max=(\d+(?:\.\d+)?)(%?))?", t)
    if not m:
        raise Bad("LATE='%s' is not a late rule (none, 10%%/day or 10%%/day,max=50%%)" % text)
    if not m.group(2) or (m.group(3) is not None and not m.group(4)):
        raise Bad("LATE='%s': a rate and a cap are percentages of the points, with a '%%' (10%%/day,max=50%%)" % text)
    rate = float(m.group(1))
    cap = float(m.group(3)) if m.group(3) is not None else 100.0
    if not 0 <= rate <= 100 or not 0 <= cap <= 100:
        raise Bad("LATE='%s': a percentage is from 0%% to 100%%" % text)
    return rate, cap


def iso(when):
    """WHEN (UTC) as 2026-11-20T23:59:00Z."""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def late_of(sub, due, rule):
    """(days, percent, line) for a student: days late ('' when not known),
    the percent of the points to take off, and the report's late line.
    SUB: the student's submissions.tsv row (or None: a plain folder)."""
    rate, cap = rule
    rule_text = "LATE=none" if rate == 0 else "LATE=%s%%/day%s" % (fmt(rate), ",max=%s%%" % fmt(cap) if cap < 100 else "")
    sub = sub or {}
    if sub.get("submitted_at"):
        submitted = dt.datetime.strptime(sub["submitted_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
        late_s = (submitted - due).total_seconds()
        days = math.ceil(late_s / 86400) if late_s > 0 else 0
        head = "late: submitted %s, due %s: " % (sub["submitted_at"], iso(due))
    elif sub.get("lms") == "canvas":
        # Canvas's zip says late or not (against Canvas's own due date), not
        # when: a late mark is at least one started day, as Canvas's late
        # policy counts it (ceil of a time past the due date)
        days = 1 if sub.get("late_mark") else 0
        head = "late: submitted at a time the download does not give (Canvas marks it %s), due %s: " % (
            "late" if days else "on time", iso(due))
        if days:
            pct = min(rate * days, cap)
            return days, pct, head + "counted as 1 day late (the least a late mark means), " + deduction_words(pct, rule_text)
    else:
        return "", 0.0, "late: submitted at an unknown time (%s gives none), due %s: no deduction" % (
            "this download" if sub else "a plain folder", iso(due))
    if days == 0:
        return 0, 0.0, head + "on time, no deduction"
    pct = min(rate * days, cap)
    return days, pct, head + "%d day%s late, %s" % (days, "" if days == 1 else "s", deduction_words(pct, rule_text))


def deduction_words(pct, rule_text):
    """The deduction of a late line, in words."""
    if pct == 0:
        return "no deduction (%s)" % rule_text
    return "deduction %s%% of the points possible (%s)" % (fmt(pct), rule_text)


def fmt(x):
    """A number as a gradebook shows it: at most two decimals, no trailing zeros."""
    s = "%.2f" % x
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# ------------------------------------------------------------- downloads

# Canvas (lib/content_zipper.rb): <name>[_LATE]_<user id>_<attachment id>_<file>
CANVAS_FILE = re.compile(r"(?P<name>.+?)(?:_(?P<late>LATE|late))?_(?P<uid>\d+)_(?P<aid>\d+)_(?P<file>.+)", re.S)
CANVAS_ANON = re.compile(r"(?:(?P<late>LATE|late)_)?anon_(?P<anon>[A-Za-z0-9]+)_(?P<aid>\d+)_(?P<file>.+)", re.S)
CANVAS_TEXT = re.compile(r"(?P<name>.+?)(?:_(?P<late>LATE|late))?_(?P<uid>\d+)_(?P<file>text\.html|link\.html)", re.S)
# a file uploaded again (app/models/attachment.rb make_unique_filename)
CANVAS_AGAIN = re.compile(r"(?P<base>.+?)-[1-9][0-9]*(?P<ext>(?:\.[A-Za-z][A-Za-z0-9]*)*\.[A-Za-z0-9]*)?", re.S)


def canvas_parse(name):
    """A Canvas download's file name as a dict (student, user id, late mark,
    attachment id, original name), or None when it names no student."""
    m = CANVAS_ANON.fullmatch(name)
    if m:
        uid, who, aid = "", "anon_" + m.group("anon"), int(m.group("aid"))
    else:
        m = CANVAS_FILE.fullmatch(name) or CANVAS_TEXT.fullmatch(name)
        if not m:
            return None
        uid, who = m.group("uid"), m.group("name")
        aid = int(m.group("aid")) if "aid" in m.groupdict() else 0
    original = m.group("file")
    again = CANVAS_AGAIN.fullmatch(original)
    if again:
        original = again.group("base") + (again.group("ext") or "")
    return {"name": who, "uid": uid, "late": bool(m.group("late")), "aid": aid, "file": original,
            "student": student_name(who + ("_" + uid if uid else ""))}


class Source:
    """What a download holds: names relative to its root, each readable."""

    def __init__(self, path):
        self.zip = None
        self.root = path
        entries = [e for e in os.listdir(path) if not e.startswith(".")] if os.path.isdir(path) else []
        if len(entries) == 1 and entries[0].lower().endswith(".zip") and os.path.isfile(os.path.join(path, entries[0])):
            try:
                self.zip = zipfile.ZipFile(os.path.join(path, entries[0]))
            except (OSError, zipfile.BadZipFile):
                self.zip = None

    def files(self):
        """Every regular file: (relative name, size), links and folders aside."""
        if self.zip:
            for i in self.zip.infolist():
                fmt_ = (i.external_attr >> 16) & 0o170000
                if not i.is_dir() and fmt_ in (0, 0o100000):
                    yield i.filename, i.file_size
            return
        for top, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(top, d)))
            for f in sorted(files):
                p = os.path.join(top, f)
                if os.path.isfile(p) and not os.path.islink(p):
                    yield os.path.relpath(p, self.root), os.path.getsize(p)

    def read(self, name):
        """The bytes of NAME, at most MAX_BYTES + 1 of them."""
        if self.zip:
            with self.zip.open(name) as f:
                return f.read(MAX_BYTES + 1)
        with open(os.path.join(self.root, name), "rb") as f:
            return f.read(MAX_BYTES + 1)


def find_metadata(names):
    """The folder (relative, '' for the top) holding submission_metadata.yml,
    at the top or one folder down, else None."""
    for n in names:
        parts = n.split("/")
        if parts[-1] == "submission_metadata.yml" and len(parts) <= 2:
            return "/".join(parts[:-1])
    return None


def layout(path):
    """plain, canvas or gradescope: what the folder PATH holds."""
    src = Source(path)
    names = [n for n, _ in src.files()]
    if find_metadata(names) is not None:
        return "gradescope"
    flat = [n for n in names if "/" not in n and not os.path.basename(n).startswith(".")]
    tops = [e for e in os.listdir(path) if not e.startswith(".")]
    if not src.zip and any(os.path.isdir(os.path.join(path, e)) for e in tops):
        return "plain"
    hits = sum(1 for n in flat if canvas_parse(n))
    if flat and len(flat) == len([n for n in names if not os.path.basename(n).startswith(".")]) and hits * 2 >= len(flat):
        return "canvas"
    return "plain"


def ruby_scalar(text):
    """A YAML scalar as Ruby's Psych writes one: quoted or plain."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] == "'":
        return t[1:-1].replace("''", "'")
    if len(t) >= 2 and t[0] == t[-1] == '"':
        return bytes(t[1:-1], "utf-8").decode("unicode_escape", "replace")
    return "" if t in ("~", "null") else t


def parse_metadata(text):
    """submission_metadata.yml as {folder: {"submitters": [...], "created_at": str}}:
    the subset Gradescope writes (a mapping per submission, its fields two
    spaces in, a list of submitters); deeper lines (results, block
    scalars, history) are skipped."""
    subs, cur, in_list, person = {}, None, False, None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if indent == 0:
            m = re.fullmatch(r"(['\"]?)([^'\":]+)\1:", body)
            cur = subs.setdefault(m.group(2), {"submitters": [], "created_at": ""}) if m else None
            in_list, person = False, None
            continue
        if cur is None:
            continue
        if indent == 2 and not body.startswith("-"):  # a field of the submission
            in_list, person = False, None
            m = re.fullmatch(r":(\w+\??):\s*(.*)", body)
            if m and m.group(1) == "submitters":
                in_list = m.group(2).strip() != "[]"
            elif m and m.group(1) == "created_at":
                cur["created_at"] = ruby_scalar(m.group(2))
            continue
        if not in_list:
            continue
        if body.startswith("- "):  # a new submitter
            person = {}
            cur["submitters"].append(person)
            body = body[2:].strip()
        m = re.fullmatch(r":(\w+):\s*(.*)", body)
        if person is not None and m and m.group(1) in ("name", "sid", "email"):
            person[m.group(1)] = ruby_scalar(m.group(2))
    return subs


def ruby_time(text):
    """A Ruby time (2026-04-26 17:34:00.861687000 Z, or with -07:00) as UTC ISO, '' if none."""
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?", text.strip())
    if not m:
        return ""
    when = dt.datetime.fromisoformat(m.group(1) + "T" + m.group(2))
    zone = m.group(3) or "Z"
    if zone in ("Z", "UTC"):
        tz = dt.timezone.utc
    else:
        digits = zone[1:].replace(":", "")
        tz = dt.timezone((-1 if zone[0] == "-" else 1) * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
    return iso(when.replace(tzinfo=tz).astimezone(dt.timezone.utc))


def canvas_students(src, say):
    """Canvas's flat files grouped per student: {student: record}, the
    files of each as {original name: (attachment id, name in the download)}."""
    students = {}
    for name, _ in src.files():
        base = os.path.basename(name)
        if base.startswith(".") or "/" in name:
            say("== %s: names no student (not a Canvas submission file): not graded" % shown(name))
            continue
        p = canvas_parse(base)
        if not p or p["file"] in ("", ".", ".."):
            say("== %s: names no student (not a Canvas submission file): not graded" % shown(name))
            continue
        s = students.setdefault(p["student"], {"lms": "canvas", "user_id": p["uid"], "sis_id": "", "email": "",
                                               "name": p["name"], "submitted_at": "", "late_mark": "", "files": {},
                                               "attachment": ""})
        if p["late"]:
            s["late_mark"] = "LATE"
        old = s["files"].get(p["file"])
        if old and old[0] > p["aid"]:  # the later upload (the larger attachment id) stays
            continue
        s["files"][p["file"]] = (p["aid"], name)
    for s in students.values():
        s["attachment"] = str(s["files"][min(s["files"])][0])
    return students


def gradescope_students(src, say):
    """Gradescope's folders, one student per submitter of each (a group's
    submission goes to each of its members): {student: record}."""
    names = [n for n, _ in src.files()]
    top = find_metadata(names)
    prefix = top + "/" if top else ""
    meta = parse_metadata(src.read(prefix + "submission_metadata.yml").decode("utf-8", "replace"))
    folders = {}
    for n in names:
        rest = n[len(prefix):] if n.startswith(prefix) else None
        if rest is None or rest == "submission_metadata.yml":
            continue
        if "/" not in rest:
            say("== %s: names no student (not in a submission folder): not graded" % shown(n))
            continue
        folder, inner = rest.split("/", 1)
        folders.setdefault(folder, []).append((inner, n))
    students = {}
    for folder in sorted(folders):
        sub = meta.get(folder)
        if not sub or not sub["submitters"]:
            say("== %s/: names no student (no submitter in submission_metadata.yml): not graded" % shown(prefix + folder))
            continue
        for person in sub["submitters"]:
            ident = person.get("sid") or (person.get("email") or "").split("@")[0] or folder
            who = student_name((person.get("name") or "student") + "_" + ident)
            students[who] = {"lms": "gradescope", "user_id": "", "sis_id": person.get("sid", ""),
                             "email": person.get("email", ""), "name": person.get("name", ""),
                             "submitted_at": ruby_time(sub["created_at"]), "late_mark": "",
                             "files": {inner: (0, n) for inner, n in folders[folder]}, "attachment": ""}
    for folder in sorted(set(meta) - set(folders)):
        say("== %s: in submission_metadata.yml but no folder %s/: not graded" % (
            ", ".join(shown(p.get("name") or p.get("sid") or "?") for p in meta[folder]["submitters"]) or "nobody",
            shown(prefix + folder)))
    return students


def write_entry(src, who, rec, dest, say):
    """One student's entry in DEST: the folder DEST/<who>/ with the files
    under their own names, or DEST/<who>.zip (.tar.gz) when the student
    handed in one archive alone (grade.sh unpacks it as any other)."""
    files = rec["files"]
    only = list(files)
    if len(only) == 1 and "/" not in only[0] and only[0].lower().endswith(ARCHIVES):
        ext = next(e for e in ARCHIVES if only[0].lower().endswith(e))
        targets = {only[0]: os.path.join(dest, who + ext)}
    else:
        targets = {}
        for inner in files:
            parts = [p for p in inner.split("/") if p not in ("", ".")]
            if not parts or ".." in parts:
                say("== %s: '%s' refused (a '..' in its path)" % (who, shown(inner)))
                continue
            targets[inner] = os.path.join(dest, who, *parts)
    total = 0
    if len(targets) > MAX_FILES:
        say("== %s: only the first %d files are taken (GRADE_MAX_FILES)" % (who, MAX_FILES))
        targets = dict(sorted(targets.items())[:MAX_FILES])
    for inner, target in sorted(targets.items()):
        data = src.read(files[inner][1])
        total += len(data)
        if total > MAX_BYTES:
            say("== %s: the files past %d MiB are left out (GRADE_MAX_BYTES)" % (who, MAX_BYTES >> 20))
            break
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    if not targets:  # nothing usable: an empty entry, graded as handing in nothing
        os.makedirs(os.path.join(dest, who), exist_ok=True)


# attachment: Canvas's id of one of the student's files (the first by its
# original name), with which make feedback names the student's report for
# Canvas's Re-Upload Submissions (harness/feedback.sh)
SUB_FIELDS = ["student", "lms", "user_id", "sis_id", "email", "name", "submitted_at", "late_mark", "attachment"]


def incoming(subs_dir, grades, say):
    """GRADES/.incoming/ rebuilt from the download, and GRADES/submissions.tsv."""
    kind = layout(subs_dir)
    src = Source(subs_dir)
    students = canvas_students(src, say) if kind == "canvas" else gradescope_students(src, say)
    dest = os.path.join(grades, ".incoming")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for who in sorted(students):
        write_entry(src, who, students[who], dest, say)
    rows = [[who] + [students[who][k] for k in SUB_FIELDS[1:]] for who in sorted(students)]
    write_atomic(os.path.join(grades, "submissions.tsv"),
                 "# " + "\t".join(SUB_FIELDS) + "\n" +
                 "".join("\t".join(c.replace("\t", " ").replace("\n", " ") for c in r) + "\n" for r in rows))
    say("%s download: %d student%s in %s" % (kind.capitalize(), len(rows), "" if len(rows) == 1 else "s", dest))


def write_atomic(path, text):
    """TEXT into PATH through a new file renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix="." + os.path.basename(path) + ".")
    with os.fdopen(fd, "w", newline="") as f:
        f.write(text)
    os.chmod(tmp, 0o666 & ~current_umask())
    os.replace(tmp, path)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ------------------------------------------------------------- gradebook

def read_gradebook(grades):
    """gradebook.csv as (header, rows, points row): read by header name;
    a row of student 'Points Possible' is the points row, not a student."""
    path = os.path.join(grades, "gradebook.csv")
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    if not table or "student" not in table[0]:
        raise Bad("'%s' has no student column" % path)
    header, rows, points = table[0], [], None
    for r in table[1:]:
        row = dict(zip(header, r + [""] * (len(header) - len(r))))
        if row["student"] == "Points Possible":
            points = row
        elif row["student"]:
            rows.append(row)
    return header, rows, points


def read_submissions(grades):
    """GRADES/submissions.tsv as {student: row}; {} when there is none."""
    path = os.path.join(grades, "submissions.tsv")
    if not os.path.exists(path):
        return {}
    out = {}
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            row = dict(zip(SUB_FIELDS, cells + [""] * len(SUB_FIELDS)))
            out[row["student"]] = row
    return out


def dry_students(grades):
    """The students whose last grading in the record (.graded.tsv) ran no
    test on a GPU (mode dry): they have no score, whatever a total says."""
    last = {}
    path = os.path.join(grades, ".graded.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                cells = line.rstrip("\n").split("\t")
                last[cells[0]] = cells[9] if len(cells) > 9 else ""
    return {s for s, mode in last.items() if mode == "dry"}


def score_of(row, dry, column="total"):
    """A student's score as a number, or None: no score (empty, none, a dry run)."""
    value = (row.get(column) or "").strip()
    if row["student"] in dry or value.lower() in ("", "none", "-", "n/a"):
        return None
    try:
        return float(value)
    except ValueError:
        return None


def possible_of(grades, student, header, points):
    """The points possible of the gradebook's labs for STUDENT: the points
    row's total when there is one, else the max column of the student's
    scores.tsv over the labs the gradebook shows."""
    if points and points.get("total", "").strip():
        try:
            return float(points["total"])
        except ValueError:
            pass
    labs = {h[3:] for h in header if re.fullmatch(r"lab\d+", h)}
    total, cols = 0.0, None
    try:
        with open(os.path.join(grades, student, "scores.tsv")) as f:
            for line in f:
                cells = line.rstrip("\n").split("\t")
                if line.startswith("# "):
                    cols = [c.strip() for c in line[2:].rstrip("\n").split("\t")]
                    continue
                if cols and len(cells) == len(cols):
                    row = dict(zip(cols, cells))
                    if not labs or row.get("lab") in labs:
                        total += float(row.get("max") or 0)
    except (OSError, ValueError):
        return None
    return total or None


def add_late(grades, due, rule, say):
    """The gradebook's late columns (late_days, deduction in points, final)
    and each student's late line; on stdout, who is late and by how much;
    {student: final or None} for the export."""
    header, rows, points = read_gradebook(grades)
    subs, dry = read_submissions(grades), dry_students(grades)
    new = header + [c for c in ("late_days", "deduction", "final") if c not in header]
    out, finals, late, timeless = io.StringIO(), {}, [], 0
    w = csv.writer(out, lineterminator="\n")
    w.writerow(new)
    if points:
        points.update(late_days="", deduction="", final=points.get("total", ""))
        w.writerow([points.get(h, "") for h in new])
    for row in rows:
        sub = subs.get(row["student"])
        days, pct, line = late_of(sub, due, rule)
        score = score_of(row, dry)
        possible = possible_of(grades, row["student"], header, points)
        cut = None if score is None or possible is None else min(possible * pct / 100, score)
        finals[row["student"]] = None if cut is None else score - cut
        row.update(late_days=str(days), deduction="" if cut is None else fmt(cut),
                   final="" if cut is None else fmt(score - cut))
        w.writerow([row.get(h, "") for h in new])
        set_late_line(os.path.join(grades, row["student"], "report.txt"), line)
        if days == "":
            timeless += 1
        elif days > 0:
            late.append((row["student"], days, pct, cut, possible, sub or {}))
    write_atomic(os.path.join(grades, "gradebook.csv"), out.getvalue())
    for line in late_lines(due, rule, late, len(rows), timeless):
        say(line)
    return finals


def late_lines(due, rule, late, n, timeless):
    """The run's lines of who is late and by how much."""
    rate, cap = rule
    rule_text = "LATE=none" if rate == 0 else "LATE=%s%%/day%s" % (fmt(rate), ",max=%s%%" % fmt(cap) if cap < 100 else "")
    lines = ["lms: late against DUE %s (%s): %d of %d graded" % (iso(due), rule_text, len(late), n)]
    width = max((len(shown(s)) for s, *_ in late), default=0)
    for student, days, pct, cut, possible, sub in sorted(late):
        off = ("no deduction" if pct == 0 else
               "deduction %s (%s%% of %s)" % (fmt(cut), fmt(pct), fmt(possible)) if cut is not None else
               "deduction %s%% (no score here)" % fmt(pct))
        why = ("submitted " + sub["submitted_at"] if sub.get("submitted_at") else
               "Canvas's late mark (no time: 1 day, the least it means)")
        lines.append("  %-*s %3d day%s  %-30s %s" % (width, shown(student), days, " " if days == 1 else "s", off, why))
    if timeless:
        lines.append("lms: %d with no submission time (a plain folder gives none): not counted late" % timeless)
    return lines


def drop_late(grades):
    """No DUE: no late columns in the gradebook, no late line in a report."""
    header, rows, points = read_gradebook(grades)
    keep = [h for h in header if h not in ("late_days", "deduction", "final")]
    if keep != header:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(keep)
        for row in ([points] if points else []) + rows:
            w.writerow([row.get(h, "") for h in keep])
        write_atomic(os.path.join(grades, "gradebook.csv"), out.getvalue())
    for row in rows:
        set_late_line(os.path.join(grades, row["student"], "report.txt"), None)


def set_late_line(report, line):
    """REPORT's late line set to LINE (None: taken out), the file renamed
    into place only when it changes."""
    try:
        with open(report) as f:
            text = f.read()
    except OSError:
        return
    lines = [l for l in text.splitlines() if not l.startswith("late: ")]
    if line:
        lines.append(line)
    new = "\n".join(lines) + "\n"
    if new != text:
        write_atomic(report, new)


# --------------------------------------------------------------- rosters

def read_roster(path):
    """The roster's rows (a list of lists) and which LMS wrote it, by its header."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            text = f.read()
    except OSError as e:
        raise Bad("ROSTER='%s': %s" % (path, e.strerror))
    first = text.split("\n", 1)[0]
    delim = ";" if first.count(";") > first.count(",") else ","
    table = [r for r in csv.reader(io.StringIO(text), delimiter=delim)]
    if not table:
        raise Bad("ROSTER='%s' is empty" % path)
    h = [c.strip() for c in table[0]]
    table[0] = h
    if len(h) > 3 and (h[0] == "Student" and h[1] == "ID" or h[:3] == ["LastName", "FirstName", "ID"]) and "Section" in h:
        return "canvas", table
    if "First name" in h and "Last name" in h and ("Email address" in h or "ID number" in h):
        return "moodle", table
    if "SID" in h and "Email" in h:
        return "gradescope", table
    raise Bad("ROSTER='%s' is not a Canvas, Gradescope or Moodle gradebook export (its header: %s)" % (
        path, shown(",".join(h))[:120]))


NEW = "new:"  # ASSIGNMENT="new:Lab 3": a new Canvas column, asked for by name


def roster_row_is_student(kind, row):
    """A row of the roster is a student's: not Canvas's Points Possible
    row, nor its rows of posting words (Muted, Manual Posting)."""
    first = row[0] if row else ""
    return not (kind == "canvas" and ("Points Possible" in first or
                                      all(re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", c or "", re.I) for c in row)))


def roster_names(path, say):
    """Each student of the roster on a line, as the run's lines name them
    (who_row: the name and its ids), for the check service's accounts
    (make tokens)."""
    kind, table = read_roster(path)
    h = table[0]
    for row in table[1:]:
        if row and any(c.strip() for c in row) and roster_row_is_student(kind, row):
            say(shown(who_row(h, row)))


def info_columns(kind, h):
    """How many of the roster's first columns say who a student is (kept as they are)."""
    if kind == "canvas":
        return h.index("Section") + 1
    if kind == "moodle":
        return (h.index("Email address") if "Email address" in h else h.index("ID number")) + 1
    known = {"First Name", "Last Name", "Name", "SID", "Email", "Sections", "section_name"}
    n = 0
    while n < len(h) and h[n] in known:
        n += 1
    return n


def assignment_columns(kind, h):
    """The roster's assignment columns, as [(index, names, id)]: NAMES the
    forms of its title a user may give (the header first), ID Canvas's
    assignment id ('' elsewhere). Canvas: a header "<title> (<id>)" after
    Section (totals and custom columns have no id); Moodle: "<module>:
    <item> (<display type>)" or "<item> (<display type>)", not a feedback
    column nor the course total; Gradescope: a column X with an "X - Max
    Points" beside it (else any column past the students' without " - ")."""
    out = []
    for i in range(info_columns(kind, h), len(h)):
        c = h[i].strip()
        if kind == "canvas":
            m = re.fullmatch(r"(.*?)\s*\((\d+)\)", c, re.S)
            if m and m.group(1):
                out.append((i, [c, m.group(1)], m.group(2)))
        elif kind == "moodle":
            m = re.fullmatch(r"(.*?)\s*\(([^()]*)\)", c, re.S)
            if not m or m.group(2) == "Feedback" or m.group(1) == "Course total":
                continue
            names = [c, m.group(1)]
            item = re.sub(r"^[^:]+:\s*", "", m.group(1))
            if item and item != m.group(1):
                names.append(item)
            out.append((i, names, ""))
        else:
            out.append((i, [c], ""))
    if kind == "gradescope":
        with_max = [o for o in out if o[1][0] + " - Max Points" in h]
        out = with_max or [o for o in out if " - " not in o[1][0] and not o[1][0].startswith("Total ")]
    return out


def starts_word(name, prefix):
    """PREFIX begins NAME and ends at a word's end there: "Lab 1" begins
    "Lab 1: prefix sum", not "Lab 10" (case aside)."""
    n, p = name.casefold(), prefix.casefold()
    if not p or not n.startswith(p) or len(n) == len(p):
        return False
    return not (p[-1].isalnum() and n[len(p)].isalnum())


def find_column(kind, table, assignment, path):
    """ASSIGNMENT's column in the roster: (index, how) with HOW "its title",
    "its id" or "the start of its title"; (None, "new") for "new:<title>"
    (Canvas only); else Bad, listing the assignment columns when none or
    several match. An exact title wins over a prefix; a prefix matches
    only at a word's end, and only one column."""
    h = table[0]
    cols = assignment_columns(kind, h)
    a = assignment.strip()
    listing = ["  " + shown(h[i]) for i, _, _ in cols] or ["  (none)"]
    if a.casefold().startswith(NEW):
        title = a[len(NEW):].strip()
        if kind != "canvas":
            raise Bad("ASSIGNMENT='%s': a new column is for Canvas alone (its import makes the assignment); "
                      "make '%s' in %s first, and export the grades again" % (a, title, kind.capitalize()))
        if not title:
            raise Bad("ASSIGNMENT='%s' names no title (ASSIGNMENT=\"new:Lab 3\")" % a)
        same = [i for i, names, _ in cols if any(n.casefold() == title.casefold() for n in names)]
        if same:
            raise Bad("ASSIGNMENT='%s': the Canvas roster '%s' has '%s' already: ASSIGNMENT='%s' fills it (a new "
                      "one would be a second assignment of that title)" % (a, path, shown(h[same[0]]), title))
        return None, "new"
    ways = "title, id or the start of a title" if kind == "canvas" else "title or the start of a title"
    tries = (("its title", lambda names, cid: any(n.casefold() == a.casefold() for n in names)),
             ("its id", lambda names, cid: a.isdigit() and cid == a),
             ("the start of its title", lambda names, cid: any(starts_word(n, a) for n in names)))
    for how, hit in tries:
        hits = [i for i, names, cid in cols if hit(names, cid)]
        if len(hits) == 1:
            return hits[0], how
        if hits:
            raise Bad("ASSIGNMENT='%s' matches %d assignment columns of the %s roster '%s' (%s of each); name one "
                      "by %s:" % (a, len(hits), kind.capitalize(), path,
                                  "the title" if how == "its title" else "the start of the title",
                                  "its id" if kind == "canvas" and how == "its title" else
                                  "its whole title or its id" if kind == "canvas" else "its whole header"),
                      ["  " + shown(h[i]) for i in hits])
    raise Bad("ASSIGNMENT='%s' matches no assignment column of the %s roster '%s' (by %s); name one of these%s:" % (
        a, kind.capitalize(), path, ways,
        ", or ASSIGNMENT='new:%s' for a new assignment" % a if kind == "canvas" else
        ", or make the assignment in %s first and export the grades again" % kind.capitalize()), listing)


def column_title(kind, table, col, assignment):
    """The title of the import file's grade column: the roster's header, or
    for a new Canvas column the title asked for."""
    return table[0][col] if col is not None else assignment.strip()[len(NEW):].strip()


def check_roster(path, assignment):
    """The roster and ASSIGNMENT usable together: (kind, table, column
    index or None for a new one, how it was found), or Bad."""
    kind, table = read_roster(path)
    if not assignment.strip():
        raise Bad("ROSTER='%s' needs ASSIGNMENT=\"<the column to fill>\": the %s of one of these:" % (
            path, "title, id or start of the title" if kind == "canvas" else "title or start of the title"),
                  ["  " + shown(table[0][i]) for i, _, _ in assignment_columns(kind, table[0])] or ["  (none)"])
    col, how = find_column(kind, table, assignment, path)
    return kind, table, col, how


def column_line(path, assignment, kind, table, col, how):
    """The line that says which column of the roster PATH ASSIGNMENT fills."""
    if col is None:
        return ("lms: ASSIGNMENT='%s': a new column '%s' in the import file: Canvas makes the assignment when the "
                "file is imported" % (shown(assignment), shown(column_title(kind, table, col, assignment))))
    return "lms: ASSIGNMENT='%s' is the column '%s' of the %s roster '%s' (by %s)" % (
        shown(assignment), shown(table[0][col]), kind.capitalize(), shown(os.path.basename(path)), how)


def points_lines(public, seeded_max, seeded):
    """The run's line of the points possible, this run's and the other
    kind's: without PRIMLAB_SEED (the public tests) and with it (hidden
    tests added), so that a practice run says what the graded run is out of."""
    if public is None or seeded_max is None:
        return []
    if seeded:
        return ["lms: points possible: %s in this run (PRIMLAB_SEED set: hidden tests added); %s without "
                "PRIMLAB_SEED" % (fmt(seeded_max), fmt(public))]
    return ["lms: points possible: %s in this run (no PRIMLAB_SEED: the public tests alone); the graded run "
            "(PRIMLAB_SEED set: hidden tests added) is out of %s: set the LMS's points possible to %s" % (
                fmt(public), fmt(seeded_max), fmt(seeded_max))]


def roster_keys(kind, h, row):
    """The ids a roster row carries, as (kind of id, value) keys."""
    get = lambda c: row[h.index(c)].strip() if c in h and h.index(c) < len(row) else ""
    keys = []
    ids = {"canvas": [("uid", "ID"), ("sis", "SIS User ID"), ("sis", "SIS Login ID")],
           "gradescope": [("sis", "SID"), ("email", "Email")],
           "moodle": [("sis", "ID number"), ("email", "Email address")]}[kind]
    for what, col in ids:
        v = get(col)
        if not v:
            continue
        keys.append((what, v.lower() if what == "email" else v))
        if "@" in v and what != "email":
            keys.append(("email", v.lower()))
        keys.append(("plain", student_name(v)))
    return keys


def student_keys(student, sub):
    """The ids a graded student carries (never a display name): the
    download's ids, or for a plain folder its name, matched to a roster's
    ids (a folder named after a login, an email or a student number)."""
    if not sub or sub.get("lms") in (None, "", "plain"):
        return [("plain", student)]
    keys = [("uid", sub["user_id"])] if sub.get("user_id") else []
    keys += [("sis", sub["sis_id"])] if sub.get("sis_id") else []
    keys += [("email", sub["email"].lower())] if sub.get("email") else []
    return keys


KEY_WORDS = {"uid": "user id", "sis": "SIS id", "email": "email", "plain": "folder name"}


def export(grades, roster, assignment, finals, points_seed, say):
    """GRADES/lms-import.csv: the roster as the LMS imports it, with
    ASSIGNMENT's column filled; on stdout, who was matched to which roster
    row and by which id; GRADES/lms-unmatched.txt (and stdout): roster
    students with no submission, submissions with no roster row; a note
    when the LMS's points possible are not POINTS_SEED, the graded run's
    maximum (this run's when None), which a new column is given."""
    kind, table, col, _ = check_roster(roster, assignment)
    h, n_info = table[0], info_columns(kind, table[0])
    header, rows, points = read_gradebook(grades)
    subs, dry = read_submissions(grades), dry_students(grades)
    use = "final" if "final" in header else "total"
    scores = {r["student"]: (finals.get(r["student"]) if r["student"] in finals else score_of(r, dry, use)) for r in rows}
    students = sorted(set(scores) | set(subs))
    index = {}
    is_student = []
    for i, row in enumerate(table[1:], 1):
        special = not roster_row_is_student(kind, row)
        is_student.append(not special)
        if not special:
            for key in roster_keys(kind, h, row):
                index.setdefault(key, i)
    matched, loose, by = {}, [], {}
    for s in students:
        key = next((k for k in student_keys(s, subs.get(s)) if k in index), None)
        hit = index[key] if key else None
        if hit is None or hit in matched:
            loose.append(s)
        else:
            matched[hit], by[hit] = s, key
    possible = max((possible_of(grades, s, header, points) or 0 for s in scores), default=0)
    want = points_seed if points_seed is not None else possible  # what the graded run is out of
    title = column_title(kind, table, col, assignment)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(h[:n_info] + [title])
    for i, row in enumerate(table[1:], 1):
        row = row + [""] * (len(h) - len(row))
        cell = ""
        if not is_student[i - 1]:
            if "Points Possible" in row[0]:
                cell = row[col] if col is not None and row[col].strip() else fmt(want)
            elif col is not None:
                cell = row[col]
        elif i in matched and scores.get(matched[i]) is not None:
            cell = fmt(scores[matched[i]])
        elif col is not None:
            # no score here: the cell the LMS exported, so that the import
            # changes nothing (Canvas reads a blank over a grade as a change)
            cell = row[col]
        w.writerow(row[:n_info] + [cell])
    write_atomic(os.path.join(grades, "lms-import.csv"), out.getvalue())
    for line in matched_lines(kind, h, table, matched, by):
        say(line)
    lines = unmatched_lines(kind, h, table, is_student, matched, loose, subs)
    write_atomic(os.path.join(grades, "lms-unmatched.txt"), "\n".join(lines) + "\n")
    for line in lines:
        say(line)
    pp = next((r for r in table[1:] if r and "Points Possible" in r[0]), None)
    if col is not None and pp and len(pp) > col and pp[col].strip():
        try:
            if want and abs(float(pp[col]) - want) > 1e-9:
                say("lms: note: %s's '%s' has points possible %s, the graded run's grades are out of %s: set it "
                    "to %s in %s before importing (or import them as they are)" % (
                        kind.capitalize(), shown(title), fmt(float(pp[col])), fmt(want), fmt(want), kind.capitalize()))
        except ValueError:
            pass
    say("lms: %s import file: %s (column '%s'%s; %d of %d roster students with a grade)" % (
        kind.capitalize(), os.path.join(grades, "lms-import.csv"), shown(title),
        "" if col is not None else ", a new assignment: ASSIGNMENT=new:...",
        sum(1 for i in matched if scores.get(matched[i]) is not None), sum(is_student)))


def who_row(h, row):
    """A roster row as a name and its ids: Jones, Ann (ID 1002, SIS User ID S1002)."""
    names = [row[h.index(c)] for c in ("Student", "LastName", "FirstName", "First Name", "Last Name", "Name",
                                        "First name", "Last name") if c in h and h.index(c) < len(row)]
    ids = [c + " " + row[h.index(c)] for c in ("ID", "SIS User ID", "SID", "ID number", "Email", "Email address")
           if c in h and h.index(c) < len(row) and row[h.index(c)]]
    return "%s (%s)" % (" ".join(n for n in names if n) or "?", ", ".join(ids) or "no id")


def matched_lines(kind, h, table, matched, by):
    """The run's lines of who was matched to which roster row, by which id."""
    pairs = sorted((matched[i], i) for i in matched)
    width = max((len(shown(s)) for s, _ in pairs), default=0)
    lines = ["lms: submissions matched to a row of the %s roster (%d):" % (kind.capitalize(), len(pairs))]
    for s, i in pairs:
        lines.append("  %-*s -> %s, by %s" % (width, shown(s), shown(who_row(h, table[i])), KEY_WORDS[by[i][0]]))
    return lines


def unmatched_lines(kind, h, table, is_student, matched, loose, subs):
    """The lines of lms-unmatched.txt."""
    absent = [who_row(h, table[i]) for i in range(1, len(table)) if is_student[i - 1] and i not in matched]
    lines = ["lms: roster students with no submission (%d):" % len(absent)] + ["  " + shown(a) for a in absent]
    lines.append("lms: submissions with no roster row (%d):" % len(loose))
    for s in loose:
        sub = subs.get(s) or {}
        ids = [k + " " + sub[k] for k in ("user_id", "sis_id", "email") if sub.get(k)]
        lines.append("  %s (%s)" % (shown(s), ", ".join(ids) or "a plain folder: its name is no id of the roster"))
    return lines


# ------------------------------------------------------------------- main

def points_arg(text):
    """A points possible argument: a number, or '' for not known."""
    return float(text) if text.strip() else None


def drop_roster_files(grades, say):
    """A run without ROSTER: an earlier run's import file and list of
    roster students with no submission no longer match the gradebook (nor
    does the class report, which counts that list): removed, said once."""
    gone = []
    for name in ("lms-import.csv", "lms-unmatched.txt"):
        try:
            os.remove(os.path.join(grades, name))
            gone.append(name)
        except FileNotFoundError:
            pass
    if gone:
        say("lms: no ROSTER in this run: %s of an earlier run removed (it no longer matches the gradebook)"
            % " and ".join(gone))


def main(argv):
    ap = argparse.ArgumentParser(prog="harness/lms.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("check", "finish"):
        p = sub.add_parser(name)
        if name == "finish":
            p.add_argument("grades")
        p.add_argument("--due", default="")
        p.add_argument("--late", default="")
        p.add_argument("--roster", default="")
        p.add_argument("--assignment", default="")
        if name == "finish":
            p.add_argument("--points-public", type=points_arg, default=None)
            p.add_argument("--points-seed", type=points_arg, default=None)
            p.add_argument("--seeded", action="store_true")
    sub.add_parser("layout").add_argument("submissions")
    sub.add_parser("names").add_argument("roster")
    p = sub.add_parser("incoming")
    p.add_argument("submissions")
    p.add_argument("grades")
    a = ap.parse_args(argv)
    say = lambda line: print(line, flush=True)
    try:
        if a.cmd == "names":
            roster_names(a.roster, say)
        elif a.cmd == "layout":
            try:
                print(layout(a.submissions))
            except (OSError, zipfile.BadZipFile, ValueError):
                print("plain")  # what cannot be read as a download is graded as before
        elif a.cmd == "incoming":
            incoming(a.submissions, a.grades, say)
        else:
            due = parse_due(a.due) if a.due.strip() else None
            rule = parse_late(a.late)
            if a.late.strip() and due is None:
                raise Bad("LATE='%s' needs DUE=<the due date> (e.g. DUE=2026-11-20T23:59)" % a.late)
            if a.assignment.strip() and not a.roster:
                raise Bad("ASSIGNMENT='%s' needs ROSTER=<the LMS's gradebook export, .csv>" % a.assignment)
            if a.cmd == "check":
                if a.roster:
                    say(column_line(a.roster, a.assignment, *check_roster(a.roster, a.assignment)))
            else:
                # the late columns first: a roster that cannot be used loses nothing else
                finals = add_late(a.grades, due, rule, say) if due else {}
                if not due:
                    drop_late(a.grades)
                for line in points_lines(a.points_public, a.points_seed, a.seeded):
                    say(line)
                if a.roster:
                    export(a.grades, a.roster, a.assignment, finals, a.points_seed, say)
                else:
                    drop_roster_files(a.grades, say)
    except Bad as e:
        print("lms: %s" % e, file=sys.stderr)
        for line in e.lines:
            print(line, file=sys.stderr)
        return 2
    except (OSError, csv.Error, UnicodeDecodeError, zipfile.BadZipFile) as e:
        print("lms: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
