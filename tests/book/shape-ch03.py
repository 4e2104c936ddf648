#!/usr/bin/env python3
"""shape-ch03.py - the shape of chapter 03, both editions, as a reader meets it.

    python3 tests/book/shape-ch03.py [--rev REV] [--check]

Reads book/{en,es}/*.nw from the work tree, or from git revision REV
(--rev main measures the chapter as it was there), and prints per edition:

  examples in flow  the share of the code lines of the chapter's own file
                    (book/ED/03-multi-head.nw, read before the appendix) that
                    belong to example programs: chunks reachable from a root
                    tangled/examples/... and not from a root tangled/minimodel/...
  prose/10 code     in the implementation section (the \\section labelled
                    sec:mha-implementation, up to the next \\section): lines
                    of prose per 10 lines of library code. Prose: the non-blank
                    documentation lines, less \\section, \\subsection and
                    \\label lines. Library code: every line (blank ones too) of
                    the chunks defined there that a root tangled/minimodel/...
                    reaches.
  chunks            how many chunks the chapter's file defines, their median
                    and largest size in lines (every line between <<name>>=
                    and @), and how many are over 15 lines (the front
                    matter promises pieces of 3-15 lines).

--formulas HTML_DIR also measures, in headless Chromium at 390 px (Debian's
chromium, chromedriver and python3-selenium), the width of every display
formula of HTML_DIR/{en,es}/ch03.html against the text column (build/html
after `make book-html`); the boxed one is marked.

--check exits 1, naming each miss, unless in both editions no example code is
in the reading flow, the implementation has at least 8 lines of prose per 10
of code, no chunk is over 15 lines, and (with --formulas) every display
formula fits the column. (--rev main --check shows it failing.)
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

EDITIONS = ("en", "es")
CHAPTER = "03-multi-head.nw"
IMPLEMENTATION = "sec:mha-implementation"
DEF = re.compile(r"<<(.*)>>=\s*$")
USE = re.compile(r"<<(.*?)>>(?!=)")
HEADING = re.compile(r"\s*\\(?:sub)*section\*?[\[{]|\s*\\label\{")
MIN_PROSE_PER_10 = 8.0
MAX_CHUNK = 15


def read(path, rev):
    if rev is None:
        with open(path, encoding="utf-8") as f:
            return f.read()
    return subprocess.run(["git", "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def files_of(edition, rev):
    """the .nw files of an edition, in the book's order"""
    if rev is None:
        import glob
        return sorted(glob.glob(f"book/{edition}/*.nw"))
    out = subprocess.run(["git", "ls-tree", "--name-only", rev, f"book/{edition}/"],
                         check=True, capture_output=True, text=True).stdout
    return sorted(p for p in out.split() if p.endswith(".nw"))


def parse(text):
    """items in order: ('doc', line, section_label) or ('code', name, body, section_label)"""
    items, chunk, label = [], None, None
    for line in text.split("\n"):
        m = DEF.match(line)
        if m:
            chunk = ["code", m.group(1), [], label]
            items.append(chunk)
            continue
        if chunk is not None:
            if line == "@" or line.startswith("@ ") or line.startswith("@\t"):
                chunk = None
            else:
                chunk[2].append(line)
            continue
        if re.match(r"\s*\\section\*?[\[{]", line):
            label = None                      # a new section: label follows
        lm = re.match(r"\s*\\label\{(sec:[^}]*)\}", line)
        if lm and label is None:
            label = lm.group(1)
        items.append(["doc", line, label])
    return items


def reach(uses, roots):
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(uses.get(name, ()))
    return seen


def measure(edition, rev):
    uses, roots = {}, []
    chapter_items = None
    for path in files_of(edition, rev):
        items = parse(read(path, rev))
        for it in items:
            if it[0] == "code":
                uses.setdefault(it[1], set()).update(
                    u for line in it[2] for u in USE.findall(line))
                if it[1].startswith("tangled/"):
                    roots.append(it[1])
        if path.endswith("/" + CHAPTER):
            chapter_items = items
    if chapter_items is None:
        sys.exit(f"shape-ch03: no book/{edition}/{CHAPTER}")
    lib = reach(uses, [r for r in roots if r.startswith("tangled/minimodel/")])
    ex = reach(uses, [r for r in roots if r.startswith("tangled/examples/")]) - lib
    chunks = [it for it in chapter_items if it[0] == "code"]
    sizes = [len(c[2]) for c in chunks]
    code = sum(sizes)
    example = sum(len(c[2]) for c in chunks if c[1] in ex)
    impl = [it for it in chapter_items if it[-1] == IMPLEMENTATION]
    prose = sum(1 for it in impl if it[0] == "doc" and it[1].strip()
                and not HEADING.match(it[1]))
    impl_code = sum(len(it[2]) for it in impl if it[0] == "code" and it[1] in lib)
    return {
        "edition": edition,
        "example_lines": example, "code_lines": code,
        "example_share": example / code if code else 0.0,
        "impl_prose": prose, "impl_code": impl_code,
        "prose_per_10": 10 * prose / impl_code if impl_code else 0.0,
        "chunks": len(sizes), "median": statistics.median(sizes) if sizes else 0,
        "largest": max(sizes, default=0),
        "over_15": sum(s > MAX_CHUNK for s in sizes),
        "big": [(len(c[2]), c[1]) for c in chunks if len(c[2]) > MAX_CHUNK],
    }


