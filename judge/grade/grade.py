#!/usr/bin/python3
"""grade.py - grade a class's labs with the learner's own harness, into a
grade book (CSV), JUnit XML, TAP, Gradescope's results.json, GitHub
Classroom's results, and a similarity report.

    grade.py --config LABS.TSV --out DIR [--work DIR] [--jobs N] [--labs '00 01']
             [--seed N] [--similarity PERCENT|off] [--isolation auto|ns|uid|none]
             [--format all|csv|junit|tap|json|gradescope|classroom] [--stdout] [--quiet]
             [--keep-work] [--id NAME] [--shipped REV]
             class SUBMISSIONS_DIR        every entry: a folder, .zip, .tar.gz, .tgz or .tar
             one SUBMISSION               one folder or archive (Gradescope: /autograder/submission)
    grade.py hold-uids CMD [ARG...]       CMD holding a block of learners' uids (check-grade)

LABS.TSV (NN<TAB>key<TAB>value) is written by grade.mk from the labs' own
make variables, so each learner's file is built and judged by the commands of
`make lab NN=...`. How a learner is graded and what the grader trusts: the
module docstrings of submission.py (reading a submission) and reports.py
(every field bounded), Sandbox and Job below, and README.md (Isolation).
"""
import sys
sys.dont_write_bytecode = True
import atexit
import concurrent.futures
import fcntl
import glob
import os
import re
import resource
import selectors
import shlex
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
import types

import reports
from reports import clean_text, cap_lines
import submission as sub

HERE = os.path.dirname(os.path.abspath(__file__))
SANDBOX = os.path.join(HERE, "sandbox.sh")
LAUNCHER = os.path.join(HERE, "sandbox-run")

# ---- limits --------------------------------------------------------------------------------
BUILD_TIMEOUT = 120           # seconds, one learner's file built
JUDGE_TIMEOUT = 600           # seconds, one checker run (the checkers have their own deadlines)
OUTPUT_CAP = 1 << 20          # bytes kept of a process's stdout and of its stderr
UID_BASE = int(os.environ.get("GRADE_UID_BASE", "1500000000"))
UIDS_PER_LEARNER = 128        # uid = base + learner * 128 + lab number; gid = base + learner * 128
UID_BLOCK = 1 << 24           # one run's uids (131,072 learners), see uid_block
UID_END = 0xffffffff          # (uid_t) -1 is no user: the kernel reads it as "unchanged"

# what a run writes in OUT: removed first, so that nothing of an earlier run stays
OUTPUTS = ("gradebook.csv", "junit.xml", "results.tap", "results.json", "similarity.csv",
           "timing.txt", "summary.md", "gradescope", "classroom", "work", "catalogue")
KNOWN = OUTPUTS + ("labs.tsv",)


def safe_id(name):
    import unicodedata
    name = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    i = re.sub(r"[^A-Za-z0-9._@+-]", "_", name).strip("._") or "learner"
    return i[:64]


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
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError as e:
        sys.exit("grade: cannot read %s, the labs' description (%s): make grade-config writes it"
                 % (path, e.strerror))
    for line in lines:
        if line.count("\t") < 2:
            continue
        nn, key, value = line.split("\t", 2)
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
        want = [n.zfill(2) for n in only.replace(",", " ").split()]
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
ISOLATION = {"ns": "namespaces", "uid": "uid only", "none": "none"}
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")


