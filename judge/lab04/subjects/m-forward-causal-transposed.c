/* m-forward-causal-transposed.c - mha_forward_causal builds its own mask
 * with j >= i visible.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your causal mask is transposed: token i sees keys j >= i
 */
#include <math.h>
static int inline_mask(double *bias, int T)
{
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) bias[i * T + j] = j >= i ? 0.0 : -INFINITY;
    return 0;
}
#define FC_MASK(bias, T) (inline_mask(bias, T), MM_OK)
#include "base.h"
