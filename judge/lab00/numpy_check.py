#!/usr/bin/python3
"""numpy_check.py - the checker of Lab 00's second part: attention in NumPy.

The learner writes, in numpy_attention.py, a function attention_tables(X,
W_Q, W_K, W_V) that returns every table of the hand computation as a dict
(Q, K, V, S, scaled, max, E, sum, A, O; a table still None is pending).
This checker

  - takes the reference from the C checker (check --reference-json ANSWERS:
    the inputs of example.h, the exact tables computed with the library, for
    the example and for its probe, X times LARGE, and the learner's hand
    tables with their verdicts): no number is typed here;
  - runs the learner's function in a separate Python process (the same
    interpreter as this one, /usr/bin/python3 from make, so that a pyenv
    python without NumPy on PATH does not matter), in the labs' sandbox
    (judge/harness/sandbox.sh: it sees this file, the learner's and the
    system's /usr, nothing else), within memory and output limits, in a
    process group of its own, with a deadline: SIGALRM interrupts the learner's code after
    --timeout seconds (and says at which line), and the whole group is
    killed --grace seconds later if that did not end it, and always at the
    end, so nothing it started is left behind;
  - calls it on the example and on the probe (scores so large that exp
    overflows unless the row maximum is subtracted);
  - judges each table against the reference (|numpy - exact| <= 1e-6 +
    1e-6 |exact|), blames an error on the table that made it (a table right
    for the learner's own earlier tables "follows from" them), names known
    NumPy mistakes (X.T @ W, softmax along the wrong axis, a (T,) vector
    broadcast along the columns, the scale forgotten, the maximum not
    subtracted, ...), shows the learner's traceback, trimmed, when the code
    raises, and compares each NumPy table with the learner's hand table.

Usage: numpy_check.py [--lang=en|es] [--brief | --summary] [--timeout S]
                      [--grace S] [--python PATH] [--launcher PATH] --checker CHECK
                      [--answers ANSWERS] NUMPY_FILE
  --launcher PATH runs the learner's process through PATH (which runs its
  arguments as a command: the grader's, as the learner's own user).
  --summary prints only one line per table, numpy:KEY<TAB>pending<TAB>passed
  <TAB>failed, and numpy:large for the probe (for make progress); --brief
  prints one line unless something is wrong. Messages are in Spanish with
  --lang=es or LAB_LANG=es (make sets it from a Spanish locale: lang.sh).
Exit: 0 nothing wrong (pending tables are not wrong); 1 a table is wrong, or
  the code raised, hung or did not load; 2 the check could not run (NumPy
  missing, the reference not available, a wrong command line).

The child (numpy_check.py --run-learner NUMPY_FILE) reads the inputs and the
timeout as JSON on stdin and writes what the learner's function returned
(or why it did not) as JSON on stdout.
"""
import io
import json
import linecache
import math
import os
import re
import resource
import select
import signal
import subprocess
import sys
import time
import traceback
import types

KEYS = ["Q", "K", "V", "S", "scaled", "max", "E", "sum", "A", "O"]
# the skeleton's variable of each table (read from the learner's frame when
# the function raises, so the tables it computed so far are still judged)
VARS = {"Q": "Q", "K": "K", "V": "V", "S": "S", "scaled": "scaled", "m": "max",
        "E": "E", "r": "sum", "A": "A", "O": "O"}
DEPS = {"Q": [], "K": [], "V": [], "S": ["Q", "K"], "scaled": ["S"], "max": ["scaled"],
        "E": ["scaled", "max"], "sum": ["E"], "A": ["E", "sum"], "O": ["A", "V"]}
NP_ATOL = NP_RTOL = 1e-6
FUNCTION = "attention_tables"

LANG_ES = False


def L(en, es, *args):
    """en or es, in the report's language, formatted with args if any"""
    text = es if LANG_ES else en
    return text % args if args else text


def word(status):
    """the word of a status (ok, wrong, pending) in the report"""
    return {"ok": "ok", "wrong": L("WRONG", "MAL"), "pending": L("pending", "pendiente")}[status]


def hint(text):
    return L("  hint: ", "  pista: ") + text


# ---- the child: run the learner's function ----------------------------------------------
class LabTimeout(BaseException):
    """raised by SIGALRM inside the learner's code (a BaseException, so that
    an `except Exception` of the learner's does not swallow it)"""


def describe_error(e, path):
    """what the learner needs to see of an exception: the frames of their
    file and the exception's last line, the line and table it was at, the
    shapes of the arrays named on that line, and the tables computed so far"""
    tb = e.__traceback__
    fn_frame = fn_line = None
    deepest = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            deepest = (tb.tb_frame, tb.tb_lineno)
            if tb.tb_frame.f_code.co_name == FUNCTION:
                fn_frame, fn_line = tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == path]
    lines = traceback.format_list(frames)
    if not isinstance(e, LabTimeout):
        lines += traceback.format_exception_only(type(e), e)
    text = "".join(lines).rstrip("\n").split("\n")
    text = [l if len(l) <= 240 else l[:237] + "..." for l in text]
    if len(text) > 14:
        text = text[:4] + ["    ..."] + text[-9:]
    out = {"type": type(e).__name__, "message": str(e)[:400], "trace": text,
           "line": None, "source": None, "target": None, "shapes": [], "partial": {}}
    frame, line = (fn_frame, fn_line) if fn_frame is not None else (deepest or (None, None))
    if frame is not None:
        src = linecache.getline(path, line).strip()
        out["line"], out["source"] = line, src
        m = re.match(r"([A-Za-z_]\w*)\s*(?:[-+*/@]?=)(?!=)", src)
        if m and m.group(1) in VARS:
            out["target"] = VARS[m.group(1)]
        for name in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", src)):     # each name once
            v = frame.f_locals.get(name)
            if hasattr(v, "shape") and hasattr(v, "ndim"):
                out["shapes"].append([name, list(v.shape)])
            elif name in frame.f_locals and v is None and name in VARS:
                out["shapes"].append([name, None])
    if fn_frame is not None:
        out["partial"] = {VARS[n]: fn_frame.f_locals[n] for n in VARS if n in fn_frame.f_locals}
    return out


