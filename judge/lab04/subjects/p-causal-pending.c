/* p-causal-pending.c - every function written but mask_causal, still
 * LAB_TODO(): its checks are pending, and so is every check of
 * mha_forward_causal that gets as far as the mask (the base's layer calls
 * mask_causal); the checks it refuses before that pass, and nothing fails.
 * expect-exit: 0
 * expect-re: ^mask_causal +8 +0 +0$
 * expect-re: ^mask_padding +0 +11 +0$
 * expect-re: ^mha_forward_causal +18 +2 +0$
 * expect-not: FAIL
 */
#define MUTANT_mask_causal
#include "base.h"
mm_status mask_causal(double *bias, int T)
{
    LAB_TODO();
}
