#!/usr/bin/env python3
"""check-browser.py - the HTML book as a reader meets it, in headless Chromium.

    check-browser.py [--shots DIR] [--notes] EDITION_DIR...   e.g. build/html/en build/html/es
    check-browser.py --self-test      show that every kind of problem is caught

Loads every page (*.html) of every edition from file:// at 1280 and at 390 px
wide (Debian's chromium through chromedriver and python3-selenium; the width
set with DevTools Emulation.setDeviceMetricsOverride) and prints one line per
problem, "PAGE @WIDTH: KIND: what, where".  Exit status 1 if there is any.
The kinds:

  overflow       the page is wider than the viewport (it scrolls sideways);
                 names the outermost elements that reach past its edge.
  formula-cut    a display formula (.katex-display) is cut off: its content is
                 wider than its box and the box does not scroll sideways
                 (overflow-x not auto/scroll) or shows no sign that it does
                 (no gradient background: the scroll shadow of style.css),
                 or the box itself reaches past the viewport's edge.
  link           a link, image or stylesheet names a file that does not exist.
  anchor         a link's #fragment names no element (id= or <a name=>) of its
                 page, on the same page or on another one.
  switch         the language switch is missing, or does not land on the same
                 page (page switch) or on the same heading (a heading's
                 switch: same id, level and number) of the other edition; and
                 every page is opened at its last heading (PAGE.html#id, as a
                 switch opens it), which must then be the :target, scrolled to
                 the top of the window (not hidden under the top bar).
  structure      two editions differ in their pages or in the sequence of
                 headings (level, id, number) of a page.
  image-load     an image did not load (not complete, or no natural width).
  image-alt      an image has no alt text, or an empty one.
  image-narrow   at 390 px, an image is narrower than 90 % of the text column.
  punctuation    a line starts with the punctuation that follows inline math.

What a reader meets on a phone, measured at both widths and printed as a
table (one row a page and width: figures and their smallest label in CSS
px, display formulas wider than the column, tables hiding columns, code
lines that scroll sideways or wrap); at 390 px these fail:
  figure-text    a figure's smallest label (its SVG's smallest font size that
                 is not a sub- or superscript, times its shown width over its
                 own) is under MIN_FIGURE_PX, and the figure is not a link to
                 its own image (one tap: the figure at full size).
  formula-wide   a page has more display formulas wider than the column than
                 WIDE_FORMULAS_ALLOWED grants it (none today: every formula
                 fits; the message lists each by number, section and width).
  table-hidden   a table hides columns (it scrolls), beyond
                 HIDDEN_TABLES_ALLOWED; names the hidden column heads.
  code-scroll    more than CODE_SCROLL_MAX of a page's code lines are wider
                 than the code box and do not wrap.

Screenshots of every page at both widths go to DIR/EDITION/PAGE-WIDTH.png
(whole page, up to 16,000 px tall).  --notes also lists, at 390 px, the
display formulas that are wider than the column (they scroll, visibly).
"""
import argparse
import base64
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.parse

WIDTHS = (1280, 390)
HEADING_ID = re.compile(r'<h[1-4]\b[^>]*\bid="([^"]*)"')
SHOT_MAX_HEIGHT = 16000

