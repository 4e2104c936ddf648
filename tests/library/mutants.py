#!/usr/bin/env python3
"""mutants.py - mutation testing of the library: each mutant is the library
with one small change (an operator, a bound, a constant, a deleted check, two
arguments swapped, a negation); the tests must fail on it.

usage: mutants.py --compile CMD --link FLAGS --base DIR --out DIR
                  --tests NAME... --helpers NAME... --equivalent TSV
                  [--max N] [--jobs N] [--only TEXT] [--list] [--keep] SRC...

SRC are the library's .c files (tangled/minimodel/...). DIR (--base) holds
the unmutated objects, built by library.mk: lib/<path>.o for every SRC and
tests/<name>.o for every test program and helper. For each mutant the tree of
SRC's top folder is copied into its own scratch folder under --out, the one
file is changed and compiled, and the test programs are linked and run in
the order given, stopping at the first that fails (killed) or outlives its
timeout (killed by timeout). A mutant that does not compile is stillborn and
not counted. A mutant that passes every test survives; it fails the run
unless the --equivalent table lists it with the reason it cannot be told
apart from the library.

Mutants are generated from the sources alone, so the list is the same on
every run. Their ids, file:line:operator:index:hash, carry a hash of the
enclosing function, the changed line's text and the change; the table is
matched on file and hash only, so its entries survive edits elsewhere that
move the line. With more candidates than --max, each (file, operator) group
gets its share of the budget (at least one), filled with the candidates of
lowest hash: a sample spread over every file and operator that an unrelated
edit barely changes.

Kill rate = killed / (killed + survivors), survivors counting the listed
equivalent mutants too, so a long list of equivalents cannot raise it.
"""
import argparse
import bisect
import concurrent.futures
import hashlib
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict, namedtuple

KEYWORDS = set("""auto break case char const continue default do double else enum
    extern float for goto if inline int long register restrict return short signed
    sizeof static struct switch typedef union unsigned void volatile while _Bool
    _Thread_local _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert""".split())
TYPES = set("""char short int long float double signed unsigned void bool _Bool const
    volatile struct union enum size_t ptrdiff_t uint64_t int64_t uint32_t int32_t
    uintptr_t intptr_t va_list FILE""".split())
NO_SWAP = {"mm_fail", "vsnprintf", "snprintf", "printf", "fprintf", "va_start", "va_end"}

TOKEN = re.compile(r"""
    (?P<str>"[^"\n]*"|'[^'\n]*')
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=
          |[-+*/%<>=!&|^~?:;,.(){}\[\]])
  | (?P<space>\s+)
""", re.X)
Tok = namedtuple("Tok", "kind text start end")

ROR = {"<": ("<=", ">="), "<=": ("<", ">"), ">": (">=", "<="), ">=": (">", "<"),
       "==": ("!=",), "!=": ("==",)}
AOR = {"+": "-", "-": "+", "*": "/", "/": "*", "+=": "-=", "-=": "+=", "*=": "/=",
       "/=": "*="}
CONST = {"0": "1", "1": "0", "0.0": "1.0", "1.0": "0.0"}
LCR = {"&&": "||", "||": "&&"}
# compiler warnings that mean the mutant is not C any more (a pointer passed
# as an int, a const buffer written): stillborn, as a newer gcc would have it
MUTANT_ERRORS = ["-Werror=int-conversion", "-Werror=incompatible-pointer-types",
                 "-Werror=discarded-qualifiers"]


# ---- reading C --------------------------------------------------------------------

