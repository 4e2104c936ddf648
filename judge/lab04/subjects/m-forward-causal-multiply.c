/* m-forward-causal-multiply.c - mha_forward_causal multiplies each hidden
 * score by 0 (a 0/1 mask times the scores) before the softmax.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: you multiplied the hidden scores by 0
 */
#define OWN_SCORE(s, i, j) ((s) * ((j) <= (i) ? 1.0 : 0.0))
#include "own.h"
