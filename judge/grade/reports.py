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
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    s = "\n".join(lines)
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
def lab_title(nn):
    return "lab" + nn


def totals(learner, labs):
    p = a = f = 0
    for lab in labs:
        for n, _ in lab.rows:
            r = learner.labs[lab.nn]["rows"][n]
            p, a, f = p + r[0], a + r[1], f + r[2]
    return p, a, f


def learner_notes(learner, labs):
    out = list(learner.notes)
    for lab in labs:
        for n in learner.labs[lab.nn]["notes"]:
            out.append("lab %s: %s" % (lab.nn, n))
    return bound_notes(out)


def case_output(L, lab, name):
    r = L.labs[lab.nn]
    p, a, f = r["rows"][name]
    n = p + a + f
    text = r["outputs"].get(name, "")
    if r["status"] in ("missing",) + BROKEN:
        text = "\n".join(bound_notes(r["notes"])) or r["status"]
    return p, a, f, n, clean_text(text, OUTPUT_CHARS)


def case_message(status, p, a, f, n):
    if status in BROKEN:
        return "not checked: the lab %s" % ("file " + status if status == "unreadable" else status)
    if status == "missing":
        return "pending: the file is not in the submission"
    if f:
        return "the check fails" if n == 1 else "%d of %d checks fail (%d pass, %d pending)" % (f, n, a, p)
    if p:
        return "the check is pending" if n == 1 else "%d of %d checks pending (%d pass)" % (p, n, a)
    return "the check passes" if n == 1 else "all %d checks pass" % n


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


# ---- the grade book --------------------------------------------------------------------------
def write_csv(learners, labs, run):
    """one row per learner; per function the checks passed, per lab
    passed/failed/pending and its state, then the totals, the files it
    resembles (similar), how its code was isolated, and the notes; the first
    row after the header ('(checks)') gives each column's maximum, the
    similarity threshold, the isolation of the run and its seed"""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    head = ["learner"]
    for lab in labs:
        head += ["%s %s" % (lab.nn, n) for n, _ in lab.rows]
        head += ["%s passed" % lab.nn, "%s failed" % lab.nn, "%s pending" % lab.nn, "%s status" % lab.nn]
    head += ["passed", "failed", "pending", "checks", "percent", "similar", "isolation", "notes"]
    w.writerow(head)
    maxrow = ["(checks)"]
    allchecks = 0
    for lab in labs:
        n = sum(t for _, t in lab.rows)
        allchecks += n
        maxrow += [t for _, t in lab.rows] + [n, "", "", ""]
    w.writerow(maxrow + [allchecks, "", "", allchecks, "100.0", run.similarity_head, run.isolation,
                         "random cases from seed %d" % run.seed])
    for L in learners:
        row = [L.id]
        for lab in labs:
            r = L.labs[lab.nn]
            row += [r["rows"][n][1] for n, _ in lab.rows]
            row += [sum(x[1] for x in r["rows"].values()), sum(x[2] for x in r["rows"].values()),
                    sum(x[0] for x in r["rows"].values()), r["status"]]
        p, a, f = totals(L, labs)
        row += [a, f, p, allchecks, "%.1f" % (100.0 * a / allchecks if allchecks else 0),
                cell(similar_text(L, labs)), run.isolation, cell(one_line(learner_notes(L, labs)))]
        w.writerow(row)
    return buf.getvalue()


# ---- JUnit XML -------------------------------------------------------------------------------
def write_junit(learners, labs, run):
    """<testsuites> / one <testsuite> per learner and lab (its properties: the
    seed, the isolation, the similar files) / one <testcase> per function or
    step (classname LEARNER.labNN); a failing one has <failure>, a pending one
    <skipped>, one of a lab that could not be checked <error>"""
    suites = []
    T = F = E = S = 0
    for L in learners:
        for lab in labs:
            r = L.labs[lab.nn]
            cases, t, fl, er, sk = [], 0, 0, 0, 0
            suite = "%s.%s" % (L.id, lab_title(lab.nn))
            for name, _ in lab.rows:
                p, a, f, n, text = case_output(L, lab, name)
                msg = case_message(r["status"], p, a, f, n)
                t += 1
                attrs = "name=%s classname=%s" % (xml_attr(name), xml_attr(suite))
                if r["status"] in BROKEN:
                    er += 1
                    body = "<error message=%s type=%s>%s</error>" % (xml_attr(msg), xml_attr(r["status"]),
                                                                      xml_text(text))
                elif f:
                    fl += 1
                    body = "<failure message=%s type=\"failed\">%s</failure>" % (xml_attr(msg), xml_text(text))
                elif p:
                    sk += 1
                    body = "<skipped message=%s/>" % xml_attr(msg)
                else:
                    body = None
                cases.append("    <testcase %s%s" % (attrs, "/>" if body is None
                                                       else ">\n      %s\n    </testcase>" % body))
            props = [("seed", str(run.seed)), ("isolation", run.isolation)]
            sim = "; ".join("%s %d%%" % x for x in L.similar.get(lab.nn, []))
            if sim:
                props.append(("similar", sim))
            props = "    <properties>\n%s\n    </properties>\n" % "\n".join(
                "      <property name=%s value=%s/>" % (xml_attr(k), xml_attr(v)) for k, v in props)
            notes = bound_notes((L.notes if lab is labs[0] else []) + r["notes"])
            out = "\n    <system-out>%s</system-out>" % xml_text("\n".join(notes)) if notes else ""
            suites.append("  <testsuite name=%s tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n"
                          "%s%s%s\n  </testsuite>"
                          % (xml_attr(suite), t, fl, er, sk, props, "\n".join(cases), out))
            T, F, E, S = T + t, F + fl, E + er, S + sk
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<testsuites name="the attention workbook" tests="%d" failures="%d" errors="%d" skipped="%d">\n'
            '%s\n</testsuites>\n' % (T, F, E, S, "\n".join(suites)))


