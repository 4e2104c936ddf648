/* es-segv-locale.c - r-segv.c run with a Spanish LANG and no --lang: the
 * crash report is in Spanish.
 * run-env: LANG=es_ES.UTF-8
 * expect-exit: nonzero
 * expect@plain: CRASH qkv_project, caso 'q = NULL': se detuvo (señal 11, SIGSEGV, un acceso a memoria no válido
 * expect@sanitize: CRASH qkv_project, caso 'q = NULL': UndefinedBehaviorSanitizer:
 * expect: llamada en curso: qkv_project(NULL, k, v, x, w_q, w_k, w_v, 2, 2, 2, 2) */
#include "r-segv.c"
