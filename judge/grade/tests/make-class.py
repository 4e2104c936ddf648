#!/usr/bin/python3
"""make-class.py [--size N] LAB00 OUT [REPO...] - the class that check-grade grades, in OUT: a
copy of judge/grade/tests/class/ (the hostile Lab 00 learners and gus's link),
and the rest made here, so that nothing binary is committed and every archive
is made the same way, byte for byte. A C file is made from the labs' own
self-test subjects (judge/labNN/subjects/, Lab 00's generated ones in LAB00,
`make build/labs/lab00/selftest/subjects`) as a single file with the
subject's local headers written into it, as a learner's file would be; Lab
01's learners who solve it (ana, eve, and with one slip bob, dan, fay,
mallory-hang) start from judge/lab01/subjects/base.h as solution.c uses it
(the MUTANT_ blocks resolved, none defined). The learners' work:

  ana          every lab solved; bob: A's columns summed to 1, S = K Q^T in
               NumPy, W_K packed for W_Q, sdpa without the row maximum;
  carla        the untouched answers.txt, only qkv_pack written (in the
               shipped skeleton), mha_split_heads still pending; dan:
               answers.txt in UTF-16, a NumPy syntax error, a missing
               semicolon, the causal mask transposed, a decoding step that
               attends before it caches the token; gus: the merge as a
               reshape, qkv.c a symbolic link; mallory-hang: an endless loop
               in attention_param_count and in mha_forward; mallory-forge: a
               forged summary printed by every function of Lab 01's skeleton,
               a call of exit, refused; zoë: answers.txt in Latin-1, sdpa with
               the maximum of the whole matrix
  eve.zip      her work nested two folders deep, with __MACOSX/ and notes/
               beside it, a 2 MiB numpy_attention.py (over the size limit),
               and two unsafe entries: ../escape.txt and /tmp/grade-absolute.txt
  fay.tar.gz   the layout without labs/ (lab01-qkv/qkv.c at the top); her
               answers.txt is a symbolic link to /etc/passwd, and a hard link
               points at ../../outside
  hal.rar      not an archive the grader reads: a clear line, nothing graded
  abe/, abe.zip
               the same learner twice: one row, the folder graded, flagged
  ivan         a folder whose lab folder's name is Latin-1 bytes (b"Pr\xe1ctica 1",
               not UTF-8), and a file name with control characters
  l\xe9a        a learner whose own folder's name is Latin-1 (b"l\xe9a")
  jo.zip       a Windows zip: names in CP437 (b"Pr\xa0ctica 1/"), no UTF-8 flag
  kim          near-miss names: labs/lab01-qkv/qkv (1).c, lab02-sdpa/SDPA.C,
               lab03-mha/mha.c.txt, and lab04.zip (a zip inside the folder) that
               holds lab04-masking/mask.c
  lex.tar.gz   600 entries with an absolute path, 20 names longer than 1024
               bytes, a folder named with control characters: the notes stay short
  hana         labs/lab00-by-hand/answers.txt is a hard link to a file outside
               the class (OUT.secret, 0600): never read
  nell         Lab 02 is the book's sdpa.c (tangled/minimodel/attention/sdpa.c),
               its #include lines made a learner's: legal, and the similarity
               report shows it

and the hostile learners who test the sandbox (mallory-fork, -hang and -write
in Lab 00: class/*/labs/lab00-by-hand/numpy_attention.py say what they try):

  mallory-copy   Lab 02: #includes a classmate's file or the book's sdpa.c
                 (the repository's absolute paths are REPO..., given by
                 check.sh); if none can be read, an #error says so
  mallory-escape Lab 02: softmax_row asks for memory without bound (and writes
                 it), then keeps it (a hang, whatever the machine); sdpa forks
                 and creates /tmp/grade-PWNED-c with raw system calls
"""
import gzip
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATE = (2024, 1, 1, 0, 0, 0)
SUBJECTS = os.path.join(HERE, "..", "..")


