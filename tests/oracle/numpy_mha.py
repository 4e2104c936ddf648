#!/usr/bin/python3
"""The independent oracle of the multi-head layer (tests/oracle/README.md).

Runs the library's mha_forward and mha_forward_causal on many cases (through
mha_dump, one run for all of them), with chapter 04's masks built by the
library's mask_causal, mask_padding, mask_combine and mask_from_bool. Each
mask must equal the one NumPy builds from the truth table, bit for bit. Then
every case is recomputed twice: with mha_numpy below, written from the math,
and with PyTorch's nn.MultiheadAttention, given the mask in each of PyTorch's
forms (float attn_mask, boolean attn_mask, key_padding_mask, both;
F.scaled_dot_product_attention where the PyTorch has it). Each output and
each head's weights must agree normwise:

    |got - exp| <= 1e-12 * max|exp|      (max over the compared array)

The causal cases also carry chapter 05's fast forms of the causal layer:
mha_forward_tiled with the default blocks and two odd ones, and T steps of
mha_decode_step. Each output is held to the same bound against NumPy's
causal layer and PyTorch's, given the causal mask.

Last, library against library, bit for bit: a padded sequence with its
padding masked gives the real tokens the outputs of the unpadded sequence,
and the causal layer's first P outputs are those of the first P tokens.

Usage: /usr/bin/python3 numpy_mha.py --dump build/oracle/mha_dump [--break WHAT]
--break applies one deliberate mistake to a reference (or to the library
against library check), to see the failure.
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
              key_padding_mask=None, transpose_wo=True):
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
    m = torch.from_numpy(attn_mask) if isinstance(attn_mask, np.ndarray) else attn_mask
    # Called with autograd on (the weights require grad): that keeps PyTorch
    # on its documented path, F.multi_head_attention_forward, in every
    # version. In eval mode under no_grad, PyTorch 1.13 takes its "fast
    # path", which fails with bias=False (TypeError: qkv_bias must be
    # Tensor, not NoneType; pytorch/pytorch#88669).
    out, weights = layer(xt, xt, xt, attn_mask=m, key_padding_mask=key_padding_mask,
                         need_weights=True, average_attn_weights=False)
    return out[0].detach().numpy(), weights[0].detach().numpy()


def has_sdpa(torch):
    """torch.nn.functional.scaled_dot_product_attention arrived in PyTorch 2.0"""
    return hasattr(torch.nn.functional, "scaled_dot_product_attention")


def sdpa_torch(torch, x, w_q, w_k, w_v, w_o, n_heads, attn_mask):
    """the layer around F.scaled_dot_product_attention, the heads split and
    merged by hand (x @ W here: these are plain matrix products, not
    nn.Linear). Its boolean attn_mask means True = may attend. It returns no
    weights: only the output is compared."""
    T, d_model = x.shape
    d_k = d_model // n_heads
    xt = torch.from_numpy(x)
    # (T, d_model) -> (1, n_heads, T, d_k): head h = columns h d_k .. (h+1) d_k - 1
    q, k, v = ((xt @ torch.from_numpy(w)).reshape(T, n_heads, d_k).transpose(0, 1)
               .unsqueeze(0) for w in (w_q, w_k, w_v))
    heads = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    concat = heads[0].transpose(0, 1).reshape(T, d_model)
    return (concat @ torch.from_numpy(w_o)).detach().numpy(), None


# ---- masks: a bias (T, T) for the library, the same for PyTorch ------------------
# Each mask maps (T, rng) to a bias given to the library: added to every
# head's scaled scores, -inf hides a key. PyTorch gets the same matrix as a
# float attn_mask (also added to the scaled scores); a 0/-inf bias is also
# given to PyTorch as a boolean attn_mask, where True means "may NOT attend"
# (the opposite of the library's "visible" reading; chapter 04 has the truth
# table). Chapter 04's own functions (mask.h) build the masks of the cases
# "causal", "padding:L", "causal+padding:L" and "bool"; numpy_mask below
# builds the same from the truth table, and torch_forms gives them to PyTorch.
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


def padding_bias(T, length):
    """keys j >= length hidden from every query (chapter 04's mask_padding)"""
    return np.where(np.arange(T)[None, :] < length, 0.0, -np.inf) * np.ones((T, 1))


def numpy_mask(case, breaks):
    """the bias NumPy reads in the case's mask, from the truth table:
    allowed -> 0, hidden -> -inf, two masks combined by adding"""
    spec, T = case.mask, case.t
    causal = mask_causal(T, None)
    if "numpy-causal-diagonal-hidden" in breaks:
        causal = np.where(np.tril(np.ones((T, T), dtype=bool), -1), 0.0, -np.inf)
    if spec == "none":
        return None
    if spec == "given":
        return case.bias_matrix
    if spec == "causal":
        return causal
    if spec == "bool":
        return np.where(case.allowed, 0.0, -np.inf)
    kind, _, length = spec.partition(":")
    if kind == "padding":
        return padding_bias(T, int(length))
    if kind == "causal+padding":
        if "numpy-combine-or" in breaks:   # visible where EITHER lets it through
            return np.maximum(causal, padding_bias(T, int(length)))
        return causal + padding_bias(T, int(length))
    raise ValueError(f"case {case.name}: unknown mask {spec}")


def torch_forms(torch, case, bias, breaks):
    """the case's mask in each of PyTorch's forms: (label, how, arguments),
    how = "mha" (nn.MultiheadAttention) or "sdpa" (F.scaled_dot_product_attention);
    the boolean and padding forms are built here with torch, from the spec,
    not from the library's bias"""
    spec, T = case.mask, case.t
    if spec == "none":
        return [("no mask", "mha", {})]
    if spec == "given":
        forms = [("float attn_mask", "mha", {"attn_mask": bias})]
        if np.all((bias == 0) | (bias == -np.inf)):
            forms.append(("bool attn_mask", "mha", {"attn_mask": bias == -np.inf}))
        return forms
    ones = torch.ones(T, T)
    hidden_future = torch.triu(ones, 1).bool()        # nn.MultiheadAttention: True = hidden
    visible_past = torch.tril(ones).bool()            # F.sdpa: True = visible
    float_causal = mask_causal(T, None)
    if spec == "causal":
        forms = [("float attn_mask", "mha", {"attn_mask": float_causal}),
                 ("bool attn_mask", "mha", {"attn_mask": visible_past
                  if "torch-causal-bool-not-negated" in breaks else hidden_future})]
        if has_sdpa(torch):
            forms.append(("F.sdpa bool attn_mask", "sdpa", {"attn_mask": hidden_future
                          if "torch-sdpa-bool-negated" in breaks else visible_past}))
        return forms
    if spec == "bool":
        allowed = torch.from_numpy(case.allowed)
        return [("bool attn_mask", "mha", {"attn_mask": allowed
                 if "torch-bool-not-negated" in breaks else ~allowed})]
    kind, _, length = spec.partition(":")
    padding = (torch.arange(T) >= int(length)).unsqueeze(0)   # (1, T): True = padding
    if "torch-kpm-not-negated" in breaks:
        padding = ~padding
    if kind == "padding":
        return [("key_padding_mask", "mha", {"key_padding_mask": padding})]
    if "torch-combined-no-kpm" in breaks:
        padding = None
    return [("bool attn_mask + key_padding_mask", "mha",
             {"attn_mask": hidden_future, "key_padding_mask": padding}),
            ("float attn_mask + key_padding_mask", "mha",
             {"attn_mask": float_causal, "key_padding_mask": padding})]


# ---- chapter 05: the fast forms of the causal layer --------------------------------
def fast_outputs(r):
    """the outputs of chapter 05's forms of the causal layer that mha_dump
    wrote for a case: out-tiled-QxK (mha_forward_tiled with blocks of Q
    queries by K keys) and out-decode (T steps of mha_decode_step)"""
    return {k: v for k, v in r.items() if k.startswith("out-tiled-") or k == "out-decode"}


def check_fast(r, name, ref, exp, worst, breaks):
    """each fast output of r against exp, the reference's causal output;
    worst maps "all" and each output's name to its Worst"""
    for fn, got in fast_outputs(r).items():
        if fn == "out-decode" and "decode-rows-shifted" in breaks:
            got = np.roll(got, 1, axis=0)          # row t from step t - 1
        compare([worst["all"], worst.setdefault(fn[4:], Worst(ref))], name,
                fn, got, exp)


# ---- the cases ---------------------------------------------------------------------
class Case:
    """one run of the layer: the case line for mha_dump and the numbers it
    is given (weights, X, bias or allowed table), or None where the library
    makes them; mask is mha_dump's MASK (none, causal, padding:L,
    causal+padding:L, bool, given)"""

    def __init__(self, name, d, h, t, layer_seed=1, x_seed=1, mask="none",
                 weights=None, x=None, bias_matrix=None, allowed=None):
        self.name, self.d, self.h, self.t = name, d, h, t
        self.layer_seed, self.x_seed = layer_seed, x_seed
        self.mask, self.weights, self.x, self.bias_matrix = mask, weights, x, bias_matrix
        self.allowed = allowed

    def request(self):
        xspec = "given" if self.x is not None else f"seed:{self.x_seed}"
        wspec = "given" if self.weights is not None else "seeded"
        lines = [f"case {self.name} {self.d} {self.h} {self.t} {self.layer_seed} "
                 f"{xspec} {self.mask} {wspec}"]
        given = list(self.weights or []) + ([self.x] if self.x is not None else [])
        if self.mask == "given":
            given.append(self.bias_matrix)
        if self.mask == "bool":
            given.append(self.allowed.astype(float))
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

    # masks through the bias: the library's causal layer, then Python's biases
    for d, h, t in [(64, 4, 12), (15, 5, 1), (8, 2, 40)]:
        cases.append(Case(f"causal-d{d}-h{h}-T{t}", d, h, t,
                          *(int(s) for s in rng.integers(0, 2**63, size=2)), mask="causal"))
    for name in MASKS:
        for d, h, t in [(64, 4, 16), (21, 3, 7)]:
            cases.append(Case(f"mask-{name}-d{d}-h{h}-T{t}", d, h, t,
                              *(int(s) for s in rng.integers(0, 2**63, size=2)),
                              mask="given", bias_matrix=MASKS[name](t, rng)))
    cases.append(Case("mask-causal-sharp-d16-h4-T24", 16, 4, 24, mask="given",
                      bias_matrix=mask_causal(24, rng),
                      weights=[rng.normal(0, s, size=(16, 16)) for s in (0.8, 0.8, 1, 1)],
                      x=rng.normal(size=(24, 16))))

    # chapter 04: the masks the library builds (mask.h), and its causal layer
    def seeds():
        return tuple(int(s) for s in rng.integers(0, 2**63, size=2))

    def sharp(d, t):
        return dict(weights=[rng.normal(0, s, size=(d, d)) for s in (0.8, 0.8, 1, 1)],
                    x=rng.normal(size=(t, d)))

    # mha_forward_causal, the finished layer (besides the three cases above)
    for d, h, t in [(64, 4, 40), (21, 3, 7)]:
        cases.append(Case(f"causal-d{d}-h{h}-T{t}", d, h, t, *seeds(), mask="causal"))
    cases.append(Case("causal-sharp-d16-h4-T24", 16, 4, 24, mask="causal", **sharp(16, 24)))
    # mixed scales: sharp, moving row maxima (the tiles' rescalings), T = 31;
    # a generator of its own, so that the cases after it keep their inputs
    own = np.random.default_rng(20261202)
    cases.append(Case("causal-mixed-d40-h5-T31", 40, 5, 31, mask="causal",
                      weights=[own.normal(0, s, size=(40, 40)) for s in (1e-3, 1e3, 1e-4, 1e4)],
                      x=own.normal(size=(31, 40))))
    # mask_padding, through mha_forward; length 0 hides every key
    for d, h, t, n in [(64, 4, 16, 0), (64, 4, 16, 1), (64, 4, 16, 5), (64, 4, 16, 16),
                       (21, 3, 9, 4)]:
        cases.append(Case(f"padding-d{d}-h{h}-T{t}-L{n}", d, h, t, *seeds(),
                          mask=f"padding:{n}"))
    cases.append(Case("padding-sharp-d16-h4-T20-L13", 16, 4, 20, mask="padding:13",
                      **sharp(16, 20)))
    # mask_combine(causal, padding)
    for d, h, t, n in [(64, 4, 16, 10), (64, 4, 16, 0), (21, 3, 9, 4), (8, 2, 1, 1)]:
        cases.append(Case(f"causal+padding-d{d}-h{h}-T{t}-L{n}", d, h, t, *seeds(),
                          mask=f"causal+padding:{n}"))
    cases.append(Case("causal+padding-sharp-d16-h4-T20-L13", 16, 4, 20,
                      mask="causal+padding:13", **sharp(16, 20)))
    # mask_from_bool on random truth tables
    for d, h, t, p in [(64, 4, 16, 0.7), (21, 3, 9, 0.5), (12, 4, 10, 0.25), (8, 2, 1, 1.0)]:
        cases.append(Case(f"bool-d{d}-h{h}-T{t}", d, h, t, *seeds(), mask="bool",
                          allowed=rng.random((t, t)) < p))
    allowed = rng.random((24, 24)) < 0.6
    allowed[5, :], allowed[17, :] = False, True     # a row sees nothing, one sees all
    cases.append(Case("bool-sharp-d16-h4-T24", 16, 4, 24, mask="bool", allowed=allowed,
                      **sharp(16, 24)))

    # library against library: (what, masked case, reference case, rows, control).
    # The masked case's first `rows` outputs must be the reference's, bit for
    # bit; the control (the masked case's inputs, no mask) must differ there,
    # or the check would prove nothing.
    pairs = []

    def pair(what, d, h, t, n, mask, ref_mask, **given):
        w = given.get("weights")
        ls = int(rng.integers(0, 2**63))
        x = rng.normal(size=(t, d))
        x[n:] *= 3.0                          # the padding: tokens unlike the rest
        base = f"{what}-d{d}-h{h}-T{t}-{'P' if what == 'prefix' else 'L'}{n}"
        cases.append(Case(base, d, h, t, ls, mask=mask, weights=w, x=x))
        cases.append(Case(base + "-alone", d, h, n, ls, mask=ref_mask, weights=w,
                          x=x[:n].copy()))
        cases.append(Case(base + "-unmasked", d, h, t, ls, weights=w, x=x))
        pairs.append((what, base, base + "-alone", n, base + "-unmasked"))

    def hand_weights(d):
        return [rng.normal(0, s, size=(d, d)) for s in (0.8, 0.8, 1, 1)]

    pair("padded", 64, 4, 16, 9, "padding:9", "none")
    pair("padded", 21, 3, 9, 1, "padding:1", "none")
    pair("padded-sharp", 16, 4, 20, 13, "padding:13", "none", weights=hand_weights(16))
    pair("padded-causal", 64, 4, 16, 9, "causal+padding:9", "causal")
    pair("padded-causal-sharp", 16, 4, 20, 13, "causal+padding:13", "causal",
         weights=hand_weights(16))
    pair("prefix", 16, 4, 12, 7, "causal", "causal")
    pair("prefix", 64, 4, 40, 25, "causal", "causal")
    return cases, pairs


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
        fast = fast_outputs(r)
        if (c.mask == "causal") != (len(fast) == 4):
            sys.exit(f"oracle: case {c.name}: mha_dump wrote {sorted(fast)}; the causal "
                     "cases need three tiled runs and the decoding loop, the others none")
        for k in fast:
            r[k] = r[k].reshape(t, d)
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
    ref = (worst[0] if isinstance(worst, list) else worst).name
    if rows is not None:
        got, exp = got[..., rows, :], exp[..., rows, :]
    if got.shape != exp.shape:
        raise Mismatch(f"case {case}, {what}: shape {got.shape}, expected {exp.shape}")
    if not np.all(np.isfinite(got)) or not np.all(np.isfinite(exp)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(got) | ~np.isfinite(exp))[0])
        raise Mismatch(f"case {case}, {what}{list(bad)}: library {got[bad]!r}, "
                       f"{ref} {exp[bad]!r} (not finite)")
    scale = float(np.max(np.abs(exp))) if exp.size else 0.0
    diff = np.abs(got - exp)
    ab = float(diff.max()) if diff.size else 0.0
    rel = ab / scale if scale > 0 else (0.0 if ab == 0 else np.inf)
    for w in worst if isinstance(worst, list) else [worst]:
        w.note(rel, ab, f"{case} {what}")
    if ab > TOL * scale:
        i = tuple(int(v) for v in np.unravel_index(np.argmax(diff), diff.shape))
        raise Mismatch(
            f"case {case}, {what}{list(i)}: library {got[i]!r}, {ref} {exp[i]!r}, "
            f"|difference| {diff[i]:.3g} > {TOL:g} * max|{what}| = {TOL * scale:.3g} "
            f"(normwise relative difference {rel:.3g})")


