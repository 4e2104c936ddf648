#!/usr/bin/python3
"""validate.py DIR [TEXT...] - the grader's reports in DIR, checked whatever
their values, so that one golden (the grade book) pins the rest:
  - each format well-formed: the JUnit XML as the JUnit schema has it
    (testsuites / testsuite / testcase with name and classname, at most one
    failure, error or skipped per case, every count adding up), TAP version
    13 (the plan, test points 1..N, YAML blocks between ---/...),
    Gradescope's results.json (score, tests with name, score, max_score,
    output), the CSV grade book (the (checks) row, every row as wide as the
    header, no cell over 8000 characters), similarity.csv;
  - the formats agreeing: the same learners, labs and functions in the same
    order everywhere; per function the checks passed and their maximum (CSV,
    Gradescope), its verdict and message (JUnit, TAP, Gradescope), the text
    that explains it (the same in JUnit, TAP and Gradescope, present for
    every failing function); per lab its state and its passed, failed and
    pending checks (CSV, TAP); per learner the totals and the percent, the
    notes (CSV, Gradescope, JUnit), the files it resembles (similarity.csv
    in full in JUnit, its first four per lab in the CSV), the seed and the
    isolation (CSV, TAP, JUnit, Gradescope);
  - no TEXT (the run's own folders: absolute paths) in any report.
Prints what is wrong; exit 1."""
import csv
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

d, forbidden = sys.argv[1], sys.argv[2:]
errors = []
err = errors.append
COUNTS = ("tests", "failures", "errors", "skipped")


def read(name):
    return open(os.path.join(d, name), encoding="utf-8", newline="").read()


# ---- JUnit: {(learner, lab, function): (kind, message, text)}, and per suite its properties and notes
def junit_case(c, suite):
    if not c.get("name") or not c.get("classname"):
        err("junit: a testcase without name or classname in %s" % suite)
    kids = [k.tag for k in c]
    verdicts = [k for k in c if k.tag in ("failure", "error", "skipped")]
    if len(verdicts) > 1 or any(k not in ("failure", "error", "skipped", "system-out", "system-err") for k in kids):
        err("junit: testcase %s has %s" % (c.get("name"), kids))
    for k in verdicts:
        if k.tag != "skipped" and k.get("message") is None:
            err("junit: %s without a message in %s" % (k.tag, c.get("name")))
    v = verdicts[0] if verdicts else None
    return (v.tag, v.get("message"), v.text or "") if v is not None else ("ok", None, "")


def junit():
    root = ET.fromstring(read("junit.xml").encode())
    cases, suites, tot = {}, {}, dict.fromkeys(COUNTS, 0)
    if root.tag != "testsuites":
        err("junit: the root is <%s>, not <testsuites>" % root.tag)
    for s in root:
        name = s.get("name") or ""
        if s.tag != "testsuite" or "." not in name:
            err("junit: <%s name=%r> under <testsuites>" % (s.tag, name))
            continue
        kids = [c.tag for c in s]
        if "properties" in kids and kids.index("properties") != 0:
            err("junit: <properties> is not the first child of testsuite %s" % name)
        props = {p.get("name"): p.get("value") for c in s if c.tag == "properties" for p in c}
        n = dict.fromkeys(COUNTS, 0)
        who, lab = name.rsplit(".lab", 1)
        for c in s:
            if c.tag not in ("testcase", "properties", "system-out"):
                err("junit: <%s> in testsuite %s" % (c.tag, name))
            if c.tag != "testcase":
                continue
            kind = cases[(who, lab, c.get("name"))] = junit_case(c, name)
            n["tests"] += 1
            for k, tag in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
                n[k] += kind[0] == tag
        for k, v in n.items():
            if s.get(k) != str(v):
                err("junit: testsuite %s says %s=%s, it has %d" % (name, k, s.get(k), v))
            tot[k] += v
        suites[(who, lab)] = (props, "".join(c.text or "" for c in s if c.tag == "system-out"))
    for k, v in tot.items():
        if root.get(k) != str(v):
            err("junit: testsuites says %s=%s, there are %d" % (k, root.get(k), v))
    return cases, suites


