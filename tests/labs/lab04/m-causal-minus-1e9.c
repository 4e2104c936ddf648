/* m-causal-minus-1e9.c - every mask writes -1e9 where a key is hidden,
 * not -INFINITY. The masks' values are wrong; the causal layer, whose
 * rows each see a key, gives the same weights (e^-1e9 is 0) and passes.
 * run-only: mask_causal mha_forward_causal
 * expect-exit: 1
 * expect: hint: you wrote -1e+09 where a key is hidden, not -INFINITY
 * expect-re: ^mask_causal +0 +4 +3$
 * expect-re: ^mha_forward_causal +0 +14 +0$
 */
#define HIDDEN (-1e9)
#include "base.h"