def check_mask(case, lib, ref):
    """the library's mask against NumPy's, bit for bit (-inf equals -inf)"""
    if lib is None or ref is None or lib.shape != ref.shape:
        raise Mismatch(f"case {case}: the library's mask is {lib is not None and lib.shape}, "
                       f"NumPy's {ref is not None and ref.shape}")
    if not np.array_equal(lib, ref):
        i = tuple(int(v) for v in np.argwhere(lib != ref)[0])
        raise Mismatch(f"case {case}, mask{list(i)}: library {lib[i]!r}, NumPy {ref[i]!r} "
                       "(the masks must be equal bit for bit)")


def check_case(torch, r, case, worst_np, worst_torch, breaks, notes, worst_fast=None):
    """one case against NumPy and against PyTorch in each of its mask forms;
    worst_np maps the kind of mask (and "all") to its Worst, worst_torch
    PyTorch's form of the mask (and "all"); worst_fast, per reference, the
    fast forms of the causal layer (check_fast)"""
    worst_fast = worst_fast or {"NumPy": {"all": Worst("NumPy")},
                                "PyTorch": {"all": Worst("PyTorch")}}
    name, h = case.name, r["h"]
    w_q, w_k, w_v, w_o, x = (r[k] for k in ("W_Q", "W_K", "W_V", "W_O", "X"))
    bias = numpy_mask(case, breaks)
    if case.mask != "none":
        check_mask(name, r["bias"], bias)

    out_np, wts_np = mha_numpy(x, w_q, w_k, w_v, w_o, h, bias,
                               scale="numpy-no-scale" not in breaks)
    kind = case.mask.partition(":")[0]
    worst = [worst_np["all"], worst_np.setdefault(kind, Worst("NumPy"))]
    compare(worst, name, "out", r["out"], out_np)
    compare(worst, name, "weights", r["weights"], wts_np)
    if case.mask == "causal":
        exp = out_np if "numpy-fast-unmasked" not in breaks else \
            mha_numpy(x, w_q, w_k, w_v, w_o, h)[0]
        check_fast(r, name, "NumPy", exp, worst_fast["NumPy"], breaks)

    tw = "torch-wo-not-transposed" not in breaks
    hidden = None if bias is None else np.all(bias == -np.inf, axis=1)
    for label, how, kw in torch_forms(torch, case, bias, breaks):
        if how == "sdpa":
            out_t, wts_t = sdpa_torch(torch, x, w_q, w_k, w_v, w_o, h, **kw)
        else:
            out_t, wts_t = mha_torch(torch, x, w_q, w_k, w_v, w_o, h, transpose_wo=tw, **kw)
        rows = None
        if hidden is not None and hidden.any():
            # PyTorch has no answer for a query that sees no key
            rows = ~hidden
            wts_note = ("" if wts_t is None else
                        f", weights {describe(wts_t[:, hidden])}")
            notes.add(f"PyTorch {torch.__version__}, {label}, a query with every key "
                      f"hidden: out {describe(out_t[hidden])}{wts_note} (the library: "
                      f"zeros, checked against NumPy; PyTorch compared on the other rows)")
            if not np.all(r["out"][hidden] == 0) or not np.all(r["weights"][:, hidden] == 0):
                raise Mismatch(f"case {name}: a fully hidden row is not all zeros")
        worst = [worst_torch["all"], worst_torch.setdefault(label, Worst("PyTorch"))]
        compare(worst, name, f"out ({label})", r["out"], out_t, rows)
        if wts_t is not None:
            compare(worst, name, f"weights ({label})", r["weights"], wts_t, rows)
        if case.mask == "causal" and how == "mha":
            exp = out_t if "torch-fast-unmasked" not in breaks else \
                mha_torch(torch, x, w_q, w_k, w_v, w_o, h)[0]
            check_fast(r, f"{name} ({label})", "PyTorch", exp, worst_fast["PyTorch"], breaks)