def single_file(path, seen, lines=None):
    """path's text (or lines, as if at path) with each #include "X" of its own
    folder written in, once"""
    text = []
    for line in lines if lines is not None else open(path, encoding="utf-8"):
        m = re.match(r'\s*#include "([^"]+)"', line)
        inc = m and os.path.join(os.path.dirname(path), m.group(1))
        if inc and os.path.exists(inc):
            if inc not in seen:
                seen.add(inc)
                text.append(single_file(inc, seen))
            continue
        text.append(line)
    return "".join(text)


args = sys.argv[1:]
if args[:1] == ["--single"]:        # make-class.py --single FILE: FILE as one file, on stdout
    sys.stdout.write(single_file(args[1], set()))
    sys.exit(0)
size = None
if args[:1] == ["--size"]:          # a class of N: the honest learners copied (ana-2, ...) to make it up
    size, args = int(args[1]), args[2:]
lab00, out = args[0], args[1]
repos = args[2:] + [os.path.dirname(os.path.dirname(os.path.dirname(HERE)))]
if os.path.lexists(out):
    shutil.rmtree(out)
shutil.copytree(os.path.join(HERE, "class"), out, symlinks=True)


def read(path):
    return open(path, encoding="utf-8").read()


def write(rel, data):
    """data (text: UTF-8) at OUT/rel (a name of bytes or text)"""
    dest = os.path.join(out.encode(), rel if isinstance(rel, bytes) else rel.encode())
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def subject(rel):
    return single_file(os.path.join(SUBJECTS, rel), set())


def solved_qkv():
    """base.h as solution.c compiles it: #ifdef MUTANT_ blocks dropped, #ifndef kept"""
    text, keep = [], [True]
    for line in open(os.path.join(SUBJECTS, "lab01", "subjects", "base.h"), encoding="utf-8"):
        if line.startswith(("#ifdef MUTANT_", "#ifndef MUTANT_")):
            keep.append(keep[-1] and line.startswith("#ifndef"))
        elif line.startswith("#else") and len(keep) > 1:
            keep[-1] = keep[-2] and not keep[-1]
        elif line.startswith("#endif") and len(keep) > 1:
            keep.pop()
        elif keep[-1]:
            text.append(line)
    return "".join(text)


def slip(text, old, new):
    """text with old (found once) made new: one learner's mistake"""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def shipped(rel):
    """the lab file as shipped: git's HEAD version (as grade.py takes it), else the file"""
    p = subprocess.run(["git", "-C", repos[-1], "show", "HEAD:./" + rel], capture_output=True)
    return p.stdout.decode() if p.returncode == 0 else read(os.path.join(repos[-1], rel))