class Sandbox:
    """how learners' processes run: 'ns' (own uid; PID, network and IPC
    namespaces; private /tmp and /dev/shm), 'uid' (own uid only: containers
    that refuse namespaces), 'none' (not root)"""

    def __init__(self, repo, probe_paths, want="auto", keep=()):
        self.mode = "none"
        kept = []                 # what must stay seen under a private /tmp (GRADE_SANDBOX_KEEP)
        for k in sorted(set(os.path.realpath(k) for k in keep)):
            if any(k.startswith(t + "/") for t in SHARED_TMP) and \
                    not any(k.startswith(x + "/") for x in kept):
                kept.append(k)
        self.keep = "\n".join(kept)
        self.warning = None
        self.degraded = False
        self.uids = (UID_BASE, UID_BASE + UID_BLOCK)
        if os.geteuid() != 0:
            self.warning = ("grade: not run as root, so the learners' code runs as you, with only the "
                            "harness's own confinement (fine for your own work; grade a class as root, "
                            "e.g. in a container)")
            return
        first, end, self.lock = uid_block()
        self.uids = (first, end)
        uid = end - 1
        test = ["sh", "-c", 'for f; do if [ -d "$f" ]; then test -x "$f"; else test -r "$f"; fi || '
                '{ echo "$f"; exit 1; }; done', "sh"] + probe_paths
        why = {}
        for mode in ("ns", "uid"):
            if want == "none" or (want != "auto" and mode != want):
                why[mode] = "GRADE_ISOLATION=%s" % want
                continue
            try:
                p = subprocess.run([SANDBOX, str(uid), str(uid)] + test, cwd=repo, capture_output=True,
                                   env=dict(self.env(), GRADE_SANDBOX=mode, GRADE_SANDBOX_KEEP=self.keep),
                                   timeout=30)
            except (OSError, subprocess.TimeoutExpired) as e:
                why[mode] = str(e)
                continue
            if p.returncode == 0:
                self.mode = mode
                break
            if p.stdout.strip():
                sys.exit("grade: the learners' code runs as another user (uid %d), who cannot read %s: "
                         "put the repository, BUILD and the work folder where every user can read them "
                         "(chmod o+rX), or set GRADE_UID_BASE" % (uid, p.stdout.decode().strip()))
            why[mode] = clean_text(p.stderr).split("\n")[-1] or "status %d" % p.returncode
        self.degraded = self.mode == "uid" or want == "none"
        if self.mode == "uid":
            self.warning = ("grade: no namespaces here (%s): the learners' code runs as users of its own, "
                            "but shares the process table, the network, /tmp and /dev/shm; what it leaves "
                            "there is swept after each lab. Every report says `isolation: uid only`."
                            % why.get("ns", "?"))
        elif want == "none":
            self.warning = ("grade: GRADE_ISOLATION=none: the learners' code runs as root, unconfined. "
                            "Every report says `isolation: none`.")
        elif self.mode != "ns":
            sys.exit("grade: the learners' code cannot run as users of their own here (%s): grading "
                     "would run it as root, unconfined. Run the grader where setpriv and unshare work "
                     "(as root, in a container that allows them), or set GRADE_ISOLATION=none to grade "
                     "anyway." % "; ".join("%s: %s" % kv for kv in sorted(why.items())))

    @property
    def isolation(self):
        return ISOLATION[self.mode]

    @staticmethod
    def env():
        keep = {k: os.environ[k] for k in ("PATH", "CC", "TERM") if k in os.environ}
        return dict(keep, LANG="C.UTF-8", LC_ALL="C.UTF-8", LAB_LANG="en", HOME="/nonexistent",
                    TMPDIR="/tmp", PYTHONDONTWRITEBYTECODE="1")

    def cmd(self, uid, gid, argv):
        if self.mode == "none" or os.geteuid() != 0:
            return argv
        return [SANDBOX, str(uid), str(gid)] + argv

    def sweep(self, uid):
        """what uid left, where there is no namespace to end it: its
        processes killed, its files in /tmp, /var/tmp and /dev/shm and its
        System V IPC objects removed"""
        if self.mode != "uid":
            return
        for _ in range(20):
            left = [pid for pid, uids in processes() if uid in uids]
            if not left:
                break
            for pid in left:
                ignoring(os.kill, pid, signal.SIGKILL)
            time.sleep(0.05)
        for d in SHARED_TMP:
            for n in ignoring(os.listdir, d) or []:
                p = os.path.join(d, n)
                st = ignoring(os.lstat, p)
                if st and st.st_uid == uid:
                    ignoring(shutil.rmtree if stat.S_ISDIR(st.st_mode) else os.unlink, p)
        for kind, flag, col in (("shm", "-m", 7), ("msg", "-q", 7), ("sem", "-s", 4)):
            try:
                with open("/proc/sysvipc/" + kind) as f:
                    rows = [l.split() for l in f.readlines()[1:]]
            except OSError:
                continue
            for r in rows:
                if len(r) > col and r[col] == str(uid):
                    subprocess.run(["ipcrm", flag, r[1]], capture_output=True)


def limits():
    """resource limits for a learner's processes (set before the sandbox drops root)"""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    resource.setrlimit(resource.RLIMIT_CPU, (300, 300))
    os.setsid()


CHECKER_MEMORY = 512 << 20    # address space of numpy_check.py (a soft limit: it raises its child's)


def checker_limits():
    """limits() and at most CHECKER_MEMORY of address space for Lab 00's NumPy
    checker, which parses what the learner's Python answers"""
    limits()
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (CHECKER_MEMORY, hard))


