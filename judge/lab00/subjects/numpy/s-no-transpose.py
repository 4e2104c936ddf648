# Lab 00, NumPy part, subject s-no-transpose: Q @ K: a shape error.
# Written by `lab00.py gen` (judge/lab00/subjects/lab00.py): solution.py with this change.
import numpy as np


def attention_tables(X, W_Q, W_K, W_V):
    """Every table of answers.txt, from X (T x d_model), W_Q and W_K
    (d_model x d_k) and W_V (d_model x d_v), all NumPy arrays."""
    d_k = W_Q.shape[1]
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    S = Q @ K
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
# expect: Your NumPy code raised ValueError while computing [S] at line 13:
# expect:         S = Q @ K
# expect: ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0
# expect: On that line: Q is 3 x 4, K is 3 x 4.
# expect: hint: A @ B needs as many columns in A as rows in B
# expect: hint: [S] is S = Q @ K.T
# expect: [S]       S = Q K^T                    WRONG      ok  NumPy raised here
# expect: NumPy: 3 of 10 tables right, 1 wrong, 6 pending
