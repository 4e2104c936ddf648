#!/usr/bin/env python3
"""Turn the woven HTML (noweave + nwhtml-filter.py + tohtml) into the book's page.

    python3 nwhtml-page.py LANG TEMPLATE < woven.html > page.html

Tidies what tohtml writes (anchors as id=, chunk names as <name N> with the
number nwhtml-filter.py appended, no stray <p> after a chunk), builds the
table of contents from the chapter and section headings, and fills
TEMPLATE (book/html/page.html, string.Template syntax).  Math is still TeX;
katex-render.js renders it next.
"""
import html
import re
import string
import sys

from weavelabels import LABELS

SEP = "\u2063"  # nwhtml-filter.py puts it between a chunk name and its number


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


def toc(body):
    """Nested list of the chapters (h1) and sections (h2)."""
    out, open_sub = ["<ul>"], False
    for m in re.finditer(r'<h([12])[^>]*\bid="([^"]*)"[^>]*>(.*?)</h\1>', body, re.S):
        level, ident, text = m.group(1), m.group(2), m.group(3)
        text = re.sub(r"</?a\b[^>]*>", "", text)      # no links inside links
        item = '<li><a href="#%s">%s</a>' % (ident, text)
        if level == "1":
            out.append("</ul></li>" if open_sub else "</li>")
            out.append(item)
            open_sub = False
        else:
            if not open_sub:
                out.append("<ul>")
                open_sub = True
            out.append(item + "</li>")
    out.append("</ul></li>" if open_sub else "</li>")
    out.append("</ul>")
    return "\n".join(out[:1] + out[2:])               # drop the first </li>


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in LABELS:
        sys.exit("usage: nwhtml-page.py {%s} TEMPLATE" % ",".join(LABELS))
    lang, template = sys.argv[1], sys.argv[2]
    L = LABELS[lang]
    body = tidy(sys.stdin.read())
    others = ['<a href="../%s/index.html" hreflang="%s" lang="%s">%s</a>'
              % (o, o, o, html.escape(LABELS[o]["edition"])) for o in LABELS if o != lang]
    with open(template, encoding="utf-8") as f:
        page = string.Template(f.read()).substitute(
            lang=lang, title=html.escape(L["title"]), subtitle=html.escape(L["subtitle"]),
            contents=html.escape(L["contents"]), editions=" · ".join(others),
            toc=toc(body), body=body)
    sys.stdout.write(page)


if __name__ == "__main__":
    main()
