/* es-keys-tq.c - m-sdpa-keys-tq.c with the report in Spanish: the case
 * names and the hint speak of queries and keys, as the Spanish book does.
 * The scores the weights imply are shown under the matrices, in Spanish.
 * run-lang: es
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, caso 'menos queries que keys: T_q=2 T_k=4 d_k=3 d_v=2': out está mal
 * expect: pista: recorriste T_q = 2 keys donde hay T_k = 4: cada query se puntúa
 * expect: CRASH sdpa, caso 'más queries que keys: T_q=4 T_k=3 d_k=2 d_v=3'
 * expect-not: consulta
 * expect-not: clave
 * expect-not: hint:
 * expect: las puntuaciones antes del softmax, cada fila menos su máximo (-inf: un peso 0): q k^T / sqrt(d_k) + bias esperadas, obtenidas las que implican tus pesos (log w):
 * expect-re: ^ +esperado scores \([0-9]+, [0-9]+\)(, una parte)? +obtenido scores$
 */
#include "m-sdpa-keys-tq.c"
