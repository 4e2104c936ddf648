#!/usr/bin/env python3
"""shape-ch02.py - measure the shape of a chapter of the book, and fail when it regresses.

usage: shape-ch02.py [--chapter 02] [--limits] [--self-test] EDITION_DIR...

For each edition (book/en, book/es) the chapter is the file NN-*.nw of that
folder, read with every other .nw file of the folder so that chunks can be
followed across files. It prints, per edition:

  example share   the share of the code lines in the reading flow (the
                  chapter's own file, which comes before the appendix) that
                  belong to example programs: chunks reachable from a root
                  tangled/examples/... and from no other root;
  prose per 10    in the section labelled sec:*-implementation, up to the
                  next \\section: lines of prose for every 10 lines of library
                  code (code of chunks that are not example programs);
  chunks          the number of code chunks the chapter's file defines, the
                  median and the largest size in lines, and how many are
                  longer than 15 lines.

A line of code is a non-blank line of a chunk's body; a line of prose is a
non-blank documentation line that is not a bare LaTeX command
(\\section, \\label, \\begin, \\end, ...).

With --limits the chapter must meet the shape the book promises: no example
program in the reading flow, at least 9 lines of prose per 10 of library
code in the implementation section, no chunk over 15 lines; the exit status
is 1 otherwise, with one line per broken limit. --self-test first proves, on
chapters of its own, that each limit can fail.
"""
import argparse
import glob
import os
import re
import statistics
import sys
import tempfile

DEF = re.compile(r"^<<(.+)>>=\s*$")
USE = re.compile(r"<<(.+?)>>(?!=)")
BARE = re.compile(r"^\s*\\(section|subsection|paragraph\*?$|label|begin|end|centering|"
                  r"includegraphics|item\s*$)\b[^ ]*\s*$")

LIMITS = {"example_share": 0.0, "prose_per_10": 9.0, "largest_chunk": 15}


def parse(path):
    """the chunks of a noweb file, in order: dicts with name, first line, body;
    and the documentation lines, as (line number, text)"""
    chunks, docs, cur = [], [], None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        m = DEF.match(line)
        if m:
            cur = {"name": m.group(1), "line": n, "body": [], "file": path}
            chunks.append(cur)
        elif cur is not None and line.startswith("@") and (len(line) == 1 or line[1] in " \t"):
            cur = None
        elif cur is not None:
            cur["body"].append(line)
        else:
            docs.append((n, line))
    return chunks, docs


def classify(all_chunks):
    """{chunk name: 'example' or 'library'}: example when every root that
    reaches it is a tangled/examples/ file"""
    uses = {}
    for c in all_chunks:
        uses.setdefault(c["name"], set()).update(
            u for line in c["body"] for u in USE.findall(line))
    used = {u for s in uses.values() for u in s}
    roots = [name for name in uses if name not in used]
    reach = {}
    for root in roots:
        kind = "example" if root.startswith("tangled/examples/") else "library"
        todo, seen = [root], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            reach.setdefault(name, set()).add(kind)
            todo.extend(uses.get(name, ()))
    return {name: ("example" if kinds == {"example"} else "library")
            for name, kinds in reach.items()}


def code_lines(chunk):
    return sum(1 for line in chunk["body"] if line.strip())


def prose_lines(docs):
    return sum(1 for _, line in docs if line.strip() and not BARE.match(line)
               and line.strip() != "@")


def measure(folder, chapter):
    files = sorted(glob.glob(os.path.join(folder, "*.nw")))
    mine = [f for f in files if os.path.basename(f).startswith(chapter + "-")]
    if len(mine) != 1:
        raise SystemExit(f"shape: {folder}: no single file {chapter}-*.nw")
    parsed = {f: parse(f) for f in files}
    kind = classify([c for chunks, _ in parsed.values() for c in chunks])
    chunks, docs = parsed[mine[0]]
    total = sum(code_lines(c) for c in chunks)
    example = sum(code_lines(c) for c in chunks if kind.get(c["name"]) == "example")
    # the implementation section: from its \label to the next \section
    lines = open(mine[0], encoding="utf-8").read().split("\n")
    start = next((i + 1 for i, l in enumerate(lines)
                  if re.search(r"\\label\{sec:[\w-]*implementation\}", l)), None)
    if start is None:
        raise SystemExit(f"shape: {mine[0]}: no \\label{{sec:...-implementation}}")
    end = next((i + 1 for i, l in enumerate(lines) if i + 1 > start
                and l.startswith("\\section")), len(lines) + 1)
    impl_docs = [(n, l) for n, l in docs if start < n < end]
    impl_code = sum(code_lines(c) for c in chunks
                    if start < c["line"] < end and kind.get(c["name"]) != "example")
    sizes = sorted(code_lines(c) for c in chunks)
    return {
        "file": mine[0], "code": total, "example": example,
        "example_share": example / total if total else 0.0,
        "impl_prose": prose_lines(impl_docs), "impl_code": impl_code,
        "prose_per_10": 10.0 * prose_lines(impl_docs) / impl_code if impl_code else 0.0,
        "chunks": len(sizes), "median_chunk": statistics.median(sizes) if sizes else 0,
        "largest_chunk": sizes[-1] if sizes else 0,
        "over_15": sum(1 for s in sizes if s > 15),
        "largest_names": [c["name"] for c in chunks if code_lines(c) == (sizes[-1] if sizes else -1)],
    }