# Everything measured inside a page, in one script; returns plain data.
MEASURE = r"""
const W = document.documentElement.clientWidth, narrow = arguments[0];
const out = {problems: [], ids: [], links: [], headings: [], switches: [], scrollers: [],
             pageSwitch: null};
const describe = (el) => {
  let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
          (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '');
  const tex = el.querySelector && el.querySelector('annotation');
  const text = (tex ? tex.textContent : el.textContent).replace(/\s+/g, ' ').trim();
  return s + (text ? ' "' + text.slice(0, 70) + (text.length > 70 ? '…' : '') + '"' : '');
};
const problem = (kind, msg) => out.problems.push([kind, msg]);
const clips = (el) => { const o = getComputedStyle(el).overflowX; return o !== 'visible'; };

// overflow of the page, and who causes it
if (document.documentElement.scrollWidth > W + 1) {
  const culprits = [];
  const walk = (el) => {
    for (const c of el.children) {
      const r = c.getBoundingClientRect();
      if (r.right > W + 1 && r.width > 0) { culprits.push(c); continue; }
      if (!clips(c)) walk(c);
    }
  };
  walk(document.body);
  const deepest = culprits.map((c) => {
    // go down while exactly one child is the one sticking out
    for (;;) {
      const kids = [...c.children].filter((k) => k.getBoundingClientRect().right > W + 1);
      if (kids.length !== 1 || clips(c)) return c;
      c = kids[0];
    }
  });
  problem('overflow', 'page is ' + document.documentElement.scrollWidth + ' px wide for ' + W +
          ' px: ' + (deepest.slice(0, 4).map(describe).join('; ') || 'no element found'));
}

// display formulas
for (const el of document.querySelectorAll('.katex-display')) {
  const cs = getComputedStyle(el), r = el.getBoundingClientRect();
  const wide = el.scrollWidth > el.clientWidth + 1;
  const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
  const hint = /gradient/.test(cs.backgroundImage);
  if (r.right > W + 1 || r.left < -1)
    problem('formula-cut', 'its box reaches past the page edge: ' + describe(el));
  else if (wide && !scrolls)
    problem('formula-cut', (el.scrollWidth - el.clientWidth) + ' px hidden, and it does not scroll: ' + describe(el));
  else if (wide && !hint)
    problem('formula-cut', 'scrolls with no visible sign of it (no scroll shadow): ' + describe(el));
  else if (wide)
    out.scrollers.push((el.scrollWidth - el.clientWidth) + ' px scroll: ' + describe(el));
}

// images
const main = document.querySelector('main') || document.body;
const mcs = getComputedStyle(main);
const column = main.clientWidth - parseFloat(mcs.paddingLeft) - parseFloat(mcs.paddingRight);
for (const img of document.images) {
  const alt = img.getAttribute('alt');
  if (alt === null || !alt.trim()) problem('image-alt', 'no alt text: ' + img.getAttribute('src'));
  if (!img.complete || img.naturalWidth === 0)
    problem('image-load', 'did not load: ' + img.getAttribute('src'));
  else if (narrow && img.getBoundingClientRect().width < 0.9 * column)
    problem('image-narrow', Math.round(img.getBoundingClientRect().width) + ' px wide in a ' +
            Math.round(column) + ' px column: ' + img.getAttribute('src'));
}

// what a reader of a phone meets: figures, display formulas, tables, code
const section = (el) => {
  let best = '';
  for (const h of document.querySelectorAll('main h1[data-number], main h2[data-number], main h3[data-number]')) {
    if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) best = h.getAttribute('data-number');
  }
  return best;
};
out.figures = [];
for (const img of document.querySelectorAll('figure img')) {
  const a = img.closest('a[href]');
  const fig = img.closest('figure');
  const name = fig && fig.querySelector('.float-name');
  out.figures.push({src: img.getAttribute('src'), abs: img.src, width: img.getBoundingClientRect().width,
                    link: a ? a.href : null, name: name ? name.textContent.replace(/:$/, '') : ''});
}
out.formulas = [];
let fn = 0;
for (const el of document.querySelectorAll('.katex-display')) {
  fn += 1;
  const tex = el.querySelector('annotation');
  out.formulas.push({n: fn, section: section(el), width: el.scrollWidth, column: el.clientWidth,
                     tex: tex ? tex.textContent.replace(/\s+/g, ' ').trim().slice(0, 60) : ''});
}
out.tables = [];
let tn = 0;
for (const t of document.querySelectorAll('main table')) {
  tn += 1;
  const right = t.getBoundingClientRect().left + t.clientWidth;
  const hidden = [...t.querySelectorAll('tr:first-child > th, tr:first-child > td')]
    .filter((c) => c.getBoundingClientRect().right > right + 1)
    .map((c) => c.innerText.replace(/\s+/g, ' ').trim().slice(0, 30));
  const cap = t.querySelector('caption .float-name') || t.parentElement.querySelector('.float-name');
  out.tables.push({n: tn, section: section(t), name: cap ? cap.textContent.replace(/:$/, '') : '',
                   width: t.scrollWidth, column: t.clientWidth, hidden: hidden});
}
out.code = {lines: 0, scroll: 0, wrapped: 0, columns: null};
for (const pre of document.querySelectorAll('main pre')) {
  const probe = document.createElement('span');
  probe.textContent = '0'.repeat(100);
  probe.style.whiteSpace = 'pre';
  pre.appendChild(probe);
  const ch = probe.getBoundingClientRect().width / 100;
  pre.removeChild(probe);
  const cs = getComputedStyle(pre);
  const cols = Math.floor((pre.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)) / ch);
  out.code.columns = out.code.columns === null ? cols : Math.min(out.code.columns, cols);
  out.code.fontPx = parseFloat(cs.fontSize);
  // a line that wraps (white-space pre-wrap) needs no sideways scrolling
  const spans = pre.querySelectorAll(':scope > span.line');
  const lines = spans.length ? [...spans].map((sp) => [sp.textContent.replace(/\n$/, ''),
                                                     getComputedStyle(sp).whiteSpace !== 'pre'])
                             : pre.textContent.replace(/\n$/, '').split('\n').map((l) => [l, false]);
  for (const [line, wraps] of lines) {
    out.code.lines += 1;
    if (line.replace(/\t/g, '        ').length > cols) {
      if (wraps) out.code.wrapped += 1; else out.code.scroll += 1;
    }
  }
}

// a line that starts with the punctuation after inline math
for (const k of document.querySelectorAll('.katex')) {
  if (k.closest('.katex-display')) continue;
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  w.currentNode = k;
  let t = w.nextNode();
  while (t && (k.contains(t) || t.data === '')) t = w.nextNode();
  if (!t || !/^[.,;:!?)\]»”’]/.test(t.data)) continue;
  const range = document.createRange();
  range.setStart(t, 0); range.setEnd(t, 1);
  const p = range.getBoundingClientRect(), rects = k.getClientRects();
  const m = rects[rects.length - 1];
  if (m && p.height && p.top >= m.bottom - 2)
    problem('punctuation', 'a line starts with "' + t.data[0] + '" after ' + describe(k));
}

// what the links need: ids, links, headings, language switches
for (const el of document.querySelectorAll('[id], a[name]')) out.ids.push(el.id || el.getAttribute('name'));
for (const el of document.querySelectorAll('a[href], img[src], link[href]')) {
  const url = el.href || el.src;
  out.links.push([url, describe(el)]);
}
for (const h of document.querySelectorAll('main h1, main h2, main h3, main h4')) {
  if (!h.id) continue;
  const sw = h.querySelector('a.switch');
  out.headings.push([h.tagName, h.id, h.getAttribute('data-number') || '', sw ? sw.href : null]);
}
const t = document.querySelector(':target');
if (t) {
  const r = t.getBoundingClientRect();
  const seen = document.elementFromPoint(r.left + 2, r.top + r.height / 2);
  // at the end of a short page a heading cannot reach the top: then it need only be in view
  const end = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
  const limit = end ? window.innerHeight - r.height : window.innerHeight / 3;
  out.target = [t.id, Math.round(r.top), Math.round(limit), !!seen && t.contains(seen)];
} else out.target = null;
const ps = document.querySelector('a.lang-switch');
out.pageSwitch = ps ? ps.href : null;
return out;
"""