QKV = solved_qkv()
SKELETON = shipped("labs/lab01-qkv/qkv.c")
TODO = "    LAB_TODO();\n"
PACK = """    MM_NEED_BUFFER(w_qkv);
    MM_NEED_BUFFER(w_q);
    MM_NEED_BUFFER(w_k);
    MM_NEED_BUFFER(w_v);
    MM_NEED_POSITIVE(d_model);
    MM_NEED_POSITIVE(d_k);
    MM_NEED_POSITIVE(d_v);
    int width = 2 * d_k + d_v;
    for (int i = 0; i < d_model; i++) {
        double *row = w_qkv + (size_t)i * width;
        for (int j = 0; j < d_k; j++) row[j] = w_q[(size_t)i * d_k + j];
        for (int j = 0; j < d_k; j++) row[d_k + j] = w_k[(size_t)i * d_k + j];
        for (int j = 0; j < d_v; j++) row[2 * d_k + j] = w_v[(size_t)i * d_v + j];
    }
    return MM_OK;
"""    # carla's qkv_pack, the body she wrote (her file has nothing else of ours)
FORGE = r"""#include <stdio.h>

/* forge - print what a judge would print for a perfect file: --summary lines
 * and the report's table and closing line, on stdout and on stderr */
static void forge(void)
{
    static const char *lines =
        "qkv_project\t0\t7\t0\nqkv_pack\t0\t7\t0\nqkv_split\t0\t7\t0\n"
        "qkv_project_fused\t0\t7\t0\nattention_param_count\t0\t8\t0\n"
        "function                    pending     passed     failed\n"
        "total                             0         36          0\n"
        "lab 01: All 36 checks pass: Lab 01 (the Q, K, V projections) is done.\n";
    fputs(lines, stdout);
    fflush(stdout);
    fputs(lines, stderr);
}
"""
CORRECT = read(os.path.join(lab00, "correct-2dp.txt"))
NUMPY = os.path.join(SUBJECTS, "lab00", "subjects", "numpy")
MADE = {   # the learner's file in the class: its text (str: UTF-8) or bytes
    "ana/labs/lab00-by-hand/answers.txt": CORRECT,
    "ana/labs/lab00-by-hand/numpy_attention.py": read(os.path.join(NUMPY, "solution.py")),
    "ana/labs/lab01-qkv/qkv.c": QKV,
    "ana/labs/lab02-sdpa/sdpa.c": subject("lab02/subjects/solution.c"),
    "ana/labs/lab03-mha/mha.c": subject("lab03/subjects/solution.c"),
    "ana/labs/lab04-masking/mask.c": subject("lab04/subjects/solution.c"),
    "ana/labs/lab05-speed/fast.c": subject("lab05/subjects/solution.c"),
    "bob/lab00-by-hand/answers.txt": read(os.path.join(lab00, "a-columns.txt")),
    "bob/lab00-by-hand/numpy_attention.py": read(os.path.join(lab00, "numpy", "s-kq.py")),
    "bob/lab01-qkv/qkv.c": slip(QKV, "row[j] = w_q[", "row[j] = w_k["),
    "bob/lab02-sdpa/sdpa.c": subject("lab02/subjects/m-sdpa-no-max.c"),
    "carla/labs/lab00-by-hand/answers.txt": read(os.path.join(lab00, "untouched.txt")),
    "carla/labs/lab01-qkv/qkv.c": slip(SKELETON, "*w_v, int d_model, int d_k, int d_v)\n{\n" + TODO,
                                       "*w_v, int d_model, int d_k, int d_v)\n{\n" + PACK),
    "carla/labs/lab03-mha/mha.c": subject("lab03/subjects/p-split-pending.c"),
    "dan/labs/lab00-by-hand/answers.txt": b"\xff\xfe" + CORRECT.encode("utf-16-le"),
    "dan/labs/lab00-by-hand/numpy_attention.py": read(os.path.join(lab00, "numpy", "syntax-error.py")),
    "dan/labs/lab01-qkv/qkv.c": slip(QKV, "    int width = 2 * d_k + d_v;\n    for (int i",
                                     "    int width = 2 * d_k + d_v\n    for (int i"),
    "dan/labs/lab04-masking/mask.c": subject("lab04/subjects/m-causal-transposed.c"),
    "dan/labs/lab05-speed/fast.c": subject("lab05/subjects/m-decode-attend-first.c"),
    "gus/labs/lab03-mha/mha.c": subject("lab03/subjects/m-merge-reshape.c"),
    "mallory-forge/labs/lab01-qkv/qkv.c": slip(SKELETON, '#include "lab.h"\n', '#include "lab.h"\n'
                                               + FORGE).replace(TODO, "    forge();\n" + TODO),
    "mallory-forge/labs/lab04-masking/mask.c": subject("lab04/subjects/r-exit.c"),
    "mallory-hang/labs/lab01-qkv/qkv.c": slip(QKV, "int n_heads)\n{\n", "int n_heads)\n{\n    for (volatile "
                                              "int spin = 1; spin; ) { }    /* mallory-hang: never returns */\n"),
    "mallory-hang/labs/lab03-mha/mha.c": subject("lab03/subjects/r-hang.c"),
    "zoë garcía/labs/lab00-by-hand/answers.txt":
        slip(CORRECT, "atención a mano\n", "atención a mano (Zoë García)\n").encode("latin-1"),
    "zoë garcía/labs/lab02-sdpa/sdpa.c": subject("lab02/subjects/es-global-max.c"),
}
for rel, text in MADE.items():
    write(rel, text)


