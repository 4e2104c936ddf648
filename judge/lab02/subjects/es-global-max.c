/* es-global-max.c - m-sdpa-global-max.c with the report in Spanish.
 * run-lang: es
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, caso 'puntuaciones grandes: fila 0 (1000, 999, 990), fila 1 (-1000, -999, -990): T_q=2 T_k=3 d_k=4 d_v=2': devolvió MM_EINVAL (1) con argumentos válidos; se esperaba MM_OK (0)
 * expect: pista: restaste el máximo de toda la matriz de puntuaciones (1000), no el de cada fila: la fila 1 queda 1990 por debajo
 * expect-not: hint:
 */
#include "m-sdpa-global-max.c"
