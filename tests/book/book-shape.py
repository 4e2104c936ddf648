#!/usr/bin/env python3
"""book-shape.py - the shape of each chapter, measured from the .nw sources.

    book-shape.py [--programs DIR] CHAPTER.nw...   e.g. book/en/*.nw book/es/*.nw
    book-shape.py --rev REV [CHAPTER.nw...]        the book as it was at git REV
    book-shape.py --self-test                      show that each limit can fail

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
             line is a documentation line with a word on it, not counting
             LaTeX commands, nor headings, labels and environments with their
             arguments (\\subsection{...}, \\label{...}, \\begin{...}), nor the
             lines of a verbatim block (a program's output is not prose).
  chunks     the chapter's chunks (each definition <<...>>= apart, its lines
             counted), their median and largest; and the same for the library
             chunks of the implementation section.

Limits (the issue's): examples at most MAX_EXAMPLES; at least MIN_PROSE lines of
prose per 10 of code (about as much prose as code); the implementation's
chunks at most MAX_CHUNK lines (chunks of 3-15 lines) and the chapter's
median chunk at most MAX_MEDIAN. A chapter in PENDING (not yet reshaped) is
held only to its own measured values there, so that it cannot get worse; the
table marks it "pending", and says when it passes the real limits and can
leave PENDING. A failure names the implementation's chunks over the limit.

With --programs DIR (build/examples) it also checks the output a chapter
shows: every line of a verbatim block of chapter NN made only of key=value
pairs must be printed by one of its programs, DIR/chNN-* (the example
programs, run without arguments): the same key, and the same value, or a
number the printed one rounds to at the decimals shown (0.3302 for
0.33023845067334312). This runs for every chapter, pending or not.

With --rev REV it reads the files from git revision REV instead of the work
tree (all of book/en/*.nw and book/es/*.nw there if none is named), to show
how a chapter measured before a change.

Prints the table, then "N passed, N failed"; exits 1 if any chapter fails.
"""
import decimal
import glob
import io
import os
import re
import statistics
import subprocess
import sys
import tempfile

MAX_EXAMPLES = 0.05
MIN_PROSE = 8.0
MAX_CHUNK = 15
MAX_MEDIAN = 15
# chapters not yet reshaped: the values they must not get worse than
# (examples share, prose per 10 code lines, largest implementation chunk,
# median chunk); the lead removes a chapter once its branch is merged
PENDING = {}
CHUNK_DEF = re.compile(r"^<<(.*)>>=\s*$")
CHUNK_USE = re.compile(r"<<(.+?)>>")
MARKER = re.compile(r"Do Lab~?\s*\d+ before reading on|Lab~?\s*\d+ antes de seguir leyendo")
WORD = re.compile(r"[^\W\d_]{2,}")
# commands that are structure, not prose, removed with their arguments
STRUCTURE = re.compile(r"\\(?:(?:sub)*section|chapter|label|begin|end|includegraphics|"
                       r"centering|item|appendix)\*?(?:\[[^]]*\])?(?:\{[^{}]*\})*")
# a line of shown output: key=value pairs only
PAIR = re.compile(r"([A-Za-z][\w.]*)=(\S+)")
opts = {"rev": None}
OUTPUTS = {}            # chapter: what its programs print (or why they could not)


def read(path):
    """the text of a file, from the work tree or from git revision --rev"""
    if opts["rev"] is None:
        with open(path, encoding="utf-8") as f:
            return f.read()
    got = subprocess.run(["git", "show", "%s:%s" % (opts["rev"], os.path.relpath(path))],
                         capture_output=True, text=True)
    if got.returncode:
        sys.exit("book-shape: %s is not in git revision %s: %s"
                 % (path, opts["rev"], got.stderr.strip()))
    return got.stdout