def child(path):
    # the answer goes out on a copy of stdout; fd 1 itself becomes stderr, so
    # that nothing the learner's code writes (Python's print is captured below,
    # a C library's write is not) can spoil it
    real_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    req = json.load(sys.stdin)
    sys.stdin = open(os.devnull)
    res = {"numpy": None, "load": None, "runs": {}, "printed": ""}
    captured = io.StringIO()

    def done():
        res["printed"] = captured.getvalue()[-3000:]
        real_out.write(json.dumps(res))
        real_out.flush()
        os._exit(0)           # no atexit handler of the learner's runs after this

    try:
        import numpy as np
    except BaseException as e:   # ImportError, or a broken installation
        res["numpy"] = {"ok": False, "error": ("%s: %s" % (type(e).__name__, e))[:300],
                        "python": sys.executable}
        done()
    res["numpy"] = {"ok": True, "version": np.__version__}
    ready = int(os.environ.pop("LAB00_READY_FD", "-1"))
    if ready >= 0:               # NumPy is in: the learner's deadline starts now
        os.write(ready, b"R")
        os.close(ready)

    def table(v):
        if v is None:
            return {"kind": "none"}
        try:
            a = np.asarray(v, dtype=float)
        except BaseException as e:
            return {"kind": "not-numbers", "type": type(v).__name__, "error": str(e)[:200]}
        if a.size > 10000:
            return {"kind": "array", "shape": list(a.shape), "values": None}
        return {"kind": "array", "shape": list(a.shape), "values": a.tolist()}

    def partial_tables(err):
        p = err.pop("partial")
        return {k: table(v) for k, v in p.items()}

    deadline = time.monotonic() + float(req["timeout"])

    def on_alarm(signum, frame):
        raise LabTimeout()

    def arm():
        left = deadline - time.monotonic()
        if left <= 0:
            raise LabTimeout()
        signal.setitimer(signal.ITIMER_REAL, left)

    def disarm():
        signal.setitimer(signal.ITIMER_REAL, 0)

    signal.signal(signal.SIGALRM, on_alarm)
    sys.stdout = captured
    g = {"__name__": "numpy_attention", "__file__": path, "__builtins__": __builtins__}
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        code = compile(source, path, "exec")
        arm()
        try:
            exec(code, g)
        finally:
            disarm()
    except BaseException as e:
        err = describe_error(e, path)
        err.pop("partial")
        err["timeout"] = isinstance(e, LabTimeout)
        res["load"] = {"ok": False, "error": err}
        done()
    fn = g.get(FUNCTION)
    if not callable(fn):
        res["load"] = {"ok": False, "missing": True}
        done()
    res["load"] = {"ok": True}

    import warnings
    for name in ("example", "large"):
        inp = req["runs"][name]
        args = [np.array(inp[k], dtype=float) for k in ("X", "W_Q", "W_K", "W_V")]
        run = {"outcome": None, "tables": {}, "error": None, "warnings": []}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                arm()
                try:
                    out = fn(*args)
                finally:
                    disarm()
                if isinstance(out, dict):
                    run["outcome"] = "returned"
                    run["unknown"] = sorted(str(k) for k in out if k not in KEYS)[:8]
                    shown = set(KEYS) | set(run["unknown"])     # not a million others
                    run["tables"] = {k: table(v) for k, v in out.items()
                                     if isinstance(k, str) and k in shown}
                else:
                    run["outcome"] = "bad-return"
                    run["type"] = type(out).__name__
            except NotImplementedError as e:
                run["outcome"] = "todo"
                run["tables"] = partial_tables(describe_error(e, path))
            except BaseException as e:    # LabTimeout, SystemExit, KeyboardInterrupt too
                run["outcome"] = "timeout" if isinstance(e, LabTimeout) else "error"
                run["error"] = describe_error(e, path)
                run["tables"] = partial_tables(run["error"])
            run["warnings"] = sorted(set("%s: %s" % (w.category.__name__, w.message) for w in caught))[:4]
        res["runs"][name] = run
        if run["outcome"] != "returned":
            break
    sys.stdout = real_out
    done()


