#!/usr/bin/python3
"""grade.py - grade a class's labs with the learner's own harness, into a
grade book (CSV), JUnit XML, TAP and Gradescope's results.json.

    grade.py --config LABS.TSV --out DIR [--jobs N] [--labs '00 01']
             [--format all|csv|junit|tap|json|gradescope] [--stdout] [--quiet]
             class SUBMISSIONS_DIR        every entry: a folder, .zip, .tar.gz, .tgz or .tar
             one SUBMISSION               one folder or archive (Gradescope: /autograder/submission)
    grade.py hold-uids CMD [ARG...]       CMD holding a block of learners' uids (check-grade)

LABS.TSV is written by tools/grade/grade.mk from the labs' own make
variables (NN<TAB>key<TAB>value): for a C lab of the harness its judge and
the command that builds a driver from a learner's file (harness.mk's
lab_driver_cmd, with @SOURCE@ and @DIR@), for Lab 00 its checkers. So each
learner's file is built and judged by the commands of `make lab NN=...`.

How a learner is graded, and what the grader trusts:
  - the submission is read, never run in place: its folder is walked without
    following symbolic links, an archive is read member by member (no
    absolute path, no `..`, no link, size and count limits), and only the
    lab files are copied, into OUT/work/ID/labs/ (a scratch copy per learner;
    the repository's labs/ is never written);
  - every process that touches a learner's file runs, when the grader is root,
    as a uid of its own (one per learner and lab, from a block of uids that
    this run alone holds), with no capabilities, no new privileges, in a PID
    namespace of its own without network when the kernel allows it
    (tools/grade/sandbox.sh); its scratch folder is the only place of the
    grader's it can write;
  - the verdicts are the checkers' --summary lines only (read from the judge's
    stdout, where the learner's code cannot write), checked against the
    catalogue of the lab (every function, its number of checks) taken from the
    shipped skeleton; the checkers' --brief text is kept only as the
    explanation (`output`) of a failing function;
  - the reports hold no time and no absolute path, so grading the same class
    twice gives the same bytes; the times go to OUT/timing.txt.
"""
import concurrent.futures
import csv
import fcntl
import io
import json
import os
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
from xml.sax.saxutils import escape as xml_escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
SANDBOX = os.path.join(HERE, "sandbox.sh")
SANDBOX_RUN = os.path.join(HERE, "sandbox-run")

# ---- limits --------------------------------------------------------------------------------
MAX_FILE = 1 << 20            # one lab file: 1 MiB
MAX_ARCHIVE = 64 << 20        # an archive as submitted
MAX_UNPACKED = 256 << 20      # the sum of an archive's declared sizes
MAX_MEMBERS = 20000           # entries of an archive or a folder
MAX_DEPTH = 12                # folders deep
BUILD_TIMEOUT = 120           # seconds, one learner's file built
JUDGE_TIMEOUT = 600           # seconds, one checker run (the checkers have their own deadlines)
UID_BASE = int(os.environ.get("GRADE_UID_BASE", "1500000000"))
UIDS_PER_LEARNER = 128        # uid = base + learner * 128 + lab number; gid = base + learner * 128
UID_BLOCK = 1 << 24           # one run's uids (131,072 learners), see uid_block
UID_END = 0xffffffff          # (uid_t) -1 is no user: the kernel reads it as "unchanged"

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".zip")
LAB_STATES = ("done", "pending", "failing", "missing", "unreadable", "does not compile",
              "refused", "does not link", "error")


