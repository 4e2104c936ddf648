#!/usr/bin/env python3
"""check-start-here.py - README.md and README.es.md open with the learner's
box: its first section, right after the introduction, is "Start here"
("Empieza aquí") and holds what a new learner needs and nothing stale.

usage: check-start-here.py HELP_TEXT README.md README.es.md
       check-start-here.py --self-test HELP_TEXT README.md README.es.md

HELP_TEXT is what `make help` prints. In each README the box must name the
three first commands (sudo make deps, make, make check), both books of the
README's language, every lab folder of labs/ with a link to that lab's
README in the same language and a time to plan on, and the judge's
commands (make lab NN=, make watch, make progress, make lab-reset, make lab-try,
make lab-debug, CHECK=, ALL=1, LAB_ARGS=--help, LAB_LANG=es); every `make TARGET` it names must be a target `make help`
lists. --self-test removes or breaks one thing at a time and checks that
each is caught.
"""
import glob
import os
import re
import sys

HEADINGS = {"README.md": "## Start here", "README.es.md": "## Empieza aquí"}
PAGES = {"README.md": "README.md", "README.es.md": "README.es.md"}
LANGS = {"README.md": "en", "README.es.md": "es"}


def box(name, text):
    """the text of the first ## section, which must be the learner's box"""
    first = re.search(r"^## .*$", text, re.M)
    if not first or first.group(0).strip() != HEADINGS[name]:
        return None
    return text[first.end():].split("\n## ", 1)[0]


def problems(name, text, targets, labs):
    section = box(name, text)
    if section is None:
        return [f"its first section is not '{HEADINGS[name]}'"]
    lang = LANGS[name]
    out = []
    needed = ["sudo make deps", "\nmake ", "make check", f"build/html/{lang}/index.html", "CHECK=",
              f"build/book/{lang}/workbook.pdf", "make lab NN=", "make watch NN=",
              "make progress", "make lab-reset NN=", "make lab-try NN=", "make lab-debug NN=",
              "ALL=1", "LAB_ARGS=--help", "LAB_LANG=es"]
    out += [f"the box does not name {n.strip()!r}" for n in needed if n not in section]
    for lab in labs:
        link = f"(labs/{lab}/{PAGES[name]})"
        row = next((line for line in section.splitlines() if link in line), None)
        if row is None:
            out.append(f"the box has no row linking {link[1:-1]}")
        elif not re.search(r"[\d½]\s*h\s*\|\s*$", row):
            out.append(f"the row of {lab} gives no time to plan on (`N h` in its last column)")
    for target in sorted(set(re.findall(r"make ([a-z][a-z0-9-]*)", section))):
        if target not in targets:
            out.append(f"the box names 'make {target}', which make help does not list")
    return out


def read(path):
    return open(path, encoding="utf-8").read()


def main(argv):
    self_test = argv[:1] == ["--self-test"]
    if self_test:
        argv = argv[1:]
    help_path, *readmes = argv
    targets = set(re.findall(r"^\s+make ([a-z][a-z0-9-]*)", read(help_path), re.M)) | {"deps"}
    labs = sorted(os.path.basename(d) for d in glob.glob("labs/lab[0-9][0-9]-*") if os.path.isdir(d))
    if not labs:
        print("start-here: no lab folder under labs/ (run from the workbook's top)")
        return 1
    texts = {os.path.basename(p): read(p) for p in readmes}
    if self_test:
        en = texts["README.md"]
        breaks = {
            "the box moved below another section": en.replace("## Start here", "## Later", 1),
            "a lab's row removed": "\n".join(l for l in en.splitlines() if "labs/lab03-mha/README.md" not in l),
            "a lab's time removed": re.sub(r"(labs/lab02-sdpa/README\.md.*\|)\s*[^|]*h\s*\|\s*$",
                                           r"\1 |", en, count=1, flags=re.M),
            "a target make help does not know": en.replace("make progress", "make progres", 1),
        }
        for what, text in breaks.items():
            if text == en or not problems("README.md", text, targets, labs):
                print(f"start-here self-test: {what} was NOT caught")
                return 1
            print(f"start-here self-test: {what} is caught")
        return 0
    found = [f"{n}: {p}" for n, t in texts.items() for p in problems(n, t, targets, labs)]
    for p in found:
        print(f"start-here: {p}")
    if not found:
        print(f"start-here: {', '.join(texts)} open with the learner's box: "
              f"{len(labs)} labs, the books, the commands")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
