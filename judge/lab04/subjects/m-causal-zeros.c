/* m-causal-zeros.c - mask_causal writes 0 everywhere: the mask ignored
 * (what multiplying the hidden scores by 0 amounts to). The causal layer
 * is blamed on it.
 * run-only: mask_causal mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mask is 0 everywhere: it hides nothing
 * expect: hint: your mask_causal gives a wrong mask for T = 3
 */
#define HIDDEN 0.0
#include "base.h"
