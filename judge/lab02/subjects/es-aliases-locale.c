/* es-aliases-locale.c - m-sdpa-no-alias-check.c under a Spanish locale
 * (LANG=es_ES.UTF-8, no --lang): the report is in Spanish.
 * run-env: LANG=es_ES.UTF-8
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, caso 'out = q': devolvió MM_OK (0) con out y q el mismo búfer; se esperaba MM_EINVAL (1)
 * expect: pista: una salida que comparte memoria con otro búfer lo sobrescribe mientras aún se lee
 * expect-not: hint:
 */
#include "m-sdpa-no-alias-check.c"
