/* m-forward-causal-mask-added.c - the causal layer with each head's
 * attention written out (own.h), which scores every key and adds the
 * mask to each score, 0 or -inf: right wherever the scores are finite.
 * A future key whose score overflows gives inf + (-inf) = NaN, and the
 * layer then refuses its own NaN.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect-re: ^  FAIL  mha_forward_causal, case 'a future key whose score would overflow .*: random T=[0-9]+, d_model=8, 2 heads \(seed [0-9]+\)': returned MM_EINVAL \(1\) for valid arguments; expected MM_OK
 * expect: hint: the last token's key, hidden from every earlier query, gives a score that overflows - and your layer computed it (or added the mask to it: inf + (-inf) is NaN)
 * expect-not: hint: a NaN appeared inside your layer
 * expect-re: ^mha_forward_causal +0 +19 +1$
 */
#define OWN_SCORE(s, i, j) ((s) + ((j) <= (i) ? 0.0 : -INFINITY))
#define OWN_ALL_SCORES
#include "own.h"
