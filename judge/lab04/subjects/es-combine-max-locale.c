/* es-combine-max-locale.c - m-combine-max.c under a Spanish locale
 * (LANG=es_ES.UTF-8, no --lang): the report is in Spanish.
 * run-env: LANG=es_ES.UTF-8
 * run-only: mask_combine
 * expect-exit: 1
 * expect: pista: tomaste el mayor de los dos: max(0, -INFINITY) es 0
 * expect-not: hint:
 */
#include "m-combine-max.c"