# ---- small helpers -------------------------------------------------------------------------
def clean_text(s, limit=None):
    """text fit for every report: valid UTF-8 (bad bytes as U+FFFD), no control
    character but newline and tab (XML 1.0 allows no other), no trailing spaces"""
    if isinstance(s, bytes):
        s = s.decode("utf-8", "replace")
    s = s.replace("\r\n", "\n").replace("\r", "\n")
    s = re.sub(r"[\x00-\x08\x0b-\x1f\x7f\ufffe\uffff\ud800-\udfff]", "\ufffd", s)
    lines = [l.rstrip() for l in s.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    s = "\n".join(lines)
    if limit and len(s) > limit:
        s = s[:limit].rstrip() + "\n[... cut: %d more characters]" % (len(s) - limit)
    return s


def cap_lines(s, n):
    lines = s.split("\n")
    if len(lines) > n:
        lines = lines[:n] + ["[... %d more lines]" % (len(lines) - n)]
    return "\n".join(lines)


def safe_id(name):
    import unicodedata
    name = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    i = re.sub(r"[^A-Za-z0-9._@+-]", "_", name).strip("._") or "learner"
    return i[:64]


def strip_archive_suffix(name):
    low = name.lower()
    for suf in ARCHIVE_SUFFIXES:
        if low.endswith(suf):
            return name[: -len(suf)], suf
    return name, None


# ---- the labs ------------------------------------------------------------------------------
class Lab:
    def __init__(self, nn):
        self.nn, self.kind, self.conf = nn, None, {}
        self.rows = []            # the catalogue: [(name, number of checks)]

    @property
    def files(self):
        """the learner's files of the lab, relative to labs/ (role, path)"""
        out = [("file", self.conf["file"])]
        if self.kind == "byhand" and "numpy" in self.conf:
            out.append(("numpy", self.conf["numpy"]))
        return [(r, p[len("labs/"):] if p.startswith("labs/") else p) for r, p in out]


def read_config(path, only):
    labs, repo = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            nn, key, value = line.rstrip("\n").split("\t", 2)
            if nn == "-":
                if key == "repo":
                    repo = value
                continue
            lab = labs.setdefault(nn, Lab(nn))
            if key == "kind":
                lab.kind = value
            else:
                lab.conf[key] = value
    if only:
        want = only.split()
        unknown = [n for n in want if n not in labs]
        if unknown:
            sys.exit("grade: no lab %s (the labs: %s)" % (" ".join(unknown), " ".join(sorted(labs))))
        labs = {n: l for n, l in labs.items() if n in want}
    return repo, [labs[n] for n in sorted(labs)]


# ---- the learners' uids --------------------------------------------------------------------
def processes():
    """(pid, [real, effective, saved, filesystem uid]) of every process there is"""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/status" % pid) as f:
                for line in f:
                    if line.startswith("Uid:"):
                        yield int(pid), [int(u) for u in line.split()[1:]]
                        break
        except OSError:
            pass


def uid_lock_dir():
    """the folder of the blocks' locks, root's alone: no one else can hold a
    block's lock or put a link in its place"""
    for d in ("/run/grade-uids", os.path.join(tempfile.gettempdir(), "grade-uids")):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass
        except OSError:
            continue          # no /run, or a read-only one: the temporary folder
        st = os.lstat(d)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o077:
            sys.exit("grade: %s, where runs take their blocks of uids, must be a folder of root's "
                     "alone (remove it: it is made again)" % d)
        return d
    sys.exit("grade: no folder for the runs' blocks of uids: /run/grade-uids cannot be made")


def uid_block():
    """this run's learners' uids, (first, end, lock): a block of UID_BLOCK uids
    from GRADE_UID_BASE that no other run holds (an flock of DIR/FIRST, kept
    until this process and those it passes the descriptor to end) and that no
    process uses (one a killed run left, or anyone's). So two runs at once never
    share a uid, and every process with one of them is this run's: killing a
    learner's leftovers by uid (Sandbox.sweep), or looking for them after the
    run, touches nothing else. GRADE_UIDS=FIRST-END: a block the caller holds
    (grade.py hold-uids)."""
    held = os.environ.get("GRADE_UIDS")
    if held:
        first, end = (int(u) for u in held.split("-"))
        return first, end, None
    if UID_BASE + UID_BLOCK > UID_END:
        sys.exit("grade: GRADE_UID_BASE=%d leaves no block of %d uids below %d"
                 % (UID_BASE, UID_BLOCK, UID_END))
    locks = uid_lock_dir()
    for first in range(UID_BASE, UID_END - UID_BLOCK + 1, UID_BLOCK):
        end = first + UID_BLOCK
        fd = os.open(os.path.join(locks, str(first)), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        if any(first <= u < end for _, uids in processes() for u in uids):
            os.close(fd)
            continue
        return first, end, fd
    sys.exit("grade: every block of %d uids from GRADE_UID_BASE=%d is another run's, or a process "
             "runs as one of its uids" % (UID_BLOCK, UID_BASE))


def hold_uids(cmd):
    """grade.py hold-uids CMD [ARG...]: CMD run holding a block of uids, named
    in GRADE_UIDS for the grade.py it starts. check-grade grades twice, then
    looks for its learners' processes: all in one block, which no other run
    can take in between"""
    if not cmd:
        sys.exit("usage: grade.py hold-uids CMD [ARG...]")
    if os.geteuid() == 0:
        first, end, fd = uid_block()
        if fd is not None:
            os.set_inheritable(fd, True)
        os.environ["GRADE_UIDS"] = "%d-%d" % (first, end)
    try:
        os.execvp(cmd[0], cmd)
    except OSError as e:
        sys.exit("grade: cannot run %s: %s" % (cmd[0], e.strerror))


# ---- the sandbox ---------------------------------------------------------------------------
class Sandbox:
    """how learners' processes run: 'ns' (own uid, PID and network namespace),
    'uid' (own uid only: containers that refuse namespaces), 'none' (not root)"""

    def __init__(self, repo, probe_paths):
        self.mode = "none"
        self.warning = None
        self.uids = (UID_BASE, UID_BASE + UID_BLOCK)
        if os.geteuid() != 0:
            self.warning = ("grade: not run as root, so the learners' code runs as you, with only the "
                            "harness's own confinement (fine for your own work; grade a class as root, "
                            "e.g. in a container)")
            return
        first, end, self.lock = uid_block()
        self.uids = (first, end)
        uid = first + UIDS_PER_LEARNER - 1
        test = ["sh", "-c", 'for f; do test -r "$f" || { echo "$f"; exit 1; }; done', "sh"] + probe_paths
        for mode in ("ns", "uid"):
            try:
                p = subprocess.run([SANDBOX, str(uid), str(uid)] + test, cwd=repo, capture_output=True,
                                   env=dict(self.env(), GRADE_SANDBOX=mode), timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if p.returncode == 0:
                self.mode = mode
                return
            if p.stdout.strip():
                sys.exit("grade: the learners' code runs as another user (uid %d), who cannot read %s: "
                         "put the repository and BUILD where every user can read them (chmod o+rX), "
                         "or set GRADE_UID_BASE" % (uid, p.stdout.decode().strip()))
        self.warning = "grade: setpriv cannot change user here: the learners' code runs as root, unconfined"

    @staticmethod
    def env():
        keep = {k: os.environ[k] for k in ("PATH", "CC", "TERM") if k in os.environ}
        return dict(keep, LANG="C.UTF-8", LC_ALL="C.UTF-8", LAB_LANG="en", HOME="/nonexistent",
                    TMPDIR="/tmp", PYTHONDONTWRITEBYTECODE="1")

    def cmd(self, uid, gid, argv):
        if self.mode == "none":
            return argv
        return [SANDBOX, str(uid), str(gid)] + argv

    def sweep(self, uid):
        """kill whatever is left running as uid (the 'uid' mode has no namespace to do it)"""
        if self.mode != "uid":
            return
        for _ in range(20):
            left = [pid for pid, uids in processes() if uids[0] == uid]
            if not left:
                return
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.05)


def limits():
    """resource limits for a learner's processes (set before the sandbox drops root)"""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    resource.setrlimit(resource.RLIMIT_CPU, (300, 300))
    os.setsid()


def run(argv, cwd, env, timeout, stdin=subprocess.DEVNULL):
    """run argv in a session of its own; (returncode or 'timeout', stdout, stderr)"""
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limits, close_fds=True)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = p.communicate()
    return rc, out[:4 << 20], err[:4 << 20]


# ---- reading a submission ------------------------------------------------------------------
class Entry:
    """one regular file (or a refused one) of a submission: parts of its path,
    and how to read it"""

    def __init__(self, parts, kind, read=None, size=0, why=None):
        self.parts, self.kind, self.read, self.size, self.why = parts, kind, read, size, why

    @property
    def path(self):
        return "/".join(self.parts)


def folder_entries(root, notes):
    entries = []
    count = 0

    def walk(d, parts):
        nonlocal count
        if len(parts) > MAX_DEPTH:
            notes.append("folders deeper than %d levels are not read" % MAX_DEPTH)
            return
        try:
            items = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as e:
            notes.append("cannot read the folder %s: %s" % ("/".join(parts) or ".", e.strerror))
            return
        for e in items:
            count += 1
            if count > MAX_MEMBERS:
                if count == MAX_MEMBERS + 1:
                    notes.append("more than %d entries: the rest is not read" % MAX_MEMBERS)
                return
            p = parts + [e.name]
            st = e.stat(follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                walk(e.path, p)
            elif stat.S_ISREG(st.st_mode):
                entries.append(Entry(p, "file", lambda path=e.path: read_regular(path), st.st_size))
            elif stat.S_ISLNK(st.st_mode):
                entries.append(Entry(p, "refused", why="is a symbolic link (not followed)"))
            else:
                entries.append(Entry(p, "refused", why="is not a regular file"))
    walk(root, [])
    return entries


def read_regular(path):
    """a regular file's bytes, without following a link or blocking on a FIFO"""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        with os.fdopen(fd, "rb") as f:
            fd = None
            return f.read(MAX_FILE + 1)
    finally:
        if fd is not None:
            os.close(fd)


def member_parts(name, notes):
    """the parts of an archive member's path, or None (with a note) if unsafe"""
    n = name.replace("\\", "/")
    if n.startswith("/") or re.match(r"^[A-Za-z]:", n):
        notes.append("archive entry %r has an absolute path: ignored" % name[:80])
        return None
    parts = [p for p in n.split("/") if p not in ("", ".")]
    if ".." in parts:
        notes.append("archive entry %r leads out of the archive (..): ignored" % name[:80])
        return None
    return parts


def archive_entries(path, suffix, notes):
    size = os.lstat(path).st_size
    if size > MAX_ARCHIVE:
        notes.append("the archive is %d MiB, more than %d MiB: not read" % (size >> 20, MAX_ARCHIVE >> 20))
        return []
    entries, declared = [], 0
    if suffix == ".zip":
        try:
            z = zipfile.ZipFile(path)
            infos = z.infolist()
        except (zipfile.BadZipFile, OSError, ValueError) as e:
            notes.append("not a readable .zip archive (%s)" % e)
            return []
        for i, zi in enumerate(infos):
            if i >= MAX_MEMBERS:
                notes.append("more than %d entries in the archive: the rest is not read" % MAX_MEMBERS)
                break
            parts = member_parts(zi.filename, notes)
            if parts is None or zi.is_dir() or not parts:
                continue
            mode = zi.external_attr >> 16
            if stat.S_ISLNK(mode):
                entries.append(Entry(parts, "refused", why="is a symbolic link in the archive (not followed)"))
                continue
            if zi.flag_bits & 0x1:
                entries.append(Entry(parts, "refused", why="is encrypted in the archive"))
                continue
            declared += zi.file_size
            if declared > MAX_UNPACKED:
                notes.append("the archive unpacks to more than %d MiB: the rest is not read" % (MAX_UNPACKED >> 20))
                break

            def read(zi=zi):
                with z.open(zi) as f:
                    return f.read(MAX_FILE + 1)
            entries.append(Entry(parts, "file", read, zi.file_size))
    else:
        try:
            t = tarfile.open(path, "r:*")
        except (tarfile.TarError, OSError, EOFError) as e:
            notes.append("not a readable %s archive (%s)" % (suffix, e))
            return []
        try:
            for i, m in enumerate(t):
                if i >= MAX_MEMBERS:
                    notes.append("more than %d entries in the archive: the rest is not read" % MAX_MEMBERS)
                    break
                parts = member_parts(m.name, notes)
                if parts is None or m.isdir() or not parts:
                    continue
                if m.issym() or m.islnk():
                    entries.append(Entry(parts, "refused", why="is a link in the archive (not followed)"))
                    continue
                if not m.isreg():
                    entries.append(Entry(parts, "refused", why="is not a regular file"))
                    continue
                declared += m.size
                if declared > MAX_UNPACKED:
                    notes.append("the archive unpacks to more than %d MiB: the rest is not read"
                                 % (MAX_UNPACKED >> 20))
                    break
                data = t.extractfile(m).read(MAX_FILE + 1) if m.size <= MAX_FILE else None
                entries.append(Entry(parts, "file", (lambda d=data: d) if data is not None
                                     else (lambda: b"\0" * (MAX_FILE + 1)), m.size))
        except (tarfile.TarError, OSError, EOFError, zlib_error()) as e:
            notes.append("the archive is damaged (%s): read up to there" % e)
    return entries


def zlib_error():
    import zlib
    return zlib.error


def find_file(entries, rel):
    """the entry of a lab file (rel: 'lab01-qkv/qkv.c'), and a note when it is
    not where it belongs: labs/REL or REL at the top; else any .../labNN-*/FILE;
    else a lone FILE anywhere"""
    labdir, base = rel.split("/")[0], rel.split("/")[-1]
    nn = re.match(r"(lab[0-9]+)", labdir).group(1)
    usable = [e for e in entries if "__MACOSX" not in e.parts and not any(p.startswith(".") for p in e.parts[:-1])]
    tiers = [
        [e for e in usable if e.parts in (["labs"] + rel.split("/"), rel.split("/"))],
        [e for e in usable if len(e.parts) >= 2 and e.parts[-1] == base
         and (e.parts[-2] == labdir or e.parts[-2].startswith(nn + "-"))],
        [e for e in usable if e.parts[-1] == base],
    ]
    for t, found in enumerate(tiers):
        if not found:
            continue
        found.sort(key=lambda e: (len(e.parts), e.parts))
        e = found[0]
        note = None
        if t > 0:
            note = "labs/%s taken from %s" % (rel, e.path)
        if len(found) > 1 and (t == 2 or len(found[1].parts) == len(e.parts)):
            note = "%d files could be labs/%s: took %s" % (len(found), rel, e.path)
        return e, note
    return None, None


def encoding_problem(data):
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "is UTF-16 (it starts with a byte-order mark): save it as UTF-8"
    if b"\0" in data:
        return "holds NUL bytes (UTF-16 without a byte-order mark, or not text): save it as UTF-8"
    return None


# ---- a learner -----------------------------------------------------------------------------
class Learner:
    def __init__(self, ident, source, index, uid_base):
        self.id, self.source, self.index, self.uid_base = ident, source, index, uid_base
        self.notes = []
        self.files = {}           # rel -> ('ok'|'missing'|'unreadable', scratch path or None, note)
        self.labs = {}            # nn -> result dict
        self.seconds = 0.0
        self.work = None

    @property
    def gid(self):
        return self.uid_base + self.index * UIDS_PER_LEARNER

    def uid(self, lab):
        return self.gid + 1 + int(lab.nn) % (UIDS_PER_LEARNER - 1)


def prepare(learner, labs, out, sandbox):
    """copy the learner's lab files into OUT/work/ID/labs/ (the scratch copy)"""
    notes = learner.notes
    src = learner.source
    name = os.path.basename(src.rstrip("/"))
    try:
        st = os.lstat(src)
    except OSError as e:
        notes.append("cannot be read: %s" % e.strerror)
        st = None
    entries = []
    if st is None:
        pass
    elif stat.S_ISDIR(st.st_mode):
        entries = folder_entries(src, notes)
    elif stat.S_ISREG(st.st_mode) and strip_archive_suffix(name)[1]:
        entries = archive_entries(src, strip_archive_suffix(name)[1].lower(), notes)
    elif stat.S_ISLNK(st.st_mode):
        notes.append("is a symbolic link: not followed")
    else:
        notes.append("is neither a folder nor a .zip, .tar.gz, .tgz or .tar archive: nothing to grade")
    work = os.path.join(out, "work", learner.id)
    if os.path.lexists(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "labs"))
    os.makedirs(os.path.join(work, "build"))
    learner.work = work
    used = set()
    for lab in labs:
        for role, rel in lab.files:
            e, note = find_file(entries, rel)
            if e is None:
                learner.files[rel] = ("missing", None, "labs/%s is not in the submission: its checks are pending" % rel)
                continue
            used.add(e.path)
            if note:
                notes.append(note)
            if e.kind == "refused":
                learner.files[rel] = ("unreadable", None, "labs/%s %s" % (rel, e.why))
                continue
            try:
                data = e.read()
            except (OSError, zipfile.BadZipFile, RuntimeError, EOFError, ValueError) as x:
                learner.files[rel] = ("unreadable", None, "labs/%s cannot be read (%s)" % (rel, x))
                continue
            if len(data) > MAX_FILE:
                learner.files[rel] = ("unreadable", None, "labs/%s is larger than %d KiB: not graded"
                                      % (rel, MAX_FILE >> 10))
                continue
            bad = encoding_problem(data)
            if bad:
                learner.files[rel] = ("unreadable", None, "labs/%s %s" % (rel, bad))
                continue
            warn = None
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as x:
                warn = "labs/%s is not valid UTF-8 (byte %d; Latin-1?): graded as it is" % (rel, x.start)
            dest = os.path.join(work, "labs", rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(data)
            learner.files[rel] = ("ok", dest, warn)
    # extra top-level folders (archives and folders alike): said once
    if entries:
        tops = sorted({e.parts[0] for e in entries if len(e.parts) > 1})
        useful = {p.split("/")[0] for p in used}
        extra = [t for t in tops if t not in useful and t not in ("labs", "harness")
                 and not re.match(r"^lab[0-9][0-9]", t)]
        if extra:
            notes.append("ignored: %s" % ", ".join(t + "/" for t in extra[:5])
                         + (" and %d more" % (len(extra) - 5) if len(extra) > 5 else ""))
    # ownership: the learner's files readable by every lab of this learner (group), written by none;
    # each lab's build folder its own (see Learner.uid)
    if sandbox.mode != "none":
        for d, dirs, files in os.walk(work):
            os.chown(d, 0, learner.gid)
            os.chmod(d, 0o750)
            for f in files:
                os.chown(os.path.join(d, f), 0, learner.gid)
                os.chmod(os.path.join(d, f), 0o640)
    for lab in labs:
        b = os.path.join(work, "build", "lab" + lab.nn)
        os.makedirs(b, exist_ok=True)
        if sandbox.mode != "none":
            os.chown(b, learner.uid(lab), learner.gid)
            os.chmod(b, 0o700)


# ---- checking one lab ----------------------------------------------------------------------
SUMMARY_RE = re.compile(r"^([^\t ][^\t]*)\t([0-9]+)\t([0-9]+)\t([0-9]+)$")


def parse_summary(text, expect):
    """the rows of a --summary, checked against the catalogue's (name, total)
    list expect; (rows by name, problem or None)"""
    rows, problem = {}, None
    totals = dict(expect)
    for line in text.decode("utf-8", "replace").split("\n"):
        if not line:
            continue
        m = SUMMARY_RE.match(line)
        if not m:
            problem = "the checker's summary has a line that is not a summary line"
            continue
        name, p, a, f = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        if name not in totals:
            problem = "the checker's summary names %r, which the lab does not have" % name[:40]
        elif name in rows:
            problem = "the checker's summary names %s twice" % name
        elif p + a + f != totals[name]:
            problem = "the checker's summary counts %d checks for %s, not %d" % (p + a + f, name, totals[name])
        else:
            rows[name] = (p, a, f)
    return rows, problem


class Job:
    def __init__(self, learner, lab, ctx):
        self.learner, self.lab, self.ctx = learner, lab, ctx

    def scrub(self, text):
        """a checker's text with the scratch folder's and the repository's paths taken out"""
        s = clean_text(text)
        work, out, repo = self.learner.work, self.ctx.out, self.ctx.repo
        # absolute, and as the tools print them from the repository (the build's cwd)
        for prefix in (work, out, os.path.relpath(work, repo), os.path.relpath(out, repo), repo):
            s = s.replace(prefix + "/", "")
        return s

    def sandboxed(self, argv, timeout, cwd=None):
        c = self.ctx
        uid = self.learner.uid(self.lab)
        env = dict(c.env, GRADE_SANDBOX=c.sandbox.mode)
        try:
            return run(c.sandbox.cmd(uid, self.learner.gid, argv), cwd or c.repo, env, timeout)
        finally:
            c.sandbox.sweep(uid)

    def result(self, status, rows, note=None, outputs=None):
        return {"status": status, "rows": rows, "notes": [n for n in [note] if n], "outputs": outputs or {}}

    def all_rows(self, names, state):
        """every row of names as pending ('pending') or failed (anything else)"""
        cat = dict(self.lab.rows)
        return {n: (cat[n], 0, 0) if state == "pending" else (0, 0, cat[n]) for n in names}

    def go(self):
        t0 = time.monotonic()
        try:
            r = self.harness() if self.lab.kind == "harness" else self.byhand()
        except Exception as e:           # a bug of the grader's: this lab only
            names = [n for n, _ in self.lab.rows]
            r = self.result("error", self.all_rows(names, "error"), "the grader failed on this lab: %r" % e)
        r["seconds"] = time.monotonic() - t0
        return r

    # -- a C lab of the harness
    def harness(self):
        lab, L = self.lab, self.learner
        names = [n for n, _ in lab.rows]
        rel = lab.files[0][1]
        state, path, note = L.files[rel]
        if state != "ok":
            return self.result("missing" if state == "missing" else "unreadable",
                               self.all_rows(names, "pending" if state == "missing" else "failed"), note)
        notes = [note] if note else []
        d = os.path.join(L.work, "build", "lab" + lab.nn)
        cmd = lab.conf["build"].replace("@SOURCE@", shlex.quote(path)).replace("@DIR@", shlex.quote(d))
        rc, out, err = self.sandboxed(["sh", "-c", cmd], BUILD_TIMEOUT)
        if rc != 0:
            text = self.scrub(out) or self.scrub(err)
            if rc == "timeout":
                status, text = "does not compile", "building it took more than %d s: stopped" % BUILD_TIMEOUT
            elif "does not compile" in text:
                status = "does not compile"
            elif "the harness refuses it" in text:
                status = "refused"
            elif "does not link" in text:
                status = "does not link"
            else:
                status = "does not compile"
            text = cap_lines(re.sub(r"\n*\(The compiler's full output is in [^)]*\)", "", text), 12)
            r = self.result(status, self.all_rows(names, "failed"), None)
            r["notes"] = notes + [text]
            return r
        judge = [lab.conf["judge"], "--driver", os.path.join(d, "driver"), "--lang=en"]
        rc, out, err = self.sandboxed(judge + ["--summary"], JUDGE_TIMEOUT)
        rows, problem = parse_summary(out, lab.rows)
        if rc != 0 or problem or set(rows) != set(names):
            why = problem or ("the judge stopped (%s)" % ("after %d s" % JUDGE_TIMEOUT if rc == "timeout"
                                                         else "status %s" % rc))
            tail = cap_lines(self.scrub(err), 6)
            r = self.result("error", self.all_rows(names, "failed"), why + (": " + tail if tail else ""))
            r["notes"] = notes + r["notes"]
            return r
        outputs = {}
        if any(f for _, _, f in rows.values()):
            rc2, text, _ = self.sandboxed(judge + ["--brief"], JUDGE_TIMEOUT)
            outputs = split_harness_text(self.scrub(text), names)
        r = self.result(lab_state(rows), rows, None, outputs)
        r["notes"] = notes
        return r

    # -- Lab 00: the hand tables, then NumPy
    def byhand(self):
        lab, L, c = self.lab, self.learner, self.ctx
        hand_names = [n for n, _ in lab.rows if not n.startswith("numpy:")]
        np_names = [n for n, _ in lab.rows if n.startswith("numpy:")]
        rows, notes, outputs, broken = {}, [], {}, None
        rel = lab.files[0][1]
        state, path, note = L.files[rel]
        answers_ok = False
        if note:
            notes.append(note)
        if state != "ok":
            rows.update(self.all_rows(hand_names, "pending" if state == "missing" else "failed"))
            broken = None if state == "missing" else "unreadable"
        else:
            check = [lab.conf["check"], "--lang=en"]
            rc, out, err = self.sandboxed(check + ["--summary", path], JUDGE_TIMEOUT)
            got, problem = parse_summary(out, [r for r in lab.rows if r[0] in hand_names])
            if rc == 2 and not got:
                broken = "unreadable"
                notes.append(cap_lines(self.scrub(err) or "labs/%s cannot be checked" % rel, 8))
                rows.update(self.all_rows(hand_names, "failed"))
            elif problem or set(got) != set(hand_names) or rc not in (0, 1):
                broken = "error"
                notes.append(problem or "the checker stopped (status %s)" % rc)
                rows.update(self.all_rows(hand_names, "failed"))
            else:
                answers_ok = True
                rows.update(got)
                if any(f for _, _, f in got.values()):
                    _, text, _ = self.sandboxed(check + ["--brief", path], JUDGE_TIMEOUT)
                    outputs.update(split_table_text(self.scrub(text), got, hand_names, ""))
        if np_names:
            rel = lab.files[1][1]
            state, path, note = L.files[rel]
            if note:
                notes.append(note)
            if state != "ok":
                rows.update(self.all_rows(np_names, "pending" if state == "missing" else "failed"))
                broken = broken or (None if state == "missing" else "unreadable")
            else:
                cmd = shlex.split(lab.conf["npcheck"])
                if answers_ok:
                    cmd = [L.files[lab.files[0][1]][1] if a == "@ANSWERS@" else a for a in cmd]
                else:             # the NumPy part stands alone: no hand tables to compare
                    i = cmd.index("@ANSWERS@")
                    del cmd[i - 1:i + 1]
                cmd += ["--lang=en", "--launcher", SANDBOX_RUN]
                env = dict(c.env, GRADE_SANDBOX=c.sandbox.mode, GRADE_SANDBOX_UID=str(L.uid(lab)),
                           GRADE_SANDBOX_GID=str(L.gid))
                try:
                    rc, out, err = run(cmd + ["--summary", path], c.repo, env, JUDGE_TIMEOUT)
                finally:
                    c.sandbox.sweep(L.uid(lab))
                got, problem = parse_summary(out, [r for r in lab.rows if r[0] in np_names])
                if problem or set(got) != set(np_names):
                    broken = broken or "error"
                    notes.append(problem or "the NumPy checker stopped (status %s): %s"
                                 % (rc, cap_lines(self.scrub(err), 6)))
                    rows.update(self.all_rows(np_names, "failed"))
                else:
                    rows.update(got)
                    if any(f for _, _, f in got.values()):
                        try:
                            _, text, _ = run(cmd + ["--brief", path], c.repo, env, JUDGE_TIMEOUT)
                        finally:
                            c.sandbox.sweep(L.uid(lab))
                        outputs.update(split_table_text(self.scrub(text), got, np_names, "numpy:"))
        r = self.result(broken or lab_state(rows), rows, None, outputs)
        r["notes"] = notes
        if not broken and all(L.files[rel][0] == "missing" for _, rel in lab.files):
            r["status"] = "missing"
        return r


def lab_state(rows):
    p = sum(r[0] for r in rows.values())
    f = sum(r[2] for r in rows.values())
    return "failing" if f else "pending" if p else "done"


def split_harness_text(text, names):
    """the judge's --brief text cut into one piece per function: each block
    starts with a line '  WORD  function, ...' (FAIL, HANG, CRASH, OUTPUT, ...)"""
    pieces, cur = {}, None
    head = re.compile(r"^  [A-Z]+ +(%s)[,:]" % "|".join(re.escape(n) for n in names))
    for line in text.split("\n"):
        m = head.match(line)
        if m:
            cur = m.group(1)
        elif line.startswith("function ") or re.match(r"^lab [0-9]+: ", line):
            cur = None            # the judge's closing table and line
        if cur:
            pieces.setdefault(cur, []).append(line)
    return {n: cap_lines(clean_text("\n".join(v)), 80)[:8000] for n, v in pieces.items()}


def split_table_text(text, rows, names, prefix):
    """Lab 00's --brief text: the whole text for the first failing step of the
    part, the step's own table line for the others"""
    failing = [n for n in names if rows[n][2]]
    out = {}
    for i, n in enumerate(failing):
        if i == 0:
            out[n] = cap_lines(text, 80)[:8000]
        else:
            step = n[len(prefix):]
            line = next((l.strip() for l in text.split("\n")
                         if l.startswith("  [%s]" % step)), "")
            out[n] = ("%s\n(the whole report is under %s)" % (line, failing[0])).strip()
    return out


# ---- the catalogue: every function of every lab and its number of checks -------------------
def shipped(repo, rel, dest):
    """the lab file as shipped: git's committed version when there is one, else the file"""
    data = None
    try:
        p = subprocess.run(["git", "-C", repo, "show", "HEAD:./" + rel], capture_output=True, timeout=30)
        if p.returncode == 0:
            data = p.stdout
    except (OSError, subprocess.TimeoutExpired):
        pass
    if data is None:
        with open(os.path.join(repo, rel), "rb") as f:
            data = f.read()
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as f:
        f.write(data)


def catalogue(ctx, labs):
    """run each lab on its shipped files (the grader's own, trusted) and keep
    the names and numbers of checks of its summary"""
    base = os.path.join(ctx.out, "catalogue")
    if os.path.lexists(base):
        shutil.rmtree(base)
    for lab in labs:
        d = os.path.join(base, "lab" + lab.nn)
        os.makedirs(d)
        files = {}
        for role, rel in lab.files:
            files[role] = os.path.join(base, "labs", rel)
            shipped(ctx.repo, "labs/" + rel, files[role])
        env = ctx.env
        if lab.kind == "harness":
            cmd = lab.conf["build"].replace("@SOURCE@", shlex.quote(files["file"])).replace("@DIR@", shlex.quote(d))
            rc, out, err = run(["sh", "-c", cmd], ctx.repo, env, BUILD_TIMEOUT)
            if rc != 0:
                sys.exit("grade: lab %s: the shipped %s does not build:\n%s" % (lab.nn, lab.conf["file"],
                                                                              clean_text(out + err)))
            rc, out, err = run([lab.conf["judge"], "--driver", os.path.join(d, "driver"), "--summary"],
                               ctx.repo, env, JUDGE_TIMEOUT)
        else:
            rc, out, err = run([lab.conf["check"], "--summary", files["file"]], ctx.repo, env, JUDGE_TIMEOUT)
            if "npcheck" in lab.conf:
                cmd = [files["file"] if a == "@ANSWERS@" else a for a in shlex.split(lab.conf["npcheck"])]
                rc2, out2, err2 = run(cmd + ["--summary", files["numpy"]], ctx.repo, env, JUDGE_TIMEOUT)
                out += out2
                err += err2
        rows = []
        for line in out.decode("utf-8", "replace").split("\n"):
            m = SUMMARY_RE.match(line)
            if m:
                rows.append((m.group(1), int(m.group(2)) + int(m.group(3)) + int(m.group(4))))
        if not rows:
            sys.exit("grade: lab %s: no summary from its checker on the shipped files:\n%s"
                     % (lab.nn, clean_text(err)))
        lab.rows = rows


# ---- the reports ---------------------------------------------------------------------------
def lab_title(nn):
    return "lab" + nn


def totals(learner, labs):
    p = a = f = 0
    for lab in labs:
        for n, _ in lab.rows:
            r = learner.labs[lab.nn]["rows"][n]
            p, a, f = p + r[0], a + r[1], f + r[2]
    return p, a, f


def learner_notes(learner, labs):
    out = list(learner.notes)
    for lab in labs:
        for n in learner.labs[lab.nn]["notes"]:
            out.append("lab %s: %s" % (lab.nn, n))
    return out


def write_csv(learners, labs):
    """the grade book: one row per learner; per function the checks passed, per
    lab passed/failed/pending and its state, then the totals and the notes;
    the first row after the header ('(checks)') gives each column's maximum"""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    head = ["learner"]
    for lab in labs:
        head += ["%s %s" % (lab.nn, n) for n, _ in lab.rows]
        head += ["%s passed" % lab.nn, "%s failed" % lab.nn, "%s pending" % lab.nn, "%s status" % lab.nn]
    head += ["passed", "failed", "pending", "checks", "percent", "notes"]
    w.writerow(head)
    maxrow = ["(checks)"]
    allchecks = 0
    for lab in labs:
        n = sum(t for _, t in lab.rows)
        allchecks += n
        maxrow += [t for _, t in lab.rows] + [n, "", "", ""]
    w.writerow(maxrow + [allchecks, "", "", allchecks, "100.0", ""])
    for L in learners:
        row = [L.id]
        for lab in labs:
            r = L.labs[lab.nn]
            row += [r["rows"][n][1] for n, _ in lab.rows]
            row += [sum(x[1] for x in r["rows"].values()), sum(x[2] for x in r["rows"].values()),
                    sum(x[0] for x in r["rows"].values()), r["status"]]
        p, a, f = totals(L, labs)
        notes = " | ".join(" / ".join(l.strip() for l in n.split("\n") if l.strip())
                           for n in learner_notes(L, labs))
        row += [a, f, p, allchecks, "%.1f" % (100.0 * a / allchecks if allchecks else 0), notes]
        w.writerow(row)
    return buf.getvalue()


def case_output(L, lab, name):
    r = L.labs[lab.nn]
    p, a, f = r["rows"][name]
    n = p + a + f
    text = r["outputs"].get(name, "")
    if r["status"] in ("missing", "unreadable", "does not compile", "refused", "does not link", "error"):
        text = "\n".join(r["notes"]) or r["status"]
    return p, a, f, n, text


def case_message(status, p, a, f, n):
    if status in ("unreadable", "does not compile", "refused", "does not link", "error"):
        return "not checked: the lab %s" % ("file " + status if status == "unreadable" else status)
    if status == "missing":
        return "pending: the file is not in the submission"
    if f:
        return "the check fails" if n == 1 else "%d of %d checks fail (%d pass, %d pending)" % (f, n, a, p)
    if p:
        return "the check is pending" if n == 1 else "%d of %d checks pending (%d pass)" % (p, n, a)
    return "the check passes" if n == 1 else "all %d checks pass" % n


def write_junit(learners, labs):
    """JUnit XML: <testsuites> / one <testsuite> per learner and lab / one
    <testcase> per function or step (classname LEARNER.labNN); a failing one
    has <failure>, a pending one <skipped>, one of a lab that could not be
    checked (file unreadable, not compiling, refused) <error>"""
    suites = []
    T = F = E = S = 0
    for L in learners:
        for lab in labs:
            r = L.labs[lab.nn]
            cases, t, fl, er, sk = [], 0, 0, 0, 0
            for name, _ in lab.rows:
                p, a, f, n, text = case_output(L, lab, name)
                msg = case_message(r["status"], p, a, f, n)
                t += 1
                attrs = "name=%s classname=%s" % (quoteattr(name), quoteattr("%s.%s" % (L.id, lab_title(lab.nn))))
                if r["status"] in ("unreadable", "does not compile", "refused", "does not link", "error"):
                    er += 1
                    body = "<error message=%s type=%s>%s</error>" % (quoteattr(msg), quoteattr(r["status"]),
                                                                      xml_escape(text))
                elif f:
                    fl += 1
                    body = "<failure message=%s type=\"failed\">%s</failure>" % (quoteattr(msg), xml_escape(text))
                elif p:
                    sk += 1
                    body = "<skipped message=%s/>" % quoteattr(msg)
                else:
                    body = None
                cases.append("    <testcase %s%s" % (attrs, ("/>" if body is None else ">\n      %s\n    </testcase>" % body)))
            props = ""
            notes = (L.notes if lab is labs[0] else []) + r["notes"]
            if notes:
                props = "    <system-out>%s</system-out>\n" % xml_escape("\n".join(notes))
            suites.append("  <testsuite name=%s tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n%s\n%s  </testsuite>"
                          % (quoteattr("%s.%s" % (L.id, lab_title(lab.nn))), t, fl, er, sk, "\n".join(cases), props))
            T, F, E, S = T + t, F + fl, E + er, S + sk
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<testsuites name="the attention workbook" tests="%d" failures="%d" errors="%d" skipped="%d">\n%s\n</testsuites>\n'
            % (T, F, E, S, "\n".join(suites)))


def yaml_block(text, indent):
    return "\n".join(indent + l if l else indent.rstrip() for l in text.split("\n"))


def write_tap(learners, labs):
    """TAP version 13: one test point per learner, lab and function; pending
    checks are `# TODO`, a failure's explanation is a YAML block"""
    points = []
    for L in learners:
        for lab in labs:
            r = L.labs[lab.nn]
            for name, _ in lab.rows:
                p, a, f, n, text = case_output(L, lab, name)
                msg = case_message(r["status"], p, a, f, n)
                desc = "%s %s %s" % (L.id, lab_title(lab.nn), name)
                broken = r["status"] in ("unreadable", "does not compile", "refused", "does not link", "error")
                if broken or f:
                    line = "not ok %d - %s" % (len(points) + 1, desc)
                elif p:
                    line = "not ok %d - %s # TODO %s" % (len(points) + 1, desc, msg)
                else:
                    line = "ok %d - %s" % (len(points) + 1, desc)
                if broken or f:
                    y = ["  ---", "  message: %s" % json.dumps(msg, ensure_ascii=False),
                         "  severity: %s" % ("error" if broken else "fail"),
                         "  data: {pending: %d, passed: %d, failed: %d, status: %s}"
                         % (p, a, f, json.dumps(r["status"]))]
                    if text:
                        y += ["  output: |", yaml_block(text, "    ")]
                    y.append("  ...")
                    line += "\n" + "\n".join(y)
                points.append(line)
    return "TAP version 13\n1..%d\n%s\n" % (len(points), "\n".join(points))


def gradescope(L, labs):
    """Gradescope's results.json for one learner: a test per function or step,
    its score the checks passed, its max_score the checks it has"""
    tests = []
    for lab in labs:
        r = L.labs[lab.nn]
        for i, (name, _) in enumerate(lab.rows):
            p, a, f, n, text = case_output(L, lab, name)
            msg = case_message(r["status"], p, a, f, n)
            tests.append({"name": "Lab %s: %s" % (lab.nn, name), "number": "%s.%d" % (lab.nn, i + 1),
                          "score": a, "max_score": n,
                          "status": "passed" if a == n else "failed",
                          "output": msg + ("\n\n" + text if text else ""),
                          "visibility": "visible"})
    p, a, f = totals(L, labs)
    notes = learner_notes(L, labs)
    summary = "%d of %d checks pass, %d fail, %d pending." % (a, a + f + p, f, p)
    return {"score": a, "output": summary + ("\n\n" + "\n".join(notes) if notes else ""),
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}


def write_json(L, labs):
    return json.dumps(gradescope(L, labs), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_atomic(path, text):
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


# ---- the run -------------------------------------------------------------------------------
class Context:
    pass


class Progress:
    def __init__(self, total, on):
        self.total, self.done, self.on, self.t0 = total, 0, on, time.monotonic()
        self.lock = threading.Lock()
        self.draw()

    def step(self):
        with self.lock:
            self.done += 1
            self.draw()

    def draw(self):
        if not self.on:
            return
        width = 30
        k = width * self.done // max(self.total, 1)
        sys.stdout.write("\r  grading [%s%s] %d/%d labs  %.0f s " % ("#" * k, "." * (width - k), self.done,
                                                                  self.total, time.monotonic() - self.t0))
        sys.stdout.flush()

    def end(self):
        if self.on:
            sys.stdout.write("\r" + " " * 70 + "\r")
            sys.stdout.flush()


def submissions(path, mode):
    if mode == "one":
        name = os.path.basename(os.path.abspath(path))
        return [(strip_archive_suffix(name)[0], path)]
    try:
        names = sorted(n for n in os.listdir(path) if not n.startswith("."))
    except OSError as e:
        sys.exit("grade: cannot read %s: %s" % (path, e.strerror))
    return [(strip_archive_suffix(n)[0], os.path.join(path, n)) for n in names]


def main(argv):
    if argv[:1] == ["hold-uids"]:
        return hold_uids(argv[1:])
    import argparse
    ap = argparse.ArgumentParser(prog="grade.py")
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--labs", default="")
    ap.add_argument("--format", default="all", choices=["all", "csv", "junit", "tap", "json", "gradescope"])
    ap.add_argument("--stdout", action="store_true", help="print the one report on stdout")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--id", default=None, help="the learner's name (mode one)")
    ap.add_argument("mode", choices=["class", "one"])
    ap.add_argument("path")
    a = ap.parse_args(argv)
    t_start = time.monotonic()

    ctx = Context()
    repo, labs = read_config(a.config, a.labs)
    ctx.repo = os.path.abspath(repo)
    # OUT and the submissions as the caller named them (check-grade's repo is a copy elsewhere)
    ctx.out = os.path.abspath(a.out)
    path = os.path.abspath(a.path)
    os.chdir(ctx.repo)
    os.makedirs(ctx.out, exist_ok=True)
    ctx.env = Sandbox.env()
    probe = [os.path.join(ctx.repo, "labs/harness/build-driver.sh")]
    for lab in labs:
        probe += [os.path.abspath(lab.conf[k]) for k in ("judge", "check") if k in lab.conf]
    ctx.sandbox = Sandbox(ctx.repo, probe)
    if ctx.sandbox.warning and not a.quiet:
        print(ctx.sandbox.warning, file=sys.stderr)
    os.chmod(ctx.out, 0o755)
    catalogue(ctx, labs)

    subs = submissions(path, a.mode)
    learners, seen = [], set()
    for i, (name, src) in enumerate(subs):
        ident = a.id or safe_id(name)
        base, k = ident, 2
        while ident in seen:
            ident, k = "%s-%d" % (base, k), k + 1
        seen.add(ident)
        L = Learner(ident, src, i, ctx.sandbox.uids[0])
        if ident != name and not a.id:
            L.notes.append("submitted as %r" % os.path.basename(src))
        learners.append(L)
    if not learners:
        sys.exit("grade: %s holds no submission (one folder, .zip or .tar.gz per learner)" % a.path)
    first, end = ctx.sandbox.uids
    if len(learners) * UIDS_PER_LEARNER > end - first:
        sys.exit("grade: %d learners, more than a run's %d uids give: grade them in parts"
                 % (len(learners), end - first))
    work = os.path.join(ctx.out, "work")
    if os.path.lexists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    if ctx.sandbox.mode != "none":
        os.chmod(work, 0o711)

    jobs = max(1, a.jobs)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda L: prepare(L, labs, ctx.out, ctx.sandbox), learners))
        progress = Progress(len(learners) * len(labs), sys.stdout.isatty() and not a.quiet and not a.stdout)
        futures = {}
        for L in learners:
            for lab in labs:
                fut = pool.submit(Job(L, lab, ctx).go)
                fut.add_done_callback(lambda _: progress.step())
                futures[fut] = (L, lab)
        for fut in concurrent.futures.as_completed(futures):
            L, lab = futures[fut]
            r = fut.result()
            L.labs[lab.nn] = r
            L.seconds += r["seconds"]
        progress.end()

    # the reports: only from what was parsed above
    reports = {}
    fmt = a.format
    if fmt in ("all", "csv"):
        reports["gradebook.csv"] = write_csv(learners, labs)
    if fmt in ("all", "junit"):
        reports["junit.xml"] = write_junit(learners, labs)
    if fmt in ("all", "tap"):
        reports["results.tap"] = write_tap(learners, labs)
    if fmt in ("all", "json", "gradescope"):
        if a.mode == "one":
            reports["results.json"] = write_json(learners[0], labs)
        else:
            for L in learners:
                reports[os.path.join("gradescope", L.id, "results.json")] = write_json(L, labs)
    if a.stdout:
        for text in reports.values():
            sys.stdout.write(text)
    else:
        for rel, text in reports.items():
            dest = os.path.join(ctx.out, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            write_atomic(dest, text)
    # the times: never in the reports
    elapsed = time.monotonic() - t_start
    slow = sorted(learners, key=lambda L: -L.seconds)[:5]
    timing = ["graded %d learner%s x %d lab%s in %.1f s (%d job%s in parallel, sandbox: %s%s)"
              % (len(learners), "s" * (len(learners) != 1), len(labs), "s" * (len(labs) != 1), elapsed,
                 jobs, "s" * (jobs != 1), ctx.sandbox.mode,
                 ", uids %d-%d" % (first, first + len(learners) * UIDS_PER_LEARNER - 1)
                 if ctx.sandbox.mode != "none" else ""),
              "slowest: " + ", ".join("%s %.1f s" % (L.id, L.seconds) for L in slow)]
    write_atomic(os.path.join(ctx.out, "timing.txt"), "\n".join(timing) + "\n")
    if not a.quiet and not a.stdout:
        p = a_ = f = 0
        for L in learners:
            x = totals(L, labs)
            p, a_, f = p + x[0], a_ + x[1], f + x[2]
        for line in timing:
            print(line)
        print("checks: %d passed, %d failed, %d pending; reports in %s: %s"
              % (a_, f, p, ctx.out, ", ".join(sorted(reports)[:4])
                 + (", ..." if len(reports) > 4 else "")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
