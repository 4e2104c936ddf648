#!/usr/bin/env python3
"""nw-ownuses.py - a noweb filter (after noidx): an identifier used only in the
chunk that defines it is indexed as used there, not as "never used".

noweb indexes a use only in a chunk other than the defining one, so a helper
defined and called in one chunk (a static function and the macro that calls
it; a macro used by the declarations after it) reads "never used" in the
chunk's notes and in the index. noidx still says where the identifier is used
(@index isused LABEL before @index defitem NAME): when that is only the
chunk's own label, this filter adds the use LaTeX needs for the index
(@literal \\nwindexuse{...}). An identifier also used elsewhere is left
as it is: its list of uses names those other chunks, as noweb's do.

    noweave -n -index -filter "python3 book/tools/nw-ownuses.py" ...
"""
import re
import sys


def main():
    label, isused, in_code, pending = None, [], False, []
    for line in sys.stdin:
        sys.stdout.write(line)
        if line.startswith("@begin code "):
            label, isused, in_code = None, [], True
        elif line.startswith("@end code "):
            in_code = False
        elif in_code and line.startswith("@xref label ") and label is None:
            label = line.split()[2]
        elif line.startswith("@index isused "):
            isused.append(line.split()[2])
        elif line.startswith("@index defitem "):
            name = line.rstrip("\n").split(" ", 2)[2]
            if label and isused == [label] and re.fullmatch(r"\w+", name):
                pending.append(name)
            isused = []
        elif line.startswith("@index enddefs"):
            # after the list (totex makes it an argument that LaTeX reads twice):
            # as noweb's totex writes them, _ is {\_} in the text, :un in the key
            for name in pending:
                sys.stdout.write("@literal \\nwindexuse{\\nwixident{%s}}{%s}{%s}\n"
                                 % (name.replace("_", "{\\_}"), name.replace("_", ":un"),
                                    label))
            pending = []

if __name__ == "__main__":
    main()
