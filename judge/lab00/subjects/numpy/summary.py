# Lab 00, NumPy part, subject summary: --summary of the solution.
# Written by `lab00.py gen` (judge/lab00/subjects/lab00.py): solution.py with this change.
import numpy as np


def attention_tables(X, W_Q, W_K, W_V):
    """Every table of answers.txt, from X (T x d_model), W_Q and W_K
    (d_model x d_k) and W_V (d_model x d_v), all NumPy arrays."""
    d_k = W_Q.shape[1]
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    S = Q @ K.T
    scaled = S / np.sqrt(d_k)
    m = scaled.max(axis=1)
    E = np.exp(scaled - m[:, None])
    r = E.sum(axis=1)
    A = E / r[:, None]
    O = A @ V
    return {"Q": Q, "K": K, "V": V, "S": S, "scaled": scaled, "max": m,
            "E": E, "sum": r, "A": A, "O": O}

# ---- what the checker must say about this file (judge/selftest/run-subject.sh)
# run-lang: en
# run-args: --answers judge/lab00/subjects/correct-2dp.txt --summary
# expect-exit: 0
# expect: numpy:Q	0	1	0
# expect: numpy:O	0	1	0
# expect: numpy:large	0	1	0
# expect-not: Lab 00
# expect-not: NumPy
