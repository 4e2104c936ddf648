#!/usr/bin/env python3
"""check-figures.py OUT NAME... - check the rendered figures of both editions.

OUT is $(BUILD)/figures. For each NAME it checks:
  * OUT/{en,es}/NAME.svg: non-empty, well-formed XML, with the edition's
    labels and without the other edition's;
  * OUT/{en,es}/NAME.pdf: starts with %PDF-, ends with %%EOF, and its text
    (pdftotext) has the edition's labels;
  * OUT/bin/NAME --facts: every expected key, and the values the book states.
Prints one line per failure, saying what to look at; exits 1 if any."""

import subprocess
import sys
import xml.etree.ElementTree as ET

# labels each edition must show, and a label the other edition must not
LABELS = {
    "worked-weights": {
        "en": ["key position j", "query position i", "attention weights", "weight w"],
        "es": ["posición de la key j", "posición de la query i", "pesos de atención", "peso w"],
    },
    "scores-tied": {
        "en": ["key position j", "query position i", ": asymmetric", ": symmetric", "score s"],
        "es": ["posición de la key j", "posición de la query i", "separadas: asimétrica",
               "atadas: simétrica", "puntuación s"],
    },
}

# the worked example of chapter 01, to 10 decimals: softmax(0, 1) and out row 0
WORKED = {
    "w00": 0.2689414214, "w01": 0.7310585786,
    "w10": 0.7310585786, "w11": 0.2689414214,
    "out00": 0.5378828427, "out01": 2.1931757359,
    "s00": 0.0, "s01": 1.0, "s10": 1.0, "s11": 0.0,
    "rowsum0": 1.0, "rowsum1": 1.0,
}

FACT_KEYS = {
    "worked-weights": ["T", "d_model", "d_k", "d_v", "softmax01_0", "softmax01_1",
                       "out10", "out11"] + list(WORKED),
    "scores-tied": ["T", "d_model", "d_k", "seed_x", "seed_w", "std_x", "std_w",
                    "asym_separate", "asym_tied", "unequal_pairs_separate",
                    "unequal_pairs_tied", "pairs", "min_eig_sym_separate",
                    "max_eig_sym_separate", "negative_eigs_sym_separate",
                    "min_eig_tied", "max_eig_tied", "negative_eigs_tied",
                    "rank_separate_sym", "rank_tied", "diag_min_tied",
                    "diag_rowmax_separate", "diag_rowmax_tied", "absmax_separate",
                    "absmax_tied", "color_limit"],
}

failures = []


def fail(msg):
    failures.append(msg)
    print("check-figures: FAIL: " + msg)


def svg_texts(path):
    """the text of each <text> element, its tspans joined"""
    root = ET.parse(path).getroot()
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def check_labels(path, texts, name, ed):
    other = "es" if ed == "en" else "en"
    for label in LABELS[name][ed]:
        if not any(label in t for t in texts):
            fail(f"{path}: no text contains {label!r}; was lang='{ed}' passed to "
                 f"gnuplot, and does figures/{name}.gp use tr() for it?")
    wrong = LABELS[name][other][0]
    if any(wrong in t for t in texts):
        fail(f"{path}: has the {other} label {wrong!r}; the edition's language "
             f"did not reach figures/{name}.gp")


def check_svg(path, name, ed):
    try:
        with open(path, "rb") as f:
            if not f.read(1):
                return fail(f"{path}: empty; rerun make figures and read gnuplot's errors")
        texts = svg_texts(path)
    except FileNotFoundError:
        return fail(f"{path}: missing; run make figures")
    except ET.ParseError as e:
        return fail(f"{path}: not well-formed XML ({e}); look at the sed step "
                    f"FIG_SVG_FIX in figures/figures.mk and at gnuplot's svg output")
    check_labels(path, texts, name, ed)


