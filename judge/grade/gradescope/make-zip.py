#!/usr/bin/python3
"""make-zip.py OUT.zip [LABS] [--worktree] - the autograder zip for Gradescope:
the workbook as committed (git archive HEAD; --worktree: the files git does
not ignore, as they are in the working tree, for the self-test), with setup.sh and
run_autograder at the top, where Gradescope looks for them (it unpacks the zip
into /autograder/source), and grade-labs.txt: the labs graded (LABS, e.g.
'02' or '01 02'; all of them when empty), which run_autograder passes on as
GRADE_LABS."""
import io
import os
import re
import subprocess
import sys
import tarfile
import zipfile

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if a != "--worktree"]
worktree = "--worktree" in sys.argv[1:]
if not args:
    sys.exit("usage: make-zip.py OUT.zip [LABS] [--worktree]")
out, labs = args[0], (args[1] if len(args) > 1 else "").replace(",", " ").split()
DATE = (2024, 1, 1, 0, 0, 0)


def committed():
    """(path, mode, bytes) of every file of the workbook"""
    if worktree:
        names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                               capture_output=True, check=True).stdout
        for n in sorted(n.decode() for n in names.split(b"\0") if n):
            if os.path.isfile(n) and not os.path.islink(n):
                with open(n, "rb") as f:
                    yield n, os.stat(n).st_mode & 0o777, f.read()
        return
    tar = subprocess.run(["git", "archive", "--format=tar", "HEAD"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        for m in t:
            if m.isreg():
                yield m.name, m.mode, t.extractfile(m).read()


files = list(committed())
have = sorted({m.group(1) for n, _, _ in files for m in [re.match(r"labs/lab([0-9]{2})-[^/]+/", n)] if m})
labs = [l.zfill(2) for l in labs]
unknown = [l for l in labs if l not in have]
if unknown:
    sys.exit("gradescope: GRADE_LABS=%s: no lab %s (the labs: %s)" % (" ".join(labs), " ".join(unknown),
                                                                     " ".join(have)))
setup = [(n, 0o755, open(os.path.join(here, n), "rb").read())
         for n in ("setup.sh", "run_autograder")]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name, mode, data in files + setup + [("grade-labs.txt", 0o644, " ".join(labs) + "\n")]:
        zi = zipfile.ZipInfo(name, DATE)
        zi.external_attr = (mode | 0o100000) << 16
        z.writestr(zi, data)
print("gradescope: %s grades %s (upload it as the autograder; Ubuntu or Debian base image)"
      % (out, "lab%s %s" % ("s" * (len(labs) != 1), " and ".join(labs)) if labs else "every lab"))
