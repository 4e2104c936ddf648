/* p-split-pending.c - mha_merge_heads and mha_forward written, mha_split_heads
 * not started (LAB_TODO()): the split's checks are pending, and so is
 * every check of the others that calls it (the round trip, and mha_forward
 * wherever it gets as far as the split); what runs without it passes, and
 * nothing fails.
 * expect-exit: 0
 * expect-re: ^mha_split_heads +14 +0 +0$
 * expect-re: ^mha_merge_heads +1 +14 +0$
 * expect-re: ^mha_forward +20 +4 +0$
 * expect-not: FAIL
 */
#define MUTANT_mha_split_heads
#include "base.h"
mm_status mha_split_heads(double *heads, const double *m, int T, int n_heads, int d_k)
{
    LAB_TODO();
}
