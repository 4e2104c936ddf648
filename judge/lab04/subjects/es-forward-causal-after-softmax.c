/* es-forward-causal-after-softmax.c - m-forward-causal-after-softmax.c with
 * the report in Spanish.
 * run-lang: es
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: pista: aplicaste la máscara después del softmax
 * expect: pista: con la máscara causal, el token t ve los tokens 0 .. t y nada más
 * expect-not: hint:
 */
#include "m-forward-causal-after-softmax.c"
