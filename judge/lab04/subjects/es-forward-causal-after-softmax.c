/* es-forward-causal-after-softmax.c - m-forward-causal-after-softmax.c with
 * the report in Spanish.
 * Each head's weights, and the heads side by side before W_O, in Spanish.
 * run-lang: es
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: pista: aplicaste la máscara después del softmax
 * expect: pista: con la máscara causal, el token t ve los tokens 0 .. t y nada más
 * expect-not: hint:
 * expect: los pesos de cada cabeza, con los que se hace out:
 * expect-re: ^ +cabeza 0 +cabeza 0$
 * expect: las salidas de las cabezas una al lado de otra, antes de W_O: tu mha_forward_causal otra vez con este caso y W_O = I, así que su out son ellas
 * expect-re: ^ +cabeza 0 +cabeza 1 +cabeza 0 +cabeza 1$
 * expect: la concatenación ya está mal, en las columnas de las cabezas 0 y 1 (d_k = 2 por cabeza): el error está antes de W_O
 */
#include "m-forward-causal-after-softmax.c"