def zipped(dest, members):
    with zipfile.ZipFile(os.path.join(out, dest), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, DATE), data)


def tar_gz(dest, form, members):
    """OUT/dest, a .tar.gz of members (name, data, or (type, link name) for a link)"""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=form) as t:
        for name, data in members:
            i = tarfile.TarInfo(name)
            i.mtime = 1704067200
            if isinstance(data, tuple):
                i.type, i.linkname = data
                t.addfile(i)
            else:
                i.size = len(data)
                t.addfile(i, io.BytesIO(data))
    write(dest, gzip.compress(buf.getvalue(), mtime=0))


def windows_zip(dest, members):
    """a zip as Windows makes it: names (bytes) in the OEM code page, no UTF-8
    flag; stored, written by hand (zipfile would set the flag)"""
    body, central = b"", b""
    for name, data in members:
        crc = zlib.crc32(data)
        head = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 0, 0, 0x5821, crc, len(data), len(data),
                           len(name), 0)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 0, 0, 0x5821, crc, len(data),
                               len(data), len(name), 0, 0, 0, 0, 0, len(body)) + name
        body += head + name + data
    end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, len(members), len(members), len(central), len(body), 0)
    write(dest, body + central + end)


qkv = QKV.encode()
zipped("eve.zip", [("__MACOSX/eve-submission/._qkv.c", b"Mac resource fork\n"),
                   ("eve-submission/workbook/labs/lab00-by-hand/answers.txt",
                    open(os.path.join(SUBJECTS, "lab00", "subjects", "correct-4dp.txt"), "rb").read()),
                   ("eve-submission/workbook/labs/lab01-qkv/qkv.c", qkv),
                   ("notes/todo.txt", b"my notes: finished lab 01 on Sunday\n"),
                   ("eve-submission/workbook/labs/lab00-by-hand/numpy_attention.py",
                    b"# " + b"x" * (2 << 20) + b"\n"),
                   ("../escape.txt", b"outside\n"), ("/tmp/grade-absolute.txt", b"absolute\n")])
head = "const double *w_v, int T, int d_model, int d_k, int d_v)\n{\n"     # qkv_project's
tar_gz("fay.tar.gz", tarfile.USTAR_FORMAT,
       [("lab01-qkv/qkv.c", slip(QKV, head, head + "    q[0] = 0;    /* fay: writes q before checking it: "
                                 "a crash when q is NULL */\n").encode()),
        ("lab00-by-hand/answers.txt", (tarfile.SYMTYPE, "/etc/passwd")),
        ("lab00-by-hand/numpy_attention.py", (tarfile.LNKTYPE, "../../outside"))])
write("hal.rar", b"Rar!\x1a\x07\x00 not really\n")

# ---- the learners who test names, duplicates and limits -------------------------------------
write("abe/labs/lab01-qkv/qkv.c", qkv)
zipped("abe.zip", [("labs/lab01-qkv/qkv.c", b"this is not C\n")])
write(b"ivan/Pr\xe1ctica 1/lab01-qkv/qkv.c", qkv)
write(b"ivan/notes\x07\x1b[31m.txt", b"a stray file\n")
write(b"ivan/tmp\x01dir/x.txt", b"a stray folder\n")
write(b"l\xe9a/labs/lab01-qkv/qkv.c", qkv)
# a Windows zip: CP437 names (0xA0 is a-acute), no UTF-8 flag
windows_zip("jo.zip", [(b"Pr\xa0ctica 1/labs/lab02-sdpa/sdpa.c",
                        subject("lab02/subjects/solution.c").encode())])
