#!/usr/bin/python3
"""validate.py DIR - the structure of the grader's reports in DIR, whatever
their values: the JUnit XML as the JUnit schema has it (testsuites /
testsuite / testcase with name and classname, at most one failure, error or
skipped per case, and the counts of each suite and of the whole adding up),
TAP version 13 (the plan, test points numbered 1..N, YAML blocks between
---/...), Gradescope's results.json (score, tests with name, score,
max_score, output), and the CSV grade book (one column per function, the
maximum row, every row as wide as the header). Prints what is wrong; exit 1."""
import csv
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

d = sys.argv[1]
errors = []


def err(msg):
    errors.append(msg)


# ---- JUnit
root = ET.parse(os.path.join(d, "junit.xml")).getroot()
if root.tag != "testsuites":
    err("junit: the root is <%s>, not <testsuites>" % root.tag)
tot = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
for s in root:
    if s.tag != "testsuite":
        err("junit: <%s> under <testsuites>" % s.tag)
        continue
    if not s.get("name"):
        err("junit: a testsuite without a name")
    n = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    kids = [c.tag for c in s]
    if "properties" in kids and kids.index("properties") != 0:
        err("junit: <properties> is not the first child of testsuite %s" % s.get("name"))
    for c in s:
        if c.tag == "properties":
            if any(p.tag != "property" or p.get("name") is None or p.get("value") is None for p in c):
                err("junit: a property without name or value in %s" % s.get("name"))
            continue
        if c.tag == "system-out":
            continue
        if c.tag != "testcase":
            err("junit: <%s> in testsuite %s" % (c.tag, s.get("name")))
            continue
        if not c.get("name") or not c.get("classname"):
            err("junit: a testcase without name or classname in %s" % s.get("name"))
        n["tests"] += 1
        kids = [k.tag for k in c]
        if len([k for k in kids if k in ("failure", "error", "skipped")]) > 1 or \
                any(k not in ("failure", "error", "skipped", "system-out", "system-err") for k in kids):
            err("junit: testcase %s has %s" % (c.get("name"), kids))
        for k in c:
            if k.tag in ("failure", "error") and k.get("message") is None:
                err("junit: %s without a message in %s" % (k.tag, c.get("name")))
        n["failures"] += kids.count("failure")
        n["errors"] += kids.count("error")
        n["skipped"] += kids.count("skipped")
    for k, v in n.items():
        if s.get(k) != str(v):
            err("junit: testsuite %s says %s=%s, it has %d" % (s.get("name"), k, s.get(k), v))
        tot[k] += v
for k, v in tot.items():
    if root.get(k) != str(v):
        err("junit: testsuites says %s=%s, there are %d" % (k, root.get(k), v))

# ---- TAP
lines = open(os.path.join(d, "results.tap"), encoding="utf-8").read().split("\n")
if lines[0] != "TAP version 13":
    err("tap: the first line is not 'TAP version 13'")
m = re.match(r"^1\.\.([0-9]+)$", lines[1])
if not m:
    err("tap: no plan on the second line")
plan, seen, inyaml = int(m.group(1)) if m else 0, 0, False
for l in lines[2:]:
    if inyaml:
        if l == "  ...":
            inyaml = False
        elif not (l.startswith("  ") or l == ""):
            err("tap: a YAML block line not indented: %r" % l[:60])
        continue
    if l == "  ---":
        inyaml = True
        continue
    if not l or l.startswith("# "):
        continue
    t = re.match(r"^(not ok|ok) ([0-9]+) - \S", l)
    if not t:
        err("tap: not a test point: %r" % l[:60])
        continue
    seen += 1
    if int(t.group(2)) != seen:
        err("tap: test point %s where %d belongs" % (t.group(2), seen))
if seen != plan:
    err("tap: the plan says %d, there are %d test points" % (plan, seen))

# ---- Gradescope
for p in sorted(glob.glob(os.path.join(d, "gradescope", "*", "results.json"))):
    j = json.load(open(p, encoding="utf-8"))
    if not isinstance(j.get("score"), (int, float)) or not isinstance(j.get("tests"), list):
        err("%s: no score or no tests" % p)
        continue
    if sum(t["score"] for t in j["tests"]) != j["score"]:
        err("%s: the tests' scores do not add up to score" % p)
    for t in j["tests"]:
        for k, ty in (("name", str), ("score", (int, float)), ("max_score", (int, float)), ("output", str)):
            if not isinstance(t.get(k), ty):
                err("%s: a test without %s" % (p, k))
        if not 0 <= t["score"] <= t["max_score"]:
            err("%s: %s scores %s of %s" % (p, t["name"], t["score"], t["max_score"]))
        if t.get("visibility") not in ("visible", "hidden", "after_due_date", "after_published"):
            err("%s: %s has visibility %r" % (p, t["name"], t.get("visibility")))

# ---- CSV
rows = list(csv.reader(open(os.path.join(d, "gradebook.csv"), encoding="utf-8", newline="")))
if rows[0][0] != "learner" or rows[1][0] != "(checks)":
    err("csv: the header or the (checks) row is not first")
for r in rows[1:]:
    if len(r) != len(rows[0]):
        err("csv: %s has %d cells, the header %d" % (r[0], len(r), len(rows[0])))

for r in rows:
    for c in r:
        if len(c) > 8000:
            err("csv: a cell of %s has %d characters (at most 8000)" % (r[0], len(c)))
if "similar" not in rows[0] or "isolation" not in rows[0]:
    err("csv: no similar or isolation column")

# ---- similarity
p = os.path.join(d, "similarity.csv")
if os.path.exists(p):
    sim = list(csv.reader(open(p, encoding="utf-8", newline="")))
    learners = {r[0] for r in rows[2:]}
    if sim[0] != ["lab", "learner", "other", "percent"]:
        err("similarity: the header is %s" % sim[0])
    for r in sim[1:]:
        if len(r) != 4 or r[1] not in learners or not (r[2] in learners or r[2].startswith("book:")) \
                or not r[3].isdigit() or not 0 <= int(r[3]) <= 100:
            err("similarity: a row is wrong: %s" % r)

for e in errors:
    print("validate: " + e)
sys.exit(1 if errors else 0)
