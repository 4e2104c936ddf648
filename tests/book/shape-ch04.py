#!/usr/bin/env python3
"""shape-ch04.py - the shape of chapter 04, measured in both editions.

    shape-ch04.py [--rev REV] [--check]

Reads book/{en,es}/04-masking.nw and every other book/{en,es}/*.nw (to find
which root file each chunk ends in), from the work tree or, with --rev, from
that git revision, and prints per edition:

  examples   the share of the code lines in the reading flow (the chapter's
             own file; the appendices are not the reading flow) that belong
             to example programs: chunks that end only in tangled/examples/
             files, never in a tangled/minimodel/ one;
  prose/10   in the section "Implementation" (from its \\section to the next
             \\section), lines of prose per 10 lines of library code (chunks
             that end in a tangled/minimodel/ file); a line of prose is a
             non-blank line of the documentation that is not a heading, a
             \\label or part of a verbatim block;
  chunks     the median and the largest library chunk of that section, in
             lines (every line of the chunk's body, blank ones too).

With --program PROG (build/examples/ch04-masking) it also checks that every
line of the chapter's verbatim blocks that reads key=value is a line that
PROG prints, so the output the chapter shows is the program's, key and value.

With --check it exits 1 unless, in each edition, the examples share is 0 %,
prose/10 is at least PROSE_MIN, and every library chunk of the implementation
is at most CHUNK_MAX lines (the front matter's promise: chunks of 3 to 15).
"""
import argparse
import re
import statistics
import subprocess
import sys

CHAPTER = "04-masking.nw"
PROSE_MIN = 8.0
CHUNK_MAX = 15
DEF = re.compile(r"^<<(.+)>>=\s*$")
USE = re.compile(r"<<(.+?)>>(?!=)")
HEADING = re.compile(r"\\(?:sub)*section\*?\{.*\}$|\\label\{[^}]*\}$")


