/* es-project-k-uses-wq.c - m-project-k-uses-wq.c with the report in Spanish
 * (--lang=es): a wrong output, the case name and the hint.
 * run-only: qkv_project
 * run-lang: es
 * expect-exit: nonzero
 * expect: qkv_project, caso 'no cuadrado T=3 d_model=4 d_k=2 d_v=3': k está mal
 * expect: primer elemento erróneo (0, 0): se esperaba
 * expect: tolerancia |obtenido - esperado| <=
 * expect: pista: tu k es X W_Q: K = X W_K */
#include "m-project-k-uses-wq.c"