def blank(text, defined=frozenset()):
    """text with comments, the insides of string and character literals,
    preprocessor lines and the branches of #if... that the compiler skips
    (defined: the -D macros) turned into spaces (newlines kept), so that
    offsets stay valid and no mutant lands in them"""
    out, i, n, line_start = list(text), 0, len(text), True
    skipped = skipped_lines(text, defined)

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def skip_literal(i, quote):
        j = i + 1
        while j < n and text[j] != quote:
            j += 2 if text[j] == "\\" else 1
        return j + 1

    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2) + 2
            wipe(i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            wipe(i, j)
            i = j
        elif c in "\"'":                      # the quotes stay: one token
            j = skip_literal(i, c)
            wipe(i + 1, j - 1)
            i, line_start = j, False
        elif c == "#" and line_start:            # to the end of the logical line
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j = text.find("*/", j) + 2 if text.startswith("/*", j) else j + 1
            wipe(i, j)
            i = j
        else:
            line_start = c == "\n" or (line_start and c in " \t")
            i += 1
    lines = "".join(out).split("\n")
    return "\n".join(" " * len(l) if k in skipped else l for k, l in enumerate(lines))


def skipped_lines(text, defined):
    """numbers (from 0) of the lines in a branch of #ifdef, #ifndef, #if,
    #elif or #else that is not compiled; an #if whose condition is not a
    plain defined(NAME), 0 or 1 counts as compiled"""
    skipped, stack = set(), []              # (outer active, this active, taken)
    for k, line in enumerate(text.split("\n")):
        d = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        word, rest = (d.group(1), d.group(2)) if d else ("", "")
        active = all(a and b for a, b, _ in stack)
        if word in ("if", "ifdef", "ifndef"):
            cond = condition(word, rest, defined)
            stack.append((active, cond, cond))
        elif word == "elif" and stack:
            outer, _, taken = stack.pop()
            cond = not taken and condition("if", rest, defined)
            stack.append((outer, cond, taken or cond))
        elif word == "else" and stack:
            outer, _, taken = stack.pop()
            stack.append((outer, not taken, True))
        elif word == "endif" and stack:
            stack.pop()
        elif not active:
            skipped.add(k)
    return skipped


def condition(word, rest, defined):
    rest = re.sub(r"/\*.*?\*/|//.*", "", rest).strip()
    if word != "if":
        return (rest.split()[0] in defined) == (word == "ifdef")
    m = re.fullmatch(r"(!?)\s*defined\s*\(?\s*(\w+)\s*\)?", rest)
    if m:
        return (m.group(2) in defined) != (m.group(1) == "!")
    return rest != "0"


def tokens(masked):
    toks = []
    for m in TOKEN.finditer(masked):
        if m.lastgroup != "space":
            toks.append(Tok(m.lastgroup, m.group(), m.start(), m.end()))
    return toks


def typedef_names(headers):
    """the type names the library's headers declare (a * after one of them
    declares a pointer, it does not multiply)"""
    names = set()
    for path in headers:
        text = blank(open(path, encoding="utf-8").read())
        names.update(re.findall(r"\btypedef\b[^;]*?(\w+)\s*;", text))
    return names


def functions(toks):
    """for each token, the name of the function whose body holds it (None
    outside a body)"""
    owner, depth, name = [None] * len(toks), 0, None
    for i, t in enumerate(toks):
        if t.text == "{":
            if depth == 0 and i > 0 and toks[i - 1].text == ")":
                open_at = match_back(toks, i - 1)
                name = toks[open_at - 1].text
            depth += 1
        elif t.text == "}":
            depth -= 1
            if depth == 0:
                owner[i], name = name, None
                continue
        owner[i] = name if depth > 0 else None
    return owner


def match_back(toks, close):
    """index of the ( that the ) at close closes"""
    depth = 0
    for i in range(close, -1, -1):
        depth += {")": 1, "(": -1}.get(toks[i].text, 0)
        if depth == 0:
            return i
    raise ValueError("unbalanced parentheses")


def match_forward(toks, open_at):
    """index of the bracket that closes the one at open_at"""
    depth = 0
    for i in range(open_at, len(toks)):
        depth += 1 if toks[i].text in "([{" else -1 if toks[i].text in ")]}" else 0
        if depth == 0:
            return i
    raise ValueError("unbalanced brackets")


# ---- the mutants ------------------------------------------------------------------

class Mutant:
    """one change: text[start:end] replaced by repl, in file (relative to the
    library's top folder)"""
    def __init__(self, file, op, start, end, repl):
        self.file, self.op, self.start, self.end, self.repl = file, op, start, end, repl
        self.id = self.key = self.line = self.before = self.after = None

    def apply(self, text):
        return text[:self.start] + self.repl + text[self.end:]


def ends_operand(tok, types):
    """whether tok can end the left operand of a binary operator (else the
    operator after it is unary, or a declaration's *)"""
    if tok.kind == "num" or tok.text in (")", "]"):
        return True
    return tok.kind == "id" and tok.text not in KEYWORDS and tok.text not in types


def call_arguments(toks, open_at):
    """the arguments of the call whose ( is at open_at, as (first, last)
    token index pairs"""
    close, args, first, depth = match_forward(toks, open_at), [], open_at + 1, 0
    for i in range(open_at + 1, close):
        t = toks[i].text
        depth += 1 if t in "([{" else -1 if t in ")]}" else 0
        if t == "," and depth == 0:
            args.append((first, i - 1))
            first = i + 1
    if first < close:
        args.append((first, close - 1))
    return args


def statement_end(toks, i):
    """index of the ; that ends the statement starting at token i"""
    depth = 0
    for j in range(i, len(toks)):
        depth += 1 if toks[j].text in "([{" else -1 if toks[j].text in ")]}" else 0
        if toks[j].text == ";" and depth == 0:
            return j
    raise ValueError("statement without ;")


def site_mutants(toks, owner, types):
    """every candidate of every operator in the functions' bodies, as
    (function, operator, start, end, replacement), the replacement a string
    or a function of the text"""
    for i in range(len(toks)):
        if owner[i] is not None:                  # code, not declarations
            for change in token_mutants(toks, i, types):
                yield (owner[i],) + change


def token_mutants(toks, i, types):
    """the candidates at token i"""
    t, prev = toks[i], toks[i - 1]
    if t.text in ROR:
        for r in ROR[t.text]:
            yield "ror", t.start, t.end, r
        if t.text in ("<", "<=", ">", ">="):  # the right operand +- 1
            yield "bound", t.end, t.end, " 1 +"
            yield "bound", t.end, t.end, " -1 +"
    elif t.text in AOR and (len(t.text) == 2 or ends_operand(prev, types)):
        yield "aor", t.start, t.end, AOR[t.text]
    elif t.kind == "num" and t.text in CONST:
        yield "const", t.start, t.end, CONST[t.text]
    elif t.text in LCR:
        yield "lcr", t.start, t.end, LCR[t.text]
    elif t.text == "!":
        yield "not", t.start, t.end, ""
    elif t.text in ("if", "while") and toks[i + 1].text == "(":
        a, b = toks[i + 1].end, toks[match_forward(toks, i + 1)].start
        yield "not", a, b, lambda text, a=a, b=b: "!(" + text[a:b] + ")"
    yield from deletions(toks, i)
    yield from swaps(toks, i, types)


def deletions(toks, i):
    """a check statement (MM_NEED_..., MM_TRY) or an `if (...) return ...;`
    removed: an empty statement in its place"""
    t = toks[i]
    if re.fullmatch(r"MM_NEED_\w+|MM_TRY", t.text) and toks[i + 1].text == "(":
        close = match_forward(toks, i + 1)
        if toks[close + 1].text == ";":
            yield "del", t.start, toks[close + 1].end, ";"
    elif t.text == "if" and toks[i + 1].text == "(":
        close = match_forward(toks, i + 1)
        if toks[close + 1].text in ("return", "continue", "break"):
            yield "del", t.start, toks[statement_end(toks, close + 1)].end, ";"


def swaps(toks, i, types):
    """two neighbouring arguments of a function call exchanged"""
    t = toks[i]
    if (t.kind != "id" or toks[i + 1].text != "(" or t.text in KEYWORDS
            or t.text in types or t.text in NO_SWAP or t.text.isupper()):
        return
    args = call_arguments(toks, i + 1)
    for (a0, a1), (b0, b1) in zip(args, args[1:]):
        a = [x.text for x in toks[a0:a1 + 1]]
        b = [x.text for x in toks[b0:b1 + 1]]
        if a != b:
            yield "swap", toks[a0].start, toks[b1].end, exchange(
                toks[a0].start, toks[a1].end, toks[b0].start, toks[b1].end)


def exchange(a0, a1, b0, b1):
    """the replacement of text[a0:b1] with text[a0:a1] and text[b0:b1]
    exchanged, the separator between them kept"""
    return lambda text: text[b0:b1] + text[a1:b0] + text[a0:a1]


def file_mutants(root, rel, types, defined):
    """the candidates of one file, with their ids"""
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    masked = blank(text, defined)
    toks = tokens(masked)
    owner = functions(toks)
    line_at = [0] + [k + 1 for k, c in enumerate(text) if c == "\n"]
    found = []
    for func, op, start, end, repl in site_mutants(toks, owner, types):
        m = Mutant(rel, op, start, end, repl if isinstance(repl, str) else repl(text))
        m.func = func
        found.append(m)
    found.sort(key=lambda m: (m.start, m.end, m.op, m.repl))
    name_mutants(found, text, masked, line_at)
    return text, found


def name_mutants(found, text, masked, line_at):
    """line, before/after text and the stable id of each mutant; the hash
    reads the code of the line, not its comments, so that a reworded
    comment keeps the id"""
    per_line, seen = Counter(), Counter()
    for m in found:
        first = bisect.bisect_right(line_at, m.start) - 1
        last = bisect.bisect_right(line_at, max(m.start, m.end - 1)) - 1
        lo = line_at[first]
        hi = line_at[last + 1] - 1 if last + 1 < len(line_at) else len(text)
        m.line = first + 1
        m.before = " ".join(text[lo:hi].split())
        m.after = " ".join(m.apply(text)[lo:hi - (m.end - m.start) + len(m.repl)].split())
        m.index = per_line[(m.line, m.op)]
        per_line[(m.line, m.op)] += 1
        code = " ".join(masked[lo:hi].split())
        base = "\0".join([m.file, m.func, code, m.op, str(m.index), m.repl])
        m.ordinal = seen[base]                    # the same line twice in a function
        seen[base] += 1
        digest = hashlib.sha1(f"{base}\0{m.ordinal}".encode()).hexdigest()[:10]
        m.key = f"{m.file}:{digest}"
        m.id = f"{m.file}:{m.line}:{m.op}:{m.index}:{digest}"


def all_mutants(root, sources, types, defined):
    texts, mutants = {}, []
    for src in sources:
        rel = os.path.relpath(src, root)
        texts[rel], found = file_mutants(root, rel, types, defined)
        mutants += found
    return texts, mutants


def sample(mutants, budget):
    """budget mutants (all if budget is 0 or enough): each (file, operator)
    group gets its share by largest remainder, at least one (so never fewer
    mutants than groups), and takes its candidates of lowest hash"""
    if budget <= 0 or len(mutants) <= budget:
        return list(mutants)
    groups = defaultdict(list)
    for m in mutants:
        groups[(m.file, m.op)].append(m)
    total = len(mutants)
    exact = {g: len(ms) * budget / total for g, ms in groups.items()}
    share = {g: max(1, int(x)) for g, x in exact.items()}
    spare = budget - sum(share.values())
    for g in sorted(groups, key=lambda g: (-(exact[g] - int(exact[g])), g))[:max(0, spare)]:
        share[g] += 1
    chosen = []
    for g, ms in groups.items():
        chosen += sorted(ms, key=lambda m: m.key.split(":")[-1])[:share[g]]
    return sorted(chosen, key=lambda m: (m.file, m.start, m.op, m.repl))


# ---- building and running one mutant -------------------------------------------------

class Lab:
    """what every mutant shares: the commands, the unmutated objects, the tests"""
    def __init__(self, args, root, texts):
        self.compile = shlex.split(args.compile)
        self.link = shlex.split(args.link)
        self.base, self.out, self.root, self.texts = args.base, args.out, root, texts
        self.tests, self.keep = args.tests, args.keep
        self.helpers = [os.path.join(args.base, "tests", h + ".o") for h in args.helpers]
        self.timeouts = {}

    def lib_objects(self, replaced=None, by=None):
        top = os.path.basename(self.root)
        return [by if rel == replaced else
                os.path.join(self.base, "lib", top, rel[:-2] + ".o") for rel in self.texts]

    def link_test(self, name, objects, binary):
        cmd = (self.compile + [os.path.join(self.base, "tests", name + ".o")] + self.helpers
               + objects + self.link + ["-o", binary])
        return subprocess.run(cmd, capture_output=True, text=True)

    def run_test(self, binary, log, timeout):
        """'pass', 'fail' or 'timeout'; the whole process group goes on timeout
        (Criterion runs each test in a child)"""
        with open(log, "a") as out:
            out.write(f"---- {binary}\n")
            out.flush()
            with Running.lock:
                if Running.stopped:
                    return "fail"
                proc = subprocess.Popen([binary, "--jobs", "1", "--short-filename",
                                         "--fail-fast"], stdout=out,
                                        stderr=subprocess.STDOUT, start_new_session=True)
                Running.groups.add(proc.pid)
            try:
                return "pass" if proc.wait(timeout=timeout) == 0 else "fail"
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                return "timeout"
            finally:
                with Running.lock:
                    Running.groups.discard(proc.pid)


class Running:
    """the process groups of the tests now running: each has a session of
    its own, out of reach of the terminal's Ctrl-C, so a stopped run kills
    them itself"""
    lock, groups, stopped = threading.Lock(), set(), False

    @classmethod
    def stop(cls):
        with cls.lock:
            cls.stopped = True
            for pid in cls.groups:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def runner_error(log):
    """Criterion, not the test, failed: its runner could not start a test
    (seen once in many runs); such a run is retried, not counted as a kill"""
    tail = open(log, errors="replace").read()[-2000:]
    return "criterion: Could not spawn test instance" in tail


def baseline(lab):
    """link and run the unmutated tests: each must pass, and its time sets its
    timeout under a mutant"""
    work = os.path.join(lab.out, "baseline")
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "log")
    for name in lab.tests:
        binary = os.path.join(work, name)
        res = lab.link_test(name, lab.lib_objects(), binary)
        if res.returncode != 0:
            sys.exit(f"mutants: the unmutated {name} does not link:\n{res.stderr}")
        began = time.monotonic()
        if lab.run_test(binary, log, 600) != "pass":
            sys.exit(f"mutants: the unmutated library fails {name} (see {log})")
        took = time.monotonic() - began
        lab.timeouts[name] = max(10.0, 4 * took + 5)   # room for a busy machine
    shutil.rmtree(work)


