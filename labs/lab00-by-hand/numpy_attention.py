# Lab 00, part 2: the same computation in NumPy / el mismo cálculo en NumPy
#
# You have computed every table by hand in answers.txt. Now write each one
# as a line of NumPy: replace each `None  # LAB_TODO` below with the NumPy
# expression of that table, then run `make lab NN=00`. The checker calls
# attention_tables with the example's inputs (those of answers.txt), compares
# every table with the reference and with your hand tables, and calls it
# again with X times 30, where the scores are large.
#
# Has calculado cada tabla a mano en answers.txt. Ahora escribe cada una
# como una línea de NumPy: cambia cada `None  # LAB_TODO` de abajo por la
# expresión de NumPy de esa tabla y ejecuta `make lab NN=00`. El verificador
# llama a attention_tables con las entradas del ejemplo (las de answers.txt),
# compara cada tabla con la referencia y con tus tablas a mano, y la llama de
# nuevo con X por 30, donde las puntuaciones son grandes.
#
# A table left as None is pending. Keep the names of the tables: the
# checker reads them, also to say which table a failing line computes.
# Una tabla que sigue en None está pendiente. No cambies los nombres de las
# tablas: el verificador los lee, también para decir qué tabla calcula una
# línea que falla.
#
# NumPy: A @ B (matrix product / producto de matrices), A.T (transpose /
# traspuesta), np.sqrt, np.exp, a.max(axis=...), a.sum(axis=...).
import numpy as np


def attention_tables(X, W_Q, W_K, W_V):
    """Every table of answers.txt, from X (T x d_model), W_Q and W_K
    (d_model x d_k) and W_V (d_model x d_v), all NumPy arrays."""
    d_k = W_Q.shape[1]
    Q = None        # LAB_TODO  [Q]       Q = X W_Q                     (T x d_k)
    K = None        # LAB_TODO  [K]       K = X W_K                     (T x d_k)
    V = None        # LAB_TODO  [V]       V = X W_V                     (T x d_v)
    S = None        # LAB_TODO  [S]       S = Q K^T                     (T x T)
    scaled = None   # LAB_TODO  [scaled]  S / sqrt(d_k)                 (T x T)
    m = None        # LAB_TODO  [max]     m_i = max_j scaled_ij         (T values)
    E = None        # LAB_TODO  [E]       E_ij = exp(scaled_ij - m_i)   (T x T)
    r = None        # LAB_TODO  [sum]     r_i = sum_j E_ij              (T values)
    A = None        # LAB_TODO  [A]       A_ij = E_ij / r_i             (T x T)
    O = None        # LAB_TODO  [O]       O = A V                       (T x d_v)
    return {"Q": Q, "K": K, "V": V, "S": S, "scaled": scaled, "max": m,
            "E": E, "sum": r, "A": A, "O": O}
