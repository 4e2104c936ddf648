#!/usr/bin/env python3
"""check-readme.py - README.md's "Use the layer from C" shows the program the
book tangles (tangled/examples/use-layer.c) and the output it prints.

usage: check-readme.py README.md tangled/examples/use-layer.c PROGRAM
       check-readme.py --self-test README.md tangled/examples/use-layer.c PROGRAM

The section's first ```c block must equal the tangled file byte for byte, and
its first ```text block must equal what PROGRAM prints. --self-test changes
one line of each and checks that both changes are caught.
"""
import re
import subprocess
import sys

HEADING = "## Use the layer from C"


def blocks(readme):
    """the section's first c and text fenced blocks"""
    if HEADING not in readme:
        raise ValueError(f"README.md has no section '{HEADING}'")
    section = readme.split(HEADING, 1)[1].split("\n## ", 1)[0]
    found = {}
    for lang, body in re.findall(r"^```(\w+)\n(.*?)^```$", section, re.S | re.M):
        found.setdefault(lang, body)
    for lang in ("c", "text"):
        if lang not in found:
            raise ValueError(f"README.md, section '{HEADING}': no ```{lang} block")
    return found["c"], found["text"]


def problems(readme, source, output):
    code, shown = blocks(readme)
    out = []
    if code != source:
        a, b = code.splitlines(), source.splitlines()
        n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        out.append(f"the ```c block differs from the tangled program at its line {n + 1}: "
                   "copy tangled/examples/use-layer.c into README.md")
    if shown != output:
        out.append("the ```text block is not what the program prints; run "
                   "build/examples/use-layer and copy its output")
    return out


def main(argv):
    self_test = argv[:1] == ["--self-test"]
    if self_test:
        argv = argv[1:]
    readme_path, source_path, program = argv
    readme = open(readme_path, encoding="utf-8").read()
    source = open(source_path, encoding="utf-8").read()
    run = subprocess.run([program], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        print(f"readme: {program} exited with {run.returncode}: {run.stderr.strip()}")
        return 1
    if self_test:
        code, shown = blocks(readme)
        bad_code = readme.replace(code, code.replace("mha_new(&layer, D, H, 1)",
                                                     "mha_new(&layer, D, H, 2)"), 1)
        bad_out = readme.replace(shown, shown.replace("out: (8, 64)", "out: (8, 32)"), 1)
        for what, text in (("a changed line of code", bad_code), ("a changed output", bad_out)):
            if text == readme or not problems(text, source, run.stdout):
                print(f"readme self-test: {what} was NOT caught")
                return 1
            print(f"readme self-test: {what} is caught")
        return 0
    found = problems(readme, source, run.stdout)
    for p in found:
        print(f"readme: {readme_path}: {p}")
    if not found:
        print(f"readme: '{HEADING}' shows {source_path} and its output, as built and run")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
