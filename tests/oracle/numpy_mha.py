#!/usr/bin/python3
"""The independent oracle of the multi-head layer (tests/oracle/README.md).

Runs the library's mha_forward on many cases (through mha_dump, one run for
all of them), then recomputes every case twice: with mha_numpy below, written
from the math, and with PyTorch's nn.MultiheadAttention. Each output and each
head's weights must agree normwise:

    |got - exp| <= 1e-12 * max|exp|      (max over the compared array)

Usage: /usr/bin/python3 numpy_mha.py --dump build/oracle/mha_dump [--break WHAT]
--break applies one deliberate mistake to a reference, to see the failure.
"""
import argparse
import subprocess
import sys
import time

import numpy as np

TOL = 1e-12


# ---- the layer, from the math -----------------------------------------------
def softmax_rows(s):
    """softmax of each row; a row with no finite score (every key hidden) is
    all zeros, the library's convention, instead of 0/0."""
    m = s.max(axis=-1, keepdims=True)
    hidden = ~np.isfinite(m)
    e = np.exp(s - np.where(hidden, 0.0, m))
    z = e.sum(axis=-1, keepdims=True)
    return np.where(hidden, 0.0, e / np.where(hidden, 1.0, z))


def mha_numpy(x, w_q, w_k, w_v, w_o, n_heads, bias=None, scale=True):
    """out = concat_h softmax(Q_h K_h^T / sqrt(d_k) + bias) V_h . W_O,
    Q = X W_Q (row vectors), head h = columns h d_k .. (h+1) d_k - 1.
    Returns out (T, d_model) and the weights (n_heads, T, T)."""
    T, d_model = x.shape
    d_k = d_model // n_heads
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    # (T, d_model) -> (n_heads, T, d_k)
    qh, kh, vh = (m.reshape(T, n_heads, d_k).transpose(1, 0, 2) for m in (q, k, v))
    scores = qh @ kh.transpose(0, 2, 1)
    if scale:
        scores = scores / np.sqrt(d_k)
    if bias is not None:
        scores = scores + bias
    weights = softmax_rows(scores)
    heads = weights @ vh                                   # (n_heads, T, d_k)
    concat = heads.transpose(1, 0, 2).reshape(T, d_model)
    return concat @ w_o, weights


# ---- the same layer in PyTorch --------------------------------------------------
def mha_torch(torch, x, w_q, w_k, w_v, w_o, n_heads, attn_mask=None,
              transpose_wo=True):
    """nn.MultiheadAttention with the library's weights: PyTorch projects
    with x @ W^T (nn.Linear), so in_proj_weight = [W_Q^T; W_K^T; W_V^T]
    (stacked along dim 0) and out_proj.weight = W_O^T."""
    T, d_model = x.shape
    layer = torch.nn.MultiheadAttention(d_model, n_heads, bias=False,
                                        batch_first=True, dtype=torch.float64)
    layer.eval()
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.from_numpy(
            np.concatenate([w_q.T, w_k.T, w_v.T], axis=0)))
        layer.out_proj.weight.copy_(torch.from_numpy(w_o.T if transpose_wo else w_o))
    xt = torch.from_numpy(x).unsqueeze(0)                  # (1, T, d_model)
    m = None if attn_mask is None else torch.from_numpy(attn_mask)
    # Called with autograd on (the weights require grad): that keeps PyTorch
    # on its documented path, F.multi_head_attention_forward, in every
    # version. In eval mode under no_grad, PyTorch 1.13 takes its "fast
    # path", which fails with bias=False (TypeError: qkv_bias must be
    # Tensor, not NoneType; pytorch/pytorch#88669).
    out, weights = layer(xt, xt, xt, attn_mask=m, need_weights=True,
                         average_attn_weights=False)
    return out[0].detach().numpy(), weights[0].detach().numpy()


# ---- masks: a bias (T, T) for the library, the same for PyTorch ------------------
# Each mask maps (T, rng) to the library's bias: added to every head's scaled
# scores, -inf hides a key. PyTorch gets the same matrix as a float attn_mask
# (also added to the scaled scores); a 0/-inf bias is also given to PyTorch
# as a boolean attn_mask, where True means "may NOT attend" (the opposite of
# the library's "visible" reading; chapter 04 has the truth table).
# Chapter 04 adds its masks here.
def mask_causal(T, rng):
    return np.where(np.tril(np.ones((T, T), dtype=bool)), 0.0, -np.inf)


def mask_padding(T, rng):
    """the last third of the keys are padding, hidden from every query"""
    keep = T - T // 3
    b = np.zeros((T, T))
    b[:, keep:] = -np.inf
    return b


