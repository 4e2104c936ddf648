"""reports.py - grade.py's reports, written from the results alone: the grade
book (CSV), JUnit XML, TAP 13, Gradescope's results.json, the GitHub
Classroom reporter's results (one runner per lab) and a Markdown summary.

Every field is bounded and valid wherever it goes: text is UTF-8 with no
control character but newline and tab (clean_text), XML gets only XML 1.0
characters (xml_text), a note is at most NOTE_CHARS characters and a
learner's notes at most NOTES_MAX of them (bound_notes), a function's
explanation at most OUTPUT_CHARS; a CSV cell never starts with a character
that a spreadsheet reads as a formula."""
import csv
import io
import json
import re

NOTE_CHARS = 600              # one note
NOTES_MAX = 12                # notes of a learner (and lab) kept
OUTPUT_CHARS = 8000           # a function's explanation
BROKEN = ("unreadable", "does not compile", "refused", "does not link", "error")


# ---- text ------------------------------------------------------------------------------------
LINE_CHARS = 400              # a line of a checker's or compiler's text


def clean_text(s, limit=None):
    """text fit for every report: valid UTF-8 (bad bytes as U+FFFD), no control
    character but newline and tab (XML 1.0 allows no other), no trailing
    spaces, lines of at most LINE_CHARS characters, at most limit characters"""
    if isinstance(s, bytes):
        s = s.decode("utf-8", "replace")
    s = s.replace("\r\n", "\n").replace("\r", "\n")
    s = re.sub(r"[\x00-\x08\x0b-\x1f\x7f\ufffe\uffff\ud800-\udfff]", "\ufffd", s)
    lines = [l.rstrip() for l in s.split("\n")]
    lines = [l if len(l) <= LINE_CHARS else "%s [... %d more characters]" % (l[:LINE_CHARS], len(l) - LINE_CHARS)
             for l in lines]
    s = "\n".join(lines).strip("\n")
    if limit and len(s) > limit:
        s = s[:limit].rstrip() + "\n[... cut: %d more characters]" % (len(s) - limit)
    return s


def cap_lines(s, n):
    lines = s.split("\n")
    if len(lines) > n:
        lines = lines[:n] + ["[... %d more lines]" % (len(lines) - n)]
    return "\n".join(lines)


