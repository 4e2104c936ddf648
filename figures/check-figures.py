#!/usr/bin/env python3
"""check-figures.py OUT NAME... - check the rendered figures of both editions.

OUT is $(BUILD)/figures. For each NAME it checks:
  * OUT/{en,es}/NAME.svg: non-empty, well-formed XML, with the edition's
    labels and without the other edition's;
  * OUT/{en,es}/NAME.pdf: starts with %PDF-, ends with %%EOF, and its text
    (pdftotext) has the edition's labels;
  * OUT/bin/NAME --facts: every expected key, and the values the book states;
  * the size of its text as printed: the chapters include NAME with
    \includegraphics[width=F\textwidth]{NAME} (book/{en,es}/*.nw); the PDF
    is scaled from its page width to F times the text width (--textwidth-cm),
    and every word of it (pdftotext -bbox) must then be at least MIN_PT
    points, a sub- or superscript at least SCRIPT * MIN_PT. The SVG, shown
    at any width, must keep the same ratio of font size to figure width.
Prints one line per failure, saying what to look at; exits 1 if any.

    check-figures.py [--book DIR] [--textwidth-cm W] OUT NAME...
    check-figures.py --self-test WORK OUT NAME   (a figure forced to small
        text, and one included narrower, must fail; OUT has NAME's data)"""

import glob
import os
import re
import math
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

# text as printed: at least body text (11 pt) less a little; gnuplot draws
# sub- and superscripts at 0.8 of their label, as LaTeX does in math
MIN_PT = 9.0
SCRIPT = 0.8
TEXTWIDTH_CM = 16.0     # the PDF book's text block (figures/figures.mk)

# labels each edition must show, and a label the other edition must not
LABELS = {
    "worked-weights": {
        "en": ["key position j", "query position i", "attention weights", "weight a"],
        "es": ["posición de la key j", "posición de la query i", "pesos de atención", "peso a"],
    },
    "scores-tied": {
        "en": ["key position j", "query position i", ": asymmetric", ": symmetric", "score s"],
        "es": ["posición de la key j", "posición de la query i", "separadas: asimétrica",
               "atadas: simétrica", "puntuación s"],
    },
    "sdpa-temperature": {
        "en": ["at temperature", "scores of query 7", "key position j", "score s", "weight a",
               "τ = 0.25", "τ = 16", "1/8"],
        "es": ["a temperatura", "puntuaciones de la query 7", "posición de la key j",
               "puntuación s", "peso a", "τ = 0.25", "τ = 16", "1/8"],
    },
    "sdpa-variance": {
        "en": ["variance of the score", "head width d", "(theory)", "measured"],
        "es": ["varianza de la puntuación", "ancho de la cabeza d", "(teoría)", "medida"],
    },
    "sdpa-saturation": {
        "en": ["without scale", "with scale", "largest weight", "head width d",
               "percentile", "1/16"],
        "es": ["sin escala", "con escala", "peso máximo", "ancho de la cabeza d",
               "percentiles 10 a 90", "1/16"],
    },
    "sdpa-worked": {
        "en": ["without scale", "with scale", "weight a", "key position j",
               "0.2689", "0.7311", "0.3302", "0.6698"],
        "es": ["sin escala", "con escala", "peso a", "posición de la key j",
               "0.2689", "0.7311", "0.3302", "0.6698"],
    },
    "mha-heads-planted": {
        "en": ["head 0: previous token", "head 1: same word", "head 2: subject of the verb",
               "head 3: nothing planted", "query i", "key j", "weight a", "work", "___"],
        "es": ["cabeza 0: token anterior", "cabeza 1: misma palabra",
               "cabeza 2: sujeto del verbo", "cabeza 3: nada plantado", "query i", "key j",
               "peso a", "work", "___"],
    },
    "mha-heads-drawn": {
        "en": ["head 0: initial weights", "head 3: initial weights", "max |a", "− 1/8|",
               "query i", "key j", "weight a", "work", "___"],
        "es": ["cabeza 0: pesos iniciales", "cabeza 3: pesos iniciales", "max |a", "− 1/8|",
               "query i", "key j", "peso a", "work", "___"],
    },
    "mha-split": {
        "en": ["split: head h takes columns", "of every token", "reshape without transpose",
               "is run h of T", "head 0", "head 1", "“head 0”", "“head 1”", "Q's memory: 2 runs of 6",
               "token 2", "✗ token 0", "split", "reshape", "(2, 3, 2)"],
        "es": ["corte: la cabeza h toma las columnas", "de cada token", "reshape sin transponer",
               "es el tramo h de T", "cabeza 0", "cabeza 1", "«cabeza 0»", "«cabeza 1»",
               "memoria de Q: 2 tramos de 6", "token 2", "✗ token 0", "corte", "reshape",
               "(2, 3, 2)"],
    },
    "mask-heads": {
        "en": ["causal mask B", "head 0", "previous token", "head 1", "same word", "head 2",
               "subject of the verb", "head 3", "average of the past", "hidden", "visible",
               "= −∞", "hidden: a", "query i", "key j", "weight a", "work", "___"],
        "es": ["máscara causal B", "cabeza 0", "token anterior", "cabeza 1", "misma palabra",
               "cabeza 2", "sujeto del verbo", "cabeza 3", "media del pasado", "oculta",
               "visible", "= −∞", "oculta: a", "query i", "key j", "peso a", "work", "___"],
    },
    "mask-after": {
        "en": ["key 2's weight before it was set to 0", "mask → softmax", "softmax → mask",
               "weight a", "key 0", "key 2", "= (0, 1, 1)/√2", "= (0, 1, 3)/√2", "sum ="],
        "es": ["peso de la key 2 antes de ponerlo a 0", "máscara → softmax",
               "softmax → máscara", "peso a", "key 0", "key 2", "= (0, 1, 1)/√2",
               "= (0, 1, 3)/√2", "suma ="],
    },
    "fast-tiles": {
        "en": ["never computed", "masked after", "the product", "fully visible", "query i",
               "key j"],
        "es": ["nunca se calcula", "enmascarada", "tras el producto", "totalmente visible",
               "query i", "key j"],
    },
    "fast-cache": {
        "en": ["full heads (12 key/value heads)", "GQA, 4 key/value heads",
               "MQA, 1 key/value head", "cache memory per layer (MiB)",
               "context length T (tokens)", "4096", "0.01"],
        "es": ["cabezas completas (12 de keys y values)", "GQA, 4 cabezas de keys y values",
               "MQA, 1 cabeza de keys y values", "memoria de la caché por capa (MiB)",
               "longitud del contexto T (tokens)", "4096", "0.01"],
    },
    "fast-curve": {
        "en": ["C, row at a time", "C, in tiles", "C+OpenBLAS, row at a time",
               "C+OpenBLAS, in tiles", "NumPy", "PyTorch", "ms per forward",
               "time over NumPy's", "sequence length T (tokens)", "1024"],
        "es": ["C, query a query", "C, en teselas", "C+OpenBLAS, query a query",
               "C+OpenBLAS, en teselas", "NumPy", "PyTorch", "ms por pasada",
               "tiempo / el de NumPy", "longitud de la secuencia T (tokens)", "1024"],
    },
}

# the worked example of chapter 01 in closed form, as the chapter derives it:
# row 0 is softmax(0, 1) = (1, e) / (1 + e), row 1 its mirror, out_0 = (2, 3e) / (1 + e)
E = math.e
WORKED = {
    "w00": 1 / (1 + E), "w01": E / (1 + E),
    "w10": E / (1 + E), "w11": 1 / (1 + E),
    "out00": 2 / (1 + E), "out01": 3 * E / (1 + E),
    "s00": 0.0, "s01": 1.0, "s10": 1.0, "s11": 0.0,
    "rowsum0": 1.0, "rowsum1": 1.0,
}

# chapter 02's worked example, row 0, in closed form as the chapter derives
# it: unscaled softmax(0, 1); scaled softmax(0, 1/sqrt 2); out_0 = (2 a_00, 3 a_01)
E_SCALED = math.exp(1 / math.sqrt(2))   # e^(1/sqrt 2)
SDPA_WORKED = {
    "unscaled_w00": 1 / (1 + E), "unscaled_w01": E / (1 + E),
    "scaled_w00": 1 / (1 + E_SCALED), "scaled_w01": E_SCALED / (1 + E_SCALED),
    "unscaled_out00": 2 / (1 + E), "unscaled_out01": 3 * E / (1 + E),
    "scaled_out00": 2 / (1 + E_SCALED), "scaled_out01": 3 * E_SCALED / (1 + E_SCALED),
    "d_k": 2, "scale": 1 / math.sqrt(2), "uniform": 0.5,
}
# the sizes of d_k the saturation and variance figures run through
SDPA_DKS = [2 ** p for p in range(11)]
SDPA_TAUS = ["0.25", "1", "4", "16"]

