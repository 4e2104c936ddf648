#!/usr/bin/python3
"""make-class.py OUT - the class that check-grade grades, in OUT: a copy of
tests/grade/class/ (the learners who hand in a folder), plus the learners who
hand in an archive, made here from tests/grade/archives/ so that nothing
binary is committed (every archive is made the same way, byte for byte):

  eve.zip      her work nested two folders deep, with __MACOSX/ and notes/
               beside it, a 2 MiB numpy_attention.py (over the size limit),
               and two unsafe entries: ../escape.txt and /tmp/grade-absolute.txt
  fay.tar.gz   the layout without labs/ (lab01-qkv/qkv.c at the top); her
               answers.txt is a symbolic link to /etc/passwd, and a hard link
               points at ../../outside
  hal.rar      not an archive the grader reads: a clear line, nothing graded

and the learners' work on Labs 02 to 04, made here from the harness's own
self-test subjects (tests/labs/labNN/), each a single file with the
subject's local headers written into it, as a learner's file would be:

  ana          every lab solved; bob: sdpa without the row maximum;
  carla        mha_split_heads still pending; dan: the causal mask
               transposed; gus: the merge as a reshape; mallory-hang: an
               endless loop in mha_forward; mallory-forge: a call of exit,
               refused; zoë: sdpa with the maximum of the whole matrix
"""
import io
import os
import re
import shutil
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
if os.path.lexists(out):
    shutil.rmtree(out)
shutil.copytree(os.path.join(HERE, "class"), out, symlinks=True)
DATE = (2024, 1, 1, 0, 0, 0)
SUBJECTS = os.path.join(HERE, "..", "labs")
FROM_SUBJECTS = [   # the learner's file in the class, the subject it is made from
    ("ana/labs/lab02-sdpa/sdpa.c", "lab02/solution.c"),
    ("ana/labs/lab03-mha/mha.c", "lab03/solution.c"),
    ("ana/labs/lab04-masking/mask.c", "lab04/solution.c"),
    ("bob/lab02-sdpa/sdpa.c", "lab02/m-sdpa-no-max.c"),
    ("carla/labs/lab03-mha/mha.c", "lab03/p-split-pending.c"),
    ("dan/labs/lab04-masking/mask.c", "lab04/m-causal-transposed.c"),
    ("gus/labs/lab03-mha/mha.c", "lab03/m-merge-reshape.c"),
    ("mallory-hang/labs/lab03-mha/mha.c", "lab03/r-hang.c"),
    ("mallory-forge/labs/lab04-masking/mask.c", "lab04/r-exit.c"),
    ("zoë garcía/labs/lab02-sdpa/sdpa.c", "lab02/es-global-max.c"),
]


def single_file(path, seen):
    """path's text with each #include "X" of its own folder written in, once"""
    text = []
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\s*#include "([^"]+)"', line)
        inc = m and os.path.join(os.path.dirname(path), m.group(1))
        if inc and os.path.exists(inc):
            if inc not in seen:
                seen.add(inc)
                text.append(single_file(inc, seen))
            continue
        text.append(line)
    return "".join(text)


for rel, subject in FROM_SUBJECTS:
    dest = os.path.join(out, rel)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w", encoding="utf-8") as f:
        f.write(single_file(os.path.join(SUBJECTS, subject), set()))


def files(root):
    for d, dirs, names in sorted(os.walk(root)):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            yield os.path.relpath(p, root), open(p, "rb").read()


with zipfile.ZipFile(os.path.join(out, "eve.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for rel, data in files(os.path.join(HERE, "archives", "eve")):
        z.writestr(zipfile.ZipInfo(rel, DATE), data)
    z.writestr(zipfile.ZipInfo("eve-submission/workbook/labs/lab00-by-hand/numpy_attention.py", DATE),
               b"# " + b"x" * (2 << 20) + b"\n")
    z.writestr(zipfile.ZipInfo("../escape.txt", DATE), b"outside\n")
    z.writestr(zipfile.ZipInfo("/tmp/grade-absolute.txt", DATE), b"absolute\n")

buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
    def add(info, data=None):
        info.mtime, info.uid, info.gid, info.uname, info.gname = 1704067200, 0, 0, "", ""
        t.addfile(info, io.BytesIO(data) if data is not None else None)
    for rel, data in files(os.path.join(HERE, "archives", "fay")):
        i = tarfile.TarInfo(rel)
        i.size, i.mode = len(data), 0o644
        add(i, data)
    i = tarfile.TarInfo("lab00-by-hand/answers.txt")
    i.type, i.linkname = tarfile.SYMTYPE, "/etc/passwd"
    add(i)
    i = tarfile.TarInfo("lab00-by-hand/numpy_attention.py")
    i.type, i.linkname = tarfile.LNKTYPE, "../../outside"
    add(i)
import gzip
with open(os.path.join(out, "fay.tar.gz"), "wb") as f:
    f.write(gzip.compress(buf.getvalue(), mtime=0))

with open(os.path.join(out, "hal.rar"), "wb") as f:
    f.write(b"Rar!\x1a\x07\x00 not really\n")
