/* m-forward-causal-after-softmax.c - mha_forward_causal computes each
 * head's weights over every key, then sets the hidden ones to 0: the rows
 * no longer sum to 1.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: you masked after the softmax
 */
#define OWN_SCORE(s, i, j) (s)
#define OWN_WEIGHT(w, i, j) ((j) <= (i) ? (w) : 0.0)
#include "own.h"