def read(path, rev):
    if rev is None:
        return open(path, encoding="utf-8").read()
    return subprocess.run(["git", "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def files(edition, rev):
    if rev is None:
        out = subprocess.run(["sh", "-c", f"ls book/{edition}/*.nw"],
                             capture_output=True, text=True, check=True).stdout
    else:
        out = subprocess.run(["git", "ls-tree", "--name-only", rev, f"book/{edition}/"],
                             capture_output=True, text=True, check=True).stdout
    return sorted(p for p in out.split() if p.endswith(".nw"))


def parse(text):
    """[(kind, name, lines)] in order: kind 'doc' or 'code' (name None for doc)"""
    parts, kind, name, body = [], "doc", None, []
    for line in text.splitlines():
        m = DEF.match(line)
        if m:
            parts.append((kind, name, body))
            kind, name, body = "code", m.group(1).strip(), []
        elif kind == "code" and line.startswith("@") and (len(line) == 1 or line[1] in " \t"):
            parts.append((kind, name, body))
            kind, name, body = "doc", None, [line[1:]]
        else:
            body.append(line)
    parts.append((kind, name, body))
    return parts


def roots_of(all_parts):
    """{chunk name: set of root file names it ends in}"""
    uses, defined = {}, set()
    for parts in all_parts:
        for kind, name, body in parts:
            if kind != "code":
                continue
            defined.add(name)
            for line in body:
                for u in USE.findall(line):
                    uses.setdefault(u.strip(), set()).add(name)
    memo = {}

    def ends(name, seen=()):
        if name in memo:
            return memo[name]
        users = uses.get(name, set()) - set(seen)
        out = {name} if not users else set()
        for u in users:
            out |= ends(u, seen + (name,))
        memo[name] = out
        return out
    return {n: ends(n) for n in defined}


def prose_lines(lines):
    """non-blank lines of prose: not headings or labels, not verbatim blocks"""
    n, verbatim = 0, False
    for line in lines:
        text = line.strip()
        if text.startswith("\\begin{verbatim}"):
            verbatim = True
        elif text.startswith("\\end{verbatim}"):
            verbatim = False
        elif text and not verbatim and not HEADING.match(text):
            n += 1
    return n


def library(roots):
    return any(r.startswith("tangled/minimodel/") for r in roots)


def example(roots):
    return bool(roots) and all(r.startswith("tangled/examples/") for r in roots)


def measure(edition, rev):
    paths = files(edition, rev)
    all_parts = {p: parse(read(p, rev)) for p in paths}
    roots = roots_of(all_parts.values())
    chapter = all_parts[f"book/{edition}/{CHAPTER}"]
    code = [(n, b) for k, n, b in chapter if k == "code"]
    total = sum(len(b) for _, b in code)
    ex = sum(len(b) for n, b in code if example(roots[n]))
    impl, inside = [], False
    for kind, name, body in chapter:
        if kind == "doc":
            for line in body:
                if line.startswith("\\section"):
                    inside = line.startswith("\\section{Implement")
                if inside:
                    impl.append(("doc", line))
        elif inside:
            impl.append(("code", name, body))
    prose = prose_lines(p[1] for p in impl if p[0] == "doc")
    sizes = [len(p[2]) for p in impl if p[0] == "code" and library(roots[p[1]])]
    lib = sum(sizes)
    return {"edition": edition, "code": total, "example": ex,
            "share": 100.0 * ex / total if total else 0.0,
            "prose": prose, "libcode": lib, "per10": 10.0 * prose / lib if lib else 0.0,
            "median": statistics.median(sizes) if sizes else 0,
            "largest": max(sizes) if sizes else 0, "chunks": len(sizes)}


FACT = re.compile(r"^[A-Za-z][\w.]*=\S+$")


def shown_lines(edition, rev):
    """the key=value lines of the chapter's verbatim blocks"""
    out, verbatim = [], False
    for line in read(f"book/{edition}/{CHAPTER}", rev).splitlines():
        if line.strip().startswith("\\begin{verbatim}"):
            verbatim = True
        elif line.strip().startswith("\\end{verbatim}"):
            verbatim = False
        elif verbatim and FACT.match(line.strip()):
            out.append(line.strip())
    return out


def unprinted(edition, rev, program):
    printed = set(subprocess.run([program], capture_output=True, text=True,
                                 check=True).stdout.splitlines())
    shown = shown_lines(edition, rev)
    return shown, [line for line in shown if line not in printed]


def main():
    ap = argparse.ArgumentParser(description="measure the shape of chapter 04")
    ap.add_argument("--rev", help="read the book from this git revision")
    ap.add_argument("--check", action="store_true", help="fail outside the limits")
    ap.add_argument("--program", help="the chapter's example program, to check the "
                    "lines the chapter shows")
    args = ap.parse_args()
    bad = []
    for ed in ("en", "es"):
        m = measure(ed, args.rev)
        print(f"shape-ch04 {ed}: examples {m['share']:.0f} % of the reading flow's code "
              f"({m['example']} of {m['code']} lines); implementation: "
              f"{m['per10']:.1f} lines of prose per 10 of library code "
              f"({m['prose']} / {m['libcode']}); library chunks: {m['chunks']}, "
              f"median {m['median']:g}, largest {m['largest']} lines")
        if args.program:
            shown, missing = unprinted(ed, args.rev, args.program)
            print(f"shape-ch04 {ed}: {len(shown) - len(missing)} of the {len(shown)} "
                  f"output lines the chapter shows are printed by {args.program}")
            bad += [f"{ed}: the chapter shows '{line}', which {args.program} does not print"
                    for line in missing]
        if m["example"]:
            bad.append(f"{ed}: {m['example']} lines of example programs in the reading flow")
        if m["per10"] < PROSE_MIN:
            bad.append(f"{ed}: {m['per10']:.1f} lines of prose per 10 of code, "
                       f"below {PROSE_MIN:g}")
        if m["largest"] > CHUNK_MAX:
            bad.append(f"{ed}: a library chunk of {m['largest']} lines, over {CHUNK_MAX}")
    if args.check:
        for b in bad:
            print(f"shape-ch04: FAILED: {b}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
