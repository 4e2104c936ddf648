/* m-forward-causal-minus-30.c - mha_forward_causal builds its own mask
 * with -30 for a hidden key: every weight above the diagonal is about
 * e^-30 = 1e-13, within the tolerance of the values, but not 0.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect-re: weights of head 0, row 0, key 1 \(above the diagonal\) is [0-9.e-]+, not exactly 0
 * expect: hint: a hidden key's weight is exactly 0 only if its bias is -INFINITY
 */
#define FC_SEES(i, j) ((j) <= (i))
#define FC_HIDDEN (-30.0)
#include "base.h"
