# Lab 00, NumPy part, subject q-xt: X.T @ W_Q.
# Written by `lab00.py gen` (judge/lab00/subjects/lab00.py): solution.py with this change.
import numpy as np


def attention_tables(X, W_Q, W_K, W_V):
    """Every table of answers.txt, from X (T x d_model), W_Q and W_K
    (d_model x d_k) and W_V (d_model x d_v), all NumPy arrays."""
    d_k = W_Q.shape[1]
    Q = X.T @ W_Q
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
# run-args: --answers judge/lab00/subjects/correct-2dp.txt
# expect-exit: 1
# expect: First NumPy table that differs: [Q] Q = X W_Q, row 0, column 1:
# expect: hint: your NumPy Q is X.T @ W_Q: X.T has the tokens as its columns. X is square here (3 x 3), so the product has the right shape and the wrong values; with a number of tokens other than d_model it would not even run (a shape error).
# expect: [Q] your hand Q matches the reference but your NumPy Q does not: look at the line that computes Q (row 0, column 1: you wrote -1, NumPy gives 0.0000).
# expect: [S]       S = Q K^T                    WRONG      ok  NumPy follows from your NumPy [Q]