# ---- reading on a phone: limits, and what chapters not yet reshaped may keep ----
MIN_FIGURE_PX = 11.0     # smallest label of a figure, in CSS px, unless it opens full size
CODE_SCROLL_MAX = 0.25   # share of code lines (at 390 px) wider than the code box
# display formulas wider than the column at 390 px that a page may still have
# (each is listed by --notes); none: every chapter's formulas fit the column
WIDE_FORMULAS_ALLOWED = {}
# tables that may still hide columns at 390 px, by page (none: style.css fits them)
HIDDEN_TABLES_ALLOWED = {}


def svg_text_sizes(path):
    """(width of the SVG, smallest font size of a label that is not a sub- or
    superscript), in the SVG's own units"""
    import xml.etree.ElementTree as ET
    root = ET.parse(path).getroot()
    width = float(re.match(r"[\d.]+", root.get("width") or "0").group(0))
    sizes = []

    def walk(el, size, base):
        size = float(el.get("font-size", size or 0)) or size
        if el.tag.endswith("text"):
            base = size
        if el.tag.endswith(("tspan", "text")) and (el.text or "").strip():
            script = el.tag.endswith("tspan") and el.get("dy") is not None and size < base
            if not script:
                sizes.append(size)
        for child in el:
            walk(child, size, base)

    walk(root, 0, 0)
    return width, min(sizes) if sizes else None


