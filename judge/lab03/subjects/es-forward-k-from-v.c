/* es-forward-k-from-v.c - m-forward-k-from-v.c with the report in Spanish:
 * the hint speaks of keys and values, as the Spanish book does.
 * run-lang: es
 * run-only: mha_forward
 * expect-exit: 1
 * expect: pista: tus keys son los values: X W_QKV es [Q | K | V], las keys son su bloque central
 * expect-not: consulta
 * expect-not: clave
 * expect-not: hint:
 */
#include "m-forward-k-from-v.c"