# ---- TAP: {(learner, lab, function): (kind, message, text, data)}, and its seed and isolation lines
POINT = re.compile(r"^(not ok|ok) ([0-9]+) - (\S+) lab([0-9]+) (\S+?)(?: # TODO (.*))?$")


def tap_yaml(lines, i):
    """the YAML block at lines[i:] ('  ---' ... '  ...'): (message, severity, data, text), next i"""
    y, text, i = {}, None, i + 1
    while i < len(lines) and lines[i] != "  ...":
        l = lines[i]
        if text is not None:
            if l and not l.startswith("    "):
                err("tap: a line of a YAML block not indented: %r" % l[:60])
            text.append(l[4:])
        elif l == "  output: |":
            text = []
        elif l.startswith("  ") and ": " in l:
            k, v = l[2:].split(": ", 1)
            y[k] = v
        else:
            err("tap: not a YAML line: %r" % l[:60])
        i += 1
    if i == len(lines):
        err("tap: a YAML block without its end (...)")
    m = re.fullmatch(r"\{pending: (\d+), passed: (\d+), failed: (\d+), status: (\".*\")\}", y.get("data", ""))
    if not m or "message" not in y:
        err("tap: a YAML block without message or data: %s" % y)
        return (None, None, None, None), i + 1
    data = (int(m.group(1)), int(m.group(2)), int(m.group(3)), json.loads(m.group(4)))
    return (json.loads(y["message"]), y.get("severity"), data, "\n".join(text or [])), i + 1


def tap():
    lines = read("results.tap").split("\n")
    if lines[:2] != ["TAP version 13", "1..%s" % lines[1][3:]] or not lines[1][3:].isdigit():
        err("tap: the first lines are not 'TAP version 13' and the plan")
        return {}, []
    points, comments, i = {}, [], 2
    while i < len(lines):
        l, i = lines[i], i + 1
        if not l or l.startswith("# "):
            comments.append(l)
            continue
        m = POINT.match(l)
        if not m:
            err("tap: not a test point: %r" % l[:60])
            continue
        if int(m.group(2)) != len(points) + 1:
            err("tap: test point %s where %d belongs" % (m.group(2), len(points) + 1))
        key = (m.group(3), m.group(4), m.group(5))
        if m.group(1) == "ok":
            points[key] = ("ok", None, "", None)
        elif m.group(6) is not None:
            points[key] = ("skipped", m.group(6), "", None)
        elif i < len(lines) and lines[i] == "  ---":
            (msg, severity, data, text), i = tap_yaml(lines, i)
            points[key] = ({"fail": "failure", "error": "error"}.get(severity), msg, text, data)
        else:
            err("tap: %s fails without a YAML block" % l[:60])
    if len(points) != int(lines[1][3:]):
        err("tap: the plan says %s, there are %d test points" % (lines[1][3:], len(points)))
    return points, comments


# ---- Gradescope: {learner: results.json}
def gradescope():
    out = {}
    for p in sorted(glob.glob(os.path.join(d, "gradescope", "*", "results.json"))):
        j = out[os.path.basename(os.path.dirname(p))] = json.loads(open(p, encoding="utf-8").read())
        if not isinstance(j.get("score"), (int, float)) or not isinstance(j.get("tests"), list):
            err("%s: no score or no tests" % p)
            j["tests"] = []
            continue
        if sum(t["score"] for t in j["tests"]) != j["score"]:
            err("%s: the tests' scores do not add up to score" % p)
        for t in j["tests"]:
            for k, ty in (("name", str), ("score", (int, float)), ("max_score", (int, float)), ("output", str)):
                if not isinstance(t.get(k), ty):
                    err("%s: a test without %s" % (p, k))
            if not 0 <= t["score"] <= t["max_score"] or t.get("visibility") != "visible":
                err("%s: %s scores %s of %s, %s" % (p, t["name"], t["score"], t["max_score"], t.get("visibility")))
    return out


