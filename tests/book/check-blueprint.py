#!/usr/bin/env python3
"""check-blueprint.py - the blueprint names every public function as the headers do.

usage: check-blueprint.py BLUEPRINT.md HEADER.h...
       check-blueprint.py --self-test BLUEPRINT.md HEADER.h...

BLUEPRINT.md is tangled/minimodel/attention/BLUEPRINT.md, which the chapters
write part by part; the headers are tangled/minimodel/attention/*.h. Every
function declared in a header (a prototype at the start of a line, up to its
';') must appear in the blueprint's C blocks with the same signature, spaces
aside, and every signature in the blueprint must be a header's. The self-test
changes one signature in a copy of each side and expects the check to fail.
"""
import re
import sys

PROTO = re.compile(r"^(?:[A-Za-z_][\w ]*[\s*])([a-z_]\w*)\(([^;{]*?)\);", re.M | re.S)


def normal(sig):
    """a signature with its spacing normalised: 'int f(int a, int b);'"""
    sig = re.sub(r"\s+", " ", sig).strip()
    return re.sub(r"\s*([(),*;])\s*", r"\1", sig)


def prototypes(text):
    """{name: normalised signature} of the prototypes in C text"""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^#.*$", " ", text, flags=re.M)
    return {m.group(1): normal(m.group(0)) for m in PROTO.finditer(text)}


def blueprint_c(text):
    """the C code of the blueprint's ```c blocks"""
    return "\n".join(re.findall(r"^```c\n(.*?)^```", text, re.M | re.S))


def problems(blueprint_text, header_texts):
    want, got, out = {}, prototypes(blueprint_c(blueprint_text)), []
    for path, text in header_texts:
        for name, sig in prototypes(text).items():
            want[name] = (path, sig)
    for name, (path, sig) in sorted(want.items()):
        if name not in got:
            out.append(f"{name} ({path}) is not in the blueprint: add its "
                       f"signature to the chapter's part of BLUEPRINT.md")
        elif got[name] != sig:
            out.append(f"{name}: the blueprint says {got[name]!r} but {path} "
                       f"says {sig!r}; change the chapter so that they agree")
    for name in sorted(set(got) - set(want)):
        out.append(f"{name} is in the blueprint but in no header")
    return out, len(want)


def main(argv):
    self_test = argv[:1] == ["--self-test"]
    if self_test:
        argv = argv[1:]
    if len(argv) < 2:
        sys.exit(__doc__)
    blueprint = open(argv[0], encoding="utf-8").read()
    headers = [(p, open(p, encoding="utf-8").read()) for p in argv[1:]]
    found, count = problems(blueprint, headers)
    if not self_test:
        for p in found:
            print("check-blueprint: " + p)
        print(f"check-blueprint: {count} public functions, "
              f"{'all' if not found else len(found)} "
              f"{'in the blueprint with their signatures' if not found else 'problem(s)'}")
        return 1 if found else 0
    # self-test: one changed parameter on either side must be caught
    path, text = headers[0]
    changed = re.sub(r"\bint n\b|\bint T\b", "long n", text, count=1)
    cases = [("a header's signature changed", blueprint, [(path, changed)] + headers[1:]),
             ("a blueprint signature changed", blueprint.replace("int T,", "int T_,", 1), headers),
             ("a function missing from the blueprint", "```c\n```\n", headers)]
    bad = 0
    for what, b, h in cases:
        caught = problems(b, h)[0]
        print(f"check-blueprint --self-test: {what}: "
              f"{'caught' if caught else 'NOT caught'}")
        bad += not caught
    return 1 if bad or found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
