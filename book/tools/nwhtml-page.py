#!/usr/bin/env python3
"""Cut the woven HTML (noweave + nwhtml-filter.py + tohtml) into the book's pages.

    python3 nwhtml-page.py LANG TEMPLATE OUTDIR < woven.html

Writes OUTDIR/index.html (title page and full contents) and one page per
chapter: every <h1> of the woven stream starts a page named after its id
(front, ch01, ch02, ..., appA, ..., chunks, identifiers: nwhtml-filter.py
gives chapters those ids, the same in both editions).  Nothing here knows how
many chapters there are.

On each page:
  * a link to an id on another page becomes PAGE.html#id (chunk, identifier,
    figure, section and footnote links all cross pages this way);
  * every heading gets a link to itself and a link to the same heading of
    the other edition (../OTHER/PAGE.html#id: the ids are the same there);
  * TEMPLATE (book/html/page.html, string.Template syntax) adds the contents
    (sidebar on wide screens, a <details> on narrow ones: chapters, and the
    current chapter's sections and subsections), previous/next links, the
    page's language switch and the link to the edition's PDF (workbook.pdf,
    copied beside the pages by book/book.mk).

It also tidies what tohtml writes (anchors as id=, chunk names as <name N>
with the number nwhtml-filter.py appended, no stray <p> after a chunk).  Math
is still TeX; katex-render.js renders it next.
"""
import html
import os
import re
import string
import sys

from weavelabels import LABELS

SEP = "\u2063"  # nwhtml-filter.py puts it between a chunk name and its number
HEADING = re.compile(r'<h([1-4])([^>]*)\bid="([^"]*)"([^>]*)>(.*?)</h\1>', re.S)


def die(msg):
    sys.stderr.write("nwhtml-page: %s\n" % msg)
    sys.exit(1)


def tidy(body):
    body = re.sub(r"<!-- this file was generated automatically by noweave;[^>]*-->\n?", "", body)
    body = body.replace('<a name="', '<a id="')
    # <name N>= / <name N>+= / <name N>
    def chunk_name(m):
        name, num, op = m.group(1), m.group(2), m.group(3) or ""
        sign = {"": "", "=": "≡", "+=": "+≡"}[op]
        return '⟨%s <span class="tag">%s</span>⟩%s' % (name, num, sign)
    body = re.sub("&lt;(.*?)%s(\\d+|\\?)&gt;(\\+?=)?" % SEP, chunk_name, body)
    # the chunk's own number goes first on its header line
    body = re.sub(r'(<a [^>]*><dfn>.*?</dfn></a>)(<span class="chunk-number">\d+</span>)',
                  r"\2\1", body)
    # tohtml opens a <p> when prose follows code; the prose brings its own
    body = re.sub(r'(<div class="chunk-notes">.*?</div>)<p>', r"\1\n", body)
    return body.strip() + "\n"


def split_pages(body):
    """[(name, html)] cut before each <h1>, with the anchors just before it."""
    cuts = [m.start() for m in re.finditer(r'(?:<a id="[^"]*"></a>\s*)*<h1\b', body)]
    if not cuts or body[:cuts[0]].strip():
        die("the woven book does not start with a chapter heading")
    pages = []
    for a, b in zip(cuts, cuts[1:] + [len(body)]):
        text = body[a:b].strip() + "\n"
        name = re.search(r'<h1[^>]*\bid="([^"]*)"', text).group(1)
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", name) or name == "index":
            die("a chapter heading has the id %r, not a page name" % name)
        pages.append((name, text))
    return pages


def plain(text):
    """A heading's words for a <title>: no tags, math as its TeX."""
    return html.unescape(re.sub(r"<[^>]*>", "", text)).strip()


def headings(text):
    """[(level, id, inner HTML)] of the page's h1-h3, without link markup."""
    return [(int(m.group(1)), m.group(3), re.sub(r"</?a\b[^>]*>", "", m.group(5)))
            for m in HEADING.finditer(text) if m.group(1) in "123"]


def toc_list(pages, current=None, full=False):
    """The contents: every chapter; below it, its sections and subsections
    (for the current page only, unless full)."""
    def nested(name, heads, level):
        items = []
        for head in heads:
            if head[0] <= level or not items:
                items.append((head, []))
            else:
                items[-1][1].append(head)
        return "<ol>%s</ol>" % "".join(
            '<li><a href="%s.html#%s">%s</a>%s</li>'
            % (name, ident, text, nested(name, kids, level + 1) if kids else "")
            for (_, ident, text), kids in items)
    out = []
    for name, heads in pages:
        here = ' aria-current="page"' if name == current else ""
        subs = heads[1:] if (full or name == current) else []
        out.append('<li><a href="%s.html"%s>%s</a>%s</li>' % (
            name, here, heads[0][2], nested(name, subs, 2) if subs else ""))
    return '<ol class="toc-list">%s</ol>' % "\n".join(out)