def parse(path):
    """the file as items: ("doc", line) and ("code", name, [lines]); a line
    of a verbatim block is ("verbatim", line)"""
    items, cur, verbatim = [], None, False
    for line in read(path).splitlines():
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
        elif verbatim and line.strip().startswith("\\end{verbatim}"):
            verbatim = False
            items.append(("doc", line))
        elif verbatim:
            items.append(("verbatim", line))
        else:
            verbatim = line.strip().startswith("\\begin{verbatim}")
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
    text = STRUCTURE.sub(" ", line)
    text = re.sub(r"\\[a-zA-Z@]+\*?", " ", text)
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
               largest=max(sizes, default=0),
               too_big=["<<%s>> %d lines" % (it[1], len(it[2])) for it in lib
                        if len(it[2]) > MAX_CHUNK])
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
        real.append("largest")      # named below, with its chunks
    if row["median"] > MAX_MEDIAN:
        real.append("median")
    if row["prose"] is None:
        real.append("no implementation section (no \"Do Lab NN before reading on\")")
    held = PENDING.get(chapter)
    if held is None:
        return ["%s %s (limit %s)%s" % (k, fmt(k, row), limits.get(k, ""),
                                       ": " + ", ".join(row["too_big"]) if k == "largest" else "")
                for k in real], not real
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


def shown_output(items):
    """the lines of the chapter's verbatim blocks made only of key=value pairs"""
    out = []
    for it in items:
        words = it[1].split() if it[0] == "verbatim" else []
        if words and all(PAIR.fullmatch(w) for w in words):
            out.append(it[1].strip())
    return out


def same_value(shown, printed):
    """printed, rounded to the decimals of shown, reads as shown (or the two
    are the same text)"""
    if shown == printed:
        return True
    try:
        want, got = decimal.Decimal(shown), decimal.Decimal(printed)
    except decimal.InvalidOperation:
        return False
    if not want.is_finite() or not got.is_finite():
        return False
    return got.quantize(want, rounding=decimal.ROUND_HALF_EVEN) == want or \
        got.quantize(want, rounding=decimal.ROUND_HALF_UP) == want


def program_output(programs, chapter):
    """{key: [values]} printed by the programs DIR/chNN-*, or an error"""
    cache = OUTPUTS
    if chapter not in cache:
        found = sorted(p for p in glob.glob(os.path.join(programs, "ch%s-*" % chapter))
                       if os.access(p, os.X_OK) and not p.endswith(".d"))
        printed = {}
        for prog in found:
            got = subprocess.run([prog], capture_output=True, text=True)
            if got.returncode:
                cache[chapter] = "%s exits %d: %s" % (prog, got.returncode, got.stderr[:200])
                break
            for line in got.stdout.splitlines():
                m = PAIR.fullmatch(line.strip())
                if m:
                    printed.setdefault(m.group(1), []).append(m.group(2))
        else:
            cache[chapter] = printed if found else \
                "no program %s/ch%s-* (make examples)" % (programs, chapter)
    return cache[chapter]


def check_output(items, chapter, programs):
    """(lines shown, failures): each key=value shown must be printed"""
    shown = shown_output(items)
    if not shown:
        return 0, []
    printed = program_output(programs, chapter)
    if isinstance(printed, str):
        return len(shown), ["shows %d output lines, but %s" % (len(shown), printed)]
    fails = []
    for line in shown:
        for key, value in PAIR.findall(line):
            if key not in printed:
                fails.append("shows %s=%s, but no ch%s program prints %s"
                             % (key, value, chapter, key))
            elif not any(same_value(value, v) for v in printed[key]):
                fails.append("shows %s=%s, but its program prints %s=%s"
                             % (key, value, key, printed[key][0]))
    return len(shown), fails


def fmt(key, row):
    v = row.get(key)
    return "-" if v is None else ("%.2f" % v if key == "examples" else "%.1f" % v
                                  if key == "prose" else "%g" % v)


def check(paths, out=sys.stdout, programs=None):
    by_ed = {}
    for p in paths:
        by_ed.setdefault(os.path.basename(os.path.dirname(os.path.abspath(p))), []).append(p)
    passed, failed, notes, shown_total = 0, 0, [], [0]
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
            if programs:
                n, bad = check_output(items, chapter, programs)
                shown_total[0] += n
                fails += ["output: " + b for b in bad]
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
    if programs:
        out.write("output shown: %d lines of key=value pairs in the chapters' verbatim "
                  "blocks, each checked against what %s/chNN-* print\n"
                  % (shown_total[0], programs))
    out.write("book-shape: %d passed, %d failed\n" % (passed, failed))
    return failed


