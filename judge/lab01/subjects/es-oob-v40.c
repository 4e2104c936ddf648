/* es-oob-v40.c - r-oob-v40.c with a Spanish LANG: the stray write past v,
 * the hang note and the learner's printed output, in Spanish.
 * run-env: LANG=es_ES.UTF-8
 * run-only: qkv_split
 * expect-exit: 1
 * expect: escribió más allá del final de v (elemento 44; v es (2, 2), elementos 0 a 3)
 * expect: llamada en curso: qkv_split(q, k, v, qkv, 2, 2, 2)
 * expect-re: ^función +pendientes +superadas +fallidas$ */
#include "r-oob-v40.c"