def link_ids(name, text, where):
    """#id pointing to another page becomes PAGE.html#id."""
    def fix(m):
        target = html.unescape(m.group(1))
        page = where.get(target)
        if page is None or page == name:
            return m.group(0)
        return 'href="%s.html#%s"' % (page, m.group(1))
    return re.sub(r'href="#([^"]*)"', fix, text)


def heading_links(name, text, L, other, O):
    """Each heading ends with a link to itself and one to the other edition."""
    def add(m):
        level, before, ident, after, inner = m.groups()
        links = ('<a class="anchor" href="#%s" aria-label="%s">#</a>'
                 '<a class="switch" href="../%s/%s.html#%s" hreflang="%s" lang="%s" '
                 'title="%s">%s</a>' % (ident, html.escape(L["anchor"]), other, name, ident,
                                        other, other, html.escape(O["in_language"]), other))
        return '<h%s%sid="%s"%s>%s %s</h%s>' % (level, before, ident, after, inner, links, level)
    return HEADING.sub(add, text)


def nav(pages, i, L, where):
    """Previous / next links around page i of the reading order (0 = index)."""
    def link(j, rel, label):
        if j < 0 or j >= len(pages):
            return '<span class="nav-%s"></span>' % rel
        name, heads = pages[j]
        title = L["title_page"] if name == "index" else heads[0][2]
        return ('<a class="nav-%s" rel="%s" href="%s.html"><span class="nav-label">%s</span> '
                '<span class="nav-title">%s</span></a>' % (rel, rel, name, label, title))
    return ('<nav class="prev-next %s">%s%s</nav>'
            % (where, link(i - 1, "prev", "← " + L["previous"]), link(i + 1, "next", L["next"] + " →")))


def code_lines(text):
    """Each line of a code chunk (<pre>) in a <span class="line">, its newline
    inside: on a phone style.css wraps a long line under itself (a hanging
    indent) instead of making the reader scroll sideways. A <pre> whose lines
    do not each close the tags they open is left as it is."""
    def one(m):
        lines = m.group(2).split("\n")
        if lines and lines[-1] == "":
            lines.pop()                  # the newline before </pre>
        for ln in lines:
            opened = re.findall(r"<([a-z]+)\b[^>]*>", ln)
            closed = re.findall(r"</([a-z]+)>", ln)
            if sorted(opened) != sorted(closed):
                return m.group(0)
        body = "".join('<span class="line">%s\n</span>' % ln for ln in lines)
        return m.group(1) + body + "</pre>"
    return re.sub(r"(<pre>)(.*?)</pre>", one, text, flags=re.S)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in LABELS:
        die("usage: nwhtml-page.py {%s} TEMPLATE OUTDIR" % ",".join(LABELS))
    lang, template, outdir = sys.argv[1:]
    L = LABELS[lang]
    other = [o for o in LABELS if o != lang][0]
    O = LABELS[other]
    with open(template, encoding="utf-8") as f:
        template = string.Template(f.read())

    pages = split_pages(tidy(sys.stdin.read()))
    where = {}
    for name, text in pages:
        for ident in re.findall(r'\bid="([^"]*)"', text):
            where[html.unescape(ident)] = name
    contents = [(name, headings(text)) for name, text in pages]
    order = [("index", [])] + contents

    index_body = ('<header class="title-page"><p class="book-title" id="top">%s</p>'
                  '<p class="subtitle">%s</p><p class="edition">%s</p>'
                  '<p class="pdf-link"><a href="workbook.pdf">%s</a></p></header>\n'
                  '<h1 class="contents-title" id="contents">%s</h1>\n%s\n'
                  % (html.escape(L["title"]), html.escape(L["subtitle"]), html.escape(L["edition"]),
                     html.escape(L["pdf"]), html.escape(L["contents"]), toc_list(contents, full=True)))
    os.makedirs(outdir, exist_ok=True)
    for i, (name, text) in enumerate([("index", index_body)] + pages):
        text = code_lines(heading_links(name, link_ids(name, text, where), L, other, O))
        if name != "index":
            title = "%s · %s" % (plain(contents[i - 1][1][0][2]), L["title"])
        else:
            title = L["title"]
        page = template.substitute(
            lang=lang, other=other, page=name, title=html.escape(title),
            book_title=html.escape(L["title"]), contents=html.escape(L["contents"]),
            title_page=html.escape(L["title_page"]), skip=html.escape(L["skip"]),
            switch_label=html.escape(O["language"]),
            switch_title=html.escape(O["page_in_language"]), pdf=html.escape(L["pdf"]),
            toc=toc_list(contents, current=name),
            nav_top=nav(order, i, L, "top"), nav_bottom=nav(order, i, L, "bottom"),
            body=text)
        with open(os.path.join(outdir, name + ".html"), "w", encoding="utf-8") as f:
            f.write(page)


if __name__ == "__main__":
    main()