def run_mutant(lab, seq, m):
    """build and test one mutant; returns (status, test, seconds, folder)"""
    began = time.monotonic()
    work = os.path.join(lab.out, "run", f"{seq:04d}")
    shutil.copytree(lab.root, os.path.join(work, "src"))
    src = os.path.join(work, "src", m.file)
    with open(src, "w", encoding="utf-8") as f:
        f.write(m.apply(lab.texts[m.file]))
    obj, log = os.path.join(work, "mutant.o"), os.path.join(work, "log")
    res = subprocess.run(lab.compile + MUTANT_ERRORS + ["-c", src, "-o", obj],
                         capture_output=True, text=True)
    status, killer = "stillborn", ""
    if res.returncode == 0:
        status, killer = test_mutant(lab, work, obj, m, log)
    else:
        open(log, "w").write(res.stderr)
    if status != "survived" and not lab.keep:
        shutil.rmtree(work)
    return status, killer, time.monotonic() - began, work


def test_order(tests, file):
    """the tests in their order, the file's own program (test_mask for
    mask.c) moved first: most of a file's mutants die there"""
    own = "test_" + os.path.splitext(os.path.basename(file))[0]
    return sorted(tests, key=lambda t: t != own)


def test_mutant(lab, work, obj, m, log):
    objects = lab.lib_objects(m.file, obj)
    for name in test_order(lab.tests, m.file):
        binary = os.path.join(work, name)
        if lab.link_test(name, objects, binary).returncode != 0:
            return "stillborn", name
        verdict = lab.run_test(binary, log, lab.timeouts[name])
        if verdict == "fail" and runner_error(log):
            verdict = lab.run_test(binary, log, lab.timeouts[name])
        os.remove(binary)
        if verdict != "pass":
            return ("killed" if verdict == "fail" else "timeout"), name
    return "survived", ""