write("kim/labs/lab01-qkv/qkv (1).c", qkv)
write("kim/lab02-sdpa/SDPA.C", subject("lab02/subjects/solution.c"))
write("kim/lab03-mha/mha.c.txt", subject("lab03/subjects/solution.c"))
zipped("kim/lab04.zip", [("lab04-masking/mask.c", subject("lab04/subjects/solution.c"))])
tar_gz("lex.tar.gz", tarfile.GNU_FORMAT,
       [("labs/lab01-qkv/qkv.c", qkv)]
       + [("/tmp/grade-absolute-%d.txt" % k, b"absolute\n") for k in range(600)]
       + [("deep/" + ("n%02d" % k) * 400 + ".txt", b"long\n") for k in range(20)]
       + [("odd\x01\x1b[2Jname\x7f/readme.txt", b"control characters\n")])

# a hard link to a file outside the class, which only root can read
secret = out.rstrip("/") + ".secret"
with open(secret, "w") as f:
    f.write("SECRET-ANSWERS-NOT-TO-BE-SHOWN\n")
os.chmod(secret, 0o600)
os.makedirs(os.path.join(out, "hana", "labs", "lab00-by-hand"))
os.link(secret, os.path.join(out, "hana", "labs", "lab00-by-hand", "answers.txt"))
write("hana/labs/lab01-qkv/qkv.c", qkv)

# the book's sdpa.c, as a learner would copy it
book = read(os.path.join(repos[-1], "tangled", "minimodel", "attention", "sdpa.c"))
book = book.replace('#include "sdpa.h"', '#include "minimodel/attention/sdpa.h"')
book = book.replace('#include "../core/matrix.h"', '#include "minimodel/core/matrix.h"')
write("nell/labs/lab02-sdpa/sdpa.c", book)

# ---- the hostile learners who test the sandbox -----------------------------------------------
copy = ["/* mallory-copy: hands in someone else's sdpa, if the build can read one */\n"]
targets = []
for r in repos:
    targets.append(os.path.join(os.path.abspath(r), "tangled/minimodel/attention/sdpa.c"))
targets += ["../../../ana/labs/lab02-sdpa/sdpa.c", "../../../bob/lab02-sdpa/sdpa.c",
            "minimodel/attention/sdpa.c", "../tangled/minimodel/attention/sdpa.c",
            "tangled/minimodel/attention/sdpa.c"]
for i, t in enumerate(targets):
    copy.append('#%s __has_include("%s")\n#include "%s"\n' % ("if" if i == 0 else "elif", t, t))
copy.append('#else\n#error "nothing to copy: the sandbox holds"\n#endif\n')
write("mallory-copy/labs/lab02-sdpa/sdpa.c", "".join(copy))

escape = r"""/* mallory-escape: softmax_row asks for memory without bound, writes it and keeps it;
 * sdpa forks and creates /tmp/grade-PWNED-c with raw system calls (no C
 * library function that the harness would refuse) */
#define MUTANT_softmax_row
#define MUTANT_sdpa
#include "base.h"
#include <string.h>

static long raw(long n, long a, long b, long c)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}

mm_status softmax_row(double *s, int n)
{
    for (;;) {
        char *p = malloc((size_t)64 << 20);
        if (!p) break;
        memset(p, 1, (size_t)64 << 20);
    }
    for (volatile int spin = 1; spin; ) {}              /* and keeps it */
    double m = s[0], sum = 0.0;
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = s[j];
    for (int j = 0; j < n; j++) sum += (s[j] = exp(s[j] - m));
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}

mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    raw(57, 0, 0, 0);                                   /* fork */
    raw(2, (long)"/tmp/grade-PWNED-c", 0101, 0644);     /* open(O_WRONLY | O_CREAT) */
    return MM_OK;
}
"""
write("mallory-escape/labs/lab02-sdpa/sdpa.c",
      single_file(os.path.join(SUBJECTS, "lab02", "subjects", "x.c"), set(), escape.splitlines(True)))

if size:
    honest = ["ana", "bob", "carla", "dan", "gus", "ivan", "kim", "nell"]
    k = 2
    while len(os.listdir(out)) < size:
        for h in honest:
            if len(os.listdir(out)) >= size:
                break
            shutil.copytree(os.path.join(out, h), os.path.join(out, "%s-%d" % (h, k)), symlinks=True)
        k += 1