# ---- TAP -------------------------------------------------------------------------------------
def yaml_block(text, indent):
    return "\n".join(indent + l if l else indent.rstrip() for l in text.split("\n"))


def write_tap(learners, labs, run):
    """TAP version 13: the plan, comments with the seed and the isolation, then
    one test point per learner, lab and function; pending checks are
    `# TODO`, a failure's explanation is a YAML block"""
    points = []
    for L in learners:
        for lab in labs:
            r = L.labs[lab.nn]
            for name, _ in lab.rows:
                p, a, f, n, text = case_output(L, lab, name)
                msg = case_message(r["status"], p, a, f, n)
                desc = "%s %s %s" % (L.id, lab_title(lab.nn), name)
                broken = r["status"] in BROKEN
                if broken or f:
                    line = "not ok %d - %s" % (len(points) + 1, desc)
                elif p:
                    line = "not ok %d - %s # TODO %s" % (len(points) + 1, desc, msg)
                else:
                    line = "ok %d - %s" % (len(points) + 1, desc)
                if broken or f:
                    y = ["  ---", "  message: %s" % json.dumps(msg, ensure_ascii=False),
                         "  severity: %s" % ("error" if broken else "fail"),
                         "  data: {pending: %d, passed: %d, failed: %d, status: %s}"
                         % (p, a, f, json.dumps(r["status"]))]
                    if text:
                        y += ["  output: |", yaml_block(text, "    ")]
                    y.append("  ...")
                    line += "\n" + "\n".join(y)
                points.append(line)
    head = "# random cases from seed %d\n# isolation: %s\n" % (run.seed, run.isolation)
    return "TAP version 13\n1..%d\n%s%s\n" % (len(points), head, "\n".join(points))


# ---- Gradescope ------------------------------------------------------------------------------
def gradescope(L, labs, run):
    """Gradescope's results.json for one learner: a test per function or step,
    its score the checks passed, its max_score the checks it has"""
    tests = []
    for lab in labs:
        r = L.labs[lab.nn]
        for i, (name, _) in enumerate(lab.rows):
            p, a, f, n, text = case_output(L, lab, name)
            msg = case_message(r["status"], p, a, f, n)
            tests.append({"name": "Lab %s: %s" % (lab.nn, name), "number": "%s.%d" % (lab.nn, i + 1),
                          "score": a, "max_score": n,
                          "status": "passed" if a == n else "failed",
                          "output": msg + ("\n\n" + text if text else ""),
                          "visibility": "visible"})
    p, a, f = totals(L, labs)
    notes = learner_notes(L, labs)
    summary = ["%d of %d checks pass, %d fail, %d pending." % (a, a + f + p, f, p),
               "The random cases came from seed %d (make lab NN=.. LAB_SEED=%d runs the same)."
               % (run.seed, run.seed)]
    if run.degraded:
        summary.append("Isolation: %s." % run.isolation)
    return {"score": a, "output": "\n".join(summary) + ("\n\n" + "\n".join(notes) if notes else ""),
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}


def write_json(L, labs, run):
    return json.dumps(gradescope(L, labs, run), indent=2, ensure_ascii=False) + "\n"


# ---- GitHub Classroom ------------------------------------------------------------------------
def classroom(L, lab, run):
    """the autograding reporter's results of one runner (one lab): its
    max_score the lab's checks, one test per function whose score is its
    checks passed (the reporter adds the tests' scores)"""
    r = L.labs[lab.nn]
    tests, total = [], 0
    for name, _ in lab.rows:
        p, a, f, n, text = case_output(L, lab, name)
        total += n
        msg = case_message(r["status"], p, a, f, n)
        tests.append({"name": "Lab %s: %s" % (lab.nn, name), "status": "pass" if a == n else "fail",
                      "score": a, "message": clean_text(msg + ("\n" + text if text and a != n else ""),
                                                        1500)})
    status = "pass" if all(t["status"] == "pass" for t in tests) else \
        "error" if r["status"] in BROKEN else "fail"
    return {"version": 1, "status": status, "max_score": total, "tests": tests}


def write_summary(L, labs, run):
    """a Markdown table of points per lab (a GitHub job summary)"""
    rows = ["## The attention workbook: %s" % L.id, "",
            "| lab | points | status |", "|---|---:|---|"]
    for lab in labs:
        r = L.labs[lab.nn]
        a = sum(x[1] for x in r["rows"].values())
        n = sum(t for _, t in lab.rows)
        rows.append("| %s | %d / %d | %s |" % (lab.nn, a, n, r["status"]))
    p, a, f = totals(L, labs)
    rows += ["| **total** | **%d / %d** | |" % (a, a + f + p), "",
             "Random cases from seed %d (`LAB_SEED=%d` runs the same); isolation: %s."
             % (run.seed, run.seed, run.isolation)]
    notes = learner_notes(L, labs)
    if notes:
        rows += ["", "Notes:", ""] + ["- " + one_line([n]).replace("|", "\\|") for n in notes]
    return "\n".join(rows) + "\n"


# ---- similarity ------------------------------------------------------------------------------
def write_similarity(pairs, run):
    """similarity.csv: lab, learner, other (a learner, or book:FILE), percent
    (how much of the learner's file is material of the other's), most first"""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["lab", "learner", "other", "percent"])
    for nn, who, other, pc in pairs:
        w.writerow([nn, who, other, pc])
    return buf.getvalue()
