/* m-forward-causal-flipped.c - mha_forward_causal builds its own mask with
 * the convention flipped: -INFINITY where j <= i, 0 after.
 * run-only: mha_forward_causal
 * expect-exit: 1
 * expect: hint: your mask's convention is flipped: 0 where a key must be hidden
 */
#include <math.h>
static int inline_mask(double *bias, int T)
{
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) bias[i * T + j] = j <= i ? -INFINITY : 0.0;
    return 0;
}
#define FC_MASK(bias, T) (inline_mask(bias, T), MM_OK)
#include "base.h"
