/* es-softmax-no-max.c - m-softmax-no-max.c with the report in Spanish: the
 * hints of softmax_row (overflow, and the probe on the shifted row) and the
 * blame that sdpa puts on it.
 * run-lang: es
 * expect-exit: 1
 * expect: FAIL  softmax_row, caso 'puntuaciones grandes: s = (1003, 1001, 1000), los pesos de (3, 1, 0)': s tiene NaN en (0, 0)
 * expect: pista: exp(s_j) desborda a inf con las puntuaciones de (1003, 1001, 1000)
 * expect: pista: tu softmax_row da los pesos correctos para la misma fila desplazada por su máximo, s - máx(s) = (0, -1, -10) (máx(s) = -1000)
 * expect: pista: las puntuaciones están bien, pero tu softmax_row las convierte mal: con la fila 0, s = (1000, 999, 990)
 * expect-not: hint:
 */
#include "m-softmax-no-max.c"
