#!/usr/bin/env python3
"""nw-quotes.py - a noweb filter for the PDF book: short quoted code in the
prose ([[out = A @ V]]) is never broken across two lines.

noweave prints the spaces of [[...]] as breakable spaces, so a piece like
"out = A @ V" could end one line with "out" and start the next with "= A @ V",
which reads as two statements. In a quote of at most MAX_CHARS characters,
this filter turns every space into \\wbnbsp{} (book/tools/workbook.sty: an
unbreakable typewriter space). Longer pieces (a whole call with its
arguments) keep their spaces, where workbook.sty makes a break cost dearly:
TeX breaks them only when nothing else fits.

    noweave -n -index -filter "python3 book/tools/nw-quotes.py" ...
"""
import sys

MAX_CHARS = 20      # a quarter of a line of the PDF's body text


def flush(quote, out):
    text = "".join(ln[len("@text "):].rstrip("\n") for ln in quote if ln.startswith("@text "))
    for ln in quote:
        if ln.startswith("@text ") and " " in ln[6:].rstrip("\n") and len(text) <= MAX_CHARS:
            parts = ln[6:].rstrip("\n").split(" ")
            for i, part in enumerate(parts):
                if i:
                    out.write("@literal \\wbnbsp{}\n")
                if part:
                    out.write("@text %s\n" % part)
        else:
            out.write(ln)


def main():
    quote = None
    for line in sys.stdin:
        if line.startswith("@quote"):
            sys.stdout.write(line)
            quote = []
        elif line.startswith("@endquote") and quote is not None:
            flush(quote, sys.stdout)
            quote = None
            sys.stdout.write(line)
        elif quote is not None:
            quote.append(line)
        else:
            sys.stdout.write(line)


if __name__ == "__main__":
    main()
