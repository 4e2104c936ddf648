#!/usr/bin/env python3
"""check-pdf-layout.py - how the PDF book's pages break, as a reader turns them.

    check-pdf-layout.py LANG PDF CHAPTER.nw...    check one edition's PDF
    check-pdf-layout.py --self-test MASTER WORKDIR show that each check can fail

Reads the PDF page by page (pdftotext -layout, and without -layout for the
reading order) and prints one line per problem, "PDF p. N: KIND: what".
Exits 1 if there is any. The kinds:

  header     a chunk's header ("<name 12a>=", noweb's "⟨…⟩≡") is the last
             line of its page: its code starts on the next page.
  defines    "Defines:" ("Define:") is the last line of its page: the list
             of identifiers it introduces is on the next page.
  comma      (Spanish) a list of chunks keeps noweb's English serial comma,
             "fragmentos 29b, 33, y 37b": Spanish writes "29b, 33 y 37b".
  code-break short inline code of the prose ([[...]] in CHAPTER.nw, at most
             SHORT characters) is broken across two lines at one of its
             spaces. Longer pieces may break where nothing else fits; they
             are counted in the last line.
  head       a page of the back matter (the chunk list, the identifier
             index) after a chapter's first page has no running head.

Prints a last line with the counts, e.g. "check-pdf-layout: en: 212 pages,
0 problems".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEADER = re.compile(r"⟨[^⟩]*⟩\+?≡\s*$")
DEFINES = re.compile(r"^\s*(Defines|Define):\s*$")
SERIAL = re.compile(r"\d+[a-z]?, (?:y|and) \d+[a-z]?\b")
SHORT = 20                   # book/tools/nw-quotes.py's MAX_CHARS
QUOTE = re.compile(r"\[\[(.+?)\]\](?!\])")
BACK_TITLES = {"en": ("Code chunks", "Index of identifiers"),
               "es": ("Fragmentos de código", "Índice de identificadores")}


def pages_text(pdf, layout=True):
    """the text of each page, as a list"""
    args = ["pdftotext", "-enc", "UTF-8"] + (["-layout"] if layout else []) + [pdf, "-"]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("check-pdf-layout: pdftotext %s failed: %s" % (pdf, run.stderr.strip()))
    pages = run.stdout.split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def last_line(page):
    """the last non-empty line of a page, and the number of non-empty lines"""
    lines = [ln for ln in page.splitlines() if ln.strip()]
    return (lines[-1] if lines else ""), len(lines)


def quoted_code(nw_files):
    """every [[...]] of the prose that has a space: it could break there"""
    found = set()
    for path in nw_files:
        in_code = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if re.match(r"^<<.*>>=\s*$", line):
                    in_code = True
                elif line.startswith("@") and (line == "@\n" or line[1] in " \t%\n"):
                    in_code = False
                if not in_code:
                    for q in QUOTE.findall(line):
                        if " " in q.strip():
                            found.add(" ".join(q.split()))
    return sorted(found)


def broken_code(page, codes):
    """[(code, first part)] for each quoted code split across two lines of a
    page's layout text: the second line must start at the text's left edge
    (a line of its own, not the rest of a line that math pushed down)"""
    raw = [ln for ln in page.splitlines() if ln.strip()]
    edge = min((len(ln) - len(ln.lstrip()) for ln in raw), default=0)
    lines = [(" ".join(ln.split()), len(ln) - len(ln.lstrip())) for ln in raw]
    out = []
    for (a, _), (b, indent) in zip(lines, lines[1:]):
        if indent > edge + 6:
            continue
        found = []
        for code in codes:
            for i, ch in enumerate(code):
                if ch == " " and a.endswith(code[:i]) and b.startswith(code[i + 1:]):
                    # the whole code on one of the two lines is no break
                    if code not in a and code not in b:
                        found.append((code, code[:i]))
        # a short piece that is part of a longer one broken there is that one
        out += [f for f in found if not any(f[0] in g[0] and f[0] != g[0] for g in found)]
    return out


def check(lang, pdf, nw_files, out=sys.stdout):
    problems = []

    def report(page, kind, msg):
        problems.append("%s p. %d: %s: %s" % (pdf, page, kind, msg))
        out.write(problems[-1] + "\n")

    layout = pages_text(pdf, True)
    codes = quoted_code(nw_files)
    back = None                              # (title, first page) of a back-matter chapter
    long_breaks = []
    for n, page in enumerate(layout, 1):
        last, count = last_line(page)
        if HEADER.search(last) and count > 1:
            report(n, "header", "the page ends with the chunk header %r; its code is on "
                   "p. %d" % (" ".join(last.split()), n + 1))
        if DEFINES.match(last):
            report(n, "defines", "the page ends with %r; its identifiers are on p. %d"
                   % (last.strip(), n + 1))
        if lang == "es":
            for line in page.splitlines():
                m = SERIAL.search(line)
                if m:
                    report(n, "comma", "English serial comma in %r" % " ".join(line.split()))
        for code, part in broken_code(page, codes):
            if len(code) <= SHORT:
                report(n, "code-break", "[[%s]] is broken after %r" % (code, part))
            else:
                long_breaks.append(code)
        lines = [ln.strip() for ln in page.splitlines() if ln.strip()]
        first = lines[0] if lines else ""
        for title in BACK_TITLES.get(lang, ()):
            if first == title or (len(lines) > 1 and lines[0] == title):
                back = (title, n)
        if back and n > back[1] and not re.search(r"[^\W\d]", first):
            report(n, "head", "no running head on a page of %r (its first line is %r)"
                   % (back[0], first))
    summary = ("check-pdf-layout: %s: %d pages, %d quoted code with spaces (%d longer than "
               "%d characters broken where nothing else fit), %d problem%s" % (
                   lang, len(layout), len(codes), len(long_breaks), SHORT, len(problems),
                   "" if len(problems) == 1 else "s"))
    return problems, summary


# ---- self-test: a small book that breaks each rule, woven twice -------------
def selftest_source():
    """on each page a block that cannot break, leaving 0 to 120 pt of the
    page, then a chunk: on some page its header, on another its "Defines:",
    is the last line that fits; a chunk used on three pages (a list of three)"""
    parts = ["\\chapter{One}\n"]
    for k, room in enumerate(range(0, 121, 3)):
        parts.append("\\clearpage\\noindent\\rule{1pt}{\\dimexpr\\textheight-%dpt\\relax}\n"
                     % room)
        parts.append("<<stranded %d>>=\nint x%d = 1;\nint y%d = 2;\n<<used thrice>>\n"
                     "@ %%def x%d y%d\n" % (k, k, k, k, k))
    parts.append("\\clearpage\n<<used thrice>>=\nint z;\n@\n")
    return "".join(parts)


def weave_selftest(master, work, with_sty):
    """the self-test's PDF, woven with the edition's master, with or without
    book/tools/workbook.sty and the book's noweb filters"""
    os.makedirs(work, exist_ok=True)
    nw = os.path.join(work, "selftest.nw")
    with open(nw, "w", encoding="utf-8") as f:
        f.write(selftest_source())
    tools = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "book", "tools")
    filters = []
    if with_sty:
        for name in ("nw-ownuses.py", "nw-quotes.py"):
            filters += ["-filter", "python3 -B " + os.path.join(tools, name)]
        shutil.copy(os.path.join(tools, "workbook.sty"), work)
    body = subprocess.run(["noweave", "-n", "-index"] + filters + [nw],
                          capture_output=True, text=True)
    with open(os.path.join(work, "body.tex"), "w", encoding="utf-8") as f:
        f.write(body.stdout)
    with open(master, encoding="utf-8") as f:
        tex = f.read()
    # the master without the book's chunk list and index: only the self-test's text
    tex = re.sub(r"\\backmatter.*\\end\{document\}", r"\\end{document}", tex, flags=re.S)
    if not with_sty:
        tex = tex.replace("\\usepackage{workbook}", "")
    with open(os.path.join(work, "workbook.tex"), "w", encoding="utf-8") as f:
        f.write(tex)
    pdf = os.path.join(work, "workbook.pdf")
    if os.path.exists(pdf):
        os.remove(pdf)
    for _ in range(3):          # noweb's page labels settle on the third run
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "workbook.tex"], cwd=work,
                       capture_output=True)
    if not os.path.exists(pdf):
        sys.exit("check-pdf-layout --self-test: pdflatex wrote no PDF in %s" % work)
    with open(os.devnull, "w") as quiet:
        return check(lang_of(master), pdf, [nw], out=quiet)[0]