def phone_report(width, pages, out):
    """the table of what a reader meets at this width, one row a page"""
    out.write("%-20s %6s %22s %16s %14s %30s\n" % ("page @%d" % width, "figs", "smallest label (px)",
              "wide formulas", "tables hiding", "code lines scroll"))
    for page, r in pages:
        figs = r["figs"]
        smallest = min((f[0] for f in figs if f[0]), default=None)
        out.write("%-20s %6d %22s %16s %14d %30s\n" % (
            page, len(figs), "%.1f%s" % (smallest, " (tap: full size)" if figs and all(f[1] for f in figs)
                                         else "") if smallest else "-",
            "%d of %d" % (len(r["wide"]), r["formulas"]), len(r["hidden"]),
            "%d of %d (%d col, %d wrap)" % (r["code"]["scroll"], r["code"]["lines"],
                                             r["code"]["columns"] or 0, r["code"]["wrapped"])
            if r["code"]["lines"] else "-"))


def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="check-browser-profile-")   # a fresh one, removed by quit()
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile):
        opts.add_argument(arg)
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    d = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                         options=opts)
    d.set_page_load_timeout(60)
    return d, profile


def quit(d, profile):
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


def set_width(d, width):
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900 if width > 600 else 844,
        "deviceScaleFactor": 1, "mobile": width <= 600})


