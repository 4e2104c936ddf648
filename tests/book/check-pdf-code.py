#!/usr/bin/env python3
"""check-pdf-code.py - the code a PDF book prints is the code of its chunks, and fits.

    check-pdf-code.py MASTER PDF CHAPTER.nw...   check one edition's PDF
    check-pdf-code.py --self-test MASTER WORKDIR  show that each check can fail

MASTER is the edition's LaTeX master (book/en/workbook.tex): it states the
limit, "a code line holds at most N characters". The PDF's workbook.log, beside
it, has the text block ("textblock: ..." written by the master). Three checks:

  1. length: no line of a code chunk in the .nw sources is longer than N
     characters (tabs expanded to 8) - cheap, and says which source line.
  2. verbatim: every line of every code chunk is printed, character for
     character, in the PDF (pdftotext), as often as the chunks have it. A
     chunk reference <<name>> is compared as noweb prints it, <name 12a>.
     Whitespace is normalised: each run of spaces becomes one space and the
     ends are stripped. pdftotext rebuilds spaces from the gaps between glyphs,
     so the length of indentation and alignment runs is approximate, but the
     characters, their order and whether two tokens are apart all survive.
  3. width: no printed code line (a line of words on one baseline that reads
     as a chunk's line) ends right of the text block by more than 0.5 pt.

Lines are rebuilt from pdftotext -bbox-layout's words, grouped by page and
baseline, so a chunk broken across pages is simply lines on two pages.
Exits 1 with one line per failure saying where to look.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

TOLERANCE_PT = 0.5            # rounding of pdftotext's boxes
CHUNK_DEF = re.compile(r"^<<(.*)>>=\s*$")
CHUNK_REF = re.compile(r"(?<!@)<<(.+?)(?<!@)>>")
NS = "{http://www.w3.org/1999/xhtml}"


def norm(text):
    return " ".join(text.split())


def code_lines(nw_files):
    """(file, line number, text) of every line of every code chunk"""
    out = []
    for path in nw_files:
        in_code = False
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if CHUNK_DEF.match(line):
                    in_code = True
                elif line == "@" or line.startswith(("@ ", "@\t", "@%")):
                    in_code = False
                elif in_code:
                    out.append((path, n, line.expandtabs(8)))
    return out


def printed_pattern(line):
    """a regex for the line as noweb prints it: text verbatim, references as <name tag>"""
    line = re.sub(r"^@@", "@", line).replace("@<<", "\0L").replace("@>>", "\0R")
    parts, pos = [], 0
    for m in CHUNK_REF.finditer(line):
        parts.append(re.escape(norm(line[pos:m.start()])))
        name = norm(m.group(1).replace("[[", "").replace("]]", ""))
        name_re = ".+?" if re.search(r"[\\$]", name) else re.escape(name)
        parts.append("⟨" + name_re + r" (\d+[a-z]*|\?\?) ?⟩")
        pos = m.end()
    parts.append(re.escape(norm(line[pos:])))
    pattern = r"\s?".join(p for p in parts if p)   # a reference may sit next to text
    return pattern.replace("\0L", "<<").replace("\0R", ">>")


def textblock(log):
    """(left, right) edges of the text block in pt, widest over odd and even pages"""
    with open(log, encoding="latin-1") as f:
        m = re.search(r"textblock: paperwidth=([\d.]+)pt,\s*oddleft=([-\d.]+)pt,\s*"
                      r"evenleft=([-\d.]+)pt,\s*textwidth=([\d.]+)pt",
                      f.read().replace("\n", ""))   # TeX wraps log lines at 79 characters
    if not m:
        sys.exit(f"check-pdf-code: {log} has no 'textblock:' line; the master must "
                 f"\\typeout it (see book/en/workbook.tex)")
    _, odd, even, width = (float(x) for x in m.groups())
    # TeX points (1/72.27 in) to PDF points (1/72 in), pdftotext's unit
    k = 72 / 72.27
    return min(odd, even) * k, (max(odd, even) + width) * k


def pdf_lines(pdf):
    """[(page, xMax, text)] of every printed line, words grouped by baseline"""
    run = subprocess.run(["pdftotext", "-bbox-layout", pdf, "-"], capture_output=True,
                         text=True, encoding="utf-8")
    if run.returncode != 0:
        sys.exit(f"check-pdf-code: pdftotext failed on {pdf}: {run.stderr.strip()}")
    # no DOCTYPE (ElementTree would not read it), and math glyphs that
    # pdftotext maps to control characters, which XML does not allow
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", run.stdout, count=1)
    root = ET.fromstring(re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "\ufffd", xml))
    lines = []
    for number, page in enumerate(root.iter(NS + "page"), 1):
        words = sorted(((float(w.get("yMax")), float(w.get("xMin")), float(w.get("xMax")),
                         w.text or "") for w in page.iter(NS + "word")))
        group = []
        for word in words + [None]:
            if group and (word is None or word[0] - group[0][0] > 3.0):
                group.sort(key=lambda w: w[1])
                lines.append((number, group[-1][2], norm(" ".join(w[3] for w in group))))
                group = []
            if word is not None:
                group.append(word)
    return lines


def check(master, pdf, nw_files):
    failures = []
    with open(master, encoding="utf-8") as f:
        m = re.search(r"holds at most (\d+) characters", f.read())
    if not m:
        sys.exit(f"check-pdf-code: {master} does not state 'a code line holds at most N characters'")
    limit = int(m.group(1))
    chunks = [c for c in code_lines(nw_files) if c[2].strip()]
    if not chunks:
        sys.exit(f"check-pdf-code: no code chunk in {' '.join(nw_files)}")

    # 1. length in the sources
    for path, n, line in chunks:
        if len(line) > limit:
            failures.append(f"{path}:{n}: code line of {len(line)} characters, over the "
                            f"{limit} that fit the text block ({master}); break it")

    # 2. verbatim, as often as the chunks have it
    printed = pdf_lines(pdf)
    patterns = collections.OrderedDict()
    for path, n, line in chunks:
        patterns.setdefault(printed_pattern(line), []).append((path, n, line))
    matchers = {p: re.compile(p + r"\Z") for p in patterns}
    is_code = [any(rx.match(t) for rx in matchers.values()) for _, _, t in printed]
    for pattern, where in patterns.items():
        have = sum(1 for _, _, t in printed if matchers[pattern].match(t))
        if have < len(where):
            path, n, line = where[0]
            shown = [t for _, _, t in printed if norm(line)[:12] in t][:1]
            failures.append(f"{path}:{n}: code line printed {have} time(s) in {pdf}, "
                            f"the chunks have it {len(where)}: {line.strip()!r}"
                            + (f"; the PDF has {shown[0]!r}" if shown else ""))

    # 3. width, of the lines that read as code
    left, right = textblock(os.path.join(os.path.dirname(pdf), "workbook.log"))
    for (page, x_max, text), code in zip(printed, is_code):
        if code and x_max > right + TOLERANCE_PT:
            failures.append(f"{pdf}: page {page}: code line ends {(x_max - right) * 25.4 / 72:.1f} mm "
                            f"right of the text block: {text!r}")
    summary = (f"check-pdf-code: {pdf}: {len(chunks)} code lines printed verbatim, "
               f"none over {limit} characters or past the text block")
    return failures, summary


# ---- self-test -----------------------------------------------------------------

SELFTEST_NW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pdf-selftest.nw")


def weave(master, nw, work, name, doctor=None, runs=2):
    """weave nw with MASTER (edited by doctor) into work/name/workbook.pdf"""
    where = os.path.join(work, name)
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    with open(os.path.join(where, "body.tex"), "w", encoding="utf-8") as out:
        subprocess.run(["noweave", "-n", "-index", nw], stdout=out, check=True)
    with open(master, encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(where, "workbook.tex"), "w", encoding="utf-8") as f:
        f.write(doctor(text) if doctor else text)
    # the package the masters load (how chunks sit on the page), as book/book.mk copies it
    shutil.copy(os.path.join(os.path.dirname(SELFTEST_NW), "..", "..", "book", "tools",
                             "workbook.sty"), where)
    for _ in range(runs):
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                              "workbook.tex"], cwd=where, capture_output=True)
        if run.returncode != 0:
            sys.exit(f"check-pdf-code --self-test: pdflatex failed in {where}; read workbook.log")
    return os.path.join(where, "workbook.pdf")


def expect(title, result, wanted):
    failures = result[0]
    missing = [w for w in wanted if not any(w in f for f in failures)]
    extra = [f for f in failures if not any(w in f for w in wanted)]
    if missing or extra:
        sys.exit(f"check-pdf-code --self-test: {title}: expected failures {wanted}, "
                 f"got {failures}")
    print(f"check-pdf-code --self-test: {title}: ok" + (f" (fails as it should: "
          f"{len(failures)} failure(s), e.g. {failures[0][:110]}...)" if failures else ""))


def self_test(master, work):
    """the synthetic chunks pass as woven; a long line, ligatures, curly
    quotes and a dropped line each fail"""
    sample = SELFTEST_NW
    good = weave(master, sample, work, "good")
    expect("special characters printed verbatim", check(master, good, [sample]), [])

    long_nw = os.path.join(work, "pdf-long.nw")
    with open(sample, encoding="utf-8") as f:
        text = f.read()
    with open(long_nw, "w", encoding="utf-8") as f:
        f.write(text.replace("/* LONG */", "/* LONG */" + " x" * 40))   # 90 characters, on the page
    long_pdf = weave(master, long_nw, work, "long")
    expect("a line too long", check(master, long_pdf, [long_nw]),
           ["characters, over the", "right of the text block"])

    raw = weave(master, sample, work, "ligatures", runs=1, doctor=lambda t: t.replace(
        r"\DisableLigatures", r"\newcommand\off").replace(
        r"\g@addto@macro\@begincode{\wb@upquotes}", ""))
    failures = check(master, raw, [sample])
    expect("ligatures and curly quotes", failures, ["printed 0 time(s)"])
    failures = failures[0]
    for token in (">>", "<<", "'"):
        if not any(token in f.split("the chunks have it")[1] for f in failures):
            sys.exit(f"check-pdf-code --self-test: no failure names a line with {token}")

    with open(long_nw, "w", encoding="utf-8") as f:   # a chunk line the PDF lacks
        f.write(text + "\n<<dropped>>=\nint never_woven;\n@\n")
    expect("a line not in the PDF", check(master, good, [long_nw]), ["never_woven"])


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--self-test":
        self_test(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and not sys.argv[1].startswith("-"):
        failures, summary = check(sys.argv[1], sys.argv[2], sys.argv[3:])
        for msg in failures:
            print("check-pdf-code: FAIL: " + msg)
        if failures:
            sys.exit(1)
        print(summary)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