# ---- the list of equivalent mutants, the report ---------------------------------------

def read_equivalents(path):
    """{file:hash: (id, reason)} from the table (id TAB reason; # comments)"""
    listed = {}
    if not path or not os.path.exists(path):
        return listed
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        ident, tab, reason = line.partition("\t")
        parts = ident.split(":")
        if not tab or not reason.strip() or len(parts) != 5:
            sys.exit(f"{path}:{n}: expected id<TAB>reason, id as file:line:op:index:hash")
        listed[f"{parts[0]}:{parts[4]}"] = (ident, reason.strip())
    return listed


def write_report(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.write("id\tstatus\ttest\tseconds\tfile\tline\toperator\tbefore\tafter\n")
        for m, status, test, secs in rows:
            f.write("\t".join([m.id, status, test, f"{secs:.1f}", m.file, str(m.line),
                               m.op, m.before, m.after]) + "\n")


def short(text, width=100):
    return text if len(text) <= width else text[:width - 1] + "…"


def summary(rows, listed, candidates, args, elapsed):
    """the survivors, the stale or wrong entries of the table, the totals; the
    exit status"""
    count = Counter(status for _, status, _, _ in rows)
    by_test = Counter(test for _, status, test, _ in rows if status == "killed")
    failed = False
    for m, status, test, _ in rows:
        if status in ("survived", "equivalent"):
            failed = failed or status == "survived"
            print(f"{status}: {m.file}:{m.line}  {short(m.before)}  ->  {short(m.after)}"
                  f"   [{m.id}]")
        elif status in ("killed", "timeout") and m.key in listed:
            failed = True
            print(f"listed as equivalent, but {test} kills it: {m.id} "
                  f"({listed[m.key][1]}); remove it from {args.equivalent}")
    known = {m.key for m in candidates}
    for key, (ident, _) in sorted(listed.items()):
        if key not in known:
            print(f"mutants: {ident} in {args.equivalent} matches no mutant of "
                  "the sources any more (stale entry)")
    order = [t for t in args.tests if by_test[t]]
    print("killed by: " + ", ".join(f"{t} {by_test[t]}" for t in order)
          + f"; timeout {count['timeout']}")
    killed = count["killed"] + count["timeout"]
    survived = count["survived"] + count["equivalent"]
    rate = 100.0 * killed / (killed + survived) if killed + survived else 0.0
    print(f"mutants: {len(rows)} of {len(candidates)} candidates, {args.jobs} jobs, "
          f"{elapsed:.0f} s")
    print(f"mutants: {killed} killed, {survived} survived ({count['equivalent']} "
          f"equivalent, listed), {count['stillborn']} stillborn; kill rate {rate:.1f} %")
    return 1 if failed else 0


# ---- main -----------------------------------------------------------------------------

def options():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--compile", required=True, help="the compiler and its flags")
    p.add_argument("--link", required=True, help="flags and libraries after the objects")
    p.add_argument("--base", required=True, help="the unmutated objects (lib/, tests/)")
    p.add_argument("--out", required=True, help="scratch folders and report.tsv")
    p.add_argument("--tests", nargs="+", required=True, help="test programs, in order")
    p.add_argument("--helpers", nargs="*", default=[], help="objects every test links")
    p.add_argument("--equivalent", default="", help="the table of equivalent mutants")
    p.add_argument("--max", type=int, default=0, help="the budget of mutants (0: all)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--only", default="", help="only the mutants whose id contains this")
    p.add_argument("--list", action="store_true", help="print the mutants, run nothing")
    p.add_argument("--keep", action="store_true", help="keep every scratch folder")
    p.add_argument("sources", nargs="+")
    return p.parse_args()


def limit_memory():
    """a mutant that asks for a huge buffer and gets it (overcommit) must not
    push the machine into swap: 8 GiB of address space per process"""
    cap = 8 << 30
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def main():
    args = options()
    root = os.path.commonpath([os.path.dirname(s) for s in args.sources])
    headers = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".h")]
    defined = {re.sub(r"=.*", "", f[2:]) for f in shlex.split(args.compile) if f.startswith("-D")}
    texts, candidates = all_mutants(root, sorted(args.sources), TYPES | typedef_names(headers),
                                    defined)
    chosen = [m for m in sample(candidates, args.max) if args.only in m.id]
    if args.list:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)    # | head stops it quietly
        for m in chosen:
            print(f"{m.id}\t{short(m.before, 70)}  ->  {short(m.after, 70)}")
        return 0
    shutil.rmtree(os.path.join(args.out, "run"), ignore_errors=True)
    os.makedirs(os.path.join(args.out, "run"), exist_ok=True)
    limit_memory()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # cleaned up as Ctrl-C
    args.base = shutil.copytree(args.base, os.path.join(args.out, "run", "base"))
    lab = Lab(args, snapshot(root, texts, args.out), texts)
    began = time.monotonic()
    baseline(lab)
    listed = read_equivalents(args.equivalent)
    rows = run_all(lab, chosen, args.jobs, listed)
    write_report(os.path.join(args.out, "report.tsv"), rows)
    return summary(rows, listed, candidates, args, time.monotonic() - began)