XML_BAD = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(s):
    """s with every character XML 1.0 does not allow as U+FFFD, escaped for
    an element's text"""
    s = XML_BAD.sub("\ufffd", s)
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attr(s):
    """s as a quoted XML attribute value"""
    return '"%s"' % xml_text(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def bound_notes(notes):
    """a list of notes, each clean and at most NOTE_CHARS characters, the same
    note once, at most NOTES_MAX of them"""
    out, seen = [], set()
    for n in notes:
        n = clean_text(n, NOTE_CHARS)
        if n and n not in seen:
            seen.add(n)
            out.append(n)
    if len(out) > NOTES_MAX:
        out = out[:NOTES_MAX] + ["[... %d more notes]" % (len(out) - NOTES_MAX)]
    return out


def one_line(notes):
    return " | ".join(" / ".join(l.strip() for l in n.split("\n") if l.strip()) for n in notes)


def cell(v):
    """a CSV cell a spreadsheet shows as text"""
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + v
    return v


# ---- what every report says of a learner -----------------------------------------------------
def lab_counts(r):
    """(pending, passed, failed) of a lab's result"""
    return tuple(sum(x[i] for x in r["rows"].values()) for i in range(3))


def totals(learner, labs):
    return tuple(sum(x) for x in zip((0, 0, 0), *(lab_counts(learner.labs[lab.nn]) for lab in labs)))


def learner_notes(learner, labs):
    out = list(learner.notes)
    for lab in labs:
        for n in learner.labs[lab.nn]["notes"]:
            out.append("lab %s: %s" % (lab.nn, n))
    return bound_notes(out)


class Case:
    """one function (or step) of a learner's lab, as every report says it:
    its name, the lab's status, its checks pending (p), passed (a), failed
    (f) and all (n), the message and the explanation (text: the checker's,
    or the notes of a lab that could not be checked)"""

    def __init__(self, L, lab, name):
        r = L.labs[lab.nn]
        self.name, self.status = name, r["status"]
        self.p, self.a, self.f = r["rows"][name]
        self.n = self.p + self.a + self.f
        self.broken = self.status in BROKEN
        text = r["outputs"].get(name, "")
        if self.status in ("missing",) + BROKEN:
            text = "\n".join(bound_notes(r["notes"])) or self.status
        self.text = clean_text(text, OUTPUT_CHARS)
        self.msg = self.message()

    def message(self):
        n, f, p, a = self.n, self.f, self.p, self.a
        if self.broken:
            return "not checked: the lab %s" % ("file " + self.status if self.status == "unreadable" else self.status)
        if self.status == "missing":
            return "pending: the file is not in the submission"
        if f:
            return "the check fails" if n == 1 else "%d of %d checks fail (%d pass, %d pending)" % (f, n, a, p)
        if p:
            return "the check is pending" if n == 1 else "%d of %d checks pending (%d pass)" % (p, n, a)
        return "the check passes" if n == 1 else "all %d checks pass" % n


def cases(L, lab):
    return [Case(L, lab, name) for name, _ in lab.rows]


def similar_text(L, labs):
    """the grade book's `similar` cell: per lab, the files this learner's
    resembles, most first"""
    parts = []
    for lab in labs:
        pairs = L.similar.get(lab.nn, [])
        if pairs:
            shown = ", ".join("%s %d%%" % (who, pc) for who, pc in pairs[:4])
            more = " and %d more" % (len(pairs) - 4) if len(pairs) > 4 else ""
            parts.append("%s: %s%s" % (lab.nn, shown, more))
    return "; ".join(parts)


def render(fmt, one, learners, labs, run, pairs):
    """{path in OUT: text} of the reports fmt asks for (pairs: similarity.csv's
    rows, or None for no similarity report)"""
    rep = {}
    for name, formats, write in (("gradebook.csv", ("all", "csv"), write_csv),
                                 ("junit.xml", ("all", "junit"), write_junit),
                                 ("results.tap", ("all", "tap"), write_tap)):
        if fmt in formats:
            rep[name] = write(learners, labs, run)
    if fmt in ("all", "json", "gradescope"):
        for L in learners:
            rep["results.json" if one else "gradescope/%s/results.json" % L.id] = \
                json.dumps(gradescope(L, labs, run), indent=2, ensure_ascii=False) + "\n"
    if fmt == "classroom":
        for lab in labs:
            rep["classroom/lab%s.json" % lab.nn] = json.dumps(classroom(learners[0], lab), ensure_ascii=False) + "\n"
        rep["summary.md"] = write_summary(learners[0], labs, run)
    if fmt == "all" and pairs is not None:
        rep["similarity.csv"] = write_csv_rows([["lab", "learner", "other", "percent"]] + [list(x) for x in pairs])
    return rep


def write_csv_rows(rows):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


# ---- the grade book --------------------------------------------------------------------------
def write_csv(learners, labs, run):
    """one row per learner; per function the checks passed, per lab
    passed/failed/pending and its state, then the totals, the files it
    resembles (similar), how its code was isolated, and the notes; the first
    row after the header ('(checks)') gives each column's maximum, the
    similarity threshold, the isolation of the run and its seed"""
    head, maxrow, allchecks = ["learner"], ["(checks)"], 0
    for lab in labs:
        head += ["%s %s" % (lab.nn, n) for n, _ in lab.rows]
        head += ["%s passed" % lab.nn, "%s failed" % lab.nn, "%s pending" % lab.nn, "%s status" % lab.nn]
        n = sum(t for _, t in lab.rows)
        allchecks += n
        maxrow += [t for _, t in lab.rows] + [n, "", "", ""]
    head += ["passed", "failed", "pending", "checks", "percent", "similar", "isolation", "notes"]
    rows = [head, maxrow + [allchecks, "", "", allchecks, "100.0", run.similarity_head, run.isolation,
                            "random cases from seed %d" % run.seed]]
    for L in learners:
        row = [L.id]
        for lab in labs:
            r = L.labs[lab.nn]
            p, a, f = lab_counts(r)
            row += [r["rows"][n][1] for n, _ in lab.rows] + [a, f, p, r["status"]]
        p, a, f = totals(L, labs)
        rows.append(row + [a, f, p, allchecks, "%.1f" % (100.0 * a / allchecks if allchecks else 0),
                           cell(similar_text(L, labs)), run.isolation, cell(one_line(learner_notes(L, labs)))])
    return write_csv_rows(rows)


# ---- JUnit XML -------------------------------------------------------------------------------
def junit_case(c, suite):
    """a <testcase>: a failing one has <failure>, a pending one <skipped>, one
    of a lab that could not be checked <error>"""
    attrs = "name=%s classname=%s" % (xml_attr(c.name), xml_attr(suite))
    if c.broken:
        body = "<error message=%s type=%s>%s</error>" % (xml_attr(c.msg), xml_attr(c.status), xml_text(c.text))
    elif c.f:
        body = "<failure message=%s type=\"failed\">%s</failure>" % (xml_attr(c.msg), xml_text(c.text))
    elif c.p:
        body = "<skipped message=%s/>" % xml_attr(c.msg)
    else:
        return "    <testcase %s/>" % attrs
    return "    <testcase %s>\n      %s\n    </testcase>" % (attrs, body)


def junit_suite(L, lab, first, run):
    """a <testsuite> (its properties: the seed, the isolation, the similar
    files; its notes in <system-out>), and its counts"""
    cs, suite = cases(L, lab), "%s.lab%s" % (L.id, lab.nn)
    counts = (len(cs), sum(bool(c.f) and not c.broken for c in cs), sum(c.broken for c in cs),
              sum(bool(c.p) and not c.f and not c.broken for c in cs))
    props = [("seed", str(run.seed)), ("isolation", run.isolation)]
    sim = "; ".join("%s %d%%" % x for x in L.similar.get(lab.nn, []))
    props += [("similar", sim)] if sim else []
    notes = bound_notes((L.notes if first else []) + L.labs[lab.nn]["notes"])
    out = "\n    <system-out>%s</system-out>" % xml_text("\n".join(notes)) if notes else ""
    return ("  <testsuite name=%s tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n"
            "    <properties>\n%s\n    </properties>\n%s%s\n  </testsuite>"
            % ((xml_attr(suite),) + counts + ("\n".join("      <property name=%s value=%s/>"
                                                       % (xml_attr(k), xml_attr(v)) for k, v in props),
                                             "\n".join(junit_case(c, suite) for c in cs), out))), counts


def write_junit(learners, labs, run):
    """<testsuites> / one <testsuite> per learner and lab / one <testcase>
    per function or step (classname LEARNER.labNN)"""
    suites = [junit_suite(L, lab, lab is labs[0], run) for L in learners for lab in labs]
    total = tuple(sum(x) for x in zip((0, 0, 0, 0), *(c for _, c in suites)))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<testsuites name="the attention workbook" tests="%d" failures="%d" errors="%d" skipped="%d">\n'
            '%s\n</testsuites>\n' % (total + ("\n".join(s for s, _ in suites),)))


