/* es-count-no-wo.c - m-count-no-wo.c with the report in Spanish (--lang=es):
 * the failure, the hint, the table and the closing line.
 * run-only: attention_param_count
 * run-lang: es
 * expect-exit: nonzero
 * expect: attention_param_count, caso 'd_model=64 n_heads=4': attention_param_count(&count, 64, 4) dejó count = 12288; se esperaba 16384
 * expect: pista: olvidaste W_O
 * expect-re: ^función +pendientes +superadas +fallidas$
 * expect-re: ^attention_param_count +0 +3 +6$
 * expect: 6 comprobaciones FALLAN (mensajes arriba), 0 pendientes, 3 superadas.
 * expect-not: hint: */
#include "m-count-no-wo.c"
