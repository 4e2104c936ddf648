/* es-no-wo-locale.c - m-forward-no-wo.c under a Spanish locale
 * (LANG=es_ES.UTF-8, no --lang): the report is in Spanish.
 * run-env: LANG=es_ES.UTF-8
 * run-only: mha_forward
 * expect-exit: 1
 * expect: pista: tu out son las salidas de las cabezas una al lado de otra, sin multiplicar por W_O
 * expect-not: hint:
 */
#include "m-forward-no-wo.c"