PAIR_TOL = 0.0   # bit for bit with the readable product; see --product


def check_pairs(results, pairs, breaks):
    """library against library, bit for bit: the first n rows of a masked
    run (padding masked, or the causal layer on more tokens) are the outputs
    of the n tokens alone, the weights of those rows are the reference's,
    and 0 on every later key. The control, the same inputs without the
    mask, must differ there. Returns the smallest change the control made."""
    least = np.inf
    for what, masked, ref, n, control in pairs:
        m = results[control if "padding-not-masked" in breaks else masked]
        a, c = results[ref], results[control]
        got = {"out": m["out"][:n], "weights": m["weights"][:, :n, :n]}
        for k, g in got.items():
            bound = PAIR_TOL * max(1.0, float(np.max(np.abs(a[k]))))
            if not (np.array_equal(g, a[k]) or np.all(np.abs(g - a[k]) <= bound)):
                i = tuple(int(v) for v in np.argwhere(np.abs(g - a[k]) > bound)[0])
                raise Mismatch(
                    f"{what}: case {masked}, {k}{list(i)} is {g[i]!r}, and {a[k][i]!r} in "
                    f"case {ref} (the same tokens alone); they must be equal "
                    + ("bit for bit" if PAIR_TOL == 0 else f"within {bound:.3g}"))
        if np.any(m["weights"][:, :n, n:] != 0):
            raise Mismatch(f"{what}: case {masked}: a real token gives a later key a weight")
        change = float(np.max(np.abs(c["out"][:n] - a["out"])))
        if not change > 0:
            raise Mismatch(f"{what}: case {control}: without the mask the later tokens "
                           "change nothing, so the check proves nothing")
        least = min(least, change / float(np.max(np.abs(a["out"]))))
    return least


