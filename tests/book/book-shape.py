#!/usr/bin/env python3
"""book-shape.py - the shape of each chapter, measured from the .nw sources.

    book-shape.py CHAPTER.nw...     e.g. book/en/*.nw book/es/*.nw
    book-shape.py --self-test       show that each limit can fail

The edition of a file is the name of its folder (en, es); the chapter is its
number (01 for 01-qkv.nw). The reading flow is every chapter before the first
\\appendix (the appendices hold the core library, the example programs and the
answers). For each chapter of the reading flow, in each edition, it measures:

  examples   the share of the chapter's code lines that are example programs:
             chunks reachable only from a root tangled/examples/... (the
             programs that print the book's numbers), not from a library root.
             Examples are evidence, not reading: their place is an appendix.
  prose/10   in the implementation section (from "Do Lab NN before reading on",
             "Haz el Lab NN antes de seguir leyendo", to the next \\section),
             the lines of prose per 10 non-blank lines of library code. A prose
             line is a documentation line with a word on it (LaTeX commands
             alone do not count).
  chunks     the chapter's chunks (each definition <<...>>= apart, its lines
             counted), their median and largest; and the same for the library
             chunks of the implementation section.

Limits (the issue's): examples at most MAX_EXAMPLES; at least MIN_PROSE lines of
prose per 10 of code (about as much prose as code); the implementation's
chunks at most MAX_CHUNK lines (chunks of 3-15 lines) and the chapter's
median chunk at most MAX_MEDIAN. A chapter in PENDING (not yet reshaped) is
held only to its own measured values there, so that it cannot get worse; the
table marks it "pending", and says when it passes the real limits and can
leave PENDING. Prints the table, then "N passed, N failed"; exits 1 if any
chapter fails.
"""
import os
import re
import statistics
import sys
import tempfile

MAX_EXAMPLES = 0.05
MIN_PROSE = 8.0
MAX_CHUNK = 15
MAX_MEDIAN = 15
# chapters not yet reshaped: the values they must not get worse than
# (examples share, prose per 10 code lines, largest implementation chunk,
# median chunk); the lead removes a chapter once its branch is merged
PENDING = {
    "01": {"examples": 0.22, "prose": 5.5, "largest": 28, "median": 11},
    "02": {"examples": 0.43, "prose": 5.0, "largest": 26, "median": 11},
    "03": {"examples": 0.37, "prose": 2.6, "largest": 39, "median": 17},
    "04": {"examples": 0.48, "prose": 2.9, "largest": 28, "median": 15},
}
CHUNK_DEF = re.compile(r"^<<(.*)>>=\s*$")
CHUNK_USE = re.compile(r"<<(.+?)>>")
MARKER = re.compile(r"Do Lab~?\s*\d+ before reading on|Lab~?\s*\d+ antes de seguir leyendo")
WORD = re.compile(r"[^\W\d_]{2,}")


def parse(path):
    """the file as items: ("doc", line) and ("code", name, [lines])"""
    items, cur = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = CHUNK_DEF.match(line)
            if m:
                cur = ("code", m.group(1), [])
                items.append(cur)
            elif line == "@" or line.startswith(("@ ", "@\t", "@%")):
                cur = None
                rest = line[1:].strip()
                if rest and not rest.startswith("%"):
                    items.append(("doc", rest))
            elif cur is not None:
                cur[2].append(line)
            else:
                items.append(("doc", line))
    return items


def example_only(parsed):
    """names of the chunks reachable from an example's root and from no library root"""
    body = {}
    for items in parsed.values():
        for it in items:
            if it[0] == "code":
                body.setdefault(it[1], []).extend(it[2])
    uses = {n: set(CHUNK_USE.findall("\n".join(b))) & set(body) for n, b in body.items()}

    def reach(roots):
        seen, todo = set(), list(roots)
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo += uses.get(n, ())
        return seen
    examples = reach(n for n in body if n.startswith("tangled/examples/"))
    library = reach(n for n in body if n.startswith("tangled/") and
                    not n.startswith("tangled/examples/"))
    return examples - library


