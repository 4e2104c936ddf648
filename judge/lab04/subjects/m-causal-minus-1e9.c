/* m-causal-minus-1e9.c - every mask writes -1e9 where a key is hidden,
 * not -INFINITY. The masks' values are wrong; the causal layer, whose
 * rows each see a key, gives the same weights (e^-1e9 is 0) and passes -
 * but for a future key whose score overflows: with a finite bias sdpa
 * scores it, and the layer returns MM_ERANGE.
 * run-only: mask_causal mha_forward_causal
 * expect-exit: 1
 * expect: hint: you wrote -1e+09 where a key is hidden, not -INFINITY
 * expect-re: ^  FAIL  mha_forward_causal, case 'a future key whose score would overflow .*': returned MM_ERANGE \(3\) for valid arguments; expected MM_OK
 * expect: hint: the last token's key, hidden from every earlier query, gives a score that overflows - and your layer computed it
 * expect-re: ^mask_causal +0 +4 +4$
 * expect-re: ^mha_forward_causal +0 +19 +1$
 */
#define HIDDEN (-1e9)
#include "base.h"