# ---- small matrices, in plain Python -----------------------------------------------------
def mm(a, b):
    return [[sum(a[i][p] * b[p][j] for p in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def tr(a):
    return [list(r) for r in zip(*a)]


def col(v):
    return [[x] for x in v]


def flat(m):
    return [v for r in m for v in r]


def exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def div(a, b):
    if b == 0:
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return a / b


def step(key, t, inp):
    """table KEY from the tables it depends on (t) and the inputs"""
    if key == "Q": return mm(inp["X"], inp["W_Q"])
    if key == "K": return mm(inp["X"], inp["W_K"])
    if key == "V": return mm(inp["X"], inp["W_V"])
    if key == "S": return mm(t["Q"], tr(t["K"]))
    if key == "scaled": return [[v / math.sqrt(inp["d_k"]) for v in r] for r in t["S"]]
    if key == "max": return col([max(r) for r in t["scaled"]])
    if key == "E": return [[exp(v - t["max"][i][0]) for v in r] for i, r in enumerate(t["scaled"])]
    if key == "sum": return col([sum(r) for r in t["E"]])
    if key == "A": return [[div(v, t["sum"][i][0]) for v in r] for i, r in enumerate(t["E"])]
    if key == "O": return mm(t["A"], t["V"])
    raise KeyError(key)


def softmax_rows(s):
    out = []
    for r in s:
        m = max(r)
        e = [exp(v - m) for v in r]
        out.append([div(v, sum(e)) for v in e])
    return out


# ---- the NumPy mistakes: (id, table, what it computes, hint EN, hint ES) ------------------
def _xt(w):
    return lambda t, i: mm(tr(i["X"]), i[w])


def _scale(f):
    return lambda t, i: [[v * f(i) for v in r] for r in t["S"]]


def _xt_hints(key):
    """the hint (EN, ES) of the table key computed as X.T @ W_key"""
    return tuple(text.replace("{k}", key) for text in (
        "your NumPy {k} is X.T @ W_{k}: X.T has the tokens as its columns. X is square here (3 x 3), so "
        "the product has the right shape and the wrong values; with a number of tokens other than "
        "d_model it would not even run (a shape error). Row i of {k} is row i of X times W_{k}: {k} = X @ W_{k}.",
        "tu {k} de NumPy es X.T @ W_{k}: X.T tiene los tokens como columnas. Aquí X es cuadrada (3 x 3), "
        "así que el producto tiene la forma correcta y los valores equivocados; con un número de tokens "
        "distinto de d_model ni siquiera se ejecutaría (un error de forma). La fila i de {k} es la fila i "
        "de X por W_{k}: {k} = X @ W_{k}."))


BCAST_EN = ("%s, with %s of shape (3,), %s: NumPy lines a (3,) array up with the last axis, the "
            "columns. Make it a column, so that row i uses its own value: %s[:, None], or keepdims=True "
            "where you compute it.")
BCAST_ES = ("%s, con %s de forma (3,), %s: NumPy alinea un array (3,) con el último eje, las columnas. "
            "Hazlo columna, para que la fila i use su propio valor: %s[:, None], o keepdims=True donde "
            "lo calculas.")

MISTAKES = [
    ("q-xt", "Q", _xt("W_Q")) + _xt_hints("Q"),
    ("k-xt", "K", _xt("W_K")) + _xt_hints("K"),
    ("v-xt", "V", _xt("W_V")) + _xt_hints("V"),
    ("q-uses-wk", "Q", lambda t, i: mm(i["X"], i["W_K"]),
     "your NumPy Q is X @ W_K: Q and K swapped? Q = X @ W_Q, K = X @ W_K.",
     "tu Q de NumPy es X @ W_K: ¿Q y K intercambiadas? Q = X @ W_Q, K = X @ W_K."),
    ("k-uses-wq", "K", lambda t, i: mm(i["X"], i["W_Q"]),
     "your NumPy K is X @ W_Q: Q and K swapped? K = X @ W_K, Q = X @ W_Q.",
     "tu K de NumPy es X @ W_Q: ¿Q y K intercambiadas? K = X @ W_K, Q = X @ W_Q."),
    ("s-kq", "S", lambda t, i: mm(t["K"], tr(t["Q"])),
     "your NumPy S is K @ Q.T, the transpose: row i of S is query i against every key, S = Q @ K.T.",
     "tu S de NumPy es K @ Q.T, la traspuesta: la fila i de S es la query i frente a cada key, S = Q @ K.T."),
    ("s-qq", "S", lambda t, i: mm(t["Q"], tr(t["Q"])),
     "your NumPy S is Q @ Q.T: the queries meet the keys, S = Q @ K.T.",
     "tu S de NumPy es Q @ Q.T: las queries se comparan con las keys, S = Q @ K.T."),
    ("s-kk", "S", lambda t, i: mm(t["K"], tr(t["K"])),
     "your NumPy S is K @ K.T: row i must use query i, S = Q @ K.T.",
     "tu S de NumPy es K @ K.T: la fila i usa la query i, S = Q @ K.T."),
    ("z-no-scale", "scaled", _scale(lambda i: 1.0),
     "your NumPy scaled is S itself: the 1/sqrt(d_k) scale is forgotten: scaled = S / np.sqrt(d_k).",
     "tu scaled de NumPy es la propia S: falta la escala 1/sqrt(d_k): scaled = S / np.sqrt(d_k)."),
    ("z-times-sqrt", "scaled", _scale(lambda i: math.sqrt(i["d_k"])),
     "your NumPy scaled is S * np.sqrt(d_k): the scores are divided by sqrt(d_k), not multiplied.",
     "tu scaled de NumPy es S * np.sqrt(d_k): las puntuaciones se dividen por sqrt(d_k), no se multiplican."),
    ("z-by-dk", "scaled", _scale(lambda i: 1.0 / i["d_k"]),
     "your NumPy scaled is S / d_k: the scale is 1/sqrt(d_k): S / np.sqrt(d_k).",
     "tu scaled de NumPy es S / d_k: la escala es 1/sqrt(d_k): S / np.sqrt(d_k)."),
    ("z-by-dmodel", "scaled", _scale(lambda i: 1.0 / math.sqrt(i["d_model"])),
     "your NumPy scaled is S / np.sqrt(d_model) (X.shape[1]): d_k is the width of Q and K, W_Q.shape[1].",
     "tu scaled de NumPy es S / np.sqrt(d_model) (X.shape[1]): d_k es el ancho de Q y K, W_Q.shape[1]."),
    ("z-by-dv", "scaled", _scale(lambda i: 1.0 / math.sqrt(i["d_v"])),
     "your NumPy scaled is S / np.sqrt(d_v): d_k is the width of Q and K, W_Q.shape[1].",
     "tu scaled de NumPy es S / np.sqrt(d_v): d_k es el ancho de Q y K, W_Q.shape[1]."),
    ("m-columns", "max", lambda t, i: col([max(c) for c in tr(t["scaled"])]),
     "your NumPy max is scaled.max(axis=0), the maximum of each column: the softmax runs along each "
     "row, and each row's maximum is scaled.max(axis=1).",
     "tu max de NumPy es scaled.max(axis=0), el máximo de cada columna: el softmax va a lo largo de cada "
     "fila, y el máximo de cada fila es scaled.max(axis=1)."),
    ("m-global", "max", lambda t, i: col([max(map(max, t["scaled"]))] * len(t["scaled"])),
     "your NumPy max is the largest value of the whole table (np.max without an axis): each row has "
     "its own, scaled.max(axis=1).",
     "tu max de NumPy es el mayor valor de toda la tabla (np.max sin eje): cada fila tiene el suyo, "
     "scaled.max(axis=1)."),
    ("m-unscaled", "max", lambda t, i: col([max(r) for r in t["S"]]),
     "your NumPy max is taken from S; take it from scaled: scaled.max(axis=1).",
     "tu max de NumPy sale de S; tómalo de scaled: scaled.max(axis=1)."),
    ("m-min", "max", lambda t, i: col([min(r) for r in t["scaled"]]),
     "your NumPy max holds the row minima: scaled.max(axis=1).",
     "tu max de NumPy tiene los mínimos de las filas: scaled.max(axis=1)."),
    ("e-no-max", "E", lambda t, i: [[exp(v) for v in r] for r in t["scaled"]],
     "your NumPy E is np.exp(scaled): the row maximum is not subtracted. The weights come out the same "
     "on the example, but with large scores exp overflows to inf (the large inputs show it): "
     "E = np.exp(scaled - m), with m as a column.",
     "tu E de NumPy es np.exp(scaled): no se resta el máximo de la fila. Los pesos salen iguales en el "
     "ejemplo, pero con puntuaciones grandes exp se desborda a inf (las entradas grandes lo muestran): "
     "E = np.exp(scaled - m), con m como columna."),
    ("e-broadcast", "E", lambda t, i: [[exp(v - t["max"][j][0]) for j, v in enumerate(r)] for r in t["scaled"]],
     BCAST_EN % ("scaled - m", "m", "subtracts m_j from column j of every row", "m"),
     BCAST_ES % ("scaled - m", "m", "resta m_j a la columna j de cada fila", "m")),
    ("e-col-max", "E", lambda t, i: [[exp(v - max(c)) for v, c in zip(r, tr(t["scaled"]))] for r in t["scaled"]],
     "your NumPy E subtracts the maximum of each column (axis=0); subtract each row's, m_i, from row i.",
     "tu E de NumPy resta el máximo de cada columna (axis=0); resta el de cada fila, m_i, a la fila i."),
    ("e-sign", "E", lambda t, i: [[exp(t["max"][k][0] - v) for v in r] for k, r in enumerate(t["scaled"])],
     "your NumPy E is np.exp(m - scaled): the subtraction is reversed, E = np.exp(scaled - m).",
     "tu E de NumPy es np.exp(m - scaled): la resta está al revés, E = np.exp(scaled - m)."),
    ("e-unscaled", "E", lambda t, i: [[exp(v - max(r)) for v in r] for r in t["S"]],
     "your NumPy E comes from S, not from scaled.",
     "tu E de NumPy sale de S, no de scaled."),
    ("e-no-exp", "E", lambda t, i: [[v - t["max"][k][0] for v in r] for k, r in enumerate(t["scaled"])],
     "your NumPy E is scaled - m without np.exp.",
     "tu E de NumPy es scaled - m sin np.exp."),
    ("r-columns", "sum", lambda t, i: col([sum(c) for c in tr(t["E"])]),
     "your NumPy sum is E.sum(axis=0), the sum of each column: each row's sum is E.sum(axis=1).",
     "tu sum de NumPy es E.sum(axis=0), la suma de cada columna: la de cada fila es E.sum(axis=1)."),
    ("r-global", "sum", lambda t, i: col([sum(map(sum, t["E"]))] * len(t["E"])),
     "your NumPy sum is the sum of the whole table (no axis): each row's is E.sum(axis=1).",
     "tu sum de NumPy es la suma de toda la tabla (sin eje): la de cada fila es E.sum(axis=1)."),
    ("r-no-max", "sum", lambda t, i: col([sum(exp(v) for v in r) for r in t["scaled"]]),
     "your NumPy sum adds np.exp(scaled), without the maximum subtracted: add your E, E.sum(axis=1).",
     "tu sum de NumPy suma np.exp(scaled), sin restar el máximo: suma tu E, E.sum(axis=1)."),
    ("r-scaled", "sum", lambda t, i: col([sum(r) for r in t["scaled"]]),
     "your NumPy sum adds the scaled scores: E.sum(axis=1).",
     "tu sum de NumPy suma las puntuaciones escaladas: E.sum(axis=1)."),
    ("a-broadcast", "A", lambda t, i: [[div(v, t["sum"][j][0]) for j, v in enumerate(r)] for r in t["E"]],
     BCAST_EN % ("E / r", "r", "divides column j of every row by r_j", "r"),
     BCAST_ES % ("E / r", "r", "divide la columna j de cada fila por r_j", "r")),
    ("a-columns", "A", lambda t, i: [[div(v, sum(c)) for v, c in zip(r, tr(t["E"]))] for r in t["E"]],
     "your NumPy weights are normalised down the columns (axis=0): each column sums to 1. The softmax "
     "runs along each row: divide row i of E by its own sum, E.sum(axis=1, keepdims=True).",
     "tus pesos de NumPy están normalizados por columnas (axis=0): cada columna suma 1. El softmax va a "
     "lo largo de cada fila: divide la fila i de E por su propia suma, E.sum(axis=1, keepdims=True)."),
    ("a-transposed", "A", lambda t, i: tr(step("A", t, i)),
     "your NumPy A is the transpose of the weights (A.T?): row i holds the weights of query i.",
     "tu A de NumPy es la traspuesta de los pesos (¿A.T?): la fila i tiene los pesos de la query i."),
    ("a-not-divided", "A", lambda t, i: [list(r) for r in t["E"]],
     "your NumPy A is E itself: divide each row by its sum.",
     "tu A de NumPy es la propia E: divide cada fila por su suma."),
    ("a-unscaled", "A", lambda t, i: softmax_rows(t["S"]),
     "your NumPy A is the softmax of S: the 1/sqrt(d_k) scale is forgotten on the way to the weights.",
     "tu A de NumPy es el softmax de S: se olvidó la escala 1/sqrt(d_k) camino de los pesos."),
    ("a-total", "A", lambda t, i: [[div(v, sum(map(sum, t["E"]))) for v in r] for r in t["E"]],
     "your NumPy A divides by the sum of the whole table (E.sum() without an axis): each row by its "
     "own, E.sum(axis=1, keepdims=True).",
     "tu A de NumPy divide por la suma de toda la tabla (E.sum() sin eje): cada fila por la suya, "
     "E.sum(axis=1, keepdims=True)."),
    ("o-at", "O", lambda t, i: mm(tr(t["A"]), t["V"]),
     "your NumPy O is A.T @ V: row i of O mixes the rows of V with the weights of row i of A, O = A @ V.",
     "tu O de NumPy es A.T @ V: la fila i de O mezcla las filas de V con los pesos de la fila i de A, O = A @ V."),
    ("o-e", "O", lambda t, i: mm(t["E"], t["V"]),
     "your NumPy O is E @ V: mix the values with the weights A, O = A @ V.",
     "tu O de NumPy es E @ V: mezcla los values con los pesos A, O = A @ V."),
    ("o-scores", "O", lambda t, i: mm(t["scaled"], t["V"]),
     "your NumPy O mixes V with the scaled scores: O = A @ V.",
     "tu O de NumPy mezcla V con las puntuaciones escaladas: O = A @ V."),
]

# the rule of each table in NumPy terms, said when no known mistake matches
RULES = {
    "Q": ("Q = X @ W_Q: row i of X (token i) times W_Q, T x d_k.", "Q = X @ W_Q: la fila i de X (el token i) por W_Q, T x d_k."),
    "K": ("K = X @ W_K, T x d_k.", "K = X @ W_K, T x d_k."),
    "V": ("V = X @ W_V, T x d_v.", "V = X @ W_V, T x d_v."),
    "S": ("S = Q @ K.T: (T x d_k) times (d_k x T), T x T.", "S = Q @ K.T: (T x d_k) por (d_k x T), T x T."),
    "scaled": ("scaled = S / np.sqrt(d_k).", "scaled = S / np.sqrt(d_k)."),
    "max": ("the largest value of each row of scaled: scaled.max(axis=1), T values.",
            "el mayor valor de cada fila de scaled: scaled.max(axis=1), T valores."),
    "E": ("E = np.exp(scaled - m), with m as a column (m[:, None]), so that row i uses m_i.",
          "E = np.exp(scaled - m), con m como columna (m[:, None]), para que la fila i use m_i."),
    "sum": ("the sum of each row of E: E.sum(axis=1), T values.", "la suma de cada fila de E: E.sum(axis=1), T valores."),
    "A": ("A = E / r with r as a column (r[:, None]): each row sums to 1.",
          "A = E / r con r como columna (r[:, None]): cada fila suma 1."),
    "O": ("O = A @ V: (T x T) times (T x d_v), T x d_v.", "O = A @ V: (T x T) por (T x d_v), T x d_v."),
}


# ---- judging ----------------------------------------------------------------------------------
def close(a, b, atol=NP_ATOL, rtol=NP_RTOL):
    """a (the learner's) is within tolerance of b (the exact value); a nan or
    an inf is never close to a finite number"""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def all_close(a, b, **kw):
    return a is not None and b is not None and len(a) == len(b) and all(
        len(x) == len(y) and all(close(u, v, **kw) for u, v in zip(x, y)) for x, y in zip(a, b))


def first_diff(a, b, **kw):
    """(row, col, count) of the cells of a that differ from b"""
    first, n = None, 0
    for i, (x, y) in enumerate(zip(a, b)):
        for j, (u, v) in enumerate(zip(x, y)):
            if not close(u, v, **kw):
                n += 1
                if first is None:
                    first = (i, j)
    return first, n


def dims(shape):
    return " x ".join(str(d) for d in shape) if shape else L("a single number", "un solo número")


class Table:
    """one table the learner's NumPy gave: its status and what to say"""
    def __init__(self, key):
        self.key = key
        self.status = "pending"      # pending | ok | wrong
        self.values = None           # rows x cols when the shape is right
        self.problem = None          # what is wrong with it, when it is not a table of the right shape
        self.follows = None          # the earlier table it follows from
        self.cell = None
        self.n_bad = 0
        self.expected = None
        self.got = None
        self.hints = []
        self.raised = None           # the exception (or timeout) of the line computing it


def shape_problem(key, entry, rows, cols, inp):
    """(values or None, the problem or None) of one returned table"""
    if entry["kind"] == "not-numbers":
        return None, L("your NumPy %s is not a table of numbers (it is a %s).",
                       "tu %s de NumPy no es una tabla de números (es un %s).", key, entry["type"])
    shape, vals = entry["shape"], entry["values"]
    vector = cols == 1
    if vector and (shape in ([rows], [rows, 1], [1, rows])):
        return col(vals if shape == [rows] else flat(vals) if shape == [1, rows] else [r[0] for r in vals]), None
    if shape == [rows, cols]:
        return vals, None
    what = L("your NumPy %s has shape %s, %s; expected %s.", "tu %s de NumPy tiene forma %s, %s; se esperaba %s.",
             key, str(tuple(shape)), dims(shape),
             L("(%d,) or (%d, 1)", "(%d,) o (%d, 1)", rows, rows) if vector else "(%d, %d)" % (rows, cols))
    extra = None
    if vector and shape == []:
        extra = L("One number for the whole table: the maxima and the sums are one per row, axis=1.",
                  "Un número para toda la tabla: los máximos y las sumas son uno por fila, axis=1.")
    elif vector and shape == [rows, rows]:
        extra = L("A whole table: take one value per row, .max(axis=1) or .sum(axis=1).",
                  "Una tabla entera: toma un valor por fila, .max(axis=1) o .sum(axis=1).")
    elif not vector and shape == [cols, rows] and rows != cols:
        extra = L("The table is transposed: rows are tokens (%s.T, or a product in the wrong order?).",
                  "La tabla está traspuesta: las filas son los tokens (¿%s.T, o un producto en el orden equivocado?).", key)
    elif key == "S" and shape == [rows, inp["d_k"]]:
        extra = L("T x d_k is the shape of Q and K: Q * K multiplies element by element; S = Q @ K.T.",
                  "T x d_k es la forma de Q y K: Q * K multiplica elemento a elemento; S = Q @ K.T.")
    elif key == "S" and shape == [inp["d_k"], inp["d_k"]]:
        extra = L("d_k x d_k is Q.T @ K, features against features: S = Q @ K.T, tokens against tokens.",
                  "d_k x d_k es Q.T @ K, rasgos frente a rasgos: S = Q @ K.T, tokens frente a tokens.")
    if extra:
        what += " " + extra
    return None, what


def judge_run(run, exact, inp):
    """the Table of every key for one run (example or large) of the learner's function"""
    got = {}
    for k in KEYS:
        t = Table(k)
        e = run["tables"].get(k) if run else None
        if e is not None and e["kind"] != "none":
            rows, cols = len(exact[k]), len(exact[k][0])
            t.values, t.problem = shape_problem(k, e, rows, cols, inp)
            if t.values is None and t.problem is None:
                t.problem = L("your NumPy %s is too large to be a table of this example.",
                              "tu %s de NumPy es demasiado grande para ser una tabla de este ejemplo.", k)
        got[k] = t
    # each table judged against the exact one, and against what the
    # learner's own earlier tables give (a table right for them follows)
    usable = {k: (got[k].values if got[k].values is not None else exact[k]) for k in KEYS}
    for k in KEYS:
        t = got[k]
        if t.values is None and t.problem is None:
            continue
        if t.problem:
            t.status = "wrong"
            continue
        if all_close(t.values, exact[k]):
            t.status = "ok"
            continue
        t.status = "wrong"
        wrong_deps = [d for d in DEPS[k] if got[d].status == "wrong"]
        own = step(k, usable, inp)
        if wrong_deps and all_close(t.values, own):
            roots = [got[d].follows or d for d in wrong_deps]
            t.follows = min(roots, key=KEYS.index)
            ref = exact[k]
        else:
            ref = own if wrong_deps else exact[k]
        t.cell, t.n_bad = first_diff(t.values, ref)
        if t.cell is None:
            t.cell, t.n_bad = first_diff(t.values, exact[k])
            ref = exact[k]
        i, j = t.cell
        t.expected, t.got = ref[i][j], t.values[i][j]
        if t.follows:
            continue
        for mid, key, fn, en, es in MISTAKES:
            if key != k:
                continue
            for deps in (usable, exact):
                try:
                    m = fn(deps, inp)
                except (ValueError, ZeroDivisionError, IndexError):
                    continue
                if all_close(t.values, m):
                    t.hints.append((mid, L(en, es)))
                    break
            if t.hints:
                break
    return got


def fmt(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return str(v)
    return "%.4f" % v if abs(v) >= 1e-4 or v == 0 else "%.4g" % v


def cell_name(key, cell, cols):
    i, j = cell
    return L("row %d", "fila %d", i) if cols == 1 else L("row %d, column %d", "fila %d, columna %d", i, j)


# ---- the report ---------------------------------------------------------------------------------
def trace_lines(err, indent="    "):
    return [indent + l for l in err["trace"]]


def error_hints(err, target):
    """hints for an exception, from its message and the table it was computing"""
    msg, typ = err["message"], err["type"]
    out = []
    none_names = [n for n, s in err["shapes"] if s is None]
    if none_names or "NoneType" in msg:
        out.append(L("a table on that line is still None%s: write the tables it comes from first (each line uses the ones above it).",
                     "una tabla de esa línea sigue en None%s: escribe antes las tablas de las que sale (cada línea usa las de arriba).",
                     " (%s)" % ", ".join(none_names) if none_names else ""))
    elif "matmul" in msg or "not aligned" in msg:
        out.append(L("A @ B needs as many columns in A as rows in B: (n x k) @ (k x m) is n x m.",
                     "A @ B necesita tantas columnas en A como filas en B: (n x k) @ (k x m) es n x m."))
    elif "broadcast" in msg:
        out.append(L("*, /, + and - work element by element and need shapes that line up; a matrix product is written @.",
                     "*, /, + y - operan elemento a elemento y necesitan formas que encajen; un producto de matrices se escribe @."))
    elif typ == "NameError":
        out.append(L("a name that is not defined: misspelt, or used before the line that assigns it?",
                     "un nombre que no está definido: ¿mal escrito, o usado antes de la línea que lo asigna?"))
    elif typ == "FloatingPointError" and "overflow" in msg:
        out.append(L("exp overflowed: subtract each row's maximum before np.exp.",
                     "exp se desbordó: resta el máximo de cada fila antes de np.exp."))
    if target and not none_names and "NoneType" not in msg:
        out.append(L("[%s] is ", "[%s] es ", target) + L(*RULES[target]))
    return out


def shapes_line(err):
    parts = ["%s %s" % (n, L("is None", "es None") if s is None else L("is ", "es ") + dims(s)) for n, s in err["shapes"]]
    return L("On that line: ", "En esa línea: ") + ", ".join(parts) + "." if parts else None


def run_failure(run, what):
    """lines that say how a run of the learner's function failed"""
    out = []
    err = run.get("error")
    where = ""
    if err and err["target"]:
        where = L(" while computing [%s]", " al calcular [%s]", err["target"])
    if run["outcome"] == "timeout":
        if err and err["line"]:
            out.append(L("Your NumPy code was still running after %s s%s: it was stopped at line %d%s:",
                         "Tu código NumPy seguía ejecutándose tras %s s%s: se detuvo en la línea %d%s:",
                         OPTS.timeout_text, what, err["line"], where))
            out += trace_lines(err)
        else:
            out.append(L("Your NumPy code did not finish within %s s%s: it was stopped, with everything it started.",
                         "Tu código NumPy no terminó en %s s%s: se detuvo, con todo lo que inició.", OPTS.timeout_text, what))
        out.append(hint(L("a loop that never ends? Each table is one NumPy expression; no loop is needed.",
                          "¿un bucle que no termina? Cada tabla es una expresión de NumPy; no hace falta ningún bucle.")))
        return out
    if run["outcome"] == "bad-return":
        return [L("%s returned a %s%s, not a dict: keep the skeleton's return line, {\"Q\": Q, ...}.",
                  "%s devolvió un %s%s, no un dict: conserva la línea return del esqueleto, {\"Q\": Q, ...}.",
                  FUNCTION, run["type"], what)]
    if run["outcome"] == "error":
        line = L(" at line %d", " en la línea %d", err["line"]) if err["line"] else ""
        out.append(L("Your NumPy code raised %s%s%s%s:", "Tu código NumPy lanzó %s%s%s%s:", err["type"], what, where, line))
        out += trace_lines(err)
        s = shapes_line(err)
        if s:
            out.append("  " + s)
        out += [hint(h) for h in error_hints(err, err["target"])]
    return out


def hand_word(hand, k):
    if hand is None:
        return "-"
    if not hand.get("readable"):
        return L("unreadable", "ilegible")
    return word(hand["steps"][k]["status"])


def compare_hand(hand, k, t, exact):
    """one line on how the hand table and the NumPy table of k stand, or None"""
    if hand is None or not hand.get("readable") or t.values is None:
        return None
    hs = hand["steps"][k]["status"]
    cells = hand["steps"][k]["cells"]
    written = [(i, j) for i, r in enumerate(cells) for j, v in enumerate(r) if v is not None]
    if not written:
        return None
    cols = len(exact[k][0])
    hand_tol = dict(atol=REF["atol"], rtol=REF["rtol"])
    differ = [(i, j) for i, j in written if not close(cells[i][j], t.values[i][j], **hand_tol)]
    if "pending" in (hs, t.status) or hs == t.status == "ok":
        return None
    cell = differ[0] if differ else t.cell if hs == "ok" else written[0]
    where = (cell_name(k, cell, cols), "%g" % cells[cell[0]][cell[1]], fmt(t.values[cell[0]][cell[1]]))
    if hs == "ok" and t.status == "wrong":
        return L("[%s] your hand %s matches the reference but your NumPy %s does not: look at the line that computes %s "
                 "(%s: you wrote %s, NumPy gives %s).",
                 "[%s] tu %s a mano coincide con la referencia pero tu %s de NumPy no: mira la línea que calcula %s "
                 "(%s: escribiste %s, NumPy da %s).", k, k, k, k, *where)
    if hs == "wrong" and t.status == "ok":
        return L("[%s] NumPy and the reference agree; your hand table differs at %s: you wrote %s, NumPy gives %s.",
                 "[%s] NumPy y la referencia coinciden; tu tabla a mano difiere en la %s: escribiste %s, NumPy da %s.",
                 k, *where)
    if not differ:
        return L("[%s] your hand table and your NumPy table agree with each other, not with the reference: the same mistake in both.",
                 "[%s] tu tabla a mano y tu tabla de NumPy coinciden entre sí, no con la referencia: el mismo error en las dos.", k)
    return L("[%s] your hand table and your NumPy table both differ from the reference, and from each other.",
             "[%s] tu tabla a mano y tu tabla de NumPy difieren de la referencia, y entre sí.", k)


def print_summary(got, large_status):
    """--summary: one line per table, then numpy:large"""
    rows = ["numpy:%s\t%d\t%d\t%d" % (k, got[k].status == "pending", got[k].status == "ok", got[k].status == "wrong")
            for k in KEYS]
    rows.append("numpy:large\t%d\t%d\t%d" % (large_status == "pending", large_status == "ok", large_status == "wrong"))
    print("\n".join(rows))


def warned(run):
    """the line that shows NumPy's warnings during a run, if it gave any"""
    return [L("  NumPy warned: ", "  NumPy avisó: ") + "; ".join(run["warnings"])] if run.get("warnings") else []


def probe(got, large, large_run, example_run):
    """the status of the large inputs and what to say: a table right on the
    example must be right on X times LARGE too"""
    if large_run is None or example_run is None or \
            example_run["outcome"] not in ("returned", "todo", "error", "timeout"):
        return "pending", []
    lines = []
    factor = REF["large"]
    ok_example = [k for k in KEYS if got[k].status == "ok"]
    if large_run["outcome"] in ("error", "timeout", "bad-return") and ok_example:
        lines += run_failure(large_run, L(" on the large inputs (X times %d)", " con las entradas grandes (X por %d)", factor))
        return "wrong", lines + warned(large_run)
    for k in ok_example:
        t = large[k]
        if t.status != "wrong":
            continue
        cols = len(REF["large_exact"][k][0])
        lines.append(L("On the large inputs (X times %d, scaled scores up to %s) your NumPy [%s] differs, though it is right on the example:",
                       "Con las entradas grandes (X por %d, puntuaciones escaladas hasta %s) tu [%s] de NumPy difiere, aunque en el ejemplo está bien:",
                       factor, fmt(max(flat(REF["large_exact"]["scaled"]))).rstrip("0").rstrip("."), k))
        if t.problem:
            lines.append("  " + t.problem)
            return "wrong", lines
        lines.append(L("  %s: expected %s, NumPy gives %s (%d of %d values differ).",
                       "  %s: se esperaba %s, NumPy da %s (%d de %d valores difieren).",
                       cell_name(k, t.cell, cols), fmt(t.expected), fmt(t.got), t.n_bad, len(flat(t.values))))
        if any(not math.isfinite(v) for v in flat(t.values)):
            lines.append(hint(L("exp of a scaled score above 709.78 is inf in double precision, and inf / inf is nan. "
                                "Your [%s] takes np.exp of the scores without each row's maximum subtracted; it is right on the "
                                "example only because its scores are small. Subtract the maximum first (E = np.exp(scaled - m)), "
                                "and build the weights from E.",
                                "exp de una puntuación escalada mayor que 709.78 es inf en doble precisión, e inf / inf es nan. "
                                "Tu [%s] aplica np.exp a las puntuaciones sin restar el máximo de cada fila; en el ejemplo está bien "
                                "solo porque sus puntuaciones son pequeñas. Resta antes el máximo (E = np.exp(scaled - m)) y "
                                "calcula los pesos a partir de E.", k)))
        elif all_close(t.values, REF["exact"][k]):
            lines.append(hint(L("it is the same table as on the example: it does not depend on X. Did you type the numbers "
                                "instead of computing them?",
                                "es la misma tabla que en el ejemplo: no depende de X. ¿Escribiste los números en lugar "
                                "de calcularlos?")))
        elif t.hints:
            lines.append(hint(t.hints[0][1]))
        return "wrong", lines + warned(large_run)
    if len(ok_example) == len(KEYS) and large_run["outcome"] == "returned" and all(large[k].status == "ok" for k in KEYS):
        return "ok", []
    return "pending", []


def load_failure(path, load):
    """why the learner's file did not give a function to call"""
    if load.get("missing"):
        return L("%s has no function %s(X, W_Q, W_K, W_V): keep the skeleton's def line.",
                 "%s no tiene la función %s(X, W_Q, W_K, W_V): conserva la línea def del esqueleto.", path, FUNCTION)
    e = load["error"]
    if e.get("timeout"):
        why = L("Your file was still running after %s s while it was loaded (before %s was called):",
                "Tu archivo seguía ejecutándose tras %s s mientras se cargaba (antes de llamar a %s):",
                OPTS.timeout_text, FUNCTION)
    else:
        why = L("Your file cannot be loaded (%s): Python stops before %s is called:",
                "Tu archivo no se puede cargar (%s): Python se detiene antes de llamar a %s:", e["type"], FUNCTION)
    return "\n".join([why] + trace_lines(e))


def title(path):
    return L("Lab 00, part 2, the same in NumPy: %s", "Lab 00, parte 2, lo mismo en NumPy: %s", path)


def main_report(path, child_res, got, large, hand, large_status, large_lines, brief):
    runs = child_res["runs"]
    ex = runs.get("example")
    n_ok = sum(got[k].status == "ok" for k in KEYS)
    n_wrong = sum(got[k].status == "wrong" for k in KEYS)
    n_pending = len(KEYS) - n_ok - n_wrong
    failing = n_wrong > 0 or large_status == "wrong"
    large_w = word(large_status)
    if brief and not failing:
        print(L("lab00 NumPy (%s): %d of %d tables right, %d pending, none wrong; large inputs: %s",
                "lab00 NumPy (%s): %d de %d tablas bien, %d pendientes, ninguna mal; entradas grandes: %s",
                path, n_ok, len(KEYS), n_pending, large_w))
        return 0
    print(title(path))
    print(L("A NumPy value is right when |NumPy - exact| <= %g + %g |exact|; the exact tables are the library's.\n",
            "Un valor de NumPy está bien si |NumPy - exacto| <= %g + %g |exacto|; las tablas exactas son las de la biblioteca.\n",
            NP_ATOL, NP_RTOL))
    head = "  %-9s %-28s %-10s %s" % (L("step", "paso"), L("computes", "calcula"), "NumPy", L("your hand table", "tu tabla a mano"))
    print(head)
    for s in REF["steps"]:
        k = s["key"]
        t = got[k]
        note = ""
        if t.follows:
            note = L("  NumPy follows from your NumPy [%s]", "  NumPy viene de tu [%s] de NumPy", t.follows)
        elif t.raised:
            note = L("  NumPy raised here", "  NumPy falló aquí")
        print(("  %-9s %-28s %-10s %s%s" % ("[%s]" % k, s["formula"], word(t.status), hand_word(hand, k), note)).rstrip())
    print("  %-9s %-28s %s" % ("[large]", L("the same, X times %d", "lo mismo, X por %d", REF["large"]), large_w))
    print(L("\nNumPy: %d of %d tables right, %d wrong, %d pending; large inputs: %s.",
            "\nNumPy: %d de %d tablas bien, %d mal, %d pendientes; entradas grandes: %s.",
            n_ok, len(KEYS), n_wrong, n_pending, large_w))

    # how the example's run went
    if ex and ex["outcome"] in ("error", "timeout", "bad-return"):
        print()
        for l in run_failure(ex, ""):
            print(l)
    if ex and ex.get("unknown"):
        print(L("\nYour dict has keys the checker does not know: %s (the tables are %s).",
                "\nTu dict tiene claves que el verificador no conoce: %s (las tablas son %s).",
                ", ".join(ex["unknown"]), ", ".join(KEYS)))
    first = next((k for k in KEYS if got[k].status == "wrong" and not got[k].raised), None)
    shown = False
    for k in KEYS:
        t = got[k]
        if t.status != "wrong" or t.follows or t.raised:
            continue
        formula = next(s["formula"] for s in REF["steps"] if s["key"] == k)
        cols = len(REF["exact"][k][0])
        print()
        print(L("Also wrong on its own: [%s] %s", "También está mal por sí misma: [%s] %s", k, formula) if shown else
              L("First NumPy table that differs: [%s] %s", "Primera tabla de NumPy que difiere: [%s] %s", k, formula),
              end=":" if t.problem else ",")
        shown = True
        if t.problem:
            print("\n  " + t.problem)
            continue
        against_own = any(got[d].status == "wrong" for d in DEPS[k])
        print(" %s:" % cell_name(k, t.cell, cols))
        print(L("  %s %s, your NumPy gives %s (%d of %d values differ).", "  %s %s, tu NumPy da %s (%d de %d valores difieren).",
                L("from your own earlier NumPy tables it is", "con tus propias tablas anteriores de NumPy es") if against_own
                else L("expected", "se esperaba"), fmt(t.expected), fmt(t.got), t.n_bad, len(flat(t.values))))
        print(hint(t.hints[0][1] if t.hints else L(*RULES[k])))
    if any(got[k].follows for k in KEYS):
        print(L("\nTables marked \"follows from\" are right for your NumPy tables before them: fix the earlier one first.",
                "\nLas tablas marcadas \"viene de\" están bien para tus tablas de NumPy anteriores: corrige primero la anterior."))
    if large_lines and first is None and not (ex and ex["outcome"] in ("error", "timeout", "bad-return")):
        print()
        for l in large_lines:
            print(l)

    # hand against NumPy
    if hand is not None and not hand.get("readable"):
        print(L("\nYour answers file (%s) cannot be read, so your hand tables are not compared: make lab NN=00 says why.",
                "\nTu archivo de respuestas (%s) no se puede leer, así que tus tablas a mano no se comparan: make lab NN=00 dice por qué.",
                hand["path"]))
    lines = [c for c in (compare_hand(hand, k, got[k], REF["exact"]) for k in KEYS if not got[k].follows) if c]
    left_out = [k for k in KEYS if got[k].follows and compare_hand(hand, k, got[k], REF["exact"])]
    if lines:
        print(L("\nWhere your hand work and your NumPy code disagree:", "\nDónde difieren tu trabajo a mano y tu código NumPy:"))
        for l in lines:
            print("  " + l)
        if left_out:
            print(L("  (and %s, which follow from an earlier NumPy table)", "  (y %s, que vienen de una tabla de NumPy anterior)",
                    ", ".join("[%s]" % k for k in left_out)))
    printed = child_res.get("printed", "")
    if printed.strip():
        pl = printed.rstrip("\n").split("\n")
        print(L("\nYour code printed (%d line%s%s):", "\nTu código escribió (%d línea%s%s):", len(pl),
                "" if len(pl) == 1 else "s", L(", the last 6", ", las 6 últimas") if len(pl) > 6 else ""))
        for l in pl[-6:]:
            print("  | " + l[:200])
    if not failing:
        if n_ok == len(KEYS) and large_status == "ok":
            print(L("\nEvery NumPy table is right, on the example and on the large inputs: attention in a few lines of NumPy.",
                    "\nTodas las tablas de NumPy están bien, en el ejemplo y con las entradas grandes: la atención en unas pocas líneas de NumPy."))
        else:
            nxt = next((k for k in KEYS if got[k].status == "pending"), None)
            if nxt:
                print(L("\nNext: [%s] in %s: replace its None.", "\nSiguiente: [%s] en %s: cambia su None.", nxt, path))
    return 1 if failing else 0


# ---- main --------------------------------------------------------------------------------------
OPTS = types.SimpleNamespace()    # the command line's options
# the options that take a value, and how it is read (--launcher: one word more each time)
VALUED = {"--timeout": float, "--grace": float, "--python": str, "--checker": str, "--answers": str}
REF = None


def env_is_spanish():
    """LAB_LANG=es (make and the self-tests set it from the locale:
    judge/harness/lang.sh, the one place the locale is read)"""
    return os.environ.get("LAB_LANG") == "es"


def usage():
    sys.stderr.write("usage: numpy_check.py [--lang=en|es] [--brief | --summary] [--timeout S] [--grace S]\n"
                     "                      [--python PATH] --checker CHECK [--answers ANSWERS] NUMPY_FILE\n")
    return 2


SANDBOX = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "..", "harness", "sandbox.sh"))
CHILD_MEMORY = 1 << 30       # address space of the learner's process
CHILD_FILE = 64 << 20        # the largest file it may write (its /tmp is private)
ANSWER_CAP = 8 << 20         # what is read of its answer (JSON)
PRINTED_CAP = 64 << 10       # what is kept of what it printed


def sandbox_note():
    """None if sandbox.sh can make the sandbox here, else why not"""
    try:
        p = subprocess.run(["sh", SANDBOX, "--probe"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "sandbox.sh cannot run (%s)" % e
    return None if p.returncode == 0 else (p.stdout.decode("utf-8", "replace").strip()
                                           or "sandbox.sh failed")


def child_limits():
    os.setpgrp()
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
    resource.setrlimit(resource.RLIMIT_FSIZE, (CHILD_FILE, CHILD_FILE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def read_bounded(p, until):
    """the child's stdout (at most ANSWER_CAP bytes) and stderr (its first
    PRINTED_CAP bytes), read until both end; the rest is read and dropped, so
    that no amount of printing costs this process memory. TimeoutExpired
    once the monotonic clock passes until."""
    keep = {p.stdout.fileno(): [bytearray(), ANSWER_CAP],
            p.stderr.fileno(): [bytearray(), PRINTED_CAP]}
    open_fds = list(keep)
    while open_fds:
        left = until - time.monotonic()
        if left <= 0:
            raise subprocess.TimeoutExpired(p.args, 0)
        ready, _, _ = select.select(open_fds, [], [], left)
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                open_fds.remove(fd)
                continue
            buf, cap = keep[fd]
            if len(buf) < cap:
                buf += chunk[:cap - len(buf)]
    p.wait()
    return bytes(keep[p.stdout.fileno()][0]), bytes(keep[p.stderr.fileno()][0])


def run_child(path, timeout, grace):
    """the learner's function, in the sandbox and a process group of its own;
    returns the child's JSON (or a stand-in when it did not give one) and the
    start of its stderr"""
    req = json.dumps({"timeout": timeout, "runs": {"example": REF["inputs"], "large": REF["large_inputs"]}})
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONDONTWRITEBYTECODE="1")
    # the deadline counts from the moment the child has NumPy (it writes one
    # byte to the ready pipe): importing NumPy on a loaded machine is no hang
    ready_r, ready_w = os.pipe()
    env["LAB00_READY_FD"] = str(ready_w)
    me, learner = os.path.abspath(__file__), os.path.abspath(path)
    cmd = [OPTS.python, "-B", me, "--run-learner", learner]
    if OPTS.sandboxed:
        env["LAB_SANDBOX"] = "bwrap"            # probed already
        sees = ["--ro", me, "--ro", learner]
        for prefix in {os.path.realpath(os.path.dirname(os.path.abspath(OPTS.python))) + "/..",
                       os.path.realpath(sys.base_prefix)}:    # an interpreter not in /usr
            prefix = os.path.normpath(prefix)
            if prefix != "/usr" and not prefix.startswith("/usr/"):
                sees += ["--ro", prefix]
        for d in filter(None, env.get("PYTHONPATH", "").split(os.pathsep)):
            sees += ["--ro", os.path.abspath(d)]     # the caller's module folders
        cmd = ["sh", SANDBOX] + sees + ["--"] + cmd
    p = subprocess.Popen(OPTS.launcher + cmd,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, preexec_fn=child_limits, pass_fds=(ready_w,))
    os.close(ready_w)
    killed = False

    def kill_group():
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def on_term(signum, frame):
        kill_group()
        sys.exit(128 + signum)
    old = signal.signal(signal.SIGTERM, on_term)
    try:
        p.stdin.write(req.encode())
        p.stdin.close()
        p.stdin = None               # communicate() has nothing more to send
        select.select([ready_r], [], [], 120)     # NumPy imported (or the child gone)
        os.close(ready_r)
        out, err = read_bounded(p, time.monotonic() + timeout + grace)
    except subprocess.TimeoutExpired:
        killed = True
        kill_group()
        out, err = read_bounded(p, time.monotonic() + 10)
    finally:
        kill_group()          # whatever the learner's code started goes too
        signal.signal(signal.SIGTERM, old)
    try:
        res = json.loads(out.decode("utf-8", "replace"))
    except ValueError:
        res = None
        if len(out) >= ANSWER_CAP:       # cut: say so, as the process's last words
            err += ("\n(its answer to the checker was larger than %d MiB, and was not read)"
                    % (ANSWER_CAP >> 20)).encode()
    return res, killed, p.returncode, err.decode("utf-8", "replace")


def main(argv):
    global LANG_ES, REF
    LANG_ES = env_is_spanish()
    brief = summary = False
    OPTS.timeout, OPTS.grace, OPTS.python, OPTS.launcher = 5.0, 10.0, sys.executable, []
    OPTS.checker = OPTS.answers = path = None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--lang=es": LANG_ES = True
        elif a == "--lang=en": LANG_ES = False
        elif a == "--lang=": pass
        elif a == "--brief": brief = True
        elif a == "--summary": summary = True
        elif a == "--launcher" and args: OPTS.launcher.append(args.pop(0))
        elif a in VALUED and args: setattr(OPTS, a[2:], VALUED[a](args.pop(0)))
        elif a.startswith("-") and a != "-": return usage()
        elif path is None: path = a
        else: return usage()
    if not OPTS.checker or not path:
        return usage()
    OPTS.timeout_text = ("%g" % OPTS.timeout)
    out = sys.stdout if not summary else sys.stderr

    # the reference, from the C checker (the library)
    cmd = [OPTS.checker, "--reference-json"] + ([OPTS.answers] if OPTS.answers else [])
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=60)
        REF = json.loads(p.stdout.decode())
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        sys.stderr.write("numpy_check: the reference is not available from %s: %s\n" % (OPTS.checker, e))
        return 2
    for size in ("d_k", "d_model", "d_v"):
        REF["inputs"][size] = REF["large_inputs"][size] = REF[size]
    hand = REF["hand"]

    if not os.path.isfile(path):
        out.write(L("%s: there is no such file: make lab-reset NN=00 does not restore it; take it from git "
                    "(git checkout -- %s).\n", "%s: no existe ese archivo: tómalo de git (git checkout -- %s).\n", path, path))
        return 2
    why = sandbox_note()
    OPTS.sandboxed = why is None
    if why:
        out.write(L("Note: %s, so your code runs without the sandbox, confined only by its own "
                    "limits and file permissions.\n",
                    "Nota: %s, así que tu código se ejecuta sin el entorno aislado, limitado solo "
                    "por sus propios límites y los permisos de los ficheros.\n", why))
    res, killed, rc, err = run_child(path, OPTS.timeout, OPTS.grace)

    if res is not None and res["numpy"] and not res["numpy"]["ok"]:
        msg = L("NumPy cannot be imported by %s (%s): install it with sudo make deps (Debian's python3-numpy), "
                "or sudo apt-get install python3-numpy. The NumPy part is not checked.\n",
                "%s no puede importar NumPy (%s): instálalo con sudo make deps (el paquete python3-numpy de Debian), "
                "o sudo apt-get install python3-numpy. La parte de NumPy no se revisa.\n",
                res["numpy"]["python"], res["numpy"]["error"])
        if summary:
            sys.stderr.write(msg)
            print_summary({k: Table(k) for k in KEYS}, "pending")
            return 0
        print(msg, end="")
        return 2

    if res is None:      # the child gave nothing: killed at the deadline, or it ended the process
        res = {"numpy": {"ok": True}, "load": {"ok": True}, "runs": {}, "printed": ""}
        if killed:
            res["runs"]["example"] = {"outcome": "timeout", "tables": {}, "error": None}
        else:
            tail = [l for l in err.strip().split("\n") if l][-6:]
            res["runs"]["example"] = {"outcome": "error", "tables": {}, "error": {
                "type": L("the end of the process", "el fin del proceso"),
                "message": "", "trace": tail + [L("(the Python process ended with status %s before returning)",
                                                  "(el proceso de Python terminó con el estado %s antes de volver)", rc)],
                "line": None, "source": None, "target": None, "shapes": []}}

    load = res["load"]
    if load and not load["ok"]:
        got = {k: Table(k) for k in KEYS}
        got["Q"].status = "wrong"
        got["Q"].raised = True
        if summary:
            print_summary(got, "pending")
        else:           # brief or not: something is wrong, so the whole story
            print(title(path))
            print(load_failure(path, load))
        return 1

    ex_run = res["runs"].get("example")
    lg_run = res["runs"].get("large")
    got = judge_run(ex_run, REF["exact"], REF["inputs"])
    large = judge_run(lg_run, REF["large_exact"], REF["large_inputs"])    # all pending without a run
    # the table a failing line was computing is wrong (or, unknown, the first not given)
    if ex_run and ex_run["outcome"] in ("error", "timeout", "bad-return"):
        e = ex_run.get("error") or {}
        target = e.get("target")
        if not target or got[target].status != "pending":
            target = next((k for k in KEYS if got[k].status == "pending"), None)
        if target:
            got[target].status = "wrong"
            got[target].raised = True
    large_status, large_lines = probe(got, large, lg_run, ex_run)
    if ex_run and ex_run["outcome"] in ("error", "timeout", "bad-return") and not any(got[k].raised for k in KEYS):
        large_status = "wrong"    # every table was computed, yet the function never returned

    if summary:
        print_summary(got, large_status)
        return 1 if any(got[k].status == "wrong" for k in KEYS) or large_status == "wrong" else 0
    return main_report(path, res, got, large, hand, large_status, large_lines, brief)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--run-learner":
        child(sys.argv[2])
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:            # the report piped into head, say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
