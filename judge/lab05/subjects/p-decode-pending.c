/* p-decode-pending.c - softmax_online and sdpa_causal_tiled written,
 * mha_decode_step not started (LAB_TODO()): its checks are pending, the
 * others pass, and the run succeeds.
 * expect-exit: 0
 * expect-re: ^softmax_online +0 +13 +0$
 * expect-re: ^sdpa_causal_tiled +0 +17 +0$
 * expect-re: ^mha_decode_step +15 +0 +0$
 * expect-not: FAIL
 */
#define MUTANT_mha_decode_step
#include "base.h"

mm_status mha_decode_step(double *out, mha_cache *cache, const double *x)
{
    LAB_TODO();
}