def lang_of(master):
    return "es" if os.sep + "es" + os.sep in os.path.abspath(master) else "en"


def self_test(master, work):
    """woven plainly, the self-test book breaks each rule; woven as the book
    is (workbook.sty, the filters), it breaks none"""
    lang = lang_of(master)
    want = ["header", "defines"] + (["comma"] if lang == "es" else [])
    plain = weave_selftest(master, os.path.join(work, "plain"), False)
    fixed = weave_selftest(master, os.path.join(work, "book"), True)
    ok = True
    for kind in want:
        if not any(": %s: " % kind in p for p in plain):
            ok = False
            sys.stderr.write("check-pdf-layout self-test (%s): woven without workbook.sty, no "
                             "%s problem was found; got %s\n" % (lang, kind, plain))
    if fixed:
        ok = False
        sys.stderr.write("check-pdf-layout self-test (%s): woven as the book is, problems "
                         "remain: %s\n" % (lang, fixed))
    if ok:
        print("  ok     check-pdf-layout.py self-test (%s): %s caught without workbook.sty "
              "(%d), none with it" % (lang, ", ".join(want), len(plain)))
    return ok


def main():
    args = sys.argv[1:]
    if args[:1] == ["--self-test"] and len(args) == 3:
        sys.exit(0 if self_test(args[1], args[2]) else 1)
    if len(args) < 3 or args[0] not in BACK_TITLES:
        sys.exit(__doc__.split("\n\n")[1])
    problems, summary = check(args[0], args[1], args[2:])
    print(summary)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
