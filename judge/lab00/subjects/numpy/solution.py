# The reference solution of Lab 00's NumPy part (numpy_attention.py done),
# written by hand. The other subjects of this folder are this file with one
# change each, written by `lab00.py gen` (judge/lab00/subjects/lab00.py).
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
# run-args: --answers build/labs/lab00/selftest/subjects/correct-2dp.txt
# expect-exit: 0
# expect: NumPy: 10 of 10 tables right, 0 wrong, 0 pending; large inputs: ok.
# expect: Every NumPy table is right, on the example and on the large inputs
# expect: [O]       O = A V                      ok         ok
# expect-not: disagree
# expect-not: hint