def run(argv, cwd, env, timeout, preexec=limits):
    """run argv in a session of its own; (returncode or 'timeout', stdout,
    stderr), each of at most OUTPUT_CAP bytes: the rest is read and dropped,
    so that nothing a learner's code prints costs the grader memory"""
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=preexec, close_fds=True)
    keep = {p.stdout: bytearray(), p.stderr: bytearray()}
    sel = selectors.DefaultSelector()
    for f in keep:
        sel.register(f, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    timed_out, ended = False, None
    try:
        while sel.get_map():
            now = time.monotonic()
            if ended is None and p.poll() is not None:
                ended = now
            if ended is not None and now > ended + 2:
                break                   # the pipes are held by a process outside the group
            if now >= deadline:
                if timed_out:
                    break
                timed_out = True
                kill_group(p.pid)
                deadline = now + 5      # what is still in the pipes
            for key, _ in sel.select(min(max(deadline - now, 0.01), 0.5)):
                chunk = os.read(key.fileobj.fileno(), 1 << 16)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                buf = keep[key.fileobj]
                if len(buf) < OUTPUT_CAP:
                    buf += chunk[:OUTPUT_CAP - len(buf)]
    finally:
        sel.close()
        for f in keep:
            f.close()
    if not timed_out:
        try:
            p.wait(max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            timed_out = True
    kill_group(p.pid)               # whatever the process left in its group
    code = p.wait()
    return ("timeout" if timed_out else code), bytes(keep[p.stdout]), bytes(keep[p.stderr])


def kill_group(pid):
    ignoring(os.killpg, pid, signal.SIGKILL)


def ignoring(fn, *args):
    """fn(*args), or None if it raises an OSError"""
    try:
        return fn(*args)
    except OSError:
        return None


# ---- a learner -----------------------------------------------------------------------------
class Learner:
    def __init__(self, ident, source, index, uid_base):
        self.id, self.source, self.index, self.uid_base = ident, source, index, uid_base
        self.notes = []
        self.files = {}           # rel -> ('ok'|'missing'|'unreadable', scratch path or None, note)
        self.labs = {}            # nn -> result dict
        self.similar = {}         # nn -> [(other, percent)]
        self.seconds = 0.0
        self.work = None

    @property
    def gid(self):
        return self.uid_base + self.index * UIDS_PER_LEARNER

    def uid(self, lab):
        return self.gid + 1 + int(lab.nn) % (UIDS_PER_LEARNER - 1)


def encoding_problem(data):
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "is UTF-16 (it starts with a byte-order mark): save it as UTF-8"
    if b"\0" in data:
        return "holds NUL bytes (UTF-16 without a byte-order mark, or not text): save it as UTF-8"
    return None


def missing_note(rel, s):
    """what is said of a lab file not found: the names that come near it"""
    text = "labs/%s is not in the submission: its checks are pending" % rel
    near = sub.near_misses(s.entries, rel)
    base = rel.split("/")[-1]
    if near:
        e = near[0]
        where = sub.q(e.path)
        text += "; found %s: rename it `%s`" % (where, base)
        if e.kind == "refused":
            text += " (and hand in the file itself: it %s)" % e.why
        if len(near) > 1:
            text += " (and %d more like it)" % (len(near) - 1)
    else:
        other = sub.other_archives(s.entries)
        if other:
            text += "; found %s, an archive the grader does not read: hand in a .zip or .tar.gz" \
                    % sub.q(other[0].path)
    return text


def prepare(learner, labs, work, sandbox):
    """copy the learner's lab files into WORK/ID/labs/ (the scratch copy)"""
    notes = learner.notes
    d = os.path.join(work, learner.id)
    private = os.path.join(work, ".grader", learner.id)
    for x in (d, private):
        if os.path.lexists(x):
            shutil.rmtree(x)
    os.makedirs(os.path.join(d, "labs"))
    os.makedirs(os.path.join(d, "build"))
    learner.work = d
    s = sub.Submission(learner.source, private)
    try:
        s.open()
        found, used = {}, set()
        for lab in labs:
            for role, rel in lab.files:
                e, note = sub.find_file(s.entries, rel)
                if e is None:
                    learner.files[rel] = ("missing", None, missing_note(rel, s))
                    continue
                used.add(e.path)
                if note:
                    notes.append(note)
                if e.kind == "refused":
                    learner.files[rel] = ("unreadable", None, "labs/%s %s" % (rel, e.why))
                    continue
                found[rel] = e
        data = s.read(list(found.values()))
        for rel, e in found.items():
            learner.files[rel] = copy_lab_file(rel, data[e], d)
        # extra top-level folders (archives and folders alike): said once
        tops = sorted({e.parts[0] for e in s.entries if len(e.parts) > 1})
        useful = {p.split(b"/")[0] for p in used}
        extra = [t for t in tops if t not in useful and t not in (b"labs", b"harness", b"__MACOSX")
                 and not re.match(rb"^lab[0-9][0-9]", t) and not t.startswith(b".")]
        if extra:
            notes.append("ignored: %s" % ", ".join(sub.q(t + b"/") for t in extra[:5])
                         + (" and %d more" % (len(extra) - 5) if len(extra) > 5 else ""))
        notes.extend(s.tally.render())
    finally:
        s.close()
        shutil.rmtree(private, ignore_errors=True)
    # ownership: the learner's files readable by every lab of this learner (group), written by none;
    # each lab's build folder its own (see Learner.uid)
    if sandbox.mode != "none":
        for dd, dirs, files in os.walk(d):
            os.chown(dd, 0, learner.gid)
            os.chmod(dd, 0o750)
            for f in files:
                os.chown(os.path.join(dd, f), 0, learner.gid)
                os.chmod(os.path.join(dd, f), 0o640)
    for lab in labs:
        b = os.path.join(d, "build", "lab" + lab.nn)
        os.makedirs(b, exist_ok=True)
        if sandbox.mode != "none":
            os.chown(b, learner.uid(lab), learner.gid)
            os.chmod(b, 0o700)


def copy_lab_file(rel, data, d):
    """(state, scratch path, note) of a lab file read (bytes) or not (text)"""
    if isinstance(data, str):
        return ("unreadable", None, "labs/%s %s" % (rel, data))
    if len(data) > sub.MAX_FILE:
        return ("unreadable", None, "labs/%s is larger than %d KiB: not graded" % (rel, sub.MAX_FILE >> 10))
    bad = encoding_problem(data)
    if bad:
        return ("unreadable", None, "labs/%s %s" % (rel, bad))
    warn = None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as x:
        warn = "labs/%s is not valid UTF-8 (byte %d; Latin-1?): graded as it is" % (rel, x.start)
    dest = os.path.join(d, "labs", rel)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as f:
        f.write(data)
    return ("ok", dest, warn)


# ---- checking one lab ----------------------------------------------------------------------
SUMMARY_RE = re.compile(r"^([^\t ][^\t]*)\t([0-9]+)\t([0-9]+)\t([0-9]+)$")
# the judge's measurements of a call that hung: seconds of CPU and of the
# clock, the memory its blocks held, the requests it made
MEASURED = re.compile(r"(it used |s of CPU in |held |after )[0-9]+(?:\.[0-9]+)?"
                      r"(?= s of CPU| s[);]| MiB near the deadline| requests in this call)")
# whether a request was refused at the limit before the deadline depends on
# the machine's speed too: the clause goes
REFUSED = re.compile(r", [0-9]+ of them refused at the limit of [0-9]+ MiB")


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


# build-driver.sh's exit status: the step that stopped it (a build that ran
# out of time did not compile: a macro that expands without end, ...)
BUILD_FAILED = {3: "does not compile", 4: "refused", 5: "does not link", "timeout": "does not compile"}
EXPLANATION_LINES = 80        # of a checker's report kept as a function's explanation


def build_cmd(lab, source, d):
    """the shell command that builds source into d/driver (harness.mk's lab_driver_cmd)"""
    return lab.conf["build"].replace("@SOURCE@", shlex.quote(source)).replace("@DIR@", shlex.quote(d))


def lab_state(rows):
    p = sum(r[0] for r in rows.values())
    f = sum(r[2] for r in rows.values())
    return "failing" if f else "pending" if p else "done"


class Job:
    """one learner's lab, checked: {status, rows, notes, outputs, seconds}"""

    def __init__(self, learner, lab, ctx):
        self.learner, self.lab, self.ctx = learner, lab, ctx
        self.uid = learner.uid(lab)

    def scrub(self, text):
        """a checker's text with the scratch folder's and the repository's paths
        taken out, and what it measured while the learner's code ran (the CPU
        time and memory of a call that hung, which the machine's load
        changes) left as `...` (and whether a request was refused at the
        limit, left out): the reports hold no times"""
        s = clean_text(text)
        work, out, repo = self.learner.work, self.ctx.work, self.ctx.repo
        # absolute, and as the tools print them from the repository (the build's cwd)
        for prefix in (work, out, os.path.relpath(work, repo), os.path.relpath(out, repo), repo):
            s = s.replace(prefix + "/", "")
        return MEASURED.sub(lambda m: m.group(1) + "...", REFUSED.sub("", s))

    def run(self, argv, timeout=JUDGE_TIMEOUT, as_learner=True, env=()):
        """argv run as this lab's uid in the sandbox, or (as_learner False: Lab
        00's NumPy checker, which starts the learner's Python itself, as the
        learner, through LAUNCHER) as the grader within checker_limits;
        whatever the uid left is swept"""
        c = self.ctx
        env = dict(c.env, GRADE_SANDBOX=c.sandbox.mode, GRADE_SANDBOX_KEEP=c.sandbox.keep,
                   LAB_SEED=str(c.seed), **dict(env))
        if as_learner:
            argv = c.sandbox.cmd(self.uid, self.learner.gid, argv)
        try:
            return run(argv, c.repo, env, timeout, limits if as_learner else checker_limits)
        finally:
            c.sandbox.sweep(self.uid)

    def rows(self, names, state):
        """every row of names as pending (state 'missing': no file) or failed (anything else)"""
        cat = dict(self.lab.rows)
        return {n: (cat[n], 0, 0) if state == "missing" else (0, 0, cat[n]) for n in names}

    def go(self):
        t0 = time.monotonic()
        try:
            status, rows, notes, outputs = self.harness() if self.lab.kind == "harness" else self.byhand()
        except Exception as e:           # a bug of the grader's: this lab only
            status, rows, outputs = "error", self.rows([n for n, _ in self.lab.rows], "failed"), {}
            notes = ["the grader failed on this lab: %r" % e]
        return {"status": status, "rows": rows, "notes": [n for n in notes if n], "outputs": outputs,
                "seconds": time.monotonic() - t0}

    def verdicts(self, argv, tail, names, what, **how):
        """the rows of names in the checker's --summary (argv --summary tail):
        (rows, None, status, stderr), or (None, why not, status, stderr)"""
        rc, out, err = self.run(argv + ["--summary"] + tail, **how)
        rows, problem = parse_summary(out, [r for r in self.lab.rows if r[0] in names])
        if rc in (0, 1) and not problem and set(rows) == set(names):
            return rows, None, rc, err
        why = problem or "%s stopped (%s)" % (what, "after %d s" % JUDGE_TIMEOUT if rc == "timeout"
                                              else "status %s" % rc)
        more = cap_lines(self.scrub(err), 6)
        return None, why + (": " + more if more else ""), rc, err

    def explain(self, argv, **how):
        """a checker's report (argv), as a failing function's explanation"""
        _, out, _ = self.run(argv, **how)
        return clean_text(cap_lines(self.scrub(out), EXPLANATION_LINES), reports.OUTPUT_CHARS)

    # -- a C lab of the harness
    def harness(self):
        """the learner's file built into a driver (build-driver.sh's exit
        status names what stopped it), judged (--summary), and each failing
        function explained by the judge's report of that function alone
        (--filter FUNCTION --brief): (status, rows, notes, explanations)"""
        lab, L = self.lab, self.learner
        names = [n for n, _ in lab.rows]
        state, path, note = L.files[lab.files[0][1]]
        if state != "ok":             # 'missing' or 'unreadable'
            return state, self.rows(names, state), [note], {}
        d = os.path.join(L.work, "build", "lab" + lab.nn)
        rc, out, err = self.run(["sh", "-c", build_cmd(lab, path, d)], BUILD_TIMEOUT)
        if rc != 0:
            text = cap_lines(self.scrub(out) or self.scrub(err), 12)
            text = ("building it took more than %d s: stopped" % BUILD_TIMEOUT if rc == "timeout" else
                    text if rc in BUILD_FAILED else "the build stopped (status %s): %s" % (rc, text))
            return BUILD_FAILED.get(rc, "error"), self.rows(names, "failed"), [note, clean_text(text, 2000)], {}
        judge = [lab.conf["judge"], "--driver", os.path.join(d, "driver"), "--lang=en"]
        rows, why, _, _ = self.verdicts(judge, [], names, "the judge")
        if rows is None:
            return "error", self.rows(names, "failed"), [note, why], {}
        outputs = {n: self.explain(judge + ["--filter", n, "--brief"]) for n in names if rows[n][2]}
        return lab_state(rows), rows, [note], outputs

    # -- Lab 00: the hand tables, then NumPy
    def byhand(self):
        """the hand tables (check), then the same in NumPy (npcheck), with the
        hand tables to compare when they could be read, else on its own"""
        lab, L = self.lab, self.learner
        hand = [n for n, _ in lab.rows if not n.startswith("numpy:")]
        rows, broken, notes, outputs = self.part(hand, lab.files[0][1], [lab.conf["check"], "--lang=en"],
                                                 "the checker", 2)
        if len(lab.files) > 1:
            answers = L.files[lab.files[0][1]]
            cmd = shlex.split(lab.conf["npcheck"])
            i = cmd.index("@ANSWERS@")
            cmd[i - 1:i + 1] = cmd[i - 1:i] + [answers[1]] if answers[0] == "ok" and not broken else []
            cmd += ["--lang=en"] + (["--launcher", LAUNCHER] if self.ctx.sandbox.mode != "none" else [])
            env = {"GRADE_SANDBOX_UID": str(self.uid), "GRADE_SANDBOX_GID": str(L.gid)}
            np = [n for n, _ in lab.rows if n.startswith("numpy:")]
            r2, b2, n2, o2 = self.part(np, lab.files[1][1], cmd, "the NumPy checker", None,
                                       as_learner=False, env=env)
            rows, broken, notes, outputs = dict(rows, **r2), broken or b2, notes + n2, dict(outputs, **o2)
        status = broken or lab_state(rows)
        if not broken and all(L.files[rel][0] == "missing" for _, rel in lab.files):
            status = "missing"
        return status, rows, notes, outputs

    def part(self, names, rel, argv, what, unreadable_rc, **how):
        """Lab 00's file rel checked by argv for its steps names: (rows, what
        broke it: None, 'unreadable' or 'error', notes, explanations: the
        whole report under the first failing step, a pointer to it under the
        others)"""
        state, path, note = self.learner.files[rel]
        if state != "ok":
            return self.rows(names, state), None if state == "missing" else state, [note], {}
        rows, why, rc, err = self.verdicts(argv, [path], names, what, **how)
        if rows is None and rc == unreadable_rc:
            why = cap_lines(self.scrub(err) or "labs/%s cannot be checked" % rel, 8)
        if rows is None:
            return self.rows(names, "failed"), "unreadable" if rc == unreadable_rc else "error", [note, why], {}
        failing = [n for n in names if rows[n][2]]
        outputs = {n: "(the whole report is under %s)" % failing[0] for n in failing[1:]}
        if failing:
            outputs[failing[0]] = self.explain(argv + ["--brief", path], **how)
        return rows, None, [note], outputs


# ---- the catalogue: every function of every lab and its number of checks -------------------
def shipped(repo, rel, dest, rev):
    """the lab file as shipped: git's version at rev (HEAD; a learner's own
    repository gives its first commit, the template's) when there is one,
    else the file"""
    data = None
    try:
        p = subprocess.run(["git", "-C", repo, "show", "%s:./%s" % (rev, rel)], capture_output=True,
                           timeout=30)
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
    base = os.path.join(ctx.work, ".grader", "catalogue")
    env = dict(ctx.env, LAB_SEED=str(ctx.seed))
    for lab in labs:
        d = os.path.join(base, "lab" + lab.nn)
        os.makedirs(d)
        files = {}
        for role, rel in lab.files:
            files[role] = os.path.join(base, "labs", rel)
            shipped(ctx.repo, "labs/" + rel, files[role], ctx.shipped)
        lab.shipped = files
        if lab.kind == "harness":
            rc, out, err = run(["sh", "-c", build_cmd(lab, files["file"], d)], ctx.repo, env, BUILD_TIMEOUT)
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
        found = map(SUMMARY_RE.match, out.decode("utf-8", "replace").split("\n"))
        lab.rows = [(m.group(1), sum(int(x) for x in m.groups()[1:])) for m in found if m]
        if not lab.rows:
            sys.exit("grade: lab %s: no summary from its checker on the shipped files:\n%s"
                     % (lab.nn, clean_text(err)))


# ---- similarity ------------------------------------------------------------------------------
SIM_RE = re.compile(r"^(\S+) consists for (\d+) % of (\S+) material$")


def similarity(ctx, learners, labs, threshold):
    """sim_c (Debian's similarity-tester) on each C lab's files: every learner's
    (a file that is the skeleton, or whose checks are all pending, left out)
    against every other's and against the book's code (tangled/minimodel/
    attention/*.c); the pairs where threshold percent or more of a learner's
    file is the other's material. A copy from the book is legal for a learner
    working alone: the report only shows it. (rows for similarity.csv)"""
    book = sorted(glob.glob(os.path.join(ctx.repo, "tangled/minimodel/attention/*.c")))
    pairs = set()
    for lab in labs:
        files = compared_files(lab, learners) if lab.kind == "harness" else []
        if files:
            pairs.update(sim_lab(ctx, lab, files, book, threshold))
    pairs = sorted(pairs, key=lambda x: (x[0], -x[3], x[1], x[2]))
    by_id = {L.id: L for L in learners}
    for nn, who, other, pc in pairs:
        by_id[who].similar.setdefault(nn, []).append((other, pc))
    return pairs


def compared_files(lab, learners):
    """[(learner's id, path)] of the lab's files worth comparing: started, and not the skeleton"""
    with open(lab.shipped["file"], "rb") as f:
        skeleton = f.read()
    out = []
    for L in learners:
        state, path, _ = L.files.get(lab.files[0][1], ("missing", None, None))
        if state == "ok" and any(x[0] != sum(x) for x in L.labs[lab.nn]["rows"].values()):
            with open(path, "rb") as f:
                if f.read() != skeleton:
                    out.append((L.id, path))
    return out


def sim_lab(ctx, lab, files, book, threshold):
    """sim_c, as a user of its own, on one lab's files (copied, as L0000.c,
    ...) against each other and the book's (B00.c, ...): [(lab, id, other, percent)]"""
    d = os.path.join(ctx.work, "similarity", "lab" + lab.nn)
    os.makedirs(d)
    for p in (os.path.dirname(d), d):
        os.chmod(p, 0o755)
    mine = [("L%04d.c" % i, who, path) for i, (who, path) in enumerate(files)]
    books = [("B%02d.c" % i, "book:" + os.path.basename(b), b) for i, b in enumerate(book)]
    for n, _, path in mine + books:
        shutil.copyfile(path, os.path.join(d, n))
        os.chmod(os.path.join(d, n), 0o644)
    names = {n: who for n, who, _ in mine + books}
    uid = ctx.sandbox.uids[1] - 2
    argv = [shutil.which("sim_c"), "-e", "-a", "-p", "-T", "-t%d" % threshold] + \
        [n for n, _, _ in mine] + ["/"] + [n for n, _, _ in books]
    rc, out, err = run(ctx.sandbox.cmd(uid, uid, argv), d, ctx.env, 300)
    ctx.sandbox.sweep(uid)
    if rc != 0:
        print("grade: sim_c failed on lab %s (status %s): %s" % (lab.nn, rc, clean_text(err)[:200]),
              file=sys.stderr)
        return []
    found = [SIM_RE.match(line.strip()) for line in out.decode("utf-8", "replace").split("\n")]
    return [(lab.nn, names[m.group(1)], names[m.group(3)], int(m.group(2))) for m in found
            if m and m.group(1).startswith("L") and m.group(1) in names and m.group(3) in names
            and m.group(1) != m.group(3)]


# ---- the run -------------------------------------------------------------------------------
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


SUFFIX_ORDER = {None: 0, ".zip": 1, ".tar.gz": 2, ".tgz": 3, ".tar.xz": 4, ".txz": 5, ".tar.bz2": 6,
                ".tbz2": 7, ".tar": 8}


def submissions(path, mode, ident):
    """[(id, path as bytes, [other paths of the same learner])]: one per
    learner; a learner who handed in twice (abe/ and abe.zip) once, the folder
    first, then .zip, .tar.gz, ..."""
    if mode == "one":
        name = os.path.basename(os.path.abspath(path))
        name = sub.show(sub.split_suffix(name)[0], 200)
        return [(safe_id(ident) if ident else safe_id(name), os.fsencode(path), [])]
    bpath = os.fsencode(path)
    try:
        names = sorted(n for n in os.listdir(bpath) if not n.startswith(b"."))
    except OSError as e:
        sys.exit("grade: cannot read %s: %s" % (path, e.strerror))
    groups = {}
    for n in names:
        full = os.path.join(bpath, n)
        stem, suf = sub.split_suffix(n)
        if suf and not os.path.isfile(full):
            stem, suf = n, None
        if suf is None and not os.path.isdir(full) and not os.path.islink(full):
            stem = n
        i = safe_id(sub.show(stem, 200))
        groups.setdefault(i.lower(), []).append((SUFFIX_ORDER.get(suf and suf.lower(), 9), n, full, i))
    out = []
    for key in sorted(groups):
        g = sorted(groups[key])
        out.append((g[0][3], g[0][2], [x[2] for x in g[1:]]))
    return sorted(out, key=lambda x: x[0])


def learners_of(path, a, ctx):
    """the class's learners (or the one), each with a note if it handed in
    twice or under another name"""
    learners = []
    for i, (ident, src, others) in enumerate(submissions(path, a.mode, a.id)):
        L = Learner(ident, src, i, ctx.sandbox.uids[0])
        name = sub.show(os.path.basename(src), 200)
        if others:
            L.notes.append("handed in %d times: %s graded, %s not (keep one)"
                           % (len(others) + 1, sub.q(os.path.basename(src)),
                              ", ".join(sub.q(os.path.basename(o)) for o in others)))
        elif ident != sub.split_suffix(name)[0] and not a.id:
            L.notes.append("submitted as %s" % sub.q(os.path.basename(src)))
        learners.append(L)
    if not learners:
        sys.exit("grade: %s holds no submission (one folder, .zip or .tar.gz per learner)" % a.path)
    first, end = ctx.sandbox.uids
    if len(learners) * UIDS_PER_LEARNER > end - first - UIDS_PER_LEARNER:
        sys.exit("grade: %d learners, more than a run's %d uids give: grade them in parts"
                 % (len(learners), end - first))
    return learners


def out_folder(out, quiet):
    """OUT made, or kept, private (0700), holding nothing of an earlier run"""
    os.makedirs(out, mode=0o700, exist_ok=True)
    other = [n for n in os.listdir(out) if n not in KNOWN]
    for n in OUTPUTS:
        p = os.path.join(out, n)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        elif os.path.lexists(p):
            os.unlink(p)
    if other:
        if not quiet:
            print("grade: %s holds other files (%s): its mode is left as it is; the reports are "
                  "written readable by you alone" % (out, ", ".join(sorted(other)[:3])), file=sys.stderr)
    else:
        os.chmod(out, 0o700)


def write_private(path, text):
    """text to path, readable and writable by the grader alone (0600), in
    folders of its alone (0700)"""
    private_folder(os.path.dirname(path))
    tmp = path + ".tmp%d" % os.getpid()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def private_folder(d):
    if not os.path.isdir(d):
        private_folder(os.path.dirname(d))
        os.mkdir(d, 0o700)


def fresh_seed():
    return int.from_bytes(os.urandom(4), "little") % 999999999 + 1


def parse_args(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="grade.py")
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default=None, help="the learners' scratch folders (default: OUT.work)")
    ap.add_argument("--keep-work", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--labs", default="")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--similarity", default="50", help="percent, or off")
    ap.add_argument("--isolation", default="auto", choices=["auto", "ns", "uid", "none"])
    ap.add_argument("--format", default="all",
                    choices=["all", "csv", "junit", "tap", "json", "gradescope", "classroom"])
    ap.add_argument("--stdout", action="store_true", help="print the one report on stdout")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--id", default=None, help="the learner's name (mode one)")
    ap.add_argument("--shipped", default="HEAD", help="the git revision of the shipped lab files")
    ap.add_argument("mode", choices=["class", "one"])
    ap.add_argument("path")
    a = ap.parse_args(argv)
    if a.seed is not None and not 1 <= a.seed <= 999999999:
        sys.exit("grade: --seed %d: a seed is a whole number from 1 to 999999999" % a.seed)
    if a.similarity != "off" and not (a.similarity.isdigit() and 1 <= int(a.similarity) <= 100):
        sys.exit("grade: GRADE_SIMILARITY=%s: a percent from 1 to 100, or off" % a.similarity)
    a.jobs = max(1, a.jobs)
    return a


def setup(a):
    """the run: its seed and labs, OUT (private, nothing of an earlier run in
    it), WORK (fresh, removed at the end unless --keep-work), the sandbox,
    the catalogue; the current folder is the repository"""
    repo, labs = read_config(a.config, a.labs)
    # OUT, WORK and the submissions as the caller named them (check-grade's repo is a copy elsewhere)
    ctx = types.SimpleNamespace(seed=a.seed or fresh_seed(), shipped=a.shipped, repo=os.path.abspath(repo),
                                out=os.path.abspath(a.out), env=Sandbox.env())
    ctx.work = os.path.abspath(a.work or ctx.out.rstrip("/") + ".work")
    os.chdir(ctx.repo)
    if not a.stdout:
        out_folder(ctx.out, a.quiet)
    if os.path.lexists(ctx.work):
        shutil.rmtree(ctx.work)
    os.makedirs(os.path.join(ctx.work, ".grader"), mode=0o700)
    if not a.keep_work:           # however the run ends (a refusal, an error, the end)
        atexit.register(shutil.rmtree, ctx.work, True)
    os.chmod(os.path.join(ctx.work, ".grader"), 0o700)
    os.chmod(ctx.work, 0o711)
    probe = [os.path.join(ctx.repo, "judge/harness/build-driver.sh"), ctx.work] + \
        [os.path.abspath(lab.conf[k]) for lab in labs for k in ("judge", "check") if k in lab.conf]
    ctx.sandbox = Sandbox(ctx.repo, probe, a.isolation, [ctx.repo, ctx.work])
    if ctx.sandbox.warning and (ctx.sandbox.mode != "none" or os.geteuid() == 0 or not a.quiet):
        print(ctx.sandbox.warning, file=sys.stderr)
    catalogue(ctx, labs)
    return ctx, labs


def grade_all(ctx, learners, labs, jobs, show):
    """every learner's labs checked, jobs at a time (a progress bar if show)"""
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda L: prepare(L, labs, ctx.work, ctx.sandbox), learners))
        progress = Progress(len(learners) * len(labs), show)
        futures = {}
        for L in learners:
            for lab in labs:
                fut = pool.submit(Job(L, lab, ctx).go)
                fut.add_done_callback(lambda _: progress.step())
                futures[fut] = (L, lab)
        for fut in concurrent.futures.as_completed(futures):
            L, lab = futures[fut]
            L.labs[lab.nn] = fut.result()
            L.seconds += L.labs[lab.nn]["seconds"]
        progress.end()


