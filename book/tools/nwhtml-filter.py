#!/usr/bin/env python3
"""noweb filter for the HTML book: LaTeX prose to HTML, numbered chunks, our notes.

    noweave -html -n -index \\
        -filter 'python3 book/tools/nwhtml-filter.py LANG' CHAPTER.nw ...

It runs after noidx and before noweb's tohtml back end, and changes the
pipeline (see `man nowebfilters`) in four ways:

1. Documentation chunks are LaTeX.  All of them go through ONE pandoc call
   (LaTeX -> HTML), each behind a marker paragraph, and are split back.
   Quoted code [[...]] is swapped for a placeholder word before pandoc and put
   back after, so tohtml still renders it with its identifier links.  Math is
   left as <span class="math ...">TeX</span> for katex-render.js.
   \appendix becomes a marker (pandoc ignores it) so that the chapters after
   it are lettered A, B, ...; a figure's \alttext{...} (which LaTeX ignores)
   becomes its image's alt text, its caption standing in when there is none.
2. Code chunks are numbered 1, 2, ... in reading order.  A chunk's name is
   followed by the number of its first definition (NAME<U+2063>N, which
   nwhtml-page.py shows as <NAME N>), and its header carries its own number.
3. noweb's notes under each code chunk (used in, continued in, defines, uses)
   are replaced by our own, in LANG, pointing at chunk numbers.
4. The chunk list and identifier index noidx appends become HTML chapters.

Chapters, sections, figures and tables are numbered as LaTeX's book class
numbers them, every heading gets an id that is the same in both editions
(see number_floats), and every \\ref gets its target's number.  Any problem
is reported on stderr (the build treats any stderr output as a failure) with
exit status 1.
"""
import html
import re
import subprocess
import sys

from weavelabels import LABELS

SEP = "\u2063"  # between a chunk name and its number (invisible separator)


def die(msg):
    sys.stderr.write("nwhtml-filter: %s\n" % msg)
    sys.exit(1)


XREF_TO_CHUNK = {"ref", "prevdef", "nextdef", "defitem", "useitem",
                 "chunkbegin", "chunkuse", "chunkdefn"}


def number_chunks(lines):
    """Return ({label: chunk number}, {chunk name: first number}, {label}).

    A code chunk's labels get its number; a documentation label gets the
    number of the code chunk that follows it (the chunk's prose, as in WEB).
    The last set holds the labels that stand for a code chunk (those noweb's
    @xref lines name); the rest mark uses of identifiers in the prose, which
    the lists leave out, as the PDF's do."""
    num, first_def, chunk_labels, pending = {}, {}, set(), []
    n, in_code = 0, False
    for ln in lines:
        kw, _, arg = ln.partition(" ")
        if kw == "@begin" and arg.startswith("code"):
            n, in_code = n + 1, True
            for label in pending:
                num[label] = n
            pending = []
        elif kw == "@end" and arg.startswith("code"):
            in_code = False
        elif kw == "@defn":
            first_def.setdefault(arg, n)
        elif kw == "@xref" and arg.split(" ")[0] in XREF_TO_CHUNK:
            chunk_labels.add(arg.split(" ")[1])
        if kw == "@xref" and arg.startswith("label "):
            label = arg[6:]
            if in_code:
                num[label] = n
            else:
                pending.append(label)
    for label in pending:          # prose after the last code chunk
        num[label] = n
    return num, first_def, chunk_labels


