/* m-forward-causal-off-by-one.c - mha_forward_causal builds its own mask
 * (mask_causal is right) with j < i visible.
 * The keys each query sees are shown as the causal mask's beside the
 * weights', as grids.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your causal mask hides the diagonal too (j < i visible instead of j <= i)
 * expect-not: your mask_causal gives a wrong mask
 * expect: the keys each query sees in head 0 (x: a weight above 0, .: a weight of 0, ?: NaN or below 0), the causal mask's beside your weights':
 * expect-re: ^ +expected +got$
 * expect-re: ^ +x \. \. +\.\*\. \. *$
 * expect-re: ^ +x x x +x x \.\*$
 * expect: the concatenation is already wrong, in the columns of heads 0 and 1 (d_k = 2 a head): the mistake is before W_O
 */
#define FC_SEES(i, j) ((j) < (i))
#include "base.h"