# ---- TAP -------------------------------------------------------------------------------------
def yaml_block(text, indent):
    return "\n".join(indent + l if l else indent.rstrip() for l in text.split("\n"))


def tap_point(i, desc, c):
    """a test point; a failure's explanation is its YAML block"""
    if not c.broken and not c.f:
        return "not ok %d - %s # TODO %s" % (i, desc, c.msg) if c.p else "ok %d - %s" % (i, desc)
    y = ["not ok %d - %s" % (i, desc), "  ---", "  message: %s" % json.dumps(c.msg, ensure_ascii=False),
         "  severity: %s" % ("error" if c.broken else "fail"),
         "  data: {pending: %d, passed: %d, failed: %d, status: %s}" % (c.p, c.a, c.f, json.dumps(c.status))]
    return "\n".join(y + (["  output: |", yaml_block(c.text, "    ")] if c.text else []) + ["  ..."])


def write_tap(learners, labs, run):
    """TAP version 13: the plan, comments with the seed and the isolation, then
    one test point per learner, lab and function; pending checks are
    `# TODO`, a failure's explanation is a YAML block"""
    points = [("%s lab%s %s" % (L.id, lab.nn, c.name), c) for L in learners for lab in labs
              for c in cases(L, lab)]
    head = "# random cases from seed %d\n# isolation: %s\n" % (run.seed, run.isolation)
    return "TAP version 13\n1..%d\n%s%s\n" % (len(points), head, "\n".join(
        tap_point(i + 1, desc, c) for i, (desc, c) in enumerate(points)))