class Book:
    def __init__(self, lang, lines):
        self.L = LABELS[lang]
        self.lines = lines
        self.num, self.first_def, self.chunk_labels = number_chunks(lines)
        # identifiers used only in the chunk that defines them: noweb's index
        # leaves such a use out ("never used"); we name it (ident -> label)
        self.own_use = {}

    # ---- small HTML helpers ------------------------------------------------
    def ref(self, label):
        """A link to the chunk a label belongs to, showing its number."""
        return '<a class="tag" href="#%s">%d</a>' % (label, self.num[label])

    def refs(self, labels, strong=(), skip=None):
        """'chunk 3' / 'chunks 3, 5 and 7', one link per distinct chunk
        (leaving out chunk number skip)."""
        seen, parts = {skip}, []
        for label in labels:
            if label not in self.num or label not in self.chunk_labels:
                continue
            if self.num[label] in seen:
                continue
            seen.add(self.num[label])
            link = self.ref(label)
            parts.append("<strong>%s</strong>" % link if label in strong else link)
        if not parts:
            return ""
        words = self.L["chunk"] if len(parts) == 1 else self.L["chunks"]
        if len(parts) > 1:
            parts = [", ".join(parts[:-1]) + " " + self.L["and"] + " " + parts[-1]]
        return words + " " + parts[0]

    # ---- 1. documentation chunks -------------------------------------------
    def prose_to_html(self):
        """Replace every documentation chunk by its HTML (one pandoc call)."""
        self.quotes, self.anchors = [], []   # global: a footnote may move
        docs = []                            # (first line, last line) per chunk
        latex = []
        i = 0
        while i < len(self.lines):
            if self.lines[i].startswith("@begin docs"):
                j = i
                while not self.lines[j].startswith("@end docs"):
                    j += 1
                latex.append("\n\nNWDOC%dZ\n\n%s" % (len(docs), self.read_docs(i + 1, j)))
                docs.append((i, j))
                i = j
            i += 1
        latex = self.figure_alts("".join(latex) + "\n\nNWDOC%dZ\n" % len(docs))
        latex = re.sub(r"\\appendix\b", "\n\nNWAPPENDIXZ\n\n", latex)
        htm = self.number_floats(pandoc(latex))
        pieces = re.split(r"<p>NWDOC(\d+)Z</p>\n?", htm)
        if pieces[0].strip() or [int(x) for x in pieces[1::2]] != list(range(len(docs) + 1)):
            die("the prose could not be split back into its chunks: a LaTeX "
                "environment or group is probably left open before a code chunk")
        bodies = pieces[2::2]
        tail = bodies.pop()     # what pandoc puts after the last marker
        if docs:
            bodies[-1] += tail
        self.seen = set()
        out, last = [], 0
        for (start, end), body in zip(docs, bodies):
            out += self.lines[last:start + 1]
            out += self.docs_lines(body)
            last = end
        out += self.lines[last:]
        if len(self.seen) != len(self.quotes):
            lost = [quote_text(q) for n, q in enumerate(self.quotes) if n not in self.seen]
            die("quoted code lost in the prose (inside math?): %s" % ", ".join(lost))
        self.lines = out

    def read_docs(self, a, b):
        """Return the LaTeX of the docs chunk lines[a:b], with a placeholder
        word for each quoted code and each anchor noidx put there."""
        text, anchor_at = [""], []
        i = a
        while i < b:
            ln = self.lines[i]
            if ln.startswith("@text "):
                text[-1] += ln[6:]
            elif ln == "@nl":
                text.append("")
            elif ln == "@quote":
                j = self.lines.index("@endquote", i)
                text[-1] += "NWQ%dZ" % len(self.quotes)
                quote = self.lines[i:j + 1]
                if re.fullmatch(r"[\w.-]*/[\w./-]*", quote_text(quote)[2:-2]):
                    # a file's path: no identifier links inside it
                    quote = [x for x in quote if x.split(" ", 1)[0] in ("@quote", "@text", "@endquote")]
                self.quotes.append(quote)
                i = j
            elif ln.startswith("@xref label "):
                anchor_at.append((len(self.anchors), len(text) - 1))
                self.anchors.append(ln[12:])
            # other lines (@index, @xref ref outside quotes) carry nothing to show
            i += 1
        # An anchor goes to the start of its paragraph (never inside math),
        # as a paragraph of its own.
        for m, row in reversed(anchor_at):
            while row > 0 and text[row - 1].strip():
                row -= 1
            text[row:row] = ["NWA%dZ" % m, ""]
        return "\n".join(text)

    def docs_lines(self, body):
        """Pipeline lines for one docs chunk's HTML, quoted code put back."""
        body = re.sub(r"(<p>)?NWA(\d+)Z(</p>)?",
                      lambda m: '<a id="%s"></a>' % self.anchors[int(m.group(2))], body)
        out = []
        for piece in re.split(r"(NWQ\d+Z)", guillemets(body)):
            mq = re.fullmatch(r"NWQ(\d+)Z", piece)
            if mq:
                q = int(mq.group(1))
                if q in self.seen:
                    die("quoted code [[...]] where the HTML would repeat it: %s"
                        % quote_text(self.quotes[q]))
                self.seen.add(q)
                out += self.quotes[q]
                continue
            rows = piece.split("\n")
            for r, row in enumerate(rows):
                if row:
                    out.append("@text " + row)
                if r < len(rows) - 1:
                    out.append("@nl")
        return out

    def figure_alts(self, latex):
        """Take each figure's \\alttext{...} out of the LaTeX (pandoc would drop
        it silently) and keep it, as plain text, in self.alts (None for a
        figure without one: its caption will stand in)."""
        self.alts, found = [], []

        def one_figure(m):
            body = m.group(0)
            at = body.find("\\alttext{")
            if at < 0:
                self.alts.append(None)
                return body
            start = end = at + len("\\alttext{")
            depth = 1
            while depth:
                if end >= len(body):
                    die("\\alttext{ without its closing brace")
                depth += {"{": 1, "}": -1}.get(body[end], 0)
                end += 1
            found.append((len(self.alts), body[start:end - 1]))
            self.alts.append("")
            return body[:at] + body[end:]
        latex = re.sub(r"\\begin\{figure\*?\}.*?\\end\{figure\*?\}", one_figure,
                       latex, flags=re.S)
        if found:
            plain = pandoc("".join("\n\nNWALT%dZ\n\n%s" % f for f in found), to="plain")
            parts = re.split(r"^NWALT(\d+)Z$", plain, flags=re.M)
            for n, text in zip(parts[1::2], parts[2::2]):
                self.alts[int(n)] = " ".join(text.split())
        return latex

    def number_floats(self, htm):
        """Number chapters, appendices, sections, figures and tables the way
        LaTeX's book class does (N.M in chapter N, A.M in appendix A, plain M
        before the first numbered chapter), give every heading its id, and
        point every \\ref at its target.

        Heading ids are the same in both editions, never taken from the
        translated text: a chapter's id is its page's name (front, front2, ...
        for unnumbered chapters; ch01, ch02, ...; appA, appB, ...), and a
        heading below it adds its position among its siblings: ch01-3-2 is the
        second subsection of the third section of chapter 1.  The chunk list
        and identifier index (made later) are the pages chunks and identifiers."""
        numbers, ids = {}, {}
        st = {"chapter": 0, "appendix": False, "unnumbered": 0, "fig": 0, "tab": 0,
              "key": "front", "label": "", "pos": []}
        figures = iter(self.alts)

        def next_number(kind):
            st[kind] += 1
            return "%s.%d" % (st["label"], st[kind]) if st["label"] else "%d" % st[kind]

        def heading(m):
            level, attrs, text = int(m.group(1)), m.group(2), m.group(3)
            old = re.search(r'\bid="([^"]*)"', attrs).group(1)
            numbered = "data-number" in attrs
            if level == 1:
                if numbered:
                    st["chapter"] += 1
                    n = st["chapter"]
                    st["label"] = chr(64 + n) if st["appendix"] else str(n)
                    st["key"] = ("app%s" if st["appendix"] else "ch%02d") % (
                        st["label"] if st["appendix"] else n)
                else:
                    st["unnumbered"] += 1
                    st["label"] = ""
                    st["key"] = "front%s" % (st["unnumbered"] if st["unnumbered"] > 1 else "")
                st.update(fig=0, tab=0, pos=[])
                new = st["key"]
            else:
                pos = (st["pos"] + [0] * level)[:level - 1]
                pos[-1] += 1
                st["pos"] = pos
                new = st["key"] + "".join("-%d" % p for p in pos)
            ids[old] = new
            attrs = attrs.replace('id="%s"' % old, 'id="%s"' % new)
            if numbered:       # the chapter's part of the number: 1, 2, ... or A, B, ...
                num = re.search(r'data-number="([^"]*)"', attrs).group(1)
                fixed = ".".join([st["label"]] + num.split(".")[1:])
                attrs = attrs.replace('data-number="%s"' % num, 'data-number="%s"' % fixed)
                text = text.replace('<span class="header-section-number">%s</span>' % num,
                                    '<span class="header-section-number">%s</span>' % fixed, 1)
                numbers[old] = fixed
            return "<h%d%s>%s</h%d>" % (level, attrs, text, level)

        def float_(m):
            tok = m.group(0)
            if tok.startswith("<p>NWAPPENDIX"):
                st.update(appendix=True, chapter=0)
                return ""
            if tok.startswith("<h"):
                return heading(re.match(r"<h(\d)([^>]*)>(.*)</h\d>", tok, re.S))
            if tok.startswith("<div"):
                name = self.L["table"] + " " + next_number("tab")
                numbers[m.group(2)] = name.split()[-1]
                return tok + '<span class="float-name">%s:</span> ' % name
            name = self.L["figure"] + " " + next_number("fig")
            img = re.search(r'<img src="([^"]*)"(?: id="([^"]*)")?', tok)
            if not img:
                die("a figure without \\includegraphics")
            tok = tok.replace(img.group(0), '<img src="figures/%s.svg"' % img.group(1))
            alt = next(figures, None)
            if alt is None:             # no \alttext: the caption's words stand in
                cap = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", tok, re.S)
                alt = html.unescape(re.sub(r"<[^>]*>", "", cap.group(1) if cap else ""))
                alt = " ".join(alt.split()) or name
            tok = re.sub(r' alt="[^"]*"', lambda _: ' alt="%s"' % html.escape(alt), tok)
            # one tap opens the figure at full size, its own file (no script)
            tok = re.sub(r"<img [^>]*>", lambda i: '<a class="figure-full" href="figures/%s.svg" '
                         'title="%s">%s</a>' % (img.group(1), self.L["full_size"], i.group(0)),
                         tok, count=1)
            tok = tok.replace('<figcaption aria-hidden="true">',
                              '<figcaption><span class="float-name">%s:</span> ' % name)
            if img.group(2):
                numbers[img.group(2)] = name.split()[-1]
                tok = tok.replace("<figure>", '<figure id="%s">' % img.group(2), 1)
            return tok

        # LaTeX numbers chapters, sections and subsections only
        htm = re.sub(r'(<h[4-6][^>]*) data-number="[^"]*"', r"\1", htm)
        htm = re.sub(r'(<h[4-6][^>]*>)<span class="header-section-number">[^<]*</span> ',
                     r"\1", htm)
        # \paragraph{Title.} runs into its paragraph, as in the PDF
        htm = re.sub(r'<h5 id="[^"]*">(.*?)</h5>\n<p>',
                     r'<p><strong class="paragraph">\1</strong> ', htm)
        htm = re.sub(r'<p>NWAPPENDIXZ</p>\n?|<h(\d)[^>]*>.*?</h\1>|<figure>.*?</figure>'
                     r'|<div id="([^"]*)">\n<table>\n<caption>', float_, htm, flags=re.S)
        if next(figures, "none left") != "none left":
            die("the figures of the LaTeX and of pandoc's HTML do not match up")

        # an \item's \label: its number in its list, as LaTeX prints it (2, 2a)
        items = []
        for m in re.finditer(r'<[ou]l\b[^>]*>|</[ou]l>|<li\b[^>]*>|<span id="([^"]*)" label=', htm):
            tok = m.group(0)
            if tok[1] in "ou":
                items.append(0 if tok[1] == "o" else None)
            elif tok[1] == "/":
                items.pop()
            elif tok.startswith("<li"):
                if items and items[-1] is not None:
                    items[-1] += 1
            elif items and None not in items:
                numbers[m.group(1)] = "".join(
                    str(n) if k == 0 else chr(96 + n) if k == 1 else "(%d)" % n
                    for k, n in enumerate(items))

        def ref(m):
            if m.group(1) not in numbers:
                die("\\ref{%s}: no figure, table or numbered section has that label"
                    % html.unescape(m.group(1)))
            return '<a href="#%s">%s</a>' % (ids.get(m.group(1), m.group(1)),
                                             numbers[m.group(1)])
        htm = re.sub(r'<a href="#([^"]*)" data-reference-type="ref"[^>]*>.*?</a>',
                     ref, htm, flags=re.S)
        return htm

    # ---- 2, 3. code chunks --------------------------------------------------
    def code_notes(self):
        out, i = [], 0
        lines = self.lines
        while i < len(lines):
            ln = lines[i]
            if not ln.startswith("@begin code"):
                if ln == "@xref beginchunks":
                    j = lines.index("@xref endchunks", i)
                    out.append("@literal " + self.chunk_list(lines[i + 1:j]))
                    i = j + 1
                    continue
                if ln == "@index beginindex":
                    j = lines.index("@index endindex", i)
                    out.append("@literal " + self.ident_index(lines[i + 1:j]))
                    i = j + 1
                    continue
                out.append(ln)
                i += 1
                continue
            j = i
            while not lines[j].startswith("@end code"):
                j += 1
            out += self.one_chunk(lines[i:j + 1])
            i = j + 1
        self.lines = out

    def one_chunk(self, chunk):
        """Rewrite one code chunk; append our notes after it."""
        out, notes = [], {}
        defs, uses, isused, isdefined = [], [], [], []
        name, label = None, None
        k = 0
        while k < len(chunk):
            ln = chunk[k]
            kw, _, arg = ln.partition(" ")
            nxt = chunk[k + 1] if k + 1 < len(chunk) else ""
            if kw == "@defn":
                name = arg
                out.append("@defn %s%s%d" % (arg, SEP, self.first_def[arg]))
                out.append('@literal <span class="chunk-number">%d</span>' % self.num[label])
            elif kw == "@use":
                out.append("@use %s%s%s" % (arg, SEP, self.first_def.get(arg, "?")))
            elif ln.startswith("@xref label ") and label is None:
                label = arg[6:]
                out.append(ln)
            elif ln.startswith("@xref ref ") and nxt.startswith(("@index defn ", "@index localdefn ")):
                k += 1                       # a definition point: listed in our notes
            elif ln.startswith("@xref notused "):
                notes["root"] = True
            elif ln.startswith(("@xref nextdef ", "@xref prevdef ")):
                notes[arg.split()[0]] = arg.split()[1]
            elif ln.startswith("@xref defitem "):
                notes.setdefault("defitems", []).append(arg.split()[1])
            elif ln.startswith("@xref useitem "):
                notes.setdefault("useitems", []).append(arg.split()[1])
            elif ln.startswith("@index isused "):
                isused.append(arg.split()[1])
            elif ln.startswith("@index defitem "):
                defs.append((arg.split(" ", 1)[1], isused))
                isused = []
            elif ln.startswith("@index isdefined "):
                isdefined.append(arg.split()[1])
            elif ln.startswith("@index useitem "):
                uses.append((arg.split(" ", 1)[1], isdefined))
                isdefined = []
            elif ln.startswith(("@xref begindefs", "@xref enddefs", "@xref beginuses",
                                "@xref enduses", "@index begindefs", "@index enddefs",
                                "@index beginuses", "@index enduses")):
                pass
            else:
                out.append(ln)
            k += 1
        out.append("@literal " + self.notes_html(self.num[label], name, notes, defs, uses))
        return out

    def notes_html(self, n, name, notes, defs, uses):
        L, rows = self.L, []
        if notes.get("root"):
            if re.fullmatch(r"[\w./+-]+", name) and ("/" in name or "." in name):
                rows.append(L["file"].format(name="<code>%s</code>" % html.escape(name)))
            else:
                rows.append(L["root"])
        if "prevdef" in notes:
            rows.append(L["continues"].format(chunks=self.refs([notes["prevdef"]])))
        if "defitems" in notes and "prevdef" not in notes:
            rows.append(L["continued"].format(chunks=self.refs(notes["defitems"])))
        elif "nextdef" in notes:
            rows.append(L["continued"].format(chunks=self.refs([notes["nextdef"]])))
        if notes.get("useitems"):
            rows.append(L["used"].format(chunks=self.refs(notes["useitems"])))
        if defs:
            items = []
            for ident, used in defs:
                where = self.refs(used, skip=n)
                own = [x for x in used if self.num.get(x) == n]
                if not where and own:
                    self.own_use[ident] = own[0]
                items.append('<a href="#NWI-%s"><code>%s</code></a>, %s' % (
                    ident_id(ident), html.escape(ident),
                    L["used_in"].format(chunks=where) if where else
                    L["used_here"] if own else L["never_used"]))
            rows.append(L["defines"] + " " + "; ".join(items) + ".")
        if uses:
            items = []
            for ident, where in uses:
                firsts = {self.num[x]: x for x in reversed(where) if x in self.num}
                tags = " ".join(self.ref(x) for x in sorted(firsts.values(), key=self.num.get))
                items.append('<a href="#NWI-%s"><code>%s</code></a>%s' % (
                    ident_id(ident), html.escape(ident), " " + tags if tags else ""))
            rows.append(L["uses"] + " " + ", ".join(items) + ".")
        return '<div class="chunk-notes">%s</div>' % "".join(
            "<p>%s</p>" % r for r in rows)

    # ---- 4. the chunk list and the identifier index -------------------------
    def chunk_list(self, lines):
        L, items, entry = self.L, [], None
        for ln in lines:
            parts = ln.split(" ", 3)
            if parts[1] == "chunkbegin":
                entry = (parts[2], parts[3], [], [])
            elif parts[1] == "chunkdefn":
                entry[2].append(parts[2])
            elif parts[1] == "chunkuse":
                entry[3].append(parts[2])
            elif parts[1] == "chunkend":
                label, name, d, u = entry
                desc = L["defined_in"].format(chunks=self.refs(d, strong=d))
                if self.refs(u):
                    desc += "; " + L["used_in"].format(chunks=self.refs(u))
                items.append('<li><a href="#%s" class="chunk-name">⟨%s <span class="tag">%d</span>⟩</a>: %s.</li>'
                             % (label, html.escape(name), self.num[label], desc))
        return ('<h1 class="unnumbered" id="chunks">%s</h1><div class="chunk-list">'
                '<p>%s</p><ul>%s</ul></div>' % (L["chunk_list"], L["chunk_list_intro"],
                                                    "".join(items)))

    def ident_index(self, lines):
        L, items, entry = self.L, [], None
        for ln in lines:
            parts = ln.split(" ", 3)
            if parts[1] == "entrybegin":
                entry = (parts[2], parts[3], [], [])
            elif parts[1] == "entrydefn":
                entry[2].append(parts[2])
            elif parts[1] == "entryuse":
                entry[3].append(parts[2])
            elif parts[1] == "entryend":
                label, ident, d, u = entry
                desc = L["defined_in"].format(chunks=self.refs(d, strong=d))
                used = self.refs(u or [self.own_use.get(ident)])
                desc += "; " + (L["used_in"].format(chunks=used) if used else L["never_used"])
                items.append('<li id="NWI-%s"><code>%s</code>: %s.</li>'
                             % (ident_id(ident), html.escape(ident), desc))
        return ('<h1 class="unnumbered" id="identifiers">%s</h1><div class="ident-index">'
                '<p>%s</p><ul>%s</ul></div>' % (L["index"], L["index_intro"], "".join(items)))