def snapshot(root, texts, out):
    """a copy of the library's tree as it was read, which every mutant's copy
    is made from: an edit of tangled/ during the run changes no mutant (main
    copies the unmutated objects too, against a rebuild by make)"""
    copy = os.path.join(out, "run", "pristine", os.path.basename(root))
    shutil.copytree(root, copy)
    for rel, text in texts.items():
        with open(os.path.join(copy, rel), "w", encoding="utf-8") as f:
            f.write(text)
    return copy


def run_all(lab, chosen, jobs, listed):
    rows = [None] * len(chosen)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_mutant, lab, i, m): i for i, m in enumerate(chosen)}
        try:
            finish(lab, chosen, futures, listed, rows)
        except BaseException:                    # Ctrl-C, SIGTERM: no orphan
            pool.shutdown(cancel_futures=True, wait=False)
            Running.stop()
            raise
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return rows


def finish(lab, chosen, futures, listed, rows):
    """each mutant's verdict as it comes in"""
    for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
        i = futures[fut]
        status, test, secs, work = fut.result()
        if status == "survived" and chosen[i].key in listed:
            status = "equivalent"
            if not lab.keep:
                shutil.rmtree(work)
        rows[i] = (chosen[i], status, test, secs)
        if sys.stderr.isatty():
            print(f"\rmutants: {done}/{len(chosen)}", end="", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
