/* es-split-reshape.c - m-split-reshape.c with the report in Spanish: the
 * split's hint and the blame that mha_forward puts on it.
 * run-lang: es
 * expect-exit: 1
 * expect: pista: copiaste m tal cual, leyendo el búfer (T, d_model) como si ya fuera (n_heads, T, d_k)
 * expect: pista: tu mha_split_heads no da las cabezas correctas con el [Q | K | V] = X W_QKV de este caso
 * expect-not: hint:
 */
#include "m-split-reshape.c"