def similarity_of(a, ctx, learners, labs):
    """the grade book's head of the similar column, and similarity.csv's rows
    (None: no similarity report)"""
    if a.similarity == "off":
        return "off", None
    if a.mode == "one":
        return "", None
    if not shutil.which("sim_c"):
        print("grade: sim_c is not installed (Debian's similarity-tester): no similarity report",
              file=sys.stderr)
        return "sim_c not installed", None
    return "%s%% or more" % a.similarity, similarity(ctx, learners, labs, int(a.similarity))


def timing(ctx, learners, labs, jobs, elapsed):
    """what the run took (never in the reports)"""
    n, first = len(learners), ctx.sandbox.uids[0]
    slow = sorted(learners, key=lambda L: -L.seconds)[:5]
    uids = ", uids %d-%d" % (first, first + n * UIDS_PER_LEARNER - 1) if ctx.sandbox.mode != "none" else ""
    return ["graded %d learner%s x %d lab%s in %.1f s (%d job%s in parallel, isolation: %s%s, seed %d)"
            % (n, "s" * (n != 1), len(labs), "s" * (len(labs) != 1), elapsed, jobs, "s" * (jobs != 1),
               ctx.sandbox.isolation, uids, ctx.seed),
            "slowest: " + ", ".join("%s %.1f s" % (L.id, L.seconds) for L in slow),
            "the grader's own peak memory: %d MiB" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10)]