# chapter 03's planted heads: every plant adds 4 * 5 / sqrt(16) = 5 to a
# scaled score, so each weight is e^s / sum_j e^s_j with s in {0, 5, 10}
E5, E10 = math.exp(5), math.exp(10)
MHA_CLOSED = {
    "prev": E5 / (E5 + 7),                      # head 0: one key at 5
    "same_word_once": E5 / (E5 + 7),            # head 1: I, you, he, ___
    "same_word_twice": E5 / (2 * E5 + 6),       # head 1: work, ","
    "subject_clause0": E10 / (E10 + 4 * E5 + 3),  # head 2, query 1 (work) -> I
    "subject_clause1": E10 / (E10 + 4 * E5 + 3),  # head 2, query 4 (work) -> you
    "subject_clause2": E10 / (E10 + 3 * E5 + 4),  # head 2, query 7 (___) -> he
}
MHA_TOKENS = "I work , you work , he ___".split()
# chapter 03's worked example, Q = X (tangled/examples/ch03-worked.h), and
# the buggy "head 0" the chapter states: (1, 0), (1, 0), (0, 1)
MHA_Q = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
MHA_RESHAPE_H0 = [[1, 0], [1, 0], [0, 1]]

# chapter 04's causal layer on the planted heads: row i sees keys 0..i, so
# each weight is e^s over the visible keys only (scores 0, 5 or 10)
MASK_CLOSED = {
    "h0.w10": E5 / (E5 + 1),                 # previous token, two keys
    "h0.w76": E5 / (E5 + 7),                 # previous token, all eight
    "h1.w11": E5 / (E5 + 1),                 # the first work sees I and itself
    "h1.w41": E5 / (2 * E5 + 3),             # the second work, two works of five
    "h1.w44": E5 / (2 * E5 + 3),
    "h2.w43": E10 / (E10 + 2 * E5 + 2),      # work -> you: I 5, you 10, work 5
}
# the weights chapter 04 states, as it rounds them
MASK_STATED = {"causal.h0.w10": "0.9933", "causal.h0.w76": "0.9550",
               "causal.h1.w41": "0.4950", "causal.h1.w44": "0.4950",
               "causal.h1.w11": "0.9933", "causal.h2.w43": "0.9866",
               "causal.h3.w10": "0.5", "causal.h3.w30": "0.25",
               "unmasked.h2.w43": "0.9736"}
# argument 1 of chapter 04: row 1 of head 0 of chapter 03's worked example,
# scaled scores (0, 1, f)/sqrt 2, key 2 hidden, masked before or after the
# softmax; the closed forms, and the numbers the chapter states
E1 = math.exp(1 / math.sqrt(2))
E3 = math.exp(3 / math.sqrt(2))
AFTER_CLOSED = {
    "before.w0": 1 / (1 + E1), "before.w1": E1 / (1 + E1),
    "after.f1.w0": 1 / (1 + 2 * E1), "after.f1.w1": E1 / (1 + 2 * E1),
    "after.f1.cut2": E1 / (1 + 2 * E1), "after.f1.sum": (1 + E1) / (1 + 2 * E1),
    "after.f3.w0": 1 / (1 + E1 + E3), "after.f3.w1": E1 / (1 + E1 + E3),
    "after.f3.cut2": E3 / (1 + E1 + E3), "after.f3.sum": (1 + E1) / (1 + E1 + E3),
}
AFTER_STATED = {"before.w0": "0.3302", "before.w1": "0.6698", "after.f1.w0": "0.1978",
                "after.f1.w1": "0.4011", "after.f1.sum": "0.5989", "after.f3.w0": "0.0879",
                "after.f3.w1": "0.1784", "after.f3.sum": "0.2663"}

# chapter 05's causal mask in tiles, T = 8 in tiles of 2 (n = 4 blocks), and
# the key/value cache at GPT-2 small's width, T = 16 .. 4096: what the
# figures' captions state
FAST_TILES_STATED = {"tiles.all": 16, "tiles.computed": 10, "tiles.skipped": 6,
                     "tiles.diagonal": 4, "tiles.below": 6, "scores.all": 64,
                     "scores.computed": 40, "scores.used": 36}
FAST_CACHE_TS = [16 * 2 ** p for p in range(9)]
FAST_CACHE_STATED = {"mib.full.T1024": 12, "mib.gqa4.T1024": 4, "mib.mqa.T1024": 1,
                     "mib.model12.T1024": 144}

FAST_CURVE_SERIES = ["c", "c_tiled", "ob", "ob_tiled", "numpy", "pytorch"]
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
    "sdpa-temperature": ["rule", "seed", "T", "d_k", "query", "scale", "uniform",
                         "score_max", "score_min", "score_argmax", "score_second",
                         "score_second_key", "score_gap", "tau1_vs_sdpa_maxdiff",
                         "tau_coldest", "tau_hottest"]
                        + [f"s{j}" for j in range(8)]
                        + [f"{f}_tau{t}" for t in SDPA_TAUS
                           for f in ("max_w", "argmax", "min_w", "max_dev_uniform", "rowsum")]
                        + [f"w_tau{t}_{j}" for t in SDPA_TAUS for j in range(8)],
    "sdpa-variance": ["rule", "seed", "pairs", "d_k_min", "d_k_max", "d_k_count",
                      "max_rel_dev", "max_dev_in_se", "std_unscaled_1024"]
                     + [f"{f}_{d}" for d in SDPA_DKS
                        for f in ("var", "var_scaled", "ratio", "rel_se")],
    "sdpa-saturation": ["rule", "percentile_rule", "T_k", "seeds", "seed_first", "seed_last",
                        "d_k_min", "d_k_max", "d_k_count", "percentile_low",
                        "percentile_high", "uniform", "near_one", "scaled_mean_min",
                        "scaled_mean_max"]
                       + [f"{c}_{f}_{d}" for c in ("unscaled", "scaled") for d in SDPA_DKS
                          for f in ("mean", "p10", "p90", "rows_near_one")],
    "sdpa-worked": ["T", "d_model", "d_v"] + list(SDPA_WORKED),
    "mha-heads-planted": ["T", "d_model", "n_heads", "d_k", "seed", "tokens", "plant_score",
                          "uniform", "planted.max_rowsum_err", "planted.h3.max_dev_from_uniform"]
                         + [f"planted.h{h}.{f}{i}" for h in range(4) for i in range(8)
                            for f in ("argmax", "max")]
                         + [f"planted.h{h}.w{i}{j}" for h in range(4) for i in range(8)
                            for j in range(8)]
                         + [f"closed.{k}" for k in MHA_CLOSED],
    "mha-heads-drawn": ["T", "d_model", "n_heads", "d_k", "seed", "uniform",
                        "drawn.max_dev_from_uniform", "drawn.min_w", "drawn.max_w",
                        "drawn.max_rowsum_err", "color_min", "color_max"]
                       + [f"drawn.h{h}.{f}" for h in range(4)
                          for f in ("max_dev_from_uniform", "min_w", "max_w")]
                       + [f"drawn.h{h}.w{i}{j}" for h in range(4) for i in range(8)
                          for j in range(8)],
    "mask-heads": ["T", "d_model", "n_heads", "d_k", "seed", "tokens", "plant_score",
                   "mask.hidden_cells", "mask.visible_cells", "causal.max_above_diag",
                   "causal.zero_hidden_cells", "causal.zero_visible_cells",
                   "causal.min_visible", "causal.max_rowsum_err", "unmasked.h2.w43"]
                  + [f"mask.b{i}{j}" for i in range(8) for j in range(8)]
                  + [f"causal.h{h}.{f}{i}" for h in range(4) for i in range(8)
                     for f in ("rowsum", "argmax", "max")]
                  + [f"causal.h{h}.w{i}{j}" for h in range(4) for i in range(8)
                     for j in range(8)]
                  + [f"closed.{k}" for k in MASK_CLOSED if k != "h1.w44"]
                  + [f"closed.h3.w{t}0" for t in range(8)],
    "mask-after": ["d_k", "scale", "query", "hidden_key", "before.sum", "before.f3_same"]
                  + [f"f{f}.s{j}" for f in (1, 3) for j in range(3)]
                  + [f"before.w{j}" for j in range(3)]
                  + [f"after.f{f}.{k}" for f in (1, 3)
                     for k in ("w0", "w1", "w2", "cut2", "sum")]
                  + [f"closed.{k}" for k in AFTER_CLOSED if not k.endswith(("cut2", "sum"))],
    "mha-split": ["T", "d_model", "n_heads", "d_k", "head_numbers", "rule"]
                 + [f"q{t}{c}" for t in range(3) for c in range(4)]
                 + [f"{k}.h{h}.{t}{c}" for k in ("split", "reshape") for h in range(2)
                    for t in range(3) for c in range(2)]
                 + [f"{k}.h{h}.{f}" for k in ("split", "reshape") for h in range(2)
                    for f in ("row0", "row1", "row2", "tokens")],
    "fast-tiles": ["T", "block_q", "block_k", "blocks", "tiled.d_k", "tiled.seed",
                   "tiled.max_diff_in_u", "tiled.within_16u"]
                  + [f"tiles.{k}" for k in ("all", "computed", "skipped", "diagonal", "below")]
                  + [f"scores.{k}" for k in ("all", "computed", "used", "masked_after",
                                             "skipped")],
    "fast-cache": ["d_model", "n_heads", "d_k", "bytes_per_number", "seed", "T_first",
                   "T_last", "points", "kv_heads", "cache.all_fit", "mib.model12.T1024"]
                  + [f"cache.T{t}.{k}" for t in FAST_CACHE_TS
                     for k in ("doubles", "usable_bytes", "fits")]
                  + [f"mib.{k}.T{t}" for t in FAST_CACHE_TS for k in ("full", "gqa4", "mqa")],
    "fast-curve": ["source", "d_model", "n_heads", "points", "T_first", "T_last", "series",
                   "last.ob_tiled_vs_best_peer", "last.tiled_vs_rows.c", "last.tiled_vs_rows.ob"]
                  + [f"beats_peers_from.{k}" for k in FAST_CURVE_SERIES[:4]],
}

