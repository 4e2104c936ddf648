#!/usr/bin/env python3
"""Check a woven HTML book as a reader would meet it (static: no browser).

    python3 check-html.py EDITION_DIR... check every page (*.html) of each
                                        edition; exit 1 on any problem
    python3 check-html.py PAGE.html ... check single pages
    python3 check-html.py --self-test   prove that each check can fail

A page fails if
  * its visible text (outside <code>, <pre>, <math>, KaTeX's MathML copy,
    <script>, <style>) still holds LaTeX or noweb markup: $ math delimiters,
    \\frac, \\begin{, \\mathbb, \\section, \\emph, \\includegraphics, \\ref, @<<, ...;
  * a link href="#id" or href="PAGE.html#id" has no element with that id (or
    <a name>) on the page it names;
  * a local file named by src= or href= is missing;
  * an image has no alt text, or an empty one;
  * a file's path in <code> (text with a /) holds a link: an identifier
    linked inside a path (labs/lab03-<a>mha</a>) breaks the path apart.
Given several edition folders, they must also have the same pages, and each
page the same headings (level, id and number) in the same order: the language
switch on every heading relies on it.  The browser check
(tests/book/check-browser.py) measures what needs a layout.
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
        self.headings, self.no_alt = [], []
        self.code, self.linked_paths = None, []   # the open <code>: [text, links]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id",) + (("name",) if tag == "a" else ()):
            if a.get(key):
                self.ids.add(a[key])
        if tag in ("h1", "h2", "h3", "h4") and a.get("id"):
            self.headings.append((tag, a["id"], a.get("data-number") or ""))
        if tag == "code":
            self.code = [[], 0]
        elif tag == "a" and self.code is not None:
            self.code[1] += 1
        if tag == "img" and not (a.get("alt") or "").strip():
            self.no_alt.append(a.get("src", "?"))
        for key in ("href", "src"):
            url = a.get(key)
            if url is None:
                continue
            if not re.match(r"[a-z][a-z0-9+.-]*:", url, re.I):
                name, _, frag = url.partition("#")
                name = urllib.parse.unquote(name.split("?")[0])
                self.links.append((name, urllib.parse.unquote(frag)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag == "code" and self.code is not None:
            text, links = "".join(self.code[0]), self.code[1]
            if links and "/" in text and " " not in text.strip():
                self.linked_paths.append(text)
            self.code = None
        if tag in self.stack:                   # tolerate implied end tags
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if self.code is not None:
            self.code[0].append(data)
        if not HIDDEN.intersection(self.stack):
            self.text.append(data)


def parse(path):
    with open(path, encoding="utf-8") as f:
        page = Page()
        page.feed(f.read())
        page.close()
    return page


def check(path, parsed=None):
    """Return a list of problems found in the page at path (parsed: a cache
    of the pages its links name)."""
    parsed = {} if parsed is None else parsed
    page = parsed.setdefault(os.path.realpath(path), parse(path))
    problems = []
    text = "".join(page.text)
    for m in LEFTOVERS.finditer(text):
        around = text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ")
        problems.append("unrendered markup %r in: ...%s..." % (m.group(0), around))
    base = os.path.dirname(path)
    for name, frag in sorted(set(page.links)):
        target = os.path.realpath(os.path.join(base, name)) if name else os.path.realpath(path)
        if not os.path.exists(target):
            problems.append("missing file %s" % name)
        elif frag and target.endswith(".html"):
            if target not in parsed:
                parsed[target] = parse(target)
            if frag not in parsed[target].ids:
                problems.append("link to %s#%s, but no element there has that id" % (name, frag)
                                if name else "link to #%s, but no element has that id" % frag)
    for src in page.no_alt:
        problems.append("image %s has no alt text" % src)
    for text in page.linked_paths:
        problems.append("a link inside the path <code>%s</code>" % text)
    return problems


def same_structure(dirs, parsed):
    """The editions in dirs have the same pages with the same headings."""
    problems = []
    pages = [set(n for n in os.listdir(d) if n.endswith(".html")) for d in dirs]
    for d, names in zip(dirs[1:], pages[1:]):
        for n in sorted(pages[0] ^ names):
            problems.append("%s: the page is in %s only" % (n, d if n in names else dirs[0]))
        for n in sorted(pages[0] & names):
            ha = parsed.setdefault(os.path.realpath(os.path.join(dirs[0], n)),
                                   parse(os.path.join(dirs[0], n))).headings
            hb = parsed.setdefault(os.path.realpath(os.path.join(d, n)),
                                   parse(os.path.join(d, n))).headings
            if ha != hb:
                i = next((i for i, (x, y) in enumerate(zip(ha, hb)) if x != y), min(len(ha), len(hb)))
                show = lambda h: " ".join(h[i]) if i < len(h) else "no more headings"
                problems.append("%s: the editions' headings differ at heading %d: %s has %s, %s has %s"
                                % (n, i + 1, dirs[0], show(ha), d, show(hb)))
    return problems


def check_pages(args):
    failed, parsed = False, {}
    dirs = [a for a in args if os.path.isdir(a)]
    paths = [p for a in args for p in (
        sorted(os.path.join(a, n) for n in os.listdir(a) if n.endswith(".html"))
        if os.path.isdir(a) else [a])]
    for path in paths:
        problems = check(path, parsed)
        for p in problems[:30]:
            sys.stderr.write("%s: %s\n" % (path, p))
        if len(problems) > 30:
            sys.stderr.write("%s: ... and %d more\n" % (path, len(problems) - 30))
        failed = failed or bool(problems)
    if len(dirs) > 1:
        for p in same_structure(dirs, parsed):
            sys.stderr.write("structure: %s\n" % p)
            failed = True
    if not failed:
        print("  ok     check-html.py: %d pages%s" % (
            len(paths), ", %d editions with the same structure" % len(dirs) if len(dirs) > 1 else ""))
    return not failed


GOOD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="style.css"></head><body>
<h1 id="ch01" data-number="1">One</h1><p>See <a href="#fig:a">Figure 1.1</a> and
<span class="katex"><math><semantics><annotation encoding="application/x-tex">\\frac{a}{b}</annotation></semantics></math></span>.</p>
<figure id="fig:a"><img src="a.svg" alt="A square"></figure>
<pre><a id="NW1"></a>q[i] = $x; /* \\begin{not math} @<<code>> */</pre>
<p>Price: 5 $ and <code>$HOME</code>, see <a href="other.html#sec-1">there</a>.</p></body></html>
"""
OTHER = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body><h2 id="sec-1">S</h2></body></html>'
BROKEN = {  # what is broken: (page, the problem check() must name)
    "inline math left as TeX": (GOOD.replace("Price: 5 $", "Price: $5$"), "'$5'"),
    "a \\frac outside math": (GOOD.replace("and <code>", "\\frac{1}{2} and <code>"), "\\\\frac"),
    "an environment left as TeX": (GOOD.replace("<p>Price", "<p>\\begin{itemize} Price"),
                                   "\\\\begin{"),
    "a \\section left as TeX": (GOOD.replace(">One<", ">\\section{One}<"), "\\\\section"),
    "a \\ref left as TeX": (GOOD.replace("Figure 1.1</a>", "Figure \\ref{fig:a}</a>"), "\\\\ref"),
    "a noweb chunk reference in prose": (
        GOOD.replace("Price:", "@&lt;&lt;includes&gt;&gt; Price:"), "'@<<'"),
    "an identifier linked inside a path": (
        GOOD.replace("<code>$HOME</code>", '<code>labs/lab03-<a href="#fig:a">mha</a></code>'),
        "a link inside the path"),
    "a link to a missing id": (GOOD.replace('href="#fig:a"', 'href="#fig:b"'), "#fig:b"),
    "a link to a missing id on another page": (
        GOOD.replace("other.html#sec-1", "other.html#sec-9"), "other.html#sec-9"),
    "a link to a missing page": (GOOD.replace("other.html#sec-1", "gone.html#sec-1"),
                                 "missing file gone.html"),
    "a missing image": (GOOD.replace('src="a.svg"', 'src="b.svg"'), "missing file b.svg"),
    "an image without alt text": (GOOD.replace('alt="A square"', 'alt=""'), "has no alt text"),
    "a missing stylesheet": (GOOD.replace('href="style.css"', 'href="katex/katex.min.css"'),
                             "missing file katex/katex.min.css"),
    "a heading in one edition only": (
        GOOD.replace("<figure", '<h2 id="ch01-1" data-number="1.1">Extra</h2><figure'),
        "headings differ at heading 2"),
}


def self_test():
    """The good page passes; each broken variant fails for its own reason.
    The page is en/page.html; es/page.html is always the good one."""
    ok = True
    with tempfile.TemporaryDirectory() as d:
        dirs = [os.path.join(d, "en"), os.path.join(d, "es")]
        for ed in dirs:
            os.mkdir(ed)
            for name, text in (("style.css", ""), ("a.svg", ""), ("other.html", OTHER),
                               ("page.html", GOOD)):
                with open(os.path.join(ed, name), "w", encoding="utf-8") as f:
                    f.write(text)
        cases = [("a correct page", GOOD, None)] + [(k, v[0], v[1]) for k, v in BROKEN.items()]
        for what, text, expected in cases:
            path = os.path.join(dirs[0], "page.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            problems = check(path) + same_structure(dirs, {})
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