def describe(a):
    if np.all(np.isnan(a)):
        return "all NaN"
    if np.all(a == 0):
        return "all zero"
    return f"finite {np.isfinite(a).mean():.0%}, e.g. {a.ravel()[:3]}"


# ---- the self-test: the comparison can fail ---------------------------------------
# Each mistake, applied to one reference on one case (or to the library
# against library check), must be caught. --break applies one to every case.
SELF_TEST = {
    "torch-wo-not-transposed": ("PyTorch given out_proj.weight = W_O, not W_O^T",
                                "sharp-d64-h4-T20"),
    "numpy-no-scale": ("NumPy without the 1/sqrt(d_k)", "sharp-d64-h4-T20"),
    "torch-causal-bool-not-negated": (
        "nn.MultiheadAttention given the causal mask as tril (True = visible, "
        "F.sdpa's reading), not triu(ones, 1)", "causal-sharp-d16-h4-T24"),
    "torch-sdpa-bool-negated": (
        "F.scaled_dot_product_attention given triu(ones, 1) (True = hidden), "
        "not tril", "causal-sharp-d16-h4-T24"),
    "torch-kpm-not-negated": ("key_padding_mask True on the real tokens, not the padding",
                              "padding-sharp-d16-h4-T20-L13"),
    "torch-combined-no-kpm": ("PyTorch given the causal attn_mask without the "
                              "key_padding_mask", "causal+padding-sharp-d16-h4-T20-L13"),
    "torch-bool-not-negated": ("nn.MultiheadAttention given allowed, not ~allowed",
                               "bool-sharp-d16-h4-T24"),
    "numpy-combine-or": ("NumPy combining causal and padding with a maximum (a key "
                         "visible where either mask lets it through)",
                         "causal+padding-sharp-d16-h4-T20-L13"),
    "numpy-causal-diagonal-hidden": ("NumPy's causal mask hiding the diagonal too",
                                     "causal-sharp-d16-h4-T24"),
    "padding-not-masked": ("the padded sequence run without its mask, against the "
                           "tokens alone", None),
    "numpy-fast-unmasked": ("NumPy's reference for the tiled layer and the decoding loop "
                            "without the causal mask", "causal-sharp-d16-h4-T24"),
    "torch-fast-unmasked": ("PyTorch's reference for the tiled layer and the decoding loop "
                            "without the causal mask", "causal-sharp-d16-h4-T24"),
    "decode-rows-shifted": ("the decoding loop's row t taken from step t - 1",
                            "causal-sharp-d16-h4-T24"),
}