def main(argv):
    if argv[:1] == ["hold-uids"]:
        return hold_uids(argv[1:])
    a = parse_args(argv)
    t_start = time.monotonic()
    path = os.path.abspath(a.path)
    ctx, labs = setup(a)
    learners = learners_of(path, a, ctx)
    grade_all(ctx, learners, labs, a.jobs, sys.stdout.isatty() and not a.quiet and not a.stdout)
    head, pairs = similarity_of(a, ctx, learners, labs)
    run_info = types.SimpleNamespace(seed=ctx.seed, isolation=ctx.sandbox.isolation,
                                     degraded=ctx.sandbox.degraded, similarity_head=head)
    rep = reports.render(a.format, a.mode == "one", learners, labs, run_info, pairs)
    if a.stdout:
        sys.stdout.write("".join(rep.values()))
        return 0
    for rel, text in rep.items():
        write_private(os.path.join(ctx.out, rel), text)
    lines = timing(ctx, learners, labs, a.jobs, time.monotonic() - t_start)
    write_private(os.path.join(ctx.out, "timing.txt"), "\n".join(lines) + "\n")
    if not a.quiet:
        p, a_, f = (sum(x) for x in zip(*(reports.totals(L, labs) for L in learners)))
        print("\n".join(lines[:2] + ["isolation: %s (see above)" % ctx.sandbox.isolation] * ctx.sandbox.degraded))
        print("checks: %d passed, %d failed, %d pending; reports in %s: %s"
              % (a_, f, p, ctx.out, ", ".join(sorted(rep)[:4]) + (", ..." if len(rep) > 4 else "")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