failures = []
opts = {"book": "book", "textwidth_cm": TEXTWIDTH_CM}


def fail(msg):
    failures.append(msg)
    if not opts.get("quiet"):          # the self-test counts its failures instead
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
    num = {}                     # the numeric facts (a rule may be a sentence)
    for k, v in facts.items():
        try:
            num[k] = float(v)
        except ValueError:
            pass
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
    if name.startswith("sdpa-"):
        for key, ok, why in SDPA_CHECKS[name](num):
            if not ok:
                fail(f"{prog} --facts: {key}={facts.get(key)}: {why}")
    if name.startswith("mha-"):
        for key, ok, why in MHA_CHECKS[name](num, facts):
            if not ok:
                fail(f"{prog} --facts: {key}={facts.get(key)}: {why}")
    if name.startswith("mask-"):
        for key, ok, why in MASK_CHECKS[name](num, facts):
            if not ok:
                fail(f"{prog} --facts: {key}={facts.get(key)}: {why}")
    if name == "fast-tiles":
        check_fast_tiles_data(out)
    if name.startswith("fast-"):
        for key, ok, why in FAST_CHECKS[name](num, facts):
            if not ok:
                fail(f"{prog} --facts: {key}={facts.get(key)}: {why}")
    return facts


def sdpa_temperature(num):
    """one row at four temperatures: colder picks one key, hotter is flat"""
    maxes = [num[f"max_w_tau{t}"] for t in SDPA_TAUS]
    yield from [
        ("tau1_vs_sdpa_maxdiff", num["tau1_vs_sdpa_maxdiff"] == 0.0,
         "at tau = 1 the row must be sdpa's row 7, bit for bit: is the scale "
         "1/sqrt(d_k) applied the same way, and is the row softmax_row's?"),
        ("max_w_tau0.25", num["max_w_tau0.25"] > 0.95,
         "the coldest row should nearly pick one key (caption: 'colder rows "
         "pick one key'); is the seed the one the caption states?"),
        ("max_dev_uniform_tau16", num["max_dev_uniform_tau16"] < 0.03,
         "the hottest row should be within 0.03 of 1/8 (caption: 'spread the "
         "weight evenly')"),
        ("max_w_tau0.25", all(a > b for a, b in zip(maxes, maxes[1:])),
         f"the largest weight must fall as tau rises: {maxes}"),
        ("argmax_tau0.25", all(num[f"argmax_tau{t}"] == num["score_argmax"] for t in SDPA_TAUS),
         "every temperature keeps the order: the largest weight is on the largest score"),
        ("tau_coldest", (num["tau_coldest"], num["tau_hottest"]) == (0.25, 16),
         "the caption states tau = 0.25, 1, 4, 16"),
        ("score_gap", num["score_gap"] > 0.5,
         "the row needs one clearly largest score to show the effect"),
    ]
    for t in SDPA_TAUS:
        yield (f"rowsum_tau{t}", abs(num[f"rowsum_tau{t}"] - 1) < 1e-15,
               "a softmax row sums to 1 within 1e-15")
        ws = [num[f"w_tau{t}_{j}"] for j in range(8)]
        yield (f"max_w_tau{t}", num[f"max_w_tau{t}"] == max(ws) and num[f"min_w_tau{t}"] == min(ws),
               "max_w and min_w must be the largest and smallest of the row printed")


def sdpa_variance(num):
    """Var(q k^T) = d_k, Var(q k^T / sqrt(d_k)) = 1, within the sampling error"""
    xs = [math.log2(d) for d in SDPA_DKS]
    ys = [math.log2(num[f"var_{d}"]) for d in SDPA_DKS]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    yield ("var_1024", 0.97 < slope < 1.03,
           f"the log-log slope of the measured variance against d_k is {slope:.4f}, not 1")
    yield ("pairs", num["pairs"] == 4000, "the caption states 4000 pairs for each d_k")
    for d in SDPA_DKS:
        ratio, se = num[f"ratio_{d}"], math.sqrt((2 + 6 / d) / num["pairs"])
        yield (f"ratio_{d}", abs(ratio - 1) < 4 * se,
               f"Var(q k^T) / d_k is off by more than 4 standard errors ({4 * se:.3f}): "
               f"are q and k drawn with N(0, 1) entries, and the variance taken with "
               f"the mean removed?")
        yield (f"ratio_{d}", abs(num[f"var_{d}"] / d - ratio) < 1e-9,
               "ratio must be var / d_k")
        yield (f"var_scaled_{d}", abs(num[f"var_scaled_{d}"] / ratio - 1) < 1e-9,
               "dividing the scores by sqrt(d_k) divides their variance by d_k exactly")
        yield (f"rel_se_{d}", abs(num[f"rel_se_{d}"] - se) < 1e-9,
               "rel_se must be sqrt((2 + 6/d_k) / pairs)")


def sdpa_saturation(num):
    """without the scale the rows saturate, with it they do not"""
    yield from [
        ("seeds", num["seeds"] == 200, "the caption states a mean over 200 seeds"),
        ("T_k", num["T_k"] == 16, "the caption states 16 keys"),
        ("percentile_low", num["percentile_low"] == 10 and num["percentile_high"] == 90,
         "the caption states a band from the 10th to the 90th percentile"),
        ("unscaled_mean_1024", num["unscaled_mean_1024"] > 0.9,
         "without the scale the mean largest weight at d_k = 1024 should exceed 0.9"),
        ("scaled_mean_1024", num["scaled_mean_1024"] < 0.5,
         "with the scale the mean largest weight at d_k = 1024 should stay below 0.5"),
        ("scaled_mean_max", num["scaled_mean_max"] - num["scaled_mean_min"] < 0.1,
         "with the scale the curve should be flat: its means within 0.1 over all d_k"),
        ("unscaled_rows_near_one_1024", num["unscaled_rows_near_one_1024"] > num["seeds"] / 2
         and num["scaled_rows_near_one_1024"] == 0,
         "at d_k = 1024 most unscaled rows should be near one-hot, and no scaled row"),
        ("unscaled_mean_1", num["unscaled_mean_1"] == num["scaled_mean_1"],
         "at d_k = 1 the scale is 1: both curves must start at the same point"),
    ]
    means = [num[f"unscaled_mean_{d}"] for d in SDPA_DKS]
    yield ("unscaled_mean_1024", all(a < b for a, b in zip(means[:6], means[1:7])),
           f"without the scale the mean should climb with d_k (up to 64): {means}")
    for c in ("unscaled", "scaled"):
        for d in SDPA_DKS:
            lo, m, hi = (num[f"{c}_{f}_{d}"] for f in ("p10", "mean", "p90"))
            yield (f"{c}_mean_{d}", num["uniform"] <= lo <= m <= hi <= 1 + 1e-12,
                   "need 1/16 <= p10 <= mean <= p90 <= 1")


def sdpa_worked(num):
    """row 0 of chapter 01's example equals the chapter's closed forms"""
    for key, want in SDPA_WORKED.items():
        yield (key, abs(num[key] - want) < 1e-9,
               f"the book states {want:.10f}: look first at sdpa's scale (1/sqrt(d_k)) "
               f"and qkv_attend_unscaled, then at figures/sdpa-worked.c")


SDPA_CHECKS = {"sdpa-temperature": sdpa_temperature, "sdpa-variance": sdpa_variance,
               "sdpa-saturation": sdpa_saturation, "sdpa-worked": sdpa_worked}


def mha_heads_planted(num, facts):
    """the four planted heads do what chapter 03 says, with the closed forms"""
    w = lambda h, i, j: num[f"planted.h{h}.w{i}{j}"]
    yield ("T", (num["T"], num["d_model"], num["n_heads"], num["d_k"]) == (8, 64, 4, 16),
           "the caption states MultiHeadAttention(64, 4, 1) on 8 tokens")
    yield ("tokens", facts["tokens"].split() == MHA_TOKENS,
           f"the tick labels of figures/mha-heads.gp are {MHA_TOKENS}")
    yield ("plant_score", num["plant_score"] == 5, "a plant adds 4 * 5 / sqrt(16) = 5")
    for key, want in MHA_CLOSED.items():
        yield (f"closed.{key}", abs(num[f"closed.{key}"] - want) < 1e-9,
               f"the closed form is {want:.10f}")
    yield ("planted.max_rowsum_err", num["planted.max_rowsum_err"] < 1e-12,
           "every row of weights sums to 1")
    for i in range(8):                      # head 0: the previous token
        if i == 0:
            yield ("planted.h0.w00", all(w(0, 0, j) == 0.125 for j in range(8)),
                   "head 0's query 0 has no previous token: its row is 1/8")
        else:
            yield (f"planted.h0.w{i}{i - 1}", num[f"planted.h0.argmax{i}"] == i - 1
                   and abs(w(0, i, i - 1) - MHA_CLOSED["prev"]) < 1e-9,
                   "head 0 must put e^5 / (e^5 + 7) on the previous token; "
                   "look at planted_layer in tangled/examples/ch03-planted.h")
    for i in range(8):                      # head 1: the same word
        same = [j for j in range(8) if MHA_TOKENS[j] == MHA_TOKENS[i]]
        want = MHA_CLOSED["same_word_once" if len(same) == 1 else "same_word_twice"]
        yield (f"planted.h1.w{i}{same[-1]}", all(abs(w(1, i, j) - want) < 1e-9 for j in same),
               f"head 1 must put {want:.4f} on each key with the word of query {i}")
    for i, j, key in ((1, 0, "subject_clause0"), (4, 3, "subject_clause1"),
                      (7, 6, "subject_clause2")):     # head 2: a verb's subject
        yield (f"planted.h2.w{i}{j}", num[f"planted.h2.argmax{i}"] == j
               and abs(w(2, i, j) - MHA_CLOSED[key]) < 1e-9,
               f"head 2 must send query {i} ({MHA_TOKENS[i]}) to its subject {j} "
               f"({MHA_TOKENS[j]}) with {MHA_CLOSED[key]:.4f}")
    yield ("planted.h3.max_dev_from_uniform", num["planted.h3.max_dev_from_uniform"] == 0
           and all(w(3, i, j) == 0.125 for i in range(8) for j in range(8)),
           "head 3 has nothing planted: every weight exactly 1/8")


