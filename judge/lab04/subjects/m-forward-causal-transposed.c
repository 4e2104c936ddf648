/* m-forward-causal-transposed.c - mha_forward_causal builds its own mask
 * with j >= i visible.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your causal mask is transposed: token i sees keys j >= i
 */
#define FC_SEES(i, j) ((j) >= (i))
#include "base.h"
