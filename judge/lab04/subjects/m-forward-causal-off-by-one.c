/* m-forward-causal-off-by-one.c - mha_forward_causal builds its own mask
 * (mask_causal is right) with j < i visible.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your causal mask hides the diagonal too (j < i visible instead of j <= i)
 * expect-not: your mask_causal gives a wrong mask
 */
#define FC_SEES(i, j) ((j) < (i))
#include "base.h"