def mha_heads_drawn(num, facts):
    """the drawn heads are flat, and the deviations printed are the data's"""
    devs = []
    for h in range(4):
        ws = [num[f"drawn.h{h}.w{i}{j}"] for i in range(8) for j in range(8)]
        dev = max(abs(v - 0.125) for v in ws)
        devs.append(dev)
        yield (f"drawn.h{h}.max_dev_from_uniform",
               abs(num[f"drawn.h{h}.max_dev_from_uniform"] - dev) < 1e-9
               and num[f"drawn.h{h}.min_w"] == min(ws) and num[f"drawn.h{h}.max_w"] == max(ws),
               "the per-head facts must be those of the weights printed")
    yield ("drawn.max_dev_from_uniform", num["drawn.max_dev_from_uniform"] == max(
           num[f"drawn.h{h}.max_dev_from_uniform"] for h in range(4)),
           "the overall deviation is the largest of the heads'")
    yield ("drawn.max_dev_from_uniform", 0 < num["drawn.max_dev_from_uniform"] < 0.01,
           "at the initial weights every head should be within 0.01 of 1/8, and not "
           "exactly 1/8 (the weights are drawn, not zero)")
    yield ("drawn.max_rowsum_err", num["drawn.max_rowsum_err"] < 1e-12,
           "every row of weights sums to 1")
    yield ("color_min", (num["color_min"], num["color_max"]) == (0, 1),
           "the drawn heads use the planted heads' colour scale 0..1")


def mha_split(num, facts):
    """the split takes column blocks; the reshape takes runs of memory"""
    T, D, H, DK = 3, 4, 2, 2
    yield ("T", (num["T"], num["d_model"], num["n_heads"], num["d_k"],
                 num["head_numbers"]) == (T, D, H, DK, T * DK),
           "the figure draws chapter 03's worked example: T = 3, d_model = 4, 2 heads")
    flat = [v for row in MHA_Q for v in row]
    yield ("q00", all(num[f"q{t}{c}"] == MHA_Q[t][c] for t in range(T) for c in range(D)),
           "Q must be X of tangled/examples/ch03-worked.h")
    for h in range(H):
        for t in range(T):
            for c in range(DK):
                yield (f"split.h{h}.{t}{c}", num[f"split.h{h}.{t}{c}"] == MHA_Q[t][h * DK + c],
                       "mha_split_heads must give heads[h][t][c] = Q[t][h d_k + c]")
                yield (f"reshape.h{h}.{t}{c}",
                       num[f"reshape.h{h}.{t}{c}"] == flat[(h * T + t) * DK + c],
                       "the reshape is Q's memory read as (n_heads, T, d_k)")
        yield (f"split.h{h}.tokens", facts[f"split.h{h}.tokens"] == "0 1 2",
               "the rows of a head of the split are the tokens in order")
    yield ("reshape.h0.00", [[num[f"reshape.h0.{t}{c}"] for c in range(DK)] for t in range(T)]
           == MHA_RESHAPE_H0, "the chapter states the buggy head 0 as (1, 0), (1, 0), (0, 1)")
    yield ("reshape.h0.tokens", (facts["reshape.h0.tokens"], facts["reshape.h1.tokens"])
           == ("0 0 1", "1 2 2"), "the buggy heads' rows come from tokens 0 0 1 and 1 2 2")


MHA_CHECKS = {"mha-heads-planted": mha_heads_planted, "mha-heads-drawn": mha_heads_drawn,
              "mha-split": mha_split}


def rounds_to(value, literal):
    """value, rounded to the decimals of literal, is literal (as the book states it)"""
    places = len(literal.partition(".")[2])
    return f"{value:.{places}f}" == f"{float(literal):.{places}f}"


def mask_heads(num, facts):
    """the causal mask hides j > i; the planted heads see only their past"""
    T = 8
    w = lambda h, i, j: num[f"causal.h{h}.w{i}{j}"]
    yield ("T", (num["T"], num["d_model"], num["n_heads"], num["d_k"], num["seed"])
           == (T, 64, 4, 16, 1),
           "the caption states MultiHeadAttention(64, 4, 1) on 8 tokens")
    yield ("tokens", facts["tokens"].split() == MHA_TOKENS,
           f"the tick labels of figures/mask-heads.gp are {MHA_TOKENS}")
    yield ("mask.b01", all(num[f"mask.b{i}{j}"] == (0.0 if j <= i else -math.inf)
                           for i in range(T) for j in range(T)),
           "mask_causal must write 0 where j <= i and -inf above the diagonal; look at "
           "mask_causal in tangled/minimodel/attention/mask.c")
    yield ("mask.hidden_cells", (num["mask.hidden_cells"], num["mask.visible_cells"])
           == (T * (T - 1) / 2, T * (T + 1) / 2), "28 cells hidden and 36 visible")
    above = [w(h, i, j) for h in range(4) for i in range(T) for j in range(i + 1, T)]
    below = [w(h, i, j) for h in range(4) for i in range(T) for j in range(i + 1)]
    yield ("causal.max_above_diag", num["causal.max_above_diag"] == 0 and max(above) == 0
           and num["causal.zero_hidden_cells"] == len(above),
           "every weight above the diagonal must be exactly 0 (the figure greys the "
           "cells whose weight prints as 0); is mha_forward_causal passing the mask?")
    yield ("causal.zero_visible_cells", num["causal.zero_visible_cells"] == 0
           and min(below) > 0 and num["causal.min_visible"] == min(below),
           "no visible cell may have weight 0: the figure would grey it as hidden")
    for h in range(4):
        for i in range(T):
            row = [w(h, i, j) for j in range(T)]
            yield (f"causal.h{h}.rowsum{i}", abs(num[f"causal.h{h}.rowsum{i}"] - 1) < 1e-12
                   and abs(num[f"causal.h{h}.rowsum{i}"] - sum(row)) < 1e-12,
                   "every row of weights sums to 1, and the sum printed is the row's")
            yield (f"causal.h{h}.max{i}", num[f"causal.h{h}.max{i}"] == max(row)
                   and row[int(num[f"causal.h{h}.argmax{i}"])] == max(row),
                   "max and argmax must be those of the row printed")
        yield (f"causal.h{h}.w00", w(h, 0, 0) == 1,
               "row 0 sees only itself: its weight on itself is exactly 1")
    yield ("causal.max_rowsum_err", num["causal.max_rowsum_err"] < 1e-12,
           "every row of weights sums to 1")
    yield ("causal.h0.argmax1", all(num[f"causal.h0.argmax{i}"] == i - 1 for i in range(1, T)),
           "head 0 still attends to the previous token from every row after the first")
    for key, want in MASK_CLOSED.items():
        yield (f"causal.{key}", abs(num[f"causal.{key}"] - want) < 1e-9
               and (key == "h1.w44" or abs(num[f"closed.{key}"] - want) < 1e-9),
               f"the closed form over the visible keys is {want:.10f}; look at the mask "
               f"of mha_forward_causal, then at planted_layer")
    for t in range(T):
        yield (f"causal.h3.w{t}0", abs(num[f"closed.h3.w{t}0"] - 1 / (t + 1)) < 1e-15
               and all(abs(w(3, t, j) - 1 / (t + 1)) < 1e-15 for j in range(t + 1)),
               f"head 3 is the average of the past: row {t} puts 1/{t + 1} on each key")
    unmasked = E10 / (E10 + 4 * E5 + 3)
    yield ("unmasked.h2.w43", abs(num["unmasked.h2.w43"] - unmasked) < 1e-9
           and num["unmasked.h2.w43"] < w(2, 4, 3),
           f"without the mask head 2 gives {unmasked:.4f}, less than with it")
    for key, literal in MASK_STATED.items():
        yield (key, rounds_to(num[key], literal), f"chapter 04 states {literal}")


