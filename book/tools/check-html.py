#!/usr/bin/env python3
"""Check a woven HTML book as a reader would meet it.

    python3 check-html.py PAGE.html ...     check pages; exit 1 on any problem
    python3 check-html.py --self-test       prove that each check can fail

A page fails if
  * its visible text (outside <code>, <pre>, <math>, KaTeX's MathML copy,
    <script>, <style>) still holds LaTeX or noweb markup: $ math delimiters,
    \\frac, \\begin{, \\mathbb, \\section, \\emph, \\includegraphics, \\ref, @<<, ...;
  * an internal link href="#id" has no element with that id (or <a name>);
  * a local file named by src= or href= is missing.
"""
import html.parser
import os
import re
import sys
import tempfile
import urllib.parse

# LaTeX or noweb markup that must never reach the reader.
LEFTOVERS = re.compile(
    r"\$[^$\s]"                       # $x$ math
    r"|\\[()\[\]]"                    # \( \) \[ \]
    r"|\\(begin|end)\{"
    r"|\\(frac|sqrt|mathbb|mathrm|text|boxed|cdot|qquad|quad|top|times|in|sum|alpha"
    r"|chapter|section|subsection|paragraph|emph|textbf|texttt|label|ref|cite"
    r"|includegraphics|caption|footnote|item|centering|hline|S)\b"
    r"|@<<|<<[^<>\n]*>>(=|\+=)?|\[\[|\]\]"
    r"|``|''"
)
HIDDEN = {"code", "pre", "math", "annotation", "script", "style", "semantics"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.links, self.files, self.text = [], set(), [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id",) + (("name",) if tag == "a" else ()):
            if a.get(key):
                self.ids.add(a[key])
        for key in ("href", "src"):
            url = a.get(key)
            if url is None:
                continue
            if url.startswith("#"):
                self.links.append(urllib.parse.unquote(url[1:]))
            elif not re.match(r"[a-z][a-z0-9+.-]*:", url, re.I):
                self.files.append(urllib.parse.unquote(url.split("#")[0].split("?")[0]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.stack:                   # tolerate implied end tags
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if not HIDDEN.intersection(self.stack):
            self.text.append(data)


def check(path):
    """Return a list of problems found in the page at path."""
    with open(path, encoding="utf-8") as f:
        page = Page()
        page.feed(f.read())
        page.close()
    problems = []
    text = "".join(page.text)
    for m in LEFTOVERS.finditer(text):
        around = text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ")
        problems.append("unrendered markup %r in: ...%s..." % (m.group(0), around))
    for target in sorted(set(page.links) - page.ids):
        problems.append("link to #%s, but no element has that id" % target)
    base = os.path.dirname(path)
    for name in sorted(set(page.files)):
        if name and not os.path.exists(os.path.join(base, name)):
            problems.append("missing file %s" % name)
    return problems


def check_pages(paths):
    failed = False
    for path in paths:
        problems = check(path)
        for p in problems[:30]:
            sys.stderr.write("%s: %s\n" % (path, p))
        if len(problems) > 30:
            sys.stderr.write("%s: ... and %d more\n" % (path, len(problems) - 30))
        if problems:
            failed = True
        else:
            print("  ok     %s" % path)
    return not failed


GOOD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="style.css"></head><body>
<h1 id="ch:one">One</h1><p>See <a href="#fig:a">Figure 1.1</a> and
<span class="katex"><math><semantics><annotation encoding="application/x-tex">\\frac{a}{b}</annotation></semantics></math></span>.</p>
<figure id="fig:a"><img src="a.svg" alt="Figure 1.1"></figure>
<pre><a id="NW1"></a>q[i] = $x; /* \\begin{not math} @<<code>> */</pre>
<p>Price: 5 $ and <code>$HOME</code>.</p></body></html>
"""
BROKEN = {  # what is broken: (page, the problem check() must name)
    "inline math left as TeX": (GOOD.replace("Price: 5 $", "Price: $5$"), "'$5'"),
    "a \\frac outside math": (GOOD.replace("and <code>", "\\frac{1}{2} and <code>"), "\\\\frac"),
    "an environment left as TeX": (GOOD.replace("<p>Price", "<p>\\begin{itemize} Price"),
                                   "\\\\begin{"),
    "a \\section left as TeX": (GOOD.replace(">One<", ">\\section{One}<"), "\\\\section"),
    "a \\ref left as TeX": (GOOD.replace("Figure 1.1</a>", "Figure \\ref{fig:a}</a>"), "\\\\ref"),
    "a noweb chunk reference in prose": (
        GOOD.replace("Price:", "@&lt;&lt;includes&gt;&gt; Price:"), "'@<<'"),
    "a link to a missing id": (GOOD.replace('href="#fig:a"', 'href="#fig:b"'), "#fig:b"),
    "a missing image": (GOOD.replace('src="a.svg"', 'src="b.svg"'), "missing file b.svg"),
    "a missing stylesheet": (GOOD.replace('href="style.css"', 'href="katex/katex.min.css"'),
                             "missing file katex/katex.min.css"),
}


def self_test():
    """The good page passes; each broken variant fails for its own reason."""
    ok = True
    with tempfile.TemporaryDirectory() as d:
        for name in ("style.css", "a.svg"):
            open(os.path.join(d, name), "w").close()
        cases = [("a correct page", GOOD, None)] + [(k, v[0], v[1]) for k, v in BROKEN.items()]
        for what, text, expected in cases:
            path = os.path.join(d, "page.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            problems = check(path)
            named = expected is not None and any(expected in p for p in problems)
            if (expected is None and problems) or (expected is not None and not named):
                ok = False
                sys.stderr.write("check-html self-test: %s: expected %s, got %s\n" % (
                    what, repr(expected) if expected else "no problem", problems))
    if ok:
        print("  ok     check-html.py self-test (%d broken pages rejected)" % len(BROKEN))
    return ok


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    ok = self_test() if args == ["--self-test"] else check_pages(args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