def self_test(torch, results, by_name, pairs):
    for what, (label, case) in SELF_TEST.items():
        if what == "torch-sdpa-bool-negated" and not has_sdpa(torch):
            print(f"oracle self-test: {label}: skipped (no F.scaled_dot_product_attention)")
            continue
        try:
            if case is None:
                check_pairs(results, pairs, {what})
            else:
                check_case(torch, results[case], by_name[case], {"all": Worst("NumPy")},
                           {"all": Worst("PyTorch")}, {what}, set())
        except Mismatch as e:
            print(f"oracle self-test: {label}: caught ({str(e)[:70]}...)")
        else:
            sys.exit(f"oracle self-test: {label}: NOT caught on case {case}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dump", required=True, help="the mha_dump program")
    ap.add_argument("--break", dest="breaks", action="append", default=[],
                    choices=sorted(SELF_TEST), help="apply a deliberate mistake")
    ap.add_argument("--product", choices=("readable", "openblas"), default="readable",
                    help="the library's mm_matmul: the readable loops sum every element "
                    "in one order whatever the shape, so the library-vs-library pairs are "
                    "equal bit for bit; OpenBLAS (make BLAS=openblas) may sum in an order "
                    "that depends on the shape, so they are equal within 1e-12")
    args = ap.parse_args()
    global PAIR_TOL
    PAIR_TOL = 0.0 if args.product == "readable" else 1e-12
    start = time.monotonic()
    try:
        import torch
    except ImportError as e:
        sys.exit(f"oracle: PyTorch is not importable by {sys.executable} ({e}); "
                 "install python3-torch (make deps)")
    torch.set_num_threads(1)
    if "torch-sdpa-bool-negated" in args.breaks and not has_sdpa(torch):
        sys.exit(f"oracle: --break torch-sdpa-bool-negated cannot be applied: PyTorch "
                 f"{torch.__version__} has no torch.nn.functional.scaled_dot_product_"
                 "attention (it arrived in 2.0), so nothing is compared with it")

    cases, pairs = make_cases()
    by_name = {c.name: c for c in cases}
    results = run_library(args.dump, cases)
    for c in cases:   # what the library was given is what it used
        r = results[c.name]
        given = list(zip(("W_Q", "W_K", "W_V", "W_O"), c.weights or []))
        given += [("X", c.x)] if c.x is not None else []
        for k, a in given:
            if not np.array_equal(r[k], a):
                sys.exit(f"oracle: case {c.name}: the dumped {k} is not the one given")
        if (c.mask == "none") != (r["bias"] is None):
            sys.exit(f"oracle: case {c.name}: mha_dump's mask is not the one asked for")

    breaks = set(args.breaks)
    worst_np, worst_torch = {"all": Worst("NumPy")}, {"all": Worst("PyTorch")}
    worst_fast = {"NumPy": {"all": Worst("NumPy")}, "PyTorch": {"all": Worst("PyTorch")}}
    notes = set()
    try:
        for c in cases:
            check_case(torch, results[c.name], c, worst_np, worst_torch, breaks, notes,
                       worst_fast)
        least = check_pairs(results, pairs, breaks)
    except Mismatch as e:
        sys.exit(f"oracle: FAILED: {e}")
    if not args.breaks:
        self_test(torch, results, by_name, pairs)
    groups = {}
    for c in cases:
        g = c.name.split("-")[0]
        groups[g] = groups.get(g, 0) + 1
    print("oracle: cases: " + ", ".join(f"{n} {g}" for g, n in groups.items()))
    masks = sum(c.mask != "none" for c in cases)
    print(f"oracle: masks: {masks} built by the library (mask_causal, mask_padding, "
          "mask_combine, mask_from_bool) or given, each equal to NumPy's bit for bit")
    if has_sdpa(torch):
        print(f"oracle: F.scaled_dot_product_attention (PyTorch {torch.__version__}): "
              "the causal layer also compared with it, boolean attn_mask True = visible, "
              "heads split by hand")
    else:
        print(f"oracle: F.scaled_dot_product_attention: absent in PyTorch "
              f"{torch.__version__} (it arrived in 2.0); that form of the causal mask "
              "(boolean attn_mask, True = visible) is skipped")
    for n in sorted(notes):
        print(f"oracle: note: {n}")
    for by, what in ((worst_np, "mask"), (worst_torch, "form of the mask")):
        w = by["all"]
        print(f"oracle: library vs {w.name}: {len(cases)} cases, {w.arrays} arrays; "
              f"largest normwise relative difference {w.rel:.3g} ({w.where}), "
              f"largest absolute {w.abs:.3g}; tolerance {TOL:g} * max|expected|")
        print(f"oracle: library vs {w.name}, by {what}: " + "; ".join(
            f"{label} {w.rel:.3g} ({w.arrays} arrays)"
            for label, w in by.items() if label != "all"))
    n_causal = sum(c.mask == "causal" for c in cases)
    for ref, by in worst_fast.items():
        w = by["all"]
        print(f"oracle: chapter 05 vs {ref} (causal): {n_causal} cases, {w.arrays} arrays "
              f"(mha_forward_tiled, blocks QxK, and T steps of mha_decode_step); largest "
              f"normwise relative difference {w.rel:.3g} ({w.where}); by form: " + "; ".join(
                  f"{label} {v.rel:.3g}" for label, v in by.items() if label != "all"))
    print(f"oracle: library vs library: {len(pairs)} pairs (padding masked, padding and "
          "causal masked, causal prefix): the real tokens' outputs and weights equal "
          "to those of the tokens alone, "
          + ("bit for bit" if PAIR_TOL == 0 else f"within {PAIR_TOL:g} (OpenBLAS)")
          + f"; without the mask they change by at least {least:.3g} (normwise)")
    print(f"oracle: passed ({len(cases)} cases, mm_matmul {args.product}, NumPy {np.__version__}, "
          f"PyTorch {torch.__version__}, {time.monotonic() - start:.1f} s)")


if __name__ == "__main__":
    main()