def screenshot(d, path):
    d.execute_script("window.scrollTo(0, 0)")     # the sticky top bar where a reader sees it
    m = d.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    h = min(int(m["height"]), SHOT_MAX_HEIGHT)
    shot = d.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True, "optimizeForSpeed": True,
        "clip": {"x": 0, "y": 0, "width": int(m["width"]), "height": h, "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def page_of(url):
    """(absolute file path, fragment) of a file:// URL."""
    parts = urllib.parse.urlsplit(url)
    return os.path.realpath(urllib.parse.unquote(parts.path)), urllib.parse.unquote(parts.fragment)


def check(dirs, shots=None, notes=False, out=sys.stdout, report_table=False):
    """Check the editions in dirs; return the list of problem lines."""
    dirs = [os.path.realpath(d) for d in dirs]
    pages = {d: sorted(n for n in os.listdir(d) if n.endswith(".html")) for d in dirs}
    problems, seen = [], {}          # seen[file] = data measured at the first width
    phone = {}                       # width: [(page, what a reader meets)]
    name = lambda path: os.path.relpath(path, os.path.dirname(dirs[0]))

    def report(where, kind, msg):
        problems.append("%s: %s: %s" % (where, kind, msg))
        out.write(problems[-1] + "\n")

    d, profile = driver()
    try:
        for width in WIDTHS:
            set_width(d, width)
            for ed in dirs:
                for page in pages[ed]:
                    path = os.path.join(ed, page)
                    # opened at its last heading, as the other edition's switch opens it
                    with open(path, encoding="utf-8") as f:
                        last = ([""] + HEADING_ID.findall(f.read()))[-1]
                    d.get("file://" + path + ("#" + last if last else ""))
                    data = d.execute_script(MEASURE, width <= 600)
                    seen.setdefault(path, data)
                    where = "%s @%d" % (name(path), width)
                    for kind, msg in data["problems"]:
                        report(where, kind, msg)
                    phone.setdefault(width, []).append((name(path), reading(
                        name(path), width, data, lambda k, m: report(where, k, m), out, notes)))
                    got = data["target"]
                    if last and not got:
                        report(where, "switch", "opened at #%s, no element is the :target" % last)
                    elif last and not (got[0] == last and -2 <= got[1] <= got[2] and got[3]):
                        report(where, "switch", "opened at #%s, that heading is %s" % (
                            last, "not the :target (#%s is)" % got[0] if got[0] != last else
                            "covered by another element" if not got[3] else
                            "%d px from the top of the window (at most %d expected)" % (got[1], got[2])))
                    if notes and width <= 600:
                        for msg in data["scrollers"]:
                            out.write("note: %s @%d: %s\n" % (name(path), width, msg))
                    if shots:
                        sub = os.path.join(shots, os.path.basename(ed))
                        os.makedirs(sub, exist_ok=True)
                        screenshot(d, os.path.join(sub, "%s-%d.png" % (page[:-5], width)))

        # links, anchors and the language switch (the same at every width)
        ids = {p: set(v["ids"]) for p, v in seen.items()}
        for path, data in seen.items():
            where = name(path)
            for url, what in data["links"]:
                if not url.startswith("file:"):
                    continue
                target, frag = page_of(url)
                if not os.path.exists(target):
                    report(where, "link", "%s names %s, which does not exist" % (what, name(target)))
                elif frag and target in ids and frag not in ids[target]:
                    report(where, "anchor", "%s: %s has no #%s" % (what, name(target), frag))
            for tag, ident, number, sw in data["headings"]:
                if sw is None:
                    report(where, "switch", "heading #%s has no language switch" % ident)
                    continue
                target, frag = page_of(sw)
                other = seen.get(target)
                if os.path.basename(target) != os.path.basename(path) or frag != ident:
                    report(where, "switch", "heading #%s switches to %s#%s, not to its own page and id"
                           % (ident, name(target), frag))
                elif other is None:
                    report(where, "switch", "heading #%s switches to %s, not a page of the book"
                           % (ident, name(target)))
                else:
                    match = [h for h in other["headings"] if h[1] == ident]
                    if not match or match[0][:3] != [tag, ident, number]:
                        report(where, "switch", "heading #%s (%s %s) lands on %s there"
                               % (ident, tag.lower(), number or "unnumbered",
                                  "%s %s" % (match[0][0].lower(), match[0][2] or "unnumbered")
                                  if match else "nothing"))
            ps = data["pageSwitch"]
            if ps is None:
                report(where, "switch", "the page has no language switch (a.lang-switch)")
            elif os.path.basename(page_of(ps)[0]) != os.path.basename(path) or page_of(ps)[0] not in seen:
                report(where, "switch", "the page's switch goes to %s, not the same page of the "
                       "other edition" % name(page_of(ps)[0]))

        # the editions have the same pages and the same headings
        for ed in dirs[1:]:
            a, b = os.path.basename(dirs[0]), os.path.basename(ed)
            for page in sorted(set(pages[dirs[0]]) ^ set(pages[ed])):
                report("%s/%s" % (a if page in pages[dirs[0]] else b, page), "structure",
                       "the page exists in one edition only")
            for page in sorted(set(pages[dirs[0]]) & set(pages[ed])):
                ha = [h[:3] for h in seen[os.path.join(dirs[0], page)]["headings"]]
                hb = [h[:3] for h in seen[os.path.join(ed, page)]["headings"]]
                if ha != hb:
                    i = next((i for i, (x, y) in enumerate(zip(ha, hb)) if x != y), min(len(ha), len(hb)))
                    show = lambda hs: " ".join(hs[i]) if i < len(hs) else "(no more headings)"
                    report("%s/%s" % (b, page), "structure",
                           "heading %d differs: %s has %s, %s has %s" % (i + 1, a, show(ha), b, show(hb)))
    finally:
        quit(d, profile)
    if report_table:
        for width in WIDTHS:
            phone_report(width, phone.get(width, []), out)
    return problems


def reading(page, width, data, report, out, notes):
    """figures, formulas, tables and code of one page at one width: report what
    fails, return the row of the table"""
    row = {"figs": [], "wide": [], "formulas": len(data["formulas"]), "hidden": [],
           "code": data["code"]}
    for f in data["figures"]:
        svg = page_of(f["abs"])[0]
        try:
            svg_width, smallest = svg_text_sizes(svg)
        except (OSError, ValueError, AttributeError):
            continue                   # image-load reports a figure that is not there
        px = smallest * f["width"] / svg_width if smallest and svg_width else None
        full = f["link"] is not None and page_of(f["link"])[0] == svg
        row["figs"].append((px, full))
        if px is not None and px < MIN_FIGURE_PX and not full:
            report("figure-text", "%s (%s): smallest label %.1f px (at least %g px, or a link to "
                   "the figure at full size)" % (f["name"], f["src"], px, MIN_FIGURE_PX))
    for m in data["formulas"]:
        if m["width"] > m["column"] + 1:
            row["wide"].append(m)
            if notes:
                out.write("note: %s @%d: display %d (section %s) is %d px in a %d px column: %s\n"
                          % (page, width, m["n"], m["section"] or "-", m["width"], m["column"],
                             m["tex"]))
    for t in data["tables"]:
        if t["hidden"] or t["width"] > t["column"] + 1:
            row["hidden"].append(t)
    if width <= 600:
        allowed = WIDE_FORMULAS_ALLOWED.get(os.path.basename(page), 0)
        if len(row["wide"]) > allowed:
            report("formula-wide", "%d display formulas are wider than the column (at most %d "
                   "allowed): %s" % (len(row["wide"]), allowed, "; ".join(
                       "display %d (section %s) %d px in %d: %s" % (
                           m["n"], m["section"] or "-", m["width"], m["column"], m["tex"])
                       for m in row["wide"])))
        if len(row["hidden"]) > HIDDEN_TABLES_ALLOWED.get(os.path.basename(page), 0):
            for t in row["hidden"]:
                report("table-hidden", "%s (table %d, section %s) is %d px in a %d px column; "
                       "hidden: %s" % (t["name"] or "a table", t["n"], t["section"] or "-",
                                       t["width"], t["column"], ", ".join(t["hidden"]) or "part"))
        c = data["code"]
        if c["lines"] and c["scroll"] > CODE_SCROLL_MAX * c["lines"]:
            report("code-scroll", "%d of %d code lines are wider than the code box (%d columns "
                   "of %.1f px type); at most %d %%" % (c["scroll"], c["lines"], c["columns"],
                                                        c.get("fontPx", 0), CODE_SCROLL_MAX * 100))
    return row


# ---- self-test: a small book with one broken page per kind of problem ---------
HEAD = ('<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><style>'
        'body{margin:0;font:16px serif} main{max-width:40rem;margin:0 auto;padding:0 1rem}'
        '.katex-display{overflow-x:auto;background:linear-gradient(to right,#fff,#fff0)}'
        '.katex .base{display:inline-block} img{width:100%%} figure{margin:0}'
        'table{display:block;overflow-x:auto;max-width:100%%}'
        '</style></head><body>'
        '<a class="lang-switch" href="../%s/%s">switch</a><main>')
BODY = ('<h1 id="p" data-number="1">One <a class="switch" href="../{other}/{page}#p">s</a></h1>'
        '<p>See <a href="#p-1">below</a> and <a href="good.html#p-2">there</a>.</p>'
        '<div class="katex-display"><span class="katex"><span style="display:inline-block;'
        'width:300px">a formula</span><annotation>x=1</annotation></span></div>'
        '<figure><a href="fig.svg"><img src="fig.svg" alt="A square."></a></figure>'
        '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>'
        '<pre>short line\nanother</pre>'
        '<p style="width:10em">Some words: <span class="katex">'
        '<span class="base" style="width:10em">x,</span></span> then more</p>'
        '<h2 id="p-1" data-number="1.1">Sec <a class="switch" href="../{other}/{page}#p-1">s</a></h2>'
        + "<p>text</p>" * 60 +
        '<h2 id="p-2" data-number="1.2">Sec <a class="switch" href="../{other}/{page}#p-2">s</a></h2>'
        + "<p>text</p>" * 60 + '</main></body></html>')
BROKEN = {  # page: (what is broken, (from, to) in the English page, kind that must be named)
    "overflow.html": ("a block wider than the page", ("<main>", '<main><div style="width:2000px">x</div>'),
                      "overflow"),
    "cut.html": ("a wide formula that does not scroll",
                 [('<div class="katex-display">', '<div class="katex-display" style="overflow:hidden">'),
                  ("width:300px", "width:1000px")], "formula-cut"),
    "noshadow.html": ("a wide formula that scrolls with no sign of it",
                      [('<div class="katex-display">',
                        '<div class="katex-display" style="background:none">'),
                       ("width:300px", "width:1000px")], "formula-cut"),
    "wide.html": ("a formula wider than the column at 390 px", ("width:300px", "width:1000px"),
                  "formula-wide"),
    "figtext.html": ("a figure with 7 px labels at 390 px that does not open full size",
                     ('<a href="fig.svg">', '<a href="#p">'), "figure-text"),
    "table.html": ("a table that hides a column at 390 px",
                   ("<th>b</th>", '<th style="min-width:900px">b</th>'), "table-hidden"),
    "code.html": ("code whose lines all scroll at 390 px",
                  ("short line\nanother", ("x" * 80 + "\n") * 4), "code-scroll"),
    "link.html": ("a link to a missing page", ('href="good.html#p-2"', 'href="gone.html#p-2"'), "link"),
    "anchor.html": ("a link to a missing id", ('href="#p-1"', 'href="#nowhere"'), "anchor"),
    "crossanchor.html": ("a link to a missing id on another page",
                         ('href="good.html#p-2"', 'href="good.html#nowhere"'), "anchor"),
    "switch.html": ("a heading's switch to another section",
                    ('{page}#p-1">s', '{page}#p-2">s'), "switch"),
    "pageswitch.html": ("a page switch to another page", ('../es/pageswitch.html', '../es/good.html'),
                        "switch"),
    "covered.html": ("a top bar that covers the heading a switch opens", (
        "<main>", '<main><div style="position:fixed;top:0;left:0;right:0;height:5em;background:#fff">'
        'bar</div>'), "switch"),
    "structure.html": ("a heading only in one edition",
                       ('<p>text</p>', '<h3 id="p-2-1" data-number="1.2.1">Only here '
                        '<a class="switch" href="../es/structure.html#p-2-1">s</a></h3>'), "structure"),
    "imgload.html": ("an image that does not load", ('src="fig.svg"', 'src="gone.svg"'), "image-load"),
    "imgalt.html": ("an image with an empty alt", ('alt="A square."', 'alt=""'), "image-alt"),
    "imgnarrow.html": ("an image at half the column", ('<img ', '<img style="width:50%" '),
                       "image-narrow"),
    "punct.html": ("punctuation after math alone at a line start",
                   ('x,</span></span> then', 'x</span></span>, then'),
                   "punctuation"),
}
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" '
       'height="300" fill="#ccc"/><g font-size="8"><text x="10" y="20">small label</text></g></svg>')


