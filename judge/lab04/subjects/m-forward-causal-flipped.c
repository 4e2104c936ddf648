/* m-forward-causal-flipped.c - mha_forward_causal builds its own mask with
 * the convention flipped: -INFINITY where j <= i, 0 after.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mask's convention is flipped: 0 where a key must be hidden
 */
#define FC_SEES(i, j) ((j) > (i))
#include "base.h"