# ---- the grade book: its header, the (checks) row, {learner: {column: cell}}
def gradebook():
    rows = list(csv.reader(read("gradebook.csv").splitlines()))
    head = rows[0]
    if head[0] != "learner" or rows[1][0] != "(checks)" or head[-3:] != ["similar", "isolation", "notes"]:
        err("csv: the header or the (checks) row is wrong")
    for r in rows[1:]:
        if len(r) != len(head):
            err("csv: %s has %d cells, the header %d" % (r[0], len(r), len(head)))
        if any(len(c) > 8000 for c in r):
            err("csv: a cell of %s has more than 8000 characters" % r[0])
    unguard = lambda c: c[1:] if c[:1] == "'" else c
    return head, dict(zip(head, rows[1])), {r[0]: {h: unguard(c) for h, c in zip(head, r)} for r in rows[2:]}


def similarity(learners):
    """{(learner, lab): [(other, percent)]} of similarity.csv, in its order"""
    sim, out = list(csv.reader(read("similarity.csv").splitlines())), {}
    if sim[0] != ["lab", "learner", "other", "percent"]:
        err("similarity: the header is %s" % sim[0])
    for r in sim[1:]:
        if len(r) != 4 or r[1] not in learners or not (r[2] in learners or r[2].startswith("book:")) \
                or not r[3].isdigit() or not 0 <= int(r[3]) <= 100:
            err("similarity: a row is wrong: %s" % r)
        else:
            out.setdefault((r[1], r[0]), []).append((r[2], int(r[3])))
    return out


# ---- agreement
def one_line(notes):
    """notes as the CSV's cell has them, but for where one ends: ' / ' for ' | '"""
    return " / ".join(l.strip() for l in notes.split("\n") if l.strip()).replace(" | ", " / ")


def agree_function(who, key, j, t, g, n):
    """one function's verdict as JUnit (j), TAP (t), Gradescope (g) and the CSV's maximum (n) give it"""
    msg, _, text = g["output"].partition("\n\n")
    if j[:2] != t[:2] or j[1] not in (None, msg) or g["max_score"] != n:
        err("%s: JUnit %s, TAP %s, Gradescope %r of %s (max %s)" % (key, j[:2], t[:2], msg, g["score"], n))
    if (j[0] == "ok") > (g["score"] == n) or (g["score"] == n) > (j[0] in ("ok", "error")) \
            or (j[0] == "failure" and not text):
        err("%s: %s in JUnit, %s of %s in Gradescope, explained by %r" % (key, j[0], g["score"], n, text[:40]))
    if j[0] in ("failure", "error") and not (j[2] == t[2] == text):
        err("%s: the explanation differs between JUnit, TAP and Gradescope" % (key,))
    if t[3] and t[3][1] != g["score"]:
        err("%s: TAP says %d passed, Gradescope %d" % (key, t[3][1], g["score"]))
    p = t[3][0] if t[3] else n - g["score"] if j[0] == "skipped" else 0
    return p, g["score"], n - p - g["score"], t[3] and t[3][3]


def agree_lab(who, nn, fns, cases, taps, tests, maxrow, row):
    """the lab's functions agreeing, and the CSV's sums and state: its (pending, passed, failed)"""
    sums, states = [0, 0, 0], set()
    for fn in fns:
        key = (who, nn, fn)
        g = tests.pop(0) if tests else {"name": None, "output": "", "score": 0, "max_score": 0}
        if key not in cases or key not in taps or g["name"] != "Lab %s: %s" % (nn, fn):
            err("%s: not in every format (Gradescope has %s)" % (key, g["name"]))
            continue
        p, a, f, state = agree_function(who, key, cases[key], taps[key], g, int(maxrow["%s %s" % (nn, fn)]))
        if str(a) != row["%s %s" % (nn, fn)]:
            err("%s: the CSV says %s passed, Gradescope %d" % (key, row["%s %s" % (nn, fn)], a))
        sums = [sums[0] + p, sums[1] + a, sums[2] + f]
        states.add(state)
    got, status, states = [row["%s %s" % (nn, k)] for k in ("pending", "passed", "failed")], \
        row["%s status" % nn], states - {None}
    if got != [str(x) for x in sums] or status not in (states or (("pending", "missing") if sums[0] else ("done",))):
        err("%s lab %s: the CSV says %s %s, the functions %s %s" % (who, nn, got, status, sums, states))
    return sums