def mask_random_additive(T, rng):
    """a finite bias (as ALiBi or a relative-position bias would be)"""
    return rng.normal(0.0, 2.0, size=(T, T))


def mask_causal_one_row_hidden(T, rng):
    """causal, and query row T//2 sees no key at all"""
    b = mask_causal(T, rng)
    b[T // 2, :] = -np.inf
    return b


MASKS = {
    "causal": mask_causal,
    "padding": mask_padding,
    "additive": mask_random_additive,
    "causal-row-hidden": mask_causal_one_row_hidden,
}


# ---- the cases ---------------------------------------------------------------------
class Case:
    """one run of the layer: the case line for mha_dump and the numbers it
    is given (weights, X, bias), or None where the library makes them"""

    def __init__(self, name, d, h, t, layer_seed=1, x_seed=1, bias="none",
                 weights=None, x=None, bias_matrix=None):
        self.name, self.d, self.h, self.t = name, d, h, t
        self.layer_seed, self.x_seed = layer_seed, x_seed
        self.bias, self.weights, self.x, self.bias_matrix = bias, weights, x, bias_matrix

    def request(self):
        xspec = "given" if self.x is not None else f"seed:{self.x_seed}"
        wspec = "given" if self.weights is not None else "seeded"
        lines = [f"case {self.name} {self.d} {self.h} {self.t} {self.layer_seed} "
                 f"{xspec} {self.bias} {wspec}"]
        given = list(self.weights or []) + ([self.x] if self.x is not None else [])
        if self.bias == "given":
            given.append(self.bias_matrix)
        for a in given:
            lines.append(" ".join(repr(float(v)) for v in a.ravel()))
        return "\n".join(lines) + "\n"


def make_cases():
    rng = np.random.default_rng(20240603)
    cases = []
    # shapes: (d_model, n_heads) with Mini-GPT, one head, d_k = 1, odd d_k
    shapes = [(64, 4), (64, 1), (64, 64), (64, 16), (16, 4), (15, 5), (21, 3),
              (9, 9), (35, 7), (30, 2), (1, 1), (8, 2), (12, 4), (48, 16), (3, 1)]
    for d, h in shapes:
        for t in sorted({1, int(rng.integers(2, 9)), int(rng.integers(9, 41))}):
            ls, xs = (int(s) for s in rng.integers(0, 2**63, size=2))
            cases.append(Case(f"seeded-d{d}-h{h}-T{t}", d, h, t, ls, xs))
    cases.append(Case("mini-gpt-T40", 64, 4, 40, 42, 7))

    # hand-set weights: the seeded layer's weights are tiny (std 0.02), its
    # softmax nearly uniform; these make it sharp, large, tiny, or mixed
    def hand(name, d, h, t, scales, x_scale=1.0, tied=False):
        w = [rng.normal(0.0, s, size=(d, d)) for s in scales]
        if tied:
            w[1] = w[0].copy()
        x = rng.normal(0.0, x_scale, size=(t, d))
        cases.append(Case(name, d, h, t, weights=w, x=x))

    hand("sharp-d64-h4-T20", 64, 4, 20, [0.5, 0.5, 1.0, 1.0])
    hand("tied-wq-wk-d16-h2-T12", 16, 2, 12, [0.6, 0.6, 1.0, 1.0], tied=True)
    hand("large-wv-wo-d32-h4-T16", 32, 4, 16, [0.3, 0.3, 1e6, 1e5])
    hand("large-x-d12-h3-T10", 12, 3, 10, [0.1, 0.1, 1.0, 1.0], x_scale=1e4)
    hand("saturated-d24-h3-T15", 24, 3, 15, [3.0, 3.0, 1.0, 1.0])
    hand("tiny-all-d20-h4-T9", 20, 4, 9, [1e-8, 1e-8, 1e-8, 1e-8], x_scale=1e-8)
    hand("tiny-wv-d18-h6-T7", 18, 6, 7, [1.0, 1.0, 1e-150, 1e-3])
    hand("mixed-d40-h5-T30", 40, 5, 30, [1e-3, 1e3, 1e-4, 1e4])
    ident = [np.eye(10)] * 4
    cases.append(Case("identity-d10-h2-T6", 10, 2, 6, weights=[m.copy() for m in ident],
                      x=rng.normal(size=(6, 10))))

    # masks through the bias: the library's own causal bias, then Python's
    for d, h, t in [(64, 4, 12), (15, 5, 1), (8, 2, 40)]:
        cases.append(Case(f"causal-d{d}-h{h}-T{t}", d, h, t,
                          *(int(s) for s in rng.integers(0, 2**63, size=2)), bias="causal"))
    for name in MASKS:
        for d, h, t in [(64, 4, 16), (21, 3, 7)]:
            cases.append(Case(f"mask-{name}-d{d}-h{h}-T{t}", d, h, t,
                              *(int(s) for s in rng.integers(0, 2**63, size=2)),
                              bias="given", bias_matrix=MASKS[name](t, rng)))
    cases.append(Case("mask-causal-sharp-d16-h4-T24", 16, 4, 24, bias="given",
                      bias_matrix=mask_causal(24, rng),
                      weights=[rng.normal(0, s, size=(16, 16)) for s in (0.8, 0.8, 1, 1)],
                      x=rng.normal(size=(24, 16))))
    return cases


# ---- running mha_dump, reading its answers -------------------------------------
def run_library(dump, cases):
    text = "".join(c.request() for c in cases)
    p = subprocess.run([dump, "-"], input=text, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr:
        errors = [l for l in p.stdout.splitlines() if l.startswith("error")]
        sys.exit(f"oracle: {dump} failed (status {p.returncode}):\n"
                 + "\n".join(errors) + p.stderr)
    results, cur = {}, None
    for line in p.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "case":
            name, d, h, t = rest.split()
            cur = {"d": int(d), "h": int(h), "t": int(t)}
            results[name] = cur
        elif word == "end":
            cur = None
        elif rest == "none":
            cur[word] = None
        else:
            cur[word] = np.array([float(v) for v in rest.split()])
    for c in cases:
        r = results.get(c.name)
        if r is None:
            sys.exit(f"oracle: {dump} gave no answer for case {c.name}")
        d, h, t = c.d, c.h, c.t
        for k in ("W_Q", "W_K", "W_V", "W_O"):
            r[k] = r[k].reshape(d, d)
        r["X"] = r["X"].reshape(t, d)
        if r["bias"] is not None:
            r["bias"] = r["bias"].reshape(t, t)
        r["out"] = r["out"].reshape(t, d)
        r["weights"] = r["weights"].reshape(h, t, t)
    return results


# ---- comparing -----------------------------------------------------------------------
class Worst:
    """the largest differences seen against one reference"""

    def __init__(self, name):
        self.name, self.rel, self.abs, self.where, self.arrays = name, 0.0, 0.0, "", 0

    def note(self, rel, ab, where):
        self.arrays += 1
        if rel > self.rel:
            self.rel, self.where = rel, where
        self.abs = max(self.abs, ab)


class Mismatch(Exception):
    pass


def compare(worst, case, what, got, exp, rows=None):
    """got against exp, normwise: |got - exp| <= TOL * max|exp|; rows (a
    boolean mask over the query axis, the last-but-one) restricts the
    comparison to those rows"""
    if rows is not None:
        got, exp = got[..., rows, :], exp[..., rows, :]
    if got.shape != exp.shape:
        raise Mismatch(f"case {case}, {what}: shape {got.shape}, expected {exp.shape}")
    if not np.all(np.isfinite(got)) or not np.all(np.isfinite(exp)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(got) | ~np.isfinite(exp))[0])
        raise Mismatch(f"case {case}, {what}{list(bad)}: got {got[bad]!r}, "
                       f"expected {exp[bad]!r} (not finite)")
    scale = float(np.max(np.abs(exp))) if exp.size else 0.0
    diff = np.abs(got - exp)
    ab = float(diff.max()) if diff.size else 0.0
    rel = ab / scale if scale > 0 else (0.0 if ab == 0 else np.inf)
    worst.note(rel, ab, f"{case} {what}")
    if ab > TOL * scale:
        i = tuple(int(v) for v in np.unravel_index(np.argmax(diff), diff.shape))
        raise Mismatch(
            f"case {case}, {what}{list(i)}: library {got[i]!r}, {worst.name} {exp[i]!r}, "
            f"|difference| {diff[i]:.3g} > {TOL:g} * max|{what}| = {TOL * scale:.3g} "
            f"(normwise relative difference {rel:.3g})")


def check_case(torch, r, name, worst_np, worst_torch, breaks, notes):
    h = r["h"]
    w_q, w_k, w_v, w_o, x, bias = (r[k] for k in ("W_Q", "W_K", "W_V", "W_O", "X", "bias"))

    out_np, wts_np = mha_numpy(x, w_q, w_k, w_v, w_o, h, bias,
                               scale="numpy-no-scale" not in breaks)
    compare(worst_np, name, "out", r["out"], out_np)
    compare(worst_np, name, "weights", r["weights"], wts_np)

    tw = "torch-wo-not-transposed" not in breaks
    masks = [("", None)] if bias is None else [(" (float attn_mask)", bias)]
    if bias is not None and np.all((bias == 0) | (bias == -np.inf)):
        masks.append((" (bool attn_mask)", bias == -np.inf))
    for label, m in masks:
        out_t, wts_t = mha_torch(torch, x, w_q, w_k, w_v, w_o, h, m, transpose_wo=tw)
        rows = None
        if bias is not None:
            hidden = np.all(bias == -np.inf, axis=1)
            if hidden.any():
                # PyTorch has no answer for a query that sees no key
                rows = ~hidden
                notes.add(f"PyTorch {torch.__version__}{label}, a query with every key "
                          f"hidden: out {describe(out_t[hidden])}, weights "
                          f"{describe(wts_t[:, hidden])} (the library: zeros, checked "
                          f"against NumPy; PyTorch compared on the other rows)")
                if not np.all(r["out"][hidden] == 0) or not np.all(r["weights"][:, hidden] == 0):
                    raise Mismatch(f"case {name}: a fully hidden row is not all zeros")
        compare(worst_torch, name, "out" + label, r["out"], out_t, rows)
        compare(worst_torch, name, "weights" + label, r["weights"], wts_t, rows)


def describe(a):
    if np.all(np.isnan(a)):
        return "all NaN"
    if np.all(a == 0):
        return "all zero"
    return f"finite {np.isfinite(a).mean():.0%}, e.g. {a.ravel()[:3]}"


# ---- the self-test: the comparison can fail ---------------------------------------
# Each mistake, applied to one reference on one case, must be caught.
SELF_TEST = {
    "torch-wo-not-transposed": "PyTorch given out_proj.weight = W_O, not W_O^T",
    "numpy-no-scale": "NumPy without the 1/sqrt(d_k)",
}


def self_test(torch, results, case):
    for what, label in SELF_TEST.items():
        try:
            check_case(torch, results[case], case, Worst("NumPy"), Worst("PyTorch"),
                       {what}, set())
        except Mismatch as e:
            print(f"oracle self-test: {label}: caught ({str(e)[:70]}...)")
        else:
            sys.exit(f"oracle self-test: {label}: NOT caught on case {case}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dump", required=True, help="the mha_dump program")
    ap.add_argument("--break", dest="breaks", action="append", default=[],
                    choices=sorted(SELF_TEST), help="apply a deliberate mistake")
    args = ap.parse_args()
    start = time.monotonic()
    try:
        import torch
    except ImportError as e:
        sys.exit(f"oracle: PyTorch is not importable by {sys.executable} ({e}); "
                 "install python3-torch (make deps)")
    torch.set_num_threads(1)

    cases = make_cases()
    results = run_library(args.dump, cases)
    for c in cases:   # what the library was given is what it used
        r = results[c.name]
        given = list(zip(("W_Q", "W_K", "W_V", "W_O"), c.weights or []))
        given += [("X", c.x)] if c.x is not None else []
        given += [("bias", c.bias_matrix)] if c.bias == "given" else []
        for k, a in given:
            if not np.array_equal(r[k], a):
                sys.exit(f"oracle: case {c.name}: the dumped {k} is not the one given")
        if c.bias == "causal" and not np.array_equal(r["bias"], mask_causal(c.t, None)):
            sys.exit(f"oracle: case {c.name}: mha_dump's causal bias is not the causal mask")

    worst_np, worst_torch, notes = Worst("NumPy"), Worst("PyTorch"), set()
    try:
        for c in cases:
            check_case(torch, results[c.name], c.name, worst_np, worst_torch,
                       set(args.breaks), notes)
    except Mismatch as e:
        sys.exit(f"oracle: FAILED: {e}")
    if not args.breaks:
        self_test(torch, results, "sharp-d64-h4-T20")
    groups = {}
    for c in cases:
        g = c.name.split("-")[0]
        groups[g] = groups.get(g, 0) + 1
    print("oracle: cases: " + ", ".join(f"{n} {g}" for g, n in groups.items()))
    for n in sorted(notes):
        print(f"oracle: note: {n}")
    for w in (worst_np, worst_torch):
        print(f"oracle: library vs {w.name}: {len(cases)} cases, {w.arrays} arrays; "
              f"largest normwise relative difference {w.rel:.3g} ({w.where}), "
              f"largest absolute {w.abs:.3g}; tolerance {TOL:g} * max|expected|")
    print(f"oracle: passed ({len(cases)} cases, NumPy {np.__version__}, "
          f"PyTorch {torch.__version__}, {time.monotonic() - start:.1f} s)")


if __name__ == "__main__":
    main()
