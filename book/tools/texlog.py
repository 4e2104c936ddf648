#!/usr/bin/env python3
"""Read the LaTeX log after latexmk: errors in full, undefined references fail.

    python3 texlog.py DIR STATUS

DIR holds workbook.log and latexmk.out; STATUS is latexmk's exit status.
Fails (exit 1) if STATUS is not 0, printing each LaTeX error with its context
(or latexmk's own last words), or if the final log still reports an
undefined or multiply defined reference, labels that have not settled, or a
PDF link to a destination that does not exist.
Overfull boxes do not fail: their count and first places are printed.
"""
import os
import re
import sys

FATAL = re.compile(r"LaTeX Warning: (Reference|Citation) .* undefined"
                   r"|There were undefined references"
                   r"|Label\(s\) may have changed"
                   r"|multiply[- ]defined"
                   r"|Package noweb Warning"
                   r"|pdfTeX warning \(dest\)")


def read(path):
    try:
        with open(path, encoding="latin-1") as f:
            return f.read().splitlines()
    except OSError:
        return []


def main():
    where, status = sys.argv[1], int(sys.argv[2])
    log = os.path.join(where, "workbook.log")
    lines = read(log)
    if status != 0:
        errors = [i for i, ln in enumerate(lines) if ln.startswith("!")]
        sys.stderr.write("error: LaTeX failed (%s):\n" % (log if errors else
                                                          os.path.join(where, "latexmk.out")))
        for i in errors:
            sys.stderr.write("\n".join(lines[i:i + 8]) + "\n")
        if not errors:
            sys.stderr.write("\n".join(read(os.path.join(where, "latexmk.out"))[-20:]) + "\n")
        sys.exit(1)
    bad = [ln for ln in lines if FATAL.search(ln)]
    if bad:
        sys.stderr.write("error: %s:\n  %s\n" % (log, "\n  ".join(bad)))
        sys.exit(1)
    overfull = [ln for ln in lines if ln.startswith("Overfull \\hbox")]
    if overfull:
        print("  note: %d overfull box(es) in %s (lines of body.tex):\n    %s"
              % (len(overfull), log, "\n    ".join(overfull[:5])))


if __name__ == "__main__":
    main()