def mask_after(num, facts):
    """masked before the softmax the row sums to 1 and ignores the future;
    masked after, it does neither"""
    r2 = 1 / math.sqrt(2)
    yield ("f1.s0", [num[f"f1.s{j}"] for j in range(3)] == [0, r2, r2]
           and [num[f"f3.s{j}"] for j in range(3)] == [0, r2, 3 * r2]
           and num["scale"] == r2 and num["hidden_key"] == 2 and num["query"] == 1,
           "the scores are (0, 1, 1)/sqrt 2 and (0, 1, 3)/sqrt 2, key 2 hidden")
    for key, want in AFTER_CLOSED.items():
        yield (key, abs(num[key] - want) < 1e-12,
               f"the closed form is {want:.10f}: look at softmax_row, then at "
               f"figures/mask-after.c")
        if f"closed.{key}" in num:
            yield (f"closed.{key}", abs(num[f"closed.{key}"] - want) < 1e-12,
                   f"the program's closed form differs from {want:.10f}")
    yield ("before.w2", num["before.w2"] == 0 and num["after.f1.w2"] == 0
           and num["after.f3.w2"] == 0, "the hidden key's weight is exactly 0 in every group")
    yield ("before.sum", abs(num["before.sum"] - 1) < 1e-15
           and abs(num["before.sum"] - num["before.w0"] - num["before.w1"]) < 1e-15,
           "masked before the softmax, the visible weights sum to 1")
    yield ("before.f3_same", num["before.f3_same"] == 1,
           "masked before the softmax, the future score cannot change the row")
    for f in (1, 3):
        yield (f"after.f{f}.sum", abs(num[f"after.f{f}.sum"] - num[f"after.f{f}.w0"]
                                      - num[f"after.f{f}.w1"]) < 1e-15
               and abs(num[f"after.f{f}.sum"] + num[f"after.f{f}.cut2"] - 1) < 1e-15,
               "the sum printed is the row's, and with the weight cut it is 1")
    yield ("after.f3.sum", num["after.f3.sum"] < num["after.f1.sum"] < 1,
           "masked after the softmax the row falls short of 1, more with a larger "
           "future score: the leak the figure shows")
    for key, literal in AFTER_STATED.items():
        yield (key, rounds_to(num[key], literal), f"chapter 04 states {literal}")


MASK_CHECKS = {"mask-heads": mask_heads, "mask-after": mask_after}


def mask_after_labels(facts):
    """every number written on mask-after, as its .gp prints it"""
    labels = [f"{float(facts[k]):.4f}" for k in
              ("before.w0", "before.w1", "after.f1.w0", "after.f1.w1", "after.f1.cut2",
               "after.f3.w0", "after.f3.w1", "after.f3.cut2")]
    sums = [f"{float(facts[k]):.4f}" for k in ("before.sum", "after.f1.sum", "after.f3.sum")]
    return labels, sums


def mha_drawn_labels(facts):
    """the deviation written in each drawn map, as mha-heads-drawn.gp prints it"""
    return [f"= {float(facts[f'drawn.h{h}.max_dev_from_uniform']):.2g}" for h in range(4)]


def fast_tiles(num, facts):
    """the tiles of the causal mask: counted from mask_causal, in closed form
    and as the caption states them; and the tiled head agrees with sdpa"""
    T, B = 8, 2
    n = T // B
    yield ("T", (num["T"], num["block_q"], num["block_k"], num["blocks"]) == (T, B, B, n),
           "the caption states T = 8 and B_q = B_k = 2")
    closed = {"tiles.all": n * n, "tiles.computed": n * (n + 1) // 2,
              "tiles.skipped": n * (n - 1) // 2, "tiles.diagonal": n,
              "tiles.below": n * (n - 1) // 2, "scores.all": T * T,
              "scores.computed": n * (n + 1) // 2 * B * B, "scores.used": T * (T + 1) // 2,
              "scores.masked_after": n * B * (B - 1) // 2,
              "scores.skipped": n * (n - 1) // 2 * B * B}
    for key, want in closed.items():
        yield (key, num[key] == want,
               f"the closed form (n = T/B = {n} blocks) is {want}: look at mask_causal, then "
               f"at classify in figures/fast-tiles.c")
    for key, want in FAST_TILES_STATED.items():
        yield (key, num[key] == want, f"chapter 05's caption and text state {want}")
    yield ("tiled.within_16u", num["tiled.within_16u"] == 1 and num["tiled.max_diff_in_u"] <= 16,
           "sdpa_causal_tiled with blocks of 2 must agree with sdpa and mask_causal within "
           "16 u of the largest output; look at the diagonal tiles' mask in "
           "sdpa_causal_tiled (tangled/minimodel/attention/fast.c)")


def check_fast_tiles_data(out):
    """index 0 of the fast-tiles data, as the figure draws it: each cell of a
    tile above the diagonal kind 0, a hidden cell of a diagonal tile 1, a
    visible one 2, a cell below the diagonal 3"""
    T, B = 8, 2
    path = f"{out}/data/fast-tiles.dat"
    want = {(i, j): 0 if j // B > i // B else (1 if j > i else 2) if j // B == i // B else 3
            for i in range(T) for j in range(T)}
    drawn = {}
    try:
        with open(path, encoding="utf-8") as f:
            block = f.read().split("\n\n\n")[0]
    except OSError:
        return fail(f"{path}: missing; run make figures")
    for line in block.splitlines():
        if line.strip() and not line.startswith("#"):
            i, j, kind = map(int, line.split())
            drawn[(i, j)] = kind
    wrong = sorted(c for c in want if drawn.get(c) != want[c])
    if wrong:
        i, j = wrong[0]
        fail(f"{path}: {len(wrong)} cells of the wrong kind, the first ({i}, {j}) of kind "
             f"{drawn.get((i, j))}, not {want[(i, j)]} (0 never computed, 1 masked after the "
             f"product, 2 used, 3 fully visible): look at cell_kind in figures/fast-tiles.c")


def fast_cache(num, facts):
    """the cache's MiB: the library's buffers, the formula, the caption"""
    yield ("d_model", (num["d_model"], num["n_heads"], num["d_k"], num["bytes_per_number"])
           == (768, 12, 64, 8), "the caption states GPT-2 small's width: 768, 12 heads, doubles")
    yield ("kv_heads", facts["kv_heads"].split() == ["12", "4", "1"],
           "the three lines are 12 (full), 4 (GQA) and 1 (MQA) key/value heads")
    yield ("T_first", (num["T_first"], num["T_last"], num["points"]) == (16, 4096, 9),
           "the axis runs from T = 16 to 4096, a point at each power of 2")
    for t in FAST_CACHE_TS:
        full = 2 * t * 768 * 8 / 2 ** 20
        yield (f"cache.T{t}.doubles", num[f"cache.T{t}.doubles"] == 2 * t * 768,
               "mha_cache_new's keys and values are 2 T_max d_model doubles")
        yield (f"cache.T{t}.fits", num[f"cache.T{t}.fits"] == 1,
               "the allocator must hold the cache's keys and values, k and v apart, with "
               "less than a page to spare: look at mha_cache_new in "
               "tangled/minimodel/attention/fast.c")
        yield (f"mib.full.T{t}", num[f"mib.full.T{t}"] == full
               and num[f"mib.gqa4.T{t}"] == full / 3 and num[f"mib.mqa.T{t}"] == full / 12,
               f"2 T d_model doubles is {full:g} MiB; 4 key/value heads keep a third, one "
               f"a twelfth")
    yield ("cache.all_fit", num["cache.all_fit"] == 1, "every cache must fit")
    for key, want in FAST_CACHE_STATED.items():
        yield (key, num[key] == want, f"chapter 05 states {want} MiB")


def fast_curve(num, facts):
    """the bench's curve: Mini-GPT's width, T doubling, ratios over NumPy's"""
    yield ("d_model", (num["d_model"], num["n_heads"]) == (64, 4),
           "the caption states Mini-GPT's width: d_model 64, 4 heads")
    yield ("series", facts["series"].split() == FAST_CURVE_SERIES,
           f"the six series are {FAST_CURVE_SERIES}, in the order fast-curve.gp draws them")
    ts = [int(num["T_first"]) * 2 ** p for p in range(int(num["points"]))]
    yield ("T_last", ts[-1] == num["T_last"] and ts[0] == 16,
           "the axis runs from T = 16, doubling, as bench.py's curve does")
    for t in ts:
        for k in FAST_CURVE_SERIES:
            ms, rel = num.get(f"ms.{k}.T{t}"), num.get(f"rel.{k}.T{t}")
            yield (f"ms.{k}.T{t}", ms is not None and ms > 0 and rel is not None
                   and abs(rel - ms / num[f"ms.numpy.T{t}"]) <= 1e-12 * rel,
                   f"a positive time at T = {t}, and its ratio over NumPy's")
    last = ts[-1]
    best = min(num[f"ms.numpy.T{last}"], num[f"ms.pytorch.T{last}"])
    yield ("last.ob_tiled_vs_best_peer",
           abs(num["last.ob_tiled_vs_best_peer"] - best / num[f"ms.ob_tiled.T{last}"]) <= 1e-12,
           "the faster peer's time over C+OpenBLAS tiled's at the largest T")


FAST_CHECKS = {"fast-tiles": fast_tiles, "fast-cache": fast_cache, "fast-curve": fast_curve}


def fast_cache_labels(facts):
    """the MiB written at T = 1024 on fast-cache, as its .gp prints them"""
    return [f"{float(facts[f'mib.{k}.T1024']):g} MiB" for k in ("full", "gqa4", "mqa")]


tr_sum = {"en": "sum", "es": "suma"}     # mask-after's "sum = 0.5989"


def fact_labels(name, facts, ed):
    """the labels of a figure that are numbers of its facts, or None"""
    if name == "mha-heads-drawn":
        return mha_drawn_labels(facts)
    if name == "mask-after":
        values, sums = mask_after_labels(facts)
        return values + [f"{tr_sum[ed]} = {v}" for v in sums]
    if name == "fast-cache":
        return fast_cache_labels(facts)
    return None


def check_fact_labels(out, name, facts):
    """labels that are numbers of the figure's facts, in both editions"""
    if facts is None or fact_labels(name, facts, "en") is None:
        return
    for ed in ("en", "es"):
        labels = fact_labels(name, facts, ed)
        path = f"{out}/{ed}/{name}.svg"
        try:
            texts = svg_texts(path)
        except (OSError, ET.ParseError):
            continue                # check_svg reports it
        for label in labels:
            if not any(label in t for t in texts):
                fail(f"{path}: no text contains {label!r}, a number its facts print; "
                     f"does figures/{name}.gp read the same data?")
        pdf = subprocess.run(["pdftotext", "-enc", "UTF-8", f"{out}/{ed}/{name}.pdf", "-"],
                             capture_output=True, text=True).stdout.replace(" ", "")
        for label in labels:
            if label.replace(" ", "") not in pdf:
                fail(f"{out}/{ed}/{name}.pdf: text lacks {label!r}, a number its facts print")


def printed_widths(book, textwidth_cm):
    """{(edition, NAME): (width in pt, where)} from \includegraphics in the chapters"""
    textwidth = textwidth_cm / 2.54 * 72
    units = {"cm": 72 / 2.54, "mm": 72 / 25.4, "in": 72.0, "pt": 72 / 72.27}
    widths = {}
    for path in sorted(glob.glob(os.path.join(book, "*", "*.nw"))):
        ed = os.path.basename(os.path.dirname(path))
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for opt, name in re.findall(r"\\includegraphics(?:\[([^]]*)\])?\{([^}]*)\}", line):
                    m = re.search(r"width\s*=\s*([\d.]*)\s*(\\textwidth|\\linewidth|cm|mm|in|pt)", opt)
                    where = f"{path}:{n}"
                    if not m:
                        fail(f"{where}: \\includegraphics{{{name}}} has no width=...\\textwidth: "
                             f"its printed size, and so its text size, cannot be told")
                        continue
                    factor = float(m.group(1) or 1)
                    width = factor * (textwidth if m.group(2).startswith("\\") else units[m.group(2)])
                    widths[(ed, name)] = (width, where, line.strip())
    return widths


def calibration():
    """pdftotext's word height per point of font size, for DejaVu Sans as
    pdfcairo embeds it: a label drawn here, its true size read from the text
    matrix of the PDF (cairo writes "S 0 0 -S x y Tm /font F Tf": S * F points)"""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = os.path.join(tmp, "ref.pdf")
        subprocess.run(["gnuplot", "-e", f"set terminal pdfcairo font 'DejaVu Sans,10'; "
                        f"set output '{pdf}'; unset border; unset tics; "
                        f"set label 'Hxg' at 0,0; plot [0:1][0:1] NaN notitle"], check=True)
        words = pdf_words(pdf)[1]
        with open(pdf, "rb") as f:
            data = f.read()
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            text = zlib.decompress(stream)
        except zlib.error:
            continue
        m = re.search(rb"([\d.]+) 0 0 -?[\d.]+ [-\d.]+ [-\d.]+ Tm\s*/\S+ ([\d.]+) Tf", text)
        if m:
            return words[0]["thick"] / (float(m.group(1)) * float(m.group(2)))
    sys.exit("check-figures: cannot read the font size of gnuplot's reference PDF; "
             "has pdfcairo's output changed?")


def pdf_words(path):
    """(page width, [words]) of page 1 by pdftotext -bbox-layout; a word has its
    text, its size across the line (thick: font size times a constant) and its
    extent along the line (a0, a1); a line of two or more words stacked upwards
    is a rotated label, measured across x instead of y (a rotated label of
    one word is taken as upright: measured along its length, it can only pass)"""
    run = subprocess.run(["pdftotext", "-bbox-layout", path, "-"], capture_output=True, text=True)
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", run.stdout)
    root = ET.fromstring(re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "\ufffd", xml))
    ns = "{http://www.w3.org/1999/xhtml}"
    page = next(root.iter(ns + "page"))
    words = []
    for line in page.iter(ns + "line"):
        boxes = [(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")),
                  float(w.get("yMax")), w.text or "") for w in line.iter(ns + "word")]
        upright = len(boxes) >= 2 and all(b[3] <= a[1] + 0.5 for a, b in zip(boxes, boxes[1:]))
        group = []
        for x0, y0, x1, y1, text in boxes:
            group.append(dict(text=text, thick=x1 - x0, a0=-y1, a1=-y0) if upright else
                         dict(text=text, thick=y1 - y0, a0=x0, a1=x1))
        for w in group:
            w["line"] = group
        words += group
    return float(page.get("width")), words