# the widest extent of a display formula's glyphs, and the column it sits in
FORMULA_WIDTHS = r"""
const out = [];
for (const el of document.querySelectorAll('.katex-display')) {
  const tex = (el.querySelector('annotation') || {}).textContent || '';
  let l = 1e9, r = -1e9;
  for (const c of el.querySelectorAll('.katex-html *')) {
    const b = c.getBoundingClientRect();
    if (b.width > 0) { l = Math.min(l, b.left); r = Math.max(r, b.right); }
  }
  out.push([Math.round(r - l), el.clientWidth, tex.replace(/\s+/g, ' ').trim()]);
}
return out;
"""


def formulas(html_dir):
    """{edition: [(width, column, tex)]} of ch03.html at 390 px"""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    opts = Options()
    opts.add_argument("--headless=new")
    opts.add_argument("--no-sandbox")
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 390, "height": 844, "deviceScaleFactor": 1,
                           "mobile": True})
        out = {}
        for ed in EDITIONS:
            path = os.path.abspath(f"{html_dir}/{ed}/ch03.html")
            if not os.path.isfile(path):
                sys.exit(f"shape-ch03: no {path} (make book-html)")
            d.get("file://" + path)
            out[ed] = d.execute_script(FORMULA_WIDTHS)
        return out
    finally:
        d.quit()


def main(argv):
    ap = argparse.ArgumentParser(description="measure the shape of chapter 03")
    ap.add_argument("--rev", help="read the book from this git revision")
    ap.add_argument("--check", action="store_true", help="fail unless the shape is met")
    ap.add_argument("--formulas", metavar="HTML_DIR",
                    help="measure ch03's display formulas at 390 px (e.g. build/html)")
    opts = ap.parse_args(argv)
    print(f"chapter 03 ({opts.rev or 'work tree'})")
    print(f"{'edition':8} {'examples in flow':>22} {'prose/10 code':>18} "
          f"{'chunks':>7} {'median':>7} {'largest':>8} {'over 15':>8}")
    misses = []
    for ed in EDITIONS:
        m = measure(ed, opts.rev)
        print(f"{ed:8} {m['example_share']:6.1%} ({m['example_lines']:3}/{m['code_lines']:3})"
              f"  {m['prose_per_10']:5.1f} ({m['impl_prose']:3}/{m['impl_code']:3})"
              f" {m['chunks']:7} {m['median']:7} {m['largest']:8} {m['over_15']:8}")
        if m["example_lines"]:
            misses.append(f"{ed}: {m['example_lines']} lines of example programs in the "
                          f"reading flow (move them to the appendix)")
        if m["prose_per_10"] < MIN_PROSE_PER_10:
            misses.append(f"{ed}: {m['prose_per_10']:.1f} lines of prose per 10 of library "
                          f"code in the implementation, fewer than {MIN_PROSE_PER_10:g}")
        for size, name in m["big"]:
            misses.append(f"{ed}: chunk <<{name}>> is {size} lines, over {MAX_CHUNK}")
    if opts.formulas:
        for ed, found in formulas(opts.formulas).items():
            over = [f for f in found if f[0] > f[1]]
            boxed = [f for f in found if "boxed" in f[2]]
            print(f"{ed}: display formulas at 390 px: {len(over)} of {len(found)} wider "
                  f"than the column; boxed: " +
                  ", ".join(f"{w} px in {c}" for w, c, _ in boxed))
            for w, c, tex in over:
                print(f"  {w} px > {c} px: {tex[:60]}")
                misses.append(f"{ed}: a display formula is {w} px wide in a {c} px column: "
                              f"{tex[:60]}")
    if opts.check:
        for miss in misses:
            print("shape-ch03: " + miss)
        print(f"shape-ch03: {'FAIL' if misses else 'ok'}")
        return 1 if misses else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
