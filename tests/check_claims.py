#!/usr/bin/env python3
"""check_claims.py - the numbers the chapters state agree with the library.

usage: check_claims.py CLAIMS_TSV CLAIMS_PROGRAM FIGURE_BIN_DIR NW_FILE...

For every row of the table: the value is recomputed (by CLAIMS_PROGRAM or a
figure program's --facts) and compared with the literal, and the literal must
appear in the prose of every edition given, grouped as in the table (16{,}384),
with a thin space (16\\,384, the Spanish style) or, below 10 000, ungrouped
(3072). Then every decimal number and every grouped number in any edition's
prose must be in the table, so a number cannot be added to a chapter without
being checked.
"""
import collections
import decimal
import re
import subprocess
import sys

NUMBER = re.compile(r"(?<![\w.\\])\d+(?:\{,\}\d{3})+(?![\d])|(?<![\w.\\])\d+\.\d+(?![\d.])")
LAYOUT = re.compile(r"\s*\\(?:textwidth|linewidth|columnwidth)|\s*(?:em|ex|pt|cm|mm|in)\b")


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
        if not LAYOUT.match(text, m.end()):
            yield m.group(0)


def values(program, bin_dir, sources):
    out = {}
    run = subprocess.run([program], capture_output=True, text=True, check=True)
    for line in run.stdout.splitlines():
        key, value = line.split()
        out["claims:" + key] = value
    for src in sources:
        if src.startswith("facts:") and src not in out:
            _, prog, key = src.split(":")
            run = subprocess.run([f"{bin_dir}/{prog}", "--facts"], capture_output=True,
                                 text=True, check=True)
            for line in run.stdout.split():
                k, _, v = line.partition("=")
                out[f"facts:{prog}:{k}"] = v
    return out


def agrees(literal, value, how):
    plain = literal.replace("{,}", "")
    v = decimal.Decimal(value)
    if how == "int":
        return v == decimal.Decimal(plain)
    if how == "floor":
        return int(v) == int(plain)
    if how == "round":
        places = decimal.Decimal(1).scaleb(-len(plain.partition(".")[2]))
        return v.quantize(places, rounding=decimal.ROUND_HALF_EVEN) == decimal.Decimal(plain)
    raise ValueError(f"unknown comparison {how!r}")


def main(table, program, bin_dir, *nw_files):
    rows = [line.rstrip("\n").split("\t") for line in open(table, encoding="utf-8")
            if line.strip() and not line.startswith("#")]
    computed = values(program, bin_dir, [r[1] for r in rows])
    failures = []
    for literal, source, how in rows:
        if source not in computed:
            failures.append(f"{literal}: no value for {source}")
        elif not agrees(literal, computed[source], how):
            failures.append(f"{literal}: the library computes {computed[source]} ({source}, {how})")
    texts = {path: prose(path) for path in nw_files}
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
    sys.exit(main(*sys.argv[1:]))
