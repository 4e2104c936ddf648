#!/usr/bin/env python3
"""Self-test subjects of lab 00 (attention by hand), in plain Python.

  lab00.py gen CHECKER TEMPLATE SUBJECTS  write the generated subjects into the
                             folder SUBJECTS (the answers files), SUBJECTS/numpy/
                             (the NumPy part's), afresh: make writes them into
                             build/ on every self-test; the hand-written ones
                             (correct-4dp.txt, numpy/solution.py, skeleton.py)
                             stay in judge/lab00/subjects/
  lab00.py verify CHECKER TEMPLATE SUBJECTS  check, independently of the C checker,
                             what verify() lists: the exact values, the inputs
                             shown to the learner (READMEs, TEMPLATE, correct-4dp.txt)
                             against example.h's, the hand-written answers, the
                             lines of --summary, the NumPy part's probe
  lab00.py cuts CHECKER TEMPLATE OUTDIR  every prefix of a right answers file, and the
                               file without each of its lines: CHECKER answers
                               0, 1 or 2 and never crashes
  lab00.py mutants CHECKER TEMPLATE SUBJECTS OUTDIR RUN...  each mutant of the
                               NumPy checker (judge/lab00/numpy_check.py with one
                               promise broken) makes the subject of SUBJECTS/numpy/ that
                               proves that promise fail: RUN... is the command
                               that runs a subject (the make rule's), its checker
                               given as the word @CHECKER@

The NumPy part's subjects (numpy/*.py) are solution.py, the learner's file
done, with one change each: a NumPy mistake, an exception, a hang, a wrong
shape, a language, a mode; each states what numpy_check.py must say about it.

TEMPLATE is the untouched answers file (labs/lab00-by-hand/answers.txt as
shipped; make passes the copy judge/selftest/pristine.sh chooses). The inputs
are not typed here: they are read from CHECKER.

A subject is an answers file followed by the lines that state what the
checker must print about it (judge/selftest/run-subject.sh reads them). Every
mistake's subject starts from TEMPLATE: the steps before the mistake hold
the hand-written two-decimal answers (HAND below), the mistaken step holds
the mistake's table rounded to two decimals, and the later steps are either
left as ? or carried on from the mistaken values, the way a learner who
trusts them would.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
LAB = os.path.join(ROOT, "labs", "lab00-by-hand")
JUDGE = os.path.join(ROOT, "judge", "lab00")
NUMPY_DIR = os.path.join(HERE, "numpy")     # solution.py, skeleton.py: written by hand
# the steps and the mistakes computed in plain Python, not taken from the C checker:
# numpy_check.py's (imported without writing bytecode into the source tree)
sys.dont_write_bytecode = True
sys.path.insert(0, JUDGE)
import numpy_check  # noqa: E402
from numpy_check import KEYS, tr  # noqa: E402

# the inputs and sizes, read from the checker by load_inputs
X = W_Q = W_K = W_V = None
T = D_MODEL = D_K = D_V = None
ATOL = RTOL = None
TEMPLATE = None
INP = None          # all of them as numpy_check.step takes them


def run(checker, *args):
    return subprocess.run([checker] + list(args), capture_output=True, text=True,
                          check=True).stdout


def load_inputs(checker, template):
    """The example's inputs, sizes and tolerance, as the checker gives them
    (check --reference-json: whole numbers come as ints)."""
    global X, W_Q, W_K, W_V, T, D_MODEL, D_K, D_V, ATOL, RTOL, TEMPLATE, INP
    ref = json.loads(run(checker, "--reference-json"))
    T, D_MODEL, D_K, D_V, ATOL, RTOL = (ref[k] for k in ("T", "d_model", "d_k", "d_v", "atol", "rtol"))
    X, W_Q, W_K, W_V = (ref["inputs"][k] for k in ("X", "W_Q", "W_K", "W_V"))
    INP = {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V, "d_model": D_MODEL, "d_k": D_K, "d_v": D_V}
    TEMPLATE = template


def step(key, t):
    """table key from the tables it depends on (t: key -> matrix); a division
    by zero gives inf or nan"""
    return numpy_check.step(key, t, INP)


def exact_tables(x=None):
    """every table, exactly, of the example (or of x instead of its X)"""
    t, inp = {}, dict(INP, X=x or X)
    for k in KEYS:
        t[k] = numpy_check.step(k, t, inp)
    return t


# the English hint text each mistake must print (a fixed part of it)
HINTS = {
    "q-uses-wk": "your Q is X W_K: Q and K swapped?",
    "q-xt": "your Q is X^T W_Q",
    "k-uses-wq": "your K is X W_Q: Q and K swapped?",
    "k-xt": "your K is X^T W_K",
    "v-xt": "your V is X^T W_V",
    "s-kq": "your scores look like K Q^T: row i of S is query i against every key",
    "s-qq": "your scores are Q Q^T",
    "s-kk": "your scores are K K^T",
    "z-times-sqrt": "you multiplied by sqrt(d_k) = 2",
    "z-no-scale": "the scale is missing",
    "z-by-dk": "you divided by d_k = 4",
    "z-by-dmodel": "you divided by sqrt(d_model)",
    "z-by-dv": "you divided by sqrt(d_v)",
    "m-columns": "these are the maxima of the columns",
    "m-unscaled": "these are the maxima of the unscaled S",
    "m-global": "you wrote the largest value of the whole table in every row",
    "m-min": "these are the row minima",
    "e-no-max": "the maximum was not subtracted: your E is exp(scaled)",
    "e-col-max": "you subtracted the maximum of each column",
    "e-sign": "the subtraction is reversed",
    "e-unscaled": "your E comes from the unscaled S",
    "e-no-exp": "you subtracted the maximum but did not take the exponential",
    "r-columns": "these are the sums of the columns of E",
    "r-scaled": "you added the scaled scores",
    "r-no-max": "you added exp(scaled) without the maximum subtracted",
    "a-columns": "each row of weights must sum to 1; your columns do",
    "a-transposed": "each row of weights must sum to 1; your columns do: your table is the transpose",
    "a-not-divided": "your weights are E itself",
    "a-unscaled": "your weights are the softmax of the unscaled S",
    "a-total": "you divided by the sum of the whole table",
    "o-at": "your output is A^T V",
    "o-e": "your output is E V",
    "o-scores": "your output mixes V with the scaled scores",
}

# each mistake: its step and the table it gives from the tables t
MISTAKES = {name: (m[1], lambda t, fn=m[2]: fn(t, INP))
            for name in HINTS for m in numpy_check.MISTAKES if m[0] == name}

# the two-decimal answers of correct-2dp.txt, as a learner writes them
HAND = {
    "Q": [[1, -1, 0, 0], [1, 2, 1, 0], [2, 0, 0, 0]],
    "K": [[1, 0, 1, 0], [-1, 1, 0, 0], [0, 1, 1, 1]],
    "V": [[1, 1], [2, 1], [2, 2]],
    "S": [[1, -2, -1], [2, 1, 3], [2, -2, 0]],
    "scaled": [[0.50, -1.00, -0.50], [1.00, 0.50, 1.50], [1.00, -1.00, 0.00]],
    "max": [[0.50], [1.50], [1.00]],
    "E": [[1.00, 0.22, 0.37], [0.61, 0.37, 1.00], [1.00, 0.14, 0.37]],
    "sum": [[1.59], [1.98], [1.51]],
    "A": [[0.63, 0.14, 0.23], [0.31, 0.19, 0.51], [0.66, 0.09, 0.25]],
    "O": [[1.37, 1.23], [1.71, 1.52], [1.34, 1.25]],
}


def within(w, e):
    return abs(w - e) <= ATOL + RTOL * abs(e)


def r2(m):
    return [[round(v + 0.0, 2) for v in r] for r in m]


def fmt(v, integer):
    if integer:
        return "%d" % round(v)
    s = "%.2f" % v
    return "0.00" if s == "-0.00" else s


# ---- writing answers files ------------------------------------------------------
def template_lines():
    with open(TEMPLATE, encoding="utf-8") as f:
        return f.read().split("\n")


def render(blocks):
    """The template with the given blocks (key -> list of row strings) filled in."""
    out, cur, rows = [], None, []
    for line in template_lines():
        m = re.match(r"\[([^\]]+)\]", line)
        if m:
            cur = m.group(1)
            rows = list(blocks.get(cur, []))
            out.append(line)
        elif cur and line.startswith("?") and rows:
            out.append(rows.pop(0))
        else:
            out.append(line)
    return "\n".join(out)


def rows_of(key, m, sep="  "):
    integer = key in ("Q", "K", "V", "S")
    return [sep.join(fmt(v, integer) for v in r) for r in m]


def learner_file(mistake_key=None, table=None, carry=True, stop_after=None, also=None):
    """Correct hand answers up to the mistaken step, then its table, then the
    later steps carried on from the learner's own values (or left as ?);
    also: key -> table of a later step mistaken too"""
    t, blocks = {}, {}
    wrong_seen = False
    also = dict(also or {}, **({mistake_key: table} if mistake_key else {}))
    for k in KEYS:
        if k in also:
            t[k] = r2(also[k](t))
            wrong_seen = True
        elif not wrong_seen:
            t[k] = HAND[k]
        elif carry:
            t[k] = r2(step(k, t))
            if not all(math.isfinite(v) for r in t[k] for v in r):
                break                      # a division by zero: nothing a learner could write
        else:
            break
        blocks[k] = rows_of(k, t[k])
        if k == stop_after:
            break
    return render(blocks)


def line_of(text, pattern, nth=1):
    for i, line in enumerate(text.split("\n"), 1):
        if pattern in line:
            nth -= 1
            if nth == 0:
                return i
    raise ValueError(pattern)


def cases():
    """(file name, text, lang, exit status, [fixed strings the output must hold])"""
    out = []
    full = render({k: rows_of(k, HAND[k]) for k in KEYS})     # right, with two decimals
    for name, (key, fn) in MISTAKES.items():
        carry = name not in ("s-qq", "e-sign", "a-total", "o-scores")   # a few stop there
        text = learner_file(key, fn, carry=carry)
        out.append((name + ".txt", text, "en", 1,
                    ["First step that differs: [%s]" % key, "hint: " + HINTS[name]]))

    # generic hints: no catalogued mistake, yet something to say
    def row_changed(key, i, change):
        """the table of step key, its row i changed"""
        return lambda t: [change(r) if n == i else r for n, r in enumerate(step(key, t))]
    a_row_off = row_changed("A", 2, lambda r: [v * 1.5032 / 1.60 for v in r])
    out.append(("a-row-not-one.txt", learner_file("A", a_row_off), "en", 1,
                ["First step that differs: [A]", "hint: row 2 of your weights sums to 0.94, not 1"]))
    out.append(("o-outside-v.txt", learner_file("O", row_changed("O", 0, lambda r: [2.50] + r[1:])), "en", 1,
                ["First step that differs: [O]", "hint: each row of O is a weighted average of the rows of V"]))
    e_above_one = row_changed("E", 1, lambda r: r[:1] + [1.37] + r[2:])
    out.append(("e-above-one.txt", learner_file("E", e_above_one, carry=False), "en", 1,
                ["First step that differs: [E]", "every value of E lies in (0, 1]"]))

    text = full.replace("1.00  0.22  0.37", "1.00  0.22  0.4")
    out.append(("e-one-decimal.txt", text, "en", 1,
                ["First step that differs: [E]", "row 0, column 2", "hint: write at least two decimals"]))

    out.append(("z-transposed.txt", learner_file("scaled", lambda t: tr(step("scaled", t))), "en", 1,
                ["First step that differs: [scaled]", "hint: your table is the transpose of the expected one"]))

    # an error carried on: every later step follows from it
    text = learner_file("S", MISTAKES["s-kq"][1], carry=True)
    out.append(("carried-from-s.txt", text, "en", 1,
                ["First step that differs: [S]", "[scaled]  S / sqrt(d_k) = S / 2        3x3    WRONG  follows from your [S]",
                 "[O]       O = A V                      3x2    WRONG  follows from your [S]",
                 "fix the earlier step first"]))

    # a second, independent mistake after a carried one
    out.append(("two-mistakes.txt", learner_file("scaled", MISTAKES["z-no-scale"][1],
                                                 also={"E": MISTAKES["e-no-max"][1]}), "en", 1,
                ["First step that differs: [scaled]", "hint: the scale is missing",
                 "[max]     m_i = max_j scaled_ij        3x1    WRONG  follows from your [scaled]",
                 "Also wrong on its own: [E]", "from your own earlier tables it is",
                 "hint: the maximum was not subtracted"]))

    # Spanish output
    out.append(("s-kq-es.txt", learner_file("S", MISTAKES["s-kq"][1]), "es", 1,
                ["Primer paso que difiere: [S]", "pista: tus puntuaciones parecen K Q^T"]))

    # one odd cell: the rule of the step, no guess at a mistake
    text = learner_file(stop_after="K").replace(
        "[S] S = Q K^T   (3 x 3)\n?  ?  ?", "[S] S = Q K^T   (3 x 3)\n1  2  ?")
    out.append(("one-cell-no-guess.txt", text, "en", 1,
                ["First step that differs: [S]", "hint: S_ij is the dot product of row i of Q and row j of K",
                 "!K Q^T"]))

    # partly done
    out.append(("partial-ok.txt", learner_file(stop_after="S"), "en", 0,
                ["4 of 10 steps right, 0 wrong, 6 pending", "Next: [scaled]"]))
    text = learner_file(stop_after="V").replace("0  1  1  1", "0  1  1  2")
    out.append(("partial-wrong.txt", text, "en", 1,
                ["First step that differs: [K]", "row 2, column 3", "expected 1.0000, you wrote 2"]))
    text = learner_file(stop_after="S") .replace("[scaled] S / sqrt(d_k) = S / 2   (3 x 3)\n?  ?  ?\n?  ?  ?",
                                                 "[scaled] S / sqrt(d_k) = S / 2   (3 x 3)\n0.50  -1.00  -0.50\n1.00  ?  ?")
    out.append(("half-block.txt", text, "en", 0,
                ["[scaled]  S / sqrt(d_k) = S / 2        3x3    pending  (4 of 9 cells written)"]))

    # numbers written in other common ways: decimal comma, minus sign U+2212,
    # one line for the maxima, a trailing comment, Windows line ends
    text = full.replace("0.61  0.37  1.00", "0,61  0,37  1,00   # exp(-0.5), exp(-1), exp(0)")
    text = text.replace("1.00  -1.00  0.00", "1.00  \u22121.00  0.00")
    text = text.replace("0.50\n1.50\n1.00\n", "0.50  1.50  1.00\n")
    text = text.replace("\n", "\r\n")
    out.append(("correct-other-notation.txt", text, "en", 0, ["10 of 10 steps right", "Every step is right"]))

    # layouts the checker cannot read: exit 2, the step and the line named
    t = full.replace("0.61  0.37  1.00", "O.61  0.37  1.00")
    out.append(("bad-number.txt", t, "en", 2,
                [":%d: [E] row 1, column 0: 'O.61' is not a number" % line_of(t, "O.61")]))
    t = full.replace("2  1  3", "2  1  3  4")
    out.append(("wrong-columns.txt", t, "en", 2,
                [":%d: [S] row 1 has 4 numbers, expected 3" % line_of(t, "2  1  3  4")]))
    t = full.replace("0.31  0.19  0.51\n", "")
    out.append(("wrong-rows.txt", t, "en", 2, [":%d: [A] 2 rows, expected 3" % line_of(t, "0.66  0.09  0.25")]))
    # a deleted block is pending, not a broken file
    t = full.replace("[sum] r_i = sum_j E_ij   (3 values, one per row / 3 valores, uno por fila)\n1.59\n1.98\n1.51\n\n", "")
    out.append(("deleted-block.txt", t, "en", 0,
                ["[sum]     r_i = sum_j E_ij             3x1    pending  (the block is not in the file)",
                 "9 of 10 steps right, 0 wrong, 1 pending"]))
    t = learner_file(stop_after="S")
    t = t[:t.index("[scaled]")]
    out.append(("deleted-unfinished.txt", t, "en", 0,
                ["4 of 10 steps right, 0 wrong, 6 pending", "Next: [scaled]", "!the block is missing"]))
    t = full.replace("[A] A_ij", "[W] A_ij")
    out.append(("unknown-block.txt", t, "en", 2, [":%d: unknown block [W]" % line_of(t, "[W]"), "[A] the block is missing"]))
    t = full + "\n[Q] again\n1 2 3 4\n1 2 3 4\n1 2 3 4\n"
    out.append(("duplicate-block.txt", t, "en", 2,
                [":%d: [Q] this block appears twice (first at line %d)" % (line_of(t, "[Q]", 2), line_of(t, "[Q]"))]))
    t = "1 2 3\n" + full
    out.append(("numbers-before-title.txt", t, "en", 2, [":1: numbers before the first block title"]))
    t = full.replace("[V] V = X W_V", "[V V = X W_V")
    out.append(("missing-bracket.txt", t, "en", 2, [":%d: a block title looks like [Q]" % line_of(t, "[V V")]))
    t = full.replace("1.37  1.23\n1.71  1.52\n1.34  1.25", "1.37  1.23  0.5\n1.71  1.52  0.5\n1.34  1.25  0.5")
    out.append(("o-three-columns.txt", t, "en", 2,
                [":%d: [O] row 0 has 3 numbers, expected 2" % line_of(t, "1.37  1.23  0.5"),
                 "three columns suggest the weights A alone"]))
    t = full.replace("0.50\n1.50\n1.00\n", "0.50  -1.00  -0.50\n1.00  0.50  1.50\n1.00  -1.00  0.00\n")
    out.append(("max-as-table.txt", t, "en", 2, ["[max] row 0 has 3 numbers, expected 1", "one value per row"]))
    out.append(("empty.txt", "", "en", 2, ["no block title such as [Q]: this is not an answers file"]))
    t = full.replace("[S] S = Q K^T", "[S] S = Q K^T\n" + "9 " * 700)
    out.append(("long-line.txt", t, "en", 2, [":%d: [S] line longer than 1024 characters" % line_of(t, "9 9 9")]))
    t = full.replace("1.59", "1.59e0")
    out.append(("exponent.txt", t, "en", 0, ["10 of 10 steps right"]))
    t = full.replace("1.59", "1.59e")
    out.append(("exponent-cut.txt", t, "en", 2, ["[sum] row 0, column 0: '1.59e' is not a number"]))
    t = full.replace("1.59", "nan")
    out.append(("nan.txt", t, "en", 2, ["[sum] row 0, column 0: 'nan' is not a number"]))
    t = full.replace("0.63  0.14  0.23", "0.63  0.14  0.23 0.1")
    out.append(("bad-number-es.txt", t.replace("0.61  0.37  1.00", "0.61  0.37  1.O0"), "es", 2,
                ["[E] fila 1, columna 2: '1.O0' no es un número", "[A] la fila 0 tiene 4 números, se esperaban 3"]))

    out += parser_cases(full)

    # right answers as a learner writes them (two decimals), in both languages;
    # the untouched template: pending, not failing
    out.append(("correct-2dp.txt", full, "en", 0,
                ["10 of 10 steps right, 0 wrong, 0 pending", "Every step is right"]))
    out.append(("correct-2dp-es.txt", full, "es", 0, ["10 de 10 pasos bien, 0 mal, 0 pendientes"]))
    out.append(("untouched.txt", "\n".join(template_lines()), "en", 0,
                ["0 of 10 steps right, 0 wrong, 10 pending", "Next: [Q]"]))
    # Spanish from the locale alone (no --lang)
    out.append(("s-kq-locale-es.txt", learner_file("S", MISTAKES["s-kq"][1]), None, 1,
                ["Primer paso que difiere: [S]", "pista: tus puntuaciones parecen K Q^T"],
                ["run-env: LANG=es_ES.UTF-8"]))
    # not an answers file: a missing file, a directory, binary bytes
    out.append(("not-a-file.txt", "# the checker is given a file that does not exist\n", "en", 2,
                ["no-such-file.txt: cannot open the answers file"], ["run-file: no-such-file.txt"]))
    out.append(("directory.txt", "# the checker is given this folder\n", "en", 2,
                ["read error", "The file could not be checked"], ["run-file: ."]))
    out.append(("binary.txt", "\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00>\x00\x01\n\x00\x00\xfe\xffgarbage\x1b[0m\n",
                "en", 2, [":1: numbers before the first block title", "The file could not be checked"]))
    return out


def render_rows(fmt_row, tables=HAND):
    """The template with every block of tables written by fmt_row(key, row of numbers) -> one line"""
    return render({k: [fmt_row(k, r) for r in tables[k]] for k in KEYS})


def parser_cases(full):
    """The ways of writing numbers and titles a learner brings from other
    tools: accepted when they are unambiguous, named once when they are not."""
    out = []
    # spaces and minus signs from a word processor: accepted
    t = full.replace("1  -1  0  0", "1\u00a0\u00a0-1\u00a0\u00a00\u00a0\u00a00")
    t = t.replace("0.63  0.14  0.23", "0.63\u00a00.14\u202f0.23")
    out.append(("nbsp.txt", t, "en", 0, ["10 of 10 steps right"]))
    t = full.replace("1.00  -1.00  0.00", "1.00  \u20131.00  0.00").replace("-1  1  0  0", "\u22121  1  0  0")
    out.append(("en-dash.txt", t, "en", 0, ["10 of 10 steps right"]))
    # e-notation, as a spreadsheet exports it: accepted
    t = render_rows(lambda k, r: "  ".join("%.6E" % v for v in r))
    out.append(("e-notation.txt", t, "en", 0, ["10 of 10 steps right"]))
    # commas, semicolons, brackets between numbers: said once
    for name, sep, row in (("comma-space", ", ", "%s"), ("comma-no-space", ",", "%s"),
                           ("semicolons", "; ", "%s"), ("brackets", ", ", "[%s]")):
        t = render({k: [row % line for line in rows_of(k, HAND[k], sep)] for k in KEYS})
        first = t.split("\n")[line_of(t, "[Q] Q = X W_Q")]
        out.append((name + ".txt", t, "en", 2,
                    [":%d: [Q] separate numbers with spaces, not commas, semicolons or brackets: `%s`, and %d more lines like it"
                     % (line_of(t, "[Q] Q = X W_Q") + 1, first,
                        sum(1 for k in KEYS for r in HAND[k] if len(r) > 1 or name == "brackets") - 1),
                     "!is not a number", "!row 0 has", "!row 1 has"]))
    t = full.replace("0.61  0.37  1.00", "0,61  0,37  1,00").replace("1.00  0.22  0.37", "1.00  0,22  0,37")
    out.append(("decimal-comma.txt", t, "en", 0, ["10 of 10 steps right"]))
    t = full.replace("1  1\n2  1\n2  2", "1,1\n2,1\n2,2")
    out.append(("comma-two-numbers.txt", t, "en", 2,
                [":%d: [V] row 0 has 1 number, expected 2" % line_of(t, "1,1"),
                 "hint: '1,1' is one number with a decimal comma; to write two numbers, separate them with a space"]))
    t = full.replace("1  1\n2  1\n2  2", "1,1\n2,1\n2,2")
    out.append(("comma-two-numbers-es.txt", t, "es", 2,
                ["pista: '1,1' es un número con coma decimal"]))
    # percents: named once; weights written as percents get their own hint
    t = full.replace("0.63  0.14  0.23\n0.31  0.19  0.51\n0.66  0.09  0.25",
                     "63%  14%  23%\n31%  19%  51%\n66%  9%  25%")
    out.append(("percent-sign.txt", t, "en", 2,
                [":%d: [A] '63%%' is a percent (9 cells like it): write values as plain numbers, 0.63 for 63%%"
                 % line_of(t, "63%"), "!is not a number"]))
    t = full.replace("0.63  0.14  0.23\n0.31  0.19  0.51\n0.66  0.09  0.25",
                     "63  14  23\n31  19  51\n66  9  25")
    out.append(("percent-values.txt", t, "en", 1,
                ["First step that differs: [A]", "hint: weights are fractions, not percents: write 0.63, not 63",
                 "!divide row"]))
    # too few decimals: the tolerance, and how many decimals are needed
    ex = exact_tables()
    one = {k: [[round(v, 1) for v in r] for r in ex[k]] for k in KEYS}
    t = render_rows(lambda k, r: "  ".join(("%d" % v) if k in ("Q", "K", "V", "S") else "%.1f" % v for v in r),
                    tables=one)
    out.append(("one-decimal.txt", t, "en", 1,
                ["First step that differs: [E]",
                 "hint: write at least two decimals: your 0.2 is 0.2231 rounded to 1 decimal, and a value is "
                 "right only within 0.01 + 0.01 |exact| (0.0122 here); with two decimals it is 0.22.", "!divide row"]))
    t = full.replace("0.63  0.14  0.23\n0.31  0.19  0.51\n0.66  0.09  0.25",
                     "0.6  0.1  0.2\n0.3  0.2  0.5\n0.7  0.1  0.2")
    out.append(("a-one-decimal.txt", t, "en", 1,
                ["First step that differs: [A]", "hint: write at least two decimals: your 0.6 is 0.6285 rounded to 1 decimal", "!divide row"]))
    # transposed blocks of every shape
    for key, name in (("O", "o-transposed"), ("Q", "q-transposed"), ("V", "v-transposed")):
        rows = rows_of(key, HAND[key])
        t = full.replace("\n".join(rows), "\n".join(rows_of(key, tr(HAND[key]))))
        r, c = len(HAND[key]), len(HAND[key][0])
        out.append((name + ".txt", t, "en", 2,
                    [":%d: [%s] the block is written transposed: %d rows of %d numbers, but %s is %d x %d"
                     % (line_of(t, "[%s] " % key), key, c, r, key, r, c),
                     "your numbers are right: write column i of your block as line i",
                     "!suggest", "!is a block title like"]))
    t = full.replace("1.00  0.22  0.37\n0.61  0.37  1.00\n1.00  0.14  0.37",
                     "1.00  0.61  1.00\n0.22  0.37  0.14\n0.37  1.00  0.37")
    out.append(("e-transposed.txt", t, "en", 1,
                ["First step that differs: [E]", "hint: your table is the transpose of the expected one"]))
    # titles: decorated, pasted from a README, in Spanish, in other cases
    titles_en = {
        "[Q] Q = X W_Q   (3 x 4)": "**`[Q]` Q = X W_Q (3 x 4).**",
        "[K] K = X W_K   (3 x 4)": "## K",
        "[V] V = X W_V   (3 x 2)": "V:",
        "[S] S = Q K^T   (3 x 3)": "[ s ] S = Q K^T",
        "[scaled] S / sqrt(d_k) = S / 2   (3 x 3)": "S / sqrt(d_k) = S / 2",
        "[max] m_i = max_j scaled_ij   (3 values, one per row / 3 valores, uno por fila)": "[MAX]",
        "[E] E_ij = exp(scaled_ij - m_i)   (3 x 3)": "E = exp(scaled - m)",
        "[sum] r_i = sum_j E_ij   (3 values, one per row / 3 valores, uno por fila)": "### [Sum]",
        "[A] A_ij = E_ij / r_i   (3 x 3)": "5. [A]: the weights",
        "[O] O = A V   (3 x 2)": "> `[O]`",
    }
    titles_es = {
        "[Q] Q = X W_Q   (3 x 4)": "1. **`[Q]` Q = X W_Q (3 x 4).**",
        "[scaled] S / sqrt(d_k) = S / 2   (3 x 3)": "[escaladas] S / sqrt(d_k) = S / 2",
        "[max] m_i = max_j scaled_ij   (3 values, one per row / 3 valores, uno por fila)":
            "6. **`[max]` m_i = max_j scaled_ij (3 valores).**",
        "[sum] r_i = sum_j E_ij   (3 values, one per row / 3 valores, uno por fila)": "[Suma] r_i = sum_j E_ij",
        "[A] A_ij = E_ij / r_i   (3 x 3)": "Pesos:",
        "[O] O = A V   (3 x 2)": "[Salida]",
    }
    for name, titles in (("titles-decorated", titles_en), ("titles-es", titles_es)):
        t = full
        for old, new in titles.items():
            t = t.replace(old, new)
        out.append((name + ".txt", t, "en", 0, ["10 of 10 steps right"]))
    return out


STATEMENTS = "# ---- what the checker must say about this file (judge/selftest/run-subject.sh)"


def subject_text(text, lang, status, strings, directives=()):
    """An answers file followed by what the checker must say about it, in the
    lines judge/selftest/run-subject.sh reads (the checker skips them: # comments)."""
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = [STATEMENTS]
    if lang:
        lines.append("# run-lang: " + lang)
    lines += ["# " + d for d in directives]
    lines.append("# expect-exit: %d" % status)
    for want in strings:
        lines.append("# expect-not: " + want[1:] if want.startswith("!") else "# expect: " + want)
    if text and not text.endswith("\n"):
        text += nl
    return text + (nl if text else "") + nl.join(lines) + nl


def subjects():
    """file name -> the text gen writes"""
    return {c[0]: subject_text(*c[1:]) for c in cases()}


# ---- the NumPy part: subjects made from solution.py --------------------------------------

def solution_body():
    """solution.py without its opening comment and its statements"""
    with open(os.path.join(NUMPY_DIR, "solution.py"), encoding="utf-8") as f:
        text = f.read()
    text = text[:text.index(STATEMENTS)].rstrip("\n") + "\n"
    return text[text.index("import numpy"):]



def numpy_cases(where):
    """(name, what it is, [(old, new)], lang, answers file, exit status,
    [fixed strings, ! for must-not], [more directives], [more args]);
    where: the folder of the generated subjects, from the top folder"""
    ex = exact_tables()
    q_typed = "np.array(%r)" % [[float(v) for v in r] for r in ex["Q"]]
    rest_none = [(l, l.split("=")[0].rstrip() + " = None  # LAB_TODO") for l in
                 ("scaled = S / np.sqrt(d_k)", "m = scaled.max(axis=1)", "E = np.exp(scaled - m[:, None])",
                  "r = E.sum(axis=1)", "A = E / r[:, None]", "O = A @ V")]
    right = "correct-2dp.txt"
    no_max = [("A = E / r[:, None]", "A = np.exp(scaled) / np.exp(scaled).sum(axis=1, keepdims=True)")]
    c = [
        # NumPy mistakes, each with its hint
        ("q-xt", "X.T @ W_Q", [("Q = X @ W_Q", "Q = X.T @ W_Q")], "en", right, 1,
         ["First NumPy table that differs: [Q] Q = X W_Q, row 0, column 1:",
          "hint: your NumPy Q is X.T @ W_Q: X.T has the tokens as its columns. X is square here (3 x 3), so the "
          "product has the right shape and the wrong values; with a number of tokens other than d_model it would not "
          "even run (a shape error).",
          "[Q] your hand Q matches the reference but your NumPy Q does not: look at the line that computes Q "
          "(row 0, column 1: you wrote -1, NumPy gives 0.0000).",
          "[S]       S = Q K^T                    WRONG      ok  NumPy follows from your NumPy [Q]"]),
        ("k-xt-es", "X.T @ W_K, in Spanish", [("K = X @ W_K", "K = X.T @ W_K")], "es", right, 1,
         ["Primera tabla de NumPy que difiere: [K] K = X W_K", "pista: tu K de NumPy es X.T @ W_K",
          "[K] tu K a mano coincide con la referencia pero tu K de NumPy no: mira la línea que calcula K", "!hint"]),
        ("v-xt", "X.T @ W_V", [("V = X @ W_V", "V = X.T @ W_V")], "en", right, 1,
         ["First NumPy table that differs: [V]", "hint: your NumPy V is X.T @ W_V"]),
        ("s-kq", "K @ Q.T, the same mistake as the hand table", [("S = Q @ K.T", "S = K @ Q.T")], "en", "s-kq.txt", 1,
         ["First NumPy table that differs: [S]", "hint: your NumPy S is K @ Q.T, the transpose",
          "[S] your hand table and your NumPy table agree with each other, not with the reference: the same mistake in both."]),
        ("no-scale", "the 1/sqrt(d_k) scale forgotten", [("scaled = S / np.sqrt(d_k)", "scaled = S")], "en", right, 1,
         ["First NumPy table that differs: [scaled]", "hint: your NumPy scaled is S itself: the 1/sqrt(d_k) scale is forgotten"]),
        ("by-dk", "divided by d_k", [("scaled = S / np.sqrt(d_k)", "scaled = S / d_k")], "en", right, 1,
         ["hint: your NumPy scaled is S / d_k"]),
        ("max-axis0", "the row maxima taken down the columns", [("m = scaled.max(axis=1)", "m = scaled.max(axis=0)")],
         "en", right, 1,
         ["First NumPy table that differs: [max]", "hint: your NumPy max is scaled.max(axis=0), the maximum of each column",
          "[E]       E_ij = exp(scaled_ij - m_i)  WRONG      ok  NumPy follows from your NumPy [max]"]),
        ("softmax-axis0", "the whole softmax along the wrong axis",
         [("m = scaled.max(axis=1)", "m = scaled.max(axis=0, keepdims=True)"),
          ("E = np.exp(scaled - m[:, None])", "E = np.exp(scaled - m)"),
          ("r = E.sum(axis=1)", "r = E.sum(axis=0, keepdims=True)"), ("A = E / r[:, None]", "A = E / r")],
         "en", right, 1,
         ["First NumPy table that differs: [max]", "hint: your NumPy max is scaled.max(axis=0)",
          "Also wrong on its own: [E]", "Also wrong on its own: [sum]", "hint: your NumPy sum is E.sum(axis=0)"]),
        ("e-broadcast", "scaled - m with m of shape (3,)", [("E = np.exp(scaled - m[:, None])", "E = np.exp(scaled - m)")],
         "en", right, 1,
         ["First NumPy table that differs: [E]",
          "hint: scaled - m, with m of shape (3,), subtracts m_j from column j of every row: NumPy lines a (3,) array up with the last axis"]),
        ("e-no-max", "E without the maximum subtracted", [("E = np.exp(scaled - m[:, None])", "E = np.exp(scaled)")],
         "en", right, 1,
         ["First NumPy table that differs: [E]", "hint: your NumPy E is np.exp(scaled): the row maximum is not subtracted",
          "[A]       A_ij = E_ij / r_i            ok         ok", "[large]   the same, X times %d         WRONG" % 30]),
        ("softmax-no-max", "weights right on the example, nan on large scores", no_max, "en", right, 1,
         ["NumPy: 10 of 10 tables right, 0 wrong, 0 pending; large inputs: WRONG.",
          "On the large inputs (X times 30, scaled scores up to 1350) your NumPy [A] differs, though it is right on the example:",
          "NumPy gives nan", "hint: exp of a scaled score above 709.78 is inf in double precision, and inf / inf is nan.",
          "NumPy warned: ", "overflow encountered in exp"]),
        ("softmax-no-max-es", "the same, in Spanish", no_max, "es", right, 1,
         ["entradas grandes: MAL", "Con las entradas grandes (X por 30", "pista: exp de una puntuación escalada mayor que 709.78"]),
        ("a-broadcast", "E / r with r of shape (3,)", [("A = E / r[:, None]", "A = E / r")], "en", right, 1,
         ["First NumPy table that differs: [A]", "hint: E / r, with r of shape (3,), divides column j of every row by r_j"]),
        ("a-columns", "the weights normalised down the columns", [("A = E / r[:, None]", "A = E / E.sum(axis=0, keepdims=True)")],
         "en", right, 1, ["hint: your NumPy weights are normalised down the columns (axis=0)"]),
        ("o-at", "A.T @ V", [("O = A @ V", "O = A.T @ V")], "en", right, 1, ["hint: your NumPy O is A.T @ V"]),
        ("typed", "Q typed in from the hand table", [("Q = X @ W_Q", "Q = " + q_typed)], "en", right, 1,
         ["NumPy: 10 of 10 tables right", "your NumPy [Q] differs, though it is right on the example",
          "hint: it is the same table as on the example: it does not depend on X"]),
        # wrong shapes
        ("s-no-transpose", "Q @ K: a shape error", [("S = Q @ K.T", "S = Q @ K")], "en", right, 1,
         ["Your NumPy code raised ValueError while computing [S] at line 13:", "        S = Q @ K",
          "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0",
          "On that line: Q is 3 x 4, K is 3 x 4.", "hint: A @ B needs as many columns in A as rows in B",
          "hint: [S] is S = Q @ K.T", "[S]       S = Q K^T                    WRONG      ok  NumPy raised here",
          "NumPy: 3 of 10 tables right, 1 wrong, 6 pending"]),
        ("s-elementwise", "Q * K: a table of the wrong shape", [("S = Q @ K.T", "S = Q * K")], "en", right, 1,
         ["First NumPy table that differs: [S] S = Q K^T:",
          "your NumPy S has shape (3, 4), 3 x 4; expected (3, 3). T x d_k is the shape of Q and K: Q * K multiplies element by element"]),
        ("o-transposed", "O transposed", [("O = A @ V", "O = (A @ V).T")], "en", right, 1,
         ["your NumPy O has shape (2, 3), 2 x 3; expected (3, 2). The table is transposed"]),
        ("max-scalar", "one maximum for the whole table", [("m = scaled.max(axis=1)", "m = scaled.max()")], "en", right, 1,
         ["your NumPy max has shape (), a single number; expected (3,) or (3, 1). One number for the whole table",
          "Your NumPy code raised IndexError while computing [E]"]),
        ("keepdims", "the maxima and sums as columns (keepdims): right", [
            ("m = scaled.max(axis=1)", "m = scaled.max(axis=1, keepdims=True)"),
            ("E = np.exp(scaled - m[:, None])", "E = np.exp(scaled - m)"),
            ("r = E.sum(axis=1)", "r = E.sum(axis=1, keepdims=True)"), ("A = E / r[:, None]", "A = E / r")],
         "en", right, 0, ["NumPy: 10 of 10 tables right, 0 wrong, 0 pending; large inputs: ok."]),
        # exceptions, hangs, files that do not load
        ("exception", "a misspelt name", [("A = E / r[:, None]", "A = E / R[:, None]")], "en", right, 1,
         ["Your NumPy code raised NameError while computing [A] at line 18:", "NameError: name 'R' is not defined",
          "hint: a name that is not defined", "NumPy: 8 of 10 tables right, 1 wrong, 1 pending"]),
        ("exception-es", "the same, in Spanish", [("A = E / r[:, None]", "A = E / R[:, None]")], "es", right, 1,
         ["Tu código NumPy lanzó NameError al calcular [A] en la línea 18:", "pista: un nombre que no está definido"]),
        ("exception-helper", "an exception in a helper: the learner's frames only",
         [("def attention_tables(", "def softmax_rows(z):\n    e = np.exp(z - z.max(axis=1, keepdims=True))\n"
           "    return e / e.sum(axis=1, keep_dims=True)\n\n\ndef attention_tables("),
          ("A = E / r[:, None]", "A = softmax_rows(scaled)")], "en", right, 1,
         ["Your NumPy code raised TypeError while computing [A] at line 23:", "in attention_tables",
          "in softmax_rows", "keep_dims", "!dist-packages", "!numpy_check.py"]),
        ("uses-none", "a line that uses a table still None", [("Q = X @ W_Q", "Q = None  # LAB_TODO")], "en", right, 1,
         ["Your NumPy code raised ValueError while computing [S]", "hint: a table on that line is still None (Q)",
          "[Q]       Q = X W_Q                    pending    ok"]),
        ("partial", "Q, K, V and S done, the rest None", rest_none, "en", right, 0,
         ["NumPy: 4 of 10 tables right, 0 wrong, 6 pending; large inputs: pending.", "Next: [scaled] in"]),
        ("todo-raise", "raise NotImplementedError after V", [("    S = Q @ K.T", "    raise NotImplementedError(\"LAB_TODO\")\n    S = Q @ K.T")],
         "en", right, 0, ["NumPy: 3 of 10 tables right, 0 wrong, 7 pending", "!raised"]),
        ("hang", "a loop that never ends", [("    O = A @ V", "    O = A @ V\n    while True:\n        pass")], "en", right, 1,
         ["Your NumPy code was still running after 1 s: it was stopped at line 20:", "hint: a loop that never ends?",
          "[large]   the same, X times 30         WRONG"]),
        ("hang-hard", "a hang that SIGALRM does not stop, and a process started",
         [("    d_k = W_Q.shape[1]", "    import signal, subprocess, sys, time\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
           "    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', 'lab00-numpy-selftest-leftover'])\n"
           "    time.sleep(60)\n    d_k = W_Q.shape[1]")], "es", right, 1,
         ["Tu código NumPy no terminó en 1 s: se detuvo, con todo lo que inició."]),
        ("syntax-error", "a file that does not load", [("Q = X @ W_Q", "Q = X @ W_Q)")], "en", right, 1,
         ["Your file cannot be loaded (SyntaxError): Python stops before attention_tables is called:", "unmatched ')'"]),
        ("no-function", "the function renamed", [("def attention_tables(", "def attention(")], "en", right, 1,
         ["has no function attention_tables(X, W_Q, W_K, W_V)"]),
        ("bad-return", "a tuple returned", [("    return {", "    return Q, {")], "en", right, 1,
         ["attention_tables returned a tuple, not a dict"]),
        ("os-exit", "the process ended by the learner's code", [("    O = A @ V", "    import os\n    os._exit(3)")], "en", right, 1,
         ["(the Python process ended with status 3 before returning)"]),
        ("prints", "print() in the learner's code", [("    O = A @ V", "    O = A @ V\n    print('O is', O.shape)")], "en", right, 0,
         ["Your code printed (2 lines):", "| O is (3, 2)", "NumPy: 10 of 10 tables right"]),
        ("writes-fd1", "a write to file descriptor 1, past Python's print", [("    O = A @ V", "    O = A @ V\n    import os\n    os.write(1, b'{noise\\n')")],
         "en", right, 0, ["NumPy: 10 of 10 tables right, 0 wrong, 0 pending; large inputs: ok."]),
        ("sandbox-repo", "the learner's code looks for the repository and the home folder", [("    O = A @ V", "    O = A @ V\n    import os\n    print('sees Makefile:', os.path.exists('Makefile'), '- sees /root or /home:', os.path.exists('/root') or os.path.exists('/home'))")],
         "en", right, 0, ["| sees Makefile: False - sees /root or /home: False", "NumPy: 10 of 10 tables right"]),
        ("print-flood", "300 MiB written to file descriptor 2: what is kept is bounded", [("    O = A @ V", "    O = A @ V\n    import os\n    for _ in range(300):\n        os.write(2, b'x' * (1 << 20))")],
         "en", right, 0, ["NumPy: 10 of 10 tables right, 0 wrong, 0 pending; large inputs: ok."]),
        ("huge-dict", "a dict of 200,000 more keys: only the ten tables and eight others are read", [('    return {"Q": Q,', '    return {**{("k%d" % i): i for i in range(200000)}, "Q": Q,')],
         "en", right, 0, ["NumPy: 10 of 10 tables right", "Your dict has keys the checker does not know: k0, k1, k10, k100, k1000, k10000, k100000"]),
        # hand tables against NumPy
        ("hand-differs", "right NumPy, a wrong hand table", [], "en", "a-columns.txt", 0,
         ["[A] NumPy and the reference agree; your hand table differs at row 0, column 0: you wrote 0.38, NumPy gives 0.6285."]),
        ("hand-unreadable", "an answers file that cannot be read", [], "en", "bad-number.txt", 0,
         ["cannot be read, so your hand tables are not compared: make lab NN=00 says why"]),
        ("a-broadcast-locale-es", "Spanish from the locale alone", [("A = E / r[:, None]", "A = E / r")], None, right, 1,
         ["pista: E / r, con r de forma (3,), divide la columna j de cada fila por r_j"], ["run-env: LANG=es_ES.UTF-8"]),
        ("no-numpy", "a Python without NumPy", [], "en", right, 2,
         ["NumPy cannot be imported by", "install it with sudo make deps (Debian's python3-numpy)"],
         ["run-env: PYTHONPATH=judge/lab00/subjects/numpy/fake-site"]),
        # the modes: --summary (make progress), --brief (make check)
        ("summary", "--summary of the solution", [], "en", right, 0,
         ["numpy:Q\t0\t1\t0", "numpy:O\t0\t1\t0", "numpy:large\t0\t1\t0", "!Lab 00", "!NumPy"], [], ["--summary"]),
        ("summary-exception", "--summary of an exception", [("S = Q @ K.T", "S = Q @ K")], "en", right, 1,
         ["numpy:V\t0\t1\t0", "numpy:S\t0\t0\t1", "numpy:scaled\t1\t0\t0", "!raised"], [], ["--summary"]),
        ("summary-large", "--summary of a failing probe", no_max, "en", right, 1,
         ["numpy:A\t0\t1\t0", "numpy:large\t0\t0\t1"], [], ["--summary"]),
        ("summary-no-numpy", "--summary without NumPy: pending, the reason on stderr", [], "en", right, 0,
         ["numpy:Q\t1\t0\t0", "NumPy cannot be imported"],
         ["run-env: PYTHONPATH=judge/lab00/subjects/numpy/fake-site"], ["--summary"]),
        ("brief", "--brief of the solution: one line", [], "en", right, 0,
         ["lab00 NumPy (%s/numpy/brief.py): 10 of 10 tables right, 0 pending, none wrong; large inputs: ok" % where,
          "!step"], [], ["--brief"]),
        ("brief-wrong", "--brief of a wrong table: the whole report", [("O = A @ V", "O = A.T @ V")], "en", right, 1,
         ["First NumPy table that differs: [O]"], [], ["--brief"]),
    ]
    return c


def numpy_subjects(where):
    """file name -> the text gen writes into numpy/"""
    body = solution_body()
    out = {}
    for case in numpy_cases(where):
        name, what, edits, lang, answers, status, strings, directives, args = (case + ([], []))[:9]
        text = body
        for old, new in edits:
            if text.count(old) != 1:
                raise ValueError("numpy subject %s: %r is not once in solution.py" % (name, old))
            text = text.replace(old, new)
        head = ("# Lab 00, NumPy part, subject %s: %s.\n# Written by `lab00.py gen` (judge/lab00/subjects/lab00.py): "
                "solution.py with this change.\n" % (name, what))
        run_args = " ".join(["--answers %s/%s" % (where, answers)] + args)
        out[name + ".py"] = subject_text(head + text, lang, status, strings,
                                         ["run-args: " + run_args] + list(directives))
    return out


def gen(outdir):
    """write every generated subject into outdir (answers files) and
    outdir/numpy (NumPy files), afresh"""
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(os.path.join(outdir, "numpy"))
    where = os.path.relpath(outdir, ROOT)
    files = dict(subjects(), **{"numpy/" + n: t for n, t in numpy_subjects(where).items()})
    for name, text in files.items():
        with open(os.path.join(outdir, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    print("wrote %d subjects into %s" % (len(files), where))
    return 0


# ---- verify ------------------------------------------------------------------------
FAILS = []


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def read_inputs_block(path):
    """The inputs table of a README or answers file: the header line naming
    X, W_Q, W_K and W_V, then three rows of 3 + 4 + 4 + 2 integers."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if re.search(r"X \(3 x 3\)\s+W_Q \(3 x 4\)\s+W_K \(3 x 4\)\s+W_V \(3 x 2\)", line):
            rows = []
            for row in lines[i + 1:i + 4]:
                nums = [int(v) for v in re.findall(r"-?\d+", row.lstrip("# "))]
                if len(nums) != 13:
                    return None
                rows.append(nums)
            return {"X": [r[0:3] for r in rows], "W_Q": [r[3:7] for r in rows],
                    "W_K": [r[7:11] for r in rows], "W_V": [r[11:13] for r in rows]}
    return None


def read_blocks(text):
    """key -> the numbers of that block, from an answers file"""
    blocks, cur = {}, None
    for line in text.split("\n"):
        line = line.split("#")[0].strip()
        if line.startswith("["):
            cur = line[1:line.index("]")]
            blocks[cur] = []
        elif line and cur:
            blocks[cur].extend(float(v) for v in line.split())
    return blocks


def agree(got, want, close):
    """the lists got and want have the same length, and close(a, b) holds cell by cell"""
    return len(got) == len(want) and all(close(a, b) for a, b in zip(got, want))


def to_1e12(a, b):
    return abs(a - b) <= 1e-12 * max(1, abs(b))


def verify(checker, subjects_dir):
    flat = lambda m: [float(v) for r in m for v in r]
    inputs = {"X": flat(X), "W_Q": flat(W_Q), "W_K": flat(W_K), "W_V": flat(W_V)}

    # 1. the exact values (as check --reference-json gives them with an answers
    #    file; 6. below: without) agree with an independent computation
    exact = exact_tables()
    lines = json.loads(run(checker, "--reference-json", TEMPLATE))["exact"]
    for k in KEYS:
        got, want = flat(lines.get(k, [])), flat(exact[k])
        expect(agree(got, want, to_1e12), "exact [%s] agrees with plain Python to 1e-12" % k)

    # 2. the inputs shown to the learner are the checker's (example.h)
    docs = [os.path.join(LAB, "README.md"), os.path.join(LAB, "README.es.md"),
            TEMPLATE, os.path.join(HERE, "correct-4dp.txt")]
    for path in docs:
        block = read_inputs_block(path)
        rel = os.path.relpath(path, ROOT) if path != TEMPLATE else \
            "labs/lab00-by-hand/answers.txt (untouched)"
        expect(block is not None, "%s states the inputs table" % rel)
        if block:
            for name in ("X", "W_Q", "W_K", "W_V"):
                expect(flat(block[name]) == inputs[name], "%s: %s is the checker's" % (rel, name))
    tol = "%g + %g |%%s|" % (ATOL, RTOL)
    for path in docs[:2]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        rel = os.path.relpath(path, ROOT)
        for claim in ("d_model = %d" % D_MODEL, "d_k = %d" % D_K, "d_v = %d" % D_V, "T = %d" % T,
                      "sqrt(d_k) = %g" % math.sqrt(D_K),
                      "|written - exact| <= " + tol % "exact" if path.endswith("README.md")
                      else "|escrito - exacto| <= " + tol % "exacto"):
            expect(claim in text, "%s states %s" % (rel, claim))
    with open(TEMPLATE, encoding="utf-8") as f:
        template = f.read()
    expect(("T = %d tokens, d_model = %d, d_k = %d, d_v = %d" % (T, D_MODEL, D_K, D_V)) in template,
           "the template states the sizes")

    # 3. the hand-written right answers, and the hand answers of gen's subjects
    with open(os.path.join(HERE, "correct-4dp.txt"), encoding="utf-8") as f:
        blocks = read_blocks(f.read())
    for k in KEYS:
        want, got = flat(exact[k]), blocks.get(k, [])
        expect(agree(got, want, within), "correct-4dp.txt: [%s] within tolerance of the exact values" % k)
    for k in KEYS:
        want, got = flat(exact[k]), flat(HAND[k])
        expect(agree(got, want, within), "HAND [%s] (correct-2dp.txt) within tolerance of the exact values" % k)

    # 4. each mistake is far from the exact table, here too
    for name, (key, fn) in MISTAKES.items():
        t = flat(fn(exact))
        expect(any(abs(a - b) > 3 * (ATOL + RTOL * abs(b)) for a, b in zip(t, flat(exact[key]))),
               "mistake %s is told apart from the exact [%s]" % (name, key))

    # 5. --summary (make progress reads it): one line per step, KEY TAB pending
    #    TAB passed TAB failed, nothing else on stdout; nothing when unreadable
    def summary(name):
        p = subprocess.run([checker, "--summary", os.path.join(subjects_dir, name)], capture_output=True, text=True)
        return p.returncode, p.stdout
    for name, status, want in (("correct-2dp.txt", 0, {k: (0, 1, 0) for k in KEYS}),
                               ("untouched.txt", 0, {k: (1, 0, 0) for k in KEYS}),
                               ("partial-wrong.txt", 1, dict({k: (1, 0, 0) for k in KEYS},
                                                             Q=(0, 1, 0), K=(0, 0, 1), V=(0, 1, 0))),
                               ("deleted-block.txt", 0, dict({k: (0, 1, 0) for k in KEYS}, sum=(1, 0, 0)))):
        rc, out = summary(name)
        want_text = "".join("%s\t%d\t%d\t%d\n" % ((k,) + want[k]) for k in KEYS)
        expect(rc == status and out == want_text,
               "check --summary %s: exit %d and one line per step (got exit %d, %r)" % (name, status, rc, out[:80]))
    rc, out = summary("bad-number.txt")
    expect(rc == 2 and out == "", "check --summary bad-number.txt: exit 2, nothing on stdout")

    # 6. the NumPy part: check --reference-json (numpy_check.py's reference)
    #    agrees with this file, for the example and for the probe, X times LARGE;
    #    both READMEs state the probe and the NumPy tolerance
    ref = json.loads(run(checker, "--reference-json"))
    large = ref["large"]
    for k in KEYS:
        got, want = flat(ref["exact"][k]), flat(exact[k])
        expect(agree(got, want, to_1e12), "check --reference-json: exact [%s] agrees with plain Python" % k)
    big = exact_tables([[v * large for v in r] for r in X])
    expect(flat(ref["large_inputs"]["X"]) == flat([[v * large for v in r] for r in X]),
           "check --reference-json: the probe's X is X times %d" % large)
    for k in KEYS:
        got, want = flat(ref["large_exact"][k]), flat(big[k])
        expect(agree(got, want, lambda a, b: abs(a - b) <= 1e-12 * max(1e-300, abs(b)) + 1e-300),
               "check --reference-json: the probe's exact [%s] agrees with plain Python" % k)
    expect(max(map(max, big["scaled"])) > math.log(sys.float_info.max),
           "the probe's largest scaled score overflows exp (so a softmax without the maximum fails there)")
    with open(os.path.join(JUDGE, "numpy_check.py"), encoding="utf-8") as f:
        tol = re.search(r"^NP_ATOL = NP_RTOL = (\S+)$", f.read(), re.M)
    tol = "%g" % float(tol.group(1)) if tol else "?"
    for path, claims in ((os.path.join(LAB, "README.md"),
                          ["X times %d" % large, "|NumPy - exact| <= %s + %s |exact|" % (tol, tol)]),
                         (os.path.join(LAB, "README.es.md"),
                          ["X por %d" % large, "|NumPy - exacto| <= %s + %s |exacto|" % (tol, tol)])):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for claim in claims:
            expect(claim in text, "%s states %s" % (os.path.relpath(path, ROOT), claim))
    print("%s: %d problem%s" % ("FAIL" if FAILS else "ok", len(FAILS), "" if len(FAILS) == 1 else "s"))
    return 1 if FAILS else 0


def cuts(checker, outdir):
    """Every prefix of the right two-decimal file, and the file without each
    of its lines (those that are not comments or blank): the checker answers
    0, 1 or 2 and never crashes (nor does a sanitizer report)."""
    full = render({k: rows_of(k, HAND[k]) for k in KEYS}).split("\n")
    os.makedirs(outdir, exist_ok=True)
    path, runs = os.path.join(outdir, "cut.txt"), 0
    for i, line in enumerate(full):
        if not line.strip() or line.startswith("#"):
            continue
        for what, text in (("first %d lines" % (i + 1), full[:i + 1]),
                           ("without line %d" % (i + 1), full[:i] + full[i + 1:])):
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(text) + "\n")
            rc = subprocess.run([checker, "--lang=en", path], capture_output=True).returncode
            runs += 1
            if not 0 <= rc <= 2:
                FAILS.append(what)
                print("FAIL  the right answers file, %s: exit status %d" % (what, rc))
    print("lab 00 cuts: %d runs, %d failed" % (runs, len(FAILS)))
    return 1 if FAILS else 0


# ---- mutants of the NumPy checker: each breaks one promise ---------------------------------
# (name, the text of numpy_check.py it changes, what it becomes, the subject that must fail)
CHECKER_MUTANTS = [
    ("no-probe", 'for name in ("example", "large"):', 'for name in ("example",):', "softmax-no-max"),
    ("no-alarm", "signal.setitimer(signal.ITIMER_REAL, left)", "None", "hang"),
    ("none-is-wrong", 'if e is not None and e["kind"] != "none":', "if e is not None:", "skeleton"),
    ("any-shape", "    if shape == [rows, cols]:\n        return vals, None",
     "    if True:\n        return vals, None", "o-transposed"),
    ("no-spanish", 'if a == "--lang=es": LANG_ES = True', 'if a == "--lang=es": LANG_ES = False', "k-xt-es"),
    ("no-locale", "    return os.environ.get(\"LAB_LANG\") == \"es\"", "    return False", "a-broadcast-locale-es"),
    ("no-exception-line", "        lines += traceback.format_exception_only(type(e), e)", "        pass", "exception"),
    ("keeps-library-frames", "if f.filename == path]", "]", "exception-helper"),
    ("no-xt-hint", '("q-xt", "Q"', '("q-xt", "none"', "q-xt"),
    ("no-axis-hint", '("m-columns", "max"', '("m-columns", "none"', "max-axis0"),
    ("no-broadcast-hint", '("a-broadcast", "A"', '("a-broadcast", "none"', "a-broadcast"),
    ("no-max-hint", '("e-no-max", "E"', '("e-no-max", "none"', "e-no-max"),
    ("no-scale-hint", '("z-no-scale", "scaled"', '("z-no-scale", "none"', "no-scale"),
    ("no-hand-compare", '    """one line on how the hand table and the NumPy table of k stand, or None"""',
     '    """one line on how the hand table and the NumPy table of k stand, or None"""\n    return None', "hand-differs"),
    ("no-numpy-message", 'if res is not None and res["numpy"] and not res["numpy"]["ok"]:', "if False:", "no-numpy"),
    ("no-large-row", '    rows.append("numpy:large', '    0 and rows.append("numpy:large', "summary"),
    ("exception-not-blamed", "            got[target].status = \"wrong\"", "            pass", "summary-exception"),
    ("probe-never-passes", '        return "ok", []', '        return "pending", []', "solution"),
    ("shape-errors-unexplained", '        out.append(L("A @ B needs', '        0 and out.append(L("A @ B needs', "s-no-transpose"),
]


def mutants(subjects_dir, outdir, run):
    """each mutant of numpy_check.py makes its subject of subjects_dir/numpy
    (skeleton: the hand-written one) fail (run-subject.sh exits 1); the
    mutants run side by side"""
    from concurrent.futures import ThreadPoolExecutor
    src = os.path.join(JUDGE, "numpy_check.py")
    with open(src, encoding="utf-8") as f:
        text = f.read()

    def one(m):
        name, old, new, subject = m
        d = os.path.join(outdir, name)
        os.makedirs(d, exist_ok=True)
        if text.count(old) != 1:
            return "  FAIL  mutant %s: its change does not apply to numpy_check.py once" % name
        mutant = os.path.join(d, "numpy_check.py")
        with open(mutant, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
        cmd = [mutant if w == "@CHECKER@" else w for w in run]
        if subject == "skeleton":
            argv = ["sh", "judge/selftest/run-subject.sh", os.path.join(NUMPY_DIR, "skeleton.py"),
                    os.path.join(d, "out.txt")] + cmd + [
                os.path.join(os.path.dirname(outdir), "pristine-numpy_attention.py")]
        else:
            argv = ["sh", "judge/selftest/run-subject.sh", "--input",
                    os.path.join(subjects_dir, "numpy", subject + ".py"), os.path.join(d, "out.txt")] + cmd
        rc = subprocess.run(argv, capture_output=True, cwd=ROOT).returncode
        if rc != 1:
            return "  FAIL  mutant %s: the subject %s still holds (the promise it breaks is not tested)" % (name, subject)
        return None

    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        problems = [p for p in pool.map(one, CHECKER_MUTANTS) if p]
    for p in problems:
        print(p)
    print("lab 00 NumPy checker mutants: %d, each caught by its subject%s"
          % (len(CHECKER_MUTANTS), "" if not problems else " but %d" % len(problems)))
    return 1 if problems else 0

if __name__ == "__main__":
    cmd, args = sys.argv[1] if len(sys.argv) > 1 else None, sys.argv[2:]
    if (cmd in ("gen", "verify", "cuts") and len(args) == 3) or (cmd == "mutants" and len(args) > 4):
        load_inputs(args[0], args[1])
        sys.exit(gen(os.path.abspath(args[2])) if cmd == "gen" else
                 verify(args[0], os.path.abspath(args[2])) if cmd == "verify" else
                 cuts(args[0], args[2]) if cmd == "cuts" else
                 mutants(os.path.abspath(args[2]), os.path.abspath(args[3]), args[4:]))
    print(__doc__)
    sys.exit(2)