def is_script(word):
    """a sub- or superscript: thinner than the word it follows without a gap"""
    return any(abs(word["a0"] - o["a1"]) < 0.5 and word["thick"] < 0.9 * o["thick"]
               for o in word["line"] if o is not word)


def check_pdf_size(path, width, where, per_pt):
    page_width, words = pdf_words(path)
    scale = width / page_width
    small = []
    for w in words:
        size = w["thick"] / per_pt * scale
        need = MIN_PT * (SCRIPT if is_script(w) else 1)
        if size < need - 0.05:
            small.append(f"{w['text']!r} {size:.1f} pt")
    if small:
        fail(f"{path}: text printed below {MIN_PT:g} pt (scripts {SCRIPT * MIN_PT:.1f} pt): "
             f"drawn {page_width * 2.54 / 72:.1f} cm wide, printed {width * 2.54 / 72:.1f} cm "
             f"wide by {where}: {', '.join(small[:6])}"
             f"{' ...' if len(small) > 6 else ''}; draw it at its printed width "
             f"(eval figure(...) in the figure's .gp) with style.gp's fontpt, or print it wider")
    return min((w["thick"] / per_pt * scale for w in words if not is_script(w)), default=0)


def svg_sizes(path):
    """(svg width, [(text, font size, is a script)]) with font sizes inherited"""
    root = ET.parse(path).getroot()
    svg_width = float(re.match(r"[\d.]+", root.get("width")).group(0))
    out = []

    def walk(el, size):
        size = float(el.get("font-size", size or 0)) or size
        if el.tag.endswith("tspan") and (el.text or "").strip():
            out.append((el.text.strip(), size, el.get("dy") is not None and size < base[0]))
        for child in el:
            walk(child, size)

    base = [0]
    for el in root.iter():
        if el.tag.endswith("}g") and el.get("font-size") and any(c.tag.endswith("text") for c in el):
            base[0] = float(el.get("font-size"))
            walk(el, base[0])
    return svg_width, out


def check_svg_size(path, width, where):
    """the SVG's text, shown at the printed width, is as large as the PDF's must be"""
    try:
        svg_width, texts = svg_sizes(path)
    except (OSError, ET.ParseError):
        return     # check_svg reports it
    scale = width / svg_width
    small = [f"{t!r} {size * scale:.1f} pt" for t, size, script in texts
             if size * scale < MIN_PT * (SCRIPT if script else 1) - 0.05]
    if small:
        fail(f"{path}: font size against figure width is below the PDF's target: at the "
             f"width of {where} its text would be {', '.join(small[:6])}; style.gp's "
             f"fig_svg must scale the font with the figure, as for the PDF")


def check_sizes(out, names, per_pt):
    widths = printed_widths(opts["book"], opts["textwidth_cm"])
    report = []
    for name in names:
        for ed in ("en", "es"):
            if (ed, name) not in widths:
                fail(f"figure {name} is not included by any chapter of book/{ed}: "
                     f"its printed size is unknown (or drop it from FIG_NAMES)")
                continue
            width, where, _ = widths[(ed, name)]
            if os.path.exists(f"{out}/{ed}/{name}.pdf"):
                smallest = check_pdf_size(f"{out}/{ed}/{name}.pdf", width, where, per_pt)
                report.append(f"{ed}/{name} {smallest:.1f}")
            check_svg_size(f"{out}/{ed}/{name}.svg", width, where)
    return report

# ---- greyscale: the series of a figure stay apart in print ------------------
# A figure printed in black and white keeps only each colour's luminance. Two
# series that encode different things must differ by a luminance contrast of
# at least GREY_MIN (WCAG's (L1 + 0.05) / (L2 + 0.05)), or by their form:
# another dash pattern or point marker, or hatching. What is a series is read
# from the rendered SVG (one edition: both are drawn by the same scripts):
#   * each plot of a gnuplot plot command (<g id="gnuplot_plot_N">) gives one
#     series per colour it draws with (several for "rgb variable"), of one of
#     three kinds: area (fills, blended onto white by their opacity), line
#     (strokes and point markers) and text (labels); marks of different kinds
#     are told apart by their form, so only the same kind is compared;
#   * coloured text outside the plots ("set label ... textcolor") is compared
#     with the other coloured text; black text is the default and encodes
#     nothing, so it is left out;
#   * a plot drawn with a palette (more than GREY_PALETTE_PLOT colours) is a
#     heatmap: its palette ("set palette defined" in NAME.gp or a file it
#     loads) must be monotonic in luminance, so that the order of the values
#     survives, and its two ends at least GREY_MIN apart.
# An area filled with one of gnuplot's patterns ("fillstyle pattern N", an
# SVG <pattern> of hatch lines) has the hatch lines' colour, and its hatch
# as its form: two areas hatched alike are compared, hatched otherwise not.
# Hatching drawn by a plot of its own (lines over an area) is declared in
# GREY_HATCHED, and the check verifies that lines of the hatch's colour exist.
GREY_MIN = 3.0
# Figures of chapters still being reshaped, whose own colours (in NAME.gp,
# not style.gp's) fail: listed as "pending", not failed. Remove a name once
# its figure passes (the check says so).
GREY_PENDING = set()
GREY_PALETTE_PLOT = 8
GREY_HATCHED = {   # figure: {area colour: hatch line colour}
    "mask-heads": {"#d4d4d4": "#737373"},
}
SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


