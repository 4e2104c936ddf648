#!/usr/bin/env python3
"""check_claims.py - the numbers the chapters state agree with the library.

usage: check_claims.py --dir DIR [--dir DIR]... CLAIMS_TSV NW_FILE...

Every row of the table names a source PROGRAM:KEY. PROGRAM is a facts
program, looked up in the --dir directories (it must be in exactly one): run
as `PROGRAM --facts`, it prints key=value lines (blank lines and lines starting
with # are ignored). The value of KEY is compared with the literal (the
table's header says how), and the literal must appear in the prose of every
edition given, grouped as in the table (16{,}384), with a thin space
(16\\,384, the Spanish style) or, below 10 000, ungrouped (3072). Then every
decimal number and every grouped number in any edition's prose must be in the
table, so a number cannot be added to a chapter without being checked.
A number right after "PyTorch", "Python", "version(s)" or "versión/versiones"
(PyTorch~1.13, la versión 2.5) is a version, not a computed number: skipped.

    check_claims.py --self-test   the numbers it finds and skips in sample prose
"""
import argparse
import collections
import decimal
import os
import re
import subprocess
import sys

NUMBER = re.compile(r"(?<![\w.\\])\d+(?:\{,\}\d{3})+(?![\d])|(?<![\w.\\])\d+\.\d+(?!\d|\.\d)")
LAYOUT = re.compile(r"\s*\\(?:textwidth|linewidth|columnwidth)|\s*(?:em|ex|pt|cm|mm|in)\b")
# a version: the number follows one of these words, with only spaces or ~ between
VERSION = re.compile(r"(?:\bPyTorch|\bPython|\b[Vv]ersions?|\b[Vv]ersi(?:ón|ones))"
                     r"(?:~|\\ |\s)+$")


def prose(path):
    """the documentation text of a noweb file, code chunks removed"""
    text, in_code = [], False
    for line in open(path, encoding="utf-8"):
        if re.match(r"<<.*>>=\s*$", line):
            in_code = True
        elif in_code and line.startswith("@") and (len(line) == 2 or line[1] in " \t\n"):
            in_code = False
            text.append(line[1:])
        elif not in_code:
            text.append(line)
    text = re.sub(r"\[\[.*?\]\]+", " ", "".join(text))      # drop [[code]] quotes
    return re.sub(r"(\d)\\,(?=\d{3})", r"\1{,}", text)       # 16\,384 is 16{,}384


def numbers_in(text):
    for m in NUMBER.finditer(text):
        if not LAYOUT.match(text, m.end()) and \
                not VERSION.search(text, max(0, m.start() - 40), m.start()):
            yield m.group(0)


# the numbers numbers_in must find in a line of prose (and so not skip)
SELF_TEST = [
    ("In PyTorch~1.13 the row is NaN; since PyTorch 2.5, zeros.", []),
    ("la versión 2.5 de PyTorch y las versiones 2.0 y 2.1", ["2.1"]),
    ("Python~3.11 and version 1.2, versions 0.5", []),
    ("PyTorch gives 0.3302 and 0.6698.", ["0.3302", "0.6698"]),
    ("the weight 0.9550 of version-free prose, 16{,}384 parameters", ["0.9550", "16{,}384"]),
    ("a width of 0.8\\textwidth, 2.5 cm", []),
]


def self_test():
    bad = [(text, list(numbers_in(text)), want) for text, want in SELF_TEST
           if list(numbers_in(text)) != want]
    for text, got, want in bad:
        print(f"claims self-test: in {text!r} found {got}, expected {want}")
    if not bad:
        print(f"claims self-test: versions after PyTorch, Python, version(s), versión(es) "
              f"are skipped, other numbers found ({len(SELF_TEST)} samples)")
    return 1 if bad else 0


def facts(path):
    """the key=value lines that PROGRAM --facts prints, as a dict"""
    run = subprocess.run([path, "--facts"], capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(f"{path} --facts exited with {run.returncode}: {run.stderr.strip()}")
    out = {}
    for n, line in enumerate(run.stdout.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, eq, value = line.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ValueError(f"{path} --facts, line {n}: {line!r} is not key=value")
        if key.strip() in out:
            raise ValueError(f"{path} --facts, line {n}: key {key.strip()} printed twice")
        out[key.strip()] = value.strip()
    return out


def values(dirs, sources):
    """the value of every source PROGRAM:KEY that can be found; problems"""
    out, problems, done = {}, [], set()
    for src in sources:
        program, colon, _ = src.partition(":")
        if not colon or program in done:
            continue
        done.add(program)
        found = [f"{d}/{program}" for d in dirs
                 if os.path.isfile(f"{d}/{program}") and os.access(f"{d}/{program}", os.X_OK)]
        if len(found) != 1:
            problems.append(f"no program {program} in {' '.join(dirs)}" if not found else
                            f"program {program} is in more than one place: {' '.join(found)}")
            continue
        try:
            for key, value in facts(found[0]).items():
                out[f"{program}:{key}"] = value
        except ValueError as e:
            problems.append(str(e))
    return out, problems


def agrees(literal, value, how):
    plain = literal.replace("{,}", "")
    try:
        v = decimal.Decimal(value)
    except decimal.InvalidOperation:
        return False
    if how == "int":
        return v == decimal.Decimal(plain)
    if how == "floor":
        return int(v) == int(plain)
    if how == "round":
        places = decimal.Decimal(1).scaleb(-len(plain.partition(".")[2]))
        return v.quantize(places, rounding=decimal.ROUND_HALF_EVEN) == decimal.Decimal(plain)
    raise ValueError(f"unknown comparison {how!r}")


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    args = argparse.ArgumentParser(description="check the chapters' numbers")
    args.add_argument("--dir", action="append", default=[], help="where facts programs are")
    args.add_argument("table")
    args.add_argument("nw_files", nargs="+")
    opts = args.parse_args(argv)
    table = opts.table
    rows = [line.rstrip("\n").split("\t") for line in open(table, encoding="utf-8")
            if line.strip() and not line.startswith("#")]
    bad = [r for r in rows if len(r) != 3 or ":" not in r[1]]
    if bad:
        for r in bad:
            print(f"claims: {table}: not 'literal<TAB>PROGRAM:KEY<TAB>comparison': {r}")
        return 1
    computed, failures = values(opts.dir, [r[1] for r in rows])
    for literal, source, how in rows:
        if source not in computed:
            failures.append(f"{literal}: no value for {source}")
        elif not agrees(literal, computed[source], how):
            failures.append(f"{literal}: the library computes {computed[source]} ({source}, {how})")
    texts = {path: prose(path) for path in opts.nw_files}
    listed = {r[0] for r in rows}
    by_edition = collections.defaultdict(set)
    for path, text in texts.items():
        edition = path.split("/")[-2]
        found = set(numbers_in(text))
        by_edition[edition] |= found | {lit for lit in listed
                                        if lit in text or lit.replace("{,}", "") in text}
        for lit in sorted(found - listed):
            failures.append(f"{path}: the number {lit} is stated but not in {table}")
    for edition, present in sorted(by_edition.items()):
        for lit in sorted(listed - present):
            failures.append(f"edition {edition}: {lit} from {table} does not appear in its prose")
    for f in failures:
        print("claims: " + f)
    print(f"claims: {len(rows)} numbers checked against the library in "
          f"{len(by_edition)} edition(s), {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