# ---- Gradescope ------------------------------------------------------------------------------
def gradescope(L, labs, run):
    """Gradescope's results.json for one learner: a test per function or step,
    its score the checks passed, its max_score the checks it has"""
    tests = [{"name": "Lab %s: %s" % (lab.nn, c.name), "number": "%s.%d" % (lab.nn, i + 1),
              "score": c.a, "max_score": c.n, "status": "passed" if c.a == c.n else "failed",
              "output": c.msg + ("\n\n" + c.text if c.text else ""), "visibility": "visible"}
             for lab in labs for i, c in enumerate(cases(L, lab))]
    p, a, f = totals(L, labs)
    notes = learner_notes(L, labs)
    summary = ["%d of %d checks pass, %d fail, %d pending." % (a, a + f + p, f, p),
               "The random cases came from seed %d (make lab NN=.. LAB_SEED=%d runs the same)."
               % (run.seed, run.seed)] + ["Isolation: %s." % run.isolation] * run.degraded
    return {"score": a, "output": "\n".join(summary) + ("\n\n" + "\n".join(notes) if notes else ""),
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}


# ---- GitHub Classroom ------------------------------------------------------------------------
def classroom(L, lab):
    """the autograding reporter's results of one runner (one lab): its
    max_score the lab's checks, one test per function whose score is its
    checks passed (the reporter adds the tests' scores)"""
    cs = cases(L, lab)
    tests = [{"name": "Lab %s: %s" % (lab.nn, c.name), "status": "pass" if c.a == c.n else "fail",
              "score": c.a, "message": clean_text(c.msg + ("\n" + c.text if c.text and c.a != c.n else ""), 1500)}
             for c in cs]
    status = "pass" if all(t["status"] == "pass" for t in tests) else \
        "error" if L.labs[lab.nn]["status"] in BROKEN else "fail"
    return {"version": 1, "status": status, "max_score": sum(c.n for c in cs), "tests": tests}


def write_summary(L, labs, run):
    """a Markdown table of points per lab (a GitHub job summary)"""
    rows = ["## The attention workbook: %s" % L.id, "",
            "| lab | points | status |", "|---|---:|---|"]
    for lab in labs:
        r = L.labs[lab.nn]
        rows.append("| %s | %d / %d | %s |" % (lab.nn, lab_counts(r)[1], sum(t for _, t in lab.rows), r["status"]))
    p, a, f = totals(L, labs)
    rows += ["| **total** | **%d / %d** | |" % (a, a + f + p), "",
             "Random cases from seed %d (`LAB_SEED=%d` runs the same); isolation: %s."
             % (run.seed, run.seed, run.isolation)]
    notes = learner_notes(L, labs)
    if notes:
        rows += ["", "Notes:", ""] + ["- " + one_line([n]).replace("|", "\\|") for n in notes]
    return "\n".join(rows) + "\n"
