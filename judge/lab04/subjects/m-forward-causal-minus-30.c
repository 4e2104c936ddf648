/* m-forward-causal-minus-30.c - mha_forward_causal builds its own mask
 * with -30 for a hidden key: every weight above the diagonal is about
 * e^-30 = 1e-13, within the tolerance of the values, but not 0.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect-re: weights of head 0, row 0, key 1 \(above the diagonal\) is [0-9.e-]+, not exactly 0
 * expect: hint: a hidden key's weight is exactly 0 only if its bias is -INFINITY
 */
static int inline_mask(double *bias, int T)
{
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) bias[i * T + j] = j <= i ? 0.0 : -30.0;
    return 0;
}
#define FC_MASK(bias, T) (inline_mask(bias, T), MM_OK)
#include "base.h"