def self_test():
    tmp = tempfile.mkdtemp(prefix="check-browser-selftest-")
    try:
        for lang, other in (("en", "es"), ("es", "en")):
            os.makedirs(os.path.join(tmp, lang))
            with open(os.path.join(tmp, lang, "fig.svg"), "w") as f:
                f.write(SVG)
            for page, (_, changes, _) in [("good.html", ("", [], ""))] + list(BROKEN.items()):
                text = (HEAD % (lang, other, page)) + BODY
                for old, new in ([changes] if isinstance(changes, tuple) else changes):
                    if lang != "en":
                        break
                    if old not in text:
                        raise SystemExit("check-browser self-test: %r not in the page" % old)
                    text = text.replace(old, new, 1)
                text = text.replace("{other}", other).replace("{page}", page)
                with open(os.path.join(tmp, lang, page), "w") as f:
                    f.write(text)
        with open(os.devnull, "w") as quiet:
            problems = check([os.path.join(tmp, "en"), os.path.join(tmp, "es")], out=quiet)
    finally:
        shutil.rmtree(tmp)
    ok = True
    for line in problems:
        page = re.match(r"(?:en|es)/([\w.]+)", line).group(1)
        if page == "good.html":
            ok = False
            sys.stderr.write("check-browser self-test: the correct page was rejected: %s\n" % line)
    for page, (what, _, kind) in BROKEN.items():
        if not any(re.match(r"(en|es)/%s\b.*?: %s: " % (re.escape(page), kind), p) for p in problems):
            ok = False
            sys.stderr.write("check-browser self-test: %s (%s) was not reported as %s; got: %s\n"
                             % (what, page, kind, [p for p in problems if page in p] or "nothing"))
    if ok:
        print("  ok     check-browser.py self-test (%d kinds of broken page caught)" % len(BROKEN))
    return ok


def main():
    if importlib.util.find_spec("selenium") is None:     # Debian's python3-selenium
        # another python3 first on PATH (pyenv, a venv): use Debian's, which has it
        if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
                and os.path.exists("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        sys.exit("check-browser: python3-selenium is missing (sudo make deps installs it)")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--shots", help="folder for the screenshots")
    ap.add_argument("--notes", action="store_true", help="list the formulas that scroll at 390 px")
    ap.add_argument("editions", nargs="*")
    args = ap.parse_args()
    if args.self_test:
        sys.exit(0 if self_test() else 1)
    if not args.editions:
        ap.error("name the editions' folders, e.g. build/html/en build/html/es")
    start = time.time()
    problems = check(args.editions, shots=args.shots, notes=args.notes, report_table=True)
    count = sum(len([n for n in os.listdir(e) if n.endswith(".html")]) for e in args.editions)
    summary = "%d pages x %d widths in %.0f s" % (count, len(WIDTHS), time.time() - start)
    if problems:
        print("check-browser: %d problem(s) (%s)" % (len(problems), summary))
        sys.exit(1)
    print("  ok     check-browser.py: %s, no problem%s" % (
        summary, "; screenshots in %s" % args.shots if args.shots else ""))


if __name__ == "__main__":
    main()