def check_pdf(path, name, ed):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return fail(f"{path}: missing; run make figures")
    if not data.startswith(b"%PDF-"):
        return fail(f"{path}: does not start with %PDF-; gnuplot did not write a PDF")
    if b"%%EOF" not in data[-64:]:
        return fail(f"{path}: no %%EOF at the end; the PDF is truncated")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"],
                          capture_output=True, text=True)
    if text.returncode != 0:
        return fail(f"{path}: pdftotext failed: {text.stderr.strip()}")
    # pdftotext may break a title at a subscript: compare without spaces
    flat = [text.stdout.replace(" ", "").replace("\n", "")]
    for label in LABELS[name][ed]:
        if label.replace(" ", "") not in flat[0]:
            fail(f"{path}: text lacks {label!r}; was lang='{ed}' passed to gnuplot?")
    other = "es" if ed == "en" else "en"
    wrong = LABELS[name][other][0]
    if wrong.replace(" ", "") in flat[0]:
        fail(f"{path}: has the {other} label {wrong!r}; the edition's language "
             f"did not reach figures/{name}.gp")


def facts_of(prog):
    run = subprocess.run([prog, "--facts"], capture_output=True, text=True)
    if run.returncode != 0 or run.stderr:
        fail(f"{prog} --facts: exit {run.returncode}, stderr {run.stderr.strip()!r}")
        return None
    facts = {}
    for line in run.stdout.splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            fail(f"{prog} --facts: line {line!r} is not key=value")
            continue
        facts[key] = value
    return facts


def check_facts(out, name):
    prog = f"{out}/bin/{name}"
    facts = facts_of(prog)
    if facts is None:
        return
    missing = [k for k in FACT_KEYS[name] if k not in facts]
    if missing:
        return fail(f"{prog} --facts: missing keys {missing}")
    num = {k: float(v) for k, v in facts.items()}
    if name == "worked-weights":
        for key, want in WORKED.items():
            if abs(num[key] - want) > 1e-9:
                fail(f"{prog} --facts: {key}={facts[key]}, the book states {want:.10f}; "
                     f"look first at qkv_attend_unscaled's softmax (row i of Q K^T), "
                     f"then at the inputs X, W_Q, W_K, W_V in figures/{name}.c")
        for key in ("softmax01_0", "softmax01_1"):
            lib = "w00" if key.endswith("0") else "w01"
            if abs(num[key] - num[lib]) > 1e-12:
                fail(f"{prog} --facts: {key}={facts[key]} differs from {lib}={facts[lib]}: "
                     f"the library's row 0 is not softmax(0, 1)")
    if name == "scores-tied":
        expect = [
            ("asym_tied", num["asym_tied"] == 0.0,
             "the tied S = Q Q^T should be exactly symmetric; did mm_matmul's "
             "b_transposed loop change its summation order?"),
            ("unequal_pairs_tied", num["unequal_pairs_tied"] == 0, "same cause as asym_tied"),
            ("asym_separate", num["asym_separate"] > 0.1,
             "separate W_Q, W_K should give a clearly asymmetric S; are W_Q and W_K "
             "drawn as two different matrices?"),
            ("unequal_pairs_separate", num["unequal_pairs_separate"] == num["pairs"],
             "every pair i < j should differ with separate weights"),
            ("negative_eigs_tied", num["negative_eigs_tied"] == 0,
             "S = Q Q^T is positive semidefinite: no negative eigenvalue"),
            ("rank_tied", num["rank_tied"] == min(num["d_k"], num["T"]),
             "rank(Q Q^T) = min(d_k, T)"),
            ("negative_eigs_sym_separate", num["negative_eigs_sym_separate"] > 0,
             "the symmetric part of the separate S should not be semidefinite"),
            ("color_limit", num["color_limit"] >= max(num["absmax_separate"], num["absmax_tied"]),
             "the colour scale must cover both panels"),
        ]
        for key, ok, why in expect:
            if not ok:
                fail(f"{prog} --facts: {key}={facts[key]}: {why}")


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check-figures.py OUT NAME...")
    out, names = sys.argv[1], sys.argv[2:]
    for name in names:
        if name not in LABELS or name not in FACT_KEYS:
            fail(f"figure {name!r} has no checks in figures/check-figures.py; add them")
            continue
        for ed in ("en", "es"):
            check_svg(f"{out}/{ed}/{name}.svg", name, ed)
            check_pdf(f"{out}/{ed}/{name}.pdf", name, ed)
        check_facts(out, name)
    if failures:
        print(f"check-figures: {len(failures)} failure(s)")
        sys.exit(1)
    print(f"check-figures: {len(names)} figures x 2 editions x (svg, pdf), facts: ok")


main()