def is_prose(line):
    text = re.sub(r"\\[a-zA-Z@]+\*?", " ", line)
    text = re.sub(r"\[\[.*?\]\]", " x ", text)
    return not line.lstrip().startswith("%") and bool(WORD.search(text))


def measure(items, examples):
    code = [it for it in items if it[0] == "code"]
    total = sum(len(it[2]) for it in code)
    ex = sum(len(it[2]) for it in code if it[1] in examples)
    row = {"examples": ex / total if total else 0.0, "code": total,
           "chunks": len(code), "median": statistics.median([len(it[2]) for it in code])
           if code else 0, "largest_all": max((len(it[2]) for it in code), default=0),
           "over": len([it for it in code if len(it[2]) > MAX_CHUNK])}
    start = next((i for i, it in enumerate(items) if it[0] == "doc" and MARKER.search(it[1])), None)
    if start is None:
        row.update(prose=None, impl=0, impl_median=0, largest=0)
        return row
    end = next((i for i in range(start + 1, len(items)) if items[i][0] == "doc"
                and re.match(r"\s*\\(section|chapter)\b", items[i][1])), len(items))
    section = items[start:end]
    lib = [it for it in section if it[0] == "code" and it[1] not in examples]
    code_lines = sum(len([ln for ln in it[2] if ln.strip()]) for it in lib)
    prose = len([it for it in section if it[0] == "doc" and is_prose(it[1])])
    sizes = [len(it[2]) for it in lib]
    row.update(prose=10 * prose / code_lines if code_lines else None, impl=len(lib),
               impl_median=statistics.median(sizes) if sizes else 0,
               largest=max(sizes, default=0))
    return row


def judge(chapter, row):
    """(failures, passes the real limits)"""
    limits = {"examples": MAX_EXAMPLES, "prose": MIN_PROSE, "largest": MAX_CHUNK,
              "median": MAX_MEDIAN}
    real = []
    if row["examples"] > MAX_EXAMPLES:
        real.append("examples")
    if row["prose"] is not None and row["prose"] < MIN_PROSE:
        real.append("prose")
    if row["largest"] > MAX_CHUNK:
        real.append("largest")
    if row["median"] > MAX_MEDIAN:
        real.append("median")
    if row["prose"] is None:
        real.append("no implementation section (no \"Do Lab NN before reading on\")")
    held = PENDING.get(chapter)
    if held is None:
        return ["%s %s (limit %s)" % (k, fmt(k, row), limits.get(k, "")) for k in real], not real
    fails = []
    if row["examples"] > held["examples"]:
        fails.append("examples %.2f, more than its pending %.2f" % (row["examples"], held["examples"]))
    if row["prose"] is not None and row["prose"] < held["prose"]:
        fails.append("prose/10 %.1f, less than its pending %.1f" % (row["prose"], held["prose"]))
    if row["largest"] > held["largest"]:
        fails.append("largest chunk %d, more than its pending %d" % (row["largest"], held["largest"]))
    if row["median"] > held["median"]:
        fails.append("median chunk %g, more than its pending %g" % (row["median"], held["median"]))
    return fails, not real


def fmt(key, row):
    v = row.get(key)
    return "-" if v is None else ("%.2f" % v if key == "examples" else "%.1f" % v
                                  if key == "prose" else "%g" % v)