def parse_colour(text):
    """'#rrggbb', 'rgb(r, g, b)' or a few names -> (r, g, b) in 0..255, or None"""
    text = (text or "").strip().lower()
    names = {"black": (0, 0, 0), "white": (255, 255, 255), "grey": (190, 190, 190),
             "gray": (190, 190, 190), "lightgrey": (211, 211, 211), "red": (255, 0, 0)}
    if text in names:
        return names[text]
    m = re.fullmatch(r"#([0-9a-f]{6})", text)
    if m:
        return tuple(int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4))
    m = re.fullmatch(r"rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", text)
    return tuple(int(v) for v in m.groups()) if m else None


def luminance(rgb):
    """relative luminance (sRGB, WCAG 2): 0 for black, 1 for white"""
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def hexc(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def svg_series(path):
    """{(plot, kind, colour, dash, marker): name} of the SVG's marks; plot is
    None for text outside the plots"""
    root = ET.parse(path).getroot()
    series = {}
    count = [0]

    def blend(rgb, alpha):
        return tuple(round(alpha * c + (1 - alpha) * 255) for c in rgb)

    # gnuplot's "fillstyle pattern N": <pattern id> holding one path of
    # hatch lines, style 'stroke:rgb(...)'; an area filled with url(#id) is
    # the hatch's colour, and its form is the hatch (its path)
    hatches = {}
    for pat in root.iter(SVG_NS + "pattern"):
        line = pat.find(SVG_NS + "path")
        style = dict((k.strip(), v) for k, v in
                     (kv.split(":", 1) for kv in (line.get("style") or "").split(";")
                      if ":" in kv)) if line is not None else {}
        rgb = parse_colour(style.get("stroke"))
        if rgb and pat.get("id"):
            hatches[pat.get("id")] = (rgb, "hatch " + " ".join(line.get("d").split()))

    def walk(el, ctx):
        ctx = dict(ctx)
        for key in ("fill", "stroke", "color", "stroke-dasharray", "fill-opacity"):
            if el.get(key) is not None:
                ctx[key] = el.get(key).strip()
        tag = el.tag.replace(SVG_NS, "")
        if tag == "g" and (el.get("id") or "").startswith("gnuplot_plot_"):
            count[0] += 1
            title = el.find(SVG_NS + "title")
            name = title.text if title is not None and title.text else ""
            # an untitled plot's <title> is its plot command (or its id)
            code = name.startswith("gnuplot_plot_") or re.search(r"\$|\busing\b", name)
            ctx["plot"] = (count[0], "plot %d (untitled)" % count[0] if code else name)
        resolve = lambda v: parse_colour(ctx.get("color") if v == "currentcolor" else v)
        plot = ctx.get("plot")
        if tag == "text":
            rgb = resolve((ctx.get("fill") or "black").lower())
            neutral = rgb and rgb[0] == rgb[1] == rgb[2] and not plot   # axes, notes
            if rgb and rgb != (0, 0, 0) and not neutral:
                key = (plot[0] if plot else None, "text", rgb, "", "")
                series.setdefault(key, ("text of " + plot[1]) if plot else "labels")
            return
        if plot and tag in ("path", "polygon", "rect", "polyline", "line", "circle"):
            fill = (ctx.get("fill") or "none").lower() if tag != "polyline" else "none"
            hatch = re.fullmatch(r"url\(#([^)]+)\)", (el.get("fill") or "").strip())
            if el.get("fill") is not None and hatch and hatch.group(1) in hatches:
                rgb, form = hatches[hatch.group(1)]
                series.setdefault((plot[0], "area", rgb, form, ""), plot[1])
            elif el.get("fill") is not None and fill not in ("none",):
                rgb = resolve(fill)
                if rgb:
                    rgb = blend(rgb, float(ctx.get("fill-opacity") or 1))
                    series.setdefault((plot[0], "area", rgb, "", ""), plot[1])
            stroke = (el.get("stroke") or "none").lower()
            if stroke not in ("none",):
                rgb = resolve(stroke)
                if rgb:
                    dash = el.get("stroke-dasharray") or ""
                    series.setdefault((plot[0], "line", rgb, dash, ""), plot[1])
        if plot and tag == "use":
            rgb = resolve((el.get("color") or ctx.get("color") or "black").lower())
            if rgb:
                series.setdefault((plot[0], "line", rgb, "", el.get(XLINK_HREF) or ""), plot[1])
        for child in el:
            walk(child, ctx)

    walk(root, {})
    # a line's form is its dash pattern and the markers its plot draws on it
    markers = {}
    for (plot, kind, rgb, dash, marker) in series:
        if marker:
            markers.setdefault((plot, rgb), set()).add(marker)
    merged = {}
    for (plot, kind, rgb, dash, marker), name in series.items():
        if kind == "line":
            marker = " ".join(sorted(markers.get((plot, rgb), ())))
        merged.setdefault((plot, kind, rgb, dash, marker), name)
    return merged


def palettes_of(gp_path):
    """every 'set palette defined (...)' of a .gp and the files it loads:
    [(where, [(value, rgb)])]"""
    out = []
    with open(gp_path, encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"set palette defined\s*\(([^)]*)\)", text):
        stops = [(float(v), parse_colour(c)) for v, c in
                 re.findall(r"(-?[\d.]+)\s*['\"]([^'\"]+)['\"]", m.group(1))]
        line = text.count("\n", 0, m.start()) + 1
        out.append((f"{gp_path}:{line}", stops))
    for m in re.finditer(r"^\s*eval\s+(palette_\w+)", text, re.M):     # style.gp's
        style = os.path.join(os.path.dirname(gp_path), "style.gp")
        with open(style, encoding="utf-8") as f:
            d = re.search(r"^%s\s*=\s*\"set palette defined\s*\(([^)]*)\)" % m.group(1),
                          f.read(), re.M)
        if not d:
            fail(f"{gp_path}: eval {m.group(1)}: no such palette in {style}")
            continue
        stops = [(float(v), parse_colour(c)) for v, c in
                 re.findall(r"(-?[\d.]+)\s*'([^']+)'", d.group(1))]
        line = text.count("\n", 0, m.start()) + 1
        out.append((f"{gp_path}:{line} ({m.group(1)} of style.gp)", stops))
    for loaded in re.findall(r"\"([\w-]+\.gp)\"", text):
        sub = os.path.join(os.path.dirname(gp_path), loaded)
        if os.path.exists(sub) and sub != gp_path:
            out += palettes_of(sub)
    return out


def palette_samples(stops):
    """the palette's colours as gnuplot interpolates them, linearly in RGB"""
    stops = sorted(stops)
    out = []
    for (v0, c0), (v1, c1) in zip(stops, stops[1:]):
        for k in range(64):
            out.append(tuple(a + k / 64 * (b - a) for a, b in zip(c0, c1)))
    return out + [stops[-1][1]]


def check_palette(name, where, stops):
    """luminance monotonic along the palette (sampled as gnuplot interpolates,
    linearly in RGB), the two ends GREY_MIN apart; returns the ends' contrast"""
    stops = sorted(stops)
    if len(stops) < 2 or any(c is None for _, c in stops):
        fail(f"{where}: palette of {name} not understood: {stops}")
        return 0
    samples = [luminance(c) for c in palette_samples(stops)]
    rising = all(b >= a - 1e-9 for a, b in zip(samples, samples[1:]))
    falling = all(b <= a + 1e-9 for a, b in zip(samples, samples[1:]))
    ends = contrast(stops[0][1], stops[-1][1])
    if not (rising or falling):
        turn = samples.index(max(samples)) if not rising else samples.index(min(samples))
        fail(f"figures/{name}.gp: its palette ({where}) is not monotonic in luminance: "
             f"in greyscale its lowest value {stops[0][0]:g} ({hexc(stops[0][1])}) and its "
             f"highest {stops[-1][0]:g} ({hexc(stops[-1][1])}) are {ends:.2f}:1 apart and both "
             f"darker than the middle, so the sign or order of the values is lost; use a "
             f"palette whose luminance rises from one end to the other (style.gp's "
             f"palette_signed or palette_weights)")
    elif ends < GREY_MIN:
        fail(f"figures/{name}.gp: its palette ({where}) has ends {hexc(stops[0][1])} and "
             f"{hexc(stops[-1][1])} only {ends:.2f}:1 apart in luminance (at least "
             f"{GREY_MIN:g}:1 needed)")
    return ends


def check_greyscale(out, name, src="figures"):
    """fail for each pair of a figure's series that greyscale merges; return
    the smallest contrast between series that must differ (or None)"""
    path = f"{out}/en/{name}.svg"
    try:
        series = svg_series(path)
    except (OSError, ET.ParseError):
        return None                              # check_svg reports it
    palettes = palettes_of(f"{src}/{name}.gp")
    shades = [sample for _, stops in palettes for sample in palette_samples(stops)]
    on_palette = lambda rgb: any(max(abs(a - b) for a, b in zip(rgb, s)) <= 4 for s in shades)
    per_plot = {}
    for (plot, kind, rgb, dash, marker) in series:
        if kind == "area":
            per_plot.setdefault(plot, set()).add(rgb)
    # a heatmap's cells: many colours, or several and all of the figure's palette
    palette_plots = {p for p, cs in per_plot.items() if p is not None and
                     (len(cs) > GREY_PALETTE_PLOT or
                      (shades and len(cs) > 1 and all(map(on_palette, cs))))}
    hatched = {}
    lines = {rgb for (p, kind, rgb, _, _) in series if kind == "line"}
    for area, hatch in GREY_HATCHED.get(name, {}).items():
        if parse_colour(hatch) not in lines:
            fail(f"{path}: GREY_HATCHED says its {area} areas are hatched with {hatch} "
                 f"lines, but no line of that colour is drawn")
        else:
            hatched[parse_colour(area)] = hatch
    keys = [k for k in series if k[0] not in palette_plots]
    smallest = None
    merged = set()
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a[1] != b[1] or a[2] == b[2]:
                continue                         # another kind, or the same colour
            if a[3] != b[3] or a[4] != b[4]:
                continue                         # another dash pattern, marker or hatch
            if a[1] == "area" and (a[2] in hatched) != (b[2] in hatched):
                continue                         # one of the two is hatched
            ratio = contrast(a[2], b[2])
            smallest = ratio if smallest is None else min(smallest, ratio)
            pair = tuple(sorted((hexc(a[2]), hexc(b[2]))))
            if ratio < GREY_MIN and pair not in merged:
                merged.add(pair)
                fail(f"{path}: in greyscale its {a[1]} series \"{series[a]}\" ({hexc(a[2])}) "
                     f"and \"{series[b]}\" ({hexc(b[2])}) are {ratio:.2f}:1 apart in "
                     f"luminance (at least {GREY_MIN:g}:1, or another dash pattern, "
                     f"marker or hatching, needed): give figures/{name}.gp colours of "
                     f"style.gp's greyscale-safe set (col_dark, col_mid, col_light)")
    for where, stops in palettes:
        ends = check_palette(name, where, stops)
        smallest = ends if smallest is None else min(smallest, ends)
    return smallest


def self_test(work, out, name):
    """a figure with 7 pt text, and the same figure printed at half width, fail"""
    opts["quiet"] = True
    os.makedirs(f"{work}/en", exist_ok=True)
    os.makedirs(f"{work}/es", exist_ok=True)
    per_pt = calibration()
    here = os.path.dirname(os.path.abspath(__file__))
    for ed in ("en", "es"):
        for term in ("pdf", "svg"):
            subprocess.run(["gnuplot", "-e", f"lang='{ed}'; term='{term}'; out='{work}/{ed}/{name}.{term}'; "
                            f"data='{out}/data/{name}.dat'; textwidth_cm={opts['textwidth_cm']}",
                            f"{here}/style.gp", "-e", "fontpt = 7; big = pt(8)",
                            f"{here}/{name}.gp"], check=True)
    check_sizes(work, [name], per_pt)
    small_font = [f for f in failures if "below" in f]
    failures.clear()
    book = os.path.join(work, "book")
    widths = printed_widths(opts["book"], opts["textwidth_cm"])
    for ed in ("en", "es"):                      # the real figure, printed at half its width
        os.makedirs(f"{book}/{ed}", exist_ok=True)
        w = widths[(ed, name)][0] / 2 / (opts["textwidth_cm"] / 2.54 * 72)
        with open(f"{book}/{ed}/ch.nw", "w", encoding="utf-8") as f:
            f.write(f"\\includegraphics[width={w:.3f}\\textwidth]{{{name}}}\n")
    opts["book"] = book
    check_sizes(out, [name], per_pt)
    narrow = [f for f in failures if ".pdf: text printed below" in f]
    failures.clear()
    if len([f for f in small_font if ".pdf:" in f]) != 2 or len([f for f in small_font if ".svg:" in f]) != 2 \
            or len(narrow) != 2:
        sys.exit(f"check-figures --self-test: expected 7 pt text to fail in both PDFs and both "
                 f"SVGs, and a half-width figure to fail in both PDFs; got {small_font + narrow}")
    # greyscale: the same figure with its two bar colours close in luminance,
    # and the diverging palette chapter 01 once had (dark at both ends)
    grey_work = f"{work}/grey"
    os.makedirs(f"{grey_work}/en", exist_ok=True)
    subprocess.run(["gnuplot", "-e", f"lang='en'; term='svg'; out='{grey_work}/en/{name}.svg'; "
                    f"data='{out}/data/{name}.dat'; textwidth_cm={opts['textwidth_cm']}",
                    f"{here}/style.gp", "-e", "col_dark = '#9ecae1'",
                    f"{here}/{name}.gp"], check=True)
    check_greyscale(grey_work, name, here)
    check_palette("selftest", "the old scores-tied palette",
                  [(-1, (0x21, 0x66, 0xac)), (0, (0xf7, 0xf7, 0xf7)), (1, (0xb2, 0x18, 0x2b))])
    grey = list(failures)
    failures.clear()
    if len([f for f in grey if "greyscale its area series" in f]) != 1 \
            or len([f for f in grey if "not monotonic in luminance" in f]) != 1:
        sys.exit(f"check-figures --self-test: expected bars 1.5:1 apart in luminance and a "
                 f"palette dark at both ends to fail the greyscale check; got {grey}")
    # two bands hatched alike in colours 1.3:1 apart fail; hatched the other
    # way (gnuplot's pattern 5 against 4) they are told apart by their form
    hatched = []
    for second in (4, 5):
        with open(f"{grey_work}/hatch.gp", "w", encoding="utf-8") as f:
            f.write(f"set terminal svg\nset output '{grey_work}/en/hatch.svg'\n"
                    f"plot '+' using 1:1:($1 + 1) with filledcurves fillstyle pattern 4 "
                    f"noborder linecolor rgb '#d6604d' title 'a', '+' using 1:($1 + 2):($1 + 3) "
                    f"with filledcurves fillstyle pattern {second} noborder "
                    f"linecolor rgb '#2171b5' title 'b'\n")
        subprocess.run(["gnuplot", f"{grey_work}/hatch.gp"], check=True)
        check_greyscale(grey_work, "hatch", grey_work)
        hatched.append(list(failures))
        failures.clear()
    if len([f for f in hatched[0] if "greyscale its area series" in f]) != 1 or hatched[1]:
        sys.exit(f"check-figures --self-test: expected two areas hatched alike, 1.3:1 apart, "
                 f"to fail the greyscale check and hatched in two directions to pass; got "
                 f"{hatched}")
    print(f"check-figures --self-test: 7 pt text and a half-width inclusion fail as they "
          f"should, e.g. {small_font[0][:120]}...")
    print(f"check-figures --self-test: greyscale: {grey[0][:150]}...")
    print(f"check-figures --self-test: greyscale, hatched alike: {hatched[0][0][:150]}...")


def main():
    args = sys.argv[1:]
    while args and args[0] in ("--book", "--textwidth-cm"):
        opts[args[0][2:].replace("-", "_")] = args[1] if args[0] == "--book" else float(args[1])
        args = args[2:]
    if args[:1] == ["--self-test"] and len(args) == 4:
        return self_test(*args[1:])
    if len(args) < 2:
        sys.exit("usage: check-figures.py [--book DIR] [--textwidth-cm W] OUT NAME...")
    out, names = args[0], args[1:]
    for name in names:
        if name not in LABELS or name not in FACT_KEYS:
            fail(f"figure {name!r} has no checks in figures/check-figures.py; add them")
            continue
        for ed in ("en", "es"):
            check_svg(f"{out}/{ed}/{name}.svg", name, ed)
            check_pdf(f"{out}/{ed}/{name}.pdf", name, ed)
        check_fact_labels(out, name, check_facts(out, name))
    sizes = check_sizes(out, names, calibration())
    greys = []
    for name in names:
        before = len(failures)
        opts["quiet"] = name in GREY_PENDING       # printed below, as pending
        ratio = check_greyscale(out, name)
        opts["quiet"] = False
        greys.append(f"{name} {ratio:.1f}:1" if ratio else f"{name} by form")
        if name in GREY_PENDING and len(failures) > before:
            for msg in failures[before:]:
                print("check-figures: pending (GREY_PENDING): " + msg)
            del failures[before:]
            greys[-1] += " (pending)"
        elif name in GREY_PENDING:
            print(f"check-figures: note: {name} now passes the greyscale check: "
                  f"remove it from GREY_PENDING in figures/check-figures.py")
    if failures:
        print(f"check-figures: {len(failures)} failure(s)")
        sys.exit(1)
    print(f"check-figures: {len(names)} figures x 2 editions x (svg, pdf), facts: ok; "
          f"smallest text as printed (pt): {', '.join(sizes)} (target {MIN_PT:g}, "
          f"scripts {SCRIPT * MIN_PT:.1f})")
    print(f"check-figures: smallest greyscale contrast between series that must differ "
          f"(target {GREY_MIN:g}:1; 'by form': told apart by dashes, markers or hatching): "
          f"{', '.join(greys)}")


main()