SELFTEST_GOOD = r"""\chapter{Good}
Prose before the interface. The program prints:
\begin{verbatim}
good.third=0.3333  good.status=MM_OK
\end{verbatim}
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
# what chapter 09's program prints (the good chapter shows it rounded)
SELFTEST_PRINTS = "good.third=0.33333333333333331\ngood.status=MM_OK\n"
SELFTEST_IMPL = "\\section{Implementation}\n\\paragraph{Do Lab~09 before reading on}\n"


def implementation(text):
    """the good chapter with its implementation section replaced by text"""
    body = SELFTEST_GOOD
    return body[:body.index("\\section{Implementation}")] + SELFTEST_IMPL + text + \
        "\\section{Recap}\n"


# kind: (what, the failure expected, the good chapter made bad)
SELFTEST_BAD = {
    "examples": ("an example program in the chapter", "FAIL: examples",
                 SELFTEST_GOOD.replace("\\section{Implementation}",
                                       "<<tangled/examples/show.c>>=\n" +
                                       "printf(\"%d\\n\", 1);\n" * 10 + "@\n"
                                       "\\section{Implementation}")),
    "largest": ("an implementation chunk of 30 lines", "FAIL: largest 30 (limit 15): <<big>>",
                implementation("Words about it.\n" * 40 + "<<big>>=\n" + "x++;\n" * 30 +
                               "@\n")),
    "prose": ("an implementation with one line of prose for 12 of code", "FAIL: prose",
              implementation("<<bare>>=\n" + "y++;\n" * 12 + "@\n")),
    "headings": ("an implementation whose other lines are headings, labels and "
                 "a verbatim block", "FAIL: prose",
                 implementation("\\subsection{Adding}\n\\label{sec:good-add}\n"
                                "\\begin{verbatim}\nadd_one: x = 1 is fine\n"
                                "\\end{verbatim}\n\\subsection{The one function}\n"
                                "\\label{sec:good-one}\n<<add one>>=\n"
                                "int add_one(int x) {\n    return x + 1;\n}\n@\n")),
    "value": ("a shown value its program does not print",
              "FAIL: output: shows good.third=0.3334, but its program prints",
              SELFTEST_GOOD.replace("good.third=0.3333", "good.third=0.3334")),
    "key": ("a shown key its program does not print",
            "FAIL: output: shows good.fourth=4, but no ch09 program prints good.fourth",
            SELFTEST_GOOD.replace("good.status=MM_OK", "good.status=MM_OK  good.fourth=4")),
}


def self_test():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "en"))
        programs = os.path.join(tmp, "bin")
        os.makedirs(programs)
        prog = os.path.join(programs, "ch09-good")
        with open(prog, "w") as f:
            f.write("#!/bin/sh\nprintf '%s'\n" % SELFTEST_PRINTS.replace("\n", "\\n"))
        os.chmod(prog, 0o755)
        good = os.path.join(tmp, "en", "09-good.nw")
        with open(good, "w") as f:
            f.write(SELFTEST_GOOD)
        buf = io.StringIO()
        if check([good], out=buf, programs=programs):
            ok = False
            sys.stderr.write("book-shape self-test: the good chapter failed:\n%s"
                             % buf.getvalue())
        os.remove(good)
        for kind, (what, expected, body) in SELFTEST_BAD.items():
            bad = os.path.join(tmp, "en", "09-bad.nw")
            with open(bad, "w") as f:
                f.write(body)
            buf = io.StringIO()
            OUTPUTS.clear()                             # the programs run afresh
            if not check([bad], out=buf, programs=programs) or expected not in buf.getvalue():
                ok = False
                sys.stderr.write("book-shape self-test: %s did not fail with %r:\n%s"
                                 % (what, expected, buf.getvalue()))
            os.remove(bad)
    OUTPUTS.clear()
    if ok:
        print("  ok     book-shape.py self-test (%d kinds of misshapen chapter caught)"
              % len(SELFTEST_BAD))
    return ok


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        sys.exit(0 if self_test() else 1)
    programs = None
    while args[:1] in (["--programs"], ["--rev"]) and len(args) >= 2:
        if args[0] == "--programs":
            programs = args[1]
        else:
            opts["rev"] = args[1]
        args = args[2:]
    if opts["rev"] and not args:
        listed = subprocess.run(["git", "ls-tree", "--name-only", opts["rev"],
                                 "book/en/", "book/es/"], capture_output=True, text=True)
        if listed.returncode:
            sys.exit("book-shape: git ls-tree %s: %s" % (opts["rev"], listed.stderr.strip()))
        args = [p for p in listed.stdout.split() if p.endswith(".nw")]
    if not args or any(a.startswith("--") for a in args):
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit(1 if check(args, programs=programs) else 0)


if __name__ == "__main__":
    main()