def broken(m):
    out = []
    if m["example_share"] > LIMITS["example_share"]:
        out.append(f"{m['example']} of {m['code']} code lines in the reading flow are example "
                   "programs (they belong in the appendix)")
    if m["prose_per_10"] < LIMITS["prose_per_10"]:
        out.append(f"the implementation section has {m['prose_per_10']:.1f} lines of prose per "
                   f"10 of library code (at least {LIMITS['prose_per_10']:g})")
    if m["largest_chunk"] > LIMITS["largest_chunk"]:
        out.append(f"{m['over_15']} chunk(s) over {LIMITS['largest_chunk']} lines, the largest "
                   f"{m['largest_chunk']}: <<{m['largest_names'][0]}>>")
    return out


def report(m):
    print(f"shape: {m['file']}: example share {100 * m['example_share']:.0f} % "
          f"({m['example']}/{m['code']} code lines); implementation: "
          f"{m['prose_per_10']:.1f} prose per 10 code ({m['impl_prose']}/{m['impl_code']}); "
          f"{m['chunks']} chunks, median {m['median_chunk']:g}, largest {m['largest_chunk']}, "
          f"{m['over_15']} over 15")


SELF_TEST = {
    "good": ("\\section{Implementation}\n\\label{sec:x-implementation}\n"
             "Prose one.\nProse two.\nProse three.\n\n<<tangled/x.c>>=\nint x;\n"
             "<<set y>>\n@\n\nProse four.\nProse five.\n\n<<set y>>=\nint y;\n@\n"
             "\\section{Recap}\n"),
    "examples": ("<<tangled/examples/x.c>>=\nint main(void) { return 0; }\n@\n"),
    "thin": ("\\section{Implementation}\n\\label{sec:x-implementation}\nOne line.\n"
             "<<tangled/x.c>>=\n" + "int a;\n" * 10 + "@\n\\section{Recap}\n"),
    "long": ("\\section{Implementation}\n\\label{sec:x-implementation}\n"
             + "Prose.\n" * 20 + "<<tangled/x.c>>=\n" + "int a;\n" * 16 + "@\n"),
}


def self_test():
    """each limit fails on a chapter made to break it, and passes on a good one"""
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case, text in SELF_TEST.items():
            folder = os.path.join(tmp, case)
            os.mkdir(folder)
            body = SELF_TEST["good"] if case == "examples" else ""
            open(os.path.join(folder, "02-x.nw"), "w").write(body + text if case == "examples"
                                                              else text)
            got = broken(measure(folder, "02"))
            ok = (got == []) if case == "good" else (len(got) == 1)
            if not ok:
                failures += 1
                print(f"shape: self-test: case {case}: expected "
                      f"{'no problem' if case == 'good' else 'one problem'}, got {got}")
    print(f"shape: self-test: {len(SELF_TEST)} cases, {failures} failure(s)")
    return failures == 0


def main(argv):
    p = argparse.ArgumentParser(description="measure a chapter's shape")
    p.add_argument("--chapter", default="02")
    p.add_argument("--limits", action="store_true", help="fail when a limit is broken")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("folders", nargs="*", default=["book/en", "book/es"])
    opts = p.parse_args(argv)
    if opts.self_test and not self_test():
        return 1
    status = 0
    for folder in opts.folders:
        m = measure(folder, opts.chapter)
        report(m)
        if opts.limits:
            for problem in broken(m):
                print(f"shape: {m['file']}: {problem}")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