def agree_learner(who, labs, cases, suites, taps, g, maxrow, row, sim):
    tests, total = list(g["tests"]), [0, 0, 0]
    for nn, fns in labs:
        total = [x + y for x, y in zip(total, agree_lab(who, nn, fns, cases, taps, tests, maxrow, row))]
        props, out = suites.get((who, nn), ({}, ""))
        pairs = sim.get((who, nn), [])
        if props.get("similar", "") != "; ".join("%s %d%%" % x for x in pairs):
            err("%s lab %s: JUnit's similar %r, similarity.csv's %s" % (who, nn, props.get("similar"), pairs))
        if any(l and l not in g["output"] for l in out.split("\n")):
            err("%s lab %s: JUnit's notes are not Gradescope's" % (who, nn))
    checks = int(maxrow["checks"])
    want = [str(total[1]), str(total[2]), str(total[0]), "%.1f" % (100.0 * total[1] / checks)]
    if [row[k] for k in ("passed", "failed", "pending", "percent")] != want or tests:
        err("%s: the CSV's totals are not its functions' %s (Gradescope: %d more)" % (who, want, len(tests)))
    summary, _, notes = g["output"].partition("\n\n")
    if one_line(notes) != row["notes"].replace(" | ", " / "):
        err("%s: the notes differ between the CSV and Gradescope" % who)
    shown = "; ".join("%s: %s%s" % (nn, ", ".join("%s %d%%" % x for x in sim[(who, nn)][:4]),
                                    " and %d more" % (len(sim[(who, nn)]) - 4) if len(sim[(who, nn)]) > 4 else "")
                      for nn, _ in labs if (who, nn) in sim)
    if shown != row["similar"]:
        err("%s: the CSV's similar %r is not similarity.csv's %r" % (who, row["similar"], shown))
    return summary


def agree():
    cases, suites = junit()
    taps, comments = tap()
    gs = gradescope()
    head, maxrow, rows = gradebook()
    sim = similarity(set(rows))
    labs = {}
    for h in head[1:head.index("passed")]:
        nn, fn = h.split(" ", 1)
        if fn not in ("passed", "failed", "pending", "status"):
            labs.setdefault(nn, []).append(fn)
    labs = sorted(labs.items())
    order = [(w, nn, fn) for w in rows for nn, fns in labs for fn in fns]
    if list(cases) != order or list(taps) != order or sorted(gs) != sorted(rows):
        err("the learners, labs and functions differ between the CSV, JUnit, TAP and Gradescope")
    seed = maxrow["notes"].rpartition(" ")[2]
    if comments[:2] != ["# random cases from seed %s" % seed, "# isolation: %s" % maxrow["isolation"]]:
        err("tap: the seed or the isolation is not the CSV's: %s" % comments[:2])
    for who, row in rows.items():
        summary = agree_learner(who, labs, cases, suites, taps, gs.get(who, {"tests": [], "output": ""}),
                                maxrow, row, sim)
        if "from seed %s (" % seed not in summary or row["isolation"] != maxrow["isolation"]:
            err("%s: the seed or the isolation differs between the CSV and Gradescope" % who)
        props = [dict(p, similar=None) for (w, _), (p, _) in suites.items() if w == who]
        if any(p != {"seed": seed, "isolation": maxrow["isolation"], "similar": None} for p in props):
            err("%s: JUnit's seed or isolation is not the CSV's" % who)


agree()
for name in ["gradebook.csv", "junit.xml", "results.tap", "similarity.csv"] + \
        [os.path.relpath(p, d) for p in glob.glob(os.path.join(d, "gradescope", "*", "results.json"))]:
    text = read(name)
    for f in forbidden:
        if f in text:
            err("%s holds %s, a path of this run" % (name, f))
for e in errors:
    print("validate: " + e)
sys.exit(1 if errors else 0)
