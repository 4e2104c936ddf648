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
"""
import io
import os
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