def check(paths, out=sys.stdout):
    by_ed = {}
    for p in paths:
        by_ed.setdefault(os.path.basename(os.path.dirname(os.path.abspath(p))), []).append(p)
    passed, failed, notes = 0, 0, []
    out.write("%-4s %-3s %9s %9s %8s %7s %8s %8s %12s %8s  %s\n" % (
        "ed", "ch", "examples", "prose/10", "chunks", "median", ">%d" % MAX_CHUNK, "largest",
        "impl: n/med", "impl max", "status"))
    for ed in sorted(by_ed):
        files = sorted(by_ed[ed], key=os.path.basename)
        parsed = {p: parse(p) for p in files}
        examples = example_only(parsed)
        for p in files:
            items = parsed[p]
            if any(it[0] == "doc" and it[1].lstrip().startswith("\\appendix") for it in items):
                break                                    # the reading flow ends here
            m = re.match(r"(\d+)-", os.path.basename(p))
            if not m or not any(it[0] == "code" for it in items):
                continue
            chapter = m.group(1)
            row = measure(items, examples)
            fails, clean = judge(chapter, row)
            status = ("FAIL: " + "; ".join(fails)) if fails else (
                "ok" if chapter not in PENDING else
                "pending (passes: remove %s from PENDING)" % chapter if clean else "pending")
            if clean and chapter in PENDING:
                notes.append("%s/%s" % (ed, chapter))
            out.write("%-4s %-3s %9s %9s %8d %7g %8d %8d %12s %8d  %s\n" % (
                ed, chapter, fmt("examples", row), fmt("prose", row), row["chunks"],
                row["median"], row["over"], row["largest_all"],
                "%d/%g" % (row["impl"], row["impl_median"]), row["largest"], status))
            if fails:
                failed += 1
            else:
                passed += 1
    out.write("limits: examples <= %.2f of the chapter's code; prose >= %g lines per 10 of "
              "library code in the implementation section; implementation chunks <= %d lines "
              "(largest); median chunk <= %d lines\n" % (MAX_EXAMPLES, MIN_PROSE, MAX_CHUNK,
                                                        MAX_MEDIAN))
    out.write("book-shape: %d passed, %d failed\n" % (passed, failed))
    return failed


SELFTEST_GOOD = r"""\chapter{Good}
Prose before the interface.
<<tangled/minimodel/good.c>>=
<<add one>>
@
\section{Implementation}
\paragraph{Do Lab~09 before reading on} and then read this.
The function adds one to its argument, and it says so in its name.
It is short, as a chunk of the implementation should be.
Each line of it is explained here, one sentence a line of code.
The second line returns the sum; the third closes the function.
A chunk of three lines, three lines of prose and more.
<<add one>>=
int add_one(int x) {
    return x + 1;
}
@
\section{Recap}
"""
SELFTEST_BAD = {
    "examples": ("an example program in the chapter",
                 "<<tangled/examples/show.c>>=\n" + "printf(\"%d\\n\", 1);\n" * 10 + "@\n"),
    "largest": ("an implementation chunk of 30 lines",
                "\\section{Implementation}\n\\paragraph{Do Lab~09 before reading on}\n" +
                "Words about it.\n" * 40 + "<<big>>=\n" + "x++;\n" * 30 + "@\n"),
    "prose": ("an implementation with one line of prose for 12 of code",
              "\\section{Implementation}\n\\paragraph{Do Lab~09 before reading on}\n"
              "<<bare>>=\n" + "y++;\n" * 12 + "@\n"),
}


def self_test():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "en"))
        good = os.path.join(tmp, "en", "09-good.nw")
        with open(good, "w") as f:
            f.write(SELFTEST_GOOD)
        with open(os.devnull, "w") as quiet:
            if check([good], out=quiet):
                ok = False
                sys.stderr.write("book-shape self-test: the good chapter failed\n")
        for kind, (what, text) in SELFTEST_BAD.items():
            bad = os.path.join(tmp, "en", "09-bad.nw")
            body = SELFTEST_GOOD
            if kind == "examples":
                body = body.replace("\\section{Implementation}", text + "\\section{Implementation}")
            else:
                body = body[:body.index("\\section{Implementation}")] + text + "\\section{Recap}\n"
            with open(bad, "w") as f:
                f.write(body)
            import io
            buf = io.StringIO()
            if not check([bad], out=buf) or ("FAIL: " + kind) not in buf.getvalue():
                ok = False
                sys.stderr.write("book-shape self-test: %s did not fail on %s:\n%s"
                                 % (what, kind, buf.getvalue()))
            os.remove(bad)
    if ok:
        print("  ok     book-shape.py self-test (%d kinds of misshapen chapter caught)"
              % len(SELFTEST_BAD))
    return ok


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        sys.exit(0 if self_test() else 1)
    if not args:
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit(1 if check(args) else 0)


if __name__ == "__main__":
    main()