def ident_id(ident):
    return re.sub(r"[^A-Za-z0-9_.-]", lambda m: "-%x-" % ord(m.group(0)), ident)


def quote_text(q):
    return "[[" + "".join(x[6:] for x in q if x.startswith("@text ")) + "]]"


def guillemets(body):
    """Outside code and math, @<<name>> in prose shows as «name», as in the
    PDF (T1-encoded LaTeX turns << and >> into guillemets)."""
    out = []
    for piece in re.split(r'(<pre.*?</pre>|<code.*?</code>|<span class="math.*?</span>)',
                          body, flags=re.S):
        if not piece.startswith(("<pre", "<code", "<span")):
            piece = piece.replace("&lt;&lt;", "«").replace("&gt;&gt;", "»")
        out.append(piece)
    return "".join(out)


def pandoc(latex, to="html5"):
    p = subprocess.run(
        ["pandoc", "--from=latex", "--to=" + to, "--katex", "--wrap=none",
         "--top-level-division=chapter", "--number-sections",
         "--reference-location=section", "--fail-if-warnings"],
        input=latex, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr:
        die("pandoc failed:\n" + p.stderr)
    return p.stdout


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in LABELS:
        die("usage: nwhtml-filter.py {%s}" % ",".join(LABELS))
    book = Book(sys.argv[1], sys.stdin.read().split("\n"))
    book.prose_to_html()
    book.code_notes()
    sys.stdout.write("\n".join(book.lines))


if __name__ == "__main__":
    main()
